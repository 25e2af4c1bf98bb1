//! A random low-level test made from the input's bytes (each byte one
//! choice of the low-level generator), lowered to graphs `llverify` must
//! accept, run on the llinterp and compiled by the C and native
//! backends: an ill-typed graph or any disagreement is a crash, with the
//! test in the message.  `RPY3_FUZZ_BACKENDS` (`c`, `native` or both)
//! chooses the compiled backends.  Without a C compiler (a runner image
//! may have none) only the verifier and the llinterp run, and it says so
//! once.
#![no_main]

mod common;

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use rpy3_fuzz::gen::Rng;
use rpy3_fuzz::lowlevel::{self, gen, LlBackend};

fn backends() -> &'static [LlBackend] {
    static BACKENDS: OnceLock<Vec<LlBackend>> = OnceLock::new();
    BACKENDS.get_or_init(|| {
        if !common::have_cc() {
            eprintln!("rpy3 lowlevel target: no C compiler, so no compiled backend runs");
            return Vec::new();
        }
        match std::env::var("RPY3_FUZZ_BACKENDS") {
            Ok(list) => list.split(',').filter_map(LlBackend::from_name).collect(),
            Err(_) => LlBackend::ALL.to_vec(),
        }
    })
}

fuzz_target!(init: common::init(), |data: &[u8]| {
    let t = gen::test(&mut Rng::from_bytes(data));
    pyo3::Python::attach(|py| {
        let outcomes = lowlevel::outcomes(py, std::slice::from_ref(&t), backends())
            .unwrap_or_else(|e| panic!("{e}\n{}", gen::text(&t)));
        for (expected, got) in outcomes {
            // the oracle fails only on a bug of its own or of the verifier
            assert!(
                !matches!(expected, lowlevel::Outcome::Failed(_)),
                "llinterp: {expected:?}\n{}",
                gen::text(&t)
            );
            for g in got {
                assert_eq!(g, expected, "\n{}", gen::text(&t));
            }
        }
    });
});
