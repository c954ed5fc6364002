//! The script parser.

use crate::script::protocol::{ContextJson, SignatureJson};
use dioptra_semantics::context::{define_types, ConcreteContext, Context, Signature};
use dioptra_semantics::diag::Diag;
use dioptra_semantics::text::sexpr::{read_all, Node};
use dioptra_semantics::text::{parse_type, parse_typed_literal};
use dioptra_semantics::types::DataLayout;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where a case is evaluated or checked.
#[derive(Clone, Debug)]
pub enum Env {
    /// Static checks only.
    Sig(Arc<Signature>),
    /// A full context (its signature serves static checks).
    Ctx(Arc<ConcreteContext>),
}

impl Env {
    pub fn signature(&self) -> Signature {
        match self {
            Env::Sig(s) => (**s).clone(),
            Env::Ctx(c) => c.signature(),
        }
    }
    pub fn layout(&self) -> DataLayout {
        match self {
            Env::Sig(s) => s.layout.clone(),
            Env::Ctx(c) => c.layout.clone(),
        }
    }
    pub fn signature_json(&self) -> SignatureJson {
        SignatureJson::from_signature(&self.signature())
    }
    pub fn context_json(&self) -> Option<ContextJson> {
        match self {
            Env::Ctx(c) => Some(ContextJson::from_context(c)),
            Env::Sig(_) => None,
        }
    }
}

/// What a case asserts.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// `(assert_wellformed EXPR (in N)? (type "T"))`
    WellFormed { ty: String },
    /// `(assert_illformed EXPR (in N)? (reason "C: code"))`
    IllFormed { reason: String },
    /// `(assert_malformed EXPR (reason "C: code"))`
    Malformed { reason: String },
    /// `(assert_location EXPR (in CTX) (location "LOC") (type "T")?)`
    Location { loc: String, ty: Option<String> },
    /// `(assert_value EXPR (in CTX) (value "T LITERAL"))`
    Value { value: String },
    /// `(assert_eval_error EXPR (in CTX) (reason "C: code"))`
    EvalError { reason: String },
    /// `(assert_unsupported EXPR (in N)? (reason "C: code"))`
    Unsupported { reason: String },
    /// `(assert_equiv SOURCE TARGET (in SIG)? (verdict "equivalent"))`:
    /// the SMT verdict on the two expressions (`expr` is the source).
    Equiv { target: String, verdict: String },
    /// `(assert_lowering EXPR (in CTX) (target "amdgpu") (listing "...") | (reason "C: not-expressible") (proof "proven")?)`:
    /// the lowering's listing (checked exactly, by the reference only) and the
    /// lowering law in the context and variants of it, and what the prover
    /// concludes for every context with the inputs' places; or the diagnostic.
    Lowering {
        target: String,
        listing: Option<String>,
        reason: Option<String>,
        /// `(proof "proven")`: also what `lower --prove` concludes.
        proof: Option<String>,
    },
    /// `(assert_dwarf_equiv EXPR (in CTX) (dwarf "HEX or LISTING") (verdict "same") (proof "proven")?)`:
    /// does the DWARF describe the expression's location (`same` or `differ`),
    /// and what does the prover conclude?
    DwarfEquiv {
        dwarf: String,
        verdict: String,
        /// `(proof "proven")`: also what `dwarf-equiv --prove` concludes.
        proof: Option<String>,
    },
    /// `(assert_module_lowering MODULE (in CTX) (target "amdgpu") (listing "...") | (reason "C: code"))`:
    /// the module's location lists (checked exactly, by the reference only)
    /// and the lifetime law at every point in the context and variants.
    ModuleLowering {
        target: String,
        listing: Option<String>,
        reason: Option<String>,
        /// `(proof "proven")`: every segment's entry that calls no other
        /// list is proven (or refines), and at least one is proven.
        proof: Option<String>,
    },
    /// `(assert_module_wellformed MODULE)`
    ModuleWellFormed,
    /// `(assert_module_illformed MODULE (reason "C: code"))`: some diagnostic matches.
    ModuleIllFormed { reason: String },
    /// `(assert_module_malformed MODULE (reason "C: code"))`
    ModuleMalformed { reason: String },
    /// `(assert_object MODULE (object "!1") (at LINE) (in CTX)? (block_local)?
    /// (segments "!2 !3")? (location "LOC")? (value "T V")? (error "C: code")?)`
    Object {
        object: String,
        at: u32,
        block_local: bool,
        segments: Option<String>,
        loc: Option<String>,
        value: Option<String>,
        error: Option<String>,
    },
    /// `(assert_multilocation MODULE (at LINE) (current "LINE LINE"))` or
    /// `(assert_multilocation MODULE (reason "C: code"))`: the lines of the
    /// calls the multi-location proposal makes current at a point (and the
    /// translation to lifetimes agreeing at every point), or why the
    /// listing is rejected.
    MultiLocation {
        at: Option<u32>,
        current: Option<String>,
        reason: Option<String>,
    },
    /// `(assert_dwarf_variable "OBJECT-FILE" (variable "function::name")
    /// (pc "0x4") (in CTX) (location "LOC")? (value "0x2a")? (error "C: code")?
    /// (outcome "located" | "unavailable" | "failed")?)`: a variable of a
    /// real object file (the path relative to the script) at a pc in a
    /// machine state (`dioptra dwarf --at`).
    DwarfVariable {
        variable: String,
        pc: u64,
        loc: Option<String>,
        value: Option<String>,
        error: Option<String>,
        outcome: Option<String>,
    },
    /// `(assert_ir_record "MODULE.ll" (line N) (verdict "well-formed") |
    /// (error "C: code") (killed "yes"|"no")?)`: the verdict `dioptra ir`
    /// gives the debug record on line N of a real module (the path
    /// relative to the script).
    IrRecord {
        line: u32,
        verdict: Option<String>,
        error: Option<String>,
        killed: Option<bool>,
    },
    /// `(assert_join MODULE (object "!23") (at LINE) (location "undef" |
    /// "i32 %x, !DIExpression()"))`: a variable's location at a point by
    /// LiveDebugValues' join rule.
    Join {
        object: String,
        at: u32,
        location: String,
    },
}

impl Expect {
    /// Does the case need evaluation (and so a context)?
    pub fn evaluates(&self) -> bool {
        matches!(
            self,
            Expect::Location { .. }
                | Expect::Value { .. }
                | Expect::EvalError { .. }
                | Expect::Lowering { .. }
                | Expect::DwarfEquiv { .. }
                | Expect::DwarfVariable { .. }
        )
    }
    /// Is the case checked in process by the reference only (DWARF, the
    /// multi-location proposal, the join rule: none is in the line
    /// protocol)?
    pub fn in_process(&self) -> bool {
        matches!(
            self,
            Expect::Lowering { .. }
                | Expect::DwarfEquiv { .. }
                | Expect::ModuleLowering { .. }
                | Expect::MultiLocation { .. }
                | Expect::Join { .. }
                | Expect::DwarfVariable { .. }
                | Expect::IrRecord { .. }
        )
    }
    /// Is the case about a module listing (`expr` holds the listing)?
    pub fn is_module(&self) -> bool {
        matches!(
            self,
            Expect::ModuleWellFormed
                | Expect::ModuleLowering { .. }
                | Expect::ModuleIllFormed { .. }
                | Expect::ModuleMalformed { .. }
                | Expect::Object { .. }
                | Expect::MultiLocation { .. }
                | Expect::Join { .. }
        )
    }
}

/// One assertion of a script.
#[derive(Clone, Debug)]
pub struct Case {
    pub file: String,
    pub line: u32,
    pub expr: String,
    pub env: Env,
    /// The environment's name (`-` for the default signature).
    pub env_name: String,
    pub expect: Expect,
    /// `(decision "D-...")`: the decision-register entry this case backs.
    pub decision: Option<String>,
    /// `(erratum "E-...")`: the errata-register entry this case shows.
    pub erratum: Option<String>,
    /// `(intrinsic ...)`, `(high ...)`, `(variable ...)`: the parameters of
    /// a classic expression; `None` when the case names none.
    pub classic: Option<crate::script::protocol::ClassicJson>,
}

/// A parsed script.
#[derive(Clone, Debug)]
pub struct Script {
    pub file: String,
    /// `(spec "SECTION")`: the spec section the file covers.
    pub spec: Vec<String>,
    pub cases: Vec<Case>,
}

fn err(file: &str, n: &Node, reason: &'static str, msg: impl Into<String>) -> Diag {
    Diag::malformed(
        "Script",
        reason,
        format!("{file}:{}: {}", n.pos(), msg.into()),
    )
}

fn one_str<'a>(file: &str, form: &'a Node, rest: &'a [Node], what: &str) -> Result<&'a str, Diag> {
    match rest {
        [s] => s
            .str()
            .ok_or_else(|| err(file, form, "bad-form", format!("{what} takes one string"))),
        _ => Err(err(
            file,
            form,
            "bad-form",
            format!("{what} takes one string"),
        )),
    }
}

fn signature(file: &str, clauses: &[Node]) -> Result<Signature, Diag> {
    let mut sig = Signature::default();
    for cl in clauses {
        if let Some(("layout", rest)) = cl.form() {
            sig.layout = DataLayout::parse(one_str(file, cl, rest, "layout")?)?;
        }
    }
    for cl in clauses {
        if let Some(("types", rest)) = cl.form() {
            define_types(&mut sig.layout, cl, rest)?;
        }
    }
    for cl in clauses {
        let Some((head, rest)) = cl.form() else {
            return Err(err(file, cl, "bad-form", "expected a (clause ...)"));
        };
        let ty = |what| -> Result<_, Diag> {
            let t = parse_type(one_str(file, cl, rest, what)?)?;
            sig.layout
                .check_size(&t)
                .map_err(|e| err(file, cl, "bad-type", e.to_string()))?;
            Ok(t)
        };
        match head {
            "layout" | "types" => {}
            "referrer" => sig.referrer = Some(ty("referrer")?),
            "arg" => sig.args.push(ty("arg")?),
            "typeobject" => sig.type_object = Some(ty("typeobject")?),
            "simt" => sig.simt = true,
            other => {
                return Err(err(
                    file,
                    cl,
                    "bad-form",
                    format!("`{other}` is not a signature clause"),
                ))
            }
        }
    }
    Ok(sig)
}

/// Parses the text of a script file.
pub fn parse_script(file: &str, text: &str) -> Result<Script, Diag> {
    let nodes = read_all(text, "Script")?;
    let mut envs: BTreeMap<String, Env> = BTreeMap::new();
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    let mut script = Script {
        file: file.to_string(),
        spec: Vec::new(),
        cases: Vec::new(),
    };
    for n in &nodes {
        let Some((head, rest)) = n.form() else {
            return Err(err(file, n, "bad-form", "expected a (form ...)"));
        };
        match head {
            "spec" => script
                .spec
                .push(one_str(file, n, rest, "spec")?.to_string()),
            "context" | "signature" => {
                let Some(name) = rest.first().and_then(Node::atom) else {
                    return Err(err(file, n, "bad-form", format!("({head} NAME clause...)")));
                };
                let env = if head == "context" {
                    let c = ConcreteContext::from_clauses(&rest[1..])
                        .map_err(|e| err(file, n, e.reason, e.to_string()))?;
                    Env::Ctx(Arc::new(c))
                } else {
                    Env::Sig(Arc::new(signature(file, &rest[1..])?))
                };
                if envs.insert(name.to_string(), env).is_some() {
                    return Err(err(
                        file,
                        n,
                        "duplicate-name",
                        format!("`{name}` is declared twice"),
                    ));
                }
            }
            "module" => {
                // `(module NAME (file "x.ll"))`: a module file beside the
                // script, read as `dioptra lifetimes` reads it.
                let from_file = rest.get(1).and_then(Node::form).and_then(|(k, v)| {
                    (k == "file")
                        .then(|| v.first().and_then(Node::str))
                        .flatten()
                });
                let loaded;
                let (Some(name), Some(text)) = (
                    rest.first().and_then(Node::atom),
                    match from_file {
                        Some(path) => {
                            let full = std::path::Path::new(file)
                                .parent()
                                .unwrap_or(std::path::Path::new("."))
                                .join(path);
                            loaded = crate::input::read_file(&full, "Module")
                                .map_err(|d| err(file, n, "bad-file", d.to_string()))?;
                            Some(loaded.as_str())
                        }
                        None => rest.get(1).and_then(Node::str),
                    },
                ) else {
                    return Err(err(
                        file,
                        n,
                        "bad-form",
                        "(module NAME \"LISTING\") or (module NAME (file \"PATH\"))",
                    ));
                };
                if rest.len() != 2 || modules.insert(name.to_string(), text.to_string()).is_some() {
                    return Err(err(
                        file,
                        n,
                        "duplicate-name",
                        format!("(module {name} ...) is malformed or declared twice"),
                    ));
                }
            }
            h if h.starts_with("assert_module_")
                || ["assert_object", "assert_multilocation", "assert_join"].contains(&h) =>
            {
                script
                    .cases
                    .push(module_case(file, n, h, rest, &envs, &modules)?)
            }
            "assert_dwarf_variable" => script.cases.push(object_case(file, n, rest, &envs)?),
            "assert_ir_record" => script.cases.push(ir_case(file, n, rest, &envs)?),
            h if h.starts_with("assert_") => script.cases.push(case(file, n, h, rest, &envs)?),
            other => return Err(err(file, n, "unknown-form", format!("`{other}`"))),
        }
    }
    if script.spec.is_empty() {
        return Err(Diag::malformed(
            "Script",
            "no-spec",
            format!("{file}: every script names the spec section it covers with (spec \"...\")"),
        ));
    }
    Ok(script)
}

/// The clauses of an assertion: where it runs, flags, and string fields.
struct Clauses<'a> {
    env: Option<Env>,
    env_name: String,
    block_local: bool,
    fields: BTreeMap<&'a str, String>,
}

impl Clauses<'_> {
    /// A required string field.
    /// The clauses of a lowering assertion: `(target "amdgpu"|"dwarf5")` and
    /// exactly one of `(listing ...)` and `(reason ...)`.
    fn lowering(
        &mut self,
        file: &str,
        n: &Node,
        head: &str,
    ) -> Result<(String, Option<String>, Option<String>), Diag> {
        let target = self.need(file, n, head, "target")?;
        if !["amdgpu", "dwarf5"].contains(&target.as_str()) {
            return Err(err(
                file,
                n,
                "bad-form",
                format!("target `{target}`: amdgpu or dwarf5"),
            ));
        }
        let listing = self.fields.remove("listing");
        let reason = self.fields.remove("reason");
        if listing.is_some() == reason.is_some() {
            return Err(err(
                file,
                n,
                "bad-form",
                format!("{head} takes (listing ...) or (reason ...)"),
            ));
        }
        Ok((target, listing, reason))
    }

    /// An optional `(proof "proven"|"refines"|"not-proven"|"unknown")`.
    fn proof(&mut self, file: &str, n: &Node) -> Result<Option<String>, Diag> {
        let p = self.fields.remove("proof");
        if let Some(p) = &p {
            if !["proven", "refines", "not-proven", "unknown"].contains(&p.as_str()) {
                return Err(err(
                    file,
                    n,
                    "bad-form",
                    format!("proof `{p}`: proven, refines, not-proven or unknown"),
                ));
            }
        }
        Ok(p)
    }

    fn need(&mut self, file: &str, n: &Node, head: &str, k: &str) -> Result<String, Diag> {
        self.fields
            .remove(k)
            .ok_or_else(|| err(file, n, "bad-form", format!("{head} needs ({k} ...)")))
    }
    /// No field may be left over.
    fn finish(&self, file: &str, n: &Node, head: &str) -> Result<(), Diag> {
        match self.fields.keys().next() {
            Some(k) => Err(err(
                file,
                n,
                "bad-form",
                format!("({k} ...) does not belong in {head}"),
            )),
            None => Ok(()),
        }
    }
}

/// Reads `(in NAME)`, `(sig ...)`, `(block_local)`, `(at LINE)` and the
/// string clauses named in `strings`.
fn clauses<'a>(
    file: &str,
    head: &str,
    rest: &'a [Node],
    envs: &BTreeMap<String, Env>,
    strings: &[&str],
) -> Result<Clauses<'a>, Diag> {
    let mut c = Clauses {
        env: None,
        env_name: "-".to_string(),
        block_local: false,
        fields: BTreeMap::new(),
    };
    for cl in rest {
        let Some((k, v)) = cl.form() else {
            return Err(err(file, cl, "bad-form", "expected a (clause ...)"));
        };
        match k {
            "in" => {
                let Some(name) = v.first().and_then(Node::atom) else {
                    return Err(err(file, cl, "bad-form", "(in NAME)"));
                };
                let e = envs.get(name).cloned().ok_or_else(|| {
                    err(
                        file,
                        cl,
                        "unknown-name",
                        format!("no context or signature `{name}`"),
                    )
                })?;
                c.env = Some(e);
                c.env_name = name.to_string();
            }
            "sig" if strings.contains(&"type") => {
                c.env = Some(Env::Sig(Arc::new(signature(file, v)?)));
                c.env_name = "(inline)".into();
            }
            "block_local" if strings.contains(&"object") => c.block_local = true,
            "at" if strings.contains(&"object") => {
                let line = v
                    .first()
                    .and_then(Node::atom)
                    .and_then(|a| a.parse::<u32>().ok());
                let Some(line) = line else {
                    return Err(err(file, cl, "bad-form", "(at LINE)"));
                };
                c.fields.insert("at", line.to_string());
            }
            k if strings.contains(&k) => {
                c.fields.insert(k, one_str(file, cl, v, k)?.to_string());
            }
            other => {
                return Err(err(
                    file,
                    cl,
                    "bad-form",
                    format!("`{other}` is not a clause of {head}"),
                ))
            }
        }
    }
    Ok(c)
}

fn case(
    file: &str,
    n: &Node,
    head: &str,
    rest: &[Node],
    envs: &BTreeMap<String, Env>,
) -> Result<Case, Diag> {
    let Some(expr) = rest.first().and_then(Node::str) else {
        return Err(err(
            file,
            n,
            "bad-form",
            format!("({head} \"EXPR\" ...): the expression is a string"),
        ));
    };
    // `assert_equiv` takes a second expression, the target.
    let (target, rest) = match head {
        "assert_equiv" => match rest.get(1).and_then(Node::str) {
            Some(t) => (Some(t.to_string()), &rest[1..]),
            None => {
                return Err(err(
                    file,
                    n,
                    "bad-form",
                    "(assert_equiv \"SOURCE\" \"TARGET\" ...): both expressions are strings",
                ))
            }
        },
        _ => (None, rest),
    };
    let mut c = clauses(
        file,
        head,
        &rest[1..],
        envs,
        &[
            "type",
            "reason",
            "location",
            "value",
            "verdict",
            "decision",
            "erratum",
            "target",
            "listing",
            "dwarf",
            "proof",
            "intrinsic",
            "high",
            "variable",
        ],
    )?;
    let expect = match head {
        "assert_wellformed" => Expect::WellFormed {
            ty: c.need(file, n, head, "type")?,
        },
        "assert_illformed" => Expect::IllFormed {
            reason: c.need(file, n, head, "reason")?,
        },
        "assert_malformed" => Expect::Malformed {
            reason: c.need(file, n, head, "reason")?,
        },
        "assert_location" => Expect::Location {
            loc: c.need(file, n, head, "location")?,
            ty: c.fields.remove("type"),
        },
        "assert_value" => Expect::Value {
            value: c.need(file, n, head, "value")?,
        },
        "assert_eval_error" => Expect::EvalError {
            reason: c.need(file, n, head, "reason")?,
        },
        "assert_unsupported" => Expect::Unsupported {
            reason: c.need(file, n, head, "reason")?,
        },
        "assert_equiv" => {
            let verdict = c.need(file, n, head, "verdict")?;
            if !["equivalent", "refines", "not-equivalent", "unknown"].contains(&verdict.as_str()) {
                return Err(err(
                    file,
                    n,
                    "bad-form",
                    format!("verdict `{verdict}`: equivalent, refines, not-equivalent or unknown"),
                ));
            }
            Expect::Equiv {
                target: target.unwrap_or_default(),
                verdict,
            }
        }
        "assert_lowering" => {
            let (target, listing, reason) = c.lowering(file, n, head)?;
            let proof = c.proof(file, n)?;
            Expect::Lowering {
                target,
                listing,
                reason,
                proof,
            }
        }
        "assert_dwarf_equiv" => {
            let dwarf = c.need(file, n, head, "dwarf")?;
            let verdict = c.need(file, n, head, "verdict")?;
            if !["same", "differ", "dwarf-error"].contains(&verdict.as_str()) {
                return Err(err(
                    file,
                    n,
                    "bad-form",
                    format!("verdict `{verdict}`: same, differ or dwarf-error"),
                ));
            }
            let proof = c.proof(file, n)?;
            Expect::DwarfEquiv {
                dwarf,
                verdict,
                proof,
            }
        }
        other => return Err(err(file, n, "unknown-form", format!("`{other}`"))),
    };
    let decision = c.fields.remove("decision");
    let erratum = c.fields.remove("erratum");
    let classic = crate::script::protocol::ClassicJson {
        intrinsic: c.fields.remove("intrinsic"),
        high: c.fields.remove("high"),
        variable: c.fields.remove("variable"),
    };
    classic
        .params()
        .map_err(|e| err(file, n, "bad-form", e.to_string()))?;
    let classic = (classic != crate::script::protocol::ClassicJson::default()).then_some(classic);
    c.finish(file, n, head)?;
    let env_name = c.env_name;
    let env = c
        .env
        .unwrap_or_else(|| Env::Sig(Arc::new(Signature::default())));
    if expect.evaluates() && !matches!(env, Env::Ctx(_)) {
        return Err(err(
            file,
            n,
            "bad-form",
            format!("{head} needs (in CONTEXT)"),
        ));
    }
    // Expected values are checked when the script is read, so a typo in the
    // corpus is a script error, not a failing case.
    match &expect {
        Expect::WellFormed { ty } => {
            parse_type(ty).map_err(|e| err(file, n, "bad-form", e.to_string()))?;
        }
        Expect::Location { loc, ty } => {
            dioptra_semantics::text::parse_location(loc, &env.layout())
                .map_err(|e| err(file, n, "bad-form", e.to_string()))?;
            if let Some(t) = ty {
                parse_type(t).map_err(|e| err(file, n, "bad-form", e.to_string()))?;
            }
        }
        Expect::Value { value } => {
            parse_typed_literal(value).map_err(|e| err(file, n, "bad-form", e.to_string()))?;
        }
        _ => {}
    }
    Ok(Case {
        file: file.to_string(),
        line: n.pos().line,
        expr: expr.to_string(),
        env,
        env_name,
        expect,
        decision,
        erratum,
        classic,
    })
}

fn module_case(
    file: &str,
    n: &Node,
    head: &str,
    rest: &[Node],
    envs: &BTreeMap<String, Env>,
    modules: &BTreeMap<String, String>,
) -> Result<Case, Diag> {
    let Some(name) = rest.first().and_then(Node::atom) else {
        return Err(err(
            file,
            n,
            "bad-form",
            format!("({head} MODULE ...): name a (module ...)"),
        ));
    };
    let text = modules
        .get(name)
        .ok_or_else(|| err(file, n, "unknown-name", format!("no module `{name}`")))?;
    let mut c = clauses(
        file,
        head,
        &rest[1..],
        envs,
        &[
            "object", "segments", "location", "value", "error", "reason", "decision", "erratum",
            "target", "listing", "current", "proof",
        ],
    )?;
    if c.env.as_ref().is_some_and(|e| matches!(e, Env::Sig(_))) {
        return Err(err(
            file,
            n,
            "bad-form",
            format!("{head} runs in a context, not a signature"),
        ));
    }
    let expect = match head {
        "assert_module_wellformed" => Expect::ModuleWellFormed,
        "assert_module_illformed" => Expect::ModuleIllFormed {
            reason: c.need(file, n, head, "reason")?,
        },
        "assert_module_malformed" => Expect::ModuleMalformed {
            reason: c.need(file, n, head, "reason")?,
        },
        "assert_object" => {
            let object = c.need(file, n, head, "object")?;
            let at = c
                .need(file, n, head, "at")?
                .parse()
                .expect("checked when read");
            let e = Expect::Object {
                object,
                at,
                block_local: c.block_local,
                segments: c.fields.remove("segments"),
                loc: c.fields.remove("location"),
                value: c.fields.remove("value"),
                error: c.fields.remove("error"),
            };
            if let Expect::Object {
                segments: None,
                loc: None,
                value: None,
                error: None,
                ..
            } = &e
            {
                return Err(err(
                    file,
                    n,
                    "bad-form",
                    "assert_object needs (segments), (location), (value) or (error)",
                ));
            }
            e
        }
        "assert_multilocation" => {
            let at = c
                .fields
                .remove("at")
                .map(|a| a.parse().expect("checked when read"));
            let current = c.fields.remove("current");
            let reason = c.fields.remove("reason");
            if (at.is_some() && current.is_some()) == reason.is_some() {
                return Err(err(
                    file,
                    n,
                    "bad-form",
                    "assert_multilocation takes (at LINE) (current \"LINES\") or (reason ...)",
                ));
            }
            Expect::MultiLocation {
                at,
                current,
                reason,
            }
        }
        "assert_join" => Expect::Join {
            object: c.need(file, n, head, "object")?,
            at: c
                .need(file, n, head, "at")?
                .parse()
                .expect("checked when read"),
            location: c.need(file, n, head, "location")?,
        },
        "assert_module_lowering" => {
            let (target, listing, reason) = c.lowering(file, n, head)?;
            let proof = c.proof(file, n)?;
            if proof.as_deref().is_some_and(|p| p != "proven") {
                return Err(err(
                    file,
                    n,
                    "bad-form",
                    "assert_module_lowering takes (proof \"proven\") only",
                ));
            }
            Expect::ModuleLowering {
                target,
                listing,
                reason,
                proof,
            }
        }
        other => return Err(err(file, n, "unknown-form", format!("`{other}`"))),
    };
    let decision = c.fields.remove("decision");
    let erratum = c.fields.remove("erratum");
    c.finish(file, n, head)?;
    let env_name = c.env_name;
    let env = c
        .env
        .unwrap_or_else(|| Env::Ctx(Arc::new(ConcreteContext::default())));
    if let Expect::Object {
        loc: Some(l),
        value,
        ..
    } = &expect
    {
        dioptra_semantics::text::parse_location(l, &env.layout())
            .map_err(|e| err(file, n, "bad-form", e.to_string()))?;
        if let Some(v) = value {
            parse_typed_literal(v).map_err(|e| err(file, n, "bad-form", e.to_string()))?;
        }
    }
    Ok(Case {
        file: file.to_string(),
        line: n.pos().line,
        expr: text.clone(),
        env,
        env_name,
        expect,
        decision,
        erratum,
        classic: None,
    })
}

/// `assert_dwarf_variable`: a variable of an object file at a pc.
fn object_case(
    file: &str,
    n: &Node,
    rest: &[Node],
    envs: &BTreeMap<String, Env>,
) -> Result<Case, Diag> {
    let head = "assert_dwarf_variable";
    let Some(object) = rest.first().and_then(Node::str) else {
        return Err(err(
            file,
            n,
            "bad-form",
            "(assert_dwarf_variable \"OBJECT-FILE\" ...): the file is a string",
        ));
    };
    let mut c = clauses(
        file,
        head,
        &rest[1..],
        envs,
        &[
            "variable", "pc", "location", "value", "error", "outcome", "decision", "erratum",
        ],
    )?;
    let variable = c.need(file, n, head, "variable")?;
    let pc_text = c.need(file, n, head, "pc")?;
    let pc = pc_text
        .strip_prefix("0x")
        .map_or_else(|| pc_text.parse().ok(), |h| u64::from_str_radix(h, 16).ok())
        .ok_or_else(|| {
            err(
                file,
                n,
                "bad-form",
                format!("(pc \"{pc_text}\") is not an address"),
            )
        })?;
    let outcome = c.fields.remove("outcome");
    if let Some(o) = &outcome {
        if !["located", "unavailable", "failed"].contains(&o.as_str()) {
            return Err(err(
                file,
                n,
                "bad-form",
                format!("outcome `{o}`: located, unavailable or failed"),
            ));
        }
    }
    let expect = Expect::DwarfVariable {
        variable,
        pc,
        loc: c.fields.remove("location"),
        value: c.fields.remove("value"),
        error: c.fields.remove("error"),
        outcome,
    };
    if let Expect::DwarfVariable {
        loc: None,
        value: None,
        error: None,
        outcome: None,
        ..
    } = &expect
    {
        return Err(err(
            file,
            n,
            "bad-form",
            "assert_dwarf_variable needs (location), (value), (error) or (outcome)",
        ));
    }
    let decision = c.fields.remove("decision");
    let erratum = c.fields.remove("erratum");
    c.finish(file, n, head)?;
    let Some(env @ Env::Ctx(_)) = c.env else {
        return Err(err(
            file,
            n,
            "bad-form",
            "assert_dwarf_variable needs (in CONTEXT)",
        ));
    };
    if let Expect::DwarfVariable { loc: Some(l), .. } = &expect {
        dioptra_semantics::text::parse_location(l, &env.layout())
            .map_err(|e| err(file, n, "bad-form", e.to_string()))?;
    }
    Ok(Case {
        file: file.to_string(),
        line: n.pos().line,
        expr: object.to_string(),
        env,
        env_name: c.env_name,
        expect,
        decision,
        erratum,
        classic: None,
    })
}

/// `assert_ir_record`: the verdict on one debug record of a real module.
fn ir_case(
    file: &str,
    n: &Node,
    rest: &[Node],
    envs: &BTreeMap<String, Env>,
) -> Result<Case, Diag> {
    let head = "assert_ir_record";
    let Some(module) = rest.first().and_then(Node::str) else {
        return Err(err(
            file,
            n,
            "bad-form",
            "(assert_ir_record \"MODULE.ll\" ...): the file is a string",
        ));
    };
    let mut c = clauses(
        file,
        head,
        &rest[1..],
        envs,
        &["line", "verdict", "error", "killed", "decision", "erratum"],
    )?;
    let line_text = c.need(file, n, head, "line")?;
    let line = line_text.parse().map_err(|_| {
        err(
            file,
            n,
            "bad-form",
            format!("(line \"{line_text}\") is not a line number"),
        )
    })?;
    let killed = match c.fields.remove("killed").as_deref() {
        None => None,
        Some("yes") => Some(true),
        Some("no") => Some(false),
        Some(o) => return Err(err(file, n, "bad-form", format!("killed `{o}`: yes or no"))),
    };
    let verdict = c.fields.remove("verdict");
    let error = c.fields.remove("error");
    if verdict.is_some() == error.is_some() {
        return Err(err(
            file,
            n,
            "bad-form",
            "assert_ir_record needs exactly one of (verdict) and (error)",
        ));
    }
    let decision = c.fields.remove("decision");
    let erratum = c.fields.remove("erratum");
    c.finish(file, n, head)?;
    Ok(Case {
        file: file.to_string(),
        line: n.pos().line,
        expr: module.to_string(),
        env: Env::Sig(Arc::new(Signature::default())),
        env_name: "-".into(),
        expect: Expect::IrRecord {
            line,
            verdict,
            error,
            killed,
        },
        decision,
        erratum,
        classic: None,
    })
}

#[cfg(test)]
mod tests {
    use super::parse_script;

    /// Both lowering assertions take a known target and exactly one of a
    /// listing and a reason; anything else is a script error.
    #[test]
    fn lowering_assertions_need_a_target_and_one_expectation() {
        let head = "(spec \"s\")\n(context c (register 0 \"00\"))\n(module m \"RETURN\")\n";
        for (form, want) in [
            (
                r#"(assert_lowering "DIOpConstant(i8 1)" (in c) (target "x86") (listing ""))"#,
                "target `x86`",
            ),
            (
                r#"(assert_lowering "DIOpConstant(i8 1)" (in c) (target "amdgpu"))"#,
                "takes (listing ...) or (reason ...)",
            ),
            (
                r#"(assert_module_lowering m (in c) (target "dwarf5") (listing "") (reason "A: b"))"#,
                "assert_module_lowering takes",
            ),
            (
                r#"(assert_module_lowering m (in c) (listing ""))"#,
                "needs (target ...)",
            ),
            (
                r#"(assert_object m (object "!1") (at 1) (target "amdgpu") (segments ""))"#,
                "does not belong in assert_object",
            ),
        ] {
            let d = parse_script("t", &format!("{head}{form}")).unwrap_err();
            assert!(
                d.to_string().starts_with("Script: bad-form:"),
                "{form}: {d}"
            );
            assert!(d.to_string().contains(want), "{form}: {d}");
        }
        let ok = format!(
            "{head}{}",
            r#"(assert_module_lowering m (in c) (target "amdgpu") (listing ""))"#
        );
        assert_eq!(parse_script("t", &ok).unwrap().cases.len(), 1);
    }
}
