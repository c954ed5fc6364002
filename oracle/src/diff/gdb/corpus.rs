//! The corpus through gdb (`dioptra gdb`): every corpus case that lowers to
//! plain DWARF 5 in its context, every hand-written DWARF of
//! `assert_dwarf_equiv`, and every module with a context, become cases of
//! the gdb harness ([`super`]).

use super::{expr_case, listing_case, module_case, Case, Skip};
use crate::input::read_file;
use crate::lower::compare::{compare, described, parse_dwarf, Agreement};
use crate::script::{parse_script, script_files, Env, Expect};
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::dwarf::Encoding;
use dioptra_semantics::lifetime::parse_module;
use dioptra_semantics::text::parse_expr;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The cases found, and the candidates left out by reason.
#[derive(Default)]
pub struct Collected {
    pub cases: Vec<Case>,
    /// By [`Skip::category`]: how many, and the first one's label and detail.
    pub skipped: BTreeMap<&'static str, (usize, String)>,
}

impl Collected {
    fn add(&mut self, label: String, r: Result<Case, Skip>) {
        match r {
            Ok(c) => self.cases.push(c),
            Err(s) => {
                let e = self
                    .skipped
                    .entry(s.category())
                    .or_insert_with(|| (0, format!("{label}: {}", s.detail())));
                e.0 += 1;
            }
        }
    }
}

/// The gdb cases of the scripts under `paths`; each (expression or module,
/// context) pair once. `min_addr` is the lowest address the stub can map.
pub fn corpus_cases(paths: &[PathBuf], min_addr: u64) -> Result<Collected, String> {
    let mut out = Collected::default();
    let mut seen = BTreeSet::new();
    for root in paths {
        for file in script_files(root) {
            let text = read_file(&file, "Script").map_err(|d| d.to_string())?;
            let name = file.display().to_string();
            let script = parse_script(&name, &text).map_err(|d| d.to_string())?;
            for case in &script.cases {
                let ctx = match &case.env {
                    Env::Ctx(c) => (**c).clone(),
                    Env::Sig(_) if case.expect.is_module() => ConcreteContext::default(),
                    Env::Sig(_) => continue,
                };
                let label = format!("{}:{}", case.file, case.line);
                if case.expect.is_module() {
                    if !seen.insert((case.expr.clone(), ctx.to_script("c"))) {
                        continue;
                    }
                    // Ill-formed or malformed modules are other cases' subject.
                    let Ok(m) = parse_module(&case.expr) else {
                        continue;
                    };
                    let r = module_case(&label, &m, &ctx, min_addr).map(|mut c| {
                        c.source = case.expr.clone();
                        c
                    });
                    out.add(label.clone(), r);
                    continue;
                }
                if !case.expect.evaluates() {
                    continue;
                }
                let Ok(expr) = parse_expr(&case.expr) else {
                    continue;
                };
                if seen.insert((case.expr.clone(), ctx.to_script("c"))) {
                    out.add(label.clone(), expr_case(&label, &expr, &ctx, min_addr));
                }
                if let Expect::DwarfEquiv { dwarf, verdict, .. } = &case.expect {
                    let Ok(listing) = parse_dwarf(dwarf, Encoding::default()) else {
                        continue;
                    };
                    let Ok(l) = described(&expr, &ctx, listing) else {
                        continue;
                    };
                    let label = format!("{label} (dwarf)");
                    let mut r = listing_case(&label, &l.listing, l.offset, l.bits, &ctx, min_addr);
                    if let Ok(c) = r.as_mut() {
                        if verdict == "same" {
                            if let a @ Agreement::Differ { .. } =
                                compare(&expr, &l, &c.machine, Encoding::default())
                            {
                                c.law = Some(format!("{expr}: {}", a.describe()));
                            }
                        }
                    }
                    out.add(label, r);
                }
            }
        }
    }
    Ok(out)
}
