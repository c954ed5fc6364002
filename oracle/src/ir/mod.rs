//! LLVM IR modules as compilers write them: textual `.ll` from LLVM 14
//! through 22, typed or opaque pointers, debug intrinsics or debug records.
//!
//! * [`lex`]: the tokens, as LLVM's lexer cuts them;
//! * [`parse`]: the module: metadata (every node kept, fields and all),
//!   named metadata, globals and their attachments, functions, blocks,
//!   instructions with the control flow of every terminator, and each
//!   debug record or intrinsic call with its operands;
//! * [`dbg`]: what a debug record says, checked against the operand types
//!   and the variable's type (`dioptra ir`);
//! * [`listing`]: the module written as a lifetime listing (the form
//!   `dioptra lifetimes` and `multiloc` read), line for line;
//! * [`lifetimes`]: a module's lifetimes, from `llvm.dbg.def`/`kill` or
//!   through the multi-location translation of its `dbg_value` records.
//!
//! The reader goes by grammar: an entity or instruction it has no meaning
//! for is read to its end and kept as text (an instruction as an opaque
//! value), and a token that begins nothing the grammar knows is a
//! diagnostic with its line and column, never a guess.

pub mod dbg;
pub mod lex;
pub mod lifetimes;
pub mod listing;
pub mod parse;

pub use parse::parse;

use dioptra_semantics::diag::Diag;
use dioptra_semantics::types::DataLayout;
use std::collections::BTreeMap;

/// A metadata value: a field of a node, an element of a tuple, an argument
/// of a debug record.
#[derive(Clone, Debug, PartialEq)]
pub enum Md {
    /// `!12`, `!foo`: a reference to a node defined elsewhere (with its `!`).
    Ref(String),
    /// `!"text"` or `"text"`.
    Str(String),
    /// `!DIKind(...)` written in place.
    Node(Box<MdNode>),
    /// `!{...}`.
    Tuple(Vec<Md>),
    /// `i32 7`, `ptr @f`, `i64 %x`: an IR value with its type.
    Typed { ty: String, value: String },
    /// Numbers, `DW_*` constants, flags (`DIFlagA | DIFlagB`), `true`,
    /// `null`.
    Word(String),
}

impl Md {
    /// The node id this value refers to, if it is a reference.
    pub fn as_ref(&self) -> Option<&str> {
        match self {
            Md::Ref(r) => Some(r),
            _ => None,
        }
    }
}

/// A metadata node: `!DIKind(field: value, ...)` or a tuple `!{...}`.
#[derive(Clone, Debug, PartialEq)]
pub struct MdNode {
    pub line: u32,
    pub distinct: bool,
    /// `DILocalVariable`, ...; empty for a tuple.
    pub kind: String,
    /// Named fields (`name: "x"`) and positional ones (the operations of a
    /// `DIExpression`, the values of a `DIArgList`, a tuple's elements).
    pub fields: Vec<(Option<String>, Md)>,
    /// The node as written (whitespace folded), for the parsers of
    /// expressions.
    pub text: String,
}

impl MdNode {
    /// The named field `name`.
    pub fn field(&self, name: &str) -> Option<&Md> {
        self.fields
            .iter()
            .find(|(k, _)| k.as_deref() == Some(name))
            .map(|(_, v)| v)
    }
    /// The named field `name` as a number.
    pub fn int(&self, name: &str) -> Option<u64> {
        match self.field(name)? {
            Md::Word(w) => w.parse().ok(),
            _ => None,
        }
    }
    /// The named field `name` as a string.
    pub fn string(&self, name: &str) -> Option<&str> {
        match self.field(name)? {
            Md::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// A global variable, constant, alias or ifunc.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub line: u32,
    /// Metadata attachments: (`dbg`, `!12`), (`dbg.def`, `!7`).
    pub attachments: Vec<(String, String)>,
}

/// How a debug record is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `#dbg_value(...)` (LLVM 19 and later).
    Record,
    /// `call void @llvm.dbg.value(metadata ...)`.
    Intrinsic,
}

/// Which debug record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RecordKind {
    Value,
    Declare,
    Assign,
    Label,
    /// AMD's `llvm.dbg.def` / `llvm.dbg.kill` (checked by the lifetime
    /// rules, not by [`dbg`]).
    Def,
    Kill,
    /// A `DIGlobalVariableExpression`: a global's `!dbg` attachment, or a
    /// compile unit's global with no IR global (a constant, or optimized
    /// out). Not an instruction; checked as a record whose operand is the
    /// global's address.
    GlobalExpression,
}

impl RecordKind {
    pub fn name(self) -> &'static str {
        match self {
            RecordKind::Value => "dbg_value",
            RecordKind::Declare => "dbg_declare",
            RecordKind::Assign => "dbg_assign",
            RecordKind::Label => "dbg_label",
            RecordKind::Def => "dbg_def",
            RecordKind::Kill => "dbg_kill",
            RecordKind::GlobalExpression => "global_expression",
        }
    }
}

/// An operand of a debug record: an IR value with its type (`i32 %x`,
/// `ptr poison`, `i64 ptrtoint (ptr @g to i64)`).
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub ty: String,
    pub value: String,
}

impl Operand {
    /// The type with a typed pointer (`[4 x i32]*`, `i8 addrspace(5)*`)
    /// written as the opaque pointer LLVM 15 and later would write
    /// (`ptr`, `ptr addrspace(5)`): a pointer's size is all a location
    /// needs, and dioptra's types have no pointee.
    pub fn opaque_type(&self) -> String {
        let t = self.ty.trim();
        let Some(base) = t.strip_suffix('*') else {
            return t.to_string();
        };
        let base = base.trim_end_matches('*').trim_end();
        match base.rfind(" addrspace(") {
            Some(k) if base.ends_with(')') => {
                let n = &base[k + " addrspace(".len()..base.len() - 1];
                if n.trim() == "0" {
                    "ptr".into()
                } else {
                    format!("ptr addrspace({})", n.trim())
                }
            }
            _ => "ptr".into(),
        }
    }
    /// `undef`, `poison`: the value is gone.
    pub fn is_undef(&self) -> bool {
        matches!(self.value.as_str(), "undef" | "poison")
    }
}

/// A debug record or debug intrinsic call.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub kind: RecordKind,
    pub form: Form,
    /// The location operands: one, or a `DIArgList`'s (possibly none);
    /// empty for labels, kills, and an empty `!{}` location.
    pub operands: Vec<Operand>,
    /// Was the location written as a `DIArgList`?
    pub arglist: bool,
    /// The variable (or label, or lifetime) operand.
    pub variable: Option<Md>,
    pub expr: Option<Md>,
    /// `dbg_assign`: the address operand and its expression.
    pub address: Option<Operand>,
    pub address_expr: Option<Md>,
    /// The `DILocation` (records carry it as an argument, intrinsic calls
    /// as their `!dbg` attachment).
    pub loc: Option<String>,
}

/// What an instruction is to the reader.
#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    Record(Box<Record>),
    /// A terminator and its successors (block labels, in order, repeats
    /// kept). `ret`, `resume` and `unreachable` have none.
    Terminator {
        succs: Vec<String>,
    },
    /// Any other instruction: an opaque value of its type.
    Plain,
}

/// An instruction (or a debug record, which LLVM 19 attaches to the
/// instruction after it; here it is a point of its own, where it stands).
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub line: u32,
    pub col: u32,
    /// The last line it spans (a `switch` spans several).
    pub end_line: u32,
    /// `%x` of `%x = ...`.
    pub result: Option<String>,
    /// `add`, `call`, `switch`, `#dbg_value`, ...
    pub opcode: String,
    pub kind: InstKind,
    /// The `!dbg` attachment.
    pub dbg: Option<String>,
    /// The instruction as written, on one line, comments dropped.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The label as written (`entry`, `3`, `a b` for `"a b":`); `None` for
    /// an entry block without one.
    pub label: Option<String>,
    pub line: u32,
    pub insts: Vec<Inst>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub line: u32,
    /// The `define` line's `!dbg` attachment.
    pub subprogram: Option<String>,
    /// The header as written (up to and including `{`), on one line.
    pub header: String,
    pub blocks: Vec<Block>,
    /// The line of the closing `}`.
    pub end_line: u32,
}

/// A module.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    pub source_filename: Option<String>,
    pub datalayout: Option<String>,
    /// The line of `target datalayout`.
    pub datalayout_line: u32,
    pub triple: Option<String>,
    /// Named struct types (`%struct.foo = type { i8, i32 }`), each on one
    /// line, with its line.
    pub types: Vec<(u32, String)>,
    /// Numbered and named nodes, by id with its `!` (`!12`).
    pub metadata: BTreeMap<String, MdNode>,
    /// Named metadata (`llvm.dbg.cu`) and its line.
    pub named: BTreeMap<String, (Vec<Md>, u32)>,
    /// Each metadata definition as written, on one line, with its line.
    pub metadata_text: Vec<(u32, String)>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    /// Top-level entities read past by grammar, by kind (`declare`,
    /// `attributes`, `comdat`, ...), with their count.
    pub skipped: BTreeMap<&'static str, usize>,
    /// Lines in the file.
    pub lines: u32,
}

impl Module {
    /// The module's data layout (AMDGPU's without `target datalayout`),
    /// with its named struct types.
    pub fn layout(&self) -> Result<DataLayout, Diag> {
        let mut layout = match &self.datalayout {
            Some(s) => DataLayout::parse(s).map_err(|d| d.at_place("target datalayout"))?,
            None => DataLayout::default(),
        };
        // All at once: a definition may name one that comes after it.
        let text: Vec<&str> = self.types.iter().map(|(_, t)| t.as_str()).collect();
        layout
            .define_types(&text.join("\n"))
            .map_err(|d| d.at_place("the module's type definitions"))?;
        Ok(layout)
    }
    /// The node `id` refers to (`!12`), following no further.
    pub fn node(&self, id: &str) -> Option<&MdNode> {
        self.metadata.get(id)
    }
    /// The node a value is: written in place, or referred to.
    pub fn resolve<'a>(&'a self, v: &'a Md) -> Option<&'a MdNode> {
        match v {
            Md::Node(n) => Some(n),
            Md::Ref(r) => self.metadata.get(r),
            _ => None,
        }
    }
    /// Every debug record with its function.
    pub fn records(&self) -> impl Iterator<Item = (&Function, &Inst, &Record)> {
        self.functions.iter().flat_map(|f| {
            f.blocks.iter().flat_map(move |b| {
                b.insts.iter().filter_map(move |i| match &i.kind {
                    InstKind::Record(r) => Some((f, i, &**r)),
                    _ => None,
                })
            })
        })
    }
}
