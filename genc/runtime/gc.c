/* The core of the rpy3 runtime: exception state, fatal errors, the stack
 * check, the shadow stack and the collector.
 *
 * The collector is a precise, non-moving mark-and-sweep: objects come
 * from malloc with a hidden link to the previous one (the list of all
 * objects), the roots are the shadow stack, the prebuilt GC objects and
 * the pending exception, and tracing follows the rpy_typeinfo table with
 * an explicit mark stack (no recursion).  A collection runs when the bytes
 * allocated since the last one exceed the bytes that survived it (at
 * least RPY_GC_MIN_HEAP), so memory stays bounded by a small multiple of
 * the live data.  Built with RPY_GC_STRESS, it collects at every
 * allocation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <sys/resource.h>
#include "rpy3.h"

void **rpy_ss_top;
long rpy_depth;
static void **rpy_ss_base;
static void **rpy_ss_limit;
static char *rpy_stack_base;
static size_t rpy_stack_max;

#ifndef RPY_SHADOW_STACK_WORDS
#define RPY_SHADOW_STACK_WORDS (16u * 1024u * 1024u)
#endif
#ifndef RPY_GC_MIN_HEAP
#define RPY_GC_MIN_HEAP (16u * 1024u * 1024u)
#endif

_Noreturn void rpy_fatal(const char *msg)
{
    rpy_streams_flush_all();
    fprintf(stderr, "rpy3 runtime error: %s\n", msg);
    exit(2);
}

void rpy_stack_check(void)
{
    char here;
    size_t used = (size_t)(rpy_stack_base - &here);
    if (used > rpy_stack_max || rpy_ss_top + 4096 > rpy_ss_limit)
        rpy_raise_builtin(RPY_RecursionError);
}

/* Small objects (up to RPY_SMALL_MAX bytes) live in pages of one size
 * class each (sizes rounded up to 16 bytes); a free slot's header holds
 * RPY_FREE_TID and its second word the next free slot of its class.
 * Large objects come from malloc, each behind a link to the previously
 * allocated one. */
#define RPY_NCLASSES (RPY_SMALL_MAX / 16u)
#define RPY_PAGE_BYTES (64u * 1024u)
#define RPY_FREE_TID 0xffffffffu

struct rpy_page {
    struct rpy_page *next; /* the next page of the same class */
    size_t slot;           /* slot size in bytes */
    size_t nslots;
    size_t used;           /* slots handed out by bumping */
    char *slots;
};

static struct rpy_page *rpy_pages[RPY_NCLASSES];
struct rpy_freeslot *rpy_free[RPY_NCLASSES];
static struct rpy_page *rpy_bump[RPY_NCLASSES];

struct rpy_gclink {
    struct rpy_gclink *prev;
    size_t size;
};

static struct rpy_gclink *rpy_large;
size_t rpy_allocated_since;
size_t rpy_threshold = RPY_GC_MIN_HEAP;

static void **rpy_mark_stack;
static size_t rpy_mark_len, rpy_mark_cap;

static inline void rpy_mark_push(void *obj)
{
    struct rpy_gchdr *h = obj;
    if (obj == NULL || (h->gcflags & RPY_GC_MARK))
        return;
    h->gcflags |= RPY_GC_MARK;
    if (rpy_mark_len == rpy_mark_cap) {
        size_t cap = rpy_mark_cap ? rpy_mark_cap * 2 : 4096;
        void **s = realloc(rpy_mark_stack, cap * sizeof(void *));
        if (s == NULL)
            rpy_fatal("out of memory while collecting");
        rpy_mark_stack = s;
        rpy_mark_cap = cap;
    }
    rpy_mark_stack[rpy_mark_len++] = obj;
}

static void rpy_trace(void *obj)
{
    const struct rpy_gchdr *h = obj;
    const struct rpy_typeinfo *ti = &rpy_typeinfo[h->tid];
    char *base = obj;
    for (uint32_t i = 0; i < ti->nptrs; i++)
        rpy_mark_push(*(void **)(base + ti->ptrs[i]));
    if (ti->nitemptrs) {
        rpy_Signed n = *(rpy_Signed *)(base + ti->length_ofs);
        char *item = base + ti->items_ofs;
        for (rpy_Signed k = 0; k < n; k++, item += ti->itemsize)
            for (uint32_t i = 0; i < ti->nitemptrs; i++)
                rpy_mark_push(*(void **)(item + ti->itemptrs[i]));
    }
}

static void rpy_collect(void)
{
    /* mark: prebuilt objects are always alive and traced */
    for (size_t i = 0; i < rpy_static_gc_count; i++) {
        struct rpy_gchdr *h = rpy_static_gc[i];
        h->gcflags &= ~RPY_GC_MARK;
        rpy_mark_push(h);
    }
    for (void **p = rpy_ss_base; p < rpy_ss_top; p++)
        rpy_mark_push(*p);
    rpy_mark_push(rpy_exc_value);
    while (rpy_mark_len)
        rpy_trace(rpy_mark_stack[--rpy_mark_len]);
    /* sweep the pages, rebuilding the free lists */
    size_t live = 0;
    for (unsigned c = 0; c < RPY_NCLASSES; c++) {
        struct rpy_freeslot *free_list = NULL;
        for (struct rpy_page *pg = rpy_pages[c]; pg; pg = pg->next) {
            char *slot = pg->slots;
            for (size_t i = 0; i < pg->used; i++, slot += pg->slot) {
                struct rpy_gchdr *h = (struct rpy_gchdr *)slot;
                if (h->tid == RPY_FREE_TID) {
                    /* already free */
                } else if (h->gcflags & RPY_GC_MARK) {
                    h->gcflags &= ~RPY_GC_MARK;
                    live += pg->slot;
                    continue;
                } else {
                    memset(slot, 0, pg->slot);
                    h->tid = RPY_FREE_TID;
                }
                struct rpy_freeslot *f = (struct rpy_freeslot *)slot;
                f->next = free_list;
                free_list = f;
            }
        }
        rpy_free[c] = free_list;
    }
    /* and the large objects */
    struct rpy_gclink **pp = &rpy_large;
    while (*pp) {
        struct rpy_gclink *l = *pp;
        struct rpy_gchdr *h = (struct rpy_gchdr *)(l + 1);
        if (h->gcflags & RPY_GC_MARK) {
            h->gcflags &= ~RPY_GC_MARK;
            live += l->size;
            pp = &l->prev;
        } else {
            *pp = l->prev;
            free(l);
        }
    }
    for (size_t i = 0; i < rpy_static_gc_count; i++) {
        struct rpy_gchdr *h = rpy_static_gc[i];
        h->gcflags &= ~RPY_GC_MARK;
    }
    rpy_allocated_since = 0;
    rpy_threshold = live + live / 2 > RPY_GC_MIN_HEAP ? live + live / 2 : RPY_GC_MIN_HEAP;
}

static void *rpy_alloc_small(unsigned c, size_t slot)
{
    struct rpy_freeslot *f = rpy_free[c];
    if (f != NULL) {
        rpy_free[c] = f->next;
        f->hdr.tid = 0;
        f->next = NULL;
        return f;
    }
    struct rpy_page *pg = rpy_bump[c];
    if (pg == NULL || pg->used == pg->nslots) {
        pg = malloc(sizeof(struct rpy_page));
        char *slots = calloc(1, RPY_PAGE_BYTES);
        if (pg == NULL || slots == NULL) {
            free(pg);
            free(slots);
            return NULL;
        }
        pg->slot = slot;
        pg->nslots = RPY_PAGE_BYTES / slot;
        pg->used = 0;
        pg->slots = slots;
        pg->next = rpy_pages[c];
        rpy_pages[c] = pg;
        rpy_bump[c] = pg;
    }
    return pg->slots + slot * pg->used++;
}

static void *rpy_alloc_once(size_t size)
{
    if (size <= RPY_SMALL_MAX) {
        size_t slot = (size + 15u) & ~(size_t)15u;
        if (slot < sizeof(struct rpy_freeslot))
            slot = sizeof(struct rpy_freeslot);
        return rpy_alloc_small((unsigned)(slot / 16u - 1u), slot);
    }
    struct rpy_gclink *l = calloc(1, sizeof(struct rpy_gclink) + size);
    if (l == NULL)
        return NULL;
    l->size = size;
    l->prev = rpy_large;
    rpy_large = l;
    return l + 1;
}

static void *rpy_alloc(uint32_t tid, size_t size, int may_collect)
{
#ifdef RPY_GC_STRESS
    if (may_collect)
        rpy_collect();
#else
    if (may_collect && rpy_allocated_since > rpy_threshold)
        rpy_collect();
#endif
    struct rpy_gchdr *h = rpy_alloc_once(size);
    if (h == NULL && may_collect) {
        rpy_collect();
        h = rpy_alloc_once(size);
    }
    if (h == NULL) {
        rpy_raise_builtin(RPY_MemoryError);
        return NULL;
    }
    rpy_allocated_since += size;
    h->tid = tid;
    return h;
}

void *rpy_gc_malloc(uint32_t tid)
{
    return rpy_alloc(tid, rpy_typeinfo[tid].size, 1);
}

void *rpy_gc_malloc_nocollect(uint32_t tid)
{
    return rpy_alloc(tid, rpy_typeinfo[tid].size, 0);
}

void *rpy_gc_malloc_varsize(uint32_t tid, rpy_Signed length)
{
    const struct rpy_typeinfo *ti = &rpy_typeinfo[tid];
    if (length < 0 ||
        (ti->itemsize && (size_t)length > (SIZE_MAX / 2 - ti->items_ofs) / ti->itemsize)) {
        rpy_raise_builtin(RPY_MemoryError);
        return NULL;
    }
    size_t size = ti->items_ofs + (size_t)length * ti->itemsize;
    if (size < ti->size)
        size = ti->size;
    char *obj = rpy_alloc(tid, size, 1);
    if (obj != NULL)
        *(rpy_Signed *)(obj + ti->length_ofs) = length;
    return obj;
}

/* the stack the program runs on: reserved, touched only as it grows */
#ifndef RPY_STACK_BYTES
#define RPY_STACK_BYTES ((size_t)256 * 1024 * 1024)
#endif
static size_t rpy_stack_size = 8u * 1024u * 1024u;

struct rpy_thread_call {
    int (*body)(void *);
    void *arg;
    int result;
};

static void *rpy_thread_main(void *p)
{
    struct rpy_thread_call *c = p;
    c->result = c->body(c->arg);
    return NULL;
}

int rpy_run_on_big_stack(int (*body)(void *), void *arg)
{
    struct rpy_thread_call call = {body, arg, 0};
    pthread_attr_t attr;
    pthread_t t;
    rpy_stack_size = RPY_STACK_BYTES;
    if (pthread_attr_init(&attr) == 0 &&
        pthread_attr_setstacksize(&attr, RPY_STACK_BYTES) == 0 &&
        pthread_create(&t, &attr, rpy_thread_main, &call) == 0) {
        pthread_join(t, NULL);
        return call.result;
    }
    /* no thread: the main thread's stack, as large as its limit */
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0) {
        if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (rlim_t)1 << 30)
            rpy_stack_size = (size_t)1 << 30;
        else
            rpy_stack_size = (size_t)rl.rlim_cur;
    }
    return body(arg);
}

void rpy_gc_init(void *stack_base)
{
    rpy_stack_base = stack_base;
    /* less a margin for the frames below and the runtime's own calls */
    size_t limit = rpy_stack_size;
    size_t margin = limit / 8 > 256u * 1024u ? 256u * 1024u : limit / 8;
    rpy_stack_max = limit - margin;
    rpy_ss_base = calloc(RPY_SHADOW_STACK_WORDS, sizeof(void *));
    if (rpy_ss_base == NULL)
        rpy_fatal("cannot allocate the shadow stack");
    rpy_ss_top = rpy_ss_base;
    rpy_ss_limit = rpy_ss_base + RPY_SHADOW_STACK_WORDS;
}
