//! Small LLVM IR functions for putting LLVM's own passes under test
//! (`dioptra llvm`): straight-line chains of the integer instructions whose
//! results `salvageDebugInfo` rewrites into classic expressions (`add` …
//! `xor`, `trunc`/`zext`/`sext`, `icmp`, `getelementptr`), over arguments of
//! several widths with and without `zeroext`/`signext`, and a `#dbg_value`
//! record describing most intermediate values as a local variable.
//!
//! Most values die: the function returns one value (or nothing), so a pass
//! deletes the rest and has to salvage the records that describe them.
//!
//! As the other builders here, the strategy draws a list of choices and
//! [`build`] turns each into an instruction over the values made so far, so
//! every function is well-typed by construction and shrinking the list
//! gives a smaller function.

use proptest::prelude::*;

/// How an argument is extended by its caller (LLVM's parameter attribute).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ext {
    None,
    ZeroExt,
    SignExt,
}

impl Ext {
    /// The attribute as LLVM writes it before the argument's name.
    pub fn attribute(self) -> &'static str {
        match self {
            Ext::None => "",
            Ext::ZeroExt => "zeroext ",
            Ext::SignExt => "signext ",
        }
    }
}

/// A value's type: an integer of this many bits, or `ptr` (0).
pub type Width = u32;

/// The spelling of a value's type.
pub fn type_name(w: Width) -> String {
    if w == 0 {
        "ptr".into()
    } else {
        format!("i{w}")
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub width: Width,
    pub ext: Ext,
}

/// One instruction: `%vK = TEXT`, of type `width`, described by the local
/// variable `vK` when `described`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    pub text: String,
    pub width: Width,
    pub described: bool,
}

/// A generated function: arguments `%x0…`, instructions `%v0…` in order, and
/// what it returns (an instruction's index), or `void`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub args: Vec<Arg>,
    pub insts: Vec<Inst>,
    pub ret: Option<usize>,
}

impl Function {
    /// The type and name of value `k`: arguments first, then instructions.
    fn value(&self, k: usize) -> (Width, String) {
        if k < self.args.len() {
            (self.args[k].width, format!("%x{k}"))
        } else {
            let i = k - self.args.len();
            (self.insts[i].width, format!("%v{i}"))
        }
    }
}

pub const ARG_WIDTHS: &[Width] = &[8, 16, 32, 64, 8, 32, 0];

/// Which arguments are `i128`, wider than any target's address (`dioptra
/// llvm --i128`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wide {
    /// None: the default campaign.
    No,
    /// One in eight, chosen by choice bits the other draws do not read, so
    /// every other argument, and every function without an `i128`
    /// argument, is the default campaign's.
    Some,
}
const BINOPS: &[&str] = &[
    "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor",
];
/// Constants that sit on the edges of the salvage rules: small, negative
/// (`getSExtValue`), the sign bit, all ones.
const CONSTANTS: &[i64] = &[
    1, 2, 3, 5, 7, 8, 16, 255, -1, -2, -7, -8, -128, 127, 128, 1000,
];

/// The function a list of choices builds (the first choices pick the
/// arguments).
pub fn build(choices: &[u32]) -> Function {
    build_with(choices, Wide::No)
}

/// [`build`], with `i128` arguments where `wide` says.
pub fn build_with(choices: &[u32], wide: Wide) -> Function {
    let mut it = choices.iter().copied();
    let head = it.next().unwrap_or(0);
    let nargs = 1 + (head % 3) as usize;
    let mut args = Vec::new();
    for k in 0..nargs {
        let c = it.next().unwrap_or(k as u32);
        // `c % 7` picks the width and `(c / 7) % 3` the extension; bits
        // 21 and up are free.
        let width = match wide {
            Wide::Some if (c >> 21) % 8 == 7 => 128,
            _ => ARG_WIDTHS[(c % ARG_WIDTHS.len() as u32) as usize],
        };
        let ext = match (width, (c / 7) % 3) {
            (8 | 16, 1) => Ext::ZeroExt,
            (8 | 16, 2) => Ext::SignExt,
            _ => Ext::None,
        };
        args.push(Arg { width, ext });
    }
    if args.iter().all(|a| a.width == 0) {
        args[0] = Arg {
            width: 32,
            ext: Ext::None,
        };
    }
    let mut f = Function {
        args,
        insts: Vec::new(),
        ret: None,
    };
    for c in it {
        if let Some(inst) = instruction(&f, c) {
            f.insts.push(inst);
        }
    }
    if !f.insts.is_empty() && head % 2 == 0 {
        // Return one value; whatever it does not use dies.
        f.ret = Some((head as usize / 2) % f.insts.len());
    }
    f
}

/// The instruction choice `c` makes over `f`'s values, if one fits.
fn instruction(f: &Function, c: u32) -> Option<Inst> {
    let n = f.args.len() + f.insts.len();
    let ints: Vec<usize> = (0..n).filter(|&k| f.value(k).0 != 0).collect();
    let ptrs: Vec<usize> = (0..n).filter(|&k| f.value(k).0 == 0).collect();
    // Prefer recent values, so chains form.
    let pick = |from: &[usize], c: u32| -> usize {
        let recent = from.len().min(3);
        if !c.is_multiple_of(4) {
            from[from.len() - 1 - (c as usize / 4) % recent]
        } else {
            from[(c as usize / 4) % from.len()]
        }
    };
    let a = pick(&ints, c >> 8);
    let (w, an) = f.value(a);
    let kind = c % 20;
    let described = !(c >> 5).is_multiple_of(8);
    // As LLVM prints it: the constant wrapped to the width, read signed
    // (a constant of a 64-bit or wider type is the 64-bit one, sign
    // extended).
    let constant = |c: u32| -> i64 {
        let k = CONSTANTS[(c as usize) % CONSTANTS.len()];
        let s = 64u32.saturating_sub(w);
        (k << s) >> s
    };
    let (text, width) = match kind {
        0..=12 => {
            let op = BINOPS[kind as usize];
            let same: Vec<usize> = ints
                .iter()
                .copied()
                .filter(|&k| f.value(k).0 == w)
                .collect();
            let b = if (c >> 16).is_multiple_of(3) && same.len() > 1 {
                f.value(pick(&same, c >> 18)).1
            } else if matches!(op, "shl" | "lshr" | "ashr") {
                // Mostly inside the width; now and then past it (poison).
                let k = (c >> 18) % (w + 2);
                k.to_string()
            } else {
                let k = constant(c >> 18);
                if matches!(op, "udiv" | "sdiv" | "urem" | "srem") && k == 0 {
                    "1".into()
                } else {
                    k.to_string()
                }
            };
            let flags = match (op, (c >> 24) % 8) {
                ("add" | "sub" | "mul" | "shl", 1) => "nsw ",
                ("add" | "sub" | "mul" | "shl", 2) => "nuw ",
                ("udiv" | "sdiv" | "lshr" | "ashr", 3) => "exact ",
                ("or", 4) => "disjoint ",
                _ => "",
            };
            (format!("{op} {flags}i{w} {an}, {b}"), w)
        }
        13..=15 => {
            let widths: Vec<Width> = match kind {
                13 => [1, 8, 16, 32, 64].into_iter().filter(|&t| t < w).collect(),
                _ => [16, 32, 64].into_iter().filter(|&t| t > w).collect(),
            };
            if widths.is_empty() {
                return None;
            }
            let to = widths[(c as usize >> 18) % widths.len()];
            let op = ["trunc", "zext", "sext"][kind as usize - 13];
            (format!("{op} i{w} {an} to i{to}"), to)
        }
        16 | 17 => {
            let preds = [
                "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
            ];
            let p = preds[(c as usize >> 18) % preds.len()];
            (format!("icmp {p} i{w} {an}, {}", constant(c >> 22)), 1)
        }
        _ => {
            let &p = ptrs.last()?;
            let elt = ["i8", "i16", "i32", "i64"][(c as usize >> 18) % 4];
            let inbounds = if (c >> 21).is_multiple_of(2) {
                "inbounds "
            } else {
                ""
            };
            let index = if (c >> 22).is_multiple_of(2) {
                format!("i{w} {an}")
            } else {
                format!("i64 {}", constant(c >> 23))
            };
            (
                format!(
                    "getelementptr {inbounds}{elt}, ptr {}, {index}",
                    f.value(p).1
                ),
                0,
            )
        }
    };
    Some(Inst {
        text,
        width,
        described,
    })
}

/// Generated functions of 1 to `max` instructions.
pub fn arb_function(max: usize) -> impl Strategy<Value = Function> {
    arb_function_with(max, Wide::No)
}

/// [`arb_function`], with `i128` arguments where `wide` says.
pub fn arb_function_with(max: usize, wide: Wide) -> impl Strategy<Value = Function> {
    prop::collection::vec(any::<u32>(), 5..max + 5).prop_map(move |c| build_with(&c, wide))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// Every instruction kind the builder knows comes out of a few hundred
    /// functions, and every operand it names exists and has its type.
    #[test]
    fn functions_use_every_instruction_kind_on_values_of_their_type() {
        let mut runner = TestRunner::deterministic();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..400 {
            let f = arb_function(10).new_tree(&mut runner).unwrap().current();
            let n = f.args.len();
            for (i, inst) in f.insts.iter().enumerate() {
                let op = inst.text.split(' ').next().unwrap().to_string();
                seen.insert(op);
                for word in inst.text.split([' ', ',']) {
                    if let Some(v) = word.strip_prefix("%v") {
                        let k: usize = v.parse().unwrap();
                        assert!(k < i, "{inst:?} uses a later value");
                    }
                    if let Some(x) = word.strip_prefix("%x") {
                        let k: usize = x.parse().unwrap();
                        assert!(k < n, "{inst:?} uses a missing argument");
                    }
                }
            }
        }
        for op in BINOPS
            .iter()
            .chain(&["trunc", "zext", "sext", "icmp", "getelementptr"])
        {
            assert!(seen.contains(*op), "never generated: {op}");
        }
    }

    /// With `i128` arguments, a function is the default one but for the
    /// arguments made `i128` (and what is built on them): a default
    /// campaign's functions stay reproducible.
    #[test]
    fn wide_arguments_leave_every_other_choice_alone() {
        let mut runner = TestRunner::deterministic();
        let mut wide_args = 0;
        for _ in 0..400 {
            let choices = prop::collection::vec(any::<u32>(), 5..13)
                .new_tree(&mut runner)
                .unwrap()
                .current();
            let (a, b) = (build(&choices), build_with(&choices, Wide::Some));
            assert_eq!(a.args.len(), b.args.len());
            let mut same = true;
            for (x, y) in a.args.iter().zip(&b.args) {
                if y.width == 128 {
                    wide_args += 1;
                    same = false;
                } else {
                    assert_eq!(x, y);
                }
            }
            if same {
                assert_eq!(a, b);
            }
        }
        assert!(
            wide_args > 50,
            "{wide_args} i128 arguments in 400 functions"
        );
    }
}
