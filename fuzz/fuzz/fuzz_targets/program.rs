//! A random RPython program made from the input's bytes (each byte one
//! choice of the program generator), run on CPython and on the flow,
//! annotate and llinterp stages: any disagreement is a crash, with the
//! program's source in the message.  `RPY3_FUZZ_BACKENDS` (e.g.
//! `flow,llinterp,c`) chooses other stages.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use rpy3_fuzz::gen::{program_with, Rng};
use rpy3_testsuite::Backend;

fn backends() -> Vec<Backend> {
    match std::env::var("RPY3_FUZZ_BACKENDS") {
        Ok(list) => list.split(',').filter_map(Backend::from_name).collect(),
        Err(_) => vec![Backend::Flow, Backend::Annotate, Backend::Llinterp],
    }
}

fuzz_target!(init: common::init(), |data: &[u8]| {
    let p = program_with(Rng::from_bytes(data), 0);
    let failures = rpy3_fuzz::failures(&p, &backends());
    if let Some(r) = failures.first() {
        panic!(
            "{} disagrees with CPython: {}\n{}",
            r.backend,
            r.detail,
            rpy3_fuzz::reproducer(&p, "cargo fuzz")
        );
    }
});
