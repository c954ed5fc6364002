//! gimli as a second DWARF evaluator: a differential check of dioptra's
//! evaluator on plain DWARF 5.
//!
//! gimli's `Evaluation` asks its caller for memory, registers and base
//! types and returns pieces; this adapter answers from a context and turns
//! the pieces into a location description to compare with dioptra's. What
//! gimli cannot do by design is reported as `Limit`, never as agreement:
//! values wider than 64 bits, vendor opcodes, base types other than
//! 1/2/4/8-byte integers and 4/8-byte floats, implicit pointers (gimli
//! names the DIE; the target location is not evaluated), memory outside
//! address space 0 and 2-byte floats.

use crate::lower::Lowered;
use crate::script::api::{location_of_pieces, Piece, PieceLocation};
use dioptra_semantics::bits::Bits;
use dioptra_semantics::context::{ConcreteContext, Context};
use dioptra_semantics::dwarf::unit::Listing;
use dioptra_semantics::dwarf::{encode, DwarfOp, Encoding, Operand};
use dioptra_semantics::location::{LocDesc, Storage};
use gimli::{EndianSlice, EvaluationResult, LittleEndian, Location, Value, ValueType};

/// gimli's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GimliResult {
    Location(LocDesc),
    /// gimli reported an error (its `Display`).
    Error(String),
    /// Outside what gimli does, or what the context supplies.
    Limit(String),
}

fn value_type(l: &Listing, die: usize) -> Result<ValueType, String> {
    if die == 0 {
        return Ok(ValueType::Generic);
    }
    let b = l
        .unit
        .base_types
        .get(&(die as u64))
        .ok_or_else(|| format!("no base type 0x{die:x}"))?;
    if b.encoding == gimli::DW_ATE_float && b.byte_size == 2 {
        return Err("gimli has no 2-byte floats".into());
    }
    ValueType::from_encoding(b.encoding, b.byte_size)
        .ok_or_else(|| format!("gimli has no {}-byte {} values", b.byte_size, b.encoding))
}

fn value_of(t: ValueType, raw: u64) -> Value {
    match t {
        ValueType::F32 => Value::F32(f32::from_bits(raw as u32)),
        ValueType::F64 => Value::F64(f64::from_bits(raw)),
        t => Value::from_u64(t, raw).unwrap_or(Value::Generic(raw)),
    }
}

fn bits_of(v: Value) -> Bits {
    match v {
        Value::Generic(x) | Value::U64(x) => Bits::from_u64(64, x),
        Value::I64(x) => Bits::from_u64(64, x as u64),
        Value::I8(x) => Bits::from_u64(8, x as u8 as u64),
        Value::U8(x) => Bits::from_u64(8, x as u64),
        Value::I16(x) => Bits::from_u64(16, x as u16 as u64),
        Value::U16(x) => Bits::from_u64(16, x as u64),
        Value::I32(x) => Bits::from_u64(32, x as u32 as u64),
        Value::U32(x) => Bits::from_u64(32, x as u64),
        Value::F32(x) => Bits::from_u64(32, x.to_bits() as u64),
        Value::F64(x) => Bits::from_u64(64, x.to_bits()),
    }
}

/// Evaluates `listing` with gimli in `ctx` (address size 8, DWARF 5).
pub fn evaluate(listing: &Listing, ctx: &dyn Context) -> GimliResult {
    let enc = Encoding::default();
    match encode(&listing.ops, enc) {
        Ok(bytes) => evaluate_bytes(&bytes, listing, ctx),
        Err(d) => GimliResult::Limit(d.to_string()),
    }
}

/// Evaluates the encoded expression `bytes` of `listing` (whose unit gives
/// the base types) with gimli in `ctx`.
pub fn evaluate_bytes(bytes: &[u8], listing: &Listing, ctx: &dyn Context) -> GimliResult {
    let encoding = gimli::Encoding {
        format: gimli::Format::Dwarf32,
        version: 5,
        address_size: 8,
    };
    let expr = gimli::Expression(EndianSlice::new(bytes, LittleEndian));
    let mut e = expr.evaluation(encoding);
    if let Some(o) = ctx.type_object() {
        if let [s] = o.loc.singles() {
            if matches!(*s.storage, Storage::Memory { addrspace: 0 }) && s.offset % 8 == 0 {
                e.set_object_address((s.offset / 8) as u64);
            }
        }
    }
    let mut r = e.evaluate();
    for _ in 0..100_000 {
        let step = match r {
            // gimli's values are at most 8 bytes: it refuses a
            // DW_OP_deref_type of a wider base type, which DWARF 5 allows
            // (the size is the base type's).
            Err(gimli::Error::InvalidDerefSize(n))
                if n > 8
                    && listing.ops.iter().any(|o| {
                        matches!(o, DwarfOp::Std { code, operands }
                            if *code == gimli::DW_OP_deref_type.0
                                && matches!(operands.first(), Some(Operand::U(m)) if *m == n as u64))
                    }) =>
            {
                return GimliResult::Limit(format!(
                    "gimli: no values wider than 8 bytes (DW_OP_deref_type of {n})"
                ))
            }
            Err(err) => return GimliResult::Error(err.to_string()),
            Ok(step) => step,
        };
        r = match step {
            EvaluationResult::Complete => break,
            EvaluationResult::RequiresMemory {
                address,
                size,
                space,
                base_type,
            } => {
                if space.is_some() {
                    return GimliResult::Limit("gimli: DW_OP_xderef address spaces".into());
                }
                let t = match value_type(listing, base_type.0) {
                    Ok(t) => t,
                    Err(m) => return GimliResult::Limit(m),
                };
                let read = ctx
                    .read_memory(0, address as u128 * 8, size as u64 * 8)
                    .map_err(|f| f.at("gimli").to_string());
                match read.map(|b| b.low_u64()) {
                    Ok(raw) => e.resume_with_memory(value_of(t, raw)),
                    Err(m) => return GimliResult::Limit(m),
                }
            }
            EvaluationResult::RequiresRegister {
                register,
                base_type,
            } => {
                let t = match value_type(listing, base_type.0) {
                    Ok(t) => t,
                    Err(m) => return GimliResult::Limit(m),
                };
                let n = register.0 as u32;
                let Some(size) = ctx.register_bits(n) else {
                    return GimliResult::Limit(format!("register {n} not in the context"));
                };
                let want = match t {
                    ValueType::Generic | ValueType::I64 | ValueType::U64 | ValueType::F64 => 64,
                    ValueType::I32 | ValueType::U32 | ValueType::F32 => 32,
                    ValueType::I16 | ValueType::U16 => 16,
                    _ => 8,
                };
                let read = ctx
                    .read_register(n, 0, size.min(want))
                    .map_err(|f| f.at("gimli").to_string());
                match read.map(|b| b.low_u64()) {
                    Ok(raw) => e.resume_with_register(value_of(t, raw)),
                    Err(m) => return GimliResult::Limit(m),
                }
            }
            EvaluationResult::RequiresBaseType(off) => match value_type(listing, off.0) {
                Ok(t) => e.resume_with_base_type(t),
                Err(m) => return GimliResult::Limit(m),
            },
            EvaluationResult::RequiresRelocatedAddress(a) => e.resume_with_relocated_address(a),
            other => return GimliResult::Limit(format!("gimli asks for {other:?}")),
        };
    }
    let mut pieces = Vec::new();
    for p in e.result() {
        let location = match p.location {
            Location::Empty => PieceLocation::Undefined,
            Location::Register { register } => PieceLocation::Register(register.0 as u32),
            Location::Address { address } => PieceLocation::Memory(address),
            Location::Value { value } => PieceLocation::Value(bits_of(value)),
            Location::Bytes { value } => PieceLocation::Bytes(value.slice().to_vec()),
            Location::ImplicitPointer { .. } => {
                return GimliResult::Limit("gimli: implicit pointers name a DIE".into())
            }
        };
        pieces.push(Piece {
            size_in_bits: p.size_in_bits,
            bit_offset: p.bit_offset.unwrap_or(0),
            location,
        });
    }
    match location_of_pieces(&pieces, ctx) {
        Ok(l) => GimliResult::Location(l),
        Err(d) => GimliResult::Error(d.to_string()),
    }
}

/// How gimli's evaluation of a plain DWARF 5 lowering compares with
/// dioptra's DWARF evaluator in one context.
#[derive(Clone, Debug, PartialEq)]
pub enum Differential {
    /// The same location over the lowered bits.
    Agree,
    BothFail,
    /// Outside gimli's documented limits or the context (never agreement).
    Limit(String),
    /// dioptra's evaluator needs something the context does not give.
    Unsupported,
    /// A listed, understood difference ([`known_difference`]).
    Known(&'static str),
    /// Anything else: a bug on one side, to be listed.
    Disagree {
        dioptra: String,
        gimli: String,
    },
}

/// Evaluates `l`'s listing with dioptra's DWARF evaluator and with gimli in
/// `ctx` and classifies the outcome.
pub fn differential(l: &Lowered, ctx: &ConcreteContext) -> Differential {
    use dioptra_semantics::diag::Outcome;
    use dioptra_semantics::dwarf::eval::{evaluate as ours_eval, Env};
    use dioptra_semantics::location::same_location;
    // gimli's documented limit: an empty expression (DWARF 5's
    // "undefined") is a stack underflow there.
    if l.listing.ops.is_empty() {
        return Differential::Limit("gimli: an empty expression is an error".into());
    }
    let env = Env::new(ctx, &l.listing.unit);
    let ours = ours_eval(&l.listing.ops, env);
    let theirs = evaluate(&l.listing, ctx);
    let readable = |a: &LocDesc| a.offset_by(ctx, &num_bigint::BigInt::from(0)).is_ok();
    match (&ours, &theirs) {
        (_, GimliResult::Limit(why)) => {
            Differential::Limit(why.split(':').take(2).collect::<Vec<_>>().join(":"))
        }
        (Err(d), _) if d.outcome == Outcome::Unsupported => Differential::Unsupported,
        (Ok(a), GimliResult::Location(b))
            if readable(a) && same_location(a, b, l.offset + l.bits) =>
        {
            Differential::Agree
        }
        (Err(_), GimliResult::Error(_)) => Differential::BothFail,
        _ => match known_difference(&ours, &theirs, l) {
            Some(cause) => Differential::Known(cause),
            None => Differential::Disagree {
                dioptra: match &ours {
                    Ok(l) => l.to_string(),
                    Err(d) => d.to_string(),
                },
                gimli: format!("{theirs:?}"),
            },
        },
    }
}

/// The understood floating-point differences between gimli and dioptra,
/// recognised from the two results:
///
/// * gimli's `Value::convert` turns every integer into floating point through
///   `to_u64` and `u64 as f32`/`as f64`, so a negative signed value converts
///   as if it were unsigned (-3 becomes 1.8e19). DWARF 5 converts the value
///   of the base type; this is a gimli bug.
/// * gimli saturates floating point to integer (Rust's `as`) where dioptra
///   reports `out-of-range` (D-dwarf-convert).
/// * gimli's 0/0 is the machine's NaN (0xffc00000 on x86) where dioptra's is
///   0x7fc00000 (D-nan-canonical).
pub fn known_difference(
    ours: &Result<LocDesc, dioptra_semantics::Diag>,
    theirs: &GimliResult,
    l: &Lowered,
) -> Option<&'static str> {
    let has = |enc| {
        l.listing
            .unit
            .base_types
            .values()
            .any(|b| b.encoding == enc)
    };
    if !has(gimli::DW_ATE_float) {
        return None;
    }
    match (ours, theirs) {
        (Err(d), GimliResult::Location(_)) if d.reason == "out-of-range" => {
            Some("gimli saturates float to integer (D-dwarf-convert)")
        }
        (Ok(a), GimliResult::Location(b)) => {
            let mut causes = Vec::new();
            explain(a, b, has(gimli::DW_ATE_signed), &mut causes)?;
            causes.first().copied()
        }
        _ => None,
    }
}

/// Walks two locations of the same shape; every pair of implicit values
/// that differ must be a known float difference (pushed to `causes`).
/// `None` when anything else differs.
fn explain(a: &LocDesc, b: &LocDesc, signed: bool, causes: &mut Vec<&'static str>) -> Option<()> {
    let ([x], [y]) = (a.singles(), b.singles()) else {
        return (a == b).then_some(());
    };
    if x.offset != y.offset {
        return None;
    }
    match (&*x.storage, &*y.storage) {
        (Storage::Composite { parts: p, .. }, Storage::Composite { parts: q, .. })
            if p.len() == q.len() =>
        {
            for (p, q) in p.iter().zip(q) {
                if p.bits != q.bits {
                    return None;
                }
                explain(&p.loc, &q.loc, signed, causes)?;
            }
            Some(())
        }
        (Storage::Implicit(u), Storage::Implicit(v)) if u == v => Some(()),
        (Storage::Implicit(u), Storage::Implicit(v)) if u.width() == v.width() => {
            let float = |bits: &Bits| match bits.width() {
                32 => Some(f32::from_bits(bits.low_u64() as u32) as f64),
                64 => Some(f64::from_bits(bits.low_u64())),
                _ => None,
            };
            // A float reinterpreted as an integer and converted to the
            // generic type (zero-extended) is still recognised as a float.
            let (f, g) = if u.width() == 64 && (u.low_u64() | v.low_u64()) >> 32 == 0 {
                let low = |b: &Bits| f32::from_bits(b.low_u64() as u32) as f64;
                (low(u), low(v))
            } else {
                (float(u)?, float(v)?)
            };
            if f.is_nan() && g.is_nan() {
                causes.push("NaN sign or payload (D-nan-canonical)");
            } else if signed && f < 0.0 && g >= 9.2e18 {
                causes.push("gimli converts signed integers to float as unsigned");
            } else {
                return None;
            }
            Some(())
        }
        _ => (x == y).then_some(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dioptra_semantics::context::ConcreteContext;
    use dioptra_semantics::dwarf::eval::{evaluate as ours, Env};
    use dioptra_semantics::location::read;

    /// The gimli difference listed in the README: `DW_OP_convert` of a
    /// negative signed value to floating point. DWARF 5 converts the value
    /// (-3 becomes -3.0); gimli goes through `u64` and gives 2^64 - 3.
    #[test]
    fn gimli_converts_a_negative_signed_value_to_float_as_unsigned() {
        let listing = Listing::parse(
            "DW_OP_constu 0xfffffffffffffffd, DW_OP_reinterpret 0x2, DW_OP_convert 0x1, DW_OP_stack_value\n\
             0x1: DW_TAG_base_type DW_ATE_float 4 \"float\"\n\
             0x2: DW_TAG_base_type DW_ATE_signed 8 \"long\"",
            Encoding::default(),
        )
        .unwrap();
        let ctx = ConcreteContext::default();
        let float = |loc| f32::from_bits(read(&ctx, loc, 32).unwrap().low_u64() as u32);
        let env = Env {
            ctx: &ctx,
            unit: &listing.unit,
            enc: Encoding::default(),
            entry: None,
            pc: None,
            frame: Default::default(),
        };
        let mine = ours(&listing.ops, env).unwrap();
        assert_eq!(float(&mine), -3.0);
        let GimliResult::Location(theirs) = evaluate(&listing, &ctx) else {
            panic!("gimli did not evaluate the listing");
        };
        assert_eq!(float(&theirs), 18446744073709551613u64 as f32);
    }

    /// gimli refuses DW_OP_deref_type of a base type wider than 8 bytes
    /// (its values are at most 8 bytes): a limit, not a disagreement. A
    /// DW_OP_deref_size that wide is invalid DWARF, an error on both sides.
    #[test]
    fn a_wide_deref_type_is_a_gimli_limit_and_a_wide_deref_size_an_error() {
        let ctx = ConcreteContext::parse(
            "(context (memory 0 0x10000 \"01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10\"))",
        )
        .unwrap();
        let typed = Listing::parse(
            "DW_OP_addr 0x10000, DW_OP_deref_type 0x10 0x1, DW_OP_stack_value\n\
             0x1: DW_TAG_base_type DW_ATE_unsigned 16 \"__u128\"",
            Encoding::default(),
        )
        .unwrap();
        match evaluate(&typed, &ctx) {
            GimliResult::Limit(why) => assert!(why.contains("wider than 8 bytes"), "{why}"),
            other => panic!("{other:?}"),
        }
        let sized = Listing::parse(
            "DW_OP_addr 0x10000, DW_OP_deref_size 0x10, DW_OP_stack_value",
            Encoding::default(),
        )
        .unwrap();
        assert!(matches!(evaluate(&sized, &ctx), GimliResult::Error(_)));
    }

    /// The signed-to-float difference is recognised after the float is
    /// reinterpreted as an integer and zero-extended to the generic type
    /// (`gimli-agrees-on-plain-dwarf5`, seed 2).
    #[test]
    fn the_signed_to_float_difference_is_recognised_through_a_reinterpret() {
        use crate::lower::{lower, Target};
        let e = dioptra_semantics::text::parse_expr(
            "!DIExpr(DIOpConstant(i1 1), DIOpConvert(float), DIOpReinterpret(i32))",
        )
        .unwrap();
        let ctx = ConcreteContext::default();
        let l = lower(&e, &ctx, Target::Dwarf5).unwrap();
        assert_eq!(
            differential(&l, &ctx),
            Differential::Known("gimli converts signed integers to float as unsigned")
        );
    }
}
