//! The evaluation laws are not vacuous: the generator reaches every op.
//! (The laws are entries of the law table: `tests/laws.rs`.)

use dioptra_generators::arb_wellformed_expr;

/// The generator reaches every op (a law about the generator itself).
#[test]
fn generated_expressions_reach_every_buildable_op() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = arb_wellformed_expr(40);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let e = strategy.new_tree(&mut runner).unwrap().current();
        for op in &e.ops {
            seen.insert(op.name());
        }
    }
    let missing: Vec<_> = dioptra_semantics::syntax::Op::NAMES
        .iter()
        .filter(|n| !seen.contains(*n))
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

/// `eval_prefixes` (the one pass the static-type law uses) gives, for
/// every well-formed prefix, exactly what `eval` of that prefix alone
/// gives: the same location description, type and fragment, or the same
/// diagnostic; in random contexts, where evaluation errors are common.
#[test]
fn one_pass_over_the_prefixes_is_eval_of_each_prefix() {
    use dioptra_generators::arb_context;
    use dioptra_semantics::context::{ConcreteContext, Context};
    use dioptra_semantics::eval::{eval, eval_prefixes};
    use dioptra_semantics::syntax::Expr;
    use dioptra_semantics::wellformed::check_ops;
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (arb_wellformed_expr(40), arb_context());
    let (mut compared, mut errors) = (0, 0);
    for _ in 0..1500 {
        let (e, c) = strategy.new_tree(&mut runner).unwrap().current();
        let ctx = ConcreteContext::parse(&c).unwrap();
        let mut tops = vec![None];
        let failed = eval_prefixes(&e, &ctx, &mut |n, top| {
            assert_eq!(n, tops.len());
            tops.push(top)
        })
        .err();
        for n in 1..=e.ops.len() {
            if check_ops(&e.ops[..n], &ctx.signature()).is_err() {
                continue;
            }
            let prefix = Expr {
                spelling: e.spelling,
                ops: e.ops[..n].to_vec(),
            };
            let alone = eval(&prefix, &ctx);
            let one_pass = match tops.get(n) {
                Some(top) => Ok(top.clone().expect("a well-formed prefix leaves one entry")),
                None => Err(failed.clone().expect("an error past the last prefix")),
            };
            errors += alone.is_err() as u32;
            assert_eq!(one_pass, alone, "{prefix}");
            compared += 1;
        }
    }
    assert!(
        compared > 3000 && errors > 500,
        "{compared} prefixes, {errors} errors"
    );
}

/// `check_prefixes` (the one pass the static-type law uses) gives, for
/// every prefix, exactly what `check_ops` of that prefix gives: the same
/// type and fragment or the same diagnostic; over generated well-formed
/// expressions and every ill-formed mutant of them.
#[test]
fn one_pass_over_the_prefixes_is_check_of_each_prefix() {
    use dioptra_generators::fixed_context;
    use dioptra_generators::mutate::mutants;
    use dioptra_semantics::context::Context;
    use dioptra_semantics::wellformed::{check_ops, check_prefixes};
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = arb_wellformed_expr(40);
    let sig = fixed_context().signature();
    let (mut compared, mut errors) = (0, 0);
    for _ in 0..300 {
        let e = strategy.new_tree(&mut runner).unwrap().current();
        let mut exprs = vec![e.clone()];
        exprs.extend(mutants(&e, &sig).into_iter().map(|m| m.expr));
        for x in exprs {
            let mut got = Vec::new();
            check_prefixes(&x.ops, &sig, &mut |n, r| {
                assert_eq!(n, got.len() + 1);
                got.push(r.map_err(|p| p.diag()))
            });
            assert_eq!(got.len(), x.ops.len());
            for (n, r) in (1..).zip(got) {
                let alone = check_ops(&x.ops[..n], &sig);
                errors += alone.is_err() as u32;
                assert_eq!(r, alone, "the first {n} ops of {x}");
                compared += 1;
            }
        }
    }
    assert!(
        compared > 20_000 && errors > 5_000,
        "{compared} prefixes, {errors} errors"
    );
}

/// The static-type law takes well-formed expressions only: an ill-formed or
/// empty one is reported as the generator's fault, not checked and passed.
#[test]
fn the_static_type_law_rejects_what_the_generator_should_not_make() {
    use dioptra_generators::FIXED_CONTEXT;
    use dioptra_properties::laws::law_wellformed_evaluates_to_its_static_type;
    use dioptra_semantics::syntax::Expr;
    use dioptra_semantics::text::parse_expr;
    let ill = parse_expr("DIOpConstant(i32 1), DIOpConstant(i32 2)").unwrap();
    let e = law_wellformed_evaluates_to_its_static_type(&ill, FIXED_CONTEXT).unwrap_err();
    assert!(
        e.contains("ill-formed expression") && e.contains("result-stack-size"),
        "{e}"
    );
    let empty = Expr {
        ops: Vec::new(),
        ..ill
    };
    let e = law_wellformed_evaluates_to_its_static_type(&empty, FIXED_CONTEXT).unwrap_err();
    assert!(e.contains("empty expression"), "{e}");
    let well = parse_expr("DIOpConstant(i32 1), DIOpConstant(i32 2), DIOpAdd()").unwrap();
    law_wellformed_evaluates_to_its_static_type(&well, FIXED_CONTEXT).unwrap();
}

/// What lets the lowering law evaluate once for many of a context's
/// variants: where a variant answers every state read (register, memory,
/// lane; `Watched`) an evaluation made in the context as the context did,
/// the evaluation gives the same result there, for the DIOp expression and
/// for its DWARF; an evaluation that reads no state is the same in every
/// variant. Over random contexts; both kinds of evaluation reach every
/// side, and the variants do change what an evaluation gives where they
/// answer a read differently.
#[test]
fn an_evaluation_is_the_same_where_its_reads_are() {
    use dioptra_generators::arb_context;
    use dioptra_oracle::lower::compare::Contexts;
    use dioptra_oracle::lower::{lower, Target};
    use dioptra_semantics::context::{ConcreteContext, Watched};
    use dioptra_semantics::dwarf::eval::{evaluate, Env};
    use dioptra_semantics::eval::eval;
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (arb_wellformed_expr(40), arb_context());
    // Variants per kind: [no state read, the reads agree, they do not, they
    // do not and the result differs].
    let (mut diop, mut dwarf) = ([0u32; 4], [0u32; 4]);
    for seed in 0..1500 {
        let (e, c) = strategy.new_tree(&mut runner).unwrap().current();
        let c = ConcreteContext::parse(&c).unwrap();
        let contexts = Contexts::new(&c, 4, seed);
        let (first, variants) = contexts.as_slice().split_first().unwrap();
        let watched = Watched::new(first);
        let r = eval(&e, &watched);
        for v in variants {
            let there = eval(&e, v);
            let agree = watched.reads_agree(v);
            tally(&mut diop, watched.read_state(), agree, there == r);
            assert!(!agree || there == r, "{e}");
        }
        let Ok(l) = lower(&e, first, Target::Amdgpu) else {
            continue;
        };
        let dwarf_in = |ctx: &dyn dioptra_semantics::context::Context| {
            evaluate(&l.listing.ops, Env::new(ctx, &l.listing.unit))
        };
        let watched = Watched::new(first);
        let d = dwarf_in(&watched);
        for v in variants {
            let there = dwarf_in(v);
            let agree = watched.reads_agree(v);
            tally(&mut dwarf, watched.read_state(), agree, there == d);
            assert!(!agree || there == d, "{e}: {:?}", l.listing.ops);
        }
    }
    fn tally(n: &mut [u32; 4], read: bool, agree: bool, same: bool) {
        match (read, agree) {
            (false, _) => n[0] += 1,
            (true, true) => n[1] += 1,
            (true, false) => {
                n[2] += 1;
                n[3] += !same as u32;
            }
        }
    }
    assert!(
        diop[0] > 1000 && diop[1] > 200 && diop[2] > 1000 && diop[3] > 500,
        "DIOp: {diop:?}"
    );
    assert!(
        dwarf[0] > 1000 && dwarf[1] > 150 && dwarf[2] > 1000 && dwarf[3] > 500,
        "DWARF: {dwarf:?}"
    );
}
