//! The bodies of the fuzz targets in `fuzz/` (cargo-fuzz), kept here so that
//! `cargo test` can replay their seed corpus on a stable toolchain. Each
//! takes arbitrary bytes; none may panic, and each asserts the laws that hold
//! for any input it accepts.

use crate::script::parse_script;
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::eval::eval;
use dioptra_semantics::lifetime::locate::Analysis;
use dioptra_semantics::lifetime::parse_module;
use dioptra_semantics::lifetime::ranges::Reading;
use dioptra_semantics::lifetime::wellformed::check_module;
use dioptra_semantics::syntax::Expr;
use dioptra_semantics::text::parse_expr;

fn context() -> ConcreteContext {
    ConcreteContext::parse(
        r#"(context (register 3 "00 01 00 00") (memory 5 0x100 "2a 00 00 00 ff ff ff ff")
             (referrer "i32" "reg(3)") (arg "ptr addrspace(5)" "imp(ptr addrspace(5) 256)") (arg "i64" "undef") (lane 3))"#,
    )
    .expect("the fuzz context parses")
}

/// An expression that parsed must print and parse back to itself, and check
/// and evaluate without panicking.
fn exercise(e: &Expr) {
    let text = e.to_string();
    let back = parse_expr(&text).unwrap_or_else(|d| panic!("printed `{text}` does not parse: {d}"));
    assert_eq!(&back, e, "print/parse round trip of `{text}`");
    let ctx = context();
    if let Ok(r) = eval(e, &ctx) {
        let _ = r.value(&ctx);
    }
}

/// Target `expr_text`: expression text.
pub fn expr_text(data: &[u8]) {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(e) = parse_expr(s) {
            exercise(&e);
        }
    }
}

/// Target `expr_structured`: an expression built by `arbitrary`.
pub fn expr_structured(data: &[u8]) {
    let mut u = arbitrary::Unstructured::new(data);
    if let Ok(e) = <Expr as arbitrary::Arbitrary>::arbitrary(&mut u) {
        exercise(&e);
    }
}

/// Target `script`: a corpus script.
pub fn script(data: &[u8]) {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = parse_script("fuzz.dioptra", s);
    }
}

/// Target `module`: a module listing, checked and, if well-formed, located
/// everywhere in both readings.
pub fn module(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(m) = parse_module(s) else { return };
    if !check_module(&m).is_empty() {
        return;
    }
    let ctx = ConcreteContext::default();
    for reading in [Reading::ControlFlow, Reading::BlockLocal] {
        let a = Analysis::new(&m, reading);
        for o in a.objects() {
            for p in 0..m.insts.len().min(64) {
                let _ = a.locate(&ctx, o, p);
            }
        }
    }
}

/// Target `dwarf`: DWARF expression bytes, in both AMD encodings. What
/// decodes re-encodes to bytes that decode to the same operations (LEB128
/// may be re-encoded shorter), and prints to text that parses back.
pub fn dwarf(data: &[u8]) {
    use dioptra_semantics::dwarf::{decode, encode, text, Encoding};
    for amd_single_byte in [false, true] {
        let enc = Encoding {
            amd_single_byte,
            ..Encoding::default()
        };
        let Ok(ops) = decode(data, enc) else { continue };
        if let Ok(bytes) = encode(&ops, enc) {
            assert_eq!(
                decode(&bytes, enc).ok().as_ref(),
                Some(&ops),
                "re-encoding {data:x?}"
            );
        }
        let t = text::print(&ops, enc);
        assert_eq!(
            text::parse(&t, enc).ok().as_ref(),
            Some(&ops),
            "re-parsing `{t}`"
        );
    }
}

/// Target `ir`: a compiler's LLVM IR module, read, its records checked,
/// written as a listing and read as lifetimes (translated when it has
/// `dbg_value` records).
pub fn ir(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(m) = crate::ir::parse(s) else { return };
    let _ = crate::ir::dbg::check_records(&m);
    let _ = crate::ir::listing::to_listing(&m);
    if let Ok(lt) = crate::ir::lifetimes::read(s) {
        if check_module(&lt.module).is_empty() {
            let a = Analysis::new(&lt.module, Reading::ControlFlow);
            let ctx = ConcreteContext::default();
            for o in a.objects().iter().take(16) {
                for p in 0..lt.module.insts.len().min(32) {
                    let _ = a.locate(&ctx, o, p);
                }
            }
        }
    }
}

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// Every target by name (the directory names under `fuzz/corpus/`).
pub const TARGETS: &[(&str, Target)] = &[
    ("expr_text", expr_text),
    ("expr_structured", expr_structured),
    ("script", script),
    ("module", module),
    ("dwarf", dwarf),
    ("ir", ir),
];
