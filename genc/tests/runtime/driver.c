/* Test driver of the C runtime (genc/tests/runtime/): runs the
 * commands of the file argv[1], one a line, writing one result line per
 * command to the file argv[2] (never to descriptors 1 and 2, which belong
 * to the streams under test), then ends with rpy_exit(0).
 *
 *   call NAME ARG...   a runtime function; integers in decimal, floats
 *                      as the 16 hex digits of their bits
 *                      -> "R VALUE" or "E INDEX" (rpy_builtin_exc)
 *   fmt BITS SPEC      rpy_float_format_char for k = 0, 1, ... -> "S TEXT"
 *   parse CPS          rpy_str_to_float of the code points (hex, comma-
 *                      separated; "-" for none) -> "R BITS" or "E INDEX"
 *   unidump            the Unicode database: "P CP FLAGS" at each change
 *                      of the flags, "M CP WHICH C0,C1,.." per mapping
 *                      that is not the identity
 *   sw FD CPS          stream_write      sf FD   stream_flush
 *   ow FD BYTES        os_write (hex bytes, comma-separated)
 *   or FD N            os_read -> "B BYTES"
 *   rl                 stream_readline -> "S CPS"
 *   open CPS FLAGS MODE / close FD / getenv CPS -> "R FD" / "R" / "S CPS" or "N"
 *   clock              the clocks, checked for sanity -> "R ok"
 *   sleep BITS         time_sleep -> "R slept" if it slept as long as asked
 *   exit STATUS        sys_exit
 *   tty                stdout made a terminal (first thing of a run):
 *                      "R READY BYTES": whether anything reached it after
 *                      writing "ab", and what it got after "c\n"
 *   epipe              stream_write, stream_flush and os_write to a pipe
 *                      nobody reads -> "R E5 E5" (OSError, no SIGPIPE)
 */
#define _XOPEN_SOURCE 700

#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpy3.h"

static FILE *out;
/* the program glue defines it: calls are not counted here */
long rpy_recursion_limit = -1;
static int raised = -1, nraised = 0;
static char dummy_exc;

void rpy_raise_builtin(enum rpy_builtin_exc which)
{
    raised = (int)which;
    nraised++;
    rpy_exc_type = &dummy_exc;
    rpy_exc_value = &dummy_exc;
}

static struct rpy_string *new_str(rpy_Signed length)
{
    if (length < 0 || length > ((rpy_Signed)1 << 40)) {
        rpy_raise_builtin(RPY_MemoryError);
        return NULL;
    }
    struct rpy_string *s =
        calloc(1, sizeof(struct rpy_string) + (size_t)length * sizeof(rpy_UniChar));
    if (s == NULL) {
        rpy_raise_builtin(RPY_MemoryError);
        return NULL;
    }
    s->length = length;
    return s;
}

struct rpy_string *rpy_new_string(rpy_Signed length) { return new_str(length); }
struct rpy_string *rpy_new_bytes(rpy_Signed length) { return new_str(length); }

static void reset(void)
{
    raised = -1;
    nraised = 0;
    rpy_exc_type = NULL;
    rpy_exc_value = NULL;
}

/* "E INDEX" if the call raised (once) and 1; else 0 */
static int report_raise(void)
{
    if (nraised > 1) {
        fprintf(out, "X raised %d times\n", nraised);
        return 1;
    }
    if (nraised == 1) {
        fprintf(out, "E %d\n", raised);
        return 1;
    }
    return 0;
}

static double fbits(const char *s)
{
    uint64_t u = strtoull(s, NULL, 16);
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static uint64_t bitsf(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* a new string of the code points "-" or "41,42,..." (hex) */
static struct rpy_string *parse_cps(const char *s)
{
    rpy_Signed n = 0;
    if (strcmp(s, "-") != 0) {
        n = 1;
        for (const char *p = s; *p; p++)
            n += *p == ',';
    }
    struct rpy_string *r = new_str(n);
    const char *p = s;
    for (rpy_Signed i = 0; i < n; i++) {
        char *end;
        r->chars[i] = (rpy_UniChar)strtoul(p, &end, 16);
        p = *end ? end + 1 : end;
    }
    return r;
}

static void print_cps(const char *tag, const struct rpy_string *s)
{
    fprintf(out, "%s ", tag);
    if (s->length == 0)
        fputc('-', out);
    for (rpy_Signed i = 0; i < s->length; i++)
        fprintf(out, i ? ",%x" : "%x", (unsigned)s->chars[i]);
    fputc('\n', out);
}

typedef rpy_Signed (*f_ii_i)(rpy_Signed, rpy_Signed);
typedef rpy_Signed (*f_i_i)(rpy_Signed);
typedef rpy_Float (*f_ii_f)(rpy_Signed, rpy_Signed);
typedef rpy_Unsigned (*f_uu_u)(rpy_Unsigned, rpy_Unsigned);
typedef rpy_Unsigned (*f_ui_u)(rpy_Unsigned, rpy_Signed);
typedef rpy_Float (*f_ff_f)(rpy_Float, rpy_Float);
typedef rpy_Float (*f_f_f)(rpy_Float);
typedef rpy_Float (*f_fi_f)(rpy_Float, rpy_Signed);
typedef rpy_Signed (*f_f_i)(rpy_Float);
typedef rpy_Unsigned (*f_f_u)(rpy_Float);
typedef rpy_Char (*f_i_c)(rpy_Signed);
typedef rpy_UniChar (*f_i_w)(rpy_Signed);

enum sig { II_I, I_I, II_F, UU_U, UI_U, FF_F, F_F, FI_F, F_I, F_U, I_C, I_W };

#define FN(name, sig) {#name, sig, (void (*)(void))rpy_##name}

static const struct {
    const char *name;
    enum sig sig;
    void (*fn)(void);
} functions[] = {
    FN(int_floordiv, II_I), FN(int_mod, II_I), FN(int_floordiv_ovf, II_I),
    FN(int_mod_ovf, II_I), FN(int_lshift, II_I), FN(int_rshift, II_I),
    FN(int_lshift_ovf, II_I), FN(int_add_ovf, II_I), FN(int_sub_ovf, II_I),
    FN(int_mul_ovf, II_I), FN(int_neg_ovf, I_I), FN(int_abs_ovf, I_I),
    FN(int_pow, II_I), FN(int_truediv, II_F), FN(uint_floordiv, UU_U),
    FN(uint_mod, UU_U), FN(uint_lshift, UI_U), FN(uint_rshift, UI_U),
    FN(float_truediv, FF_F), FN(float_floordiv, FF_F), FN(float_mod, FF_F),
    FN(float_pow, FF_F), FN(float_sqrt, F_F), FN(float_exp, F_F),
    FN(float_expm1, F_F), FN(float_log, F_F), FN(float_log2, F_F),
    FN(float_log10, F_F), FN(float_log1p, F_F), FN(float_sin, F_F),
    FN(float_cos, F_F), FN(float_tan, F_F), FN(float_asin, F_F),
    FN(float_acos, F_F), FN(float_atan, F_F), FN(float_sinh, F_F),
    FN(float_cosh, F_F), FN(float_tanh, F_F), FN(float_asinh, F_F),
    FN(float_acosh, F_F), FN(float_atanh, F_F), FN(float_floor, F_F),
    FN(float_ceil, F_F), FN(float_trunc, F_F), FN(float_round, F_F),
    FN(float_round_digits, FI_F), FN(float_atan2, FF_F), FN(float_fmod, FF_F),
    FN(float_math_pow, FF_F), FN(float_hypot, FF_F), FN(float_copysign, FF_F),
    FN(float_frexp_exp, F_I), FN(float_ldexp, FI_F), FN(cast_float_to_int, F_I),
    FN(cast_float_to_uint, F_U), FN(cast_int_to_char, I_C), FN(cast_int_to_unichar, I_W),
};

static void call(char **arg, int nargs)
{
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        if (strcmp(functions[i].name, arg[0]) != 0)
            continue;
        void (*fn)(void) = functions[i].fn;
        enum sig sig = functions[i].sig;
        int want = (sig == I_I || sig == F_F || sig == F_I || sig == F_U || sig == I_C ||
                    sig == I_W)
                       ? 1
                       : 2;
        if (nargs != want + 1) {
            fprintf(out, "X bad arguments\n");
            return;
        }
        rpy_Signed i1 = strtoll(arg[1], NULL, 10), i2 = nargs > 2 ? strtoll(arg[2], NULL, 10) : 0;
        rpy_Unsigned u1 = strtoull(arg[1], NULL, 10);
        rpy_Unsigned u2 = nargs > 2 ? strtoull(arg[2], NULL, 10) : 0;
        double f1 = fbits(arg[1]), f2 = nargs > 2 ? fbits(arg[2]) : 0.0;
        reset();
        switch (sig) {
        case II_I: {
            rpy_Signed r = ((f_ii_i)fn)(i1, i2);
            if (!report_raise())
                fprintf(out, "R %" PRId64 "\n", r);
            break;
        }
        case I_I: {
            rpy_Signed r = ((f_i_i)fn)(i1);
            if (!report_raise())
                fprintf(out, "R %" PRId64 "\n", r);
            break;
        }
        case II_F: {
            double r = ((f_ii_f)fn)(i1, i2);
            if (!report_raise())
                fprintf(out, "R %016" PRIx64 "\n", bitsf(r));
            break;
        }
        case UU_U: {
            rpy_Unsigned r = ((f_uu_u)fn)(u1, u2);
            if (!report_raise())
                fprintf(out, "R %" PRIu64 "\n", r);
            break;
        }
        case UI_U: {
            rpy_Unsigned r = ((f_ui_u)fn)(u1, i2);
            if (!report_raise())
                fprintf(out, "R %" PRIu64 "\n", r);
            break;
        }
        case FF_F: {
            double r = ((f_ff_f)fn)(f1, f2);
            if (!report_raise())
                fprintf(out, "R %016" PRIx64 "\n", bitsf(r));
            break;
        }
        case F_F: {
            double r = ((f_f_f)fn)(f1);
            if (!report_raise())
                fprintf(out, "R %016" PRIx64 "\n", bitsf(r));
            break;
        }
        case FI_F: {
            double r = ((f_fi_f)fn)(f1, i2);
            if (!report_raise())
                fprintf(out, "R %016" PRIx64 "\n", bitsf(r));
            break;
        }
        case F_I: {
            rpy_Signed r = ((f_f_i)fn)(f1);
            if (!report_raise())
                fprintf(out, "R %" PRId64 "\n", r);
            break;
        }
        case F_U: {
            rpy_Unsigned r = ((f_f_u)fn)(f1);
            if (!report_raise())
                fprintf(out, "R %" PRIu64 "\n", r);
            break;
        }
        case I_C: {
            rpy_Char r = ((f_i_c)fn)(i1);
            if (!report_raise())
                fprintf(out, "R %u\n", (unsigned)r);
            break;
        }
        case I_W: {
            rpy_UniChar r = ((f_i_w)fn)(i1);
            if (!report_raise())
                fprintf(out, "R %u\n", (unsigned)r);
            break;
        }
        }
        return;
    }
    fprintf(out, "X no function %s\n", arg[0]);
}

static void format(const char *bits, const char *spec_text)
{
    double x = fbits(bits);
    rpy_Signed spec = strtoll(spec_text, NULL, 10);
    if (rpy_float_format_char(x, spec, -1) != -1) {
        fprintf(out, "X k=-1\n");
        return;
    }
    fputs("S ", out);
    for (rpy_Signed k = 0;; k++) {
        rpy_Signed c = rpy_float_format_char(x, spec, k);
        if (c < 0)
            break;
        if (c == 0 || c > 127) {
            fprintf(out, "<%" PRId64 ">", c);
            break;
        }
        fputc((int)c, out);
        if (k > 100000) {
            fputs("<long>", out);
            break;
        }
    }
    fputc('\n', out);
}

static void unidump(void)
{
    rpy_Signed last = -1;
    for (rpy_UniChar c = 0; c <= 0x110001; c++) {
        rpy_Signed f = rpy_unichar_props(c);
        if (f != last)
            fprintf(out, "P %x %" PRId64 "\n", (unsigned)c, f);
        last = f;
        rpy_Signed (*maps[4])(rpy_UniChar, rpy_Signed) = {
            rpy_unichar_upper, rpy_unichar_lower, rpy_unichar_title, rpy_unichar_casefold};
        for (int w = 0; w < 4; w++) {
            if (maps[w](c, -1) != -1) {
                fprintf(out, "X negative k\n");
                return;
            }
            if (maps[w](c, 0) == (rpy_Signed)c && maps[w](c, 1) == -1)
                continue;
            fprintf(out, "M %x %d ", (unsigned)c, w);
            for (rpy_Signed k = 0; k < 10; k++) {
                rpy_Signed m = maps[w](c, k);
                if (m < 0)
                    break;
                fprintf(out, k ? ",%x" : "%x", (unsigned)m);
            }
            fputc('\n', out);
        }
    }
}

static void command(char **arg, int n)
{
    const char *cmd = arg[0];
    if (strcmp(cmd, "call") == 0 && n >= 2) {
        call(arg + 1, n - 1);
    } else if (strcmp(cmd, "fmt") == 0 && n == 3) {
        format(arg[1], arg[2]);
    } else if (strcmp(cmd, "parse") == 0 && n == 2) {
        struct rpy_string *s = parse_cps(arg[1]);
        reset();
        double r = rpy_str_to_float(s);
        if (!report_raise())
            fprintf(out, "R %016" PRIx64 "\n", bitsf(r));
        free(s);
    } else if (strcmp(cmd, "unidump") == 0) {
        unidump();
    } else if (strcmp(cmd, "sw") == 0 && n == 3) {
        struct rpy_string *s = parse_cps(arg[2]);
        reset();
        rpy_ext_stream_write(strtoll(arg[1], NULL, 10), s);
        if (!report_raise())
            fprintf(out, "R\n");
        free(s);
    } else if (strcmp(cmd, "sf") == 0 && n == 2) {
        reset();
        rpy_ext_stream_flush(strtoll(arg[1], NULL, 10));
        if (!report_raise())
            fprintf(out, "R\n");
    } else if (strcmp(cmd, "ow") == 0 && n == 3) {
        struct rpy_string *s = parse_cps(arg[2]);
        reset();
        rpy_Signed r = rpy_ext_os_write(strtoll(arg[1], NULL, 10), s);
        if (!report_raise())
            fprintf(out, "R %" PRId64 "\n", r);
        free(s);
    } else if (strcmp(cmd, "or") == 0 && n == 3) {
        reset();
        struct rpy_string *s =
            rpy_ext_os_read(strtoll(arg[1], NULL, 10), strtoll(arg[2], NULL, 10));
        if (!report_raise())
            print_cps("B", s);
        free(s);
    } else if (strcmp(cmd, "rl") == 0) {
        reset();
        struct rpy_string *s = rpy_ext_stream_readline();
        if (!report_raise())
            print_cps("S", s);
        free(s);
    } else if (strcmp(cmd, "open") == 0 && n == 4) {
        struct rpy_string *s = parse_cps(arg[1]);
        reset();
        rpy_Signed fd =
            rpy_ext_os_open(s, strtoll(arg[2], NULL, 10), strtoll(arg[3], NULL, 10));
        if (!report_raise())
            fprintf(out, "R %" PRId64 "\n", fd);
        free(s);
    } else if (strcmp(cmd, "close") == 0 && n == 2) {
        reset();
        rpy_ext_os_close(strtoll(arg[1], NULL, 10));
        if (!report_raise())
            fprintf(out, "R\n");
    } else if (strcmp(cmd, "getenv") == 0 && n == 2) {
        struct rpy_string *s = parse_cps(arg[1]);
        reset();
        struct rpy_string *v = rpy_ext_os_getenv(s);
        if (!report_raise()) {
            if (v == NULL)
                fprintf(out, "N\n");
            else
                print_cps("S", v);
        }
        free(s);
        free(v);
    } else if (strcmp(cmd, "clock") == 0) {
        double t = rpy_ext_time_time(), p1 = rpy_ext_time_perf_counter();
        double m1 = rpy_ext_time_monotonic(), c1 = rpy_ext_time_process_time();
        double p2 = rpy_ext_time_perf_counter(), m2 = rpy_ext_time_monotonic();
        int ok = t > 1.6e9 && p1 >= 0.0 && p2 >= p1 && m2 >= m1 && c1 > 0.0 && c1 < 1000.0;
        fprintf(out, ok ? "R ok\n" : "R bad %f %f %f %f %f %f\n", t, p1, p2, m1, m2, c1);
    } else if (strcmp(cmd, "sleep") == 0 && n == 2) {
        reset();
        double before = rpy_ext_time_monotonic();
        rpy_ext_time_sleep(fbits(arg[1]));
        double slept = rpy_ext_time_monotonic() - before;
        double secs = fbits(arg[1]);
        double expected = secs > 0.0 && isfinite(secs) ? secs : 0.0;
        if (!report_raise())
            fprintf(out, slept >= expected * 0.99 && slept < expected + 2.0 ? "R slept\n"
                                                                             : "R %f\n",
                    slept);
    } else if (strcmp(cmd, "tty") == 0) {
        int m = posix_openpt(O_RDWR | O_NOCTTY);
        if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0) {
            fprintf(out, "R unavailable\n");
            return;
        }
        int slave = open(ptsname(m), O_RDWR | O_NOCTTY);
        int saved = dup(1);
        if (slave < 0 || saved < 0) {
            fprintf(out, "R unavailable\n");
            return;
        }
        dup2(slave, 1);
        close(slave);
        struct rpy_string *ab = parse_cps("61,62"), *cn = parse_cps("63,a");
        struct pollfd pfd = {m, POLLIN, 0};
        rpy_ext_stream_write(1, ab);
        int early = poll(&pfd, 1, 0);
        rpy_ext_stream_write(1, cn);
        unsigned char buf[64];
        ssize_t got = 0;
        if (poll(&pfd, 1, 2000) == 1)
            got = read(m, buf, sizeof buf);
        dup2(saved, 1);
        close(saved);
        close(m);
        free(ab);
        free(cn);
        fprintf(out, "R %d ", early);
        for (ssize_t i = 0; i < got; i++)
            fprintf(out, i ? ",%x" : "%x", buf[i]);
        fputc('\n', out);
    } else if (strcmp(cmd, "epipe") == 0) {
        int saved = dup(1), p[2];
        if (saved < 0 || pipe(p) < 0) {
            fprintf(out, "X pipe\n");
            return;
        }
        close(p[0]);
        dup2(p[1], 1);
        close(p[1]);
        struct rpy_string *s = parse_cps("78");
        reset();
        rpy_ext_stream_write(1, s);
        int w = nraised;
        reset();
        rpy_ext_stream_flush(1);
        int e1 = raised;
        reset();
        rpy_ext_os_write(1, s);
        int e2 = raised;
        dup2(saved, 1);
        close(saved);
        free(s);
        fprintf(out, "R%s E%d E%d\n", w ? " raised" : "", e1, e2);
    } else if (strcmp(cmd, "exit") == 0 && n == 2) {
        fflush(out);
        rpy_ext_sys_exit(strtoll(arg[1], NULL, 10));
        fprintf(out, "X sys_exit returned\n");
    } else {
        fprintf(out, "X bad command %s\n", cmd);
    }
}

int main(int argc, char **argv)
{
    rpy_runtime_init();
    if (argc != 3)
        return 2;
    FILE *in = fopen(argv[1], "rb");
    out = fopen(argv[2], "w");
    if (in == NULL || out == NULL)
        return 2;
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text == NULL || fread(text, 1, (size_t)size, in) != (size_t)size)
        return 2;
    text[size] = 0;
    fclose(in);
    char *line = text;
    while (*line) {
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        char *arg[8];
        int n = 0;
        for (char *tok = strtok(line, " "); tok && n < 8; tok = strtok(NULL, " "))
            arg[n++] = tok;
        if (n > 0)
            command(arg, n);
        if (!end)
            break;
        line = end + 1;
    }
    free(text);
    fflush(out);
    rpy_exit(0);
}
