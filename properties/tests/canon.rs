//! The canonicalization law is not vacuous (generated expressions give the
//! rules work), and the canonicalizer's peephole pass equals a rescan from
//! the start after every rewrite. (The law is an entry of the law table:
//! `tests/laws.rs`.)

use dioptra_generators::{arb_context, arb_rewritable_expr, arb_wellformed_expr};
use dioptra_properties::laws::law_canonicalization_preserves_location;
use proptest::prelude::*;

/// The law is not vacuous: the generator's expressions give the rules work.
#[test]
fn generated_expressions_get_rewritten() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let s = (arb_wellformed_expr(40), arb_context());
    let (mut rewritten, n) = (0, 300);
    for _ in 0..n {
        let (e, c) = s.new_tree(&mut runner).unwrap().current();
        if law_canonicalization_preserves_location(&e, &c).unwrap() > 0 {
            rewritten += 1;
        }
    }
    eprintln!("{rewritten} of {n} generated expressions were rewritten");
    assert!(rewritten * 10 >= n, "only {rewritten} of {n} rewritten");
}

/// The canonicalizer's peephole pass (which looks again only near a
/// rewrite) gives what a rescan from the start after every rewrite gives:
/// the same canonical form by the same steps, on expressions made of
/// windows the rules rewrite and on generated ones.
#[test]
fn the_peephole_pass_equals_a_rescan_after_every_rewrite() {
    use dioptra_oracle::canon::{canonicalize, RULES};
    use dioptra_semantics::context::Context;
    use dioptra_semantics::wellformed::type_stacks;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let rescan = |e: &dioptra_semantics::syntax::Expr,
                  sig: &dioptra_semantics::context::Signature| {
        let mut e = e.clone();
        let mut steps = Vec::new();
        'outer: loop {
            let (stacks, _) = type_stacks(&e, sig);
            for i in 0..e.ops.len() {
                let before = stacks.get(i).and_then(|st| st.top());
                for r in RULES {
                    if let Some((len, with)) =
                        (r.rewrite)(&e.ops[i..].iter().collect::<Vec<_>>(), before, sig)
                    {
                        // The canonicalizer tries a rule only where the
                        // window starts with the ops the rule names.
                        assert_eq!(e.ops[i].name(), r.starts, "{} at {i} of {e}", r.name);
                        if let Some(then) = r.then {
                            assert_eq!(e.ops[i + 1].name(), then, "{} at {i} of {e}", r.name);
                        }
                        e.ops.splice(i..i + len, with);
                        steps.push((r.name, i));
                        continue 'outer;
                    }
                }
            }
            return (e, steps);
        }
    };
    let mut runner = TestRunner::deterministic();
    let (mut compared, mut rewritten) = (0, 0);
    let mut fired = std::collections::BTreeSet::new();
    for k in 0..600 {
        let (e, c) = if k % 2 == 0 {
            (arb_rewritable_expr(), arb_context())
                .new_tree(&mut runner)
                .unwrap()
                .current()
        } else {
            (arb_wellformed_expr(40), arb_context())
                .new_tree(&mut runner)
                .unwrap()
                .current()
        };
        let sig = dioptra_semantics::context::ConcreteContext::parse(&c)
            .unwrap()
            .signature();
        let Ok((fast, steps)) = canonicalize(&e, &sig) else {
            continue;
        };
        let (slow, slow_steps) = rescan(&e, &sig);
        let steps: Vec<_> = steps.iter().map(|s| (s.rule, s.at)).collect();
        // Borrowed exactly where nothing was rewritten.
        assert_eq!(
            matches!(fast, std::borrow::Cow::Borrowed(_)),
            steps.is_empty(),
            "{e}"
        );
        assert_eq!((&*fast, &steps), (&slow, &slow_steps), "{e}");
        compared += 1;
        rewritten += !steps.is_empty() as usize;
        fired.extend(slow_steps.iter().map(|(rule, _)| *rule));
    }
    assert!(
        compared > 500 && rewritten > 100,
        "{compared} compared, {rewritten} rewritten"
    );
    // Every rule fired in the rescan, which ignores `starts`: a rule whose
    // `starts` were wrong would be skipped by the canonicalizer somewhere
    // here, and the two would differ.
    let silent: Vec<&str> = RULES
        .iter()
        .map(|r| r.name)
        .filter(|n| !fired.contains(n))
        .collect();
    assert!(silent.is_empty(), "rules that never fired: {silent:?}");
}
