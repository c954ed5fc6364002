//! Human-readable rendering of evaluation results.

use dioptra_semantics::bits::Bits;
use dioptra_semantics::types::Type;
use dioptra_semantics::value::{float_to_f64, float_value};

/// `0x0000000a` plus the value's reading in its type: unsigned and signed
/// decimal for integers, the number for floating point.
pub fn value_text(t: &Type, v: &Bits) -> String {
    let hex = format!("0x{}", v.hex());
    match t {
        // Decimal conversion is quadratic: only for widths people read.
        Type::Int(_) | Type::Ptr { .. } if v.width() > 4096 => hex,
        Type::Int(_) | Type::Ptr { .. } => {
            let (u, s) = (v.unsigned().to_string(), v.signed().to_string());
            if u == s || t.is_pointer() {
                format!("{hex} ({u})")
            } else {
                format!("{hex} ({u}, signed {s})")
            }
        }
        Type::X86Fp80 | Type::Fp128 | Type::PpcFp128 => {
            format!(
                "{hex} ({})",
                dioptra_semantics::float::text(t, float_value(v))
            )
        }
        _ if t.is_float() => format!("{hex} ({:?})", float_to_f64(t, v.low_u64())),
        _ => hex,
    }
}
