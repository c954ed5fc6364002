//! Parser for types, literals, operations and expressions, in both
//! spellings (`!DIExpr(...)`, `!DIExpression(DIOp...)`) and as a bare op list.

use super::lex::{point, Tok, Tokens};
use crate::diag::Diag;
use crate::limits::*;
use crate::syntax::{Expr, Literal, Op, Spelling};
use crate::types::Type;
use crate::value::{f64_to_float, round_f64};
use num_bigint::BigInt;

/// Parses an expression: `!DIExpr(...)`, `!DIExpression(...)` or a bare op list.
pub fn parse_expr(text: &str) -> Result<Expr, Diag> {
    let mut t = Tokens::new(text)?;
    let bang = t.eat('!');
    let spelling = match t.peek() {
        Some(Tok::Ident(w)) if w == "DIExpr" && t.peek2() == Some(Tok::Punct('(')) => {
            Spelling::DIExpr
        }
        Some(Tok::Ident(w)) if w == "DIExpression" && t.peek2() == Some(Tok::Punct('(')) => {
            Spelling::DIExpression
        }
        _ if bang => return Err(t.expected("`DIExpr(` or `DIExpression(` after `!`")),
        _ => Spelling::Bare,
    };
    let ops = if spelling == Spelling::Bare {
        op_list(&mut t, None)?
    } else {
        t.advance();
        t.expect('(')?;
        let ops = op_list(&mut t, Some(')'))?;
        t.expect(')')?;
        ops
    };
    if !t.at_end() {
        return Err(t.expected("the end of the expression"));
    }
    Ok(Expr { spelling, ops })
}

fn op_list(t: &mut Tokens, close: Option<char>) -> Result<Vec<Op>, Diag> {
    let mut ops = Vec::new();
    if close.is_some_and(|c| t.peek() == Some(Tok::Punct(c))) || t.at_end() {
        return Ok(ops);
    }
    loop {
        if ops.len() >= MAX_OPS {
            return Err(t.err(Diag::malformed(
                "DIExpr",
                "too-long",
                format!("more than {MAX_OPS} operations"),
            )));
        }
        ops.push(op(t)?);
        if !t.eat(',') {
            return Ok(ops);
        }
    }
}

/// Parses one operation such as `DIOpArg(0, i32)`.
pub fn op(t: &mut Tokens) -> Result<Op, Diag> {
    let at = t.here();
    let name = match t.advance() {
        Some(Tok::Ident(n)) => n,
        _ => {
            t.i = t.i.saturating_sub(1);
            return Err(t.expected("an operation"));
        }
    };
    if name.starts_with("DW_OP_") {
        return Err(point(
            t.text,
            at,
            Diag::unsupported(
                "DIExpression",
                "classic-expression",
                format!("`{name}` is a classic DW_OP expression operation; this is a DIOp expression parser"),
            ),
        ));
    }
    let known = Op::NAMES.contains(&name);
    if !known {
        return Err(point(
            t.text,
            at,
            Diag::malformed(
                "Parse",
                "unknown-op",
                format!("`{name}` is not a DIOp operation"),
            ),
        ));
    }
    t.expect('(')?;
    let args_at = t.here();
    let arity = |t: &Tokens, want: &str| {
        point(
            t.text,
            args_at,
            Diag::malformed(name, "wrong-arity", format!("`{name}` takes ({want})")),
        )
    };
    let n = name;
    let op = match n {
        "DIOpReferrer" | "DIOpTypeObject" | "DIOpConvert" | "DIOpZExt" | "DIOpSExt"
        | "DIOpReinterpret" | "DIOpBitOffset" | "DIOpByteOffset" | "DIOpDeref" | "DIOpPushLane" => {
            if t.peek() == Some(Tok::Punct(')')) {
                return Err(arity(t, "T:type"));
            }
            let ty = parse_type_at(t)?;
            match n {
                "DIOpReferrer" => Op::Referrer(ty),
                "DIOpTypeObject" => Op::TypeObject(ty),
                "DIOpConvert" => Op::Convert(ty),
                "DIOpZExt" => Op::ZExt(ty),
                "DIOpSExt" => Op::SExt(ty),
                "DIOpReinterpret" => Op::Reinterpret(ty),
                "DIOpBitOffset" => Op::BitOffset(ty),
                "DIOpByteOffset" => Op::ByteOffset(ty),
                "DIOpDeref" => Op::Deref(ty),
                _ => Op::PushLane(ty),
            }
        }
        "DIOpArg" | "DIOpComposite" => {
            if !matches!(t.peek(), Some(Tok::Num(_))) || t.peek2() != Some(Tok::Punct(',')) {
                return Err(arity(t, "N:unsigned, T:type"));
            }
            let k = t.unsigned("N", u32::MAX as u64)? as u32;
            t.expect(',')?;
            let ty = parse_type_at(t)?;
            if n == "DIOpArg" {
                Op::Arg(k, ty)
            } else {
                Op::Composite(k, ty)
            }
        }
        "DIOpConstant" => {
            if t.peek() == Some(Tok::Punct(')')) {
                return Err(arity(t, "T:type V:literal"));
            }
            let ty = parse_type_at(t)?;
            if t.peek() == Some(Tok::Punct(')')) {
                return Err(arity(t, "T:type V:literal"));
            }
            let v = literal(t, &ty, 0)?;
            Op::Constant(ty, v)
        }
        "DIOpExtend" | "DIOpAddrOf" => {
            if !matches!(t.peek(), Some(Tok::Num(_))) || t.peek2() != Some(Tok::Punct(')')) {
                return Err(arity(
                    t,
                    if n == "DIOpExtend" {
                        "N:unsigned"
                    } else {
                        "N:addrspace"
                    },
                ));
            }
            if n == "DIOpExtend" {
                Op::Extend(t.unsigned("N", u32::MAX as u64)? as u32)
            } else {
                Op::AddrOf(t.unsigned("the address space", MAX_ADDRSPACE)? as u32)
            }
        }
        "DIOpFragment" => {
            if !matches!(t.peek(), Some(Tok::Num(_))) || t.peek2() != Some(Tok::Punct(',')) {
                return Err(arity(t, "O:unsigned, S:unsigned"));
            }
            let o = t.unsigned("O", u64::MAX)?;
            t.expect(',')?;
            let s = t.unsigned("S", u64::MAX)?;
            Op::Fragment(o, s)
        }
        _ => {
            if t.peek() != Some(Tok::Punct(')')) {
                return Err(arity(t, ""));
            }
            match n {
                "DIOpSelect" => Op::Select,
                "DIOpRead" => Op::Read,
                "DIOpAdd" => Op::Add,
                "DIOpSub" => Op::Sub,
                "DIOpMul" => Op::Mul,
                "DIOpDiv" => Op::Div,
                "DIOpLShr" => Op::LShr,
                "DIOpAShr" => Op::AShr,
                "DIOpShl" => Op::Shl,
                "DIOpAnd" => Op::And,
                "DIOpOr" => Op::Or,
                "DIOpXor" => Op::Xor,
                _ => Op::Mod,
            }
        }
    };
    if t.peek() != Some(Tok::Punct(')')) {
        return Err(point(
            t.text,
            t.here(),
            Diag::malformed(
                n.to_string(),
                "wrong-arity",
                format!("too many parameters for `{n}`"),
            ),
        ));
    }
    t.advance();
    Ok(op)
}

/// An identified struct type's name as LLVM writes it: `%struct.foo`,
/// `%0`, or quoted, `%"class.std::vector"`.
pub fn is_type_name(w: &str) -> bool {
    let Some(rest) = w.strip_prefix('%') else {
        return false;
    };
    if let Some(q) = rest.strip_prefix('"') {
        return q.len() > 1 && q.ends_with('"') && !q[..q.len() - 1].contains('"');
    }
    !rest.is_empty()
        && rest
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-'))
}

/// Parses a whole text as one type.
pub fn parse_type(text: &str) -> Result<Type, Diag> {
    let mut t = Tokens::new(text)?;
    let ty = parse_type_at(&mut t)?;
    if !t.at_end() {
        return Err(t.expected("the end of the type"));
    }
    Ok(ty)
}

pub fn parse_type_at(t: &mut Tokens) -> Result<Type, Diag> {
    ty(t, 0)
}

fn too_deep(t: &Tokens) -> Diag {
    t.err(Diag::malformed(
        "Type",
        "too-deep",
        format!("types nested deeper than {MAX_TYPE_DEPTH}"),
    ))
}

fn ty(t: &mut Tokens, depth: usize) -> Result<Type, Diag> {
    if depth > MAX_TYPE_DEPTH {
        return Err(too_deep(t));
    }
    let at = t.here();
    let save = t.i;
    let mut base = match t.advance() {
        Some(Tok::Ident(w)) => match w {
            "half" => Type::Half,
            "bfloat" => Type::BFloat,
            "float" => Type::Float,
            "double" => Type::Double,
            "ptr" => Type::Ptr {
                addrspace: opt_addrspace(t)?,
                pointee: None,
            },
            // `void (i8*)*`: a function type's return type, which the
            // pointer below does not keep.
            "void" if t.peek() == Some(Tok::Punct('(')) => Type::Int(1),
            "void" => {
                return Err(point(
                    t.text,
                    at,
                    Diag::malformed(
                        "Type",
                        "unknown-type",
                        "`void` is a type only as a function's return type (`void (i8)*`)",
                    ),
                ))
            }
            // DECISION (D-float-formats): every LLVM floating-point type is
            // modelled, with APFloat's semantics (`crate::float`).
            "x86_fp80" => Type::X86Fp80,
            "fp128" => Type::Fp128,
            "ppc_fp128" => Type::PpcFp128,
            // First-class LLVM types no location is described in.
            "x86_mmx" | "x86_amx" | "token" | "label" | "metadata" => {
                return Err(point(
                    t.text,
                    at,
                    Diag::unsupported("Type", "unmodelled-type", format!("`{w}` is not modelled")),
                ))
            }
            _ if is_type_name(w) => Type::Named(crate::types::type_name(w)),
            _ if w.starts_with('i')
                && w.len() > 1
                && w[1..].bytes().all(|c| c.is_ascii_digit()) =>
            {
                match w[1..].parse::<u64>() {
                    Ok(0) => {
                        return Err(point(
                            t.text,
                            at,
                            Diag::malformed("Type", "zero-width", "`i0` is not a type"),
                        ))
                    }
                    Ok(n) if n <= MAX_INT_WIDTH => Type::Int(n),
                    _ => {
                        return Err(point(
                            t.text,
                            at,
                            Diag::malformed(
                                "Type",
                                "too-wide",
                                format!("`{w}`: integer types have at most {MAX_INT_WIDTH} bits"),
                            ),
                        ))
                    }
                }
            }
            _ => {
                return Err(point(
                    t.text,
                    at,
                    Diag::malformed("Type", "unknown-type", format!("`{w}` is not an LLVM type")),
                ))
            }
        },
        Some(Tok::Punct('<')) => {
            if t.eat('{') {
                let fields = fields(t, depth)?;
                t.expect('}')?;
                t.expect('>')?;
                Type::Struct {
                    packed: true,
                    fields: fields.into(),
                }
            } else {
                let n = t.unsigned("a vector element count", u64::MAX)?;
                if n == 0 || n > MAX_VECTOR_COUNT {
                    return Err(point(
                        t.text,
                        at,
                        Diag::malformed(
                            "Type",
                            "bad-vector-count",
                            format!("vectors have 1..={MAX_VECTOR_COUNT} elements, found {n}"),
                        ),
                    ));
                }
                if !t.eat_ident("x") {
                    return Err(t.expected("`x`"));
                }
                let elem_at = t.here();
                let elem = ty(t, depth + 1)?;
                if !elem.is_scalar() {
                    return Err(point(
                        t.text,
                        elem_at,
                        Diag::malformed(
                            "Type",
                            "bad-vector-element",
                            format!("`{elem}`: vector elements are integral, floating-point or pointer types"),
                        ),
                    ));
                }
                t.expect('>')?;
                Type::Vector {
                    count: n,
                    elem: std::sync::Arc::new(elem),
                }
            }
        }
        Some(Tok::Punct('{')) => {
            let fields = fields(t, depth)?;
            t.expect('}')?;
            Type::Struct {
                packed: false,
                fields: fields.into(),
            }
        }
        // `[N x T]`: any count LLVM accepts (`[0 x i8]` included; a
        // zero-size type is refused where a value of it would be made).
        Some(Tok::Punct('[')) => {
            let n = t.unsigned("an array element count", u64::MAX)?;
            if !t.eat_ident("x") {
                return Err(t.expected("`x`"));
            }
            let elem = ty(t, depth + 1)?;
            t.expect(']')?;
            Type::Array {
                count: n,
                elem: std::sync::Arc::new(elem),
            }
        }
        _ => {
            t.i = save;
            return Err(t.expected("a type"));
        }
    };
    // A function type, `i32 (i8*, ...)` or `%T* (%T*, ...)` (its return
    // type a pointer), is a type only behind a pointer (it has no size);
    // its pointer is a pointer like any other (D-typed-pointer-same),
    // written back as `ptr`. Typed-pointer suffixes, `*` and
    // `addrspace(N)*`, are repeatable, and a function type's parameters may
    // follow any of them (a function returning a function pointer).
    let mut function = false;
    let mut levels = 0;
    loop {
        if !function && t.peek() == Some(Tok::Punct('(')) {
            t.advance();
            if !t.eat(')') {
                loop {
                    if !t.eat_ident("...") {
                        ty(t, depth + 1)?;
                    }
                    if !t.eat(',') {
                        break;
                    }
                }
                t.expect(')')?;
            }
            function = true;
            continue;
        }
        let space = if t.eat('*') {
            0
        } else if matches!(t.peek(), Some(Tok::Ident(w)) if w == "addrspace") {
            let n = opt_addrspace(t)?;
            t.expect('*')?;
            n
        } else {
            break;
        };
        levels += 1;
        if depth + levels > MAX_TYPE_DEPTH {
            return Err(too_deep(t));
        }
        base = Type::Ptr {
            addrspace: space,
            pointee: (!std::mem::take(&mut function)).then(|| std::sync::Arc::new(base)),
        };
    }
    if function {
        return Err(point(
            t.text,
            at,
            Diag::malformed(
                "Type",
                "function-type",
                "a function type is a type here only behind a pointer (`i32 (i8)*`)",
            ),
        ));
    }
    Ok(base)
}

fn fields(t: &mut Tokens, depth: usize) -> Result<Vec<Type>, Diag> {
    let mut v = Vec::new();
    // DECISION (D-empty-struct): `{}` has no bits; no location can have that
    // type, so it is rejected where it is written.
    if t.peek() == Some(Tok::Punct('}')) {
        return Err(t.err(Diag::malformed(
            "Type",
            "empty-struct",
            "the empty struct `{}` has no bits and is not accepted",
        )));
    }
    loop {
        if v.len() >= MAX_STRUCT_FIELDS {
            return Err(t.err(Diag::malformed(
                "Type",
                "too-many-fields",
                format!("structs have at most {MAX_STRUCT_FIELDS} fields"),
            )));
        }
        v.push(ty(t, depth + 1)?);
        if !t.eat(',') {
            return Ok(v);
        }
    }
}

fn opt_addrspace(t: &mut Tokens) -> Result<u32, Diag> {
    if !t.eat_ident("addrspace") {
        return Ok(0);
    }
    t.expect('(')?;
    let n = t.unsigned("the address space", MAX_ADDRSPACE)? as u32;
    t.expect(')')?;
    Ok(n)
}

/// Parses `T V` (a typed literal) as a whole text, e.g. `i32 -1`.
pub fn parse_typed_literal(text: &str) -> Result<(Type, Literal), Diag> {
    let mut t = Tokens::new(text)?;
    let ty = parse_type_at(&mut t)?;
    let v = literal(&mut t, &ty, 0)?;
    if !t.at_end() {
        return Err(t.expected("the end of the literal"));
    }
    Ok((ty, v))
}

fn bad_literal(t: &Tokens, at: usize, reason: &'static str, msg: String) -> Diag {
    point(t.text, at, Diag::malformed("DIOpConstant", reason, msg))
}

/// A literal of type `ty`.
pub fn literal(t: &mut Tokens, ty: &Type, depth: usize) -> Result<Literal, Diag> {
    if depth > MAX_TYPE_DEPTH {
        return Err(too_deep(t));
    }
    let at = t.here();
    match t.peek() {
        Some(Tok::Ident(w)) => {
            t.advance();
            match w {
                "undef" => Ok(Literal::Undef),
                "poison" => Ok(Literal::Poison),
                "zeroinitializer" => Ok(Literal::ZeroInit),
                "null" => Ok(Literal::Null),
                "true" => Ok(Literal::Bool(true)),
                "false" => Ok(Literal::Bool(false)),
                _ if w.starts_with("c\"") => string_literal(t, at, w),
                _ if w.starts_with("u0x") || w.starts_with("s0x") => {
                    let v = BigInt::parse_bytes(&w.as_bytes()[3..], 16).ok_or_else(|| {
                        bad_literal(t, at, "bad-literal", format!("`{w}` is not a hex integer"))
                    })?;
                    let v = match (w.starts_with('s'), ty) {
                        (true, Type::Int(n)) => crate::bits::Bits::from_bigint(*n, &v).signed(),
                        _ => v,
                    };
                    Ok(Literal::Int(v))
                }
                _ => Err(bad_literal(
                    t,
                    at,
                    "bad-literal",
                    format!("`{w}` is not a literal"),
                )),
            }
        }
        Some(Tok::Num(s)) => {
            t.advance();
            if ty.is_float() {
                float_literal(t, at, ty, s)
            } else if s.contains(['.', 'e', 'E', 'x', 'X']) && !s.starts_with("0x")
                || s.starts_with("0x")
            {
                Err(bad_literal(
                    t,
                    at,
                    "literal-type-mismatch",
                    format!(
                        "`{s}` is not an integer literal (write u0x.. for hexadecimal integers)"
                    ),
                ))
            } else {
                if s.len() > MAX_DECIMAL_DIGITS {
                    return Err(bad_literal(
                        t,
                        at,
                        "bad-literal",
                        format!("decimal literals have at most {MAX_DECIMAL_DIGITS} digits; write wide values as u0x..."),
                    ));
                }
                BigInt::parse_bytes(s.as_bytes(), 10)
                    .map(Literal::Int)
                    .ok_or_else(|| {
                        bad_literal(t, at, "bad-literal", format!("`{s}` is not a number"))
                    })
            }
        }
        Some(Tok::Punct('<')) if t.peek2() == Some(Tok::Punct('{')) => {
            t.advance();
            t.advance();
            let v = elems(t, '}', depth)?;
            t.expect('}')?;
            t.expect('>')?;
            Ok(Literal::Struct {
                packed: true,
                fields: v,
            })
        }
        Some(Tok::Punct('<')) => {
            t.advance();
            let v = elems(t, '>', depth)?;
            t.expect('>')?;
            Ok(Literal::Vector(v))
        }
        Some(Tok::Punct('{')) => {
            t.advance();
            let v = elems(t, '}', depth)?;
            t.expect('}')?;
            Ok(Literal::Struct {
                packed: false,
                fields: v,
            })
        }
        Some(Tok::Punct('[')) => {
            t.advance();
            let v = elems(t, ']', depth)?;
            t.expect(']')?;
            Ok(Literal::Array(v))
        }
        _ => Err(t.expected("a literal")),
    }
}

/// `c"..."`: an `[N x i8]` literal as LLVM writes it, one byte per
/// character, `\XX` a byte in hexadecimal and `\\` a backslash.
fn string_literal(t: &Tokens, at: usize, w: &str) -> Result<Literal, Diag> {
    let body = &w.as_bytes()[2..w.len() - 1];
    let bad = || {
        bad_literal(
            t,
            at,
            "bad-literal",
            format!("`{w}`: a `\\` is followed by two hex digits or `\\`"),
        )
    };
    let mut bytes = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' {
            bytes.push(body[i]);
            i += 1;
        } else if body.get(i + 1) == Some(&b'\\') {
            bytes.push(b'\\');
            i += 2;
        } else {
            let hex = body.get(i + 1..i + 3).ok_or_else(bad)?;
            if !hex.iter().all(u8::is_ascii_hexdigit) {
                return Err(bad());
            }
            let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
            bytes.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            i += 3;
        }
    }
    if bytes.len() as u64 > MAX_VECTOR_COUNT {
        return Err(bad_literal(
            t,
            at,
            "bad-literal",
            "too many elements in an aggregate literal".into(),
        ));
    }
    Ok(Literal::Array(
        bytes
            .into_iter()
            .map(|b| (Type::Int(8), Literal::Int(BigInt::from(b))))
            .collect(),
    ))
}

fn elems(t: &mut Tokens, close: char, depth: usize) -> Result<Vec<(Type, Literal)>, Diag> {
    let mut v = Vec::new();
    if t.peek() == Some(Tok::Punct(close)) {
        return Ok(v);
    }
    loop {
        if v.len() as u64 >= MAX_VECTOR_COUNT {
            return Err(t.err(Diag::malformed(
                "DIOpConstant",
                "bad-literal",
                "too many elements in an aggregate literal",
            )));
        }
        let et = ty(t, depth + 1)?;
        let ev = literal(t, &et, depth + 1)?;
        v.push((et, ev));
        if !t.eat(',') {
            return Ok(v);
        }
    }
}

/// A floating-point literal of type `ty`, as LLVM reads it: a decimal, or
/// `0x` + 16 hex digits (the value as a double), `0xH` + 4 (half), `0xR` + 4
/// (bfloat); `x86_fp80`, `fp128` and `ppc_fp128` only as `0xK` + 20 (most
/// significant first), `0xL` + 32 and `0xM` + 32 (the low 64 bits first),
/// since LLVM reads a decimal or a `0x` double as a `double` constant and
/// refuses it for them. As in LLVM, the value must be exactly representable
/// in `ty`.
fn float_literal(t: &Tokens, at: usize, ty: &Type, s: &str) -> Result<Literal, Diag> {
    let hex_of = |h: &str, n: usize| {
        (h.len() == n && h.bytes().all(|c| c.is_ascii_hexdigit()))
            .then(|| u128::from_str_radix(h, 16).ok())
            .flatten()
    };
    let bad = |why: &str| bad_literal(t, at, "bad-literal", format!("`{s}`: {why}"));
    // The prefixed forms: the type each is for, its digits, and whether the
    // low 64 bits come first.
    let prefixed = [
        ("0xH", Type::Half, 4, false),
        ("0xR", Type::BFloat, 4, false),
        ("0xK", Type::X86Fp80, 20, false),
        ("0xL", Type::Fp128, 32, true),
        ("0xM", Type::PpcFp128, 32, true),
    ];
    for (prefix, for_ty, digits, low_first) in &prefixed {
        let Some(h) = s.strip_prefix(prefix) else {
            continue;
        };
        if ty != for_ty {
            return Err(bad_literal(
                t,
                at,
                "literal-type-mismatch",
                format!("`{s}` is a `{for_ty}` literal, not `{ty}`"),
            ));
        }
        let b = hex_of(h, *digits).ok_or_else(|| bad(&format!("expected {digits} hex digits")))?;
        return Ok(Literal::Float(if *low_first {
            b.rotate_left(64)
        } else {
            b
        }));
    }
    if let Some(form) = prefixed[2..].iter().find(|p| p.1 == *ty) {
        return Err(bad_literal(
            t,
            at,
            "literal-type-mismatch",
            format!(
                "`{s}` is a `double` constant; LLVM writes `{ty}` constants only as `{}` + {} hex digits",
                form.0, form.2
            ),
        ));
    }
    let v = if let Some(h) = s.strip_prefix("0x") {
        f64::from_bits(
            hex_of(h, 16).ok_or_else(|| bad("expected 16 hex digits (the value as a double)"))?
                as u64,
        )
    } else {
        let ok = s
            .bytes()
            .all(|c| c.is_ascii_digit() || b".eE+-".contains(&c));
        match s.parse::<f64>() {
            Ok(v) if ok => v,
            _ => return Err(bad("not a floating-point literal")),
        }
    };
    if v.is_nan() {
        return Ok(Literal::Float(round_f64(ty, v).into()));
    }
    f64_to_float(ty, v)
        .map(|b| Literal::Float(b.into()))
        .ok_or_else(|| {
            bad_literal(
                t,
                at,
                "inexact-literal",
                format!("`{s}` is not exactly representable as `{ty}` (LLVM rejects it too)"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(s: &str) -> String {
        parse_expr(s)
            .unwrap_or_else(|e| panic!("{s}: {e}"))
            .to_string()
    }

    #[test]
    fn both_spellings_and_bare_lists_round_trip() {
        for s in [
            "!DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref(i64))",
            "!DIExpression(DIOpArg(0, ptr addrspace(5)), DIOpDeref(i32))",
            "DIOpReferrer(i32), DIOpRead()",
            "!DIExpr(DIOpConstant(float 1.5), DIOpConstant(half 0xH7C00), DIOpConstant(i8 -1))",
            "!DIExpr(DIOpConstant(<2 x i16> <i16 1, i16 2>), DIOpConstant({ i8, i32 } { i8 1, i32 2 }))",
            "!DIExpr(DIOpArg(1, i32), DIOpArg(0, i32), DIOpComposite(2, i64), DIOpFragment(0, 64))",
            "!DIExpr(DIOpConstant(i64 undef), DIOpExtend(64), DIOpConstant(i64 5), DIOpSelect())",
            "!DIExpr(DIOpReferrer(ptr), DIOpAddrOf(5), DIOpDeref(i64 addrspace(5)* addrspace(1)*))",
            "!DIExpr(DIOpConstant(<{ i8, i8 }> <{ i8 1, i8 2 }>))",
        ] {
            assert_eq!(rt(s), s);
        }
        assert_eq!(rt("!DIExpr( DIOpAdd ( ) )"), "!DIExpr(DIOpAdd())");
        assert_eq!(
            rt("DIOpConstant(double 0x3FF0000000000000)"),
            "DIOpConstant(double 1.0)"
        );
        assert_eq!(
            rt("DIOpConstant(i32 u0xFFFFFFFF)"),
            "DIOpConstant(i32 4294967295)"
        );
    }

    /// A function type is a type only behind a pointer, whatever it
    /// returns (`void` included, as clang 14 writes a struct's function
    /// pointer field); the pointer is `ptr` (D-typed-pointer-same), and
    /// `void` is nothing else (`unknown-type`, as before, with why).
    #[test]
    fn function_pointers_are_pointers_whatever_they_return() {
        let opaque = |n| Type::Ptr {
            addrspace: n,
            pointee: None,
        };
        assert_eq!(parse_type("void (i8*, i8*)*").unwrap(), opaque(0));
        // A function returning a pointer (CPython's `PyObject *(*)(PyObject
        // *, PyObject *)` as clang 14 writes it), and one returning a
        // function pointer.
        assert_eq!(
            parse_type("%struct._object* (%struct._object*, %struct._object*)*").unwrap(),
            opaque(0)
        );
        assert_eq!(
            parse_type("i8* (i32, ...)* addrspace(3)*").unwrap(),
            Type::Ptr {
                addrspace: 3,
                pointee: Some(std::sync::Arc::new(opaque(0))),
            }
        );
        assert_eq!(parse_type("void ()* (i32)*").unwrap(), opaque(0));
        assert!(parse_type("i8* (i32) (i32)*").is_err());
        assert!(parse_type("i8* (i32)").is_err());
        assert_eq!(
            parse_type("void ()* addrspace(3)*").unwrap(),
            Type::Ptr {
                addrspace: 3,
                pointee: Some(std::sync::Arc::new(opaque(0))),
            }
        );
        assert_eq!(parse_type("i32 (i8, ...)*").unwrap(), opaque(0));
        for t in ["void", "void*", "{ void, i8 }"] {
            let e = parse_type(t).unwrap_err();
            assert!(e.matches("Type: unknown-type"), "{t}: {e}");
            assert!(e.message.contains("return type"), "{t}: {e}");
        }
        let e = parse_type("void (i8)").unwrap_err();
        assert!(e.matches("Type: function-type"), "{e}");
    }

    #[test]
    fn errors_have_prefix_and_caret() {
        let e = parse_expr("!DIExpr(DIOpAdd(), DIOpFoo())").unwrap_err();
        assert!(e.matches("Parse: unknown-op"), "{e}");
        assert!(e.message.contains("column 20"), "{e}");
        assert!(e.message.contains("\n                     ^"), "{e:?}");
        let e = parse_expr("DIOpArg(i32)").unwrap_err();
        assert!(e.matches("DIOpArg: wrong-arity"), "{e}");
        let e = parse_expr("DIOpAdd(i32)").unwrap_err();
        assert!(e.matches("DIOpAdd: wrong-arity"), "{e}");
        let e = parse_expr("DIOpReferrer(u64)").unwrap_err();
        assert!(e.matches("Type: unknown-type"), "{e}");
        let e = parse_expr("DIOpReferrer(i0)").unwrap_err();
        assert!(e.matches("Type: zero-width"), "{e}");
        let e = parse_expr("DIOpReferrer(i8388608)").unwrap_err();
        assert!(e.matches("Type: too-wide"), "{e}");
        let e = parse_expr("DIOpConstant(float 0.1)").unwrap_err();
        assert!(e.matches("DIOpConstant: inexact-literal"), "{e}");
        let e = parse_expr("!DIExpression(DW_OP_deref)").unwrap_err();
        assert!(e.matches("DIExpression: classic-expression"), "{e}");
        let e = parse_expr("!DIExpr(DIOpAdd()").unwrap_err();
        assert!(e.matches("Parse: unexpected-token"), "{e}");
        let deep = format!("DIOpReferrer({}i8{})", "{ ".repeat(1000), " }".repeat(1000));
        assert!(parse_expr(&deep).unwrap_err().matches("Type: too-deep"));
        let stars = format!("DIOpReferrer(i8{})", "*".repeat(100_000));
        assert!(parse_expr(&stars).unwrap_err().matches("Type: too-deep"));
    }
}
