//! `dioptra lower` and `dioptra dwarf-equiv`: the lowering of an expression
//! for a target, and whether some DWARF (bytes or a listing) describes the
//! same location as an expression, with the inputs where a context puts them.

use dioptra_semantics::context::{ConcreteContext, Context};
use dioptra_semantics::diag::Diag;
pub use dioptra_semantics::dwarf::law::{compare, compare_many, variants, Agreement, Tally};
pub use dioptra_semantics::dwarf::lower::{lower, Lowered, Target};
use dioptra_semantics::dwarf::unit::Listing;
use dioptra_semantics::dwarf::{decode, Encoding};
use dioptra_semantics::syntax::Expr;
use dioptra_semantics::wellformed::check;

/// Reads DWARF given as hex bytes (`91 08`, `0x91 0x08`, `9108`) or as an
/// llvm-dwarfdump-style listing (the expression, then DIE lines). DIEs can
/// only come with a listing.
pub fn parse_dwarf(text: &str, enc: Encoding) -> Result<Listing, Diag> {
    let t = text.trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    let hexy = !words.is_empty()
        && !t.contains("DW_")
        && words.iter().all(|w| {
            let w = w.strip_prefix("0x").unwrap_or(w);
            !w.is_empty() && w.len() % 2 == 0 && w.chars().all(|c| c.is_ascii_hexdigit())
        });
    if !hexy {
        return Listing::parse(t, enc);
    }
    let digits: String = words
        .iter()
        .map(|w| w.strip_prefix("0x").unwrap_or(w))
        .collect();
    let bytes = (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16))
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|e| Diag::malformed("DWARF", "bad-hex", e.to_string()))?;
    Ok(Listing {
        ops: decode(&bytes, enc)?,
        unit: Default::default(),
    })
}

/// What an external listing claims to describe: the expression's result, or
/// for a `DIOpFragment(O, S)` bits `O..O+S` of the variable.
pub fn described(expr: &Expr, ctx: &dyn Context, listing: Listing) -> Result<Lowered, Diag> {
    let checked = check(expr, &ctx.signature())?;
    let (offset, bits) = match checked.fragment {
        Some((o, s)) => (o, s),
        None => (0, ctx.layout().bitsizeof(&checked.result)),
    };
    Ok(Lowered {
        listing,
        offset,
        bits,
    })
}

/// Compares a listing with an expression in `ctx` and `n` variants.
pub fn dwarf_equiv(
    expr: &Expr,
    listing: Listing,
    ctx: &ConcreteContext,
    enc: Encoding,
    n: usize,
    seed: u64,
) -> Result<Tally, Diag> {
    let l = described(expr, ctx, listing)?;
    Ok(compare_many(expr, &l, ctx, enc, n, seed))
}
