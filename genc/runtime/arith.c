/* rpy3 runtime: the arithmetic operations of the low-level table that
 * are not a single C operator, with the semantics of the llinterp
 * (llinterp/src/arith.rs and exec.rs): words wrap in two's complement,
 * `//` and `%` floor, the raising cases call rpy_raise_builtin and
 * return 0.  Every function is defined for every input (no signed
 * overflow, no out-of-range shift or conversion), whatever -fwrapv says.
 *
 * Floats are IEEE doubles evaluated in double precision (SSE2 on x86,
 * never x87), and the runtime must not be compiled with -ffast-math.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rpy3.h"

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != -1
#error "the rpy3 runtime needs double arithmetic evaluated in double precision"
#endif

#define RPY_SIGNED_MIN INT64_MIN

static rpy_Signed raise_int(enum rpy_builtin_exc e)
{
    rpy_raise_builtin(e);
    return 0;
}

static rpy_Unsigned raise_uint(enum rpy_builtin_exc e)
{
    rpy_raise_builtin(e);
    return 0;
}

static rpy_Float raise_float(enum rpy_builtin_exc e)
{
    rpy_raise_builtin(e);
    return 0.0;
}

/* The word of the two's-complement bits u (a conversion C leaves
 * implementation-defined when u > INT64_MAX; spelt out here). */
static rpy_Signed from_bits(rpy_Unsigned u)
{
    if (u <= (rpy_Unsigned)INT64_MAX)
        return (rpy_Signed)u;
    return -(rpy_Signed)(~u) - 1;
}

static rpy_Unsigned double_bits(double x)
{
    rpy_Unsigned u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double bits_double(rpy_Unsigned u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* ---- Signed ---------------------------------------------------------- */

rpy_Signed rpy_int_floordiv(rpy_Signed x, rpy_Signed y)
{
    if (y == 0)
        return raise_int(RPY_ZeroDivisionError);
    if (y == -1) /* MIN // -1 wraps to MIN */
        return from_bits(0u - (rpy_Unsigned)x);
    rpy_Signed q = x / y;
    if (x % y != 0 && ((x < 0) != (y < 0)))
        q -= 1;
    return q;
}

rpy_Signed rpy_int_mod(rpy_Signed x, rpy_Signed y)
{
    if (y == 0)
        return raise_int(RPY_ZeroDivisionError);
    if (y == -1)
        return 0;
    rpy_Signed r = x % y;
    if (r != 0 && ((r < 0) != (y < 0)))
        r += y;
    return r;
}

rpy_Signed rpy_int_floordiv_ovf(rpy_Signed x, rpy_Signed y)
{
    if (y == -1 && x == RPY_SIGNED_MIN)
        return raise_int(RPY_OverflowError);
    return rpy_int_floordiv(x, y);
}

rpy_Signed rpy_int_mod_ovf(rpy_Signed x, rpy_Signed y)
{
    /* as PyPy's C implementation: the division overflows */
    if (y == -1 && x == RPY_SIGNED_MIN)
        return raise_int(RPY_OverflowError);
    return rpy_int_mod(x, y);
}

rpy_Signed rpy_int_lshift(rpy_Signed x, rpy_Signed n)
{
    if (n < 0)
        return raise_int(RPY_ValueError);
    if (n >= 64)
        return 0;
    return from_bits((rpy_Unsigned)x << n);
}

/* arithmetic x >> n for 0 <= n <= 63, without C's implementation-defined
 * right shift of negative values */
static rpy_Signed sar(rpy_Signed x, int n)
{
    if (x >= 0)
        return x >> n;
    return -1 - ((-1 - x) >> n);
}

rpy_Signed rpy_int_rshift(rpy_Signed x, rpy_Signed n)
{
    if (n < 0)
        return raise_int(RPY_ValueError);
    return sar(x, n > 63 ? 63 : (int)n);
}

rpy_Signed rpy_int_lshift_ovf(rpy_Signed x, rpy_Signed n)
{
    if (n < 0)
        return raise_int(RPY_ValueError);
    if (x == 0)
        return 0;
    if (n >= 64)
        return raise_int(RPY_OverflowError);
    rpy_Signed r = from_bits((rpy_Unsigned)x << n);
    if (sar(r, (int)n) != x)
        return raise_int(RPY_OverflowError);
    return r;
}

rpy_Signed rpy_int_add_ovf(rpy_Signed x, rpy_Signed y)
{
    rpy_Signed r = from_bits((rpy_Unsigned)x + (rpy_Unsigned)y);
    /* overflow iff both operands have the sign the result lacks */
    if (((x ^ r) & (y ^ r)) < 0)
        return raise_int(RPY_OverflowError);
    return r;
}

rpy_Signed rpy_int_sub_ovf(rpy_Signed x, rpy_Signed y)
{
    rpy_Signed r = from_bits((rpy_Unsigned)x - (rpy_Unsigned)y);
    if (((x ^ y) & (x ^ r)) < 0)
        return raise_int(RPY_OverflowError);
    return r;
}

rpy_Signed rpy_int_mul_ovf(rpy_Signed x, rpy_Signed y)
{
#if defined(__GNUC__) || defined(__clang__)
    rpy_Signed r;
    if (__builtin_mul_overflow(x, y, &r))
        return raise_int(RPY_OverflowError);
    return r;
#else
    if (x == 0 || y == 0)
        return 0;
    if (x == -1) {
        if (y == RPY_SIGNED_MIN)
            return raise_int(RPY_OverflowError);
        return -y;
    }
    if (y == -1) {
        if (x == RPY_SIGNED_MIN)
            return raise_int(RPY_OverflowError);
        return -x;
    }
    rpy_Signed r = from_bits((rpy_Unsigned)x * (rpy_Unsigned)y);
    if (r / y != x)
        return raise_int(RPY_OverflowError);
    return r;
#endif
}

rpy_Signed rpy_int_neg_ovf(rpy_Signed x)
{
    if (x == RPY_SIGNED_MIN)
        return raise_int(RPY_OverflowError);
    return -x;
}

rpy_Signed rpy_int_abs_ovf(rpy_Signed x)
{
    if (x == RPY_SIGNED_MIN)
        return raise_int(RPY_OverflowError);
    return x < 0 ? -x : x;
}

rpy_Signed rpy_int_pow(rpy_Signed x, rpy_Signed y)
{
    if (y < 0)
        return raise_int(RPY_ValueError);
    rpy_Unsigned base = (rpy_Unsigned)x, e = (rpy_Unsigned)y, acc = 1;
    while (e > 0) {
        if (e & 1)
            acc *= base;
        base *= base;
        e >>= 1;
    }
    return from_bits(acc);
}

/* x / y on ints: the exact quotient rounded once to the nearest float
 * (CPython's long_true_divide). */
rpy_Float rpy_int_truediv(rpy_Signed x, rpy_Signed y)
{
    if (y == 0)
        return raise_float(RPY_ZeroDivisionError);
    const rpy_Unsigned exact = (rpy_Unsigned)1 << 53;
    rpy_Unsigned ax = x < 0 ? 0u - (rpy_Unsigned)x : (rpy_Unsigned)x;
    rpy_Unsigned ay = y < 0 ? 0u - (rpy_Unsigned)y : (rpy_Unsigned)y;
    if (ax <= exact && ay <= exact)
        return (double)x / (double)y;
    int negative = (x < 0) != (y < 0);
    if (ax == 0)
        return negative ? -0.0 : 0.0;
    /* long division until the quotient has at least 62 bits; the
     * remainder then only matters as a sticky bit, and the conversion of
     * the 63-bit quotient to double rounds exactly once */
    rpy_Unsigned q = ax / ay, r = ax % ay;
    int shift = 0;
    while (q < ((rpy_Unsigned)1 << 61)) {
        r <<= 1; /* r < ay <= 2**63: no bit is lost */
        q <<= 1;
        if (r >= ay) {
            r -= ay;
            q |= 1;
        }
        shift++;
    }
    double v = (double)(q | (r != 0));
    v = ldexp(v, -shift); /* exact: shift <= 126 */
    return negative ? -v : v;
}

/* ---- Unsigned -------------------------------------------------------- */

rpy_Unsigned rpy_uint_floordiv(rpy_Unsigned x, rpy_Unsigned y)
{
    if (y == 0)
        return raise_uint(RPY_ZeroDivisionError);
    return x / y;
}

rpy_Unsigned rpy_uint_mod(rpy_Unsigned x, rpy_Unsigned y)
{
    if (y == 0)
        return raise_uint(RPY_ZeroDivisionError);
    return x % y;
}

rpy_Unsigned rpy_uint_lshift(rpy_Unsigned x, rpy_Signed n)
{
    if (n < 0)
        return raise_uint(RPY_ValueError);
    return n >= 64 ? 0 : x << n;
}

rpy_Unsigned rpy_uint_rshift(rpy_Unsigned x, rpy_Signed n)
{
    if (n < 0)
        return raise_uint(RPY_ValueError);
    return n >= 64 ? 0 : x >> n;
}

/* ---- Float ----------------------------------------------------------- */

rpy_Float rpy_float_truediv(rpy_Float x, rpy_Float y)
{
    if (y == 0.0)
        return raise_float(RPY_ZeroDivisionError);
    return x / y;
}

rpy_Float rpy_float_floordiv(rpy_Float vx, rpy_Float wx)
{
    if (wx == 0.0)
        return raise_float(RPY_ZeroDivisionError);
    /* CPython's float_divmod */
    double mod = fmod(vx, wx);
    double div = (vx - mod) / wx;
    if (mod != 0.0) {
        if ((wx < 0.0) != (mod < 0.0))
            div -= 1.0;
    }
    if (div != 0.0) {
        double f = floor(div);
        if (div - f > 0.5)
            f += 1.0;
        return f;
    }
    return copysign(0.0, vx / wx);
}

rpy_Float rpy_float_mod(rpy_Float x, rpy_Float y)
{
    if (y == 0.0)
        return raise_float(RPY_ZeroDivisionError);
    double m = fmod(x, y);
    if (m != 0.0) {
        if ((y < 0.0) != (m < 0.0))
            m += y;
    } else {
        m = copysign(0.0, y);
    }
    return m;
}

/* x ** y as RPython's math.pow: zero to a negative power raises
 * ZeroDivisionError, a negative base to a non-integer power ValueError,
 * a finite result too large OverflowError. */
rpy_Float rpy_float_pow(rpy_Float x, rpy_Float y)
{
    if (y == 0.0)
        return 1.0;
    if (isnan(x) || isnan(y))
        return x == 1.0 ? 1.0 : NAN;
    if (x == 0.0 && y < 0.0 && isfinite(y))
        return raise_float(RPY_ZeroDivisionError);
    if (x < 0.0 && isfinite(x) && isfinite(y) && floor(y) != y)
        return raise_float(RPY_ValueError);
    double r = pow(x, y);
    if (isinf(r) && isfinite(x) && isfinite(y))
        return raise_float(RPY_OverflowError);
    return r;
}

/* CPython's math_1 rule: a NaN from a non-NaN argument is a domain error
 * (ValueError); an infinity from a finite argument an overflow
 * (OverflowError) or, for functions that cannot overflow, a pole
 * (ValueError). */
static rpy_Float math1(double x, double r, int can_overflow)
{
    if (isnan(r) && !isnan(x))
        return raise_float(RPY_ValueError);
    if (isinf(r) && isfinite(x))
        return raise_float(can_overflow ? RPY_OverflowError : RPY_ValueError);
    return r;
}

rpy_Float rpy_float_sqrt(rpy_Float x) { return math1(x, sqrt(x), 0); }
rpy_Float rpy_float_exp(rpy_Float x) { return math1(x, exp(x), 1); }
rpy_Float rpy_float_expm1(rpy_Float x) { return math1(x, expm1(x), 1); }
rpy_Float rpy_float_log(rpy_Float x) { return math1(x, log(x), 0); }
rpy_Float rpy_float_log2(rpy_Float x) { return math1(x, log2(x), 0); }
rpy_Float rpy_float_log10(rpy_Float x) { return math1(x, log10(x), 0); }
rpy_Float rpy_float_log1p(rpy_Float x) { return math1(x, log1p(x), 0); }
rpy_Float rpy_float_sin(rpy_Float x) { return math1(x, sin(x), 0); }
rpy_Float rpy_float_cos(rpy_Float x) { return math1(x, cos(x), 0); }
rpy_Float rpy_float_tan(rpy_Float x) { return math1(x, tan(x), 0); }
rpy_Float rpy_float_asin(rpy_Float x) { return math1(x, asin(x), 0); }
rpy_Float rpy_float_acos(rpy_Float x) { return math1(x, acos(x), 0); }
rpy_Float rpy_float_atan(rpy_Float x) { return atan(x); }
rpy_Float rpy_float_sinh(rpy_Float x) { return math1(x, sinh(x), 1); }
rpy_Float rpy_float_cosh(rpy_Float x) { return math1(x, cosh(x), 1); }
rpy_Float rpy_float_tanh(rpy_Float x) { return tanh(x); }
rpy_Float rpy_float_asinh(rpy_Float x) { return asinh(x); }
rpy_Float rpy_float_acosh(rpy_Float x) { return math1(x, acosh(x), 0); }
rpy_Float rpy_float_atanh(rpy_Float x) { return math1(x, atanh(x), 0); }
rpy_Float rpy_float_floor(rpy_Float x) { return floor(x); }
rpy_Float rpy_float_ceil(rpy_Float x) { return ceil(x); }
rpy_Float rpy_float_trunc(rpy_Float x) { return trunc(x); }

/* rounding to an integral value, halves to even (whatever the rounding
 * mode) */
rpy_Float rpy_float_round(rpy_Float x)
{
    double r = round(x); /* halves away from zero */
    if (fabs(x - trunc(x)) == 0.5)
        r = 2.0 * round(x / 2.0); /* x/2 is exact: |x| < 2**52 */
    return r;
}

/* round(x, ndigits) (CPython's double_round): the exact decimal value of
 * x rounded half-to-even at ndigits after the point, read back correctly
 * rounded. */
rpy_Float rpy_float_round_digits(rpy_Float x, rpy_Signed ndigits)
{
    enum { NDIGITS_MAX = 323, NDIGITS_MIN = -308 };
    if (!isfinite(x) || x == 0.0 || ndigits > NDIGITS_MAX)
        return x;
    if (ndigits < NDIGITS_MIN)
        return 0.0 * x;
    /* the exact decimal expansion (a double has at most 1074 fraction
     * digits, 309 integer digits) */
    char exact[1500];
    int len = snprintf(exact, sizeof exact, "%.1100f", fabs(x));
    if (len < 0 || (size_t)len >= sizeof exact)
        return raise_float(RPY_ValueError); /* cannot happen */
    char digits[1500];
    int ndig = 0, point = -1;
    for (int i = 0; i < len; i++) {
        if (exact[i] == '.')
            point = ndig;
        else
            digits[ndig++] = (char)(exact[i] - '0');
    }
    if (point < 0)
        point = ndig;
    rpy_Signed keep = (rpy_Signed)point + ndigits;
    rpy_Signed exp10 = -ndigits;
    /* kept digits, with room for one carried in front */
    char kept[1501];
    int nkept = 0;
    if (keep >= 0) {
        int k = keep < ndig ? (int)keep : ndig;
        memcpy(kept + 1, digits, (size_t)k);
        nkept = k;
        if (k < ndig) {
            int first = digits[k];
            int rest = 0;
            for (int i = k + 1; i < ndig; i++)
                if (digits[i] != 0) {
                    rest = 1;
                    break;
                }
            int odd = nkept > 0 && (kept[nkept] % 2 == 1);
            if (first > 5 || (first == 5 && (rest || odd))) {
                int i = nkept;
                while (i > 0 && kept[i] == 9)
                    kept[i--] = 0;
                if (i > 0) {
                    kept[i]++;
                } else {
                    /* 99..9 rounded up: a 1 in front */
                    memmove(kept + 2, kept + 1, (size_t)nkept);
                    kept[1] = 1;
                    nkept++;
                }
            }
        }
    }
    if (nkept == 0)
        exp10 = 0;
    char text[1600];
    int t = 0;
    if (x < 0.0)
        text[t++] = '-';
    text[t++] = '0';
    for (int i = 1; i <= nkept; i++)
        text[t++] = (char)('0' + kept[i]);
    snprintf(text + t, sizeof text - (size_t)t, "e%lld", (long long)exp10);
    double r = strtod(text, NULL);
    if (isinf(r))
        return raise_float(RPY_OverflowError);
    return r;
}

rpy_Float rpy_float_atan2(rpy_Float y, rpy_Float x) { return atan2(y, x); }

/* math.fmod */
rpy_Float rpy_float_fmod(rpy_Float x, rpy_Float y)
{
    if (isinf(y) && isfinite(x))
        return x;
    double r = fmod(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y))
        return raise_float(RPY_ValueError);
    return r;
}

/* math.pow (CPython's math_pow: IEEE specials first, then libm) */
rpy_Float rpy_float_math_pow(rpy_Float x, rpy_Float y)
{
    if (!isfinite(x) || !isfinite(y)) {
        if (isnan(x))
            return y == 0.0 ? 1.0 : x;
        if (isnan(y))
            return x == 1.0 ? 1.0 : y;
        if (isinf(x)) {
            int odd_y = isfinite(y) && fmod(fabs(y), 2.0) == 1.0;
            if (y > 0.0)
                return odd_y ? x : fabs(x);
            if (y == 0.0)
                return 1.0;
            return odd_y ? copysign(0.0, x) : 0.0;
        }
        if (fabs(x) == 1.0)
            return 1.0;
        if ((y > 0.0 && fabs(x) > 1.0) || (y < 0.0 && fabs(x) < 1.0))
            return INFINITY;
        return 0.0;
    }
    double r = pow(x, y);
    if (isnan(r))
        return raise_float(RPY_ValueError);
    if (isinf(r))
        return raise_float(x == 0.0 ? RPY_ValueError : RPY_OverflowError);
    return r;
}

rpy_Signed rpy_float_frexp_exp(rpy_Float x)
{
    if (x == 0.0 || !isfinite(x))
        return 0;
    rpy_Unsigned bits = double_bits(x);
    rpy_Signed biased = (rpy_Signed)((bits >> 52) & 0x7ff);
    if (biased == 0) {
        /* subnormal: the value is m * 2**-1074 */
        rpy_Unsigned m = bits & (((rpy_Unsigned)1 << 52) - 1);
        int width = 0;
        while (m) {
            width++;
            m >>= 1;
        }
        return (rpy_Signed)width - 1074;
    }
    return biased - 1022;
}

/* 2.0 ** e for -1074 <= e <= 1023 */
static double pow2(int e)
{
    if (e >= -1022)
        return bits_double((rpy_Unsigned)(e + 1023) << 52);
    return bits_double((rpy_Unsigned)1 << (e + 1074));
}

/* math.ldexp: x * 2**n rounded once (musl's scalbn); an overflow of a
 * finite x raises OverflowError. */
rpy_Float rpy_float_ldexp(rpy_Float x, rpy_Signed n)
{
    if (x == 0.0 || !isfinite(x))
        return x;
    if (n > 10000)
        n = 10000;
    if (n < -10000)
        n = -10000;
    double y = x;
    const double two_1023 = pow2(1023);
    const double two_m969 = pow2(-969);
    if (n > 1023) {
        y *= two_1023;
        n -= 1023;
        if (n > 1023) {
            y *= two_1023;
            n -= 1023;
            if (n > 1023)
                n = 1023;
        }
    } else if (n < -1022) {
        y *= two_m969;
        n += 969;
        if (n < -1022) {
            y *= two_m969;
            n += 969;
            if (n < -1022)
                n = -1022;
        }
    }
    double r = y * pow2((int)n);
    if (isinf(r))
        return raise_float(RPY_OverflowError);
    return r;
}

/* a*b rounded to double, even where the compiler contracts a product
 * and a sum into an fma (-ffp-contract=fast, the default of GNU C): the
 * error terms below need the rounded product */
static double rounded_product(double a, double b)
{
    volatile double p = a * b;
    return p;
}

/* math.hypot: CPython's vector_norm for two values, correctly rounded */
static double vector_norm2(double a, double b, double max, int found_nan)
{
    if (isinf(max))
        return max;
    if (found_nan)
        return NAN;
    if (max == 0.0)
        return max;
    int max_e = (int)rpy_float_frexp_exp(max);
    if (max_e < -1023) {
        a /= DBL_MIN;
        b /= DBL_MIN;
        return DBL_MIN * vector_norm2(a, b, max / DBL_MIN, found_nan);
    }
    double scale = pow2(-max_e);
    double csum = 1.0, frac1 = 0.0, frac2 = 0.0;
    double vec[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        double x = vec[i] * scale;
        double hi = rounded_product(x, x);
        double lo = fma(x, x, -hi);
        double s = csum + hi;
        double e = (csum - s) + hi;
        csum = s;
        frac1 += lo;
        frac2 += e;
    }
    double h = sqrt(csum - 1.0 + (frac1 + frac2));
    double hi = rounded_product(-h, h);
    double lo = fma(-h, h, -hi);
    double s = csum + hi;
    double e = (csum - s) + hi;
    csum = s;
    frac1 += lo;
    frac2 += e;
    double x = csum - 1.0 + (frac1 + frac2);
    h += x / (2.0 * h);
    return h / scale;
}

rpy_Float rpy_float_hypot(rpy_Float x, rpy_Float y)
{
    x = fabs(x);
    y = fabs(y);
    double max = 0.0;
    if (x > max)
        max = x;
    if (y > max)
        max = y;
    return vector_norm2(x, y, max, isnan(x) || isnan(y));
}

rpy_Float rpy_float_copysign(rpy_Float x, rpy_Float y) { return copysign(x, y); }

/* ---- conversions ----------------------------------------------------- */

rpy_Signed rpy_cast_float_to_int(rpy_Float x)
{
    if (isnan(x))
        return raise_int(RPY_ValueError);
    if (x >= -9223372036854775808.0 && x < 9223372036854775808.0)
        return (rpy_Signed)x;
    return raise_int(RPY_OverflowError);
}

rpy_Unsigned rpy_cast_float_to_uint(rpy_Float x)
{
    if (isnan(x))
        return raise_uint(RPY_ValueError);
    if (x > -1.0 && x < 18446744073709551616.0)
        return (rpy_Unsigned)x;
    return raise_uint(RPY_OverflowError);
}

rpy_Char rpy_cast_int_to_char(rpy_Signed x)
{
    if (x < 0 || x > 255) {
        rpy_raise_builtin(RPY_ValueError);
        return 0;
    }
    return (rpy_Char)x;
}

rpy_UniChar rpy_cast_int_to_unichar(rpy_Signed x)
{
    if (x < 0 || x > 0x10FFFF) {
        rpy_raise_builtin(RPY_ValueError);
        return 0;
    }
    return (rpy_UniChar)x;
}
