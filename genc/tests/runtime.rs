//! The C runtime (`genc/runtime/`) against its references: every
//! function is compiled with the system `cc` together with a small driver
//! (`runtime_driver.c`, which runs commands from a file and writes one
//! result line per command) and checked
//! - against CPython (through pyo3) for float formatting, float parsing,
//!   float arithmetic and the math module, values and exceptions;
//! - against the llinterp's semantics (`llinterp/src/arith.rs`, restated
//!   below, and its public `parse_float`, `Streams` and `unicodedb`) for
//!   word arithmetic, conversions, the Unicode database and the streams;
//! - for warnings (-Wall -Wextra -Werror at -O0 and -O2) and under
//!   AddressSanitizer and UndefinedBehaviorSanitizer.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyString, PyTuple};
use rpy3_genc::runtime::{HEADER, LINK_LIBS, RUNTIME_SOURCES};
use rpy3_genc::unicode::unicodedb_c_source;
use rpy3_llinterp::world::{Errno, Streams, World};
use rpy3_model::extfunc::ALL_EXT_FUNCS;
use rpy3_model::lloperation::ALL_LL_OPS;

const DRIVER: &str = include_str!("runtime_driver.c");

/// Exception indices of `enum rpy_builtin_exc`.
const ZERO_DIVISION: u8 = 0;
const OVERFLOW: u8 = 1;
const VALUE: u8 = 2;
const OS_ERROR: u8 = 5;

/// A compiled driver.
struct Driver {
    _dir: tempfile::TempDir,
    exe: PathBuf,
}

/// Writes the runtime, the Unicode database and the driver into `dir`;
/// the C files to compile.
fn write_sources(dir: &Path) -> Vec<PathBuf> {
    std::fs::write(dir.join(HEADER.0), HEADER.1).unwrap();
    let mut files = Vec::new();
    for (name, text) in RUNTIME_SOURCES
        .iter()
        .copied()
        .chain([("unicodedb.c", unicodedb_source()), ("driver.c", DRIVER)])
    {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        files.push(path);
    }
    files
}

fn unicodedb_source() -> &'static str {
    static SRC: OnceLock<String> = OnceLock::new();
    SRC.get_or_init(unicodedb_c_source)
}

/// Compiles the driver with `flags`; the compiler's complaint on failure
/// (warnings are errors).
fn compile(flags: &[&str]) -> Result<Driver, String> {
    let dir = tempfile::tempdir().unwrap();
    let files = write_sources(dir.path());
    let exe = dir.path().join("driver");
    let output = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-fwrapv"])
        .args(flags)
        .arg("-I")
        .arg(dir.path())
        .args(&files)
        .arg("-o")
        .arg(&exe)
        .args(LINK_LIBS)
        .output()
        .map_err(|e| format!("cannot run cc: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if !output.status.success() || !stderr.trim().is_empty() {
        return Err(stderr);
    }
    Ok(Driver { _dir: dir, exe })
}

fn driver() -> &'static Driver {
    static D: OnceLock<Driver> = OnceLock::new();
    D.get_or_init(|| compile(&["-O2"]).unwrap_or_else(|e| panic!("the runtime: {e}")))
}

/// What a run of the driver gave.
struct Run {
    results: Vec<String>,
    /// What the program wrote to descriptors 1 and 2 (one file for both).
    output: Vec<u8>,
    status: Option<i32>,
    stderr_note: String,
}

fn run_full(d: &Driver, commands: &str, stdin: &[u8], env: &[(&str, &[u8])]) -> Run {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let (cmd_path, res_path, out_path) = (
        dir.path().join("commands"),
        dir.path().join("results"),
        dir.path().join("output"),
    );
    std::fs::write(&cmd_path, commands).unwrap();
    let in_path = dir.path().join("stdin");
    std::fs::write(&in_path, stdin).unwrap();
    let out_file = std::fs::File::create(&out_path).unwrap();
    let mut cmd = Command::new(&d.exe);
    cmd.arg(&cmd_path)
        .arg(&res_path)
        .stdin(std::fs::File::open(&in_path).unwrap())
        .stdout(out_file.try_clone().unwrap())
        .stderr(out_file);
    for (k, v) in env {
        cmd.env(k, std::ffi::OsStr::from_bytes(v));
    }
    let status = cmd.status().unwrap();
    let results = std::fs::read_to_string(&res_path).unwrap_or_default();
    let output = std::fs::read(&out_path).unwrap();
    let stderr_note = String::from_utf8_lossy(&output).into_owned();
    Run {
        results: results.lines().map(str::to_string).collect(),
        output,
        status: status.code(),
        stderr_note,
    }
}

/// Runs commands whose results are all that matters: one line each.
fn run(d: &Driver, commands: &[String]) -> Vec<String> {
    let mut text = commands.join("\n");
    text.push('\n');
    let r = run_full(d, &text, b"", &[]);
    assert_eq!(
        r.status,
        Some(0),
        "the driver failed: {}",
        r.stderr_note.chars().take(3000).collect::<String>()
    );
    assert!(r.output.is_empty(), "unexpected output: {}", r.stderr_note);
    assert_eq!(r.results.len(), commands.len(), "one result per command");
    r.results
}

/// Commands and the results they must give, checked in one run.
#[derive(Default)]
struct Expect {
    commands: Vec<String>,
    want: Vec<String>,
}

impl Expect {
    fn push(&mut self, command: String, want: String) {
        self.commands.push(command);
        self.want.push(want);
    }

    fn check(&self, d: &Driver) {
        let got = run(d, &self.commands);
        let mut bad = Vec::new();
        for ((c, w), g) in self.commands.iter().zip(&self.want).zip(&got) {
            if normalize(c, g) != *w {
                bad.push(format!("{c}\n    want {w}\n    got  {g}"));
            }
        }
        assert!(
            bad.is_empty(),
            "{} of {} results differ:\n{}",
            bad.len(),
            got.len(),
            {
                let mut by_name: std::collections::BTreeMap<String, usize> = Default::default();
                for b in &bad {
                    let name: String = b.split(' ').take(2).collect::<Vec<_>>().join(" ");
                    *by_name.entry(name).or_default() += 1;
                }
                format!(
                    "{by_name:?}\n{}",
                    bad.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
                )
            }
        );
    }
}

/// A float result whose bits are a NaN reads "R nan" (NaN payloads and
/// signs are not compared).
fn normalize(command: &str, got: &str) -> String {
    if let Some(hex) = got.strip_prefix("R ") {
        if hex.len() == 16 && returns_float(command) {
            if let Ok(bits) = u64::from_str_radix(hex, 16) {
                if f64::from_bits(bits).is_nan() {
                    return "R nan".into();
                }
            }
        }
    }
    got.to_string()
}

fn returns_float(command: &str) -> bool {
    let mut words = command.split(' ');
    match words.next() {
        Some("parse") => true,
        Some("call") => {
            let name = words.next().unwrap_or("");
            name.starts_with("float_") && name != "float_frexp_exp" || name == "int_truediv"
        }
        _ => false,
    }
}

fn fhex(x: f64) -> String {
    format!("{:016x}", x.to_bits())
}

fn fres(x: f64) -> String {
    if x.is_nan() {
        "R nan".into()
    } else {
        format!("R {}", fhex(x))
    }
}

fn res<T: std::fmt::Display>(r: Result<T, u8>) -> String {
    match r {
        Ok(v) => format!("R {v}"),
        Err(e) => format!("E {e}"),
    }
}

/// A deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

// ---- the llinterp's word arithmetic (llinterp/src/arith.rs, exec.rs) ----

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

fn interesting_ints(rng: &mut Rng) -> Vec<i64> {
    let mut v: Vec<i64> = vec![
        0,
        1,
        -1,
        2,
        -2,
        3,
        -3,
        5,
        -7,
        10,
        63,
        64,
        65,
        100,
        255,
        256,
        0x10FFFF,
        0x110000,
        3_037_000_499,
        3_037_000_500,
        -3_037_000_500,
        1 << 31,
        1 << 32,
        -(1 << 32),
        1 << 53,
        (1 << 53) + 1,
        -(1 << 53) - 1,
        1 << 62,
        i64::MAX,
        i64::MAX - 1,
        i64::MIN,
        i64::MIN + 1,
    ];
    for _ in 0..16 {
        let bits = rng.next();
        v.push(bits as i64 >> rng.below(64));
    }
    v
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

// ---- CPython as the reference ---------------------------------------------

const PY_REFERENCE: &str = r##"
import math, struct

def _r(r):
    if isinstance(r, complex):
        raise ValueError("complex result")
    if isinstance(r, float):
        if r != r:
            return "R nan"
        return "R %016x" % struct.unpack("<Q", struct.pack("<d", r))[0]
    return "R %d" % r

def _raise(e):
    raise e("negative base to a fractional power (RPython's ValueError, not a complex)")

F = {
    "int_truediv": lambda x, y: x / y,
    "float_truediv": lambda x, y: x / y,
    "float_floordiv": lambda x, y: x // y,
    "float_mod": lambda x, y: x % y,
    "float_pow": lambda x, y: (
        _raise(ValueError) if x < 0.0 and math.isfinite(x) and math.isfinite(y)
        and y != math.floor(y) else x ** y),
    "float_sqrt": math.sqrt, "float_exp": math.exp, "float_expm1": math.expm1,
    "float_log": math.log, "float_log2": math.log2, "float_log10": math.log10,
    "float_log1p": math.log1p, "float_sin": math.sin, "float_cos": math.cos,
    "float_tan": math.tan, "float_asin": math.asin, "float_acos": math.acos,
    "float_atan": math.atan, "float_sinh": math.sinh, "float_cosh": math.cosh,
    "float_tanh": math.tanh, "float_asinh": math.asinh, "float_acosh": math.acosh,
    "float_atanh": math.atanh, "float_atan2": math.atan2, "float_fmod": math.fmod,
    "float_math_pow": math.pow, "float_hypot": math.hypot,
    "float_copysign": math.copysign,
    "float_frexp_exp": lambda x: math.frexp(x)[1],
    "float_ldexp": math.ldexp,
    "float_round_digits": lambda x, n: round(x, n),
}

def ref(name, *args):
    try:
        return _r(F[name](*args))
    except ZeroDivisionError:
        return "E 0"
    except OverflowError:
        return "E 1"
    except ValueError:
        return "E 2"

def fmt(x, spec):
    # rpy3.lltype.float_format_char: the magnitude of x formatted by spec
    code = chr(spec & 0xff)
    p = (spec >> 8) & 0xffffffff
    alternate = "#" if (spec >> 40) & 1 else ""
    x = abs(x)
    if code == "r":
        return format(x, alternate)
    if code == "h":
        return format(x, alternate + ".%d" % (p - 1))
    return format(x, alternate + (".%d" % (p - 1) if p else "") + code)

def midpoints(bits):
    # the exact midpoints between doubles and their successors, and the
    # decimals just above and below them
    from decimal import Decimal, Context
    ctx = Context(prec=1200)
    out = []
    for b in bits:
        x = struct.unpack("<d", struct.pack("<Q", b))[0]
        y = struct.unpack("<d", struct.pack("<Q", b + 1))[0]
        m = ctx.divide(ctx.add(Decimal(x), Decimal(y)), 2)
        out += [str(m), str(ctx.next_plus(m)), str(ctx.next_minus(m))]
    return out

def parse(text):
    # rpy3.lltype.str_to_float
    if not text.isascii() or "_" in text or text != text.strip():
        return "E 2"
    try:
        return _r(float(text))
    except ValueError:
        return "E 2"
"##;

fn with_reference<T>(f: impl FnOnce(Python<'_>, &Bound<'_, PyDict>) -> T) -> T {
    Python::attach(|py| {
        let globals = PyDict::new(py);
        py.run(&CString::new(PY_REFERENCE).unwrap(), Some(&globals), None)
            .unwrap();
        f(py, &globals)
    })
}

/// An argument of a reference call.
#[derive(Clone, Copy)]
enum A {
    F(f64),
    I(i64),
}

/// `ref(name, *args)` of the Python reference: a result line.
fn py_ref(reff: &Bound<'_, PyAny>, name: &str, args: &[A]) -> String {
    let py = reff.py();
    let mut items: Vec<Bound<'_, PyAny>> = vec![PyString::new(py, name).into_any()];
    for a in args {
        items.push(match *a {
            A::F(x) => PyFloat::new(py, x).into_any(),
            A::I(i) => i.into_pyobject(py).unwrap().into_any(),
        });
    }
    reff.call1(PyTuple::new(py, items).unwrap())
        .unwrap()
        .extract()
        .unwrap()
}

fn interesting_floats(rng: &mut Rng, random: usize) -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        3.5,
        2.0,
        3.0,
        -3.0,
        0.1,
        0.3,
        10.0,
        100.0,
        1e16,
        1e22,
        1e23,
        1e300,
        1e308,
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        1e-310,
        2.225_073_858_507_201e-308,
        std::f64::consts::PI,
        std::f64::consts::E,
        709.0,
        709.8,
        710.0,
        -745.0,
        -746.0,
        0.999_999_999_999_999_9,
        1.000_000_000_000_000_2,
        9_007_199_254_740_992.0,
        9_007_199_254_740_993.0,
        9.223_372_036_854_776e18,
        -9.223_372_036_854_776e18,
        1.844_674_407_370_955_2e19,
        -0.999,
        1e-5,
        123_456.789,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for _ in 0..random {
        v.push(f64::from_bits(rng.next()));
        let m = (rng.below(2_000_000) as f64 - 1e6) / 1000.0;
        v.push(m);
        v.push(m * 10f64.powi(rng.below(40) as i32 - 20));
    }
    v
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

// ---- float text ------------------------------------------------------------

/// `spec` of `float_format_char`: code, precision + 1 (0: none), alternate.
fn spec(code: u8, precision: Option<u32>, alternate: bool) -> i64 {
    let p = precision.map_or(0, |p| i64::from(p) + 1);
    i64::from(code) + (p << 8) + (i64::from(alternate) << 40)
}

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

fn cps(text: &str) -> String {
    if text.is_empty() {
        return "-".into();
    }
    text.chars()
        .map(|c| format!("{:x}", c as u32))
        .collect::<Vec<_>>()
        .join(",")
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

// ---- the Unicode database ----------------------------------------------------

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

// ---- the external functions ------------------------------------------------

/// A world recording what reaches descriptors 1 and 2, in order, as the
/// driver's single output file does.
#[derive(Default)]
struct Recorder {
    output: Vec<u8>,
}

impl World for Recorder {
    fn write(&mut self, fd: i64, data: &[u8]) -> Result<i64, Errno> {
        assert!(fd == 1 || fd == 2);
        self.output.extend_from_slice(data);
        Ok(data.len() as i64)
    }
    fn read(&mut self, _fd: i64, _n: usize) -> Result<Vec<u8>, Errno> {
        Ok(Vec::new())
    }
    fn open(&mut self, _path: &str, _flags: i64, _mode: i64) -> Result<i64, Errno> {
        Err(1)
    }
    fn close(&mut self, _fd: i64) -> Result<(), Errno> {
        Ok(())
    }
    fn getenv(&mut self, _name: &str) -> Option<String> {
        None
    }
    fn time(&mut self) -> f64 {
        0.0
    }
    fn monotonic(&mut self) -> f64 {
        0.0
    }
    fn process_time(&mut self) -> f64 {
        0.0
    }
    fn sleep(&mut self, _seconds: f64) {}
    fn isatty(&mut self, _fd: i64) -> bool {
        false
    }
}

fn random_text(rng: &mut Rng) -> String {
    let pieces = [
        "a", "bc", "hello", " ", "\n", "é", "中文", "😀", "\u{7f}", "\u{0}", "x\ny",
    ];
    let n = if rng.below(10) == 0 {
        2000 + rng.below(3000)
    } else {
        rng.below(8)
    };
    (0..n)
        .map(|_| pieces[rng.below(pieces.len() as u64) as usize])
        .collect()
}

#[test]
fn streams_buffer_and_interleave_as_the_llinterp() {
    let mut rng = Rng(0x5EED_0000_0000_0001);
    for round in 0..6 {
        let mut streams = Streams::default();
        let mut world = Recorder::default();
        let mut e = Expect::default();
        for _ in 0..300 {
            match rng.below(10) {
                0..=4 => {
                    let fd = 1 + rng.below(2) as i64;
                    let text = random_text(&mut rng);
                    streams.write(&mut world, fd, text.as_bytes()).unwrap();
                    e.push(format!("sw {fd} {}", cps(&text)), "R".into());
                }
                5 => {
                    let fd = 1 + rng.below(2) as i64;
                    streams.flush(&mut world, fd).unwrap();
                    e.push(format!("sf {fd}"), "R".into());
                }
                6 | 7 => {
                    let fd = 1 + rng.below(2) as i64;
                    let bytes: Vec<u8> = (0..rng.below(20)).map(|_| rng.next() as u8).collect();
                    let n = world.write(fd, &bytes).unwrap();
                    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:x}")).collect();
                    let arg = if hex.is_empty() {
                        "-".into()
                    } else {
                        hex.join(",")
                    };
                    e.push(format!("ow {fd} {arg}"), format!("R {n}"));
                }
                8 => {
                    // not encodable, or not a stream: nothing written
                    e.push(
                        format!("sw 1 {}", cps("ab") + ",d800"),
                        format!("E {VALUE}"),
                    );
                    e.push(format!("sw 2 {},dfff,41", cps("\n")), format!("E {VALUE}"));
                    e.push("sw 1 110000".into(), format!("E {VALUE}"));
                    e.push(format!("sw 3 {}", cps("x")), format!("E {OS_ERROR}"));
                    e.push("sf 0".into(), format!("E {OS_ERROR}"));
                }
                _ => {
                    // a byte of os.write is the low byte of its item
                    let n = world.write(1, &[0x41]).unwrap();
                    e.push("ow 1 141".into(), format!("R {n}"));
                }
            }
        }
        let exit = round % 2 == 1;
        if exit {
            e.push(format!("exit {}", 256 + round), String::new());
        }
        streams.flush_all(&mut world);
        let mut text = e.commands.join("\n");
        text.push('\n');
        let r = run_full(driver(), &text, b"", &[]);
        assert_eq!(r.status, Some(if exit { round } else { 0 }));
        let n = e.want.len() - usize::from(exit);
        assert_eq!(r.results[..], e.want[..n], "results of round {round}");
        assert!(
            r.output == world.output,
            "round {round}: the output differs from the llinterp's at byte {}",
            r.output
                .iter()
                .zip(&world.output)
                .position(|(a, b)| a != b)
                .unwrap_or(r.output.len().min(world.output.len()))
        );
    }
}

#[test]
fn stdout_is_line_buffered_on_a_terminal() {
    let r = run_full(driver(), "tty\n", b"", &[]);
    assert_eq!(r.status, Some(0));
    if r.results == ["R unavailable"] {
        eprintln!("no pseudo-terminal here: line buffering untested");
        return;
    }
    // nothing after "ab"; "abc\n" (the terminal writes \r\n) after "c\n"
    assert_eq!(r.results, ["R 0 61,62,63,d,a"]);
}

#[test]
fn readline_decodes_lines_as_the_llinterp() {
    let mut stdin = b"first line\nsecond \xc3\xa9\xe4\xb8\xad\n".to_vec();
    stdin.extend_from_slice(
        b"bad \xff \xc3 \xe4\xb8 \xed\xa0\x80 \xf0\x9f\x98 \xf4\x90\x80\x80 \xc0\xaf end\n",
    );
    stdin.extend(std::iter::repeat_n(b'z', 20000));
    stdin.extend_from_slice("\n😀\nlast without newline".as_bytes());
    let mut want: Vec<String> = Vec::new();
    let mut commands = String::from("sw 1 70,3e\n");
    want.push("R".into());
    let mut rest = &stdin[..];
    loop {
        let line = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => &rest[..=i],
            None => rest,
        };
        rest = &rest[line.len()..];
        commands.push_str("rl\n");
        want.push(format!("S {}", cps(&String::from_utf8_lossy(line))));
        if line.is_empty() {
            break;
        }
    }
    let r = run_full(driver(), &commands, &stdin, &[]);
    assert_eq!(r.status, Some(0));
    assert_eq!(r.results, want);
    // stdout was flushed before reading
    assert_eq!(r.output, b"p>");
}

#[test]
fn os_functions_behave_as_the_llinterp() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("file é.txt");
    let p = cps(path.to_str().unwrap());
    // Linux values of O_RDONLY, O_WRONLY | O_CREAT | O_TRUNC
    let (rdonly, wronly_creat) = (0, 1 | 64 | 512);
    let commands = [
        format!("open {p} {wronly_creat} 420"),
        "ow 3 68,69,0,ff,100".into(),
        "close 3".into(),
        "close 3".into(),
        format!("open {p} {rdonly} 0"),
        "or 3 2".into(),
        "or 3 100".into(),
        "or 3 100".into(),
        "or 3 -1".into(),
        "close 3".into(),
        "or 99 1".into(),
        "ow 99 41".into(),
        "ow 4294967297 41".into(),
        "close -5".into(),
        format!("open {} {rdonly} 0", cps("/nonexistent/x")),
        format!("open {p},d800 {rdonly} 0"),
        format!("open {p},0 {rdonly} 0"),
        format!("open {p} 4294967296 0"),
        format!("open {p} {rdonly} -1"),
        format!("getenv {}", cps("RPY3_TEST_VAR")),
        format!("getenv {}", cps("RPY3_TEST_UNSET")),
        format!("getenv {}", cps("RPY3_TEST_BAD")),
        format!("getenv {},d800", cps("RPY3_TEST_VAR")),
        format!("getenv {},0", cps("RPY3_TEST_VAR")),
        "clock".into(),
        format!("sleep {}", fhex(-1.0)),
        format!("sleep {}", fhex(f64::NAN)),
        format!("sleep {}", fhex(f64::INFINITY)),
        format!("sleep {}", fhex(0.0)),
        format!("sleep {}", fhex(0.2)),
        "epipe".into(),
        "sw 1 68,69".into(),
        "sw 2 65".into(),
        "exit 7".into(),
    ];
    let want = [
        "R 3",
        "R 5",
        "R",
        &format!("E {OS_ERROR}"),
        "R 3",
        "B 68,69",
        "B 0,ff,0",
        "B -",
        &format!("E {VALUE}"),
        "R",
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {VALUE}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("E {OS_ERROR}"),
        &format!("S {}", cps("héllo 😀")),
        "N",
        "N",
        &format!("E {VALUE}"),
        "N",
        "R ok",
        &format!("E {VALUE}"),
        &format!("E {VALUE}"),
        "R slept",
        "R slept",
        "R slept",
        "R E5 E5",
        "R",
        "R",
    ];
    let mut text = commands.join("\n");
    text.push('\n');
    let r = run_full(
        driver(),
        &text,
        b"",
        &[
            ("RPY3_TEST_VAR", "héllo 😀".as_bytes()),
            ("RPY3_TEST_BAD", b"\xff\xfe"),
        ],
    );
    assert_eq!(r.status, Some(7), "{}", r.stderr_note);
    assert_eq!(r.results[..], want[..]);
    assert_eq!(r.output, b"hie", "sys.exit flushes stdout, then stderr");
    assert_eq!(std::fs::read(&path).unwrap(), b"hi\0\xff\0");
}

// ---- the build -------------------------------------------------------------

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

/// Operations the generated C does inline (a C operator, a field access,
/// a call): genc's engineer keeps this list; every other operation of the
/// table must have a function `rpy_<name>` in the runtime.
const INLINE_OPS: &[&str] = &[
    "int_add",
    "int_sub",
    "int_mul",
    "int_and",
    "int_or",
    "int_xor",
    "int_neg",
    "int_abs",
    "int_invert",
    "int_is_true",
    "int_lt",
    "int_le",
    "int_eq",
    "int_ne",
    "int_gt",
    "int_ge",
    "uint_add",
    "uint_sub",
    "uint_mul",
    "uint_and",
    "uint_or",
    "uint_xor",
    "uint_neg",
    "uint_invert",
    "uint_is_true",
    "uint_lt",
    "uint_le",
    "uint_eq",
    "uint_ne",
    "uint_gt",
    "uint_ge",
    "float_add",
    "float_sub",
    "float_mul",
    "float_neg",
    "float_abs",
    "float_is_true",
    "float_lt",
    "float_le",
    "float_eq",
    "float_ne",
    "float_gt",
    "float_ge",
    "float_isnan",
    "float_isinf",
    "float_isfinite",
    "char_lt",
    "char_le",
    "char_eq",
    "char_ne",
    "char_gt",
    "char_ge",
    "unichar_lt",
    "unichar_le",
    "unichar_eq",
    "unichar_ne",
    "unichar_gt",
    "unichar_ge",
    "bool_not",
    "same_as",
    "cast_bool_to_int",
    "cast_bool_to_uint",
    "cast_bool_to_float",
    "cast_int_to_float",
    "cast_uint_to_float",
    "cast_int_to_uint",
    "cast_uint_to_int",
    "cast_int_to_longlong",
    "cast_longlong_to_int",
    "cast_char_to_int",
    "cast_unichar_to_int",
    "malloc",
    "malloc_varsize",
    "getfield",
    "setfield",
    "getsubstruct",
    "getarrayitem",
    "setarrayitem",
    "getarraysize",
    "getinteriorfield",
    "setinteriorfield",
    "getinteriorarraysize",
    "cast_pointer",
    "ptr_eq",
    "ptr_ne",
    "ptr_iszero",
    "ptr_nonzero",
    "gc_identityhash",
    "gc_id",
    "direct_call",
    "indirect_call",
    "external_call",
    "debug_assert",
    "keepalive",
];

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
        let Some(close) = rest.find(')') else {
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
    for op in ALL_LL_OPS {
        let name = op.name();
        if INLINE_OPS.contains(&name) {
            continue;
        }
        if !defines(&all, &format!("rpy_{name}")) {
            missing.push(format!("operation {name}"));
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
