/* rpy3 runtime: float text, as CPython writes and reads it
 * (float_format_char and str_to_float; llinterp/src/arith.rs).
 *
 * Digits come from the C library: glibc's printf is exact (every %.Ne
 * and %.Nf is the correctly rounded decimal, halves to even) and its
 * strtod correctly rounded.  The runtime assumes the "C" locale (a
 * generated program never calls setlocale).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rpy3.h"

/* Digits after the point printed exactly: a double has at most 1074
 * fraction digits and 767 significant ones, so past this every digit of
 * a fixed or scientific form is a 0, counted rather than stored. */
#define EXACT_DIGITS 1100
#define HEAD_MAX 1600
#define TAIL_MAX 16

/* A formatted float: head, then `zeros` '0' characters, then tail. */
struct fmt_text {
    char head[HEAD_MAX];
    size_t head_len;
    uint64_t zeros;
    char tail[TAIL_MAX];
    size_t tail_len;
};

/* Appends s after everything so far (to the tail once zeros exist). */
static void put(struct fmt_text *t, const char *s, size_t n)
{
    if (t->zeros == 0) {
        if (n > HEAD_MAX - t->head_len)
            n = HEAD_MAX - t->head_len; /* cannot happen: sizes above */
        memcpy(t->head + t->head_len, s, n);
        t->head_len += n;
    } else {
        if (n > TAIL_MAX - t->tail_len)
            n = TAIL_MAX - t->tail_len;
        memcpy(t->tail + t->tail_len, s, n);
        t->tail_len += n;
    }
}

static void puts_(struct fmt_text *t, const char *s) { put(t, s, strlen(s)); }

static int has_char(const struct fmt_text *t, char c)
{
    return memchr(t->head, c, t->head_len) != NULL || memchr(t->tail, c, t->tail_len) != NULL;
}

/* snprintf into buf, which the sizes above make large enough */
static size_t print_double(char *buf, size_t size, const char *format, int precision, double x)
{
    int n = snprintf(buf, size, format, precision, x);
    if (n < 0)
        n = 0;
    if ((size_t)n >= size)
        n = (int)size - 1;
    return (size_t)n;
}

/* x in fixed notation with `decimals` digits after the point */
static void fixed(struct fmt_text *t, double x, uint64_t decimals, int alternate)
{
    char buf[HEAD_MAX];
    int p = decimals > EXACT_DIGITS ? EXACT_DIGITS : (int)decimals;
    size_t n = print_double(buf, sizeof buf, "%.*f", p, x);
    put(t, buf, n);
    t->zeros += decimals - (uint64_t)p;
    if (alternate && decimals == 0)
        puts_(t, ".");
}

/* x rounded to `decimals` digits after the point of its scientific form:
 * the mantissa (into buf) and the decimal exponent */
static size_t scientific(char *buf, size_t size, double x, int decimals, int *exp)
{
    char tmp[HEAD_MAX];
    size_t n = print_double(tmp, sizeof tmp, "%.*e", decimals, x);
    char *e = memchr(tmp, 'e', n);
    size_t m = e ? (size_t)(e - tmp) : n;
    *exp = e ? atoi(e + 1) : 0;
    if (m >= size)
        m = size - 1;
    memcpy(buf, tmp, m);
    buf[m] = 0;
    return m;
}

static void put_exponent(struct fmt_text *t, int exp, int upper)
{
    char buf[TAIL_MAX];
    snprintf(buf, sizeof buf, "%c%c%02d", upper ? 'E' : 'e', exp < 0 ? '-' : '+',
             exp < 0 ? -exp : exp);
    puts_(t, buf);
}

/* strips the zeros ending the fractional part of s[0..*n], and the point
 * if nothing is left after it */
static void strip_zeros(char *s, size_t *n)
{
    if (memchr(s, '.', *n) == NULL)
        return;
    while (*n > 0 && s[*n - 1] == '0')
        (*n)--;
    if (*n > 0 && s[*n - 1] == '.')
        (*n)--;
}

static void general(struct fmt_text *t, double x, uint64_t p, int alternate, int upper,
                    int add_dot_0)
{
    char mantissa[HEAD_MAX];
    int exp;
    uint64_t d = p - 1;
    size_t m = scientific(mantissa, sizeof mantissa, x,
                          d > EXACT_DIGITS ? EXACT_DIGITS : (int)d, &exp);
    /* an integral result keeps room for its ".0" (as CPython decides) */
    int64_t fixed_below = add_dot_0 ? (int64_t)p - 1 : (int64_t)p;
    if (exp >= -4 && (int64_t)exp < fixed_below) {
        /* exp <= p - 1 here */
        uint64_t decimals = exp < 0 ? p - 1 + (uint64_t)(-exp) : p - 1 - (uint64_t)exp;
        if (alternate) {
            fixed(t, x, decimals, 0);
            if (!has_char(t, '.'))
                puts_(t, ".");
        } else {
            /* the digits past EXACT_DIGITS are zeros: stripped anyway */
            char buf[HEAD_MAX];
            int dp = decimals > EXACT_DIGITS ? EXACT_DIGITS : (int)decimals;
            size_t n = print_double(buf, sizeof buf, "%.*f", dp, x);
            strip_zeros(buf, &n);
            put(t, buf, n);
        }
        if (add_dot_0 && !has_char(t, '.'))
            puts_(t, ".0");
    } else {
        if (alternate) {
            put(t, mantissa, m);
            t->zeros += d - (d > EXACT_DIGITS ? EXACT_DIGITS : d);
            if (!has_char(t, '.'))
                puts_(t, ".");
        } else {
            strip_zeros(mantissa, &m);
            put(t, mantissa, m);
        }
        put_exponent(t, exp, upper);
    }
}

/* The shortest digits that read back as x > 0 (finite): CPython's repr
 * (dtoa mode 0: the shortest string, and of those the closest to x). */
static void shortest_digits(double x, char *digits, size_t *ndigits, int *exp);

/* repr(x): the shortest digits, in fixed notation for exponents -4..16
 * and scientific notation otherwise */
static void shortest(struct fmt_text *t, double x, int alternate)
{
    char digits[32];
    size_t nd;
    int exp;
    if (x == 0.0) {
        digits[0] = '0';
        nd = 1;
        exp = 0;
    } else {
        shortest_digits(x, digits, &nd, &exp);
    }
    if (exp < -4 || exp >= 16) {
        put(t, digits, 1);
        if (nd > 1) {
            puts_(t, ".");
            put(t, digits + 1, nd - 1);
        } else if (alternate) {
            puts_(t, "."); /* "1.e+16" */
        }
        put_exponent(t, exp, 0);
    } else if (exp < 0) {
        puts_(t, "0.");
        for (int i = 0; i < -exp - 1; i++)
            puts_(t, "0");
        put(t, digits, nd);
    } else {
        size_t int_len = (size_t)exp + 1;
        if (nd <= int_len) {
            put(t, digits, nd);
            for (size_t i = nd; i < int_len; i++)
                puts_(t, "0");
            puts_(t, ".0");
        } else {
            put(t, digits, int_len);
            puts_(t, ".");
            put(t, digits + int_len, nd - int_len);
        }
    }
}

/* The magnitude of x formatted as CPython's format() does for
 * presentation `code` (see format_float_abs in llinterp/src/arith.rs). */
static void format_abs(struct fmt_text *t, double x, int code, int has_precision,
                       uint64_t precision, int alternate)
{
    if (code == '%') {
        format_abs(t, x * 100.0, 'f', has_precision, precision, alternate);
        puts_(t, "%");
        return;
    }
    x = fabs(x);
    int upper = code == 'E' || code == 'F' || code == 'G';
    if (!isfinite(x)) {
        puts_(t, isnan(x) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"));
        return;
    }
    uint64_t p = has_precision ? precision : 6;
    switch (code) {
    case 'f':
    case 'F':
        fixed(t, x, p, alternate);
        break;
    case 'e':
    case 'E': {
        char mantissa[HEAD_MAX];
        int exp;
        size_t m = scientific(mantissa, sizeof mantissa, x,
                              p > EXACT_DIGITS ? EXACT_DIGITS : (int)p, &exp);
        put(t, mantissa, m);
        t->zeros += p - (p > EXACT_DIGITS ? EXACT_DIGITS : p);
        if (alternate && !has_char(t, '.'))
            puts_(t, ".");
        put_exponent(t, exp, upper);
        break;
    }
    case 'g':
    case 'G':
    case 'h':
        general(t, x, p < 1 ? 1 : p, alternate, upper, code == 'h');
        break;
    default:
        shortest(t, x, alternate);
        break;
    }
}

/* the last text formatted, so formatting a float char by char costs one
 * formatting */
static struct {
    int valid;
    uint64_t bits;
    rpy_Signed spec;
    struct fmt_text text;
} cache;

rpy_Signed rpy_float_format_char(rpy_Float x, rpy_Signed spec, rpy_Signed k)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    if (!cache.valid || cache.bits != bits || cache.spec != spec) {
        struct fmt_text *t = &cache.text;
        t->head_len = 0;
        t->zeros = 0;
        t->tail_len = 0;
        uint64_t uspec = (uint64_t)spec;
        int code = (int)(uspec & 0xff);
        uint64_t p = (uspec >> 8) & 0xffffffffu;
        int alternate = (int)((uspec >> 40) & 1);
        format_abs(t, x, code, p != 0, p == 0 ? 0 : p - 1, alternate);
        cache.valid = 1;
        cache.bits = bits;
        cache.spec = spec;
    }
    const struct fmt_text *t = &cache.text;
    if (k < 0)
        return -1;
    uint64_t i = (uint64_t)k;
    if (i < t->head_len)
        return (unsigned char)t->head[i];
    i -= t->head_len;
    if (i < t->zeros)
        return '0';
    i -= t->zeros;
    if (i < t->tail_len)
        return (unsigned char)t->tail[i];
    return -1;
}

/* ---- shortest round-tripping digits ----------------------------------- */

/* Whether the decimal digits[0..n] * 10**(exp - n + 1) reads back as x. */
static int reads_back(const char *digits, size_t n, int exp, double x)
{
    char buf[64];
    size_t j = 0;
    buf[j++] = digits[0];
    buf[j++] = '.';
    memcpy(buf + j, digits + 1, n - 1);
    j += n - 1;
    snprintf(buf + j, sizeof buf - j, "e%d", exp);
    return strtod(buf, NULL) == x;
}

/* The p-digit decimal (1 <= p <= 17) that reads back as x and is closest
 * to it, if there is one: the correctly rounded one, or else its
 * neighbour on the other side of x (the round-trip interval is convex,
 * so no other p-digit decimal can be in it).  The interval is not
 * symmetric at powers of two, which is why the neighbour matters. */
static int try_precision(double x, int p, char *digits, int *exp)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    if (n < 0 || (size_t)n >= sizeof buf)
        return 0;
    size_t nd = 0;
    const char *s = buf;
    for (; *s && *s != 'e'; s++)
        if (*s != '.')
            digits[nd++] = *s;
    *exp = atoi(s + 1);
    double back = strtod(buf, NULL);
    if (back == x)
        return 1;
    if (back < x) {
        /* one unit up in the last digit */
        size_t i = nd;
        while (i > 0 && digits[i - 1] == '9')
            digits[--i] = '0';
        if (i == 0) {
            digits[0] = '1'; /* 99..9 -> 100..0, one more digit of exponent */
            (*exp)++;
        } else {
            digits[i - 1]++;
        }
    } else {
        /* one unit down */
        size_t i = nd;
        while (i > 0 && digits[i - 1] == '0')
            digits[--i] = '9';
        /* i > 0: the leading digit is not 0 */
        digits[i - 1]--;
        if (digits[0] == '0') {
            /* 100..0 -> 099..9: the p-digit decimal below is 99..9 */
            for (size_t j = 0; j < nd; j++)
                digits[j] = '9';
            (*exp)--;
        }
    }
    return reads_back(digits, nd, *exp, x);
}

static void shortest_digits(double x, char *digits, size_t *ndigits, int *exp)
{
    /* round-tripping with p digits implies it with p + 1 (append a 0):
     * search the least p; 17 digits always read back */
    int lo = 1, hi = 17;
    char best[32];
    int best_exp = 0, have_best = 0;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        char d[32];
        int e;
        if (try_precision(x, mid, d, &e)) {
            hi = mid;
            memcpy(best, d, (size_t)mid);
            best_exp = e;
            have_best = 1;
        } else {
            lo = mid + 1;
        }
    }
    if (!have_best && !try_precision(x, 17, best, &best_exp))
        memset(best, '0', 17); /* cannot happen */
    size_t n = (size_t)hi;
    while (n > 1 && best[n - 1] == '0')
        n--;
    memcpy(digits, best, n);
    *ndigits = n;
    *exp = best_exp;
}

/* ---- str_to_float ----------------------------------------------------- */

static int is_digit(rpy_UniChar c) { return c >= '0' && c <= '9'; }

static rpy_UniChar lower_ascii(rpy_UniChar c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int matches_word(const rpy_UniChar *s, rpy_Signed n, const char *word)
{
    size_t len = strlen(word);
    if ((uint64_t)n != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (lower_ascii(s[i]) != (rpy_UniChar)word[i])
            return 0;
    return 1;
}

/* Rust's f64::from_str grammar (what the llinterp accepts):
 *   [+-]? ( inf | infinity | nan | Number ),  case-insensitive words;
 *   Number ::= ( D+ | D+ '.' D* | D* '.' D+ ) ( [eE] [+-]? D+ )? */
static int valid_float_text(const rpy_UniChar *s, rpy_Signed n)
{
    rpy_Signed i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    if (matches_word(s + i, n - i, "inf") || matches_word(s + i, n - i, "infinity") ||
        matches_word(s + i, n - i, "nan"))
        return 1;
    rpy_Signed int_digits = 0, frac_digits = 0;
    while (i < n && is_digit(s[i])) {
        i++;
        int_digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i])) {
            i++;
            frac_digits++;
        }
    }
    if (int_digits + frac_digits == 0)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        rpy_Signed exp_digits = 0;
        while (i < n && is_digit(s[i])) {
            i++;
            exp_digits++;
        }
        if (exp_digits == 0)
            return 0;
    }
    return i == n;
}

rpy_Float rpy_str_to_float(struct rpy_string *s)
{
    rpy_Signed n = s->length;
    if (n < 0 || !valid_float_text(s->chars, n)) {
        rpy_raise_builtin(RPY_ValueError);
        return 0.0;
    }
    char small[256];
    char *buf = small;
    if ((uint64_t)n >= sizeof small) {
        if ((uint64_t)n >= SIZE_MAX) {
            rpy_raise_builtin(RPY_MemoryError);
            return 0.0;
        }
        buf = malloc((size_t)n + 1);
        if (buf == NULL) {
            rpy_raise_builtin(RPY_MemoryError);
            return 0.0;
        }
    }
    for (rpy_Signed i = 0; i < n; i++)
        buf[i] = (char)s->chars[i];
    buf[n] = 0;
    double r = strtod(buf, NULL);
    if (buf != small)
        free(buf);
    return r;
}
