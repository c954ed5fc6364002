//! The multi-location law is not vacuous. (The lifetime laws are entries
//! of the law table: `tests/laws.rs`.)

use dioptra_generators::programs::arb_program;
use dioptra_properties::laws::law_multiloc_translation_agrees;
use proptest::prelude::*;

/// The law is not vacuous: over a fixed sweep most generated listings keep
/// added or removed locations after dropping the calls that break the
/// thread's invariants, and the points compared are many.
#[test]
fn multiloc_law_compares_listings_with_additions_and_removals() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    let (mut points, mut with_more) = (0, 0);
    for _ in 0..200 {
        let p = arb_program().new_tree(&mut runner).unwrap().current();
        let keys = p.render_multiloc().matches("value.new").count();
        let (n, calls) = law_multiloc_translation_agrees(&p).unwrap();
        points += n;
        with_more += (calls > keys) as usize;
    }
    assert!(points > 2000, "{points} points");
    assert!(
        with_more > 40,
        "{with_more} listings keep an addition or a removal"
    );
}

/// 40 generated and transformed programs from `seed`, each parsed with
/// its context.
fn transformed_instances(
    seed: u8,
) -> Vec<(
    String,
    dioptra_semantics::lifetime::listing::Module,
    dioptra_semantics::context::ConcreteContext,
)> {
    use dioptra_generators::transform::{arb_forms, arb_transform, instance};
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    );
    let cases = (arb_program(), arb_forms(), arb_transform());
    (0..40)
        .map(|_| {
            let (p, f, t) = cases.new_tree(&mut runner).unwrap().current();
            let inst = instance(&p, &f, Some(t));
            let m = dioptra_semantics::lifetime::parse_module(&inst.listing).unwrap();
            let ctx = dioptra_semantics::context::ConcreteContext::parse(&inst.context).unwrap();
            (inst.listing, m, ctx)
        })
        .collect()
}

/// A `SegmentCache` (one evaluation per segment without inputs, for all
/// points) gives what locating afresh gives, at every point of generated
/// and transformed programs, global and argObjects segments included.
#[test]
fn cached_locations_are_the_fresh_ones() {
    use dioptra_semantics::lifetime::locate::{Analysis, SegmentCache};
    use dioptra_semantics::lifetime::ranges::Reading;
    let mut compared = 0;
    for (listing, m, ctx) in transformed_instances(3) {
        let a = Analysis::new(&m, Reading::ControlFlow);
        let cache = SegmentCache::new(&ctx);
        for o in a.objects() {
            for point in 0..m.insts.len() {
                assert_eq!(
                    a.locate_cached(&cache, o, point),
                    a.locate(&ctx, o, point),
                    "{o} at {point} of\n{}",
                    listing
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// Locating by stretches (`Analysis::pieces`: one location per stretch
/// between two boundaries) gives what locating each point afresh gives, at
/// every point of generated and transformed programs, visited backwards and
/// forwards; and the stretches are fewer than the points (the reuse is real).
/// Locating the first segments without a limit is locating the object.
/// The stretches are located as `dioptra lifetimes` locates them, through
/// `objects_at` and `pieces_at` (no look-up by id), and compared with
/// locating by id; `objects_at` names the objects `objects` names, and
/// `segment_ranges_at` gives what `segment_ranges` gives; the analysis
/// keeps each object's lifetimes (`lifetimes_of`) as its segments.
#[test]
fn stretch_locations_are_the_pointwise_ones() {
    use dioptra_semantics::lifetime::locate::{Analysis, SegmentCache};
    use dioptra_semantics::lifetime::ranges::Reading;
    let (mut compared, mut stretches, mut with_inputs) = (0, 0, 0);
    for (listing, m, ctx) in transformed_instances(5) {
        let a = Analysis::new(&m, Reading::ControlFlow);
        let cache = SegmentCache::new(&ctx);
        let n = m.insts.len();
        let objects = a.objects_at();
        assert_eq!(
            objects.iter().map(|o| o.id).collect::<Vec<_>>(),
            a.objects()
        );
        // The segments kept by slot are each object's lifetimes.
        let lifetimes = dioptra_semantics::lifetime::wellformed::lifetimes_of(&m);
        assert_eq!(
            a.objects_with_segments().collect::<Vec<_>>(),
            lifetimes.keys().copied().collect::<Vec<_>>()
        );
        for (o, lts) in &lifetimes {
            let kept: Vec<&str> = a.segments_of(o).into_iter().flatten().collect();
            assert_eq!(&kept, lts, "{o}");
        }
        for at in objects {
            let o = at.id;
            let by_handle: Option<Vec<_>> = a.segment_ranges_at(at).map(|it| it.collect());
            let by_id: Option<Vec<_>> = a.segment_ranges(o).map(|it| it.collect());
            assert_eq!(by_handle, by_id, "{o}");
            // Two segments shown at most, as `dioptra lifetimes` shows them.
            let mut pieces = a.pieces_at(&cache, at, 2);
            let own: usize = a.segments_of(o).map_or(0, |lts| {
                lts.map(|l| a.ranges.get(l).map_or(0, |r| 2 * r.len()))
                    .sum()
            });
            with_inputs += (a.boundaries(o).len() > own) as usize;
            for point in (0..n).rev().chain(0..n) {
                let fresh = SegmentCache::new(&ctx);
                assert_eq!(
                    pieces.at(point),
                    &a.locate_first(&fresh, o, point, 2),
                    "{o} at {point} of\n{}",
                    listing
                );
                // With no limit, locating the first segments is locating
                // the object (`locate_first` takes its own way there).
                assert_eq!(
                    a.locate_first(&SegmentCache::new(&ctx), o, point, usize::MAX),
                    a.locate_cached(&SegmentCache::new(&ctx), o, point)
                        .map(|l| (l, 0)),
                    "{o} at {point} of\n{}",
                    listing
                );
                compared += 1;
            }
            stretches += a.boundaries(o).len() + 1;
        }
    }
    assert!(compared > 1000, "{compared}");
    assert!(
        stretches * 2 < compared / 2,
        "{stretches} stretches, {compared} points"
    );
    assert!(
        with_inputs > 0,
        "no object's location depends on an input's segments"
    );
}
