//! `dioptra dwarf` on the real objects of corpus/real. The expected
//! locations and values are worked out by hand from llvm-dwarfdump's
//! listing of each object (`--debug-info`, `--eh-frame`) and the x86-64
//! ABI, not taken from dioptra's output.

use serde_json::Value;
mod common;
use common::{dioptra, real};

fn json(args: &[&str]) -> (i32, Value) {
    let mut a = args.to_vec();
    a.push("--json");
    let (code, out, err) = dioptra(&a);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, v)
}

fn context(dir: &tempdir::Dir, text: &str) -> String {
    dir.write("ctx", text)
}

mod tempdir {
    pub struct Dir(pub std::path::PathBuf);
    impl Dir {
        pub fn new(name: &str) -> Dir {
            let p =
                std::env::temp_dir().join(format!("dioptra-dwarf-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }
        pub fn write(&self, name: &str, text: &str) -> String {
            let p = self.0.join(name);
            std::fs::write(&p, text).unwrap();
            p.to_string_lossy().into_owned()
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn variable<'a>(v: &'a Value, function: &str, name: &str) -> &'a Value {
    v["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["function"] == function && x["name"] == name)
        .unwrap_or_else(|| panic!("no {function}::{name} in {v}"))
}

/// clang -O2, DWARF 5: registers, location lists, entry values, a constant.
#[test]
fn lists_every_variable_of_an_optimized_real() {
    let (code, v) = json(&["dwarf", &real("c/vars-dwarf5.o")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["outcome"], "ok");
    assert_eq!(v["units"][0]["version"], 5);
    assert_eq!(v["relocatable"], true);
    assert_eq!(
        variable(&v, "add", "a")["location"]["expression"],
        "DW_OP_reg5"
    );
    assert_eq!(
        variable(&v, "add", "b")["location"]["expression"],
        "DW_OP_reg4"
    );
    let scale_v = &variable(&v, "scale", "v")["location"];
    assert_eq!(scale_v[0]["lo"], 0x10);
    assert_eq!(scale_v[0]["hi"], 0x17);
    assert_eq!(
        scale_v[1]["expression"],
        "DW_OP_entry_value(DW_OP_reg5), DW_OP_stack_value"
    );
    assert_eq!(variable(&v, "main", "pt")["location"], "constant");
    assert_eq!(variable(&v, "main", "data")["location"], Value::Null);
    assert_eq!(variable(&v, "norm1", "pt")["byte_size"], 8);
    // Unnamed types spelled as llvm-dwarfdump spells them.
    assert_eq!(variable(&v, "sum", "p")["type"], "const int *");
    let (_, o0) = json(&["dwarf", &real("c/vars-gcc-O0.o")]);
    assert_eq!(variable(&o0, "main", "data")["type"], "int[4]");
    assert_eq!(variable(&o0, "main", "data")["byte_size"], 16);
    assert_eq!(v["passed"], v["expressions"]);
    // The text form says the same.
    let (code, text, _) = dioptra(&["dwarf", &real("c/vars-dwarf5.o"), "--var", "scale::v"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("scale: parameter v (line 13, long, 8 bytes): 2 entries"),
        "{text}"
    );
    assert!(
        text.contains("[0x17, 0x2b): DW_OP_entry_value(DW_OP_reg5), DW_OP_stack_value"),
        "{text}"
    );
}

/// `function::name` of each listed variable, sorted (`(global)` for none).
fn names(v: &Value) -> Vec<String> {
    let mut n: Vec<String> = v["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            let f = x["function"].as_str().unwrap_or("(global)");
            format!("{f}::{}", x["name"].as_str().unwrap())
        })
        .collect();
    n.sort();
    n
}

/// Only objects are variables (D-dwarf-objects; clang++-14 -O2, cpp/members.o; the DIEs as
/// `llvm-dwarfdump --debug-info` lists them): not the two parameters of
/// the type `binop` (a DW_TAG_subroutine_type), not the two of `bump`'s
/// declaration in its class, not `a` and `b` of `add`'s abstract instance
/// (D-dwarf-objects); the static data member's definition
/// takes its line, type and size from its declaration
/// (DW_AT_specification).
#[test]
fn types_declarations_and_abstract_instances_are_not_variables() {
    let (code, v) = json(&["dwarf", &real("cpp/members.o")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        names(&v),
        [
            "(global)::instances",
            "add::a",
            "add::b",
            "apply::f",
            "apply::x",
            "bump::by",
            "bump::this",
            "use::c"
        ]
    );
    for x in v["variables"].as_array().unwrap() {
        assert_ne!(x["location"], Value::Null, "{x}");
    }
    let instances = v["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "instances")
        .unwrap();
    assert_eq!(instances["function"], Value::Null);
    assert_eq!(instances["line"], 6);
    assert_eq!(instances["type"], "int");
    assert_eq!(instances["byte_size"], 4);
    // At bump's first instruction: its parameters and the global, not the
    // type's parameters as globals.
    let dir = tempdir::Dir::new("members");
    let ctx = context(&dir, r#"(context (register 5 "2a 00 00 00 00 00 00 00"))"#);
    let (_, at) = json(&[
        "dwarf",
        &real("cpp/members.o"),
        "--at",
        "0x0",
        "--context",
        &ctx,
    ]);
    assert_eq!(
        names(&at),
        ["(global)::instances", "bump::by", "bump::this"],
        "{at}"
    );
    // gcc -O2: a global's declaration beside its definition, and the
    // declaration of one defined elsewhere, are not objects here.
    let (code, g) = json(&["dwarf", &real("c/extern-gcc.o")]);
    assert_eq!(code, 0, "{g}");
    assert_eq!(names(&g), ["(global)::calls", "bump::by"]);
    assert_eq!(g["variables"][0]["type"], "long int");
    // rustc -O2 (DWARF 4): the 20 variables of abstract instances of
    // inlined functions (wrapping_add, rotate_left, ...) were listed
    // without a location; their inlined copies are listed where they are.
    let (_, rust) = json(&["dwarf", &real("rust/lib.o")]);
    let listed = rust["variables"].as_array().unwrap();
    assert!(
        listed.iter().all(|x| x["location"] != Value::Null),
        "{rust}"
    );
    assert!(
        listed
            .iter()
            .any(|x| x["function"] == "add" && x["name"] == "rhs"),
        "wrapping_add's rhs inlined into add: {rust}"
    );
}

/// With `--at`, a variable is in scope where the innermost block that owns
/// it says (DW_TAG_lexical_block and DW_TAG_inlined_subroutine ranges), not
/// wherever its function is. rustc -O2's `checksum` (rust/lib.o) is at
/// 0x30, its section's offset 0, so llvm-dwarfdump's pcs are these minus
/// 0x30: at 0x5a (0x2a), the loop body's block [0x2a, 0x77) holds `i` and
/// `b`, the inlined `rotate_left` [0x2a, 0x38) holds `self` and `n`, and
/// the `rotate_left` inlined in it `x` and `shift`; the outer blocks `acc`
/// and `iter`; the function `bytes`. The inlined `next<u8>`'s block that
/// holds `ptr` ends at 0x2a: in scope at 0x59, not at 0x5a.
#[test]
fn a_variable_is_in_scope_in_its_blocks_ranges() {
    let dir = tempdir::Dir::new("blocks");
    let ctx = context(&dir, r#"(context (register 5 "2a 00 00 00 00 00 00 00"))"#);
    let at = |pc: &str| json(&["dwarf", &real("rust/lib.o"), "--at", pc, "--context", &ctx]).1;
    let names = |v: &Value| {
        let mut n: Vec<String> = v["variables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                assert_eq!(x["function"], "checksum", "{x}");
                x["name"].as_str().unwrap().to_string()
            })
            .collect();
        n.sort();
        n
    };
    assert_eq!(
        names(&at("0x5a")),
        ["acc", "b", "bytes", "i", "iter", "n", "self", "shift", "x"]
    );
    assert!(names(&at("0x59")).contains(&"ptr".to_string()));
    // At the first instruction the loop body's variables are not yet in
    // scope.
    let first = names(&at("0x30"));
    assert!(first.contains(&"ptr".to_string()), "{first:?}");
    assert!(!first.contains(&"i".to_string()), "{first:?}");
}

/// gcc -O2 (c/uninit-gcc.o) writes `DW_OP_reg5, DW_OP_GNU_uninit` in
/// `stats_get`'s list for `id` (llvm-dwarfdump: `DW_OP_reg5 RDI,
/// <decoding error> f0`): it passes the check as gdb reads it, so the
/// listing exits 0 (it was 1, `not-standalone` three times), and `--at`
/// says the value is marked uninitialized (D-dwarf-gnu-uninit).
#[test]
fn gcc_uninitialized_marks_are_read_as_gdb_reads_them() {
    let (code, v) = json(&["dwarf", &real("c/uninit-gcc.o")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["passed"], v["expressions"]);
    let id = &variable(&v, "stats_get", "id")["location"];
    assert_eq!(id[1]["expression"], "DW_OP_reg5, DW_OP_GNU_uninit");
    let dir = tempdir::Dir::new("uninit");
    let ctx = context(&dir, r#"(context (register 5 "2a 00 00 00 00 00 00 00"))"#);
    let at = |pc: &str| {
        let (code, v) = json(&[
            "dwarf",
            &real("c/uninit-gcc.o"),
            "--at",
            pc,
            "--context",
            &ctx,
            "--var",
            "stats_get::id",
        ]);
        assert_eq!(code, 0, "{v}");
        v["variables"][0].clone()
    };
    let marked = at("0x9");
    assert_eq!(marked["location"], "reg(5)");
    assert_eq!(marked["value"], "0x000000000000002a");
    assert!(
        marked["why"].as_str().unwrap().contains("uninitialized"),
        "{marked}"
    );
    // Before 0x9 the entry has no mark.
    assert_eq!(at("0x0")["why"], Value::Null);
}

/// DWARF 4 (clang -gdwarf-4, rustc's default): DW_OP_addr, .debug_loc,
/// DW_OP_GNU_entry_value.
/// A qualifier of a pointer is written after it, as llvm-dwarfdump writes
/// it: g++'s `this` is `Counter *const` (a const pointer), where the
/// qualifier used to be put in front (`const Counter *`, a pointer to
/// const: another type).
#[test]
fn a_const_pointer_is_named_as_c_names_it() {
    let (code, v) = json(&["dwarf", &real("cpp/members-gcc.o")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(variable(&v, "bump", "this")["type"], "Counter *const");
    assert_eq!(variable(&v, "bump", "by")["type"], "int");
}

/// Type units (`-fdebug-types-section`): clang-14 puts each in a COMDAT
/// group's own `.debug_info` section and leaves a declaration with
/// `DW_AT_signature` in the compile unit; g++ puts them in `.debug_types`
/// (DWARF 4). The variables keep their type names and sizes, as the same
/// compile without type units gives them (`cpp/members.o`, g++'s
/// `cpp/members-gcc.o`); they had none (`this (8 bytes)`), and clang's
/// type units were lost (one `.debug_info` replaced the other).
#[test]
fn type_units_give_the_types_of_variables() {
    let (code, v) = json(&["dwarf", &real("cpp/members-types.o")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["units"].as_array().unwrap().len(), 2, "{v}");
    let (_, plain) = json(&["dwarf", &real("cpp/members.o")]);
    for (f, n) in [("bump", "this"), ("use", "c"), ("bump", "by")] {
        let (a, b) = (variable(&v, f, n), variable(&plain, f, n));
        assert_eq!(a["type"], b["type"], "{f}::{n}");
        assert_eq!(a["byte_size"], b["byte_size"], "{f}::{n}");
        assert!(a["type"].is_string(), "{f}::{n}: {a}");
    }
    assert_eq!(variable(&v, "use", "c")["type"], "Counter *");
    let (code, v) = json(&["dwarf", &real("cpp/members-types-gcc.o")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(variable(&v, "bump", "this")["type"], "Counter *const");
    assert_eq!(variable(&v, "use", "c")["type"], "Counter *");
    assert_eq!(variable(&v, "use", "c")["byte_size"], 8);
}

/// RISC-V objects write each function's length (`DW_AT_high_pc`) as 0
/// with an `R_RISCV_ADD32`/`R_RISCV_SUB32` pair (linker relaxation may
/// move the code). Left unapplied, every function spanned no pc and no
/// local variable was in scope anywhere. The ranges are llvm-dwarfdump's
/// and llvm-objdump's: `scale` is 0x4-0x1a, `add` 0x0-0x4.
#[test]
fn riscv_label_differences_are_relocated() {
    let file = real("c/vars-riscv64.o");
    let (code, v) = json(&["dwarf", &file]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["machine"], "riscv64");
    assert_eq!(v["relocations_not_applied"], 0);
    assert_eq!(
        variable(&v, "scale", "r")["function_range"],
        serde_json::json!([4, 26])
    );
    assert_eq!(
        variable(&v, "add", "b")["function_range"],
        serde_json::json!([0, 4])
    );
    let dir = tempdir::Dir::new("riscv");
    let ctx = context(
        &dir,
        "(context (register 10 \"06 00 00 00 00 00 00 00\") (register 11 \"07 00 00 00 00 00 00 00\"))",
    );
    let (_, v) = json(&["dwarf", &file, "--at", "0x14", "--context", &ctx]);
    let r = variable(&v, "scale", "r");
    assert_eq!(r["outcome"], "located", "{v}");
    assert_eq!(r["location"], "reg(10)");
    assert_eq!(r["value"], "0x0000000000000006");
    let (_, v) = json(&["dwarf", &file, "--at", "0x2", "--context", &ctx]);
    assert_eq!(variable(&v, "add", "b")["value"], "0x00000007", "{v}");
}

/// D-dwarf-split: clang -gsplit-dwarf leaves a skeleton unit in the object
/// and the variables in `c/typed-split.dwo`, which is read (found beside
/// the object): the variables and expressions are those of the same
/// compile without -gsplit-dwarf (`c/typed-clang.o`, whose reading the
/// objfile test holds to llvm-dwarfdump). It used to list no variables
/// and exit 0.
#[test]
fn a_split_dwarf_object_is_read_from_its_dwo() {
    let body = |file: &str| {
        let (code, out, err) = dioptra(&["dwarf", &real(file)]);
        assert_eq!(code, 0, "{out} {err}");
        // Past the file line and the unit line (which names the .dwo).
        out.lines().skip(2).map(str::to_string).collect::<Vec<_>>()
    };
    let split = body("c/typed-split.o");
    assert_eq!(split, body("c/typed-clang.o"));
    assert!(
        split.iter().any(|l| l.contains("blocks: parameter size")),
        "{split:?}"
    );
    let (_, v) = json(&["dwarf", &real("c/typed-split.o")]);
    assert_eq!(v["outcome"], "ok");
    assert!(
        v["units"][0]["dwo"]
            .as_str()
            .unwrap()
            .ends_with("typed-split.dwo"),
        "{v}"
    );
    // Located through the skeleton's address table: size is rdi at 0x4.
    let dir = tempdir::Dir::new("split");
    let ctx = context(&dir, "(context (register 5 \"00 00 00 00 00 00 00 80\"))");
    let (code, v) = json(&[
        "dwarf",
        &real("c/typed-split.o"),
        "--at",
        "0x4",
        "--context",
        &ctx,
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        variable(&v, "blocks", "size")["value"],
        "0x8000000000000000"
    );
}

/// D-dwarf-split: a package of the `.dwo` files (`.dwp`, indexed by
/// `.debug_cu_index`) beside the object or program: `c/typed-dwp.dwp`
/// (llvm-dwp) for `c/typed-dwp.o`, whose listing is the unsplit
/// compile's; `c/split-gcc4.exe.dwp` (binutils' dwp, DWARF 4) and
/// `c/split-gcc.exe.dwp` (llvm-dwp, DWARF 5) for two units linked into a
/// program. gdb 13 prints size = 0x8000000000000000, count =
/// 0x4000000000000000 at 0x401138 from the DWARF 4 package (it crashes on
/// the DWARF 5 one).
#[test]
fn a_split_dwarf_package_is_read() {
    let (code, out, err) = dioptra(&["dwarf", &real("c/typed-dwp.o")]);
    assert_eq!(code, 0, "{out} {err}");
    let (_, unsplit, _) = dioptra(&["dwarf", &real("c/typed-clang.o")]);
    let body = |o: &str| o.lines().skip(2).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(body(&out), body(&unsplit));
    assert!(out.contains("split DWARF read from"), "{out}");
    let dir = tempdir::Dir::new("dwp");
    let ctx = context(
        &dir,
        "(context (register 3 \"00 00 00 00 00 00 00 80\") (register 4 \"02 00 00 00 00 00 00 00\") (register 5 \"00 00 00 00 00 00 00 80\") (register 6 \"02 00 00 00 00 00 00 00\"))",
    );
    for exe in ["c/split-gcc4.exe", "c/split-gcc.exe"] {
        let (code, v) = json(&["dwarf", &real(exe)]);
        assert_eq!(code, 0, "{exe}: {v}");
        assert_eq!(v["units"].as_array().unwrap().len(), 2, "{exe}");
        assert!(
            v["units"][1]["dwo"].as_str().unwrap().ends_with(".exe.dwp"),
            "{v}"
        );
        let (code, v) = json(&["dwarf", &real(exe), "--at", "0x401138", "--context", &ctx]);
        assert_eq!(code, 0, "{exe}: {v}");
        assert_eq!(
            variable(&v, "blocks", "size")["value"],
            "0x8000000000000000",
            "{exe}"
        );
        assert_eq!(
            variable(&v, "blocks", "count")["value"],
            "0x4000000000000000",
            "{exe}"
        );
    }
}

/// A skeleton whose `.dwo` is not there (`c/typed-nodwo.o`): said on
/// stderr, named in the summary and JSON, exit 3 (not checked).
#[test]
fn a_skeleton_without_its_dwo_is_not_checked() {
    let file = real("c/typed-nodwo.o");
    let (code, v) = json(&["dwarf", &file]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["outcome"], "not-checked");
    assert_eq!(v["split_dwarf_not_read"][0], "c/typed-nodwo.dwo");
    assert_eq!(v["variables"].as_array().unwrap().len(), 0);
    let (code, out, err) = dioptra(&["dwarf", &file]);
    assert_eq!(code, 3);
    assert!(err.contains("Dwarf: split-dwarf: unit 0"), "{err}");
    assert!(err.contains("is not found"), "{err}");
    assert!(
        out.contains("split DWARF: the variables in `c/typed-nodwo.dwo` are not read"),
        "{out}"
    );
    let dir = tempdir::Dir::new("nodwo");
    let ctx = context(&dir, "(context)");
    let (code, v) = json(&["dwarf", &file, "--at", "0x4", "--context", &ctx]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["outcome"], "not-checked");
    // A .dwo, or a package, that is not an object: not read, with why.
    let obj = dir.0.join("typed-split.o");
    std::fs::copy(real("c/typed-split.o"), &obj).unwrap();
    dir.write("typed-split.dwo", "not an object");
    let (code, out, err) = dioptra(&["dwarf", obj.to_str().unwrap()]);
    assert_eq!(code, 3, "{out} {err}");
    assert!(err.contains("Object: not-an-object"), "{err}");
    std::fs::remove_file(dir.0.join("typed-split.dwo")).unwrap();
    dir.write("typed-split.dwp", "not a package");
    let (code, out, err) = dioptra(&["dwarf", obj.to_str().unwrap()]);
    assert_eq!(code, 3, "{out} {err}");
    assert!(
        err.contains("is not found, and") && err.contains("typed-split.dwp"),
        "{err}"
    );
    // An object without split units is checked as before.
    let (code, v) = json(&["dwarf", &real("c/typed-gcc.o")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["split_dwarf_not_read"].as_array().unwrap().len(), 0);
}

#[test]
fn reads_dwarf_4() {
    for file in ["c/vars-dwarf4.o", "rust/lib.o"] {
        let (code, v) = json(&["dwarf", &real(file)]);
        assert_eq!(code, 0, "{file}: {v}");
        assert_eq!(v["units"][0]["version"], 4, "{file}");
        assert_eq!(v["passed"], v["expressions"], "{file}");
    }
    let (_, v) = json(&["dwarf", &real("c/vars-dwarf4.o")]);
    let e = &variable(&v, "scale", "v")["location"][1]["expression"];
    assert_eq!(e, "DW_OP_GNU_entry_value(DW_OP_reg5), DW_OP_stack_value");
    let (_, v) = json(&["dwarf", &real("rust/lib.o")]);
    // rustc: a slice is (pointer, length) in two registers.
    let bytes = &variable(&v, "checksum", "bytes")["location"][0]["expression"];
    assert_eq!(
        bytes,
        "DW_OP_reg5, DW_OP_piece 0x8, DW_OP_reg4, DW_OP_piece 0x8"
    );
}

/// Variables located at a pc: in registers (clang -O2), at the frame base
/// (clang -O0: DW_AT_frame_base is DW_OP_reg6) and at the CFA (gcc -O0:
/// the frame base is DW_OP_call_frame_cfa, the CFA from .eh_frame).
#[test]
fn locates_variables_at_a_pc() {
    let dir = tempdir::Dir::new("at");
    // rbp = 0x1000, rsp = 0xfe0; memory 0xfe8..0x1008.
    let ctx = context(
        &dir,
        r#"(context
             (register 4 "03 00 00 00 00 00 00 00")
             (register 5 "2a 00 00 00 00 00 00 00")
             (register 6 "00 10 00 00 00 00 00 00")
             (register 7 "e0 0f 00 00 00 00 00 00")
             (memory 0 0xfe8 "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 07 00 00 00 2a 00 00 00 00 00 00 00 00 00 00 00")
             (entry (register 5 "05 00 00 00 00 00 00 00")))"#,
    );
    let at = |file: &str, pc: &str| json(&["dwarf", &real(file), "--at", pc, "--context", &ctx]);
    // clang -O2: add(a, b) at its first instruction: a in rdi, b in rsi.
    let (code, v) = at("c/vars-dwarf5.o", "0x0");
    assert_eq!(code, 0, "{v}");
    assert_eq!(variable(&v, "add", "a")["location"], "reg(5)");
    assert_eq!(variable(&v, "add", "a")["value"], "0x0000002a");
    assert_eq!(variable(&v, "add", "b")["value"], "0x00000003");
    // scale at 0x20: v is DW_OP_entry_value(DW_OP_reg5): rdi on entry.
    let (_, v) = at("c/vars-dwarf5.o", "0x20");
    assert_eq!(variable(&v, "scale", "v")["value"], "0x0000000000000005");
    assert_eq!(variable(&v, "scale", "r")["location"], "reg(5)");
    // scale at 0x10: r's list starts at 0x17, so it is unavailable.
    let (_, v) = at("c/vars-dwarf5.o", "0x10");
    assert_eq!(variable(&v, "scale", "r")["outcome"], "unavailable");
    // clang -O0: a at DW_OP_fbreg -4 from rbp.
    let (_, v) = at("c/vars-O0-dwarf5.o", "0x4");
    assert_eq!(variable(&v, "add", "a")["location"], "mem(0, 0xffc)");
    assert_eq!(variable(&v, "add", "a")["value"], "0x0000002a");
    // gcc -O0 at 0x4 (after push rbp; mov rbp, rsp): CFA = rbp + 16 =
    // 0x1010, a at DW_OP_fbreg -20 = 0xffc, b at -24 = 0xff8.
    let (code, v) = at("c/vars-gcc-O0.o", "0x4");
    assert_eq!(code, 0, "{v}");
    assert_eq!(variable(&v, "add", "a")["location"], "mem(0, 0xffc)");
    assert_eq!(variable(&v, "add", "a")["value"], "0x0000002a");
    assert_eq!(variable(&v, "add", "b")["value"], "0x00000007");
    // gcc -O0 at 0x0 (on entry): CFA = rsp + 8 = 0xfe8, a at 0xfd4.
    let (_, v) = at("c/vars-gcc-O0.o", "0x0");
    assert_eq!(variable(&v, "add", "a")["location"], "mem(0, 0xfd4)");
}

/// Without an entry state an entry value does not evaluate: exit 1, with
/// the reason.
#[test]
fn a_missing_entry_state_is_reported() {
    let dir = tempdir::Dir::new("entry");
    let ctx = context(
        &dir,
        r#"(context (register 4 "03 00 00 00 00 00 00 00") (register 5 "2a 00 00 00 00 00 00 00") (register 7 "e0 0f 00 00 00 00 00 00"))"#,
    );
    let (code, out, _) = dioptra(&[
        "dwarf",
        &real("c/vars-dwarf5.o"),
        "--at",
        "0x20",
        "--context",
        &ctx,
        "--var",
        "v",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("failed (DW_OP_entry_value: no-entry-state"),
        "{out}"
    );
}

#[test]
fn bad_arguments_are_diagnostics() {
    let (code, _, err) = dioptra(&["dwarf", &real("c/vars.c")]);
    assert_eq!(code, 2);
    assert!(err.starts_with("Object: not-an-object:"), "{err}");
    let (code, _, err) = dioptra(&["dwarf", &real("c/vars-dwarf5.o"), "--at", "0x0"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("Dwarf: bad-arguments:"), "{err}");
    let (code, _, err) = dioptra(&[
        "dwarf",
        &real("c/vars-dwarf5.o"),
        "--at",
        "zz",
        "--context",
        "/dev/null",
    ]);
    assert_eq!(code, 2);
    assert!(err.starts_with("Dwarf: bad-pc:"), "{err}");
    let (code, _, err) = dioptra(&["dwarf", "/nonexistent.o"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("Object: unreadable:"), "{err}");
}

/// `dwarf-equiv` on llvm-dwarfdump's text as printed; a DWARF failure is
/// its own verdict (`dwarf-error`, exit 1), and `unknown` (exit 3) says why
/// nothing was compared.
#[test]
fn dwarf_equiv_reads_llvm_dwarfdump_text_and_names_its_verdicts() {
    let dir = tempdir::Dir::new("equiv");
    let ctx = context(
        &dir,
        r#"(context (register 5 "2a 00 00 00 00 00 00 00") (arg "i64" "reg(5)"))"#,
    );
    let run = |dwarf: &str| dioptra(&["dwarf-equiv", "DIOpArg(0, i64)", dwarf, "--context", &ctx]);
    let (code, out, err) = run("DW_AT_location\t(DW_OP_reg5 RDI)");
    assert_eq!((code, out.lines().next()), (0, Some("same")), "{out}{err}");
    let (code, out, _) = run("DW_OP_reg5 RDI, DW_OP_lit0, DW_OP_plus");
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.lines().next(), Some("dwarf-error"));
    assert!(out.contains("DW_OP_plus: value-required"), "{out}");
    let (code, out, _) = run("DW_OP_fbreg -8");
    assert_eq!(code, 3, "{out}");
    assert_eq!(out.lines().next(), Some("unknown"));
    assert!(
        out.contains("nothing compared: DW_OP_fbreg: no-frame-base:"),
        "{out}"
    );
    let (code, _, err) = run("DW_OP_reg4 RDI");
    assert_eq!(code, 2);
    assert!(err.starts_with("DWARF: bad-operand:"), "{err}");
}

/// An expression that breaks a static rule: add's `a` (DIE 0x55 in
/// llvm-dwarfdump's listing: `DW_AT_location (DW_OP_reg5 RDI)`, an exprloc
/// of one byte right after the abbreviation code) patched to `DW_OP_plus`.
#[test]
fn an_expression_that_breaks_a_static_rule_is_reported() {
    use object::{Object as _, ObjectSection as _};
    let mut bytes = std::fs::read(real("c/vars-dwarf5.o")).unwrap();
    let info = {
        let file = object::File::parse(&*bytes).unwrap();
        let s = file.section_by_name(".debug_info").unwrap();
        s.file_range().unwrap().0 as usize
    };
    let at = info + 0x55;
    assert_eq!(
        &bytes[at + 1..at + 3],
        &[0x01, 0x55],
        "the exprloc of add's a"
    );
    bytes[at + 2] = 0x22; // DW_OP_plus
    let dir = tempdir::Dir::new("patched");
    let path = dir.0.join("patched.o");
    std::fs::write(&path, &bytes).unwrap();
    let (code, out, err) = dioptra(&["dwarf", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "add: parameter a (line 11, int, 4 bytes): fails: DW_OP_plus: stack-underflow"
        ),
        "{out}"
    );
    assert!(out.contains("1 DW_OP_plus: stack-underflow"), "{out}");
    let (_, v) = json(&["dwarf", path.to_str().unwrap()]);
    assert_eq!(v["outcome"], "ill-formed");
    assert_eq!(v["reasons"]["DW_OP_plus: stack-underflow"], 1);
}

/// `lower --context` whose law compared nothing did not check it: exit 3
/// and why, never a pass.
#[test]
fn a_lowering_law_that_compared_nothing_is_not_checked() {
    let dir = tempdir::Dir::new("lower");
    let ctx = context(&dir, r#"(context (arg "i64" "reg(5)"))"#);
    let (code, out, err) = dioptra(&["lower", "DIOpArg(0, i64), DIOpRead()", "--context", &ctx]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("law: NOT CHECKED:"), "{err}");
    assert!(
        err.contains("(first: DIOpRead: register-not-supplied:"),
        "{err}"
    );
    // With the register there, the same lowering is checked and holds.
    let ctx = context(
        &dir,
        r#"(context (register 5 "2a 00 00 00 00 00 00 00") (arg "i64" "reg(5)"))"#,
    );
    let (code, _, err) = dioptra(&["lower", "DIOpArg(0, i64), DIOpRead()", "--context", &ctx]);
    assert_eq!(code, 0, "{err}");
}

/// A relocation the reader does not apply (a thread-local offset) is
/// counted and left as written; the object still reads.
#[test]
fn an_unapplied_relocation_is_counted_not_fatal() {
    let (code, v) = json(&["dwarf", &real("c/tls.o")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["relocations_not_applied"], 1);
    let tls = v["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "tls_counter")
        .unwrap();
    assert_eq!(tls["function"], Value::Null);
    assert_eq!(
        tls["location"]["expression"],
        "DW_OP_const8u 0x0, DW_OP_GNU_push_tls_address"
    );
}
