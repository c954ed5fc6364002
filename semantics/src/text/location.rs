//! The text syntax of location descriptions, used in context files, in
//! corpus assertions and in `dioptra eval` output.
//!
//! ```text
//! loc     ::= single | "{" single ("|" single)* "}"      ; a set of single locations
//! single  ::= storage ("+" BITS)?                         ; bit offset, default 0
//! storage ::= "mem" "(" ADDRSPACE "," BYTE-ADDRESS ")"    ; memory, at address * 8 bits
//!           | "reg" "(" DWARF-REGNO ")"
//!           | "imp" "(" WIDTH "," VALUE ")"              ; implicit value of WIDTH bits
//!           | "imp" "(" TYPE LITERAL ")"                 ; e.g. imp(i32 -1), imp(float 1.5)
//!           | "addr" "(" ADDRSPACE "," loc ")"           ; implicit address (DIOpAddrOf)
//!           | "undef"
//!           | "ent" "(" BITS "," NAME ")"               ; an LLVM entity: %x, $r0, @g, ^block
//!           | "comp" "(" BITS ":" loc ("," BITS ":" loc)* ")"   ; parts from offset 0 up
//! ```

use super::expr::{literal, parse_type_at};
use super::lex::{point, Tok, Tokens};
use crate::bits::Bits;
use crate::diag::Diag;
use crate::limits::{MAX_LOCATION_DEPTH, MAX_TYPE_BITS};
use crate::location::{LocDesc, Part, Single, Storage};
use crate::types::DataLayout;
use crate::value::literal_bits;
use num_bigint::BigUint;
use std::sync::Arc;

/// Parses a location description. The layout gives memory sizes (addresses
/// must be inside the address space) and implicit-address sizes.
pub fn parse_location(text: &str, dl: &DataLayout) -> Result<LocDesc, Diag> {
    let mut t = Tokens::new(text)?;
    let l = loc(&mut t, dl, 0)?;
    if !t.at_end() {
        return Err(t.expected("the end of the location description"));
    }
    Ok(l)
}

fn bad(t: &Tokens, at: usize, reason: &'static str, msg: String) -> Diag {
    point(t.text, at, Diag::malformed("Location", reason, msg))
}

fn loc(t: &mut Tokens, dl: &DataLayout, depth: u32) -> Result<LocDesc, Diag> {
    if depth > MAX_LOCATION_DEPTH {
        return Err(bad(
            t,
            t.here(),
            "too-deep",
            format!("locations nested deeper than {MAX_LOCATION_DEPTH}"),
        ));
    }
    if t.eat('{') {
        let mut v = vec![single(t, dl, depth)?];
        while t.eat('|') {
            v.push(single(t, dl, depth)?);
        }
        t.expect('}')?;
        Ok(LocDesc::new(v))
    } else {
        Ok(LocDesc::new(vec![single(t, dl, depth)?]))
    }
}

fn single(t: &mut Tokens, dl: &DataLayout, depth: u32) -> Result<Single, Diag> {
    let at = t.here();
    let word = match t.advance() {
        Some(Tok::Ident(w)) => w,
        _ => {
            t.i = t.i.saturating_sub(1);
            return Err(t.expected("a location (mem, reg, imp, addr, undef, comp)"));
        }
    };
    let mut base_offset: u128 = 0;
    let storage = match word {
        "undef" => Storage::Undefined,
        "mem" => {
            t.expect('(')?;
            let a = t.unsigned("the address space", crate::limits::MAX_ADDRSPACE)? as u32;
            t.expect(',')?;
            let addr_at = t.here();
            let addr = t.unsigned("the byte address", u64::MAX)?;
            let p = dl.memory_pointer_bits(a).map_err(|e| t.err(e))?;
            if p < 64 && addr >= 1u64 << p {
                return Err(bad(
                    t,
                    addr_at,
                    "address-out-of-range",
                    format!("0x{addr:x} is outside address space {a} ({p}-bit pointers)"),
                ));
            }
            t.expect(')')?;
            base_offset = addr as u128 * 8;
            Storage::Memory { addrspace: a }
        }
        "reg" => {
            t.expect('(')?;
            let r = t.unsigned("the register number", u32::MAX as u64)? as u32;
            t.expect(')')?;
            Storage::Register { number: r }
        }
        "imp" => {
            t.expect('(')?;
            let bits =
                if matches!(t.peek(), Some(Tok::Num(_))) && t.peek2() == Some(Tok::Punct(',')) {
                    let w_at = t.here();
                    let w = t.unsigned("the width in bits", MAX_TYPE_BITS)?;
                    if w == 0 {
                        return Err(bad(
                            t,
                            w_at,
                            "zero-width",
                            "implicit values have at least one bit".into(),
                        ));
                    }
                    t.expect(',')?;
                    let v_at = t.here();
                    let v = match t.advance() {
                        Some(Tok::Num(s)) => {
                            let parsed = if let Some(h) = s.strip_prefix("0x") {
                                BigUint::parse_bytes(h.as_bytes(), 16)
                            } else {
                                BigUint::parse_bytes(s.as_bytes(), 10)
                            };
                            parsed.ok_or_else(|| {
                                bad(
                                    t,
                                    v_at,
                                    "bad-value",
                                    format!("`{s}` is not an unsigned number"),
                                )
                            })?
                        }
                        _ => {
                            return Err(bad(
                                t,
                                v_at,
                                "bad-value",
                                "expected an unsigned number".into(),
                            ))
                        }
                    };
                    if v.bits() > w {
                        return Err(bad(
                            t,
                            v_at,
                            "bad-value",
                            format!("the value does not fit in {w} bits"),
                        ));
                    }
                    Bits::new(w, v)
                } else {
                    let ty_at = t.here();
                    let ty = parse_type_at(t)?;
                    if let Err(e) = dl.check_size(&ty) {
                        return Err(point(t.text, ty_at, e));
                    }
                    let lit = literal(t, &ty, 0)?;
                    match literal_bits(&ty, &lit, dl) {
                        Ok(Some(b)) => b,
                        Ok(None) => {
                            return Err(bad(
                                t,
                                ty_at,
                                "bad-value",
                                "write `undef` for the undefined location".into(),
                            ))
                        }
                        Err(e) => {
                            return Err(point(
                                t.text,
                                ty_at,
                                Diag::malformed("Location", "bad-value", e.to_string()),
                            ))
                        }
                    }
                };
            t.expect(')')?;
            Storage::Implicit(bits)
        }
        "addr" => {
            t.expect('(')?;
            let a = t.unsigned("the address space", crate::limits::MAX_ADDRSPACE)? as u32;
            t.expect(',')?;
            let target = loc(t, dl, depth + 1)?;
            t.expect(')')?;
            let d = target.depth() + 1;
            Storage::ImplicitAddress {
                addrspace: a,
                bits: dl.pointer_bits(a) as u64,
                target,
                depth: d,
            }
        }
        "ent" => {
            t.expect('(')?;
            let b_at = t.here();
            let bits = t.unsigned("the size in bits", MAX_TYPE_BITS)?;
            if bits == 0 {
                return Err(bad(
                    t,
                    b_at,
                    "zero-width",
                    "entities have at least one bit".into(),
                ));
            }
            t.expect(',')?;
            let name = match t.advance() {
                Some(Tok::Ident(n)) if n.len() > 1 && n.starts_with(['%', '$', '@', '^']) => n,
                _ => {
                    t.i = t.i.saturating_sub(1);
                    return Err(t.expected("an entity name (%x, $r0, @g, ^block)"));
                }
            };
            t.expect(')')?;
            Storage::Entity {
                name: name.to_string(),
                bits,
            }
        }
        "comp" => {
            t.expect('(')?;
            let mut parts = Vec::new();
            loop {
                let b_at = t.here();
                let bits = t.unsigned("the part size in bits", MAX_TYPE_BITS)?;
                if bits == 0 {
                    return Err(bad(
                        t,
                        b_at,
                        "zero-width",
                        "composite parts have at least one bit".into(),
                    ));
                }
                t.expect(':')?;
                let l = loc(t, dl, depth + 1)?;
                parts.push(Part { bits, loc: l });
                if !t.eat(',') {
                    break;
                }
            }
            t.expect(')')?;
            Storage::composite(parts)
        }
        _ => {
            return Err(bad(
                t,
                at,
                "unknown-storage",
                format!("`{word}` is not a location storage (mem, reg, imp, addr, undef, comp)"),
            ))
        }
    };
    let mut offset = base_offset;
    if t.eat('+') {
        let extra_at = t.here();
        let extra = t.unsigned("a bit offset", u64::MAX)?;
        offset += extra as u128;
        // A memory location starts inside its address space, bit offset
        // included (its end may reach past it: reading there is an
        // evaluation error, `offset-outside-storage`).
        if let Storage::Memory { addrspace } = storage {
            let p = dl.pointer_bits(addrspace);
            if p < 122 && offset >= (1u128 << p) * 8 {
                return Err(bad(
                    t,
                    extra_at,
                    "address-out-of-range",
                    format!(
                        "bit {offset} is past the end of address space {addrspace} ({p}-bit pointers)"
                    ),
                ));
            }
        }
    }
    Ok(Single {
        storage: Arc::new(storage),
        offset,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_parse_round_trip() {
        let dl = DataLayout::default();
        for s in [
            "mem(5, 0x100)",
            "mem(5, 0x100)+3",
            "reg(3)+8",
            "imp(32, 0x00000005)",
            "undef",
            "{mem(1, 0x10) | reg(3)}",
            "comp(32: reg(3), 32: {mem(5, 0x0) | reg(4)})",
            "addr(5, reg(7))",
            "ent(64, %x.addr)",
            "{ent(32, $r0) | ent(32, %frame.index.0)}",
        ] {
            let l = parse_location(s, &dl).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(l.to_string(), s);
        }
        let l = parse_location("imp(i16 -1)", &dl).unwrap();
        assert_eq!(l.to_string(), "imp(16, 0xffff)");
        let l = parse_location("mem(5, 0x10)+17", &dl).unwrap();
        assert_eq!(l.to_string(), "mem(5, 0x12)+1");
    }

    #[test]
    fn bad_locations_are_malformed() {
        let dl = DataLayout::default();
        let e = parse_location("mem(5, 0x100000000)", &dl).unwrap_err();
        assert!(e.matches("Location: address-out-of-range"), "{e}");
        // A bit offset cannot carry a location past the end of its space.
        let e = parse_location("mem(0, 0xffffffffffffffff)+8", &dl).unwrap_err();
        assert!(e.matches("Location: address-out-of-range"), "{e}");
        assert!(parse_location("mem(0, 0xffffffffffffffff)+7", &dl).is_ok());
        let e = parse_location("mem(5, 0xffffffff)+9", &dl).unwrap_err();
        assert!(e.matches("Location: address-out-of-range"), "{e}");
        let e = parse_location("disk(1)", &dl).unwrap_err();
        assert!(e.matches("Location: unknown-storage"), "{e}");
        let deep = format!("{}reg(1){}", "comp(8: ".repeat(10_000), ")".repeat(10_000));
        assert!(parse_location(&deep, &dl)
            .unwrap_err()
            .matches("Location: too-deep"));
    }
}
