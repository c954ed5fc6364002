//! What the commands share: reading `@FILE` arguments and files, the
//! signature and classic-parameter flags, and reporting a diagnostic.

use clap::Args;
use dioptra_oracle::input::read_file;
use dioptra_semantics::classic::Params;
use dioptra_semantics::context::{ConcreteContext, Signature};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::dwarf::Encoding;
use dioptra_semantics::text::parse_type;
use dioptra_semantics::types::DataLayout;
use serde_json::json;
use std::process::ExitCode;

pub fn exit_for(o: Outcome) -> u8 {
    match o {
        Outcome::Malformed => 2,
        _ => 1,
    }
}

/// Reads `@FILE` or returns the text itself.
pub fn expr_text(arg: &str) -> Result<String, Diag> {
    match arg.strip_prefix('@') {
        Some(path) => read_file(std::path::Path::new(path), "Input"),
        None => Ok(arg.to_string()),
    }
}

/// Reports a refusal: the outcome word (`malformed`, `ill-formed`,
/// `eval-error`, `unsupported`) as the first line of stdout, as every
/// verdict is (`equivalent`, `differ`, ...), so a script tells a refusal
/// from a verdict without `--json`; the diagnostic on stderr.
pub fn report(d: &Diag, json: bool) -> ExitCode {
    if json {
        outln!(
            "{}",
            json!({"outcome": d.outcome.word(), "diagnostics": [{
                "construct": d.construct, "reason": d.reason, "message": d.message, "text": d.to_string()}]})
        );
    } else {
        outln!("{}", d.outcome.word());
        errln!("{d}");
    }
    ExitCode::from(exit_for(d.outcome))
}

/// The static signature flags shared by `check`, `equiv` and `canon`.
/// The parameters of a classic `!DIExpression(DW_OP_...)` (ignored for
/// DIOp expressions).
#[derive(Args, Debug, Default)]
pub struct ClassicArgs {
    /// The intrinsic the classic expression belongs to: value, declare, addr, or global (a DIGlobalVariableExpression's expression).
    #[arg(long, default_value = "value")]
    pub intrinsic: String,
    /// What the bits above a narrow operand hold when pushed: zero, sign.
    #[arg(long, default_value = "zero")]
    pub high: String,
    /// The variable's (or fragment's) type: what the result is read as.
    #[arg(long)]
    pub variable: Option<String>,
}

impl ClassicArgs {
    pub fn params(&self) -> Result<Params, Diag> {
        Params::from_words(
            Some(&self.intrinsic),
            Some(&self.high),
            self.variable.as_deref(),
        )
    }
}

#[derive(Args, Debug)]
pub struct SigArgs {
    /// The referrer's type (the expression belongs to a bounded lifetime segment).
    #[arg(long)]
    pub referrer: Option<String>,
    /// An input's type (argObjects), repeated in order.
    #[arg(long = "arg")]
    pub args: Vec<String>,
    /// The type whose property is evaluated (DIOpTypeObject).
    #[arg(long = "type-object")]
    pub type_object: Option<String>,
    /// The target is not SIMD/SIMT (DIOpPushLane is then ill-formed).
    #[arg(long = "no-simt")]
    pub no_simt: bool,
    /// LLVM data layout string: pointer sizes and type alignments (default: AMDGPU's).
    #[arg(long)]
    pub datalayout: Option<String>,
    /// A file of named struct types as an LLVM module writes them
    /// (`%struct.foo = type { i8, i32 }`, one per line; other lines of a
    /// `.ll` file are not accepted).
    #[arg(long = "types")]
    pub types: Option<std::path::PathBuf>,
}

impl SigArgs {
    pub fn signature(self) -> Result<Signature, Diag> {
        let mut layout = match self.datalayout {
            Some(s) => DataLayout::parse(&s)?,
            None => DataLayout::default(),
        };
        if let Some(path) = &self.types {
            layout.define_types(&read_file(path, "Types")?)?;
        }
        let ty = |s: &str| -> Result<_, Diag> {
            let t = parse_type(s)?;
            layout.check_size(&t)?;
            Ok(t)
        };
        Ok(Signature {
            referrer: self.referrer.as_deref().map(ty).transpose()?,
            args: self.args.iter().map(|a| ty(a)).collect::<Result<_, _>>()?,
            type_object: self.type_object.as_deref().map(ty).transpose()?,
            simt: !self.no_simt,
            layout,
        })
    }
}

pub fn read_context(path: &std::path::Path) -> Result<ConcreteContext, Diag> {
    ConcreteContext::parse(&read_file(path, "Context")?)
}

pub fn encoding(single_byte: bool) -> Encoding {
    Encoding {
        amd_single_byte: single_byte,
        ..Encoding::default()
    }
}

/// A listing or rule file: bounded like every input, and not empty (a
/// file with nothing to check would otherwise "pass" silently).
pub fn read_text(path: &std::path::Path, construct: &str) -> Result<String, Diag> {
    let text = read_file(path, construct)?;
    if text.trim().is_empty() {
        return Err(Diag::malformed(
            construct,
            "empty",
            format!("{}: the file holds nothing to check", path.display()),
        ));
    }
    Ok(text)
}

/// Writes to standard output; see [`outln!`] for what a closed pipe does.
pub fn write_out(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        write_err(format_args!("Output: unwritable: {e}\n"));
        std::process::exit(2);
    }
}

/// Writes to standard error: when the reader has gone, the command stops
/// quietly with exit 0, as for standard output ([`write_out`]); on any
/// other error, with exit 2 (there is nowhere left to say why).
pub fn write_err(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    if let Err(e) = err.write_fmt(args).and_then(|()| err.flush()) {
        std::process::exit(if e.kind() == std::io::ErrorKind::BrokenPipe {
            0
        } else {
            2
        });
    }
}
