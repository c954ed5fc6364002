//! Every command against every hostile input class, under a memory limit
//! (`ulimit -v` in the child's shell) and a time limit: each ends with a
//! diagnostic (`Construct: reason-code: ...`) and a non-zero exit, never a
//! panic (exit 101), a signal (an abort on allocation failure, a stack
//! overflow) or a hang. Large inputs are generated here, not checked in.
//! Also the two inputs of issue 24 whose memory grew with the square of
//! their size: many added locations (`multiloc`) and many segments of one
//! object live at once (`lifetimes`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Virtual memory allowed to each child (KiB). The binary links z3; its
/// start-up needs well under this.
const MEMORY_KIB: u64 = 1_000_000;
/// Wall time allowed to each child (debug build).
const TIME: Duration = Duration::from_secs(120);

/// Runs `dioptra args` with `stdin` under the limits; `None` if it had to
/// be killed at the time limit.
fn bounded(args: &[&str], stdin: Option<&Path>) -> Option<Output> {
    bounded_in(MEMORY_KIB, args, stdin)
}

/// [`bounded`] with a memory limit of its own (KiB).
fn bounded_in(memory_kib: u64, args: &[&str], stdin: Option<&Path>) -> Option<Output> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {memory_kib}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_dioptra"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match stdin {
        Some(p) => cmd.stdin(std::fs::File::open(p).unwrap()),
        None => cmd.stdin(Stdio::null()),
    };
    let child = cmd.spawn().unwrap();
    let pid = child.id();
    let started = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    loop {
        if let Ok(out) = rx.recv_timeout(Duration::from_millis(100)) {
            return Some(out.unwrap());
        }
        if started.elapsed() > TIME {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            return None;
        }
    }
}

/// The standard output of a run that must have succeeded (exit 0).
fn succeeded(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A line of the form `Construct: reason-code: message`.
fn diagnostic_in(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.strip_prefix("FAIL ").unwrap_or(l);
        let mut parts = l.splitn(3, ": ");
        let (Some(construct), Some(reason), Some(_)) = (parts.next(), parts.next(), parts.next())
        else {
            return false;
        };
        !construct.trim().is_empty()
            && !reason.is_empty()
            && reason
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
    })
}

struct Inputs {
    dir: PathBuf,
}

impl Inputs {
    /// A directory of its own (the tests run in parallel in one process).
    fn new(test: &str) -> Inputs {
        let dir =
            std::env::temp_dir().join(format!("dioptra-bad-input-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Inputs { dir }
    }
    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.dir.join(name);
        std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
        p.to_string_lossy().into_owned()
    }
}

impl Drop for Inputs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The hostile input classes: name and file.
fn classes(inputs: &Inputs) -> Vec<(&'static str, String)> {
    // A xorshift stream: bytes that are not UTF-8 and not any syntax.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let binary: Vec<u8> = (0..1 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    let mut huge_number = b"!DIExpr(DIOpConstant(i32 ".to_vec();
    huge_number.extend(std::iter::repeat_n(b'9', 1 << 20));
    huge_number.extend(b"))");
    let mut deep = b"!DIExpr(".to_vec();
    deep.extend(std::iter::repeat_n(b'(', 1 << 20));
    let mut long_line = Vec::new();
    while long_line.len() < 4 << 20 {
        long_line.extend(b"DIOpConstant(i32 1), DIOpConstant(i32 2), DIOpAdd(), DIOpRead(), ");
    }
    vec![
        ("endless", "/dev/zero".to_string()),
        ("empty", inputs.write("empty", b"")),
        ("binary", inputs.write("binary", &binary)),
        ("huge-number", inputs.write("huge-number", &huge_number)),
        ("deep-nesting", inputs.write("deep-nesting", &deep)),
        ("long-line", inputs.write("long-line", &long_line)),
    ]
}

/// The hostile content inside a listing, where `lifetimes` and `multiloc`
/// read expressions (their pseudo-IR takes any other line as an
/// instruction): a segment's location, and a call's classic expression.
fn in_listings(inputs: &Inputs, class: &str, f: &str) -> (String, String, String) {
    if f == "/dev/zero" {
        return (f.to_string(), f.to_string(), f.to_string());
    }
    let content = std::fs::read(f).unwrap();
    let mut lt = b"call void @llvm.dbg.def(metadata !2, metadata i32 %x)\n!1 = !DILocalVariable(\"x\")\n!2 = distinct !DILifetime(object: !1, location: ".to_vec();
    lt.extend(&content);
    lt.extend(b")\n");
    let mut ml = b"define void @f() {\nentry:\n  %t = call token @llvm.dbg.value.new(metadata i32 %a, metadata !1, metadata ".to_vec();
    ml.extend(&content);
    ml.extend(b")\n  ret void\n}\n!1 = !DILocalVariable(name: \"x\")\n");
    // A compiler's module (`dioptra ir`, and `lifetimes`/`multiloc` read
    // it through the IR reader) with the content as a record's expression.
    let mut ir =
        b"source_filename = \"x\"\ndefine void @f(i32 %a) {\n  #dbg_value(i32 %a, !1, ".to_vec();
    ir.extend(&content);
    ir.extend(b", !2)\n  ret void\n}\n!1 = !DILocalVariable(name: \"x\")\n");
    let empty = content.is_empty();
    let or_file = |name: &str, bytes: &[u8]| {
        if empty {
            f.to_string()
        } else {
            inputs.write(&format!("{class}.{name}"), bytes)
        }
    };
    (
        or_file("lifetimes", &lt),
        or_file("multiloc", &ml),
        or_file("ll", &ir),
    )
}

/// A real object file (corpus/real), for `dwarf --context`.
fn real_object() -> String {
    format!(
        "{}/../../corpus/real/c/vars-dwarf5.o",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Each command with the hostile file in each of its file arguments.
fn invocations(f: &str, listing: &str, multiloc: &str, module: &str) -> Vec<Vec<String>> {
    let at = format!("@{f}");
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        s(&["check", &at]),
        s(&["equiv", &at, "DIOpConstant(i32 1)"]),
        s(&["equiv", "DIOpConstant(i32 1)", &at]),
        s(&["canon", &at]),
        s(&["rule", f]),
        s(&["lower", &at]),
        s(&["eval", "--context", f, "DIOpConstant(i32 1)"]),
        s(&["eval", "--context", "/dev/null", &at]),
        s(&[
            "dwarf-equiv",
            "--context",
            f,
            "DIOpConstant(i32 1)",
            "30 9f",
        ]),
        s(&["dwarf-equiv", "--context", "/dev/null", &at, "30 9f"]),
        s(&[
            "dwarf-equiv",
            "--context",
            "/dev/null",
            "DIOpConstant(i32 1)",
            &at,
        ]),
        s(&["run", f]),
        s(&["lifetimes", listing]),
        s(&["lifetimes", "--lower", "dwarf5", listing]),
        s(&["multiloc", multiloc]),
        s(&["dwarf", f]),
        s(&["dwarf", &real_object(), "--at", "0x0", "--context", f]),
        s(&["ir", f]),
        s(&["ir", module]),
        s(&["lifetimes", module]),
        s(&["multiloc", module]),
    ]
}

#[test]
fn every_command_diagnoses_every_hostile_input_within_bounds() {
    let inputs = Inputs::new("every");
    let mut failures = Vec::new();
    for (class, f) in classes(&inputs) {
        let (listing, multiloc, module) = in_listings(&inputs, class, &f);
        for args in invocations(&f, &listing, &multiloc, &module) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let shown = format!("{class}: dioptra {}", args.join(" "));
            let Some(o) = bounded(&args, None) else {
                failures.push(format!("{shown}: still running after {TIME:?}"));
                continue;
            };
            let stderr = String::from_utf8_lossy(&o.stderr);
            // `run` reports each script on stdout (`FAIL Construct: ...`).
            let said = format!("{stderr}{}", String::from_utf8_lossy(&o.stdout));
            match o.status.code() {
                None => failures.push(format!("{shown}: killed by a signal ({:?})", o.status)),
                Some(0) => failures.push(format!("{shown}: exit 0 on hostile input")),
                Some(101) => failures.push(format!("{shown}: panicked: {stderr}")),
                Some(_) if !diagnostic_in(&said) => failures.push(format!(
                    "{shown}: no `Construct: reason-code:` diagnostic: {}",
                    said.chars().take(300).collect::<String>()
                )),
                Some(_) => {}
            }
            if o.stdout.len() + o.stderr.len() > 64 << 10 {
                failures.push(format!(
                    "{shown}: {} bytes of output for one diagnostic",
                    o.stdout.len() + o.stderr.len()
                ));
            }
        }
        // serve answers every line (with a diagnostic) and exits normally.
        if class != "endless" {
            let o = bounded(&["serve"], Some(Path::new(&f)));
            match o {
                None => failures.push(format!("{class}: serve still running after {TIME:?}")),
                Some(o) if o.status.code().is_none_or(|c| c == 101) => {
                    failures.push(format!("{class}: serve crashed: {:?}", o.status))
                }
                Some(o) => {
                    let out = String::from_utf8_lossy(&o.stdout);
                    let lines = std::fs::read(&f)
                        .unwrap()
                        .split(|&b| b == b'\n')
                        .filter(|l| !l.is_empty())
                        .count();
                    let answers = out.lines().count();
                    if lines > 0 && (answers == 0 || !out.contains("\"outcome\":\"malformed\"")) {
                        failures.push(format!(
                            "{class}: serve answered {answers} of {lines} lines: {}",
                            out.chars().take(300).collect::<String>()
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Issue 24, item 4, with a deep stack: N constants then N - 1 additions
/// (200 000 ops, 3.2 MB). `canon` kept a copy of the stack before every op
/// (N^2 / 2 entries: 40 000 ops asked for 2.6 GB and aborted), and `lower`
/// put each constant's code in front of a copy of the code of the additions
/// after it (200 000 ops took 100 s in the release build). Both now answer
/// within the limits, and the answers are checked.
#[test]
fn an_expression_with_a_deep_stack_is_canonicalized_and_lowered_within_bounds() {
    let inputs = Inputs::new("deep-stack");
    let n = 100_000;
    let mut ops = vec!["DIOpConstant(i32 1)"; n];
    ops.extend(vec!["DIOpAdd()"; n - 1]);
    let f = inputs.write(
        "deep-stack.txt",
        format!("DIExpr({})", ops.join(", ")).as_bytes(),
    );
    let at = format!("@{f}");
    let o = bounded(&["canon", &at], None).expect("canon finishes within the time limit");
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(0), "canon: {err}");
    // Every addition folded.
    assert_eq!(out.trim(), format!("!DIExpr(DIOpConstant(i32 {n}))"));
    for target in ["amdgpu", "dwarf5"] {
        let o = bounded(&["lower", "--target", target, &at], None)
            .expect("lower finishes within the time limit");
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        assert_eq!(o.status.code(), Some(0), "lower {target}: {err}");
        // Each constant pushed, each addition made and masked to 32 bits,
        // in the expression's order: all the constants first.
        let listing = out.lines().next().unwrap_or_default();
        let ops: Vec<&str> = listing.split(", ").collect();
        assert_eq!(ops.len(), n + 3 * (n - 1) + 1, "lower {target}");
        assert!(
            ops[..n].iter().all(|o| *o == "DW_OP_lit1"),
            "lower {target}"
        );
        assert!(
            ops[n..ops.len() - 1]
                .chunks(3)
                .all(|c| c == ["DW_OP_plus", "DW_OP_constu 0xffffffff", "DW_OP_and"]),
            "lower {target}"
        );
        assert_eq!(ops.last(), Some(&"DW_OP_stack_value"), "lower {target}");
    }
}

/// Plain DWARF 5 has no `DW_OP_LLVM_extend`: `DIOpExtend(N)` lowers to `N`
/// pieces, each with its own copy of the element's location. 20 000
/// additions then `DIOpExtend(65536)` (a 600 KB expression) asked for 2.9
/// GB and aborted; the copies are now bounded (`MAX_REPEATED_DWARF_OPS`)
/// and the lowering says so; so does a constant-mask `DIOpSelect`, which
/// copies a location per element too. With the extensions each is one
/// operation.
#[test]
fn repeated_locations_in_plain_dwarf_are_bounded() {
    let inputs = Inputs::new("repeated");
    let n = 20_000;
    let mut ops = vec!["DIOpConstant(i32 1)"];
    for _ in 0..n {
        ops.extend(["DIOpConstant(i32 1)", "DIOpAdd()"]);
    }
    ops.push("DIOpExtend(65536)");
    let f = inputs.write(
        "extend.txt",
        format!("DIExpr({})", ops.join(", ")).as_bytes(),
    );
    let at = format!("@{f}");
    let o = bounded(&["lower", "--target", "dwarf5", &at], None)
        .expect("lower finishes within the time limit");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(1), "{said}");
    assert!(said.starts_with("unsupported\n"), "{said}");
    assert!(said.contains("DIOpExtend: limit-exceeded: "), "{said}");
    assert!(said.len() < 1000, "{said}");
    let o = bounded(&["lower", "--target", "amdgpu", &at], None)
        .expect("lower finishes within the time limit");
    let out = succeeded(&o);
    assert!(
        out.contains("DW_OP_LLVM_extend 0x20 0x10000"),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
    // A constant-mask select of two 2 040-element vectors: each of its
    // 2 040 pieces copies a 2 040-piece composite.
    let select = "DIExpr(DIOpConstant(i8 1), DIOpExtend(2040), DIOpConstant(i8 0), \
                  DIOpExtend(2040), DIOpConstant(i2040 5), DIOpSelect())";
    let o = bounded(&["lower", "--target", "dwarf5", select], None)
        .expect("lower finishes within the time limit");
    let said = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{said}");
    assert!(said.contains("DIOpSelect: limit-exceeded: "), "{said}");
    let o = bounded(&["lower", "--target", "amdgpu", select], None)
        .expect("lower finishes within the time limit");
    assert!(succeeded(&o).contains("DW_OP_LLVM_select_bit_piece 0x8 0x7f8"));
}

/// Issue 24, item 2: N locations added to one key call are all current at
/// the N points after them; the agreement check once held a set per point
/// (N^2 entries: 1.7 GB at N = 5 000). Under the limit it now agrees.
#[test]
fn many_added_locations_agree_in_linear_memory() {
    let inputs = Inputs::new("adds");
    let n = 3000;
    let mut text = String::from("define void @f() {\nentry:\n  %t0 = call token @llvm.dbg.value.new(metadata i32 %a, metadata !1, metadata !DIExpression())\n");
    for i in 1..n {
        text += &format!("  %t{i} = call token @llvm.dbg.value.add(token %t0, metadata i32 %a{i}, metadata !DIExpression())\n");
    }
    text += "  ret void\n}\n!1 = !DILocalVariable(name: \"x\")\n";
    let f = inputs.write("adds.ll", text.as_bytes());
    // 200 MB: the old per-point sets needed about 600 MB here.
    let o = bounded_in(200_000, &["multiloc", &f], None).expect("finishes");
    let out = succeeded(&o);
    assert!(
        out.contains(&format!("agrees at {} program points", n + 1)),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
}

/// Issue 24, item 8: N segments of one object live at once. Each row names
/// the first segments, counts the rest and evaluates only those it shows,
/// so the output and the memory grow linearly (they grew with N^2: 3 GB).
#[test]
fn many_live_segments_of_one_object_print_bounded_rows() {
    let inputs = Inputs::new("live");
    let n = 3000;
    let mut text = String::new();
    for i in 0..n {
        text += &format!(
            "call void @llvm.dbg.def(metadata !{}, metadata i32 %v{i})\n",
            i + 2
        );
    }
    text += "%u = add i32 1, 2\n\n!1 = !DILocalVariable(\"x\", ...)\n";
    for i in 0..n {
        text += &format!(
            "!{} = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n",
            i + 2
        );
    }
    let f = inputs.write("live.ll", text.as_bytes());
    // 200 MB: the old per-point rows needed 440 MB here.
    let o = bounded_in(200_000, &["lifetimes", &f], None).expect("finishes");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    // One row per point (the set grows at each def), each of bounded length.
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("  line")).collect();
    assert_eq!(rows.len(), n, "{}", &out[..out.len().min(300)]);
    assert!(
        rows.iter().all(|r| r.len() < 1000),
        "a row of {} bytes",
        rows.iter().map(|r| r.len()).max().unwrap()
    );
    // The last point: all n segments, the first 8 shown and evaluated.
    let last = rows.last().unwrap();
    assert!(
        last.contains(&format!("and {} more ({n} segments)", n - 8)),
        "{last}"
    );
    assert!(
        last.contains(&format!("and the places of {} more segments", n - 8)),
        "{last}"
    );
    assert_eq!(last.matches("ent(32, %v").count(), 8, "{last}");
}

/// Issue 24's "no input can hang dioptra", found since: the check that no
/// lifetime has a type property fragment in `argObjects` walked every node
/// once per fragment. 150 000 array types with a `dataLocation` each (a
/// 16 MB listing, a quarter of the input bound) took the release binary
/// past 120 s; one pass over the nodes takes about a second.
#[test]
fn many_type_property_fragments_are_checked_in_one_pass() {
    let inputs = Inputs::new("props");
    let n = 150_000;
    let mut text = String::from("define void @f() {\nentry:\n  ret void\n}\n");
    for k in 0..n {
        text += &format!(
            "!t{k} = !DICompositeType(tag: DW_TAG_array_type, dataLocation: !f{k})\n!f{k} = distinct !DIFragment()\n"
        );
    }
    let f = inputs.write("props.ll", text.as_bytes());
    let o = bounded(&["lifetimes", &f], None).expect("finishes within the time limit");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The retention rules looked each local variable up in a copy of its
/// subprogram's `retainedNodes` (and each computed segment in every
/// subprogram's): quadratic in a subprogram's variables. 60 000 variables
/// of one function (a 3.7 MB listing, every seventh not retained) took the
/// release binary 148 s; the sets are built once now (0.44 s).
#[test]
fn many_variables_of_one_subprogram_are_checked_against_its_retained_nodes_once() {
    let inputs = Inputs::new("retained");
    let n = 60_000;
    let retained: Vec<String> = (0..n)
        .filter(|k| k % 7 != 0)
        .map(|k| format!("!v{k}"))
        .collect();
    let mut text = format!(
        "define void @f() !dbg !sp {{\nentry:\n  ret void\n}}\n!sp = distinct !DISubprogram(name: \"f\", retainedNodes: !{{{}}})\n",
        retained.join(",")
    );
    for k in 0..n {
        text += &format!("!v{k} = !DILocalVariable(name: \"v{k}\", scope: !sp)\n");
    }
    let not_retained =
        reports_of_lifetimes(&inputs, "retained.ll", &text, "DISubprogram: not-retained");
    assert_eq!(not_retained, (0..n).filter(|k| k % 7 == 0).count());
}

/// The walks find an instruction's block from the block of the
/// instruction at the multiple of 16 below it; a listing may put any
/// number of empty blocks between the two. Stepping over them one by one,
/// a def after a million empty blocks, looked up again for each of its
/// 100 005 kills (all before it, so each is checked for reachability),
/// is 10^11 steps (25 s of this test's 120 s limit here, where it now
/// takes 1.2 s; ten times the kills, within the input bound, would pass
/// the limit); a binary search over the run makes it about 20 per kill.
/// (A 13 MB listing; every kill is reported.)
#[test]
fn a_def_after_a_million_empty_blocks_is_found_once_per_kill_quickly() {
    let inputs = Inputs::new("empty-blocks");
    // Not a multiple of 16: the def shares its stretch of the block table
    // with the last kills, before the empty blocks.
    let kills = 100_005;
    let empty = 1_000_000;
    let mut text = String::from("define void @f() {\nentry:\n");
    for _ in 0..kills {
        text += "  call void @llvm.dbg.kill(metadata !l)\n";
    }
    for k in 0..empty {
        text += &format!("e{k}:\n");
    }
    text += "last:\n  call void @llvm.dbg.def(metadata !l, metadata i32 %x)\n  ret void\n}\n";
    text += "!v = !DILocalVariable(name: \"v\")\n!l = distinct !DILifetime(object: !v, location: !DIExpr(DIOpReferrer(i32)))\n";
    let unreachable = reports_of_lifetimes(
        &inputs,
        "empty-blocks.ll",
        &text,
        "llvm.dbg.kill: unreachable-from-def",
    );
    assert_eq!(unreachable, kills);
}

/// A metadata definition continued over a million lines (a tuple with an
/// element on each line, 7 MB) is read in time linear in its length: the
/// listing reader scanned the whole definition so far for its balance of
/// parentheses after each line, and 300 000 such lines took 80 s. The
/// function's one variable is still located.
#[test]
fn a_definition_over_a_million_lines_is_read_in_linear_time() {
    let inputs = Inputs::new("long-definition");
    let mut text = String::from(
        "define void @f() {\nentry:\n  call void @llvm.dbg.def(metadata !l, metadata i32 %x)\n  ret void\n}\n",
    );
    text += "!v = !DILocalVariable(name: \"v\")\n!l = distinct !DILifetime(object: !v, location: !DIExpr(DIOpReferrer(i32)))\n";
    text += "!t = !{\n";
    for _ in 0..1_000_000 {
        text += "  !v,\n";
    }
    text += "  !v\n}\n";
    let out = rows_of_lifetimes(&inputs, "long-definition.ll", &text);
    assert!(
        out.contains("lines 3-4: ent(32, %x)  [!l]"),
        "the variable is located: {out}"
    );
}

/// A module of 16 MB of `=` is refused at its first token within the
/// memory limit: the IR reader cuts a module into all its tokens first, and
/// each token held its text in a `String` (56 bytes and an allocation a
/// token, twice that while the list grew), so these one-byte tokens asked
/// for 900 MB at once and aborted under the limit. A token is 16 bytes now,
/// its text read from the source when asked for.
#[test]
fn a_module_of_one_byte_tokens_is_read_in_proportion_to_its_size() {
    let inputs = Inputs::new("one-byte-tokens");
    let f = inputs.write("equals.ll", &vec![b'='; 16 << 20]);
    refused_at_first_token(&["ir", &f], "Module: unexpected-token: line 1, column 1");
}

/// Runs `dioptra args` under the limits: it must end with exit 2 (malformed
/// input) and `diagnostic` in a short standard error.
fn refused_at_first_token(args: &[&str], diagnostic: &str) {
    let o = bounded(args, None).expect("finishes within the time limit");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(diagnostic), "{args:?}: {stderr}");
    assert!(
        stderr.len() < 1000,
        "{args:?}: a window of the line, not the line"
    );
}

/// The same for the expression reader: 16 MB of `,` is refused at its first
/// token within the memory limit, by every command that reads an
/// expression. Each token held a `String` (40 bytes and an allocation a
/// token, more while the list grew: `check` aborted asking for 640 MB), and
/// the diagnostic copied its line as characters (4 bytes a byte) to show
/// 100 of them.
#[test]
fn an_expression_of_one_byte_tokens_is_read_in_proportion_to_its_size() {
    let inputs = Inputs::new("one-byte-expression-tokens");
    let f = inputs.write("commas.txt", &vec![b','; 16 << 20]);
    let at = format!("@{f}");
    for command in ["check", "canon", "lower"] {
        refused_at_first_token(&[command, &at], "Parse: unexpected-token: line 1, column 1");
    }
}

/// One computed segment with 6 000 inputs (`argObjects`), each input's
/// segment starting at its own point: the object's location can change at
/// each of those points, and each is located with all 6 000 inputs (36
/// million input locations; 5 000 inputs took 11 s in the release build,
/// 20 000 past 100 s). Locating stops at `MAX_LOCATED_INPUTS` (16.8
/// million): the rows past it say `limit-exceeded`, and so does the exit
/// code (3, not complete).
#[test]
fn a_segment_with_thousands_of_inputs_stops_at_the_locating_bound() {
    let inputs = Inputs::new("many-inputs");
    let n = 6_000;
    let mut text = String::from("define void @f() {\nentry:\n");
    for k in 0..n {
        text += &format!("  call void @llvm.dbg.def(metadata !l{k}, metadata i32 %x)\n");
    }
    text += "  ret void\n}\n!v = !DILocalVariable(name: \"v\")\n";
    for k in 0..n {
        text += &format!("!w{k} = !DILocalVariable(name: \"w{k}\")\n!l{k} = distinct !DILifetime(object: !w{k}, location: !DIExpr(DIOpReferrer(i32)))\n");
    }
    let args: Vec<String> = (0..n).map(|k| format!("!w{k}")).collect();
    text += &format!(
        "!c = distinct !DILifetime(object: !v, location: !DIExpr(DIOpArg(0, i32)), argObjects: {{{}}})\n",
        args.join(", ")
    );
    let f = inputs.write("many-inputs.ll", text.as_bytes());
    let o = bounded(&["lifetimes", &f], None).expect("finishes within the time limit");
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("DILifetime: limit-exceeded: locating stopped"),
        "{err}"
    );
    // The first stretches are located, the later ones say why not.
    assert!(
        out.contains("ent(32, %x)  [!c]"),
        "{}",
        &out[..out.len().min(400)]
    );
    assert!(out.contains("error: DILifetime: limit-exceeded: `!c` is not evaluated"));
}

/// `dioptra lifetimes` on 300 000 instructions with 30 000 variables, each
/// live over a few hundred of them (the lifetimes benchmark's listing, three
/// times larger): every row is found a stretch at a time. The command
/// visited every point of the function for every variable, 10^10 steps
/// here (17 s at a third of the size in the release build); now it takes
/// about a second in the release build.
#[test]
fn many_short_lived_variables_are_listed_a_stretch_at_a_time() {
    let inputs = Inputs::new("short-lived");
    let (n, s) = (300_000usize, 30_000usize);
    let mut at: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as usize
    };
    for v in 0..s {
        let d = rnd() % (n - 300);
        let k = d + 40 + rnd() % 200;
        at[d].push(format!(
            "call void @llvm.dbg.def(metadata !l{v}, metadata i32 %v{v})"
        ));
        at[k].push(format!("call void @llvm.dbg.kill(metadata !l{v})"));
    }
    // One block: every def reaches its kill, and the kill ends it.
    let mut text = String::from("define void @f() {\nentry:\n");
    for (i, calls) in at.iter().enumerate() {
        text += &format!("  %t{i} = add i32 1, 2\n");
        for c in calls {
            text += &format!("  {c}\n");
        }
    }
    text += "  ret void\n}\n";
    for v in 0..s {
        text += &format!("!v{v} = !DILocalVariable(name: \"v{v}\")\n!l{v} = distinct !DILifetime(object: !v{v}, location: !DIExpr(DIOpReferrer(i32)))\n");
    }
    let out = rows_of_lifetimes(&inputs, "short-lived.ll", &text);
    // Each variable: undefined before its def, its referrer, undefined after.
    assert_eq!(
        out.matches(" [!l").count(),
        s,
        "one located row per variable"
    );
    assert_eq!(out.lines().filter(|l| l.starts_with("!v")).count(), s);
}

/// 200 000 kills of one def, each in its own block after the one before
/// (12 MB): every kill but the first is shadowed, and each was found
/// reachable by a walk of its own from the def over the blocks before it,
/// 2 * 10^10 steps (20 000 kills took 1 s in the release build, a hundred
/// times that is past this test's limit); one walk from the def answers
/// them all now. Every kill is reported.
#[test]
fn two_hundred_thousand_shadowed_kills_are_found_in_one_walk() {
    let inputs = Inputs::new("shadowed-kills");
    let kills = 200_000;
    let mut text = String::from(
        "define void @f() {\nentry:\n  call void @llvm.dbg.def(metadata !l, metadata i32 %x)\n",
    );
    for b in 0..kills {
        text += &format!("  br label %b{b}\nb{b}:\n  call void @llvm.dbg.kill(metadata !l)\n");
    }
    text += "  ret void\n}\n!v = !DILocalVariable(name: \"v\")\n!l = distinct !DILifetime(object: !v, location: !DIExpr(DIOpReferrer(i32)))\n";
    let shadowed = reports_of_lifetimes(&inputs, "kills.ll", &text, "llvm.dbg.kill: shadowed");
    assert_eq!(shadowed, kills - 1);
}

/// Runs `dioptra lifetimes` on `text` (written to `name`) under the limits:
/// it must finish and exit 0 (the listing is well-formed). Gives its
/// output.
fn rows_of_lifetimes(inputs: &Inputs, name: &str, text: &str) -> String {
    let f = inputs.write(name, text.as_bytes());
    let o = bounded(&["lifetimes", &f], None).expect("finishes within the time limit");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `dioptra lifetimes` on `text` (written to `name`) under the limits:
/// it must finish and exit 1 (the listing is ill-formed). Gives how many
/// lines of its output carry `diagnostic` (`Construct: reason-code`).
fn reports_of_lifetimes(inputs: &Inputs, name: &str, text: &str, diagnostic: &str) -> usize {
    let f = inputs.write(name, text.as_bytes());
    let o = bounded(&["lifetimes", &f], None).expect("finishes within the time limit");
    let out = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{}", &out[..out.len().min(400)]);
    out.lines().filter(|l| l.contains(diagnostic)).count()
}

/// A computed segment's home (for the retention rules) is where its input
/// fragments' segments are, recursively; each fragment's was computed
/// again for every path to it. 40 fragments whose segments each take the
/// next fragment twice (a 4 KB listing) ran past a minute; each
/// fragment's home is computed once now. Every one of the 41 computed
/// segments involves nothing function-specific and is retained by no
/// list, so each is reported.
#[test]
fn a_chain_of_fragments_each_used_twice_is_walked_once() {
    let inputs = Inputs::new("chain");
    let n = 40;
    let mut text = String::from(
        "define void @f() !dbg !sp {\nentry:\n  ret void\n}\n!sp = distinct !DISubprogram(name: \"f\", retainedNodes: !{!v})\n!v = !DILocalVariable(name: \"v\", scope: !sp)\n!top = distinct !DILifetime(object: !v, location: !DIExpr(DIOpArg(0, i32)), argObjects: {!f0})\n",
    );
    for i in 0..n {
        text += &format!("!f{i} = distinct !DIFragment()\n");
        if i + 1 < n {
            text += &format!(
                "!l{i} = distinct !DILifetime(object: !f{i}, location: !DIExpr(DIOpArg(0, i32), DIOpArg(1, i32), DIOpAdd()), argObjects: {{!f{}, !f{}}})\n",
                i + 1,
                i + 1
            );
        } else {
            text += &format!(
                "!l{i} = distinct !DILifetime(object: !f{i}, location: !DIExpr(DIOpConstant(i32 1)))\n"
            );
        }
    }
    let reported = reports_of_lifetimes(&inputs, "chain.ll", &text, "DILifetime: wrong-retainer");
    assert_eq!(reported, n + 1);
}

/// A compressed debug section says how large it becomes, and
/// decompressing allocates that: `c/vars-gz.o`'s 418-byte `.debug_info`
/// made to say 2^40 bytes took 24 GB before the kernel killed dioptra.
/// The sizes are held to the object bound before anything is
/// decompressed: `Object: too-large`, exit 2, at once.
#[test]
fn a_compressed_section_that_claims_a_terabyte_is_refused_before_decompressing() {
    let path = format!(
        "{}/../../corpus/real/c/vars-gz.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut elf = std::fs::read(&path).unwrap();
    let u16_at = |b: &[u8], o: usize| u16::from_le_bytes([b[o], b[o + 1]]) as usize;
    let u32_at = |b: &[u8], o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap()) as usize;
    let u64_at = |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap()) as usize;
    // ELF64: the section headers, and the section names' string table.
    let (shoff, shentsize, shnum, shstrndx) = (
        u64_at(&elf, 0x28),
        u16_at(&elf, 0x3a),
        u16_at(&elf, 0x3c),
        u16_at(&elf, 0x3e),
    );
    let header = |i: usize| shoff + i * shentsize;
    let names = u64_at(&elf, header(shstrndx) + 0x18);
    let mut patched = false;
    for i in 0..shnum {
        let h = header(i);
        let name_at = names + u32_at(&elf, h);
        let name_end = name_at + elf[name_at..].iter().position(|&c| c == 0).unwrap();
        let compressed = u64_at(&elf, h + 8) & 0x800 != 0; // SHF_COMPRESSED
        if &elf[name_at..name_end] == b".debug_info" && compressed {
            // Elf64_Chdr: ch_type, ch_reserved, ch_size.
            let data = u64_at(&elf, h + 0x18);
            elf[data + 8..data + 16].copy_from_slice(&(1u64 << 40).to_le_bytes());
            patched = true;
        }
    }
    assert!(patched, "c/vars-gz.o has a compressed .debug_info");
    let inputs = Inputs::new("gz");
    let f = inputs.write("bomb.o", &elf);
    let started = Instant::now();
    let o = bounded(&["dwarf", &f], None).expect("it ends");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("Object: too-large: .debug_info: 1099511627776 bytes"),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(30));
    // The object as compiled reads.
    let o = bounded(&["dwarf", &path], None).expect("it ends");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
