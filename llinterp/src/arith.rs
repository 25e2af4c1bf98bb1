//! Arithmetic with the semantics of `DESIGN.md`: machine words wrap in
//! two's complement, `//` and `%` floor as in Python, and the cases the
//! table says raise return the name of the built-in exception instead.

/// A built-in exception an operation raises.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Exc {
    ZeroDivision,
    Overflow,
    Value,
    Index,
    Memory,
    OsError,
    Recursion,
}

impl Exc {
    /// Every built-in exception, in `index` order.
    pub(crate) const ALL: [Exc; 7] = [
        Exc::ZeroDivision,
        Exc::Overflow,
        Exc::Value,
        Exc::Index,
        Exc::Memory,
        Exc::OsError,
        Exc::Recursion,
    ];

    /// The class name, as in `LlProgram::exceptions`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Exc::ZeroDivision => "ZeroDivisionError",
            Exc::Overflow => "OverflowError",
            Exc::Value => "ValueError",
            Exc::Index => "IndexError",
            Exc::Memory => "MemoryError",
            Exc::OsError => "OSError",
            Exc::Recursion => "RecursionError",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

pub(crate) const ZERO_DIVISION: Exc = Exc::ZeroDivision;
pub(crate) const OVERFLOW: Exc = Exc::Overflow;
pub(crate) const VALUE: Exc = Exc::Value;
pub(crate) const INDEX: Exc = Exc::Index;
pub(crate) const MEMORY: Exc = Exc::Memory;
pub(crate) const RECURSION: Exc = Exc::Recursion;

/// Python's `x // y` on words; `MIN // -1` wraps to `MIN`.
pub(crate) fn int_floordiv(x: i64, y: i64) -> Result<i64, Exc> {
    if y == 0 {
        return Err(ZERO_DIVISION);
    }
    let q = x.wrapping_div(y);
    // truncation rounded towards zero; floor needs one less when the signs
    // differ and the division was inexact
    if (x.wrapping_rem(y) != 0) && ((x < 0) != (y < 0)) {
        Ok(q - 1)
    } else {
        Ok(q)
    }
}

/// Python's `x % y` on words (the sign of the divisor).
pub(crate) fn int_mod(x: i64, y: i64) -> Result<i64, Exc> {
    if y == 0 {
        return Err(ZERO_DIVISION);
    }
    let r = x.wrapping_rem(y);
    if r != 0 && ((r < 0) != (y < 0)) {
        Ok(r + y)
    } else {
        Ok(r)
    }
}

/// `int_floordiv_ovf`: `MIN // -1` overflows.
pub(crate) fn int_floordiv_ovf(x: i64, y: i64) -> Result<i64, Exc> {
    if y == -1 && x == i64::MIN {
        return Err(OVERFLOW);
    }
    int_floordiv(x, y)
}

/// `int_mod_ovf`: `MIN % -1` raises `OverflowError`, as PyPy's C
/// implementation of the operation does (the division overflows in C).
pub(crate) fn int_mod_ovf(x: i64, y: i64) -> Result<i64, Exc> {
    if y == -1 && x == i64::MIN {
        return Err(OVERFLOW);
    }
    int_mod(x, y)
}

/// Shift counts: negative raises `ValueError`.
fn shift_count(n: i64) -> Result<u32, Exc> {
    if n < 0 {
        Err(VALUE)
    } else {
        Ok(n.min(64) as u32)
    }
}

/// `x << n` wrapped (Python's result reduced to a word).
pub(crate) fn int_lshift(x: i64, n: i64) -> Result<i64, Exc> {
    let n = shift_count(n)?;
    Ok(if n >= 64 { 0 } else { x.wrapping_shl(n) })
}

/// Arithmetic `x >> n`.
pub(crate) fn int_rshift(x: i64, n: i64) -> Result<i64, Exc> {
    let n = shift_count(n)?;
    Ok(x >> n.min(63))
}

/// `x << n` raising `OverflowError` when bits are lost.
pub(crate) fn int_lshift_ovf(x: i64, n: i64) -> Result<i64, Exc> {
    let n = shift_count(n)?;
    if x == 0 {
        return Ok(0);
    }
    if n >= 64 {
        return Err(OVERFLOW);
    }
    let r = x.wrapping_shl(n);
    if r >> n != x {
        return Err(OVERFLOW);
    }
    Ok(r)
}

/// Unsigned `x << n` wrapped.
pub(crate) fn uint_lshift(x: u64, n: i64) -> Result<u64, Exc> {
    let n = shift_count(n)?;
    Ok(if n >= 64 { 0 } else { x << n })
}

/// Logical `x >> n`.
pub(crate) fn uint_rshift(x: u64, n: i64) -> Result<u64, Exc> {
    let n = shift_count(n)?;
    Ok(if n >= 64 { 0 } else { x >> n })
}

/// `x ** y` wrapped; a negative exponent raises `ValueError`.
pub(crate) fn int_pow(x: i64, y: i64) -> Result<i64, Exc> {
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

pub(crate) fn uint_floordiv(x: u64, y: u64) -> Result<u64, Exc> {
    x.checked_div(y).ok_or(ZERO_DIVISION)
}

pub(crate) fn uint_mod(x: u64, y: u64) -> Result<u64, Exc> {
    x.checked_rem(y).ok_or(ZERO_DIVISION)
}

pub(crate) fn ovf(r: Option<i64>) -> Result<i64, Exc> {
    r.ok_or(OVERFLOW)
}

pub(crate) fn float_truediv(x: f64, y: f64) -> Result<f64, Exc> {
    if y == 0.0 {
        return Err(ZERO_DIVISION);
    }
    Ok(x / y)
}

/// CPython's `float_divmod`: returns (floor quotient, modulo).
fn float_divmod(vx: f64, wx: f64) -> (f64, f64) {
    let mut m = vx % wx;
    let mut div = (vx - m) / wx;
    if m != 0.0 {
        if (wx < 0.0) != (m < 0.0) {
            m += wx;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(wx);
    }
    let floordiv = if div != 0.0 {
        let mut f = div.floor();
        if div - f > 0.5 {
            f += 1.0;
        }
        f
    } else {
        0.0f64.copysign(vx / wx)
    };
    (floordiv, m)
}

pub(crate) fn float_floordiv(x: f64, y: f64) -> Result<f64, Exc> {
    if y == 0.0 {
        return Err(ZERO_DIVISION);
    }
    Ok(float_divmod(x, y).0)
}

/// CPython's `float_rem`.
pub(crate) fn float_mod(x: f64, y: f64) -> Result<f64, Exc> {
    if y == 0.0 {
        return Err(ZERO_DIVISION);
    }
    let mut m = x % y;
    if m != 0.0 {
        if (y < 0.0) != (m < 0.0) {
            m += y;
        }
    } else {
        m = 0.0f64.copysign(y);
    }
    Ok(m)
}

/// `x ** y` as RPython's `math.pow`: zero to a negative power raises
/// `ZeroDivisionError`, a negative base to a non-integer power
/// `ValueError`, a finite result too large `OverflowError`.
pub(crate) fn float_pow(x: f64, y: f64) -> Result<f64, Exc> {
    if y == 0.0 {
        return Ok(1.0);
    }
    if x.is_nan() || y.is_nan() {
        return Ok(if x == 1.0 { 1.0 } else { f64::NAN });
    }
    if x == 0.0 && y < 0.0 && y.is_finite() {
        return Err(ZERO_DIVISION);
    }
    if x < 0.0 && x.is_finite() && y.is_finite() && y.floor() != y {
        return Err(VALUE);
    }
    let r = x.powf(y);
    if r.is_infinite() && x.is_finite() && y.is_finite() {
        return Err(OVERFLOW);
    }
    Ok(r)
}

/// Truncation to a signed word; NaN raises `ValueError`, out of range
/// `OverflowError`.
pub(crate) fn cast_float_to_int(x: f64) -> Result<i64, Exc> {
    if x.is_nan() {
        return Err(VALUE);
    }
    if (-9223372036854775808.0..9223372036854775808.0).contains(&x) {
        Ok(x as i64)
    } else {
        Err(OVERFLOW)
    }
}

/// Truncation to an unsigned word.
pub(crate) fn cast_float_to_uint(x: f64) -> Result<u64, Exc> {
    if x.is_nan() {
        return Err(VALUE);
    }
    if x > -1.0 && x < 18446744073709551616.0 {
        Ok(x as u64)
    } else {
        Err(OVERFLOW)
    }
}

pub(crate) fn cast_int_to_char(x: i64) -> Result<u8, Exc> {
    u8::try_from(x).map_err(|_| VALUE)
}

pub(crate) fn cast_int_to_unichar(x: i64) -> Result<u32, Exc> {
    if (0..=0x10FFFF).contains(&x) {
        Ok(x as u32)
    } else {
        Err(VALUE)
    }
}

/// `x / y` on ints as CPython computes it: the exact quotient rounded
/// once to the nearest float.
pub(crate) fn int_truediv(x: i64, y: i64) -> Result<f64, Exc> {
    if y == 0 {
        return Err(ZERO_DIVISION);
    }
    const EXACT: u64 = 1 << 53;
    let (ax, ay) = (x.unsigned_abs(), y.unsigned_abs());
    if ax <= EXACT && ay <= EXACT {
        return Ok(x as f64 / y as f64);
    }
    let negative = (x < 0) != (y < 0);
    if ax == 0 {
        return Ok(if negative { -0.0 } else { 0.0 });
    }
    // at least 62 bits of quotient, the remainder as a sticky bit: the
    // conversion to f64 (round to nearest even) then rounds exactly once
    let k = 127 - (64 - ax.leading_zeros());
    let n = (ax as u128) << k;
    let q = n / ay as u128;
    let sticky = !n.is_multiple_of(ay as u128) as u128;
    let r = (q | sticky) as f64 * 2f64.powi(-(k as i32));
    Ok(if negative { -r } else { r })
}

// The C library's inverse hyperbolic functions, which CPython's `math`
// module and the compiled backends call: Rust's `f64::acosh`, `asinh` and
// `atanh` are formulas that lose the last bits (`acosh(2.5)`) and
// overflow early (`acosh(1e308)` is 710.2, not infinity).
mod libm {
    extern "C" {
        pub fn acosh(x: f64) -> f64;
        pub fn asinh(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
    }
}

/// `acosh` as C computes it.
pub(crate) fn acosh(x: f64) -> f64 {
    // SAFETY: a pure function of libm, which std links
    unsafe { libm::acosh(x) }
}

/// `asinh` as C computes it.
pub(crate) fn asinh(x: f64) -> f64 {
    // SAFETY: as for `acosh`
    unsafe { libm::asinh(x) }
}

/// `atanh` as C computes it.
pub(crate) fn atanh(x: f64) -> f64 {
    // SAFETY: as for `acosh`
    unsafe { libm::atanh(x) }
}

/// CPython's `math_1` rule: a NaN from a non-NaN argument is a domain
/// error (`ValueError`); an infinity from a finite argument is an
/// overflow (`OverflowError`) or, for functions that cannot overflow, a
/// pole (`ValueError`).
pub(crate) fn math1(x: f64, r: f64, can_overflow: bool) -> Result<f64, Exc> {
    if r.is_nan() && !x.is_nan() {
        return Err(VALUE);
    }
    if r.is_infinite() && x.is_finite() {
        return Err(if can_overflow { OVERFLOW } else { VALUE });
    }
    Ok(r)
}

/// The exponent `math.frexp(x)` gives: `x` is `m * 2**e` with `0.5 <= |m| < 1`
/// (0 for zeros, infinities and NaNs).
pub(crate) fn frexp_exp(x: f64) -> i64 {
    if x == 0.0 || !x.is_finite() {
        return 0;
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    if biased == 0 {
        // subnormal: the value is m * 2**-1074
        let m = bits & ((1u64 << 52) - 1);
        return i64::from(64 - m.leading_zeros()) - 1074;
    }
    biased - 1022
}

/// `math.ldexp(x, n)`: `x * 2**n` rounded once (musl's `scalbn`: the
/// scaling steps before the last are exact); an overflow of a finite `x`
/// raises `OverflowError`.
pub(crate) fn ldexp(x: f64, n: i64) -> Result<f64, Exc> {
    if x == 0.0 || !x.is_finite() {
        return Ok(x);
    }
    // past +-10000 every nonzero finite x overflows or underflows
    let mut n = n.clamp(-10000, 10000);
    let mut y = x;
    let two_1023 = f64::from_bits(0x7fe << 52);
    // 2**-1022 * 2**53: keeps 53 bits of room so the last step rounds once
    let two_m969 = f64::from_bits(54 << 52);
    if n > 1023 {
        y *= two_1023;
        n -= 1023;
        if n > 1023 {
            y *= two_1023;
            n -= 1023;
            n = n.min(1023);
        }
    } else if n < -1022 {
        y *= two_m969;
        n += 969;
        if n < -1022 {
            y *= two_m969;
            n += 969;
            n = n.max(-1022);
        }
    }
    let r = y * f64::from_bits(((0x3ff + n) as u64) << 52);
    if r.is_infinite() {
        return Err(OVERFLOW);
    }
    Ok(r)
}

/// `math.fmod`.
pub(crate) fn math_fmod(x: f64, y: f64) -> Result<f64, Exc> {
    if y.is_infinite() && x.is_finite() {
        return Ok(x);
    }
    let r = x % y;
    if r.is_nan() && !x.is_nan() && !y.is_nan() {
        return Err(VALUE);
    }
    Ok(r)
}

/// `math.pow` (CPython's `math_pow`: IEEE specials first, then libm).
pub(crate) fn math_pow(x: f64, y: f64) -> Result<f64, Exc> {
    if !x.is_finite() || !y.is_finite() {
        return Ok(if x.is_nan() {
            if y == 0.0 {
                1.0
            } else {
                x
            }
        } else if y.is_nan() {
            if x == 1.0 {
                1.0
            } else {
                y
            }
        } else if x.is_infinite() {
            let odd_y = y.is_finite() && (y.abs() % 2.0) == 1.0;
            if y > 0.0 {
                if odd_y {
                    x
                } else {
                    x.abs()
                }
            } else if y == 0.0 {
                1.0
            } else if odd_y {
                0.0f64.copysign(x)
            } else {
                0.0
            }
        } else if x.abs() == 1.0 {
            1.0
        } else if (y > 0.0 && x.abs() > 1.0) || (y < 0.0 && x.abs() < 1.0) {
            f64::INFINITY
        } else {
            0.0
        });
    }
    let r = x.powf(y);
    if r.is_nan() {
        return Err(VALUE);
    }
    if r.is_infinite() {
        return Err(if x == 0.0 { VALUE } else { OVERFLOW });
    }
    Ok(r)
}

/// `math.hypot(x, y)`: CPython's `vector_norm`, correctly rounded.
pub(crate) fn math_hypot(x: f64, y: f64) -> f64 {
    let (x, y) = (x.abs(), y.abs());
    let mut max = 0.0f64;
    for v in [x, y] {
        if v > max {
            max = v;
        }
    }
    vector_norm([x, y], max, x.is_nan() || y.is_nan())
}

fn vector_norm(mut vec: [f64; 2], max: f64, found_nan: bool) -> f64 {
    const DBL_MIN: f64 = f64::MIN_POSITIVE;
    if max.is_infinite() {
        return max;
    }
    if found_nan {
        return f64::NAN;
    }
    if max == 0.0 {
        return max;
    }
    let max_e = frexp_exp(max) as i32;
    if max_e < -1023 {
        for v in vec.iter_mut() {
            *v /= DBL_MIN;
        }
        return DBL_MIN * vector_norm(vec, max / DBL_MIN, found_nan);
    }
    let scale = ldexp1(-max_e);
    let (mut csum, mut frac1, mut frac2) = (1.0f64, 0.0f64, 0.0f64);
    let dl_mul = |a: f64, b: f64| {
        let z = a * b;
        (z, a.mul_add(b, -z))
    };
    let dl_fast_sum = |a: f64, b: f64| {
        let s = a + b;
        (s, (a - s) + b)
    };
    for v in vec {
        let x = v * scale;
        let (hi, lo) = dl_mul(x, x);
        let (s, e) = dl_fast_sum(csum, hi);
        csum = s;
        frac1 += lo;
        frac2 += e;
    }
    let mut h = (csum - 1.0 + (frac1 + frac2)).sqrt();
    let (hi, lo) = dl_mul(-h, h);
    let (s, e) = dl_fast_sum(csum, hi);
    csum = s;
    frac1 += lo;
    frac2 += e;
    let x = csum - 1.0 + (frac1 + frac2);
    h += x / (2.0 * h);
    h / scale
}

/// `2.0 ** e` for `-1074 <= e <= 1023`.
fn ldexp1(e: i32) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

/// `round(x, ndigits)` on a float (CPython's `double_round`): the exact
/// decimal value of `x` rounded half-to-even at `ndigits` after the
/// point, read back correctly rounded.
pub(crate) fn round_digits(x: f64, ndigits: i64) -> Result<f64, Exc> {
    const NDIGITS_MAX: i64 = 323;
    const NDIGITS_MIN: i64 = -308;
    if !x.is_finite() || x == 0.0 || ndigits > NDIGITS_MAX {
        return Ok(x);
    }
    if ndigits < NDIGITS_MIN {
        return Ok(0.0 * x);
    }
    // the exact decimal expansion (a double has at most 1074 fraction digits)
    let exact = format!("{:.1100}", x.abs());
    let (int_part, frac_part) = exact.split_once('.').unwrap_or((&exact, ""));
    let digits: Vec<u8> = int_part
        .bytes()
        .chain(frac_part.bytes())
        .map(|c| c - b'0')
        .collect();
    let point = int_part.len() as i64; // digits before the decimal point
                                       // keep `point + ndigits` digits
    let keep = point + ndigits;
    let mut exp10 = -ndigits; // the value is digits[..keep] * 10**exp10
    let kept: Vec<u8> = if keep < 0 {
        Vec::new()
    } else {
        let keep = keep as usize;
        let rest_nonzero_after = |from: usize, d: &[u8]| d.iter().skip(from).any(|&c| c != 0);
        let (head, tail) = digits.split_at(keep.min(digits.len()));
        let mut head = head.to_vec();
        if let Some(&first) = tail.first() {
            let round_up = first > 5
                || (first == 5
                    && (rest_nonzero_after(1, tail)
                        || head.last().map(|d| d % 2 == 1).unwrap_or(false)));
            if round_up {
                let mut i = head.len();
                loop {
                    if i == 0 {
                        head.insert(0, 1);
                        break;
                    }
                    i -= 1;
                    if head[i] == 9 {
                        head[i] = 0;
                    } else {
                        head[i] += 1;
                        break;
                    }
                }
            }
        }
        head
    };
    if kept.is_empty() {
        // |x| < 0.5 * 10**-ndigits... unless exactly the half, which rounds to even (0)
        exp10 = 0;
    }
    let mut text = String::with_capacity(kept.len() + 8);
    if x < 0.0 {
        text.push('-');
    }
    text.push('0');
    text.extend(kept.iter().map(|d| (b'0' + d) as char));
    text.push_str(&format!("e{exp10}"));
    let r: f64 = text.parse().map_err(|_| VALUE)?;
    if r.is_infinite() {
        return Err(OVERFLOW);
    }
    Ok(r)
}

/// Code point `k` of the full case mapping (upper or lower) of the code
/// point `c`, or -1 past its end, as CPython maps it.
pub fn case_mapped(c: u32, k: i64, upper: bool) -> i64 {
    if upper {
        rpy3_model::unicodedb::upper(c, k)
    } else {
        rpy3_model::unicodedb::lower(c, k)
    }
}

/// Code point `k` of float `x` formatted by `spec`, or -1 past the end.
/// `spec` packs a presentation code (its low byte), the precision plus one
/// (bits 8..40; 0 for none) and the alternate form (bit 40): see
/// [`format_float_abs`].
pub fn format_float_char(x: f64, spec: i64, k: i64) -> i64 {
    let code = (spec & 0xff) as u8;
    let p = (spec >> 8) & 0xffff_ffff;
    let precision = if p == 0 {
        None
    } else {
        usize::try_from(p - 1).ok()
    };
    let alternate = (spec >> 40) & 1 == 1;
    let s = format_float_abs(x, code, precision, alternate);
    usize::try_from(k)
        .ok()
        .and_then(|k| s.as_bytes().get(k))
        .map_or(-1, |b| i64::from(*b))
}

/// The magnitude of `x` (its sign is left to the caller) formatted as
/// CPython's `format()` does for presentation `code`: `e E f F g G %`, `r`
/// for `repr()` and `h` for a specification with a precision but no type
/// (`g` that keeps a `.0`).  The result is ASCII.
pub fn format_float_abs(x: f64, code: u8, precision: Option<usize>, alternate: bool) -> String {
    if code == b'%' {
        // the percentage of x, in fixed notation (x * 100 may overflow)
        return format_float_abs(x * 100.0, b'f', precision, alternate) + "%";
    }
    let x = x.abs();
    let upper = matches!(code, b'E' | b'F' | b'G');
    if !x.is_finite() {
        let mut s = String::from(if x.is_nan() { "nan" } else { "inf" });
        if upper {
            s.make_ascii_uppercase();
        }
        return s;
    }
    let p = precision.unwrap_or(6);
    match code {
        b'f' | b'F' => fixed(x, p, alternate),
        b'e' | b'E' => {
            let (mantissa, exp) = scientific(x, p);
            let mut m = mantissa;
            if alternate && !m.contains('.') {
                m.push('.');
            }
            with_exponent(m, exp, upper)
        }
        b'g' | b'G' | b'h' => general(x, p.max(1), alternate, upper, code == b'h'),
        _ => {
            let mut s = shortest(x);
            if alternate && !s.contains('.') {
                // "1.e+16"
                let at = s.find('e').unwrap_or(s.len());
                s.insert(at, '.');
            }
            s
        }
    }
}

fn fixed(x: f64, decimals: usize, alternate: bool) -> String {
    let mut s = format!("{x:.decimals$}");
    if alternate && decimals == 0 {
        s.push('.');
    }
    s
}

/// `x` rounded to `decimals` digits after the point of its scientific
/// form: the mantissa and the exponent.
fn scientific(x: f64, decimals: usize) -> (String, i32) {
    let s = format!("{x:.decimals$e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    (m.to_string(), e.parse().unwrap_or(0))
}

fn with_exponent(mut mantissa: String, exp: i32, upper: bool) -> String {
    mantissa.push(if upper { 'E' } else { 'e' });
    mantissa.push(if exp < 0 { '-' } else { '+' });
    mantissa.push_str(&format!("{:02}", exp.unsigned_abs()));
    mantissa
}

fn strip_zeros(s: &mut String) {
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
}

fn general(x: f64, p: usize, alternate: bool, upper: bool, add_dot_0: bool) -> String {
    let (mut mantissa, exp) = scientific(x, p - 1);
    // an integral result keeps room for its ".0" (as CPython decides)
    let fixed_below = if add_dot_0 { p as i64 - 1 } else { p as i64 };
    if (-4..fixed_below).contains(&i64::from(exp)) {
        let decimals = (p as i64 - 1 - i64::from(exp)) as usize;
        let mut s = format!("{x:.decimals$}");
        if alternate {
            if !s.contains('.') {
                s.push('.');
            }
        } else {
            strip_zeros(&mut s);
        }
        if add_dot_0 && !s.contains('.') {
            s.push_str(".0");
        }
        s
    } else {
        if alternate {
            if !mantissa.contains('.') {
                mantissa.push('.');
            }
        } else {
            strip_zeros(&mut mantissa);
        }
        with_exponent(mantissa, exp, upper)
    }
}

/// `repr(x)`: the shortest digits that read back as `x`, in fixed notation
/// for exponents -4..16 and scientific notation otherwise.
fn shortest(x: f64) -> String {
    let s = format!("{x:e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = e.parse().unwrap_or(0);
    let digits: String = m.chars().filter(|c| *c != '.').collect();
    if !(-4..16).contains(&exp) {
        let mut mantissa = digits[..1].to_string();
        if digits.len() > 1 {
            mantissa.push('.');
            mantissa.push_str(&digits[1..]);
        }
        return with_exponent(mantissa, exp, false);
    }
    if exp < 0 {
        return format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits);
    }
    let int_len = exp as usize + 1;
    if digits.len() <= int_len {
        format!("{}{}.0", digits, "0".repeat(int_len - digits.len()))
    } else {
        format!("{}.{}", &digits[..int_len], &digits[int_len..])
    }
}

/// The float an ASCII text means as Python's `float()` reads it once
/// whitespace and underscores are gone: an optional sign, then digits with
/// an optional point and exponent, or `inf`, `infinity`, `nan` in any
/// case; correctly rounded (Rust's parser is).  None if it is not one.
pub fn parse_float(text: &str) -> Option<f64> {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let lower = body.to_ascii_lowercase();
    if !(lower == "inf" || lower == "infinity" || lower == "nan") {
        // only the decimal forms Python accepts (Rust's parser takes the
        // same ones, but be explicit about the alphabet)
        if body.is_empty()
            || !body
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        {
            return None;
        }
    }
    text.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_rules_match_python() {
        for x in -7i64..=7 {
            for y in [-3i64, -2, -1, 1, 2, 3] {
                let q = int_floordiv(x, y).unwrap();
                let r = int_mod(x, y).unwrap();
                assert_eq!(q * y + r, x);
                assert!(r == 0 || (r < 0) == (y < 0));
            }
        }
        assert_eq!(int_floordiv(i64::MIN, -1), Ok(i64::MIN));
        assert_eq!(int_mod(i64::MIN, -1), Ok(0));
        assert_eq!(int_floordiv_ovf(i64::MIN, -1), Err(OVERFLOW));
        assert_eq!(int_mod(1, 0), Err(ZERO_DIVISION));
        assert_eq!(float_mod(-1.0, 3.0), Ok(2.0));
        assert_eq!(float_floordiv(-7.5, 2.0), Ok(-4.0));
        assert_eq!(float_mod(1.0, -0.0), Err(ZERO_DIVISION));
        assert!(float_mod(-0.0, 3.0).unwrap().is_sign_positive());
    }

    #[test]
    fn shifts_and_casts() {
        assert_eq!(int_lshift(1, 64), Ok(0));
        assert_eq!(int_rshift(-8, 100), Ok(-1));
        assert_eq!(int_lshift(1, -1), Err(VALUE));
        assert_eq!(int_lshift_ovf(1, 62), Ok(1 << 62));
        assert_eq!(int_lshift_ovf(1, 63), Err(OVERFLOW));
        assert_eq!(int_lshift_ovf(-1, 63), Ok(i64::MIN));
        assert_eq!(int_lshift_ovf(-1, 64), Err(OVERFLOW));
        assert_eq!(cast_float_to_int(f64::NAN), Err(VALUE));
        assert_eq!(cast_float_to_int(9.3e18), Err(OVERFLOW));
        assert_eq!(cast_float_to_int(-2.9), Ok(-2));
        assert_eq!(cast_float_to_uint(-0.5), Ok(0));
        assert_eq!(int_pow(3, 4), Ok(81));
        assert_eq!(int_pow(2, 64), Ok(0));
        assert_eq!(float_pow(0.0, -1.0), Err(ZERO_DIVISION));
        assert_eq!(float_pow(-8.0, 0.5), Err(VALUE));
        assert_eq!(float_pow(10.0, 400.0), Err(OVERFLOW));
    }

    #[test]
    fn math_functions_match_cpython() {
        assert_eq!(
            int_truediv(1152921504606847008, 3),
            Ok(3.843071682022824e17)
        );
        assert_eq!(int_truediv(-7, 2), Ok(-3.5));
        assert_eq!(int_truediv(1, 0), Err(ZERO_DIVISION));
        assert_eq!(int_truediv(i64::MIN, -1), Ok(9.223372036854776e18));
        assert_eq!(int_truediv(1, i64::MAX), Ok(1.0842021724855044e-19));
        assert_eq!(round_digits(2.675, 2), Ok(2.67));
        assert_eq!(round_digits(-1.35, 1), Ok(-1.4));
        assert_eq!(round_digits(1234.5678, -2), Ok(1200.0));
        assert!(round_digits(-0.5, 0).unwrap().is_sign_negative());
        assert_eq!(round_digits(-0.5, 0), Ok(0.0));
        assert_eq!(round_digits(0.5, 0), Ok(0.0));
        assert_eq!(round_digits(1.5, 0), Ok(2.0));
        assert_eq!(round_digits(2.5, 0), Ok(2.0));
        assert_eq!(round_digits(5.0, -1), Ok(0.0));
        assert_eq!(round_digits(15.0, -1), Ok(20.0));
        assert_eq!(round_digits(0.125, 2), Ok(0.12));
        assert_eq!(round_digits(9.99, 1), Ok(10.0));
        assert_eq!(round_digits(0.001, 1), Ok(0.0));
        assert_eq!(round_digits(1.7976931348623157e308, -308), Err(OVERFLOW));
        assert_eq!(math_hypot(-5.0, 12.0), 13.0);
        assert_eq!(math_hypot(f64::INFINITY, f64::NAN), f64::INFINITY);
        assert_eq!(math_hypot(0.1, 0.2).to_bits(), 0x3fcc9f25c5bfedda);
        assert_eq!(math_hypot(1e-320, 3e-320).to_bits(), 0x0000000001900);
        assert_eq!(math_pow(0.0, -1.0), Err(VALUE));
        assert_eq!(math_pow(1.0, f64::NAN), Ok(1.0));
        assert_eq!(math_fmod(1.0, 0.0), Err(VALUE));
        assert_eq!(math1(-1.0, (-1.0f64).sqrt(), false), Err(VALUE));
        assert_eq!(math1(1000.0, 1000f64.exp(), true), Err(OVERFLOW));
        assert_eq!(math1(0.0, 0f64.ln(), false), Err(VALUE));
    }

    #[test]
    fn case_mapping_is_full_and_indexed() {
        let up = |c: char, k| case_mapped(c as u32, k, true);
        assert_eq!((up('ß', 0), up('ß', 1), up('ß', 2)), (83, 83, -1));
        assert_eq!(up('a', 0), 65);
        assert_eq!(up('a', -1), -1);
        assert_eq!(case_mapped('Σ' as u32, 0, false), 'σ' as i64);
        assert_eq!(case_mapped(0xd800, 0, true), 0xd800);
        assert_eq!(case_mapped(0xd800, 1, true), -1);
    }
}
