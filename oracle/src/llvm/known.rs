//! LLVM's known wrong-debug-info bugs, recognised narrowly: each by the
//! instruction the input's record computed its value with, the operation
//! LLVM's output put in its place, and the upper-bit models under which the
//! two differ (as `crate::diff::gdb::known` recognises gdb's by message and
//! form). A wrong record that matches none is `unclassified`: a new finding
//! to read by hand.
//!
//! Each entry names the LLVM function responsible and, where one exists,
//! the upstream issue that reports it; "new" ones have no report yet.

use super::validate::Compared;
use super::Verdict;
use dioptra_semantics::classic::High;

/// One known bug.
#[derive(Debug)]
pub struct Known {
    /// Short kebab-case id (`salvage-lshr`).
    pub id: &'static str,
    /// The LLVM function that writes the wrong record.
    pub function: &'static str,
    /// The upstream issue (llvm/llvm-project), if reported.
    pub upstream: Option<u32>,
    /// What goes wrong, in one sentence.
    pub what: &'static str,
    matches: fn(&Facts) -> bool,
}

/// What the matchers look at in a wrong record.
struct Facts<'a> {
    /// The input's instructions, by opcode and predicate (`lshr`, `icmp
    /// ult`), and their result widths.
    source: Vec<(String, u64)>,
    /// The output's expression.
    expr: &'a str,
    /// The upper-bit models it fails under.
    models: &'a [High],
    /// The detail says the output's expression is ill-formed.
    ill_formed: bool,
    /// ... because an operand is wider than the generic type.
    operand_too_wide: bool,
    /// An instruction the output's record reads was rewritten in place.
    rewritten: bool,
    /// The widths of the output record's operands.
    operand_widths: Vec<u64>,
    /// The output's record names only constants where the input's named a
    /// computed value.
    became_constant: bool,
    /// The output's expression applies a bitwise, multiplicative or shift
    /// operation no instruction of the input's chain computes (an `and`
    /// where the input had an `or`, a comparison made a mask).
    foreign_operation: bool,
    /// The output's expression converts to fewer bits than any operand of
    /// the input's chain has, where that chain truncates nothing (a `sext
    /// i32` became a sign extension of its low bit).
    narrowed: bool,
    /// The described value's own instruction is `OP iN %x, C` and the
    /// output's expression applies OP's DWARF operation with a constant
    /// that is not C modulo 2^N: LLVM changed the instruction before it
    /// salvaged it.
    changed_constant: bool,
    /// The width of the variable (the input record's value).
    variable_width: u64,
    /// The output's record has fewer operations than the input's chain has
    /// instructions the output's chain no longer computes: something the
    /// input computed is gone from the record.
    dropped_operation: bool,
    /// What gdb and the DWARF read back showed (`classify_run` only).
    run: RunFacts,
}

/// What the program compiled from a record showed of its variable.
#[derive(Default)]
struct RunFacts {
    /// How many low bits of the value gdb printed agree with the
    /// variable's value (0 when gdb printed none).
    bits_right: u64,
    /// The output function reads only this many low bits of the value
    /// the record names (fewer than it has).
    demanded: Option<u64>,
    /// A value gdb showed wrong was, or was read from a register that held,
    /// another value the functions computed on that call, or from a
    /// register the DWARF reads for two operands that differ (seen on two
    /// calls at least, or on one with a value other than 0 and 1), and at
    /// no wrong reading did the register hold the record's operand.
    other_value: bool,
    /// The error gdb raised reading the variable.
    gdb_error: Option<String>,
    /// Does dioptra's evaluation of the variable's DWARF, in the machine
    /// state gdb stopped in, give the variable's value? `None`: it gave
    /// none.
    dwarf_right: Option<bool>,
    /// Why the DWARF did not evaluate (dioptra's diagnostic).
    dwarf_failed: Option<String>,
    /// The DWARF expression at the pc.
    dwarf_ops: String,
    /// Its pieces add up to more bits than the variable's type has.
    pieces_exceed_type: bool,
    /// The bits its pieces add up to, and the type's, when fewer.
    pieces_short: Option<u64>,
    /// What the register its first operation names held there.
    register: Option<super::codegen::RegisterSeen>,
    /// What each other register it reads held there.
    later_registers: Vec<super::codegen::RegisterSeen>,
    /// The stop is where the stack pointer is not the body's.
    stack_pointer_moved: bool,
    /// gdb's value has no bits set above bit `n`.
    shown_bits: u64,
}

impl RunFacts {
    /// gdb raised an error containing `text`.
    fn gdb_says(&self, text: &str) -> bool {
        self.gdb_error.as_deref().is_some_and(|e| e.contains(text))
    }
    /// dioptra could not read the variable's bits from where its DWARF
    /// puts it: the location is smaller than the type.
    fn location_too_small(&self) -> bool {
        self.dwarf_failed
            .as_deref()
            .is_some_and(|d| d.contains("offset-outside-storage"))
    }
    /// The DWARF at the pc has operation `op`.
    fn dwarf_has(&self, op: &str) -> bool {
        self.dwarf_ops
            .split(", ")
            .any(|o| o.split_whitespace().next() == Some(op))
    }
    /// How many operations `op` the DWARF at the pc has.
    fn dwarf_count(&self, op: &str) -> usize {
        self.dwarf_ops
            .split(", ")
            .filter(|o| o.split_whitespace().next() == Some(op))
            .count()
    }
    /// A register read and masked to its low 8, 16 or 32 bits
    /// (`DW_OP_bregN OFFSET, DW_OP_constu 0xffffffff, DW_OP_and`): how
    /// LLVM's DwarfExpression describes a subregister. The offset and the
    /// mask's width, for each.
    fn masked_registers(&self) -> Vec<(i64, u64)> {
        let ops: Vec<&str> = self.dwarf_ops.split(", ").collect();
        ops.windows(3)
            .filter_map(|w| {
                let mut breg = w[0].split_whitespace();
                let offset: i64 = match (breg.next(), breg.next()) {
                    (Some(b), Some(off)) if b.starts_with("DW_OP_breg") => {
                        off.trim_start_matches('+').parse().ok()?
                    }
                    _ => return None,
                };
                let mask = w[1].strip_prefix("DW_OP_constu ")?;
                let mask = u64::from_str_radix(mask.trim_start_matches("0x"), 16).ok()?;
                let bits = [8u64, 16, 32].into_iter().find(|&b| mask == (1 << b) - 1)?;
                (w[2] == "DW_OP_and").then_some((offset, bits))
            })
            .collect()
    }
    /// It converts to a base type LLVM named for a width that is not whole
    /// bytes (`"DW_ATE_unsigned_1"`): its DW_AT_byte_size rounds the width
    /// up.
    fn converts_to_partial_byte(&self) -> bool {
        self.dwarf_ops.split(", ").any(|o| {
            o.starts_with("DW_OP_convert")
                && o.rsplit('_')
                    .next()
                    .and_then(|n| n.trim_end_matches('"').parse::<u64>().ok())
                    .is_some_and(|bits| bits % 8 != 0)
        })
    }
}

impl Facts<'_> {
    fn source_has(&self, op: &str) -> bool {
        self.source.iter().any(|(o, _)| o == op)
    }
    fn source_narrow(&self, op: &str) -> bool {
        self.source.iter().any(|(o, w)| o == op && *w < 64)
    }
    fn expr_has(&self, op: &str) -> bool {
        self.expr_count(op) > 0
    }
    fn expr_count(&self, op: &str) -> usize {
        self.expr
            .split([',', '(', ')', ' '])
            .filter(|w| w.trim() == op)
            .count()
    }
    /// Does the expression use only operations whose low N bits depend on
    /// their operands' low N bits alone, on operands as wide as the
    /// variable? Then salvaging faithful operations cannot be wrong in the
    /// variable's bits, and a wrong record computes something else.
    fn low_bits_closed(&self) -> bool {
        const CLOSED: &[&str] = &[
            "DW_OP_LLVM_arg",
            "DW_OP_constu",
            "DW_OP_consts",
            "DW_OP_plus",
            "DW_OP_plus_uconst",
            "DW_OP_minus",
            "DW_OP_mul",
            "DW_OP_and",
            "DW_OP_or",
            "DW_OP_xor",
            "DW_OP_not",
            "DW_OP_neg",
            "DW_OP_shl",
            "DW_OP_LLVM_convert",
            "DW_OP_stack_value",
        ];
        let ops_closed = self
            .expr
            .split([',', '(', ')', ' '])
            .map(str::trim)
            .filter(|w| w.starts_with("DW_OP_"))
            .all(|w| CLOSED.contains(&w) || w.starts_with("DW_OP_lit"));
        ops_closed
            && !self.operand_widths.is_empty()
            && self
                .operand_widths
                .iter()
                .all(|w| *w >= self.variable_width)
    }
    /// `!DIExpression()`: the operand's value itself.
    fn no_operations(&self) -> bool {
        !self.expr.contains("DW_OP_")
    }
    fn fails_under(&self, h: High) -> bool {
        self.models.contains(&h)
    }
    /// The salvage of a narrow `op` as `dw`, wrong under some model but
    /// right under `right_under` (the extension that makes it right).
    fn narrow_salvage(&self, op: &str, dw: &str, right_under: High) -> bool {
        self.source_narrow(op)
            && self.expr_has(dw)
            && !self.any_only()
            && !self.fails_under(right_under)
    }
    /// Only `high any` shows the difference: the result depends on bits
    /// above a narrow value that the IR leaves to the code generator.
    fn any_only(&self) -> bool {
        self.models == [High::Any]
    }
}

/// The opcode (with an `icmp`'s predicate) and the width of the operand
/// type of one instruction text.
fn opcode_and_width(text: &str) -> (String, u64) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let flags = [
        "nuw", "nsw", "exact", "disjoint", "nneg", "samesign", "inbounds", "nusw",
    ];
    let mut rest = words.iter().skip(1).filter(|w| !flags.contains(w));
    let op = words.first().copied().unwrap_or("").to_string();
    let op = if op == "icmp" {
        format!("icmp {}", rest.next().unwrap_or(&""))
    } else {
        op
    };
    let ty = if op == "getelementptr" {
        // The index's type: the last `iN` of the text.
        words
            .iter()
            .rev()
            .find(|w| w.starts_with('i') && w[1..].parse::<u64>().is_ok())
            .copied()
            .unwrap_or("i64")
    } else {
        rest.next().copied().unwrap_or("")
    };
    let width = ty
        .strip_prefix('i')
        .and_then(|w| w.parse().ok())
        .unwrap_or(64);
    (op, width)
}

/// The widths of a record's `iN %value` operands (pointers count as 64).
/// The widths an expression's `DW_OP_LLVM_convert`s convert to.
fn converted_widths(expr: &str) -> Vec<u64> {
    let words: Vec<&str> = expr
        .split([',', '(', ')', ' '])
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter(|w| w[0] == "DW_OP_LLVM_convert")
        .filter_map(|w| w[1].parse().ok())
        .collect()
}

/// The operand values of a record (`%v1`, `0`), in order.
fn operand_values(record: &str) -> Vec<&str> {
    let loc = record.split("!DIExpression(").next().unwrap_or("");
    loc.split([',', '('])
        .filter_map(|part| {
            let mut words = part.split_whitespace();
            words.next()?;
            words.next()
        })
        .collect()
}

/// Does the output's record name only constants where the input's named a
/// computed value (a pass replaced the value by a constant it is not)?
fn became_constant(before: &str, after: &str) -> bool {
    let (b, a) = (operand_values(before), operand_values(after));
    b.iter().any(|v| v.starts_with('%'))
        && !a.is_empty()
        && a.iter()
            .all(|v| !v.starts_with('%') && !matches!(*v, "poison" | "undef"))
}

fn operand_widths(record: &str) -> Vec<u64> {
    let loc = record.split("!DIExpression(").next().unwrap_or("");
    loc.split([',', '('])
        .filter_map(|part| {
            let mut words = part.split_whitespace();
            let ty = words.next()?;
            words.next()?;
            Some(
                ty.strip_prefix('i')
                    .and_then(|w| w.parse().ok())
                    .unwrap_or(64),
            )
        })
        .collect()
}

/// The DWARF operation a salvage appends for an IR binary operator.
fn dwarf_op_of(op: &str) -> Option<&'static str> {
    Some(match op {
        "add" => "DW_OP_plus",
        "sub" => "DW_OP_minus",
        "mul" => "DW_OP_mul",
        "and" => "DW_OP_and",
        "or" => "DW_OP_or",
        "xor" => "DW_OP_xor",
        "shl" => "DW_OP_shl",
        "lshr" => "DW_OP_shr",
        "ashr" => "DW_OP_shra",
        "sdiv" => "DW_OP_div",
        "srem" => "DW_OP_mod",
        _ => return None,
    })
}

/// Is `inst` (`OP [flags] iN %x, C`) salvaged in `expr` with a constant
/// other than C (modulo 2^N)? The constants the expression gives OP's
/// operation: `DW_OP_constu, K, OP`, `DW_OP_plus_uconst, K` (an add), and
/// `DW_OP_constu, K, DW_OP_minus` (an add of -K).
fn changed_constant(inst: &str, expr: &str) -> bool {
    let words: Vec<&str> = inst.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let Some(op) = words.first().copied() else {
        return false;
    };
    let Some(dw) = dwarf_op_of(op) else {
        return false;
    };
    let (Some(ty), Some(c)) = (
        words.iter().rev().nth(2),
        words.last().and_then(|c| c.parse::<i128>().ok()),
    ) else {
        return false;
    };
    let Some(n) = ty.strip_prefix('i').and_then(|w| w.parse::<u32>().ok()) else {
        return false;
    };
    if n == 0 || n > 64 {
        return false;
    }
    let modulo = |v: i128| v.rem_euclid(1i128 << n);
    let items: Vec<&str> = expr
        .trim_start_matches("!DIExpression(")
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .collect();
    let mut found: Vec<i128> = Vec::new();
    for k in 0..items.len() {
        let num = |j: usize| items.get(j).and_then(|v| v.parse::<i128>().ok());
        if items[k] == "DW_OP_constu" && items.get(k + 2) == Some(&dw) {
            found.extend(num(k + 1));
        }
        if op == "add" && items[k] == "DW_OP_plus_uconst" {
            found.extend(num(k + 1));
        }
        if op == "add" && items[k] == "DW_OP_constu" && items.get(k + 2) == Some(&"DW_OP_minus") {
            found.extend(num(k + 1).map(|v| -v));
        }
    }
    !found.is_empty() && !found.iter().any(|&k| modulo(k) == modulo(c))
}

/// Does `expr` apply one of DWARF's bitwise, multiplicative or shift
/// operations that no instruction of `source` (the input's chain) maps to?
/// A `getelementptr` accounts for a multiplication.
fn foreign_operation(source: &[String], expr: &str) -> bool {
    const CHECKED: &[&str] = &[
        "DW_OP_and",
        "DW_OP_or",
        "DW_OP_xor",
        "DW_OP_mul",
        "DW_OP_div",
        "DW_OP_mod",
        "DW_OP_shl",
        "DW_OP_shr",
        "DW_OP_shra",
    ];
    let mapped: Vec<&str> = source
        .iter()
        .filter_map(|t| {
            let op = t.split_whitespace().next().unwrap_or("");
            if op == "getelementptr" {
                Some("DW_OP_mul")
            } else {
                dwarf_op_of(op)
            }
        })
        .collect();
    expr.split([',', '(', ')', ' '])
        .map(str::trim)
        .any(|w| CHECKED.contains(&w) && !mapped.contains(&w))
}

/// How many arithmetic, logical and relational operations `expr` applies.
fn arithmetic_ops(expr: &str) -> usize {
    const OPS: &[&str] = &[
        "DW_OP_plus",
        "DW_OP_plus_uconst",
        "DW_OP_minus",
        "DW_OP_mul",
        "DW_OP_div",
        "DW_OP_mod",
        "DW_OP_and",
        "DW_OP_or",
        "DW_OP_xor",
        "DW_OP_shl",
        "DW_OP_shr",
        "DW_OP_shra",
        "DW_OP_not",
        "DW_OP_neg",
        "DW_OP_lt",
        "DW_OP_le",
        "DW_OP_gt",
        "DW_OP_ge",
        "DW_OP_eq",
        "DW_OP_ne",
    ];
    expr.split([',', '(', ')', ' '])
        .filter(|w| OPS.contains(&w.trim()))
        .count()
}

/// DWARF operations whose result depends on the bits above a narrow value
/// (or on a carry out of it).
const READS_UPPER_BITS: &[&str] = &[
    "DW_OP_div",
    "DW_OP_mod",
    "DW_OP_shr",
    "DW_OP_shra",
    "DW_OP_lt",
    "DW_OP_le",
    "DW_OP_gt",
    "DW_OP_ge",
    "DW_OP_eq",
    "DW_OP_ne",
];

const UNSIGNED_PREDICATES: &[&str] = &["icmp ult", "icmp ule", "icmp ugt", "icmp uge"];
const SIGNED_PREDICATES: &[&str] = &["icmp slt", "icmp sle", "icmp sgt", "icmp sge"];
const RELATIONS: &[&str] = &["DW_OP_lt", "DW_OP_le", "DW_OP_gt", "DW_OP_ge"];

/// The table, most specific first: the first entry that matches names the
/// bug.
pub const KNOWN: &[Known] = &[
    Known {
        id: "convert-then-generic",
        function: "salvageDebugInfoImpl (a cast's DW_OP_LLVM_convert pair, then a binary operation's generic DW_OP_constu)",
        upstream: Some(62118),
        what: "the expression applies a binary operation to a converted (typed) value and a generic constant, which DWARF 5 forbids (2.5.1.4): a consumer that checks the types (gdb, gimli) stops there (reported as #62118 and again as #102294, gdb's \"Incompatible types on DWARF stack\")",
        matches: |f| f.ill_formed && f.expr_has("DW_OP_LLVM_convert"),
    },
    Known {
        id: "operand-wider-than-address",
        function: "salvageDebugInfoImpl (an operation salvaged onto a value wider than the target's address, with no DW_OP_LLVM_convert)",
        upstream: None,
        what: "a value wider than the address (a 64-bit value on a 32-bit target, an i128 on x86-64) is salvaged into DWARF arithmetic on the generic type, which cannot hold it: the upper half is lost",
        matches: |f| f.ill_formed && f.operand_too_wide,
    },
    Known {
        id: "invert-without-stack-value",
        function: "InstCombinerImpl::freelyInvertAllUsersOf (DIExpression::appendOpsToArg of DW_OP_not)",
        upstream: None,
        what: "inverting a boolean prepends DW_OP_not to an empty expression without adding DW_OP_stack_value, so the record becomes a memory location at the inverted value",
        matches: |f| f.expr_has("DW_OP_not") && !f.expr_has("DW_OP_stack_value"),
    },
    Known {
        id: "salvage-icmp-unsigned",
        function: "getSalvageOpsForIcmpOp (unsigned predicates mapped to DWARF's signed DW_OP_lt/le/gt/ge)",
        upstream: Some(206325),
        what: "an unsigned comparison becomes a DWARF relational operation, which compares signed",
        matches: |f| {
            RELATIONS.iter().any(|r| f.expr_has(r))
                && (UNSIGNED_PREDICATES.iter().any(|p| f.source_has(p))
                    // An unsigned comparison the pass made itself (`udiv
                    // %x, -2` is `zext (icmp ugt %x, -3)`) and salvaged:
                    // wrong on full-width operands, so not for want of
                    // an extension.
                    || (!SIGNED_PREDICATES.iter().any(|p| f.source_has(p))
                        && f.operand_widths.iter().all(|w| *w >= 64)
                        && f.fails_under(High::Zero)
                        && f.fails_under(High::Sign)))
        },
    },
    Known {
        id: "salvage-icmp-signed-narrow",
        function: "getSalvageOpsForIcmpOp (a narrow signed comparison without sign extension)",
        upstream: Some(219412),
        what: "a signed comparison of a value narrower than the address becomes a DWARF relational operation on the register's zero-extended contents",
        matches: |f| {
            SIGNED_PREDICATES.iter().any(|p| f.source_narrow(p))
                && RELATIONS.iter().any(|r| f.expr_has(r))
        },
    },
    Known {
        id: "salvage-icmp-eq-narrow",
        function: "getSalvageOpsForIcmpOp (a narrow equality against a sign-extended 64-bit constant)",
        upstream: Some(219463),
        what: "an equality of a value narrower than the address is compared with the constant's 64-bit sign extension (DW_OP_consts) or the register's upper bits",
        matches: |f| {
            (f.source_narrow("icmp eq") || f.source_narrow("icmp ne"))
                && (f.expr_has("DW_OP_eq") || f.expr_has("DW_OP_ne"))
        },
    },
    Known {
        id: "salvage-srem",
        function: "getSalvageOpsForBinOp (srem as DW_OP_mod)",
        upstream: None,
        what: "a signed remainder becomes DW_OP_mod, which DWARF computes unsigned on generic values",
        matches: |f| f.source_has("srem") && f.expr_has("DW_OP_mod"),
    },
    Known {
        id: "salvage-sdiv",
        function: "getSalvageOpsForBinOp (sdiv as DW_OP_div of a narrow value)",
        upstream: None,
        what: "a signed division of a value narrower than the address becomes DW_OP_div of the register's contents, which are not sign-extended",
        matches: |f| f.narrow_salvage("sdiv", "DW_OP_div", High::Sign),
    },
    Known {
        id: "salvage-ashr",
        function: "getSalvageOpsForBinOp (ashr as DW_OP_shra of a narrow value)",
        upstream: None,
        what: "an arithmetic shift of a value narrower than the address becomes DW_OP_shra of the register's contents, whose sign bit is not the value's",
        matches: |f| f.narrow_salvage("ashr", "DW_OP_shra", High::Sign),
    },
    Known {
        id: "salvage-lshr",
        function: "getSalvageOpsForBinOp (lshr as DW_OP_shr of a narrow value)",
        upstream: None,
        what: "a logical shift of a value narrower than the address becomes DW_OP_shr, which shifts the register's upper bits into the value unless they are zero",
        matches: |f| f.narrow_salvage("lshr", "DW_OP_shr", High::Zero),
    },
    Known {
        id: "salvage-gep-narrow-index",
        function: "getSalvageOpsForGEP (a narrow index added unextended)",
        upstream: None,
        what: "a getelementptr index narrower than the pointer is added to it as the register holds it, where LLVM sign-extends it",
        matches: |f| {
            f.source_narrow("getelementptr")
                && (f.expr_has("DW_OP_plus") || f.expr_has("DW_OP_mul") || f.expr_has("DW_OP_minus"))
        },
    },
    Known {
        id: "changed-computation",
        function: "InstCombine's demanded-bits simplification (SimplifyDemandedUseBits, ShrinkDemandedConstant, shift folding): an instruction is changed in place or replaced by a value equal only on the bits its IR users demand, and its debug records follow",
        upstream: None,
        what: "the record describes what the pass made the instruction compute, not what it computed: a shrunk constant, a dropped multiply, a narrower cast, an operand replaced by a constant (right only in the bits the IR users read)",
        matches: |f| {
            f.rewritten
                || f.changed_constant
                || (f.became_constant && !f.any_only())
                || (f.foreign_operation && !f.any_only())
                || (f.narrowed && !f.any_only())
                || (f.dropped_operation && !f.any_only())
                || (f.low_bits_closed()
                    && (f.expr_has("DW_OP_stack_value") || f.no_operations())
                    && !f.any_only())
        },
    },
    Known {
        id: "narrow-carry",
        function: "salvageDebugInfoImpl (DIExpression::appendOpsToArg): salvaged operations on a narrow value are computed in the address width with no truncation to the value's",
        upstream: None,
        what: "a chain of salvaged operations on a value narrower than the address lets a carry, borrow or the upper bits reach an operation that reads them (a division, a right shift, a comparison)",
        matches: |f| {
            !f.any_only()
                && f.operand_widths.iter().any(|w| *w < 64)
                && (READS_UPPER_BITS.iter().any(|o| f.expr_has(o))
                    // A shift amount computed in 64 bits (`x + 8`, a
                    // narrow add that wraps in the IR).
                    || f.expr_has("DW_OP_shl") && arithmetic_ops(f.expr) > 1)
        },
    },
    Known {
        id: "upper-bits",
        function: "salvageDebugInfoImpl (any salvage of a narrow value into an operation that reads the bits above it)",
        upstream: None,
        what: "the value is right when the bits above each narrow value are zero or sign bits, wrong when they are anything else: whether a target leaves them so is the code generator's to show",
        matches: |f| f.any_only(),
    },
];

/// What went wrong where the output's record is right in the IR and the
/// program compiled from it shows the variable wrong under gdb
/// ([`super::codegen`]). The DWARF read back decides whose the error is:
/// where dioptra's evaluation of the variable's DWARF, in the machine
/// state gdb stopped in, gives a wrong value or none, the code generator
/// wrote it; where it gives the right value, the debugger read it wrong.
pub const RUN_KNOWN: &[Known] = &[
    Known {
        id: "convert-without-bit-size",
        function: "DwarfCompileUnit::createBaseTypeDIEs (the base type a DW_OP_LLVM_convert to a width that is not a whole number of bytes refers to)",
        upstream: Some(137118),
        what: "a conversion to a width that is not whole bytes (1 bit, for a bool) gets a base type with DW_AT_byte_size rounded up and no DW_AT_bit_size, so in DWARF it converts to the whole byte and keeps the bits the IR's conversion drops (the fix, PR #137118, is open; related issue #71065)",
        matches: |f| f.run.dwarf_right == Some(false) && f.run.converts_to_partial_byte(),
    },
    Known {
        id: "i1-upper-bits",
        function: "instruction selection's DBG_VALUE of an i1 (a register whose bits above bit 0 are undefined) and salvageDebugInfoImpl's arithmetic on an i1 (computed in the address width): neither masks to bit 0",
        upstream: None,
        what: "a bool variable's i1 value is described by a whole register, or by arithmetic on it, whose bits above bit 0 are not zero: bit 0 is right, and the debugger reads the byte (PR #151225 fixed this for constants only)",
        matches: |f| {
            f.variable_width == 1 && f.run.dwarf_right == Some(false) && f.run.bits_right >= 1
        },
    },
    Known {
        id: "isel-demanded-bits",
        function: "SelectionDAG's demanded-bits simplification (TargetLowering::SimplifyDemandedBits): a node rewritten to compute only the bits its users read keeps its DBG_VALUE",
        upstream: None,
        what: "the register a record names holds only the low bits the function goes on to read of the value (a sign extension the function masks becomes an any-extension, a shift amount is computed in its low bits only); the record describes the whole value, and gdb shows the bits the function reads right and the ones above wrong",
        matches: |f| {
            f.run.dwarf_right == Some(false)
                && (f.no_operations() || super::codegen::only_zero_extensions(f.expr))
                && f.run.demanded.is_some_and(|k| f.run.bits_right >= k)
        },
    },
    Known {
        id: "stale-register",
        function: "the code generator's variable locations after register allocation (a DBG_VALUE's register reused for another value while the location list still names it; not narrowed to one pass)",
        upstream: None,
        what: "the location list names a register after the value it held is dead: the register now holds another value the function computed, and gdb shows that value as the variable's",
        matches: |f| {
            f.run.dwarf_right == Some(false)
                && f.run.other_value
                && f.run
                    .register
                    .as_ref()
                    .is_some_and(|r| !r.unchanged_since_entry)
        },
    },
    Known {
        id: "isel-subregister-operand",
        function: "SelectionDAG instruction selection: an operand of a DIArgList whose only use reads its low bits is moved onto that use's subregister copy (`%1:gr32 = COPY %0.sub_32bit`), which DwarfExpression then masks",
        upstream: None,
        what: "a record of `!DIArgList(i64 %v0, i64 %x0)` gets DWARF that reads the register and masks it to 32 bits (`DW_OP_breg5 0, DW_OP_constu 0xffffffff, DW_OP_and`): the 64-bit operand's upper half is dropped, and gdb shows a value computed from its low half",
        matches: |f| {
            f.run.dwarf_right == Some(false)
                && !f.expr_has("DW_OP_and")
                && f.run.masked_registers().iter().any(|&(offset, bits)| {
                    offset == 0 && f.operand_widths.iter().any(|&w| w > bits)
                })
        },
    },
    Known {
        id: "subregister-mask-after-offset",
        function: "DwarfExpression::addMachineRegExpression with an offset folded into DW_OP_bregN: the subregister's mask is applied after the offset is added",
        upstream: None,
        what: "a record `i64 %v0, !DIExpression(DW_OP_plus_uconst, 255, DW_OP_stack_value)` of a value in a 32-bit subregister (a `zext i32`) gets `DW_OP_breg5 255, DW_OP_constu 0xffffffff, DW_OP_and`: the sum is masked to 32 bits where the register should be, so a carry out of the low half is lost",
        matches: |f| {
            f.run.dwarf_right == Some(false)
                && f.run
                    .masked_registers()
                    .iter()
                    .any(|&(offset, _)| offset != 0)
        },
    },
    Known {
        id: "isel-convert-then-generic",
        function: "SelectionDAGBuilder's salvage of a cast (salvageDebugInfoImpl at instruction selection): the cast's DW_OP_LLVM_convert pair is put before the record's generic operations",
        upstream: None,
        what: "a record on a cast's result with generic operations after it (`DW_OP_lit0, DW_OP_mul`) is salvaged at instruction selection into the cast's source: the DWARF converts to a base type, then applies a generic operation to the typed value, which DWARF 5 (2.5.1.4) forbids; dioptra finds it ill-formed and gdb refuses it. Told by the DWARF having more DW_OP_convert than the record has DW_OP_LLVM_convert (a record's own conversions at its end are fine)",
        matches: |f| {
            f.run.dwarf_failed.as_deref().is_some_and(|d| d.contains("type-mismatch"))
                && f.run.dwarf_count("DW_OP_convert") > f.expr_count("DW_OP_LLVM_convert")
        },
    },
    Known {
        id: "isel-convert-without-stack-value",
        function: "SelectionDAGBuilder's salvage of a cast (salvageDebugInfoImpl at instruction selection) onto a record with an empty expression: the DW_OP_LLVM_convert pair is appended without DW_OP_stack_value",
        upstream: None,
        what: "a record of a value (`i16 %v0, !DIExpression()`) whose instruction selection folds a truncation into it gets `DW_OP_breg0, ..., DW_OP_convert, DW_OP_convert` and no DW_OP_stack_value: a memory location at the converted value. dioptra finds it ill-formed (a typed value is no address) and gdb reads memory there",
        matches: |f| {
            f.run
                .dwarf_failed
                .as_deref()
                .is_some_and(|d| d.contains("typed-value-as-location"))
                && f.run.dwarf_has("DW_OP_convert")
                && !f.run.dwarf_has("DW_OP_stack_value")
                && !f.expr_has("DW_OP_LLVM_convert")
        },
    },
    Known {
        id: "wide-value-one-register",
        function: "the code generator's DBG_VALUE of a value wider than a register (an i128 passed in two registers on x86-64) names one register, with no DW_OP_piece for the other half",
        upstream: None,
        what: "a 128-bit variable (`i128 %x0`, in rdi and rsi) is described by `DW_OP_reg5` alone: a 64-bit register for 128 bits, so the DWARF gives the variable no value (D-llvm-partial-location); gdb reads the next register of its own numbering for the upper half and prints that",
        matches: |f| {
            f.variable_width > 64
                && f.run.location_too_small()
                && f.run.pieces_short.is_none()
                && f.run.dwarf_count("DW_OP_piece") == 0
                && f.run.dwarf_ops.starts_with("DW_OP_reg")
                && !f.run.dwarf_ops.contains(", ")
        },
    },
    Known {
        id: "isel-salvage-ashr",
        function: "SelectionDAGBuilder's salvage of a dead instruction (salvageDebugInfoImpl at instruction selection): getSalvageOpsForBinOp's ashr as DW_OP_shra of a narrow value",
        upstream: None,
        what: "a record of a narrow arithmetic shift that is right in the IR (`i32 %v0` with `%v0 = ashr i32 %x0, 30`, the shift dead) is salvaged by llc onto the shift's operand as `DW_OP_breg0 0, DW_OP_lit30, DW_OP_shra`: the shift of the whole 64-bit register, whose bit 63 is not the value's sign (aarch64 writes a 32-bit argument with its upper half zero). salvage-ashr's bug, reached at instruction selection; seen on aarch64, where x86-64's llc drops the same location",
        matches: |f| {
            f.run.dwarf_right == Some(false)
                && f.source_narrow("ashr")
                && f.run.dwarf_has("DW_OP_shra")
                && !f.expr_has("DW_OP_shra")
        },
    },
    Known {
        id: "isel-salvage-lshr",
        function: "SelectionDAGBuilder's salvage of a dead instruction (salvageDebugInfoImpl at instruction selection): getSalvageOpsForBinOp's lshr as DW_OP_shr of a narrow value",
        upstream: None,
        what: "a record of a narrow logical shift that is right in the IR (`i8 %v2` with `%v2 = lshr i8 %x0, 6`, the shift dead) is salvaged by llc onto the shift's operand as `DW_OP_breg0 0, DW_OP_lit6, DW_OP_shr`: the shift of the whole 64-bit register, whose bits above the argument's AAPCS64 leaves unspecified (an `i8` without `zeroext`), so they shift into the value. salvage-lshr's bug, reached at instruction selection; seen on aarch64 by the entry check, and under gdb on the driver's calls that set those bits (D-llvm-dirty-upper-bits)",
        matches: |f| {
            f.run.dwarf_right == Some(false)
                && f.source_narrow("lshr")
                && f.run.dwarf_has("DW_OP_shr")
                && !f.expr_has("DW_OP_shr")
        },
    },
    Known {
        id: "split-pieces-exceed-variable",
        function: "SelectionDAG's type legalization of a value wider than a register (each half's DBG_VALUE made a fragment of the whole value, with the record's conversion repeated on each half)",
        upstream: None,
        what: "a value split across two registers (an i64 on i686) whose record converts it to a narrower variable gets a location of two pieces the size of the value, wider than the variable; gdb refuses it (\"access outside bounds of object\")",
        matches: |f| f.run.pieces_exceed_type && f.run.gdb_says("access outside bounds"),
    },
    Known {
        id: "sp-frame-base-outside-body",
        function: "X86 frame lowering without a frame pointer: the subprogram's DW_AT_frame_base is the stack pointer (DwarfCompileUnit::updateSubprogramScopeDIE), and DW_OP_fbreg offsets are computed for the body's stack pointer",
        upstream: None,
        what: "a variable on the stack is described relative to the stack pointer for the whole function, but the stack pointer moves in the prologue's pushes and the epilogue's pops: there the location names the wrong slot (a frame base of DW_OP_call_frame_cfa would not move)",
        matches: |f| {
            f.run.dwarf_has("DW_OP_fbreg")
                && f.run.stack_pointer_moved
                && f.run.dwarf_right != Some(true)
        },
    },
    Known {
        id: "location-before-value",
        function: "the code generator's variable locations (a location list entry naming a register starts at the function's entry, before the instruction that puts the value there)",
        upstream: None,
        what: "the location list names a register from the function's first instruction, where the register still holds what the caller left in it: the value (an i686 argument, which arrives on the stack, or an operand of a DIArgList computed in the body) is loaded into it only later",
        matches: |f| {
            f.run.dwarf_right == Some(false)
                && f.run
                    .register
                    .iter()
                    .chain(&f.run.later_registers)
                    .any(|r| !r.holds_operand && r.unchanged_since_entry)
        },
    },
    Known {
        id: "stack-value-narrower-than-variable",
        function: "DwarfExpression's constants and DW_OP_stack_value on a target whose address is narrower than the variable (an i64 on i686): the value is computed in the 32-bit generic type",
        upstream: Some(47431),
        what: "a 64-bit variable on a 32-bit target gets an implicit value of DWARF's generic type (DW_OP_consts -1, DW_OP_stack_value), 32 bits: the variable's upper half has no value in DWARF (dioptra: offset-outside-storage), and gdb shows it as zeros (reported as #47431; PR #204353 emits DW_OP_implicit_value for such constants, after 22.1.8)",
        matches: |f| {
            f.run.location_too_small()
                && f.run.dwarf_has("DW_OP_stack_value")
                && !f.run.dwarf_has("DW_OP_piece")
        },
    },
    Known {
        id: "gdb-partial-location-as-zero",
        function: "gdb (reading a value whose DWARF location describes only part of it: the bits no piece describes should be unavailable)",
        upstream: None,
        what: "the DWARF describes only the low part of the variable with DW_OP_piece (type legalization split it and dropped the other half's location: legal, that half is optimized out); gdb prints a whole number, the undescribed bits as zeros, where it should say the value is partly optimized out",
        matches: |f| {
            f.run.location_too_small()
                && f.run
                    .pieces_short
                    .is_some_and(|p| f.run.bits_right >= p && f.run.shown_bits <= p)
        },
    },
    Known {
        id: "gdb-plus-uconst-drops-type",
        function: "gdb (dwarf_expr_context::execute_stack_op, DW_OP_plus_uconst: the sum is made a value of the address type)",
        upstream: None,
        what: "DW_OP_plus_uconst on a typed value (after DW_OP_convert to a 64-bit base type, on a 32-bit target) keeps the value's type in DWARF 5 (2.5.1.4: the constant is \"interpreted as the same type as the operand popped\"); gdb gives the sum the 32-bit address type and shows the 64-bit variable's upper half as zeros, where dioptra evaluates the same DWARF to the right value. Where a later operation combines the sum with a typed value (`DW_OP_div` of two `DW_ATE_signed_32` values, x86-64), gdb refuses it: \"Incompatible types on DWARF stack\"",
        matches: |f| {
            f.run.dwarf_right == Some(true)
                && f.run.dwarf_has("DW_OP_convert")
                && f.run.dwarf_has("DW_OP_plus_uconst")
                && ((f.run.bits_right >= 32 && f.run.shown_bits <= 32)
                    || f.run.gdb_says("Incompatible types on DWARF stack"))
        },
    },
    Known {
        id: "gdb-wide-base-type",
        function: "gdb 13 (dwarf_expr_context::execute_stack_op, DW_OP_convert): a base type wider than 8 bytes",
        upstream: None,
        what: "a DWARF expression that converts to a 128-bit base type (`DW_OP_convert \"DW_ATE_unsigned_128\"`, how LLVM truncates an i128 to the variable's width) is refused by gdb: \"That operation is not available on integers of more than 8 bytes.\"; dioptra evaluates the same DWARF to the variable's value",
        matches: |f| {
            f.run.dwarf_right == Some(true)
                && f.run.gdb_says("integers of more than 8 bytes")
                && f.run.dwarf_has("DW_OP_convert")
        },
    },
    Known {
        id: "gdb-typed-shift-generic-amount",
        function: "gdb (dwarf_expr_context::execute_stack_op): a binary operation's operands must have one type, shifts included",
        upstream: None,
        what: "gdb refuses a typed value shifted by a generic amount (\"Incompatible types on DWARF stack\"), which DWARF 5 2.5.1.4 allows (shifts are exempt from the one-type rule); dioptra evaluates the same DWARF to the right value: the debugger's bug, not LLVM's",
        matches: |f| {
            f.run.dwarf_right == Some(true)
                && f.run.gdb_says("Incompatible types on DWARF stack")
                && ["DW_OP_shl", "DW_OP_shr", "DW_OP_shra"]
                    .iter()
                    .any(|o| f.run.dwarf_has(o))
        },
    },
];

/// The low bits in which two hex values agree.
fn bits_right(shown: &str, expected: &str) -> u64 {
    let read =
        |h: &str| num_bigint::BigUint::parse_bytes(h.trim_start_matches("0x").as_bytes(), 16);
    match (read(shown), read(expected)) {
        (Some(a), Some(b)) => (a ^ b).trailing_zeros().unwrap_or(u64::MAX),
        _ => 0,
    }
}

/// The known bug (of the code generator, or of gdb) that explains gdb
/// showing `c`'s variable wrong (`seen`), if any, `c` being a record not
/// judged wrong in the IR.
pub fn classify_run(c: &Compared, seen: &super::codegen::Seen) -> Option<&'static Known> {
    let mut f = facts(c, &[], "");
    let d = seen.differ.as_ref().or(seen.error.as_ref())?;
    let number =
        |h: &str| num_bigint::BigUint::parse_bytes(h.trim_start_matches("0x").as_bytes(), 16);
    // A value other than 0 and 1 seen once is evidence; 0 or 1 is not.
    let telling = |h: &str| number(h).is_some_and(|v| v > num_bigint::BigUint::from(1u8));
    f.run = RunFacts {
        bits_right: seen
            .differ
            .as_ref()
            .map_or(0, |d| bits_right(&d.shown, &d.expected)),
        demanded: seen.differ.as_ref().and_then(|d| d.demanded),
        other_value: seen.readings_as_other > 0
            && seen.readings_register_right == 0
            && (seen.calls_differing >= 2
                || seen.differ.as_ref().is_some_and(|d| {
                    telling(&d.shown) || d.register.as_ref().is_some_and(|r| telling(&r.contents))
                })),
        gdb_error: seen.error.as_ref().map(|e| e.shown.clone()),
        dwarf_right: d.dwarf_right,
        dwarf_failed: d.dwarf.as_ref().and_then(|r| match &r.says {
            super::readback::Says::Failed(why) => Some(why.clone()),
            _ => None,
        }),
        dwarf_ops: d.dwarf.as_ref().map_or(String::new(), |r| r.ops.clone()),
        pieces_exceed_type: d
            .dwarf
            .as_ref()
            .is_some_and(|r| matches!((r.piece_bits, r.type_bits), (Some(p), Some(t)) if p > t)),
        pieces_short: d
            .dwarf
            .as_ref()
            .and_then(|r| match (r.piece_bits, r.type_bits) {
                (Some(p), Some(t)) if p < t => Some(p),
                _ => None,
            }),
        register: d.register.clone(),
        later_registers: d.later_registers.clone(),
        stack_pointer_moved: d.stack_pointer_moved,
        shown_bits: number(&d.shown).map_or(u64::MAX, |v| v.bits()),
    };
    RUN_KNOWN.iter().find(|k| (k.matches)(&f))
}

/// The known bug a wrong record is, if any.
pub fn classify(c: &Compared) -> Option<&'static Known> {
    let Verdict::Wrong { models, detail } = &c.verdict else {
        return None;
    };
    let f = facts(c, models, detail);
    KNOWN.iter().find(|k| (k.matches)(&f))
}

/// What the matchers look at in record `c`, judged wrong under `models`
/// with `detail`.
fn facts<'a>(c: &'a Compared, models: &'a [High], detail: &str) -> Facts<'a> {
    let after_expr = c.after.find("!DIExpression(").map_or("", |k| &c.after[k..]);
    Facts {
        source: c.source_insts.iter().map(|t| opcode_and_width(t)).collect(),
        expr: after_expr,
        models,
        ill_formed: detail.contains("ill-formed"),
        operand_too_wide: detail.contains("operand-too-wide"),
        rewritten: !c.rewritten.is_empty(),
        operand_widths: operand_widths(&c.after),
        became_constant: became_constant(&c.before, &c.after),
        narrowed: {
            let narrowest = c
                .source_insts
                .iter()
                .map(|t| opcode_and_width(t).1)
                .min()
                .unwrap_or(64);
            converted_widths(after_expr).iter().any(|&n| n < narrowest)
                && !c.source_insts.iter().any(|t| t.starts_with("trunc"))
        },
        variable_width: operand_widths(&c.before).first().copied().unwrap_or(64),
        dropped_operation: {
            let computing = |insts: &[String]| {
                insts
                    .iter()
                    .filter(|t| {
                        // `add T %x, 0` is the comparison's copy of a
                        // parameter or constant, not LLVM's.
                        let copy = t.starts_with("add ") && t.ends_with(", 0");
                        let op = t.split_whitespace().next().unwrap_or("");
                        // udiv and urem have no salvage, but a record that
                        // loses one lost a computation all the same.
                        !copy
                            && (dwarf_op_of(op).is_some() || matches!(op, "icmp" | "udiv" | "urem"))
                    })
                    .count()
            };
            let salvaged = computing(&c.source_insts).saturating_sub(computing(&c.target_insts));
            arithmetic_ops(after_expr) < salvaged
        },
        changed_constant: c
            .source_insts
            .iter()
            .any(|inst| changed_constant(inst, after_expr)),
        foreign_operation: foreign_operation(&c.source_insts, after_expr),
        run: RunFacts::default(),
    }
}

/// "#206325" or "new".
pub fn upstream_text(k: &Known) -> String {
    k.upstream
        .map_or("new".to_string(), |n| format!("llvm/llvm-project#{n}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrong(source: &[&str], after: &str, models: &[High], detail: &str) -> Compared {
        Compared {
            function: "f".into(),
            variable: "v".into(),
            before: String::new(),
            after: after.into(),
            verdict: Verdict::Wrong {
                models: models.to_vec(),
                detail: detail.into(),
            },
            rule: None,
            source_insts: source.iter().map(|s| s.to_string()).collect(),
            target_insts: Vec::new(),
            rewritten: Vec::new(),
        }
    }

    /// A record wrong under every upper-bit model.
    fn wrong_everywhere(source: &[&str], after: &str) -> Compared {
        wrong(source, after, &[High::Zero, High::Sign, High::Any], "")
    }

    #[test]
    fn each_bug_is_recognised_by_its_own_facts_only() {
        let id = |c: &Compared| classify(c).map(|k| k.id);
        let lshr = wrong(
            &["lshr i8 %x0, 3"],
            "i8 %x0, !DIExpression(DW_OP_constu, 3, DW_OP_shr, DW_OP_stack_value)",
            &[High::Sign, High::Any],
            "",
        );
        assert_eq!(id(&lshr), Some("salvage-lshr"));
        // The same salvage of a full-width value is not that bug.
        let wide = wrong(
            &["lshr i64 %x0, 3"],
            "i64 %x0, !DIExpression(DW_OP_constu, 3, DW_OP_shr, DW_OP_stack_value)",
            &[High::Sign, High::Any],
            "",
        );
        assert_eq!(id(&wide), None);
        let ult = wrong_everywhere(
            &["icmp ult i64 %x0, 5"],
            "i64 %x0, !DIExpression(DW_OP_constu, 5, DW_OP_lt, DW_OP_stack_value)",
        );
        assert_eq!(id(&ult), Some("salvage-icmp-unsigned"));
        assert_eq!(classify(&ult).unwrap().upstream, Some(206325));
        let not = wrong_everywhere(&["icmp eq i8 %x1, -1"], "i1 %v0, !DIExpression(DW_OP_not)");
        assert_eq!(id(&not), Some("invert-without-stack-value"));
        let any = wrong(
            &["shl i32 %x0, %x0"],
            "!DIArgList(i32 %x0, i32 %x0), !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_shl, DW_OP_stack_value)",
            &[High::Any],
            "",
        );
        assert_eq!(id(&any), Some("upper-bits"));
        let same = Compared {
            verdict: Verdict::Same,
            ..lshr.clone()
        };
        assert_eq!(id(&same), None);
        // A computed value replaced by a constant it is not (InstCombine's
        // demanded bits made `udiv %x0, -128` zero under an `sdiv` by 8).
        let constant = Compared {
            before: "i64 %v8, !DIExpression()".into(),
            ..wrong_everywhere(
                &["udiv i32 %x0, -128", "xor i32 %b0, 1000", "sext i32 %b1 to i64"],
                "i32 0, !DIExpression(DW_OP_constu, 1000, DW_OP_or, DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_stack_value)",
            )
        };
        assert_eq!(id(&constant), Some("changed-computation"));
        // A sext made a sign extension of the low bit, and a urem dropped
        // (found by a 10 000-function campaign, seed 2026).
        let narrowed = wrong_everywhere(
            &["sext i32 %x0 to i64"],
            "i32 %x0, !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_LLVM_convert, 1, DW_ATE_unsigned, DW_OP_LLVM_convert, 1, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_stack_value)",
        );
        assert_eq!(id(&narrowed), Some("changed-computation"));
        let zext = wrong_everywhere(
            &["zext i8 %x0 to i64"],
            "i8 %x0, !DIExpression(DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)",
        );
        assert_ne!(
            id(&zext),
            Some("changed-computation"),
            "no narrower than its operand"
        );
        let dropped_urem = wrong_everywhere(
            &["urem i16 %x0, 16", "sext i16 %b0 to i64", "add i16 %x0, 0"],
            "i16 %x0, !DIExpression(DW_OP_LLVM_convert, 16, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)",
        );
        assert_eq!(id(&dropped_urem), Some("changed-computation"));
        // A narrow add feeding a shift amount, computed in 64 bits.
        let carry = wrong(
            &["add i8 %x0, 8", "shl i8 %x0, %b0", "sext i8 %b1 to i16"],
            "!DIArgList(i8 %x0, i8 %x0), !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus_uconst, 8, DW_OP_shl, DW_OP_LLVM_convert, 8, DW_ATE_signed, DW_OP_LLVM_convert, 16, DW_ATE_signed, DW_OP_stack_value)",
            &[High::Zero, High::Any],
            "",
        );
        assert_eq!(id(&carry), Some("narrow-carry"));
        // A shrunk constant anywhere in the chain, and an operation the
        // input never computed (seed 2026: f7695, f7243).
        let shrunk = wrong_everywhere(
            &["xor i8 %x0, 127", "zext i8 %b0 to i64"],
            "i8 %x0, !DIExpression(DW_OP_constu, 15, DW_OP_xor, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)",
        );
        assert_eq!(id(&shrunk), Some("changed-computation"));
        let masked = wrong_everywhere(
            &["trunc i32 %x0 to i16", "or i16 %b0, %b0", "zext i16 %b1 to i64"],
            "i32 %x0, !DIExpression(DW_OP_constu, 65520, DW_OP_and, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)",
        );
        assert_eq!(id(&masked), Some("changed-computation"));
        assert!(!foreign_operation(
            &["getelementptr i32, ptr %x1, i16 %x0".to_string()],
            "!DIExpression(DW_OP_LLVM_arg, 1, DW_OP_constu, 4, DW_OP_mul, DW_OP_plus)"
        ));
        assert!(!foreign_operation(
            &["xor i8 %x0, 127".to_string()],
            "!DIExpression(DW_OP_constu, 127, DW_OP_xor, DW_OP_stack_value)"
        ));
        assert!(became_constant(
            "i64 %v8, !DIExpression()",
            "i32 0, !DIExpression()"
        ));
        assert!(!became_constant(
            "i64 %v8, !DIExpression()",
            "i32 poison, !DIExpression()"
        ));
        assert!(!became_constant(
            "i64 7, !DIExpression()",
            "i32 7, !DIExpression()"
        ));
        assert!(!became_constant(
            "i64 %v8, !DIExpression()",
            "!DIArgList(i32 %x0, i32 3), !DIExpression()"
        ));
    }

    #[test]
    fn a_salvage_with_a_changed_constant_is_told_from_a_faithful_one() {
        let e = |s: &str| format!("!DIExpression({s})");
        assert!(changed_constant(
            "and i32 %x2, -8",
            &e("DW_OP_constu, 65528, DW_OP_and, DW_OP_stack_value")
        ));
        assert!(!changed_constant(
            "and i32 %x2, -8",
            &e("DW_OP_constu, 4294967288, DW_OP_and, DW_OP_stack_value")
        ));
        assert!(changed_constant(
            "add i16 %x0, -7",
            &e("DW_OP_plus_uconst, 9, DW_OP_stack_value")
        ));
        assert!(!changed_constant(
            "add i16 %x0, -7",
            &e("DW_OP_constu, 7, DW_OP_minus, DW_OP_stack_value")
        ));
        assert!(!changed_constant(
            "lshr i8 %x0, 3",
            &e("DW_OP_constu, 3, DW_OP_shr, DW_OP_stack_value")
        ));
    }

    #[test]
    fn opcodes_and_widths_are_read_past_flags() {
        assert_eq!(opcode_and_width("sdiv exact i8 %x, 3"), ("sdiv".into(), 8));
        assert_eq!(
            opcode_and_width("icmp samesign ult i16 %x, 3"),
            ("icmp ult".into(), 16)
        );
        assert_eq!(
            opcode_and_width("getelementptr inbounds i32, ptr %p, i16 %i"),
            ("getelementptr".into(), 16)
        );
    }

    #[test]
    fn code_generator_and_debugger_bugs_are_told_apart_by_the_dwarf_read_back() {
        use super::super::codegen::{Call, Difference, Seen};
        use super::super::readback::{DwarfReading, Says};
        let right = |before: &str, after: &str| Compared {
            before: before.into(),
            verdict: Verdict::Same,
            ..wrong(&[], after, &[], "")
        };
        // What gdb showed, with the DWARF at the pc and whether dioptra's
        // evaluation of it gives the variable's value.
        let diff = |shown: &str, expected: &str, ops: &str, right: Option<bool>| Difference {
            call: Call {
                function: "f".into(),
                args: Vec::new(),
            },
            pc: 0,
            shown: shown.into(),
            expected: expected.into(),
            other_values: Vec::new(),
            dwarf: Some(DwarfReading {
                ops: ops.into(),
                piece_bits: None,
                type_bits: Some(32),
                says: match right {
                    Some(_) => Says::Value(dioptra_semantics::bits::Bits::from_u64(8, 0)),
                    None => Says::Failed(
                        "DW_OP_mul: type-mismatch: operands of base types 0x2f and 0x0".into(),
                    ),
                },
            }),
            dwarf_right: right,
            demanded: None,
            register: None,
            later_registers: Vec::new(),
            stack_pointer_moved: false,
            shared_register: false,
        };
        let shown = |d: Difference| Seen {
            differ: Some(d),
            calls_differing: 1,
            ..Seen::default()
        };
        let error = |d: Difference| Seen {
            error: Some(d),
            ..Seen::default()
        };
        let id = |c: &Compared, s: &Seen| classify_run(c, s).map(|k| k.id);
        // A 1-bit conversion: the DWARF converts to the whole byte.
        let convert = right("i1 %v0, !DIExpression()", "i8 %x0, !DIExpression()");
        let one_bit = "DW_OP_breg4 0, DW_OP_convert 0x37 \"DW_ATE_unsigned_8\", DW_OP_convert 0x2f \"DW_ATE_unsigned_1\", DW_OP_stack_value";
        assert_eq!(
            id(&convert, &shown(diff("0x80", "0x00", one_bit, Some(false)))),
            Some("convert-without-bit-size")
        );
        // The same value with a DWARF that evaluates right is not LLVM's.
        assert_eq!(
            id(&convert, &shown(diff("0x80", "0x00", one_bit, Some(true)))),
            None
        );
        // A bool whose register has bits above bit 0: bit 0 right.
        let bool_reg = right("i1 %v0, !DIExpression()", "i1 %v0, !DIExpression()");
        let reg = |s: &str, e: &str| shown(diff(s, e, "DW_OP_reg0", Some(false)));
        assert_eq!(id(&bool_reg, &reg("0xff", "0x01")), Some("i1-upper-bits"));
        assert_eq!(id(&bool_reg, &reg("0xfe", "0x01")), None, "bit 0 wrong too");
        // A dead narrow ashr salvaged by llc (f18 on aarch64): the DWARF
        // shifts the whole register; the IR record has no shift.
        let shifted = Compared {
            source_insts: vec!["ashr i32 %x0, 30".into()],
            ..right("i32 %v0, !DIExpression()", "i32 %v0, !DIExpression()")
        };
        let shra = "DW_OP_breg0 0, DW_OP_lit30, DW_OP_shra, DW_OP_stack_value";
        assert_eq!(
            id(
                &shifted,
                &shown(diff("0x00000003", "0xffffffff", shra, Some(false)))
            ),
            Some("isel-salvage-ashr")
        );
        assert_eq!(
            id(
                &shifted,
                &shown(diff("0x00000003", "0xffffffff", shra, Some(true)))
            ),
            None,
            "the DWARF right: gdb's error"
        );
        let unshifted = right("i32 %v0, !DIExpression()", "i32 %v0, !DIExpression()");
        assert_eq!(
            id(
                &unshifted,
                &shown(diff("0x00000003", "0xffffffff", shra, Some(false)))
            ),
            None,
            "no ashr in the record's chain"
        );
        // Its lshr twin (f38 on aarch64): a register with bits above the
        // i8 set, shifted logically.
        let lshifted = Compared {
            source_insts: vec!["lshr i8 %x0, 6".into()],
            ..right("i8 %v2, !DIExpression()", "i8 %v2, !DIExpression()")
        };
        let shr = "DW_OP_breg0 0, DW_OP_lit6, DW_OP_shr, DW_OP_stack_value";
        assert_eq!(
            id(&lshifted, &shown(diff("0x06", "0x02", shr, Some(false)))),
            Some("isel-salvage-lshr")
        );
        assert_eq!(
            id(&lshifted, &shown(diff("0x06", "0x02", shra, Some(false)))),
            None,
            "a shra is not the lshr's salvage"
        );
        assert_eq!(
            id(&shifted, &shown(diff("0x06", "0x02", shr, Some(false)))),
            None,
            "no lshr in the record's chain"
        );
        let wide = Compared {
            source_insts: vec!["ashr i64 %x0, 30".into()],
            ..right("i64 %v0, !DIExpression()", "i64 %v0, !DIExpression()")
        };
        assert_eq!(
            id(
                &wide,
                &shown(diff("0x3", "0xffffffffffffffff", shra, Some(false)))
            ),
            None,
            "a 64-bit shift is the register's"
        );
        // An i128 argument described by one 64-bit register: no value.
        let wide_arg = right("i128 %x0, !DIExpression()", "i128 %x0, !DIExpression()");
        let too_small = |ops: &str| {
            shown(Difference {
                dwarf: Some(DwarfReading {
                    ops: ops.into(),
                    piece_bits: None,
                    type_bits: Some(128),
                    says: Says::Failed(
                        "read: offset-outside-storage: reading bits 0..128 of reg(5) (64 bits)"
                            .into(),
                    ),
                }),
                ..diff("0x0", "0x80000000000000000000000000000000", ops, None)
            })
        };
        assert_eq!(
            id(&wide_arg, &too_small("DW_OP_reg5")),
            Some("wide-value-one-register")
        );
        let narrow_arg = right("i64 %x0, !DIExpression()", "i64 %x0, !DIExpression()");
        assert_eq!(
            id(&narrow_arg, &too_small("DW_OP_reg5")),
            None,
            "64 bits fit"
        );
        assert_eq!(
            id(&wide_arg, &too_small("DW_OP_reg5, DW_OP_piece 0x8")),
            None,
            "a piece short of the type is another bug"
        );
        // gdb refuses a 128-bit base type the DWARF evaluates right with.
        let truncated = right("i8 %v1, !DIExpression()", "i128 %x0, !DIExpression(DW_OP_LLVM_convert, 128, DW_ATE_unsigned, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_stack_value)");
        let wide_convert = "DW_OP_breg5 0, DW_OP_convert 0x4f \"DW_ATE_unsigned_128\", DW_OP_convert 0x37 \"DW_ATE_unsigned_8\", DW_OP_stack_value";
        let refused = |r: Option<bool>| {
            error(diff(
                "That operation is not available on integers of more than 8 bytes.",
                "0x00",
                wide_convert,
                r,
            ))
        };
        assert_eq!(
            id(&truncated, &refused(Some(true))),
            Some("gdb-wide-base-type")
        );
        assert_eq!(
            id(&truncated, &refused(Some(false))),
            None,
            "the DWARF wrong"
        );
        // A wider value right in the low bits the function reads.
        let value = right("i32 %v0, !DIExpression()", "i32 %v0, !DIExpression()");
        let demanded = |s: &str, e: &str, k: Option<u64>| {
            shown(Difference {
                demanded: k,
                ..diff(s, e, "DW_OP_reg2", Some(false))
            })
        };
        assert_eq!(
            id(&value, &demanded("0x03fffff8", "0xfffffff8", Some(5))),
            Some("isel-demanded-bits")
        );
        assert_eq!(
            id(&value, &demanded("0x03fffff8", "0xfffffff8", None)),
            None
        );
        // The record zero-extends with conversions (f7383): still the
        // value's low bits.
        let extended = right(
            "i64 %v4, !DIExpression()",
            "i32 %v3, !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)",
        );
        assert_eq!(
            id(&extended, &demanded("0x03ffffff", "0xffffffff", Some(5))),
            Some("isel-demanded-bits")
        );
        let signed = right(
            "i64 %v4, !DIExpression()",
            "i32 %v3, !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_stack_value)",
        );
        assert_eq!(
            id(&signed, &demanded("0x03ffffff", "0xffffffff", Some(5))),
            None,
            "a sign extension is not the value's bits alone"
        );
        // A DIArgList operand masked to its 32-bit subregister (f5393),
        // and a subregister's mask applied after an offset (f5298).
        let list = right(
            "i64 %v1, !DIExpression()",
            "!DIArgList(i64 %v0, i64 %x0), !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_mul, DW_OP_stack_value)",
        );
        let masked = "DW_OP_breg0 0, DW_OP_constu 0xffffffff, DW_OP_and, DW_OP_breg5 0, DW_OP_constu 0xffffffff, DW_OP_and, DW_OP_mul, DW_OP_stack_value";
        let at =
            |ops: &str, r: Option<bool>| shown(diff("0x7effffff81", "0xffffffffffffff81", ops, r));
        assert_eq!(
            id(&list, &at(masked, Some(false))),
            Some("isel-subregister-operand")
        );
        assert_eq!(id(&list, &at(masked, Some(true))), None, "the DWARF right");
        let narrow_list = right(
            "i32 %v1, !DIExpression()",
            "!DIArgList(i32 %v0, i32 %x0), !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_mul, DW_OP_stack_value)",
        );
        assert_eq!(
            id(&narrow_list, &at(masked, Some(false))),
            None,
            "a 32-bit operand's mask drops nothing"
        );
        let offset = right(
            "i64 %v3, !DIExpression()",
            "i64 %v0, !DIExpression(DW_OP_plus_uconst, 255, DW_OP_stack_value)",
        );
        let after_offset = "DW_OP_breg5 255, DW_OP_constu 0xffffffff, DW_OP_and, DW_OP_stack_value";
        assert_eq!(
            id(
                &offset,
                &shown(diff("0xfe", "0x1000000fe", after_offset, Some(false)))
            ),
            Some("subregister-mask-after-offset")
        );
        let not_a_mask = "DW_OP_breg5 255, DW_OP_constu 0xfffffffe, DW_OP_and, DW_OP_stack_value";
        assert_eq!(
            id(
                &offset,
                &shown(diff("0xfe", "0x1000000fe", not_a_mask, Some(false)))
            ),
            None
        );
        assert_eq!(
            id(&value, &demanded("0x03fffff0", "0xfffffff8", Some(5))),
            None,
            "a demanded bit wrong"
        );
        // A register that holds another value of the function on every call
        // where it differed.
        let stale = |calls: usize, shown_value: &str| Seen {
            calls_differing: calls,
            readings_differing: 3,
            readings_as_other: 1,
            ..shown(Difference {
                register: Some(super::super::codegen::RegisterSeen {
                    number: 0,
                    holds_operand: false,
                    unchanged_since_entry: false,
                    holds: vec!["%v5".into()],
                    contents: shown_value.into(),
                }),
                ..diff(shown_value, "0xff", "DW_OP_breg0 +0", Some(false))
            })
        };
        assert_eq!(id(&value, &stale(2, "0x01")), Some("stale-register"));
        assert_eq!(id(&value, &stale(1, "0x71")), Some("stale-register"));
        assert_eq!(
            id(&value, &stale(1, "0x01")),
            None,
            "one call, a 1 is no evidence"
        );
        // gdb's type error on a typed shift DWARF 5 allows, where dioptra
        // evaluates the DWARF right: the debugger's bug.
        let typed = right("i32 %v0, !DIExpression()", "i16 %x0, !DIExpression()");
        let shift = "DW_OP_breg5 0, DW_OP_convert 0x37 \"DW_ATE_unsigned_16\", DW_OP_convert 0x2f \"DW_ATE_unsigned_32\", DW_OP_lit16, DW_OP_shra, DW_OP_stack_value";
        let gdb_error = |e: &str, ops: &str, right: Option<bool>| error(diff(e, "0x0", ops, right));
        assert_eq!(
            id(
                &typed,
                &gdb_error("Incompatible types on DWARF stack", shift, Some(true))
            ),
            Some("gdb-typed-shift-generic-amount")
        );
        assert_eq!(
            id(&typed, &gdb_error("Division by zero", shift, Some(true))),
            None
        );
        // A generic operation on a converted value: ill-formed DWARF (the
        // IR's record had no conversion: instruction selection added it).
        let mul = "DW_OP_breg4 0, DW_OP_convert 0x37 \"DW_ATE_unsigned_8\", DW_OP_convert 0x2f \"DW_ATE_unsigned_1\", DW_OP_lit0, DW_OP_mul, DW_OP_stack_value";
        let generic = right(
            "i1 %v1, !DIExpression()",
            "i1 %v0, !DIExpression(DW_OP_lit0, DW_OP_mul, DW_OP_stack_value)",
        );
        assert_eq!(
            id(
                &generic,
                &gdb_error("Incompatible types on DWARF stack", mul, None)
            ),
            Some("isel-convert-then-generic")
        );
        // Pieces wider than the variable: gdb reads past the object.
        let split = Seen {
            error: Some(Difference {
                dwarf: Some(DwarfReading {
                    ops: "DW_OP_breg0 +0, DW_OP_stack_value, DW_OP_piece 0x4, DW_OP_breg2 +0, DW_OP_stack_value, DW_OP_piece 0x4".into(),
                    piece_bits: Some(64),
                    type_bits: Some(32),
                    says: Says::Value(dioptra_semantics::bits::Bits::from_u64(32, 0)),
                }),
                ..diff("access outside bounds of object referenced via synthetic pointer", "0x0", "", Some(true))
            }),
            ..Seen::default()
        };
        assert_eq!(id(&value, &split), Some("split-pieces-exceed-variable"));
        // A stack slot named relative to a stack pointer that is still
        // moving: wrong in the prologue only.
        let slot = |moved: bool| {
            shown(Difference {
                stack_pointer_moved: moved,
                ..diff("0x00000001", "0x80000000", "DW_OP_fbreg 12", Some(false))
            })
        };
        assert_eq!(id(&value, &slot(true)), Some("sp-frame-base-outside-body"));
        assert_eq!(id(&value, &slot(false)), None);
        // A register named before the value is loaded into it.
        let early = |unchanged: bool, holds_operand: bool| {
            shown(Difference {
                register: Some(super::super::codegen::RegisterSeen {
                    number: 0,
                    holds_operand,
                    unchanged_since_entry: unchanged,
                    holds: Vec::new(),
                    contents: "0x0".into(),
                }),
                ..diff("0x00", "0x80", "DW_OP_reg0", Some(false))
            })
        };
        assert_eq!(
            id(&value, &early(true, false)),
            Some("location-before-value")
        );
        assert_eq!(id(&value, &early(false, false)), None);
        assert_eq!(id(&value, &early(true, true)), None);
        // The same for the second register a DIArgList's DWARF reads
        // (as f7782's `DW_OP_breg5 0, ..., DW_OP_breg0 0, ..., DW_OP_and`,
        // here without the subregister masks), the first holding its
        // operand.
        let seen = |number, holds_operand, unchanged| super::super::codegen::RegisterSeen {
            number,
            holds_operand,
            unchanged_since_entry: unchanged,
            holds: Vec::new(),
            contents: "0x0".into(),
        };
        let second = |unchanged: bool, holds_operand: bool| {
            shown(Difference {
                register: Some(seen(5, true, true)),
                later_registers: vec![seen(0, holds_operand, unchanged)],
                ..diff(
                    "0x00",
                    "0x01",
                    "DW_OP_breg5 0, DW_OP_breg0 0, DW_OP_and, DW_OP_stack_value",
                    Some(false),
                )
            })
        };
        assert_eq!(
            id(&value, &second(true, false)),
            Some("location-before-value")
        );
        assert_eq!(id(&value, &second(false, false)), None);
        assert_eq!(id(&value, &second(true, true)), None);
        // Bits the DWARF does not describe: gdb prints them as zeros.
        let short = |ops: &str, pieces: Option<u64>, shown_value: &str| {
            shown(Difference {
                dwarf: Some(DwarfReading {
                    ops: ops.into(),
                    piece_bits: pieces,
                    type_bits: Some(64),
                    says: Says::Failed("read: offset-outside-storage: reading bits 0..64 of comp(32: reg(0)) (32 bits)".into()),
                }),
                ..diff(shown_value, "0xffffffffffffff81", "", None)
            })
        };
        assert_eq!(
            id(
                &value,
                &short(
                    "DW_OP_reg0, DW_OP_piece 0x4",
                    Some(32),
                    "0x00000000ffffff81"
                )
            ),
            Some("gdb-partial-location-as-zero")
        );
        assert_eq!(
            id(
                &value,
                &short(
                    "DW_OP_reg0, DW_OP_piece 0x4",
                    Some(32),
                    "0x00000000ffffff80"
                )
            ),
            None,
            "a described bit wrong"
        );
        assert_eq!(
            id(
                &value,
                &short(
                    "DW_OP_consts -1, DW_OP_stack_value",
                    None,
                    "0x00000000ffffffff"
                )
            ),
            Some("stack-value-narrower-than-variable")
        );
        // A typed sum gdb gives the 32-bit address type: dioptra's value
        // of the same DWARF is right.
        let uconst = "DW_OP_fbreg 4, DW_OP_deref_size 0x1, DW_OP_convert 0x23 \"DW_ATE_signed_8\", DW_OP_convert 0x27 \"DW_ATE_signed_64\", DW_OP_plus_uconst 0x8, DW_OP_stack_value";
        let typed_sum = |right: Option<bool>| {
            shown(diff(
                "0x00000000ffffff88",
                "0xffffffffffffff88",
                uconst,
                right,
            ))
        };
        assert_eq!(
            id(&value, &typed_sum(Some(true))),
            Some("gdb-plus-uconst-drops-type")
        );
        assert_eq!(id(&value, &typed_sum(Some(false))), None);
        // The typed sum combined with another typed value: gdb refuses it.
        let typed_div = "DW_OP_breg5 0, DW_OP_constu 0xff, DW_OP_and, DW_OP_convert 0x4b \"DW_ATE_signed_8\", DW_OP_convert 0x37 \"DW_ATE_signed_32\", DW_OP_plus_uconst 0x2, DW_OP_breg5 0, DW_OP_constu 0xff, DW_OP_and, DW_OP_convert 0x4b \"DW_ATE_signed_8\", DW_OP_convert 0x37 \"DW_ATE_signed_32\", DW_OP_div, DW_OP_stack_value";
        let incompatible = |r: Option<bool>| {
            error(diff(
                "Incompatible types on DWARF stack",
                "0x00000000",
                typed_div,
                r,
            ))
        };
        assert_eq!(
            id(&value, &incompatible(Some(true))),
            Some("gdb-plus-uconst-drops-type")
        );
        assert_ne!(
            id(&value, &incompatible(Some(false))),
            Some("gdb-plus-uconst-drops-type"),
            "the DWARF wrong: not gdb's"
        );
        // A conversion appended to an empty expression without
        // DW_OP_stack_value: a memory location at the value.
        let memory = |ops: &str| {
            error(Difference {
                dwarf: Some(DwarfReading {
                    ops: ops.into(),
                    piece_bits: None,
                    type_bits: Some(16),
                    says: Says::Failed("DWARF: typed-value-as-location: a typed value is not a memory address (use DW_OP_stack_value)".into()),
                }),
                ..diff("Cannot access memory at address 0x20", "0x0020", "", None)
            })
        };
        let conv = "DW_OP_breg0 0, DW_OP_constu 0xffffffff, DW_OP_and, DW_OP_convert 0x27 \"DW_ATE_unsigned_32\", DW_OP_convert 0x2b \"DW_ATE_unsigned_16\"";
        let plain = right("i16 %v0, !DIExpression()", "i16 %v0, !DIExpression()");
        assert_eq!(
            id(&plain, &memory(conv)),
            Some("isel-convert-without-stack-value")
        );
        assert_eq!(
            id(&plain, &memory(&format!("{conv}, DW_OP_stack_value"))),
            None
        );
    }
}
