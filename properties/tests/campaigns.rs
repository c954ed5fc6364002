//! Campaigns (`dioptra fuzz`): each case drawn from its own seed, so the
//! cases, the counts and the counterexample do not depend on the number of
//! worker threads; a failure is the failing case of lowest index, shrunk;
//! a law that panics fails its case instead of ending the campaign.

use dioptra_properties::laws::Checked;
use dioptra_properties::table::{case_seed, law, AnyLaw, Budget, Campaign, Extent, Law, Plan};
use proptest::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn run(l: &dyn AnyLaw, extent: Extent, seed: u64, jobs: usize) -> Campaign {
    l.run_plan(&Plan {
        extent,
        seed,
        jobs,
        progress: None,
    })
}

fn same(a: &Campaign, b: &Campaign) {
    assert_eq!(
        (a.cases, a.unsupported, a.unknown, &a.counterexample),
        (b.cases, b.unsupported, b.unknown, &b.counterexample)
    );
}

#[test]
fn a_campaign_does_not_depend_on_its_threads() {
    // A law with unsupported cases, so the counts say something.
    let l = law("gimli-agrees-on-plain-dwarf5").unwrap();
    let one = run(l, Extent::Cases(300), 7, 1);
    assert_eq!(one.cases, 300);
    assert!(one.unsupported > 0 && one.unsupported < 300);
    for jobs in [2, 5] {
        same(&one, &run(l, Extent::Cases(300), 7, jobs));
    }
    // Another seed draws other cases.
    let other = run(l, Extent::Cases(300), 8, 2);
    assert_ne!(one.unsupported, other.unsupported);
}

#[test]
fn case_seeds_differ_by_index_and_by_campaign() {
    let seeds: std::collections::BTreeSet<u64> = (0..1000)
        .flat_map(|i| [case_seed(0, i), case_seed(1, i)])
        .collect();
    assert_eq!(seeds.len(), 2000);
}

/// Fails for every value from 1 000 up: the lowest failing case, shrunk,
/// is 1 000 whatever the threads.
static AT_LEAST_1000: Law<u32> = Law {
    name: "test-at-least-1000",
    says: "fails from 1000 up",
    strategy: || (0u32..1_000_000).boxed(),
    law: |v| {
        if *v >= 1000 {
            Err(format!("{v} is at least 1000"))
        } else {
            Ok(Checked::Compared)
        }
    },
    corpus: |v, _| format!(";; {v}\n"),
    budget: Budget::Random,
    floor: 100,
};

#[test]
fn the_counterexample_is_the_lowest_failing_case_shrunk() {
    let one = run(&AT_LEAST_1000, Extent::Cases(1000), 3, 1);
    let text = one.counterexample.clone().expect("a failure");
    assert!(text.contains("1000 is at least 1000"), "{text}");
    assert!(text.contains(";; 1000\n"), "{text}");
    // It ran the cases up to the first failure and that one.
    assert!(one.cases >= 1 && one.cases < 10, "{}", one.cases);
    for jobs in [2, 4] {
        same(&one, &run(&AT_LEAST_1000, Extent::Cases(1000), 3, jobs));
    }
}

static PANICS: Law<u32> = Law {
    name: "test-panics",
    says: "panics on odd values",
    strategy: || (0u32..1000).boxed(),
    law: |v| {
        assert!(v % 2 == 0, "odd: {v}");
        Ok(Checked::Compared)
    },
    corpus: |v, _| format!(";; {v}\n"),
    budget: Budget::Random,
    floor: 100,
};

#[test]
fn a_panic_in_a_law_is_a_failure_of_its_case() {
    let c = run(&PANICS, Extent::Cases(100), 1, 2);
    let text = c.counterexample.expect("a failure");
    assert!(text.contains("the law panicked: odd: 1"), "{text}");
}

#[test]
fn a_timed_campaign_stops_at_its_deadline() {
    let l = law("print-parse-round-trip").unwrap();
    let t = Instant::now();
    let c = run(l, Extent::Until(t + Duration::from_millis(300)), 0, 2);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(c.cases > 10, "{}", c.cases);
    assert!(c.counterexample.is_none());
}

#[test]
fn progress_is_told_of_every_case() {
    let l = law("print-parse-round-trip").unwrap();
    let n = AtomicU64::new(0);
    let tick = || {
        n.fetch_add(1, Ordering::Relaxed);
    };
    let c = l.run_plan(&Plan {
        extent: Extent::Cases(250),
        seed: 0,
        jobs: 3,
        progress: Some(&tick),
    });
    assert_eq!(c.cases, 250);
    assert_eq!(n.load(Ordering::Relaxed), 250);
}
