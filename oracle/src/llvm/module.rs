//! Functions with debug records written as one LLVM module: a compile unit,
//! a subprogram per function, a local variable per record, in LLVM 19's
//! debug-record syntax (`#dbg_value`), which `opt` reads and writes back.

use std::fmt::Write as _;

/// A parameter: its type, attributes (`signext `, with a trailing space)
/// and name (`%x0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub ty: String,
    pub attrs: String,
    pub name: String,
}

/// A line of a function body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// `%result = text`.
    Inst { result: String, text: String },
    /// `#dbg_value(ty value, !variable, !DIExpression(), !location)`.
    Value {
        ty: String,
        value: String,
        var: String,
    },
}

/// One function of a single block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSpec {
    pub name: String,
    pub params: Vec<Param>,
    /// The returned value (type, value), or `ret void`.
    pub ret: Option<(String, String)>,
    pub body: Vec<Line>,
    /// The parameters described as the function's arguments (a record of
    /// each at the top).
    pub describe_params: bool,
}

/// The DWARF base type of a value type: `(name, size in bits, encoding)`;
/// a pointer's is the target's pointer width.
fn base_type(ty: &str, pointer_bits: u32) -> (String, u64, &'static str) {
    match ty.strip_prefix('i').and_then(|w| w.parse::<u64>().ok()) {
        Some(1) => ("bool".into(), 8, "DW_ATE_boolean"),
        Some(w) => (format!("int{w}"), w, "DW_ATE_signed"),
        None => ("uintptr".into(), u64::from(pointer_bits), "DW_ATE_address"),
    }
}

/// The metadata written so far, and the next free node number.
struct Meta {
    text: String,
    next: u64,
    /// Base types made, by value type.
    types: Vec<(String, u64)>,
    /// The target's pointer width.
    pointer_bits: u32,
}

impl Meta {
    /// Writes `node` as the next numbered node and returns its number.
    fn node(&mut self, node: String) -> u64 {
        let id = self.next;
        self.next += 1;
        let _ = writeln!(self.text, "!{id} = {node}");
        id
    }
    fn base_type(&mut self, ty: &str) -> u64 {
        if let Some((_, id)) = self.types.iter().find(|(t, _)| t == ty) {
            return *id;
        }
        let (name, size, enc) = base_type(ty, self.pointer_bits);
        let id = self.node(format!(
            "!DIBasicType(name: \"{name}\", size: {size}, encoding: {enc})"
        ));
        self.types.push((ty.to_string(), id));
        id
    }
    /// A local variable `name` of `ty` in subprogram `sp` (argument `arg`
    /// counting from 0, when it is one).
    fn variable(&mut self, name: &str, ty: &str, sp: u64, line: u64, arg: Option<usize>) -> u64 {
        let t = self.base_type(ty);
        let arg = arg.map(|a| format!("arg: {}, ", a + 1)).unwrap_or_default();
        self.node(format!(
            "!DILocalVariable(name: \"{name}\", {arg}scope: !{sp}, file: !1, line: {line}, type: !{t})"
        ))
    }
}

/// The module of `functions` for `triple` (and its `datalayout`, when
/// given): every function gets a subprogram, every record a variable named
/// as the line says, scoped to its function.
pub fn render(functions: &[FunctionSpec], triple: &str, datalayout: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(dl) = datalayout {
        let _ = writeln!(out, "target datalayout = \"{dl}\"");
    }
    let _ = writeln!(out, "target triple = \"{triple}\"\n");
    let mut meta = Meta {
        text: String::new(),
        next: 0,
        types: Vec::new(),
        pointer_bits: super::pointer_bits(triple),
    };
    meta.node("distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: \"dioptra llvm\", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)".into());
    meta.node("!DIFile(filename: \"generated.c\", directory: \"/dioptra\")".into());
    meta.node("!{i32 2, !\"Debug Info Version\", i32 3}".into());
    meta.node("!{i32 7, !\"Dwarf Version\", i32 5}".into());
    meta.node("!DISubroutineType(types: !5)".into());
    meta.node("!{}".into());
    for (line, f) in (1u64..).step_by(100).zip(functions) {
        let sp = meta.node(format!(
            "distinct !DISubprogram(name: \"{}\", scope: !1, file: !1, line: {line}, type: !4, scopeLine: {line}, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !5)",
            f.name
        ));
        let loc = meta.node(format!(
            "!DILocation(line: {line}, column: 1, scope: !{sp})"
        ));
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| format!("{} {}{}", p.ty, p.attrs, p.name))
            .collect();
        let ret_ty = f.ret.as_ref().map_or("void", |(t, _)| t.as_str());
        let _ = writeln!(
            out,
            "define {ret_ty} @{}({}) !dbg !{sp} {{\nentry:",
            f.name,
            params.join(", ")
        );
        if f.describe_params {
            for (k, p) in f.params.iter().enumerate() {
                let name = p.name.trim_start_matches('%');
                let v = meta.variable(name, &p.ty, sp, line, Some(k));
                let _ = writeln!(
                    out,
                    "    #dbg_value({} {}, !{v}, !DIExpression(), !{loc})",
                    p.ty, p.name
                );
            }
        }
        for l in &f.body {
            match l {
                // Every instruction has the function's line, as a
                // compiler's front end gives it one: an instruction with no
                // location is outside every scope, and a variable's
                // location then reads as valid from the scope's start.
                Line::Inst { result, text } => {
                    let _ = writeln!(out, "  {result} = {text}, !dbg !{loc}");
                }
                Line::Value { ty, value, var } => {
                    let v = meta.variable(var, ty, sp, line, None);
                    let _ = writeln!(
                        out,
                        "    #dbg_value({ty} {value}, !{v}, !DIExpression(), !{loc})"
                    );
                }
            }
        }
        match &f.ret {
            Some((t, v)) => {
                let _ = writeln!(out, "  ret {t} {v}, !dbg !{loc}\n}}\n");
            }
            None => {
                let _ = writeln!(out, "  ret void, !dbg !{loc}\n}}\n");
            }
        }
    }
    out += "!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!2, !3}\n\n";
    out + &meta.text
}
