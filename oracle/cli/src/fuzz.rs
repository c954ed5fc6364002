//! `dioptra fuzz`: the laws of the law table (`dioptra_properties::table`)
//! as campaigns, and `gdb` through a real debugger.

use dioptra_properties::table::{law, names, AnyLaw, Campaign, LAWS};
use std::process::ExitCode;

pub fn cmd_fuzz(property: &str, cases: u32, seed: u64, list: bool) -> ExitCode {
    if list {
        for l in LAWS {
            outln!("{}\t{}", l.name(), l.says());
        }
        outln!("gdb\ta real gdb reads the plain DWARF 5 of generated cases as dioptra says (needs gdb)");
        return ExitCode::SUCCESS;
    }
    if property == "gdb" {
        return crate::gdb::cmd_gdb(&[], cases, seed, None, false, false);
    }
    let laws: Vec<&dyn AnyLaw> = if property == "all" {
        LAWS.to_vec()
    } else if let Some(l) = law(property) {
        vec![l]
    } else {
        eprintln!(
            "Fuzz: unknown-property: `{property}`; the laws are {}, all and gdb",
            names().join(", ")
        );
        return ExitCode::from(2);
    };
    let (mut held, mut failed) = (0, 0);
    for l in laws {
        let c = l.campaign(cases, seed);
        if verdict(&c) {
            held += 1;
        } else {
            failed += 1;
        }
    }
    outln!("{held} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Prints a campaign's line; whether the law held. A law where most cases
/// were not compared has not held: it is NOT CHECKED.
fn verdict(c: &Campaign) -> bool {
    let not_compared = c.not_compared();
    match &c.counterexample {
        None if not_compared * 2 > c.cases => {
            outln!(
                "{}: NOT CHECKED: of {} cases {} are unsupported and {} unknown",
                c.law,
                c.cases,
                c.unsupported,
                c.unknown
            );
            false
        }
        None if not_compared > 0 => {
            outln!(
                "{}: {} of {} cases held; {} unsupported, {} unknown (neither counts as a pass)",
                c.law,
                c.cases - not_compared,
                c.cases,
                c.unsupported,
                c.unknown
            );
            true
        }
        None => {
            outln!("{}: {} cases held", c.law, c.cases);
            true
        }
        Some(text) => {
            outln!("{}: FAILED; paste into corpus/regressions/:\n{text}", c.law);
            false
        }
    }
}
