//! The C runtime (`genc/runtime/`) against its references: every
//! function is compiled with the system `cc` together with a small driver
//! (`driver.c`, which runs commands from a file and writes one
//! result line per command) and checked
//! - against CPython (through pyo3) for float formatting, float parsing,
//!   float arithmetic and the math module, values and exceptions;
//! - against the llinterp's semantics (`llinterp/src/arith.rs`, restated
//!   in `arith.rs`, and its public `parse_float`, `Streams` and `unicodedb`) for
//!   word arithmetic, conversions, the Unicode database and the streams;
//! - for warnings (-Wall -Wextra -Werror at -O0, -O2, -O3, -pedantic),
//!   for results independent of the optimisation, and under
//!   AddressSanitizer and UndefinedBehaviorSanitizer.
//!
//! `main.rs` holds the harness (compiling, running, the Python
//! reference); `arith.rs`, `text.rs`, `ext.rs` and `build.rs` the tests.

mod arith;
mod build;
mod ext;
mod text;

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyString, PyTuple};
use rpy3_genc::runtime::{HEADER, LINK_LIBS, RUNTIME_SOURCES};
use rpy3_genc::unicode::unicodedb_c_source;

const DRIVER: &str = include_str!("driver.c");

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

/// Integers at the edges of the operations, and random ones.
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

/// Floats at the edges of the operations, and random ones.
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

/// `spec` of `float_format_char`: code, precision + 1 (0: none), alternate.
fn spec(code: u8, precision: Option<u32>, alternate: bool) -> i64 {
    let p = precision.map_or(0, |p| i64::from(p) + 1);
    i64::from(code) + (p << 8) + (i64::from(alternate) << 40)
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
