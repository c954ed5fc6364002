//! gimli's DWARF expression evaluator (`gimli::Evaluation`) as an
//! implementation under test of dioptra's conformance corpus.
//!
//! This is what a DWARF consumer's project writes to use dioptra as a
//! `cargo test` oracle: one `impl Implementation` that answers the
//! questions it can -- here only `eval_dwarf`, since gimli evaluates DWARF
//! and knows nothing of DIOp expressions -- using nothing but the public
//! API (`dioptra_oracle::script::api`). It is written apart from dioptra's
//! own gimli harness (`dioptra_oracle::diff::gimli`, which recognises
//! gimli's known differences): an implementation under test must not share
//! code with the oracle that judges it.

use dioptra_oracle::script::api::{DwarfQuestion, Implementation, Piece, PieceLocation, Refusal};
use dioptra_semantics::bits::Bits;
use dioptra_semantics::diag::Outcome;
use gimli::{EndianSlice, EvaluationResult, LittleEndian, Location, Value, ValueType};

/// gimli, as an implementation under test.
pub struct Gimli;

impl Implementation for Gimli {
    fn eval_dwarf(&mut self, q: &DwarfQuestion) -> Option<Result<Vec<Piece>, Refusal>> {
        Some(evaluate(q))
    }
}

/// gimli stops after this many requests for memory, registers or types (an
/// expression with a loop never completes otherwise).
const MAX_REQUESTS: usize = 100_000;

fn unsupported(why: impl Into<String>) -> Refusal {
    Refusal::new(
        Outcome::Unsupported,
        format!("gimli: unsupported: {}", why.into()),
    )
}

fn failed(e: gimli::Error) -> Refusal {
    Refusal::new(Outcome::EvalError, format!("gimli: error: {e}"))
}

/// The value type of a base type's DIE (0: the generic type).
fn value_type(q: &DwarfQuestion, die: usize) -> Result<ValueType, Refusal> {
    if die == 0 {
        return Ok(ValueType::Generic);
    }
    let b = q
        .base_type(die as u64)
        .ok_or_else(|| unsupported(format!("no base type at 0x{die:x}")))?;
    ValueType::from_encoding(gimli::DwAte(b.encoding), b.byte_size).ok_or_else(|| {
        unsupported(format!(
            "{}-byte {} values",
            b.byte_size,
            gimli::DwAte(b.encoding)
        ))
    })
}

/// Bytes as a value of type `t` (zero-extended to its size; the generic
/// type is an address-sized integer, which `Value::parse` does not read).
fn value_of(t: ValueType, mut bytes: Vec<u8>) -> Result<Value, Refusal> {
    bytes.resize(8, 0);
    if t == ValueType::Generic {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(&bytes[..8]);
        return Ok(Value::Generic(u64::from_le_bytes(raw)));
    }
    Value::parse(t, EndianSlice::new(&bytes, LittleEndian)).map_err(failed)
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

/// Runs gimli's evaluation, answering its requests from the question.
fn evaluate(q: &DwarfQuestion) -> Result<Vec<Piece>, Refusal> {
    let encoding = gimli::Encoding {
        format: gimli::Format::Dwarf32,
        version: 5,
        address_size: 8,
    };
    if q.bytes.is_empty() {
        // DWARF 5 Section 2.6.1.1.1: an empty location description means
        // the object is not present; gimli reports a stack underflow.
        return Err(unsupported("an empty expression is an error in gimli"));
    }
    // gimli's values are at most 8 bytes (`ValueType`): a typed operation
    // on a wider base type (an x87 or binary128 float, an i128) is refused
    // as an invalid size, which is gimli's limit, not the expression's.
    if let Some(b) = q.base_types().into_iter().find(|b| b.byte_size > 8) {
        return Err(unsupported(format!(
            "{}-byte base type `{}`: gimli's values are at most 8 bytes",
            b.byte_size, b.name
        )));
    }
    let mut e = gimli::Expression(EndianSlice::new(q.bytes, LittleEndian)).evaluation(encoding);
    if let Some(a) = q.object_address() {
        e.set_object_address(a);
    }
    let mut r = e.evaluate();
    for _ in 0..MAX_REQUESTS {
        r = match r.map_err(failed)? {
            EvaluationResult::Complete => {
                return e.result().iter().map(piece).collect();
            }
            EvaluationResult::RequiresMemory {
                address,
                size,
                space: None,
                base_type,
            } => {
                let t = value_type(q, base_type.0)?;
                let bytes = q
                    .memory(address, u64::from(size))
                    .ok_or_else(|| unsupported(format!("memory at 0x{address:x}")))?;
                e.resume_with_memory(value_of(t, bytes)?)
            }
            EvaluationResult::RequiresRegister {
                register,
                base_type,
            } => {
                let t = value_type(q, base_type.0)?;
                let bytes = q
                    .register(u32::from(register.0))
                    .ok_or_else(|| unsupported(format!("register {}", register.0)))?;
                e.resume_with_register(value_of(t, bytes)?)
            }
            EvaluationResult::RequiresBaseType(die) => {
                e.resume_with_base_type(value_type(q, die.0)?)
            }
            EvaluationResult::RequiresRelocatedAddress(a) => e.resume_with_relocated_address(a),
            other => return Err(unsupported(format!("{other:?}"))),
        };
    }
    Err(unsupported("too many requests"))
}

/// One of gimli's pieces in the API's terms.
fn piece(p: &gimli::Piece<EndianSlice<LittleEndian>>) -> Result<Piece, Refusal> {
    let location = match &p.location {
        Location::Empty => PieceLocation::Undefined,
        Location::Register { register } => PieceLocation::Register(u32::from(register.0)),
        Location::Address { address } => PieceLocation::Memory(*address),
        Location::Value { value } => PieceLocation::Value(bits_of(*value)),
        Location::Bytes { value } => PieceLocation::Bytes(value.slice().to_vec()),
        Location::ImplicitPointer { .. } => {
            return Err(unsupported(
                "implicit pointers name a DIE gimli does not evaluate",
            ))
        }
    };
    Ok(Piece {
        size_in_bits: p.size_in_bits,
        bit_offset: p.bit_offset.unwrap_or(0),
        location,
    })
}
