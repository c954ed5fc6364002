//! The gdb law's generated cases: expressions and transformed lifetime
//! programs from the generators, made into cases of the gdb harness
//! (`dioptra_oracle::diff::gdb`), which `dioptra gdb --generated` and the
//! tests run.

use dioptra_oracle::diff::gdb::{expr_case, module_case, on_machine_registers, Case, Skip};
use dioptra_semantics::context::ConcreteContext;
use std::collections::BTreeMap;

/// Cases drawn from the generators with `seed`: `n` well-formed expressions
/// (short ones, as for the gimli law) in machine-shaped contexts
/// (`arb_machine_context`), and `n / 8` generated and transformed lifetime
/// programs with their registers renamed to machine registers. Returns the
/// cases and the candidates left out, by [`Skip::category`].
pub fn generated_cases(
    n: u32,
    seed: u64,
    min_addr: u64,
) -> (Vec<Case>, BTreeMap<&'static str, usize>) {
    use dioptra_generators::programs::arb_program;
    use dioptra_generators::transform::{arb_forms, arb_transform, instance};
    use dioptra_generators::{arb_machine_context, arb_wellformed_expr};
    use proptest::strategy::{Strategy, ValueTree};
    let mut runner = crate::table::runner(n, seed);
    let mut cases = Vec::new();
    let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut keep = |r: Result<Case, Skip>, cases: &mut Vec<Case>| match r {
        Ok(c) => cases.push(c),
        Err(s) => *skipped.entry(s.category()).or_default() += 1,
    };
    let exprs = (
        arb_wellformed_expr(crate::laws::GIMLI_CHOICES + 2),
        arb_machine_context(),
    );
    for i in 0..n {
        let Ok(tree) = exprs.new_tree(&mut runner) else {
            break;
        };
        let (e, c) = tree.current();
        let label = format!("generated expression {i} (seed {seed})");
        let r = ConcreteContext::parse(&c)
            .map_err(|d| Skip::Machine(d.to_string()))
            .and_then(|ctx| expr_case(&label, &e, &ctx, min_addr));
        keep(r, &mut cases);
    }
    let programs = (arb_program(), arb_forms(), arb_transform());
    for i in 0..n / 8 {
        let Ok(tree) = programs.new_tree(&mut runner) else {
            break;
        };
        let (p, forms, t) = tree.current();
        let inst = instance(&p.well_formed(), &forms, Some(t));
        let label = format!("generated program {i} (seed {seed})");
        let r = on_machine_registers(&inst.context)
            .ok_or_else(|| Skip::Machine("more registers than the machine has".into()))
            .and_then(|text| {
                ConcreteContext::parse(&text).map_err(|d| Skip::Machine(d.to_string()))
            })
            .and_then(|ctx| {
                let m = dioptra_semantics::lifetime::parse_module(&inst.listing)
                    .map_err(|d| Skip::NotLowered(d.to_string()))?;
                module_case(&label, &m, &ctx, min_addr)
            })
            .map(|mut c| {
                c.source = inst.listing.clone();
                c
            });
        keep(r, &mut cases);
    }
    (cases, skipped)
}
