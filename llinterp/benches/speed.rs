//! The llinterp's speed on the hand-built low-level graphs of
//! `shared/bench/llinterp_speed.py` (PyPy's LLInterpreter: int_loop 4.3 s,
//! linked_list 10.9 s at n=20000; the target is 1000x faster).
//! Run with `cargo bench -p rpy3-llinterp --bench speed`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use pyo3::prelude::*;
use rpy3_llinterp::LlInterp;
use rpy3_model::lltype::LlValue;

const N: i64 = 20_000;
const RUNS: usize = 20;

fn best_ms(it: &mut LlInterp, f: usize, expected: i64) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..RUNS {
        it.reset_heap();
        let t = Instant::now();
        let r = it.call(f, vec![LlValue::Int(N)]);
        let dt = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(r, Ok(LlValue::Int(expected)));
        best = best.min(dt);
    }
    best
}

fn main() {
    Python::attach(|py| {
        let mut p = common::base_program();
        let int_loop = common::int_loop(py, &mut p);
        let linked_list = common::linked_list(py, &mut p);
        let t = Instant::now();
        let mut it = LlInterp::new(py, &p).unwrap_or_else(|e| panic!("{e}"));
        let load_ms = t.elapsed().as_secs_f64() * 1e3;
        let a = best_ms(&mut it, int_loop, common::int_loop_expected(N));
        let b = best_ms(&mut it, linked_list, common::linked_list_expected(N));
        println!("load           {load_ms:8.3} ms");
        println!("int_loop({N})    {a:8.3} ms per call (best of {RUNS}; PyPy LLInterpreter 4300 ms, {:.0}x)", 4300.0 / a);
        println!("linked_list({N}) {b:8.3} ms per call (best of {RUNS}; PyPy LLInterpreter 10900 ms, {:.0}x)", 10900.0 / b);
    });
}
