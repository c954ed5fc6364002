//! The object reader against an independent one: for every object under
//! `corpus/real/`, LLVM's `llvm-dwarfdump` must see the same variables and
//! parameters (DIE offsets, tags, names) with the same kind of location and
//! the same operations in each expression and location-list entry, and
//! count as many (`--statistics`: its `#params` and `#local vars` are the
//! objects of the program, not a type's parameters nor an abstract
//! instance's, D-dwarf-objects). The
//! addresses of a relocatable object's list entries are not compared
//! (dioptra lays its sections out; llvm-dwarfdump prints them relative to
//! each section), the number of entries is.
//!
//! `.ci/run` installs llvm-dwarfdump; elsewhere a missing tool is reported
//! as skipped on stderr, never as a pass, and fails the test under `CI`.

use dioptra_oracle::objfile::variables::{variables, Location};
use dioptra_oracle::objfile::{load, read};
use dioptra_semantics::dwarf::check::{check, Model};
use dioptra_semantics::dwarf::op::decode;
use dioptra_semantics::dwarf::text::print;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/real")
}

fn objects() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["c", "cpp", "rust"] {
        for e in std::fs::read_dir(corpus().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "o" || x == "exe") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(out.len() >= 6, "corpus/real has its objects: {out:?}");
    out
}

/// Where llvm-dwarfdump stopped decoding: it prints `<decoding error> XX
/// ...` at the first operation it does not know and the rest as bytes.
const UNDECODED: &str = "...";

/// The `DW_OP_*` names of an expression's text, in order. LLVM 22 does not
/// decode some GNU operations gcc writes (`DW_OP_GNU_uninit`, 0xf0,
/// D-dwarf-gnu-uninit; `DW_OP_GNU_convert`, 0xf7, D-dwarf-gnu-typed): for
/// `<decoding error> XX ...` the names end with that opcode's name and
/// [`UNDECODED`], and [`cut_like`] cuts dioptra's names to match.
fn op_names(text: &str) -> Vec<String> {
    let (decoded, undecoded) = match text.split_once("<decoding error> ") {
        Some((d, rest)) => (d, Some(rest)),
        None => (text, None),
    };
    let mut names: Vec<String> = decoded
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("DW_OP_"))
        .map(str::to_string)
        .collect();
    if let Some(rest) = undecoded {
        let code = u8::from_str_radix(&rest[..2], 16).expect("a byte after <decoding error>");
        let name = gimli::DwOp(code).static_string().unwrap_or("DW_OP_unknown");
        names.push(name.to_string());
        names.push(UNDECODED.to_string());
    }
    names
}

/// `mine` cut where llvm-dwarfdump's `theirs` stopped decoding: the names
/// up to the operation it did not know, then [`UNDECODED`].
fn cut_like(mine: Seen, theirs: &Seen) -> Seen {
    let cut = |m: Vec<String>, t: &Vec<String>| {
        if t.last().is_some_and(|l| l == UNDECODED) && m.len() >= t.len() - 1 {
            let mut m = m[..t.len() - 1].to_vec();
            m.push(UNDECODED.to_string());
            m
        } else {
            m
        }
    };
    match (mine, theirs) {
        (Seen::Expr(m), Seen::Expr(t)) => Seen::Expr(cut(m, t)),
        (Seen::List(m), Seen::List(t)) if m.len() == t.len() => {
            Seen::List(m.into_iter().zip(t).map(|(m, t)| cut(m, t)).collect())
        }
        (m, _) => m,
    }
}

#[derive(Debug, PartialEq)]
enum Seen {
    None,
    Expr(Vec<String>),
    List(Vec<Vec<String>>),
}

#[derive(Debug)]
struct Die {
    tag: String,
    name: Option<String>,
    location: Seen,
    constant: bool,
    /// `DW_AT_artificial` (C++'s `this`): an object, which
    /// `--statistics` does not count.
    artificial: bool,
}

fn dwarfdump() -> Option<&'static str> {
    ["llvm-dwarfdump", "llvm-dwarfdump-22", "llvm-dwarfdump-14"]
        .into_iter()
        .find(|t| {
            Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// llvm-dwarfdump's view: every variable and parameter DIE by offset.
fn llvm_view(tool: &str, path: &Path) -> BTreeMap<u64, Die> {
    let out = Command::new(tool)
        .arg("--debug-info")
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{tool} failed on {}", path.display());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut dies = BTreeMap::new();
    let mut current: Option<u64> = None;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some((off, rest)) = line.split_once(':') {
            if let Some(hex) = off.strip_prefix("0x") {
                let tag = rest.trim();
                current = None;
                if tag == "DW_TAG_variable" || tag == "DW_TAG_formal_parameter" {
                    let o = u64::from_str_radix(hex, 16).unwrap();
                    dies.insert(
                        o,
                        Die {
                            tag: tag.to_string(),
                            name: None,
                            location: Seen::None,
                            constant: false,
                            artificial: false,
                        },
                    );
                    current = Some(o);
                }
                continue;
            }
        }
        let Some(d) = current.and_then(|o| dies.get_mut(&o)) else {
            continue;
        };
        let t = line.trim_start();
        if let Some(v) = t.strip_prefix("DW_AT_name\t(\"") {
            d.name = v.strip_suffix("\")").map(str::to_string);
        } else if t.starts_with("DW_AT_const_value") {
            d.constant = true;
        } else if t.starts_with("DW_AT_artificial\t(true)") {
            d.artificial = true;
        } else if let Some(v) = t.strip_prefix("DW_AT_location\t(") {
            if v.starts_with("DW_OP_") {
                d.location = Seen::Expr(op_names(v));
            } else {
                // A location list: one "[lo, hi): ops" line per entry; in
                // a `.dwo`, whose addresses are the skeleton's, one
                // "DW_LLE_offset_pair (lo, hi): ops" line (a base address
                // entry is not one).
                let mut entries = Vec::new();
                while let Some(next) = lines.peek() {
                    let n = next.trim_start();
                    if n.starts_with("DW_LLE_base_address") {
                        lines.next();
                        continue;
                    }
                    if !(n.starts_with('[') || n.starts_with("DW_LLE_")) {
                        break;
                    }
                    let (range, ops) = n.split_once("): ").unwrap_or((n, ""));
                    // An empty range, `[0x4c, 0x4c)` (g++ -O2 writes some),
                    // applies at no pc: gimli and dioptra leave it out.
                    let pair = range
                        .rsplit(['[', '('])
                        .next()
                        .and_then(|r| r.split_once(", "));
                    // A start and a length (gcc's `DW_LLE_startx_length
                    // (index, length)`), else a start and an end.
                    let empty = if n.contains("_length") {
                        pair.is_some_and(|(_, len)| {
                            u64::from_str_radix(len.trim_start_matches("0x"), 16) == Ok(0)
                        })
                    } else {
                        pair.is_some_and(|(lo, hi)| lo == hi)
                    };
                    if !empty {
                        entries.push(op_names(ops));
                    }
                    lines.next();
                }
                d.location = Seen::List(entries);
            }
        }
    }
    dies
}

/// `llvm-dwarfdump --statistics`: `#params` and `#local vars` (which counts
/// the globals too).
fn statistics(tool: &str, path: &Path) -> (usize, usize) {
    let out = Command::new(tool)
        .arg("--statistics")
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{tool} --statistics {}",
        path.display()
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let count = |key: &str| -> usize {
        let at = text
            .find(&format!("\"{key}\": "))
            .unwrap_or_else(|| panic!("no {key} in {text}"));
        let rest = &text[at + key.len() + 4..];
        let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap();
        rest[..end].parse().unwrap()
    };
    (count("#params"), count("#local vars"))
}

#[test]
fn every_variable_matches_llvm_dwarfdump() {
    let Some(tool) = dwarfdump() else {
        eprintln!(
            "SKIPPED every_variable_matches_llvm_dwarfdump: no llvm-dwarfdump on this machine"
        );
        assert!(
            std::env::var_os("CI").is_none(),
            "CI installs llvm-dwarfdump"
        );
        return;
    };
    let mut split_read = 0;
    for path in objects() {
        let obj = read(&path).unwrap_or_else(|d| panic!("{}: {d}", path.display()));
        let vars = variables(&obj).unwrap_or_else(|d| panic!("{}: {d}", path.display()));
        let file = path.display();
        // A skeleton's variables come from its .dwo or the program's .dwp
        // (D-dwarf-split): they are compared with llvm-dwarfdump's reading
        // of that file, whose DIE offsets they carry.
        let mut dwo: Vec<&str> = vars
            .units
            .iter()
            .filter(|u| u.dwo_missing.is_none())
            .filter_map(|u| u.dwo.as_deref())
            .collect();
        // A package (.dwp) holds every unit's: one file.
        dwo.dedup();
        let theirs = match dwo.as_slice() {
            [] => llvm_view(tool, &path),
            [one] => {
                split_read += 1;
                llvm_view(tool, Path::new(one))
            }
            more => panic!("{file}: one .dwo per object here, not {more:?}"),
        };
        let artificial = |v: &&dioptra_oracle::objfile::variables::Variable| {
            theirs.get(&v.die).is_some_and(|d| d.artificial)
        };
        let (ours_params, ours_locals): (Vec<_>, Vec<_>) = vars
            .variables
            .iter()
            .filter(|v| !artificial(v))
            .partition(|v| v.parameter);
        // LLVM's count of the program's parameters and other variables.
        // Its statistics of a .dwo alone count none; that a split object
        // lists what the same compile without -gsplit-dwarf lists is
        // the CLI's test `a_split_dwarf_object_is_read_from_its_dwo`.
        if dwo.is_empty() {
            let (params, locals) = statistics(tool, &path);
            assert_eq!(ours_params.len(), params, "{file}: parameters");
            assert_eq!(ours_locals.len(), locals, "{file}: other variables");
        }
        let mut located = 0;
        for v in &vars.variables {
            let d = theirs
                .get(&v.die)
                .unwrap_or_else(|| panic!("{file}: no DIE at {:#x} in {tool}", v.die));
            assert_eq!(
                d.tag == "DW_TAG_formal_parameter",
                v.parameter,
                "{file} {:#x}",
                v.die
            );
            if let Some(n) = &d.name {
                assert_eq!(n, &v.name, "{file} {:#x}", v.die);
            }
            let enc = vars.units[v.unit].enc;
            let unit = vars.units[v.unit].dwarf_unit();
            // Every expression real compilers wrote passes the static check.
            let ours = |b: &[u8]| {
                let ops = decode(b, enc).unwrap();
                check(
                    &ops,
                    &unit,
                    enc,
                    Model::in_unit(&ops, vars.units[v.unit].version),
                )
                .unwrap_or_else(|d| panic!("{file} {:#x}: {d}", v.die));
                op_names(&print(&ops, enc))
            };
            let mine = match &v.location {
                Location::None | Location::Constant(_) => Seen::None,
                Location::Expr(b) => Seen::Expr(ours(b)),
                Location::List(l) => Seen::List(l.iter().map(|(_, _, b)| ours(b)).collect()),
            };
            let mine = cut_like(mine, &d.location);
            assert_eq!(mine, d.location, "{file} {:#x} `{}`", v.die, v.name);
            assert_eq!(
                matches!(v.location, Location::Constant(_)),
                d.constant && d.location == Seen::None
            );
            located += usize::from(mine != Seen::None);
        }
        // A skeleton whose .dwo is not there has none (D-dwarf-split).
        let skeletons = vars.units.iter().all(|u| u.dwo_missing.is_some());
        assert!(
            located >= 2 || skeletons,
            "{file}: only {located} variables have a location"
        );
    }
    assert!(split_read >= 1, "corpus/real has a split-DWARF object");
}

/// A truncated or damaged object is a diagnostic, never a panic.
#[test]
fn damaged_objects_are_diagnostics() {
    let bytes = std::fs::read(corpus().join("c/vars-dwarf5.o")).unwrap();
    for cut in [0, 1, 16, 64, 200, bytes.len() / 2, bytes.len() - 1] {
        let r = std::panic::catch_unwind(|| load(&bytes[..cut]).and_then(|o| variables(&o)));
        let r = r.unwrap_or_else(|_| panic!("panicked on the first {cut} bytes"));
        if let Err(d) = r {
            assert!(
                d.construct == "Object"
                    || d.construct.starts_with("DW_")
                    || d.construct.starts_with('.')
                    || d.construct == "unit"
                    || d.construct == "DIE",
                "{d}"
            );
        }
    }
    // Every byte flipped in turn, in the debug sections' region too.
    let mut flipped = bytes.clone();
    for i in (0..bytes.len()).step_by(7) {
        flipped[i] ^= 0xff;
        let r = std::panic::catch_unwind(|| load(&flipped).and_then(|o| variables(&o)));
        assert!(r.is_ok(), "panicked with byte {i} flipped");
        flipped[i] ^= 0xff;
    }
    let d = load(b"not an object").err().unwrap();
    assert!(d.matches("Object: not-an-object"), "{d}");
}
