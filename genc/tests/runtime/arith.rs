//! Word arithmetic against the llinterp's semantics (restated here from
//! `llinterp/src/arith.rs` and `exec.rs`), float arithmetic and the math
//! module against CPython.

use super::*;

fn floordiv(x: i64, y: i64) -> Result<i64, u8> {
    if y == 0 {
        return Err(ZERO_DIVISION);
    }
    let (q, r) = (x.wrapping_div(y), x.wrapping_rem(y));
    Ok(if r != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    })
}

fn modulo(x: i64, y: i64) -> Result<i64, u8> {
    if y == 0 {
        return Err(ZERO_DIVISION);
    }
    let r = x.wrapping_rem(y);
    Ok(if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    })
}

fn int_ref(name: &str, x: i64, y: i64) -> Result<i64, u8> {
    let count = |n: i64| {
        if n < 0 {
            Err(VALUE)
        } else {
            Ok(n.min(64) as u32)
        }
    };
    match name {
        "int_floordiv" => floordiv(x, y),
        "int_mod" => modulo(x, y),
        "int_floordiv_ovf" if y == -1 && x == i64::MIN => Err(OVERFLOW),
        "int_floordiv_ovf" => floordiv(x, y),
        "int_mod_ovf" if y == -1 && x == i64::MIN => Err(OVERFLOW),
        "int_mod_ovf" => modulo(x, y),
        "int_lshift" => count(y).map(|n| if n >= 64 { 0 } else { x.wrapping_shl(n) }),
        "int_rshift" => count(y).map(|n| x >> n.min(63)),
        "int_lshift_ovf" => {
            let n = count(y)?;
            if x == 0 {
                Ok(0)
            } else if n >= 64 || x.wrapping_shl(n) >> n != x {
                Err(OVERFLOW)
            } else {
                Ok(x.wrapping_shl(n))
            }
        }
        "int_add_ovf" => x.checked_add(y).ok_or(OVERFLOW),
        "int_sub_ovf" => x.checked_sub(y).ok_or(OVERFLOW),
        "int_mul_ovf" => x.checked_mul(y).ok_or(OVERFLOW),
        "int_neg_ovf" => x.checked_neg().ok_or(OVERFLOW),
        "int_abs_ovf" => x.checked_abs().ok_or(OVERFLOW),
        "int_pow" => {
            if y < 0 {
                return Err(VALUE);
            }
            let (mut base, mut e, mut acc) = (x, y as u64, 1i64);
            while e > 0 {
                if e & 1 == 1 {
                    acc = acc.wrapping_mul(base);
                }
                base = base.wrapping_mul(base);
                e >>= 1;
            }
            Ok(acc)
        }
        "cast_int_to_char" => u8::try_from(x).map(i64::from).map_err(|_| VALUE),
        "cast_int_to_unichar" => {
            if (0..=0x10FFFF).contains(&x) {
                Ok(x)
            } else {
                Err(VALUE)
            }
        }
        _ => panic!("no reference for {name}"),
    }
}

fn uint_ref(name: &str, x: u64, y: u64) -> Result<u64, u8> {
    let n = y as i64;
    match name {
        "uint_floordiv" => x.checked_div(y).ok_or(ZERO_DIVISION),
        "uint_mod" => x.checked_rem(y).ok_or(ZERO_DIVISION),
        "uint_lshift" if n < 0 => Err(VALUE),
        "uint_lshift" => Ok(if n >= 64 { 0 } else { x << n }),
        "uint_rshift" if n < 0 => Err(VALUE),
        "uint_rshift" => Ok(if n >= 64 { 0 } else { x >> n }),
        _ => panic!("no reference for {name}"),
    }
}

#[test]
fn word_arithmetic_matches_the_llinterp() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let ints = interesting_ints(&mut rng);
    let mut e = Expect::default();
    let binary = [
        "int_floordiv",
        "int_mod",
        "int_floordiv_ovf",
        "int_mod_ovf",
        "int_add_ovf",
        "int_sub_ovf",
        "int_mul_ovf",
    ];
    for &x in &ints {
        for &y in &ints {
            for name in binary {
                e.push(format!("call {name} {x} {y}"), res(int_ref(name, x, y)));
            }
            for name in ["uint_floordiv", "uint_mod"] {
                let (ux, uy) = (x as u64, y as u64);
                e.push(
                    format!("call {name} {ux} {uy}"),
                    res(uint_ref(name, ux, uy)),
                );
            }
        }
        for name in [
            "int_neg_ovf",
            "int_abs_ovf",
            "cast_int_to_char",
            "cast_int_to_unichar",
        ] {
            e.push(format!("call {name} {x}"), res(int_ref(name, x, 0)));
        }
        let counts = (-3..=70).chain([i64::MAX, i64::MIN, 1 << 40, 100, 128]);
        for n in counts {
            for name in ["int_lshift", "int_rshift", "int_lshift_ovf", "int_pow"] {
                e.push(format!("call {name} {x} {n}"), res(int_ref(name, x, n)));
            }
            for name in ["uint_lshift", "uint_rshift"] {
                let ux = x as u64;
                e.push(
                    format!("call {name} {ux} {n}"),
                    res(uint_ref(name, ux, n as u64)),
                );
            }
        }
    }
    e.check(driver());
}

#[test]
fn float_arithmetic_and_math_match_cpython() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let floats = interesting_floats(&mut rng, 40);
    let unary = [
        "float_sqrt",
        "float_exp",
        "float_expm1",
        "float_log",
        "float_log2",
        "float_log10",
        "float_log1p",
        "float_sin",
        "float_cos",
        "float_tan",
        "float_asin",
        "float_acos",
        "float_atan",
        "float_sinh",
        "float_cosh",
        "float_tanh",
        "float_asinh",
        "float_acosh",
        "float_atanh",
        "float_frexp_exp",
    ];
    let binary = [
        "float_truediv",
        "float_floordiv",
        "float_mod",
        "float_pow",
        "float_atan2",
        "float_fmod",
        "float_math_pow",
        "float_hypot",
        "float_copysign",
    ];
    let mut e = Expect::default();
    with_reference(|_py, g| {
        let reff = g.get_item("ref").unwrap().unwrap();
        let call = |name: &str, args: &[A]| py_ref(&reff, name, args);
        let (f, i) = (A::F, A::I);
        for &x in &floats {
            for name in unary {
                e.push(format!("call {name} {}", fhex(x)), call(name, &[f(x)]));
            }
            for &y in &floats {
                for name in binary {
                    e.push(
                        format!("call {name} {} {}", fhex(x), fhex(y)),
                        call(name, &[f(x), f(y)]),
                    );
                }
            }
            let ns = [
                0,
                1,
                -1,
                2,
                -2,
                5,
                -5,
                15,
                16,
                17,
                22,
                300,
                -300,
                -308,
                -309,
                323,
                324,
                1000,
                -1000,
                1023,
                1024,
                -1074,
                -1075,
                -1100,
                2000,
                -2000,
                i64::MAX,
                i64::MIN,
            ];
            for n in ns {
                for name in ["float_round_digits", "float_ldexp"] {
                    e.push(
                        format!("call {name} {} {n}", fhex(x)),
                        call(name, &[f(x), i(n)]),
                    );
                }
            }
        }
        // int / int, correctly rounded
        let ints = interesting_ints(&mut rng);
        for &x in &ints {
            for &y in &ints {
                e.push(
                    format!("call int_truediv {x} {y}"),
                    call("int_truediv", &[i(x), i(y)]),
                );
            }
        }
        for _ in 0..3000 {
            let x = rng.next() as i64 >> rng.below(64);
            let y = rng.next() as i64 >> rng.below(64);
            e.push(
                format!("call int_truediv {x} {y}"),
                call("int_truediv", &[i(x), i(y)]),
            );
        }
    });
    // rounding and conversions: the llinterp's (Rust's) semantics
    for &x in &floats {
        let h = fhex(x);
        e.push(format!("call float_floor {h}"), fres(x.floor()));
        e.push(format!("call float_ceil {h}"), fres(x.ceil()));
        e.push(format!("call float_trunc {h}"), fres(x.trunc()));
        e.push(format!("call float_round {h}"), fres(x.round_ties_even()));
        let to_int = if x.is_nan() {
            Err(VALUE)
        } else if (-9223372036854775808.0..9223372036854775808.0).contains(&x) {
            Ok(x as i64)
        } else {
            Err(OVERFLOW)
        };
        e.push(format!("call cast_float_to_int {h}"), res(to_int));
        let to_uint = if x.is_nan() {
            Err(VALUE)
        } else if x > -1.0 && x < 18446744073709551616.0 {
            Ok(x as u64)
        } else {
            Err(OVERFLOW)
        };
        e.push(format!("call cast_float_to_uint {h}"), res(to_uint));
    }
    for x in [
        0.5,
        1.5,
        2.5,
        -0.5,
        -1.5,
        4503599627370495.5,
        4503599627370496.0,
        0.49999999999999994,
    ] {
        e.push(
            format!("call float_round {}", fhex(x)),
            fres(x.round_ties_even()),
        );
    }
    e.check(driver());
}
