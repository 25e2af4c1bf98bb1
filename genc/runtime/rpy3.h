/* rpy3 runtime: the small C library every executable of the C and the
 * native backend links (RPython's translator/c/src/).  The generated
 * program provides the glue declared at the end ("provided by the
 * program"); the runtime provides everything else.
 *
 * Conventions:
 * - low-level primitives map to the typedefs below; signed arithmetic is
 *   compiled with -fwrapv, and every operation is defined for every input;
 * - exceptions are explicit state: a raising function sets rpy_exc_type /
 *   rpy_exc_value (through rpy_raise_builtin or rpy_raise) and returns a
 *   dummy value; the caller tests rpy_exc_type after every operation that
 *   can raise;
 * - every GC object starts with a struct rpy_gchdr; strings (rpy_string)
 *   and bytes (rpy_bytes) share the layout of struct rpy_string.
 */
#ifndef RPY3_H
#define RPY3_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef int64_t rpy_Signed;
typedef uint64_t rpy_Unsigned;
typedef int64_t rpy_SignedLongLong;
typedef uint64_t rpy_UnsignedLongLong;
typedef double rpy_Float;
typedef uint8_t rpy_Char;
typedef uint32_t rpy_UniChar;
typedef uint8_t rpy_Bool;

/* ---- GC objects ------------------------------------------------------ */

/* The header of every GC object: its type id (an index into
 * rpy_typeinfo) and the collector's bits. */
struct rpy_gchdr {
    uint32_t tid;
    uint32_t gcflags;
};

/* gcflags: the object is prebuilt (static data, never freed). */
#define RPY_GC_STATIC 1u
/* gcflags: marked during a collection. */
#define RPY_GC_MARK 2u

/* An rpy_string or rpy_bytes: code points (or byte values). */
struct rpy_string {
    struct rpy_gchdr hdr;
    rpy_Signed hash;
    rpy_Signed length;
    rpy_UniChar chars[];
};

/* What the collector knows of one GC type. */
struct rpy_typeinfo {
    /* size of the fixed part (for a varsize type: up to items[]) */
    size_t size;
    /* size of one item; 0 for a fixed-size type */
    size_t itemsize;
    /* offset of the rpy_Signed length and of the first item */
    size_t length_ofs;
    size_t items_ofs;
    /* offsets of the GC pointers of the fixed part, and of one item */
    const uint32_t *ptrs;
    uint32_t nptrs;
    const uint32_t *itemptrs;
    uint32_t nitemptrs;
};

/* ---- exceptions ------------------------------------------------------ */

/* The built-in exceptions the runtime's operations raise. */
enum rpy_builtin_exc {
    RPY_ZeroDivisionError,
    RPY_OverflowError,
    RPY_ValueError,
    RPY_IndexError,
    RPY_MemoryError,
    RPY_OSError,
    RPY_RecursionError,
    RPY_N_BUILTIN_EXC
};

struct rpy_object;
struct rpy_vtable;
extern void *rpy_exc_type;  /* the raised class's vtable, or NULL */
extern void *rpy_exc_value; /* the raised instance */

/* ---- arithmetic and conversions (raise through rpy_raise_builtin) ----- */

rpy_Signed rpy_int_floordiv(rpy_Signed x, rpy_Signed y);
rpy_Signed rpy_int_mod(rpy_Signed x, rpy_Signed y);
rpy_Signed rpy_int_floordiv_ovf(rpy_Signed x, rpy_Signed y);
rpy_Signed rpy_int_mod_ovf(rpy_Signed x, rpy_Signed y);
rpy_Signed rpy_int_lshift(rpy_Signed x, rpy_Signed n);
rpy_Signed rpy_int_rshift(rpy_Signed x, rpy_Signed n);
rpy_Signed rpy_int_lshift_ovf(rpy_Signed x, rpy_Signed n);
rpy_Signed rpy_int_add_ovf(rpy_Signed x, rpy_Signed y);
rpy_Signed rpy_int_sub_ovf(rpy_Signed x, rpy_Signed y);
rpy_Signed rpy_int_mul_ovf(rpy_Signed x, rpy_Signed y);
rpy_Signed rpy_int_neg_ovf(rpy_Signed x);
rpy_Signed rpy_int_abs_ovf(rpy_Signed x);
rpy_Signed rpy_int_pow(rpy_Signed x, rpy_Signed y);
rpy_Float rpy_int_truediv(rpy_Signed x, rpy_Signed y);
rpy_Unsigned rpy_uint_floordiv(rpy_Unsigned x, rpy_Unsigned y);
rpy_Unsigned rpy_uint_mod(rpy_Unsigned x, rpy_Unsigned y);
rpy_Unsigned rpy_uint_lshift(rpy_Unsigned x, rpy_Signed n);
rpy_Unsigned rpy_uint_rshift(rpy_Unsigned x, rpy_Signed n);

rpy_Float rpy_float_truediv(rpy_Float x, rpy_Float y);
rpy_Float rpy_float_floordiv(rpy_Float x, rpy_Float y);
rpy_Float rpy_float_mod(rpy_Float x, rpy_Float y);
rpy_Float rpy_float_pow(rpy_Float x, rpy_Float y);
/* the math module, with CPython's errors */
rpy_Float rpy_float_sqrt(rpy_Float x);
rpy_Float rpy_float_exp(rpy_Float x);
rpy_Float rpy_float_expm1(rpy_Float x);
rpy_Float rpy_float_log(rpy_Float x);
rpy_Float rpy_float_log2(rpy_Float x);
rpy_Float rpy_float_log10(rpy_Float x);
rpy_Float rpy_float_log1p(rpy_Float x);
rpy_Float rpy_float_sin(rpy_Float x);
rpy_Float rpy_float_cos(rpy_Float x);
rpy_Float rpy_float_tan(rpy_Float x);
rpy_Float rpy_float_asin(rpy_Float x);
rpy_Float rpy_float_acos(rpy_Float x);
rpy_Float rpy_float_atan(rpy_Float x);
rpy_Float rpy_float_sinh(rpy_Float x);
rpy_Float rpy_float_cosh(rpy_Float x);
rpy_Float rpy_float_tanh(rpy_Float x);
rpy_Float rpy_float_asinh(rpy_Float x);
rpy_Float rpy_float_acosh(rpy_Float x);
rpy_Float rpy_float_atanh(rpy_Float x);
rpy_Float rpy_float_floor(rpy_Float x);
rpy_Float rpy_float_ceil(rpy_Float x);
rpy_Float rpy_float_trunc(rpy_Float x);
rpy_Float rpy_float_round(rpy_Float x);
rpy_Float rpy_float_round_digits(rpy_Float x, rpy_Signed ndigits);
rpy_Float rpy_float_atan2(rpy_Float y, rpy_Float x);
rpy_Float rpy_float_fmod(rpy_Float x, rpy_Float y);
rpy_Float rpy_float_math_pow(rpy_Float x, rpy_Float y);
rpy_Float rpy_float_hypot(rpy_Float x, rpy_Float y);
rpy_Float rpy_float_copysign(rpy_Float x, rpy_Float y);
rpy_Signed rpy_float_frexp_exp(rpy_Float x);
rpy_Float rpy_float_ldexp(rpy_Float x, rpy_Signed n);
rpy_Signed rpy_cast_float_to_int(rpy_Float x);
rpy_Unsigned rpy_cast_float_to_uint(rpy_Float x);
rpy_Char rpy_cast_int_to_char(rpy_Signed x);
rpy_UniChar rpy_cast_int_to_unichar(rpy_Signed x);

/* float_format_char: code point k of x formatted by spec, -1 past it */
rpy_Signed rpy_float_format_char(rpy_Float x, rpy_Signed spec, rpy_Signed k);
/* str_to_float of an rpy_string */
rpy_Float rpy_str_to_float(struct rpy_string *s);

/* the Unicode database (tables generated with the program) */
rpy_Signed rpy_unichar_props(rpy_UniChar c);
rpy_Signed rpy_unichar_upper(rpy_UniChar c, rpy_Signed k);
rpy_Signed rpy_unichar_lower(rpy_UniChar c, rpy_Signed k);
rpy_Signed rpy_unichar_title(rpy_UniChar c, rpy_Signed k);
rpy_Signed rpy_unichar_casefold(rpy_UniChar c, rpy_Signed k);

/* ---- the external-function table (model/src/extfunc.rs) --------------- */

void rpy_ext_stream_write(rpy_Signed fd, struct rpy_string *s);
void rpy_ext_stream_flush(rpy_Signed fd);
struct rpy_string *rpy_ext_stream_readline(void);
rpy_Signed rpy_ext_os_write(rpy_Signed fd, struct rpy_string *b);
struct rpy_string *rpy_ext_os_read(rpy_Signed fd, rpy_Signed n);
rpy_Signed rpy_ext_os_open(struct rpy_string *path, rpy_Signed flags, rpy_Signed mode);
void rpy_ext_os_close(rpy_Signed fd);
struct rpy_string *rpy_ext_os_getenv(struct rpy_string *name);
rpy_Float rpy_ext_time_time(void);
rpy_Float rpy_ext_time_perf_counter(void);
rpy_Float rpy_ext_time_monotonic(void);
rpy_Float rpy_ext_time_process_time(void);
void rpy_ext_time_sleep(rpy_Float secs);
void rpy_ext_sys_exit(rpy_Signed status);
void rpy_ext_sys_setrecursionlimit(rpy_Signed n);

/* called by the program's main before anything else: a write to a
 * closed pipe then fails with EPIPE (OSError) instead of killing the
 * process, as in CPython and the llinterp, and the monotonic clocks
 * start (they count from the start of the run, as the llinterp's do) */
void rpy_runtime_init(void);
/* flushes the text streams (at exit) */
void rpy_streams_flush_all(void);
/* ends the process with status after flushing the streams */
_Noreturn void rpy_exit(int status);

/* ---- the collector and the core (gc.c) -------------------------------- */

/* a new zeroed GC object of type tid (fixed size, or `length` items);
 * may collect; NULL after raising MemoryError */
void *rpy_gc_malloc(uint32_t tid);
void *rpy_gc_malloc_varsize(uint32_t tid, rpy_Signed length);
/* the same without collecting (for the instances of raised built-in
 * exceptions: a raise must not move or free what its caller holds) */
void *rpy_gc_malloc_nocollect(uint32_t tid);
/* the allocation fast path: a free slot of the object's size class */
#define RPY_SMALL_MAX 512u
struct rpy_freeslot {
    struct rpy_gchdr hdr;
    struct rpy_freeslot *next;
};
extern struct rpy_freeslot *rpy_free[RPY_SMALL_MAX / 16u];
extern size_t rpy_allocated_since, rpy_threshold;
static inline void *rpy_gc_malloc_inline(uint32_t tid, size_t size)
{
    (void)size;
#ifndef RPY_GC_STRESS
    if (size <= RPY_SMALL_MAX && size >= sizeof(struct rpy_freeslot)) {
        unsigned c = (unsigned)((size + 15u) / 16u - 1u);
        struct rpy_freeslot *f = rpy_free[c];
        if (f != NULL && rpy_allocated_since <= rpy_threshold) {
            rpy_free[c] = f->next;
            f->hdr.tid = tid;
            f->next = NULL;
            rpy_allocated_since += size;
            return f;
        }
    }
#endif
    return rpy_gc_malloc(tid);
}
/* the shadow stack of GC roots */
extern void **rpy_ss_top;
/* raises RecursionError when the machine stack is nearly exhausted */
void rpy_stack_check(void);
/* built with RPY_RECURSION_LIMIT=N, the program's own functions count
 * their frames and raise RecursionError beyond N, as CPython (and the
 * llinterp under `rpy3 check`) do */
extern long rpy_depth;
/* the limit: RPY_RECURSION_LIMIT until sys.setrecursionlimit changes it;
 * -1 when calls are not counted (defined by the program's glue) */
extern long rpy_recursion_limit;
#ifdef RPY_RECURSION_LIMIT
#define RPY_ENTER(zero)                                    \
    do {                                                   \
        if (++rpy_depth > rpy_recursion_limit) {           \
            rpy_depth--;                                   \
            rpy_raise_builtin(RPY_RecursionError);         \
            return zero;                                   \
        }                                                  \
    } while (0)
#define RPY_LEAVE() (rpy_depth--)
#else
#define RPY_ENTER(zero) ((void)0)
#define RPY_LEAVE() ((void)0)
#endif
/* sets up the collector, the shadow stack and the stack limit (after
 * rpy_runtime_init; stack_base: an address in main's frame) */
void rpy_gc_init(void *stack_base);
/* runs body(arg) on a thread with a large stack (RPY_STACK_BYTES,
 * reserved and touched only as the program recurses); its result */
int rpy_run_on_big_stack(int (*body)(void *), void *arg);
/* ends the program with a message on stderr (status 2): an internal error */
_Noreturn void rpy_fatal(const char *msg);

/* ---- provided by the program (generated) ------------------------------ */

/* the collector's table of GC types, by type id */
extern const struct rpy_typeinfo rpy_typeinfo[];
/* the prebuilt GC objects (roots) */
extern void *const rpy_static_gc[];
extern const size_t rpy_static_gc_count;

/* raises a built-in exception: a new instance of the program's class */
void rpy_raise_builtin(enum rpy_builtin_exc which);
/* new zeroed strings / bytes of this length (NULL after MemoryError) */
struct rpy_string *rpy_new_string(rpy_Signed length);
struct rpy_string *rpy_new_bytes(rpy_Signed length);

#endif
