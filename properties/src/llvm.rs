//! The LLVM law's generated cases: functions from the generators
//! (`dioptra_generators::llvm`) as the harness writes them
//! (`dioptra_oracle::llvm::module`), which `dioptra llvm --generated`, `fuzz
//! --property llvm` and the tests run.

pub use dioptra_generators::llvm::Wide;
use dioptra_generators::llvm::{arb_function_with, type_name, Function};
use dioptra_oracle::llvm::module::{FunctionSpec, Line, Param};
use proptest::strategy::{Strategy, ValueTree};

/// The most instructions a generated function has.
pub const MAX_INSTRUCTIONS: usize = 8;

/// Function `index` of a campaign from `seed` (its own seed, so any subset
/// of a campaign can be re-run alone).
pub fn generated_function(seed: u64, index: u64) -> Function {
    generated_function_with(seed, index, Wide::No)
}

/// [`generated_function`], with `i128` arguments where `wide` says.
pub fn generated_function_with(seed: u64, index: u64, wide: Wide) -> Function {
    let mut runner = crate::table::runner(1, crate::table::case_seed(seed, index));
    arb_function_with(MAX_INSTRUCTIONS, wide)
        .new_tree(&mut runner)
        .expect("the function strategy does not reject")
        .current()
}

/// A generated function as the harness writes it, named `name`: every
/// parameter described, and each described instruction's value by a
/// variable `vK`.
pub fn spec(f: &Function, name: &str) -> FunctionSpec {
    let params = f
        .args
        .iter()
        .enumerate()
        .map(|(k, a)| Param {
            ty: type_name(a.width),
            attrs: a.ext.attribute().to_string(),
            name: format!("%x{k}"),
        })
        .collect();
    let mut body = Vec::new();
    for (k, inst) in f.insts.iter().enumerate() {
        body.push(Line::Inst {
            result: format!("%v{k}"),
            text: inst.text.clone(),
        });
        if inst.described {
            body.push(Line::Value {
                ty: type_name(inst.width),
                value: format!("%v{k}"),
                var: format!("v{k}"),
            });
        }
    }
    FunctionSpec {
        name: name.to_string(),
        params,
        ret: f
            .ret
            .map(|k| (type_name(f.insts[k].width), format!("%v{k}"))),
        body,
        describe_params: true,
    }
}

/// Functions `first..first + n` of the campaign from `seed`, named `fI`.
pub fn generated_specs(seed: u64, first: u64, n: u64, wide: Wide) -> Vec<FunctionSpec> {
    (first..first + n)
        .map(|i| spec(&generated_function_with(seed, i, wide), &format!("f{i}")))
        .collect()
}
