/* rpy3 runtime: the external-function table (model/src/extfunc.rs) with
 * the semantics of the llinterp's real world (llinterp/src/external.rs,
 * world.rs): strings cross as UTF-8 (a lone surrogate raises
 * ValueError), failures of the system raise OSError, and the text
 * streams buffer as CPython's do: stdout is written out at exit, by
 * flush, when its buffer reaches 8192 bytes (or at each newline when it
 * is a terminal); stderr whenever a write holds a newline; os.write goes
 * to the descriptor at once, past both buffers.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "rpy3.h"

/* CPython's io.DEFAULT_BUFFER_SIZE */
#define STDOUT_BUFFER 8192

struct buffer {
    unsigned char *data;
    size_t len, cap;
};

static struct buffer stdout_buf, stderr_buf, stdin_buf;
/* whether stdout is a terminal: -1 until asked (at its first write) */
static int stdout_tty = -1;

/* room for n more bytes; 0 after MemoryError */
static int reserve(struct buffer *b, size_t n)
{
    if (n <= b->cap - b->len)
        return 1;
    if (n > SIZE_MAX / 2 - b->len) {
        rpy_raise_builtin(RPY_MemoryError);
        return 0;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n)
        cap *= 2;
    unsigned char *p = realloc(b->data, cap);
    if (p == NULL) {
        rpy_raise_builtin(RPY_MemoryError);
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

/* The UTF-8 length of the code points of s; -1 if one cannot be encoded
 * (a surrogate, or past U+10FFFF). */
static int64_t utf8_length(const struct rpy_string *s)
{
    int64_t n = 0;
    for (rpy_Signed i = 0; i < s->length; i++) {
        rpy_UniChar c = s->chars[i];
        if (c < 0x80)
            n += 1;
        else if (c < 0x800)
            n += 2;
        else if (c >= 0xD800 && c <= 0xDFFF)
            return -1;
        else if (c < 0x10000)
            n += 3;
        else if (c <= 0x10FFFF)
            n += 4;
        else
            return -1;
    }
    return n;
}

static size_t utf8_encode(const struct rpy_string *s, unsigned char *out)
{
    size_t j = 0;
    for (rpy_Signed i = 0; i < s->length; i++) {
        rpy_UniChar c = s->chars[i];
        if (c < 0x80) {
            out[j++] = (unsigned char)c;
        } else if (c < 0x800) {
            out[j++] = (unsigned char)(0xC0 | (c >> 6));
            out[j++] = (unsigned char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out[j++] = (unsigned char)(0xE0 | (c >> 12));
            out[j++] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            out[j++] = (unsigned char)(0x80 | (c & 0x3F));
        } else {
            out[j++] = (unsigned char)(0xF0 | (c >> 18));
            out[j++] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
            out[j++] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            out[j++] = (unsigned char)(0x80 | (c & 0x3F));
        }
    }
    return j;
}

/* s as a new NUL-terminated UTF-8 string (free it); NULL after raising
 * ValueError (not encodable) or MemoryError */
static char *utf8_cstring(const struct rpy_string *s, size_t *len)
{
    int64_t n = utf8_length(s);
    if (n < 0) {
        rpy_raise_builtin(RPY_ValueError);
        return NULL;
    }
    char *p = malloc((size_t)n + 1);
    if (p == NULL) {
        rpy_raise_builtin(RPY_MemoryError);
        return NULL;
    }
    utf8_encode(s, (unsigned char *)p);
    p[n] = 0;
    *len = (size_t)n;
    return p;
}

/* The length of the valid UTF-8 sequence at s[0..n] (s[0] >= 0x80), or
 * the length of its maximal invalid prefix negated (Unicode's
 * "substitution of maximal subparts", as Rust's from_utf8_lossy). */
static int utf8_sequence(const unsigned char *s, size_t n, rpy_UniChar *cp)
{
    unsigned char b = s[0];
    int width;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
        width = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
        width = 3;
        if (b == 0xE0)
            lo = 0xA0;
        if (b == 0xED)
            hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        width = 4;
        if (b == 0xF0)
            lo = 0x90;
        if (b == 0xF4)
            hi = 0x8F;
    } else {
        return -1;
    }
    if (n < 2 || s[1] < lo || s[1] > hi)
        return -1;
    for (int i = 2; i < width; i++)
        if ((size_t)i >= n || s[i] < 0x80 || s[i] > 0xBF)
            return -i;
    rpy_UniChar c = b & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07);
    for (int i = 1; i < width; i++)
        c = (c << 6) | (s[i] & 0x3F);
    *cp = c;
    return width;
}

/* Decodes UTF-8 into a new string; invalid sequences become U+FFFD when
 * `lossy`, else the result is NULL with *invalid set.  NULL after
 * MemoryError too. */
static struct rpy_string *utf8_decode(const unsigned char *s, size_t n, int lossy, int *invalid)
{
    size_t count = 0;
    *invalid = 0;
    for (size_t i = 0; i < n;) {
        rpy_UniChar c;
        int w = s[i] < 0x80 ? 1 : utf8_sequence(s + i, n - i, &c);
        if (w < 0) {
            if (!lossy) {
                *invalid = 1;
                return NULL;
            }
            w = -w;
        }
        i += (size_t)w;
        count++;
    }
    if (count > (size_t)INT64_MAX)
        count = (size_t)INT64_MAX;
    struct rpy_string *r = rpy_new_string((rpy_Signed)count);
    if (r == NULL)
        return NULL;
    size_t j = 0;
    for (size_t i = 0; i < n && j < count;) {
        rpy_UniChar c = s[i];
        int w = s[i] < 0x80 ? 1 : utf8_sequence(s + i, n - i, &c);
        if (w < 0) {
            c = 0xFFFD;
            w = -w;
        }
        r->chars[j++] = c;
        i += (size_t)w;
    }
    return r;
}

/* fd as a C int, or -1 (EBADF) */
static int c_fd(rpy_Signed fd)
{
    return (fd >= INT_MIN && fd <= INT_MAX) ? (int)fd : -1;
}

static int has_newline(const struct rpy_string *s)
{
    for (rpy_Signed i = 0; i < s->length; i++)
        if (s->chars[i] == '\n')
            return 1;
    return 0;
}

/* Writes out what stream fd (1 or 2) holds: 0, or -1 on an error (the
 * buffer is dropped either way). */
static int flush_stream(int fd)
{
    struct buffer *b = fd == 1 ? &stdout_buf : &stderr_buf;
    size_t done = 0;
    int result = 0;
    while (done < b->len) {
        ssize_t n = write(fd, b->data + done, b->len - done);
        if (n > 0) {
            done += (size_t)n;
        } else if (n == 0) {
            break;
        } else if (errno == EINTR) {
            continue;
        } else {
            result = -1;
            break;
        }
    }
    b->len = 0;
    return result;
}

void rpy_ext_stream_write(rpy_Signed fd, struct rpy_string *s)
{
    if (s == NULL)
        return;
    int64_t n = utf8_length(s);
    if (n < 0) {
        rpy_raise_builtin(RPY_ValueError);
        return;
    }
    if (fd != 1 && fd != 2) {
        rpy_raise_builtin(RPY_OSError);
        return;
    }
    struct buffer *b = fd == 1 ? &stdout_buf : &stderr_buf;
    if (!reserve(b, (size_t)n))
        return;
    b->len += utf8_encode(s, b->data + b->len);
    int flush;
    if (fd == 1) {
        if (stdout_tty < 0)
            stdout_tty = isatty(1) == 1;
        flush = b->len >= STDOUT_BUFFER || (stdout_tty && has_newline(s));
    } else {
        flush = has_newline(s);
    }
    if (flush && flush_stream((int)fd) < 0)
        rpy_raise_builtin(RPY_OSError);
}

void rpy_ext_stream_flush(rpy_Signed fd)
{
    if (fd != 1 && fd != 2) {
        rpy_raise_builtin(RPY_OSError);
        return;
    }
    if (flush_stream((int)fd) < 0)
        rpy_raise_builtin(RPY_OSError);
}

struct rpy_string *rpy_ext_stream_readline(void)
{
    /* stdout is flushed first, as CPython's input() does */
    (void)flush_stream(1);
    size_t scanned = 0;
    for (;;) {
        unsigned char *nl = stdin_buf.len > scanned
                                ? memchr(stdin_buf.data + scanned, '\n', stdin_buf.len - scanned)
                                : NULL;
        size_t take;
        if (nl != NULL) {
            take = (size_t)(nl - stdin_buf.data) + 1;
        } else {
            scanned = stdin_buf.len;
            if (!reserve(&stdin_buf, STDOUT_BUFFER))
                return NULL;
            ssize_t got = read(0, stdin_buf.data + stdin_buf.len, STDOUT_BUFFER);
            if (got < 0) {
                rpy_raise_builtin(RPY_OSError);
                return NULL;
            }
            if (got > 0) {
                stdin_buf.len += (size_t)got;
                continue;
            }
            take = stdin_buf.len; /* end of file: what is left */
        }
        int invalid;
        struct rpy_string *line = utf8_decode(stdin_buf.data, take, 1, &invalid);
        if (line == NULL)
            return NULL;
        memmove(stdin_buf.data, stdin_buf.data + take, stdin_buf.len - take);
        stdin_buf.len -= take;
        return line;
    }
}

rpy_Signed rpy_ext_os_write(rpy_Signed fd, struct rpy_string *b)
{
    if (b == NULL)
        return 0;
    size_t n = b->length > 0 ? (size_t)b->length : 0;
    unsigned char small[512];
    unsigned char *data = small;
    if (n > sizeof small) {
        data = malloc(n);
        if (data == NULL) {
            rpy_raise_builtin(RPY_MemoryError);
            return 0;
        }
    }
    for (size_t i = 0; i < n; i++)
        data[i] = (unsigned char)b->chars[i];
    int cfd = c_fd(fd);
    ssize_t w = cfd < 0 ? -1 : write(cfd, data, n);
    if (data != small)
        free(data);
    if (w < 0) {
        rpy_raise_builtin(RPY_OSError);
        return 0;
    }
    return (rpy_Signed)w;
}

struct rpy_string *rpy_ext_os_read(rpy_Signed fd, rpy_Signed n)
{
    if (n < 0) {
        rpy_raise_builtin(RPY_ValueError);
        return NULL;
    }
    if (n > (rpy_Signed)1 << 30)
        n = (rpy_Signed)1 << 30;
    unsigned char *data = malloc((size_t)n + 1);
    if (data == NULL) {
        rpy_raise_builtin(RPY_MemoryError);
        return NULL;
    }
    int cfd = c_fd(fd);
    ssize_t got = cfd < 0 ? -1 : read(cfd, data, (size_t)n);
    if (got < 0) {
        free(data);
        rpy_raise_builtin(RPY_OSError);
        return NULL;
    }
    struct rpy_string *r = rpy_new_bytes((rpy_Signed)got);
    if (r != NULL)
        for (ssize_t i = 0; i < got; i++)
            r->chars[i] = data[i];
    free(data);
    return r;
}

rpy_Signed rpy_ext_os_open(struct rpy_string *path, rpy_Signed flags, rpy_Signed mode)
{
    if (path == NULL)
        return 0;
    size_t len;
    char *p = utf8_cstring(path, &len);
    if (p == NULL)
        return 0;
    int fd = -1;
    /* a path holding NUL, flags or a mode out of range: EINVAL */
    if (strlen(p) == len && flags >= INT_MIN && flags <= INT_MAX && mode >= 0 &&
        (uint64_t)mode <= UINT_MAX)
        fd = open(p, (int)flags | O_CLOEXEC, (mode_t)mode);
    free(p);
    if (fd < 0) {
        rpy_raise_builtin(RPY_OSError);
        return 0;
    }
    return fd;
}

void rpy_ext_os_close(rpy_Signed fd)
{
    int cfd = c_fd(fd);
    if (cfd < 0 || close(cfd) < 0)
        rpy_raise_builtin(RPY_OSError);
}

struct rpy_string *rpy_ext_os_getenv(struct rpy_string *name)
{
    if (name == NULL)
        return NULL;
    size_t len;
    char *p = utf8_cstring(name, &len);
    if (p == NULL)
        return NULL;
    /* a name holding NUL is in no environment */
    const char *v = strlen(p) == len ? getenv(p) : NULL;
    free(p);
    if (v == NULL)
        return NULL;
    /* a value that is not UTF-8 is not seen (Rust's env::var) */
    int invalid;
    return utf8_decode((const unsigned char *)v, strlen(v), 0, &invalid);
}

static double seconds(clockid_t clock)
{
    struct timespec ts = {0, 0};
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

rpy_Float rpy_ext_time_time(void) { return seconds(CLOCK_REALTIME); }

/* the monotonic clock counts from rpy_runtime_init (or its first
 * reading), as the llinterp's from the start of the run */
static int monotonic_started;
static struct timespec monotonic_start;

static void start_monotonic(void)
{
    clock_gettime(CLOCK_MONOTONIC, &monotonic_start);
    monotonic_started = 1;
}

void rpy_runtime_init(void)
{
    signal(SIGPIPE, SIG_IGN);
    start_monotonic();
}

rpy_Float rpy_ext_time_perf_counter(void)
{
    if (!monotonic_started)
        start_monotonic();
    struct timespec now = {0, 0};
    clock_gettime(CLOCK_MONOTONIC, &now);
    double secs = (double)(now.tv_sec - monotonic_start.tv_sec);
    long nsec = now.tv_nsec - monotonic_start.tv_nsec;
    return secs + (double)nsec / 1e9;
}

rpy_Float rpy_ext_time_monotonic(void) { return rpy_ext_time_perf_counter(); }

rpy_Float rpy_ext_time_process_time(void)
{
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void rpy_ext_time_sleep(rpy_Float secs)
{
    if (secs < 0.0 || isnan(secs)) {
        rpy_raise_builtin(RPY_ValueError);
        return;
    }
    if (!(secs > 0.0 && isfinite(secs)))
        return;
    if (secs > 1e9)
        secs = 1e9;
    struct timespec ts;
    ts.tv_sec = (time_t)secs;
    long nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
    ts.tv_nsec = nsec < 0 ? 0 : nsec > 999999999 ? 999999999 : nsec;
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

void rpy_streams_flush_all(void)
{
    (void)flush_stream(1);
    (void)flush_stream(2);
}

void rpy_ext_sys_setrecursionlimit(rpy_Signed n)
{
    if (n < 1) {
        rpy_raise_builtin(RPY_ValueError);
        return;
    }
    /* counted only in builds limited as CPython is; elsewhere the machine
     * stack is the limit */
    if (rpy_recursion_limit > 0)
        rpy_recursion_limit = (long)n;
}

void rpy_ext_sys_exit(rpy_Signed status)
{
    rpy_exit((int)(status & 0xff));
}

_Noreturn void rpy_exit(int status)
{
    rpy_streams_flush_all();
    exit(status);
}
