//! A module's lifetimes, whichever form its debug records take: AMD's
//! `llvm.dbg.def`/`kill` read as written, `dbg_value`/`declare`/`assign`
//! records through the multi-location translation.
//!
//! DECISION (D-ir-detect): a file is read as a compiler's module (through
//! [`crate::ir::parse`] and [`to_listing`]) when it has a top-level
//! `source_filename` or `target triple` line or a `#dbg_` record; a file
//! whose only such line is `target datalayout` is read as a module when it
//! parses as one and as a spec-style listing otherwise; every other file
//! is a spec-style listing (bare instructions, pseudo MIR).

use super::listing::{to_listing, Dialect, Notes};
use dioptra_semantics::diag::Diag;
use dioptra_semantics::lifetime::multiloc::{parse_listing, translate};
use dioptra_semantics::lifetime::{parse_module, Module};

/// A module ready for the lifetime analysis.
pub struct Lifetimes {
    pub module: Module,
    /// For a module of `dbg_value` records, read through the translation:
    /// each translated instruction's line in the file (`None` for the
    /// `llvm.dbg.def`/`kill` the translation inserted). `None` when the
    /// instructions are the file's own.
    pub origin: Option<Vec<Option<u32>>>,
    /// Which form the records took, and what writing them changed.
    pub dialect: Option<Dialect>,
    pub notes: Notes,
}

impl Lifetimes {
    /// The file line of instruction `i`, if it is one of the file's.
    pub fn line(&self, i: usize) -> Option<u32> {
        match &self.origin {
            Some(o) => o.get(i).copied().flatten(),
            None => self.module.insts.get(i).map(|x| x.line),
        }
    }
    /// The instruction at file line `line`.
    pub fn inst_at_line(&self, line: u32) -> Option<usize> {
        (0..self.module.insts.len()).find(|&i| self.line(i) == Some(line))
    }
    /// What the reading changed, as lines for stderr (empty when nothing).
    pub fn remarks(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.dialect == Some(Dialect::None) {
            out.push("the module has no debug records: no variable has a location".into());
        }
        if self.dialect == Some(Dialect::Values) {
            out.push("dbg_value records read through the multi-location translation (`dioptra multiloc` prints it)".into());
        }
        out.extend(self.notes.remarks());
        out
    }
}

/// Is `text` a compiler's module (see D-ir-detect)? `Some(true)`: surely;
/// `Some(false)`: try it, fall back to the listing; `None`: a listing.
fn module_markers(text: &str) -> Option<bool> {
    let mut datalayout = false;
    for l in text.lines() {
        let t = l.trim_start();
        if t.starts_with("source_filename")
            || t.starts_with("target triple")
            || t.starts_with("#dbg_")
        {
            return Some(true);
        }
        datalayout |= t.starts_with("target datalayout");
    }
    datalayout.then_some(false)
}

/// `text` read as a compiler's module, or `None` when it is a spec-style
/// listing (D-ir-detect).
fn compiler_module(text: &str) -> Result<Option<super::Module>, Diag> {
    match module_markers(text) {
        None => Ok(None),
        Some(sure) => match super::parse(text) {
            Ok(m) => Ok(Some(m)),
            Err(d) if sure => Err(d),
            Err(_) => Ok(None),
        },
    }
}

/// Reads `text` as a compiler's module or a spec-style listing, and makes
/// the lifetime module.
pub fn read(text: &str) -> Result<Lifetimes, Diag> {
    let listing = |text: &str| -> Result<Lifetimes, Diag> {
        Ok(Lifetimes {
            module: parse_module(text)?,
            origin: None,
            dialect: None,
            notes: Notes::default(),
        })
    };
    let Some(ir) = compiler_module(text)? else {
        return listing(text);
    };
    let l = to_listing(&ir)?;
    match l.dialect {
        Dialect::Lifetimes | Dialect::None => Ok(Lifetimes {
            module: parse_module(&l.text)?,
            origin: None,
            dialect: Some(l.dialect),
            notes: l.notes,
        }),
        Dialect::Values => {
            let ml = parse_listing(&l.text)?;
            let t = translate(&ml)?;
            let module = parse_module(&t.text)?;
            let mut origin = vec![None; module.insts.len()];
            for (i, &p) in t.points.iter().enumerate() {
                if let Some(o) = origin.get_mut(p) {
                    *o = Some(ml.module.insts[i].line);
                }
            }
            Ok(Lifetimes {
                module,
                origin: Some(origin),
                dialect: Some(l.dialect),
                notes: l.notes,
            })
        }
    }
}

/// Reads `text` for `dioptra multiloc`: the module's listing of
/// `llvm.dbg.value` calls (a compiler's module written as one, see
/// [`to_listing`]), or the text itself.
pub fn multiloc_text(text: &str) -> Result<(String, Notes), Diag> {
    let Some(ir) = compiler_module(text)? else {
        return Ok((text.to_string(), Notes::default()));
    };
    let l = to_listing(&ir)?;
    if l.dialect == Dialect::None {
        return Err(Diag::unsupported(
            "llvm.dbg.value",
            "no-records",
            "the module has no debug records: there is nothing to translate",
        ));
    }
    Ok((l.text, l.notes))
}
