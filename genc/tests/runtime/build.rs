//! The build: warnings, optimisation levels, the sanitizers, and the
//! coverage of the operation and external-function tables.

use rpy3_model::extfunc::ALL_EXT_FUNCS;
use rpy3_model::lloperation::ALL_LL_OPS;

use super::*;

#[test]
fn runtime_compiles_without_warnings() {
    // -O2 is the driver of the other tests; -O0 and -O3 here
    for flags in [&["-O0"][..], &["-O3"], &["-O2", "-pedantic"]] {
        if let Err(e) = compile(flags) {
            panic!("{flags:?}: {e}");
        }
    }
}

#[test]
fn results_do_not_depend_on_the_optimisation() {
    // GNU C with the machine's fma and contraction allowed, and -O0, give
    // the results of the -O2 build
    let mut rng = Rng(0x0F0F_0F0F_F0F0_F0F0);
    let floats = interesting_floats(&mut rng, 30);
    let mut commands = Vec::new();
    for &x in &floats {
        for &y in &floats {
            for name in [
                "float_hypot",
                "float_floordiv",
                "float_mod",
                "float_math_pow",
            ] {
                commands.push(format!("call {name} {} {}", fhex(x), fhex(y)));
            }
        }
        for n in [-3, 0, 2, 17] {
            commands.push(format!("call float_round_digits {} {n}", fhex(x)));
        }
        for code in [b'r', b'e', b'g'] {
            commands.push(format!("fmt {} {}", fhex(x), spec(code, Some(12), false)));
        }
    }
    for i in 0..200i64 {
        commands.push(format!("call int_truediv {} {}", i64::MAX - i * 977, 3 + i));
    }
    let want = run(driver(), &commands);
    for flags in [
        &["-O3", "-march=native", "-ffp-contract=fast", "-std=gnu11"][..],
        &["-O0"],
    ] {
        let d = compile(flags).unwrap_or_else(|e| panic!("{flags:?}: {e}"));
        let got = run(&d, &commands);
        for ((c, w), g) in commands.iter().zip(&want).zip(&got) {
            assert_eq!(g, w, "{c} with {flags:?}");
        }
    }
}

#[test]
fn runtime_is_clean_under_the_sanitizers() {
    let flags = [
        "-O1",
        "-g",
        "-fno-omit-frame-pointer",
        "-fsanitize=address,undefined,float-cast-overflow",
        "-fno-sanitize-recover=all",
    ];
    let d = match compile(&flags) {
        Ok(d) => d,
        Err(e) if e.contains("cannot find") || e.contains("-lasan") || e.contains("ubsan") => {
            eprintln!("the sanitizers are not available here: {e}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    let mut rng = Rng(0xA5A5_A5A5_5A5A_5A5A);
    let ints = interesting_ints(&mut rng);
    let floats = interesting_floats(&mut rng, 10);
    let mut commands = Vec::new();
    let names_ii = [
        "int_floordiv",
        "int_mod",
        "int_floordiv_ovf",
        "int_mod_ovf",
        "int_lshift",
        "int_rshift",
        "int_lshift_ovf",
        "int_add_ovf",
        "int_sub_ovf",
        "int_mul_ovf",
        "int_pow",
        "int_truediv",
        "uint_lshift",
        "uint_rshift",
    ];
    for &x in &ints {
        for &y in &ints {
            for name in names_ii {
                commands.push(format!("call {name} {x} {y}"));
            }
            for name in ["uint_floordiv", "uint_mod"] {
                commands.push(format!("call {name} {} {}", x as u64, y as u64));
            }
        }
        for name in [
            "int_neg_ovf",
            "int_abs_ovf",
            "cast_int_to_char",
            "cast_int_to_unichar",
        ] {
            commands.push(format!("call {name} {x}"));
        }
    }
    for &x in &floats {
        let h = fhex(x);
        for name in [
            "float_sqrt",
            "float_log",
            "float_exp",
            "float_round",
            "float_frexp_exp",
            "cast_float_to_int",
            "cast_float_to_uint",
            "float_acosh",
        ] {
            commands.push(format!("call {name} {h}"));
        }
        for n in [0, 3, -3, 400, -400, i64::MAX, i64::MIN] {
            commands.push(format!("call float_round_digits {h} {n}"));
            commands.push(format!("call float_ldexp {h} {n}"));
        }
        for &y in floats.iter().step_by(3) {
            for name in [
                "float_floordiv",
                "float_mod",
                "float_pow",
                "float_math_pow",
                "float_hypot",
                "float_fmod",
            ] {
                commands.push(format!("call {name} {h} {}", fhex(y)));
            }
        }
        for code in [b'r', b'e', b'f', b'g', b'%', b'h'] {
            for p in [
                None,
                Some(0),
                Some(3),
                Some(17),
                Some(1100),
                Some(1101),
                Some(4000),
            ] {
                for alternate in [false, true] {
                    commands.push(format!("fmt {h} {}", spec(code, p, alternate)));
                }
            }
        }
        commands.push(format!("parse {}", cps(&format!("{x:e}"))));
    }
    // the largest precision a spec can hold: the driver reads the
    // first 100000 characters
    commands.push(format!(
        "fmt {} {}",
        fhex(1.5),
        spec(b'f', Some(u32::MAX - 1), true)
    ));
    commands.push(format!(
        "fmt {} {}",
        fhex(1e-300),
        (0xffff_ffffi64 << 8) | i64::from(b'g') | (1 << 40)
    ));
    commands.push(format!("fmt {} {}", fhex(2.0), -1));
    commands.push(format!("fmt {} {}", fhex(2.0), i64::MIN));
    for t in ["", "-", "1e", "nan", "1.5e-400", "١", "+.e"] {
        commands.push(format!("parse {}", cps(t)));
    }
    commands.push(format!("parse {}", cps(&"9".repeat(5000))));
    commands.push("unidump".into());
    let mut text = commands.join("\n");
    text.push('\n');
    text.push_str("sw 1 61,a\nsw 2 62\now 1 63\nsw 1 d800\nrl\nrl\nor 0 5\nclose 77\n");
    text.push_str(&format!("getenv {}\n", cps("HOME")));
    text.push_str(&format!("open {} 0 0\n", cps("/nonexistent")));
    text.push_str("exit 0\n");
    let r = run_full(&d, &text, b"line\nrest", &[]);
    assert_eq!(
        r.status,
        Some(0),
        "{}",
        r.stderr_note.chars().take(5000).collect::<String>()
    );
    assert!(
        !r.results.iter().any(|l| l.starts_with('X')),
        "{:?}",
        r.results.iter().find(|l| l.starts_with('X'))
    );
    assert_eq!(r.output, b"ca\nb", "{}", r.stderr_note);
}

/// Whether `source` defines the C function `name` (its name, its
/// parameter list, then a body).
fn defines(source: &str, name: &str) -> bool {
    let pat = format!("{name}(");
    source.match_indices(&pat).any(|(at, _)| {
        let before = source[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let rest = &source[at + pat.len()..];
        // the parameter list's closing parenthesis (parameters may be
        // function pointers, with parentheses of their own)
        let mut depth = 1;
        let Some(close) = rest.char_indices().find_map(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        }) else {
            return false;
        };
        rest[close + 1..].trim_start().starts_with('{')
    })
}

#[test]
fn every_operation_and_external_function_has_a_definition() {
    let mut all = String::new();
    for (_, text) in RUNTIME_SOURCES {
        all.push_str(text);
    }
    all.push_str(unicodedb_source());
    let mut missing = Vec::new();
    for (_, text) in rpy3_genc::CORE_SOURCES {
        all.push_str(text);
    }
    // genc implements every operation, inline or through the function of
    // the runtime it names
    for &op in ALL_LL_OPS {
        if !rpy3_genc::funcs::implemented(op) {
            missing.push(format!("operation {op} in genc"));
        }
        if let Some(f) = rpy3_genc::funcs::runtime_call(op) {
            if !defines(&all, f) {
                missing.push(format!("operation {op}: {f} in the runtime"));
            }
        }
    }
    for f in ALL_EXT_FUNCS {
        if !defines(&all, &format!("rpy_ext_{}", f.name())) {
            missing.push(format!("external function {}", f.name()));
        }
    }
    for name in ["rpy_streams_flush_all", "rpy_exit"] {
        if !defines(&all, name) {
            missing.push(name.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "no definition in the runtime: {missing:?}"
    );
    // and every function rpy3.h declares is defined, but for the program's
    let mut declared = 0;
    for line in HEADER.1.lines() {
        let Some(open) = line.find('(') else { continue };
        if !line.trim_end().ends_with(");") || line.starts_with(' ') {
            continue;
        }
        let name = line[..open].rsplit([' ', '*']).next().unwrap_or("");
        if ["rpy_raise_builtin", "rpy_new_string", "rpy_new_bytes"].contains(&name) {
            continue;
        }
        assert!(
            defines(&all, name),
            "rpy3.h declares {name}, the runtime does not define it"
        );
        declared += 1;
    }
    assert!(
        declared > 70,
        "only {declared} declarations found in rpy3.h"
    );
}
