//! The `float_format_char` operation of the llinterp formats floats as
//! CPython does: compared with `format()` on values chosen to stress
//! rounding, exponents and special values, for every presentation.

use pyo3::prelude::*;
use rpy3_llinterp::arith::format_float_char;

fn rust_text(x: f64, spec: i64) -> String {
    (0..)
        .map(|k| format_float_char(x, spec, k))
        .take_while(|&c| c >= 0)
        .map(|c| char::from(c as u8))
        .collect()
}

#[test]
fn float_formatting_matches_cpython() {
    Python::attach(|py| {
        rpy3_testsuite::load::add_to_sys_path(py, &rpy3_testsuite::load::python_package_dir())
            .unwrap();
        let emulation = py
            .import("rpy3.lltype")
            .unwrap()
            .getattr("float_format_char")
            .unwrap();
        let mut values = vec![
            0.0,
            1.0,
            0.5,
            1.5,
            2.5,
            1.005,
            0.1,
            0.3,
            1e16,
            1e15,
            f64::from_bits(0x4341_c379_37e0_7fff),
            1e-4,
            1e-5,
            0.000_123_45,
            123_456_789.0,
            1e22,
            1e23,
            5e-324,
            1.797_693_134_862_315_7e308,
            2.225_073_858_507_201_4e-308,
            9.5,
            0.95,
            0.095,
            99.5,
            999_999.5,
            1234.5678,
            f64::INFINITY,
            f64::NAN,
            1.0 / 3.0,
            2.0 / 3.0,
            1e100,
            123e-20,
        ];
        // a deterministic spread of magnitudes and mantissas
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..300 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state >> 2);
            if x.is_finite() {
                values.push(x);
            }
        }
        let mut specs = vec![i64::from(b'r'), i64::from(b'r') + (1 << 40)];
        for code in [b'e', b'E', b'f', b'F', b'g', b'G', b'%', b'h'] {
            for precision in [None, Some(0), Some(1), Some(3), Some(6), Some(17), Some(30)] {
                if code == b'h' && precision.is_none() {
                    continue;
                }
                for alternate in [false, true] {
                    let p = precision.map_or(0, |p: i64| p + 1);
                    specs.push(i64::from(code) + (p << 8) + (i64::from(alternate) << 40));
                }
            }
        }
        for &x in &values {
            for &spec in &specs {
                let mut want = String::new();
                for k in 0.. {
                    let c: i64 = emulation.call1((x, spec, k)).unwrap().extract().unwrap();
                    if c < 0 {
                        break;
                    }
                    want.push(char::from_u32(c as u32).unwrap());
                }
                assert_eq!(rust_text(x, spec), want, "x={x:e} spec={spec:#x}");
            }
        }
    });
}
