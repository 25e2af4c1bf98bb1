//! Float text against CPython (repr, format specifications, float()),
//! and the Unicode database against the model.

use super::*;

/// Values that stress the shortest repr: powers of two and their
/// neighbours (the rounding interval is asymmetric there), subnormals,
/// the largest values, decimal ties and random bit patterns.
fn repr_values(rng: &mut Rng) -> Vec<f64> {
    let mut v = Vec::new();
    for e in -1074..=1023 {
        let x = 2f64.powi(e.max(-1022)) * if e < -1022 { 2f64.powi(e + 1022) } else { 1.0 };
        let b = x.to_bits();
        v.extend([x, f64::from_bits(b - 1), f64::from_bits(b + 1)]);
    }
    for b in 1..200u64 {
        v.push(f64::from_bits(b));
        v.push(f64::from_bits(0x7fef_ffff_ffff_ffff - b));
        v.push(f64::from_bits(0x0010_0000_0000_0000 - b));
    }
    for _ in 0..20000 {
        let x = f64::from_bits(rng.next() & 0x7fff_ffff_ffff_ffff);
        if x.is_finite() {
            v.push(x);
        }
    }
    for _ in 0..5000 {
        let width = 1 + rng.below(17) as u32;
        let digits = rng.below(10u64.pow(width));
        let x: f64 = format!("{digits}e{}", rng.below(60) as i64 - 30)
            .parse()
            .unwrap();
        v.push(x);
    }
    v
}

#[test]
fn float_repr_matches_cpython() {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let values = repr_values(&mut rng);
    let mut e = Expect::default();
    with_reference(|_py, g| {
        let fmt = g.get_item("fmt").unwrap().unwrap();
        for &x in &values {
            for alternate in [false, true] {
                let s = spec(b'r', None, alternate);
                let want: String = fmt.call1((x, s)).unwrap().extract().unwrap();
                e.push(format!("fmt {} {s}", fhex(x)), format!("S {want}"));
            }
        }
    });
    e.check(driver());
}

#[test]
fn float_format_specs_match_cpython() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let mut values = interesting_floats(&mut rng, 60);
    values.extend([
        0.125,
        0.375,
        2.675,
        1.005,
        9.5,
        0.95,
        0.095,
        99.5,
        999_999.5,
        0.000_123_45,
        1234.5678,
        1.0 / 3.0,
        2.0 / 3.0,
        1e15,
        1e17,
        123e-20,
        5e-5,
        0.0001,
        0.00001,
        9.999_999e-5,
        999_999.0,
        9_999_999.0,
        1e6,
        1e-4,
        0.5e-4,
    ]);
    // exact decimal ties at some precision: m / 2**j, and m * 10**k
    for j in 1..=10 {
        for m in [
            1u32, 3, 5, 7, 9, 11, 13, 15, 17, 25, 27, 33, 63, 65, 127, 129, 1023, 1025,
        ] {
            values.push(f64::from(m) / f64::from(1u32 << j));
        }
    }
    for k in 0..24 {
        for m in [15.0, 25.0, 35.0, 45.0, 95.0, 125.0, 135.0, 1125.0, 99995.0] {
            values.push(m * 10f64.powi(k));
        }
    }
    let mut specs = Vec::new();
    for code in [b'e', b'E', b'f', b'F', b'g', b'G', b'%', b'h'] {
        let precisions = std::iter::once(None).chain((0..=20).chain([25, 30, 50]).map(Some));
        for precision in precisions {
            if code == b'h' && precision.is_none() {
                continue;
            }
            for alternate in [false, true] {
                specs.push(spec(code, precision, alternate));
            }
        }
    }
    // precisions past the digits printed exactly (1100), counted as zeros
    let mut long = Vec::new();
    for code in [b'e', b'f', b'g', b'%', b'h'] {
        for p in [767, 1074, 1099, 1100, 1101, 1200, 5000] {
            for alternate in [false, true] {
                long.push(spec(code, Some(p), alternate));
            }
        }
    }
    let mut e = Expect::default();
    with_reference(|_py, g| {
        let fmt = g.get_item("fmt").unwrap().unwrap();
        let mut add = |x: f64, s: i64| {
            let want: String = fmt.call1((x, s)).unwrap().extract().unwrap();
            e.push(format!("fmt {} {s}", fhex(x)), format!("S {want}"));
        };
        for &x in &values {
            for &s in &specs {
                add(x, s);
            }
        }
        for x in [5e-324, 1.5, f64::MAX, 1e-300, 0.1, 123.456, 1e22, 0.0] {
            for &s in &long {
                add(x, s);
            }
        }
    });
    e.check(driver());
}

#[test]
fn float_format_large_precisions_count_zeros() {
    // a precision of 4e9 digits is not formatted in memory: check the
    // characters around the end through the driver's k = -1 test and the
    // llinterp's own formatting of a smaller precision of the same shape
    let want = rpy3_llinterp::arith::format_float_abs(0.5, b'f', Some(3000), false);
    let mut e = Expect::default();
    e.push(
        format!("fmt {} {}", fhex(0.5), spec(b'f', Some(3000), false)),
        format!("S {want}"),
    );
    e.check(driver());
}

#[test]
fn str_to_float_matches_cpython_and_the_llinterp() {
    let mut texts: Vec<String> = [
        "1",
        "1.5",
        ".5",
        "5.",
        "1e5",
        "1E+5",
        "1e-5",
        "-0",
        "+0.0",
        "-0.0",
        "inf",
        "-Infinity",
        "+iNF",
        "nAn",
        "+nan",
        "-NaN",
        "infinity",
        "1e400",
        "-1e400",
        "1e-400",
        "0.1e1",
        "00012",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "4.9406564584124654e-324",
        "1e99999999999999999999",
        "1e-99999999999999999999",
        "9007199254740993",
        "9007199254740992.5",
        "0.30000000000000004",
        "",
        "+",
        "-",
        ".",
        "e5",
        "1e",
        "1e+",
        "1.5.5",
        " 1",
        "1 ",
        "1_0",
        "0x10",
        "infinit",
        "infinityy",
        "nana",
        "in",
        "1e5.5",
        "--1",
        "+-1",
        "1\u{0}",
        "\u{661}",
        "\u{2170}",
        "1e+-5",
        "1.e5",
        ".e5",
        "+.5",
        "-5.",
        "1\t",
        "\n1",
        "Inf1",
        "nan(1)",
        "1f",
        "1d",
        "1L",
        "0b1",
        "٣.5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // doubles written exactly (up to 767 significant digits), shortest,
    // with 17 digits, in fixed notation; the exact midpoints come below
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for _ in 0..300 {
        let x = f64::from_bits(rng.next() & 0x7fef_ffff_ffff_ffff);
        let exact = format!("{x:.1100e}");
        let (mantissa, exp) = exact.split_once('e').unwrap();
        texts.push(format!("{}e{exp}", mantissa.trim_end_matches('0')));
        texts.push(format!("{x:e}"));
        texts.push(format!("{x:.17e}"));
        texts.push(format!("{x}"));
    }
    for b in [1u64, 2, 3, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000] {
        texts.push(format!("{:.1100}", f64::from_bits(b)));
    }
    let mut e = Expect::default();
    with_reference(|_py, g| {
        let mut bits: Vec<u64> = vec![0, 1, 2, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000];
        bits.extend([
            0x3ff0_0000_0000_0000,
            0x4340_0000_0000_0000,
            0x7fef_ffff_ffff_fffe,
        ]);
        for _ in 0..300 {
            bits.push(rng.next() & 0x7fef_ffff_ffff_fffe);
        }
        let mids: Vec<String> = g
            .get_item("midpoints")
            .unwrap()
            .unwrap()
            .call1((bits,))
            .unwrap()
            .extract()
            .unwrap();
        texts.extend(mids);
        let parse = g.get_item("parse").unwrap().unwrap();
        for t in &texts {
            let want: String = parse.call1((t.as_str(),)).unwrap().extract().unwrap();
            // the llinterp (what the C runtime mirrors) must agree
            let llinterp = if t.chars().all(|c| (c as u32) < 128) {
                rpy3_llinterp::arith::parse_float(t).map_or("E 2".to_string(), fres)
            } else {
                "E 2".to_string()
            };
            assert_eq!(llinterp, want, "llinterp vs CPython on {t:?}");
            e.push(format!("parse {}", cps(t)), want);
        }
    });
    e.check(driver());
}

#[test]
fn unicodedb_matches_the_model() {
    use rpy3_model::unicodedb;
    let mut want = Vec::new();
    let mut last = None;
    let funcs: [fn(u32, i64) -> i64; 4] = [
        unicodedb::upper,
        unicodedb::lower,
        unicodedb::title,
        unicodedb::casefold,
    ];
    for c in 0..=0x11_0001u32 {
        let f = unicodedb::flags(c);
        if last != Some(f) {
            want.push(format!("P {c:x} {f}"));
        }
        last = Some(f);
        for (w, map) in funcs.iter().enumerate() {
            if map(c, 0) == i64::from(c) && map(c, 1) == -1 {
                continue;
            }
            let m: Vec<String> = (0..10)
                .map(|k| map(c, k))
                .take_while(|&m| m >= 0)
                .map(|m| format!("{m:x}"))
                .collect();
            want.push(format!("M {c:x} {w} {}", m.join(",")));
        }
    }
    let r = run_full(driver(), "unidump\n", b"", &[]);
    assert_eq!(r.status, Some(0));
    assert_eq!(r.results.len(), want.len());
    for (g, w) in r.results.iter().zip(&want) {
        assert_eq!(g, w);
    }
    let size = unicodedb_source().len();
    eprintln!("the Unicode database source: {size} bytes");
    assert!(
        size < 400_000,
        "the Unicode database source is {size} bytes"
    );
}
