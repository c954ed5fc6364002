//! `dioptra fuzz`: the laws as campaigns.

use dioptra_properties::{run_law, LAWS};
use std::process::ExitCode;

pub fn cmd_fuzz(property: &str, cases: u32, seed: u64) -> ExitCode {
    if property == "gdb" {
        return crate::gdb::cmd_gdb(&[], cases, seed, None, false, false);
    }
    let laws: Vec<&str> = if property == "all" {
        LAWS.to_vec()
    } else {
        vec![property]
    };
    let (mut held, mut failed) = (0, 0);
    for law in laws {
        let Some(c) = run_law(law, cases, seed) else {
            eprintln!(
                "Fuzz: unknown-property: `{law}`; the laws are {} and gdb",
                LAWS.join(", ")
            );
            return ExitCode::from(2);
        };
        let not_compared = c.unsupported + c.unknown;
        match c.counterexample {
            // An SMT law where most cases were not compared has not held.
            None if not_compared * 2 > c.cases => {
                failed += 1;
                outln!(
                    "{}: NOT CHECKED: of {} cases {} are unsupported and {} unknown",
                    c.law,
                    c.cases,
                    c.unsupported,
                    c.unknown
                );
            }
            None if not_compared > 0 => {
                held += 1;
                outln!(
                    "{}: {} of {} cases held; {} unsupported, {} unknown (neither counts as a pass)",
                    c.law,
                    c.cases - not_compared,
                    c.cases,
                    c.unsupported,
                    c.unknown
                );
            }
            None => {
                held += 1;
                outln!("{}: {} cases held", c.law, c.cases);
            }
            Some(text) => {
                failed += 1;
                outln!("{}: FAILED; paste into corpus/regressions/:\n{text}", c.law);
            }
        }
    }
    outln!("{held} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
