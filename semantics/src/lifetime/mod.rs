//! Lifetimes: where a source variable is at each program point.
//!
//! Spec sections "High Level Structure", "Metadata" and "Intrinsics": objects
//! (`DIVariable`, `DIFragment`), lifetime segments (`DILifetime`) that are
//! bounded (started by `llvm.dbg.def`, ended by `llvm.dbg.kill` or an exit
//! block) or computed (never referenced by an intrinsic), code locations
//! (`DICode`, `llvm.dbg.label`), and the location of an object at a program
//! point.
//!
//! * [`listing`]: the module model and the parser of listings in the spec's
//!   style (LLVM IR with `llvm.dbg.*` calls, or pseudo MIR with `DBG_DEF`,
//!   `DBG_KILL`, `DBG_LABEL`);
//! * [`ranges`]: the program points where each bounded segment is active;
//! * [`wellformed`]: the metadata and intrinsic rules, one reason code each;
//! * [`locate`]: the location description of an object at a point;
//! * [`multiloc`]: the multi-location proposal's key, added and removed
//!   locations, translated to lifetimes;
//! * [`join`]: LiveDebugValues' join rule for `llvm.dbg.value` listings.

pub mod join;
pub mod listing;
pub mod locate;
pub mod multiloc;
pub mod ranges;
pub mod wellformed;

pub use listing::{parse_module, Module};

/// The most blocks a function of a multi-location or join-rule listing may
/// have (dominators and the dataflows are quadratic in it).
pub const MAX_DATAFLOW_BLOCKS: usize = 2_000;

/// The most (block, item) pairs the multi-location translation and the
/// join-rule dataflow track, items being calls or variables.
pub const MAX_DATAFLOW_PAIRS: usize = 1_000_000;

/// Bounds what a listing can make the dataflows do: each function at most
/// [`MAX_DATAFLOW_BLOCKS`] blocks, and its blocks times its items
/// (`items[f]`, 0 where not given) at most [`MAX_DATAFLOW_PAIRS`].
pub(crate) fn check_dataflow_size(
    m: &Module,
    construct: &'static str,
    items: &[usize],
) -> Result<(), crate::diag::Diag> {
    for (fi, f) in m.functions.iter().enumerate() {
        let n = f.blocks.len();
        let items = items.get(fi).copied().unwrap_or(0);
        if n > MAX_DATAFLOW_BLOCKS || n.saturating_mul(items.max(1)) > MAX_DATAFLOW_PAIRS {
            return Err(crate::diag::Diag::unsupported(
                construct,
                "limit-exceeded",
                format!(
                    "a function of {n} blocks tracking {items} calls or variables: dioptra takes at most {MAX_DATAFLOW_BLOCKS} blocks and {MAX_DATAFLOW_PAIRS} (block, item) pairs"
                ),
            ));
        }
    }
    Ok(())
}
