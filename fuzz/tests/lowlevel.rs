//! CI's short low-level fuzz: a fixed seed's random low-level graphs,
//! every one accepted by `llverify`, give the same results on the
//! llinterp, the C backend and the native backend, also with a collection
//! at every allocation (one executable per backend for the whole batch).

use std::time::Duration;

use rpy3_fuzz::lowlevel::{self, gen, LlBackend, LlFuzzOptions};

#[test]
fn fixed_seed_lowlevel_run_agrees_on_c_and_native_and_their_gcstress_builds() {
    let options = LlFuzzOptions {
        time_limit: Duration::from_secs(600),
        max_tests: Some(60),
        seed: 2026,
        backends: vec![
            LlBackend::C,
            LlBackend::Native,
            LlBackend::CGcStress,
            LlBackend::NativeGcStress,
        ],
        batch: 60,
        ..LlFuzzOptions::default()
    };
    let report = lowlevel::run(&options, |line| eprintln!("{line}"));
    assert_eq!(report.tests, 60);
    assert_eq!(report.cases, 120);
    let shown: Vec<String> = report
        .disagreements
        .iter()
        .map(|d| format!("{} {}: {}\n{}", d.backend, d.index, d.got, d.text))
        .collect();
    assert!(shown.is_empty(), "{}", shown.join("\n"));
}

/// Tests of every size lower to graphs the verifier accepts, including
/// every edit the shrinker makes of them.
#[test]
fn generated_graphs_and_their_edits_verify() {
    pyo3::Python::initialize();
    pyo3::Python::attach(|py| {
        for index in 0..40 {
            let t = gen::test_for(9, index);
            let mut tests = vec![t.clone()];
            tests.extend(gen::edits(&t).into_iter().take(20));
            let (program, cases) = lowlevel::lower::build(py, &tests).unwrap();
            assert_eq!(
                cases.len(),
                tests.iter().map(|t| t.cases.len()).sum::<usize>()
            );
            if let Err(e) = rpy3_model::llverify::verify_program(py, &program) {
                panic!("test {index}: {e}\n{}", gen::text(&t));
            }
        }
    });
}

/// The tests exercise what they are meant to: most cases return a value,
/// others raise exceptions of several classes, and the backends really
/// ran (their outcomes are values and exceptions too, not failures).
#[test]
fn outcomes_cover_values_and_exceptions() {
    pyo3::Python::initialize();
    pyo3::Python::attach(|py| {
        let tests: Vec<_> = (0..30).map(|i| gen::test_for(4, i)).collect();
        let all = lowlevel::outcomes(py, &tests, LlBackend::ALL).unwrap();
        let values = all
            .iter()
            .filter(|(e, _)| matches!(e, lowlevel::Outcome::Value(_)))
            .count();
        let classes: std::collections::BTreeSet<String> = all
            .iter()
            .filter_map(|(e, _)| match e {
                lowlevel::Outcome::Raised(c) => Some(c.clone()),
                _ => None,
            })
            .collect();
        eprintln!("{values} values of {}; raised {classes:?}", all.len());
        for (e, got) in &all {
            assert!(!matches!(e, lowlevel::Outcome::Failed(_)), "{e:?}");
            for g in got {
                assert!(!matches!(g, lowlevel::Outcome::Failed(_)), "{g:?}");
            }
        }
        assert!(values * 3 >= all.len(), "{values} values of {}", all.len());
        assert!(classes.len() >= 2, "{classes:?}");
        if let (lowlevel::Outcome::Value(v), _) = &all[0] {
            eprintln!("first: {v}");
        }
    });
}

/// Bugs the low-level fuzzer found, as the shrunk tests it wrote.
#[test]
fn regressions_agree_on_every_backend() {
    use gen::{Func, Stmt, Test, Ty, Val};
    let op = |dst: (Ty, usize), op, args: Vec<Val>| Stmt::Op {
        dst,
        op,
        args,
        catch: None,
    };
    use rpy3_model::lloperation::LlOp;
    let regressions = [
        // seed 1, test 3: genc wrote `-` before a negative constant, which
        // C reads as `--`, the decrement operator (and so for `~`, `!` and
        // abs)
        vec![
            op(
                (Ty::Float, 1),
                LlOp::FloatNeg,
                vec![Val::Float(-9.223372036854776e18)],
            ),
            op((Ty::Int, 2), LlOp::IntNeg, vec![Val::Int(-7)]),
            op((Ty::Int, 3), LlOp::IntAbs, vec![Val::Int(-8)]),
            op((Ty::Int, 0), LlOp::IntInvert, vec![Val::Int(-1)]),
        ],
        // seed 5, tests 246 and 337: the llinterp's acosh, asinh and atanh
        // were Rust's formulas, off in the last bits and overflowing early
        // (`testsuite/cases/fuzz_math_hyperbolic.py` from Python)
        vec![
            op((Ty::Float, 0), LlOp::FloatAcosh, vec![Val::Float(2.5)]),
            op((Ty::Float, 1), LlOp::FloatAcosh, vec![Val::Float(1e308)]),
            op((Ty::Float, 2), LlOp::FloatAsinh, vec![Val::Float(1e300)]),
        ],
        vec![op(
            (Ty::Float, 0),
            LlOp::FloatAtanh,
            vec![Val::Float(-0.999999)],
        )],
    ];
    pyo3::Python::initialize();
    pyo3::Python::attach(|py| {
        for body in regressions {
            let t = Test {
                helpers: Vec::new(),
                entry: Func {
                    init_ints: [0, 1],
                    init_floats: [0.5, 1.5],
                    body,
                },
                cases: vec![(3, 4, 2.5)],
            };
            for (expected, got) in
                lowlevel::outcomes(py, std::slice::from_ref(&t), LlBackend::ALL).unwrap()
            {
                assert!(
                    matches!(expected, lowlevel::Outcome::Value(_)),
                    "{expected:?}"
                );
                for g in got {
                    assert_eq!(g, expected, "{}", gen::text(&t));
                }
            }
        }
    });
}
