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
