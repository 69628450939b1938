/*
 * minegraph._kernel: the native analysis kernel.
 *
 * One call answers a whole position: constraint building, propagation by the two trivial
 * rules, boxes (hidden cells next to exactly the same clues), components, an exact count of
 * every component by a clue-ordered search, and the combination of the components under the
 * total mine count.  The Python modules constraints.py, engines/dp.py and engines/combine.py
 * are the readable reference of the same mathematics; tests/test_kernel.py holds the two
 * equal on thousands of random positions of every topology.  The functions are named after
 * the steps they mirror: model_* (constraints.build_system and its decomposition),
 * count_part (the count of one component), combine* (engines/combine.py), forced_by_counts
 * and best_move (analysis.choose_best).
 *
 * Interface (narrow, flat): see analyze_doc below and _kernel.pyi.  Results are struct
 * sequences (Answer, Component, Played).  The kernel declines (status DECLINED) whatever it
 * is not built for -- a component of more than MAX_WIDE_CELLS cells, counts past 128 bits or
 * the programme's state budget in a wide component, a combination past MAX_DEGREE_COMBINED
 * -- and the caller then runs the Python path.  A component of at most SEARCH_CELLS cells is
 * counted by a clue-ordered search; a wider one, or one the search does not finish within
 * its node budget, by a dynamic programme over a path decomposition (count_wide), and one of
 * at most MAX_COMPONENT_CELLS cells the programme declines by the search (count_component).  It never touches signals: it polls the caller's deadline and cancel flag.  The
 * status codes and the limits below are the one definition: the module exports them and
 * minegraph/kernel.py reads them from here.
 *
 * The GIL: the model and the search (build_model, count_part, the no-guess player) work on C
 * data only and run with the GIL released (Py_BEGIN_ALLOW_THREADS); the cancel flag they poll
 * is a buffer held for the call.  The combination and the conversion of the answer to Python
 * objects run after Py_END_ALLOW_THREADS.
 *
 * Counts inside a component are exact unsigned 128-bit integers: a component of c <= 120
 * cells has at most 2**c assignments, so every per-box sum (at most c * 2**c) fits the
 * search's sums; the programme of a wider component checks every product and sum for
 * overflow and declines on one (the Python DP counts in Python integers).  The combination
 * runs on Python integers (any size).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#ifndef _WIN32
#include <pthread.h>
#endif

#ifndef KERNEL_VERSION
#define KERNEL_VERSION "unknown"
#endif
#ifndef KERNEL_SOURCE_HASH
#define KERNEL_SOURCE_HASH "unknown"
#endif

typedef unsigned __int128 u128;

/* Cell states, as in minegraph/states.py. */
#define S_HIDDEN (-1)
#define S_MINE (-2)
#define S_BLANK (-3)

#define MAX_COMPONENT_CELLS 120
#define MAX_BOX_CELLS 120
#define MAX_DEGREE_COMBINED 400
#define MAX_FLOATING_COMBINED 4096
#define POLL_EVERY 1024

enum { ST_OK = 0, ST_INCONSISTENT = 1, ST_DECLINED = 2, ST_TIMEOUT = 3, ST_CANCELLED = 4 };

static u128 BINOM[MAX_BOX_CELLS + 1][MAX_BOX_CELLS + 1];
static PyObject *math_comb = NULL;

static void init_binomials(void) {
    for (int n = 0; n <= MAX_BOX_CELLS; n++) {
        BINOM[n][0] = 1;
        for (int k = 1; k <= n; k++)
            BINOM[n][k] = BINOM[n - 1][k - 1] + (k <= n - 1 ? BINOM[n - 1][k] : 0);
    }
}

static PyObject *from_u128(u128 x) {
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    if (hi == 0)
        return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi), *s = PyLong_FromLong(64), *l = NULL, *r = NULL;
    PyObject *shifted = (h && s) ? PyNumber_Lshift(h, s) : NULL;
    if (shifted)
        l = PyLong_FromUnsignedLongLong(lo);
    if (l)
        r = PyNumber_Or(shifted, l);
    Py_XDECREF(h); Py_XDECREF(s); Py_XDECREF(shifted); Py_XDECREF(l);
    return r;
}

/* ------------------------------------------------------------------ the deadline */
typedef struct {
    double deadline;            /* CLOCK_MONOTONIC seconds (time.monotonic()); <= 0: none */
    const volatile char *cancel; /* one byte, non-zero: the caller cancelled the query */
    long ticks;
} Poll;

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ST_OK, ST_TIMEOUT or ST_CANCELLED; looks at the clock every POLL_EVERY ticks only. */
static int poll_now(Poll *p) {
    if (p->cancel && *p->cancel)
        return ST_CANCELLED;
    if (p->deadline > 0 && monotonic_now() >= p->deadline)
        return ST_TIMEOUT;
    return ST_OK;
}

static inline int poll(Poll *p) {
    if (++p->ticks < POLL_EVERY)
        return ST_OK;
    p->ticks = 0;
    return poll_now(p);
}

/* The caller's cancel flag (a one-byte buffer, or None) for the poll; -1 with an exception. */
static int watch_cancel(PyObject *obj, Py_buffer *buffer, Poll *pl) {
    if (obj == Py_None)
        return 0;
    if (PyObject_GetBuffer(obj, buffer, PyBUF_SIMPLE) < 0)
        return -1;
    if (buffer->len < 1) {
        PyErr_SetString(PyExc_ValueError, "cancel: a buffer of at least one byte");
        return -1;
    }
    pl->cancel = (const volatile char *)buffer->buf;
    return 0;
}

/* ------------------------------------------------------------------ scratch memory */
/* A bump allocator: every scratch array of a call comes zeroed from a few large chunks,
 * freed together at the end (one malloc per 64 KiB instead of one calloc per array). */
typedef struct Chunk {
    struct Chunk *prev;
    size_t size, used;
    max_align_t data[];         /* aligned for every type the kernel stores, u128 included */
} Chunk;

typedef struct {
    Chunk *top;
} Arena;

#define ARENA_CHUNK ((size_t)1 << 16)

/* Chunks each thread keeps between calls.  Freed, a call's large scratch arrays went back to
 * the system and the next call's came fresh from it: their page faults were a third of a
 * wide count's time, and two threads counting at once queued on the process's memory lock
 * (1.5x instead of 2x).  At most SPARE_CHUNKS chunks and SPARE_BYTES a thread, freed when the
 * thread ends. */
#define SPARE_CHUNKS 32
#define SPARE_BYTES ((size_t)128 << 20)

typedef struct {
    Chunk *chunk[SPARE_CHUNKS];
    int count;
    size_t bytes;
} Spares;

#ifndef _WIN32
static pthread_key_t spares_key;
static int spares_ready = 0;

static void spares_drop(void *p) {
    Spares *s = p;
    for (int i = 0; i < s->count; i++)
        free(s->chunk[i]);
    free(s);
}

static Spares *thread_spares(void) {
    if (!spares_ready)
        return NULL;
    Spares *s = pthread_getspecific(spares_key);
    if (!s && (s = calloc(1, sizeof(Spares))) != NULL && pthread_setspecific(spares_key, s)) {
        free(s);
        s = NULL;
    }
    return s;
}

static void spares_init(void) {
    spares_ready = pthread_key_create(&spares_key, spares_drop) == 0;
}
#else
static Spares *thread_spares(void) { return NULL; }
static void spares_init(void) {}
#endif

/* A chunk of at least size bytes: the smallest spare that fits, or a new one. */
static Chunk *chunk_take(size_t size) {
    Spares *s = thread_spares();
    int best = -1;
    for (int i = 0; s && i < s->count; i++)
        if (s->chunk[i]->size >= size && (best < 0 || s->chunk[i]->size < s->chunk[best]->size))
            best = i;
    if (best >= 0) {
        Chunk *c = s->chunk[best];
        s->chunk[best] = s->chunk[--s->count];
        s->bytes -= c->size;
        return c;
    }
    Chunk *fresh = malloc(sizeof(Chunk) + size);
    if (fresh)
        fresh->size = size;
    return fresh;
}

static void chunk_give(Chunk *c) {
    Spares *s = thread_spares();
    if (s && s->count < SPARE_CHUNKS && s->bytes + c->size <= SPARE_BYTES) {
        s->chunk[s->count++] = c;
        s->bytes += c->size;
    } else {
        free(c);
    }
}

static void *arena_alloc(Arena *a, size_t bytes) {
    bytes = bytes ? (bytes + 15) & ~(size_t)15 : 16;
    Chunk *c = a->top;
    if (!c || c->size - c->used < bytes) {
        size_t size = bytes > ARENA_CHUNK ? bytes : ARENA_CHUNK;
        Chunk *fresh = chunk_take(size);
        if (!fresh)
            return NULL;
        fresh->used = 0;
        if (c && bytes > ARENA_CHUNK / 2) {     /* a large array alone: keep filling top */
            fresh->prev = c->prev;
            c->prev = fresh;
        } else {
            fresh->prev = c;
            a->top = fresh;
        }
        c = fresh;
    }
    void *p = (char *)c->data + c->used;
    c->used += bytes;
    memset(p, 0, bytes);
    return p;
}

static void arena_free(Arena *a) {
    while (a->top) {
        Chunk *prev = a->top->prev;
        chunk_give(a->top);
        a->top = prev;
    }
}

#define NEW(arena, type, count) ((type *)arena_alloc((arena), sizeof(type) * (size_t)(count)))

/* ------------------------------------------------------------------ union-find */
static int uf_find(int *parent, int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* ------------------------------------------------------------------ the position */
typedef struct {
    int n;
    const int32_t *indptr, *indices;
    int8_t *state;
    int8_t *decided;           /* hidden cells: -1 undecided, 0 safe, 1 mine */
    int32_t *need, *left;      /* per number: need and undecided hidden neighbours */
} Position;

/* Propagation's decisions in order, when kept (constraints.Step: cell, mine, clue). */
typedef struct {
    int32_t *cell, *clue;
    uint8_t *mine;
    int n;
} Trace;

/* Propagation by the two trivial rules from the numbers on the stack, as
 * constraints._propagate does, each decision recorded in T when given.  Returns the number
 * found unsatisfiable, or -1. */
static int propagate(Position *P, int32_t *stack, int top, Trace *T) {
    const int32_t *ip = P->indptr, *ix = P->indices;
    while (top > 0) {
        int p = stack[--top];
        int n = P->need[p], u = P->left[p];
        if (n < 0 || n > u)
            return p;
        if (u && (n == 0 || n == u)) {
            int8_t as_mine = n > 0;
            for (int32_t e = ip[p]; e < ip[p + 1]; e++) {
                int q = ix[e];
                if (P->state[q] != S_HIDDEN || P->decided[q] >= 0)
                    continue;
                P->decided[q] = as_mine;
                if (T) {
                    T->cell[T->n] = q;
                    T->mine[T->n] = (uint8_t)as_mine;
                    T->clue[T->n++] = p;
                }
                for (int32_t f = ip[q]; f < ip[q + 1]; f++) {
                    int t = ix[f];
                    if (P->state[t] >= 0) {
                        P->left[t]--;
                        if (as_mine)
                            P->need[t]--;
                        stack[top++] = t;
                    }
                }
            }
        }
    }
    return -1;
}

/* ------------------------------------------------------------------ counting one component */
typedef struct {
    int nboxes, nclues, cells;
    int *boxes;                 /* global box ids, in search order */
    int *size;                  /* by search position */
    int *clue_ptr, *clue_of;    /* per search position: local clue ids (CSR) */
    int *need;                  /* per local clue */
    int *cap;                   /* per local clue: cells of its boxes */
    u128 *total;                /* [cells + 1]: weighted assignments by mine count */
    u128 *mined;                /* [nboxes][cells + 1]: per search position, mines on one cell */
    int lo, hi;                 /* mine counts with total[t] != 0 */
    int completing, want;       /* completing: stop at the first assignment of `want` mines
                                 * (any when want < 0), copied to `found` (by search position) */
    int *found;
} Part;

/* Every assignment of mines to the part's boxes that meets its clues, found by a depth-first
 * search over the boxes in clue order; a box of s cells holding k mines weighs C(s, k).
 * Returns ST_OK, ST_DECLINED (past the node budget), ST_TIMEOUT or ST_CANCELLED. */
static int count_part(Part *c, Arena *A, Poll *poll_state, long long *budget) {
    int B = c->nboxes, L = c->cells + 1;
    int *rem = NEW(A, int, c->nclues), *capleft = NEW(A, int, c->nclues);
    int *k = NEW(A, int, B + 1), *khi = NEW(A, int, B + 1);
    int *tsum = NEW(A, int, B + 1);
    u128 *w = NEW(A, u128, B + 1);
    c->total = NEW(A, u128, L);
    c->mined = NEW(A, u128, (size_t)B * L);
    if (!rem || !capleft || !k || !khi || !tsum || !w || !c->total || !c->mined)
        return -1;
    for (int j = 0; j < c->nclues; j++) {
        rem[j] = c->need[j];
        capleft[j] = c->cap[j];
    }
    int depth = 0;
    w[0] = 1;
    tsum[0] = 0;
    k[0] = -1;                  /* -1: the range of box `depth` is not set yet */
    while (depth >= 0) {
        if (depth == B) {       /* a full assignment: every clue met exactly */
            u128 weight = w[B];
            int t = tsum[B];
            if (c->completing) {
                if (c->want < 0 || t == c->want) {
                    memcpy(c->found, k, sizeof(int) * (size_t)B);
                    c->lo = c->hi = t;
                    return ST_OK;
                }
                depth--;
                goto undo;
            }
            c->total[t] += weight;
            for (int i = 0; i < B; i++)
                if (k[i])
                    c->mined[(size_t)i * L + t] += weight * (u128)k[i] / (u128)c->size[i];
            depth--;
            goto undo;
        }
        if (k[depth] < 0) {     /* enter box `depth`: the values its clues allow */
            if (--*budget < 0)
                return ST_DECLINED;
            int status = poll(poll_state);
            if (status != ST_OK)
                return status;
            int s = c->size[depth], lo = 0, hi = s;
            for (int e = c->clue_ptr[depth]; e < c->clue_ptr[depth + 1]; e++) {
                int j = c->clue_of[e];
                int after = capleft[j] - s;   /* cells of j left after this box */
                if (rem[j] - after > lo)
                    lo = rem[j] - after;
                if (rem[j] < hi)
                    hi = rem[j];
            }
            for (int e = c->clue_ptr[depth]; e < c->clue_ptr[depth + 1]; e++)
                capleft[c->clue_of[e]] -= s;
            if (lo > hi) {      /* no value fits: back out */
                for (int e = c->clue_ptr[depth]; e < c->clue_ptr[depth + 1]; e++)
                    capleft[c->clue_of[e]] += s;
                k[depth] = -1;
                depth--;
                goto undo;
            }
            k[depth] = lo;
            khi[depth] = hi;
        } else {
            k[depth]++;
        }
        {
            int v = k[depth];
            for (int e = c->clue_ptr[depth]; e < c->clue_ptr[depth + 1]; e++)
                rem[c->clue_of[e]] -= v;
            w[depth + 1] = w[depth] * BINOM[c->size[depth]][v];
            tsum[depth + 1] = tsum[depth] + v;
            depth++;
            if (depth < B)
                k[depth] = -1;
            continue;
        }
    undo:
        /* `depth` is the box whose value is to be taken back and, if possible, advanced. */
        while (depth >= 0) {
            int v = k[depth], s = c->size[depth];
            for (int e = c->clue_ptr[depth]; e < c->clue_ptr[depth + 1]; e++)
                rem[c->clue_of[e]] += v;
            if (v < khi[depth])
                break;          /* the loop above advances it */
            for (int e = c->clue_ptr[depth]; e < c->clue_ptr[depth + 1]; e++)
                capleft[c->clue_of[e]] += s;
            k[depth] = -1;
            depth--;
        }
    }
    c->lo = -1;
    c->hi = -1;
    if (c->completing)
        return ST_OK;           /* searched everything: no assignment of `want` mines */
    for (int t = 0; t < L; t++)
        if (c->total[t]) {
            if (c->lo < 0)
                c->lo = t;
            c->hi = t;
        }
    return ST_OK;
}

/* ------------------------------------------------------------------ counting a wide component */
/* engines/dp.py's job for a component the search does not finish (more than
 * MAX_COMPONENT_CELLS cells, or past the node budget): a dynamic programme over the boxes in
 * the search order, a path decomposition of the component.  The state at cut i (between the
 * boxes before position i and the rest) is the remaining need of every clue with boxes on
 * both sides; per state, a forward polynomial F (assignments of the boxes before i, by their
 * mines) and a backward one G (of the boxes from i on).  total = F at the last cut, and box
 * i's mined counts (per cell) join F before it and G after it.  Counts are exact in 128 bits:
 * an overflow declines (the Python DP counts in Python integers), and so does a programme past
 * MAX_WIDE_ENTRIES polynomial entries or MAX_WIDE_WORK multiply-adds (it polls the deadline and
 * the cancel flag between boxes, so that bounds the time between two polls).  Fills c->total, c->mined, c->lo and c->hi as
 * count_part does. */
#define MAX_WIDE_CELLS 2000
#define MAX_WIDE_ENTRIES (1 << 22)
#define MAX_WIDE_WORK (1LL << 28)  /* multiply-adds: under a second between two polls */
#define WHY_WIDE "a wide component past the kernel's 128-bit counts or its state budget"

typedef struct {
    int n, w, lo, len;          /* states, key width, polynomial range [lo, lo + len) */
    int glo, glen;              /* the backward polynomials' range */
    int *slot;                  /* by local clue: its place in the key, or -1 */
    uint8_t *keys;              /* n keys of w bytes: each active clue's remaining need */
    int *table, tsize;          /* open addressing: key -> state */
    int *trans;                 /* [n][size + 1]: the state reached at the next cut, or -1 */
    u128 *F, *G;                /* [n][len], [n][glen] */
} Cut;

static inline int mul_add(u128 *acc, u128 a, u128 b) {     /* 1 on overflow */
    u128 p;
    return __builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(*acc, p, acc);
}

static uint64_t key_hash(const uint8_t *k, int w) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < w; i++)
        h = (h ^ k[i]) * 1099511628211ULL;
    return h;
}

/* The state of `key` at cut X (inserted when `insert`), or -1. */
static int cut_state(Cut *X, const uint8_t *key, int insert) {
    int slot = (int)(key_hash(key, X->w) & (uint64_t)(X->tsize - 1));
    while (X->table[slot] >= 0) {
        int s = X->table[slot];
        if (!memcmp(X->keys + (size_t)s * X->w, key, (size_t)X->w))
            return s;
        slot = (slot + 1) & (X->tsize - 1);
    }
    if (!insert)
        return -1;
    memcpy(X->keys + (size_t)X->n * X->w, key, (size_t)X->w);
    X->table[slot] = X->n;
    return X->n++;
}

/* The clues active at cut i + 1 and their slots, from first/last positions. */
static int cut_slots(Cut *X, const int *first, const int *last, int nclues, int i, Arena *A) {
    X->slot = NEW(A, int, nclues + 1);
    if (!X->slot)
        return -1;
    X->w = 0;
    for (int j = 0; j < nclues; j++)
        X->slot[j] = (first[j] <= i && last[j] > i) ? X->w++ : -1;
    return 0;
}

/* Cut i + 1's states from cut i's through box i (every value v of its mines that keeps each
 * clue within its cells left, `capleft`, and closes the clues whose last box it is), with
 * the transitions and the range of the forward polynomials.  0, 1 past the budget, -1. */
static int wide_next(const Part *c, Cut *X, Cut *Y, int i, const int *capleft, long long *entries,
                     Arena *A) {
    int s = c->size[i];
    if ((long long)X->n * (s + 1) > MAX_WIDE_ENTRIES)
        return 1;
    int cap = X->n * (s + 1), ncarry = 0;
    int *carry = NEW(A, int, 2 * (size_t)Y->w + 2);   /* (slot at i + 1, slot at i) pairs */
    if (!carry)
        return -1;
    for (int j = 0; j < c->nclues; j++) {      /* active on both sides, not in box i */
        int in_box = 0;
        for (int e = c->clue_ptr[i]; e < c->clue_ptr[i + 1]; e++)
            in_box |= c->clue_of[e] == j;
        if (Y->slot[j] >= 0 && X->slot[j] >= 0 && !in_box) {
            carry[2 * ncarry] = Y->slot[j];
            carry[2 * ncarry++ + 1] = X->slot[j];
        }
    }
    Y->keys = NEW(A, uint8_t, (size_t)cap * (Y->w ? Y->w : 1));
    X->trans = NEW(A, int, (size_t)cap);
    for (Y->tsize = 16; Y->tsize < 2 * cap; Y->tsize <<= 1)
        ;
    Y->table = NEW(A, int, Y->tsize);
    uint8_t *key = NEW(A, uint8_t, Y->w + 1);
    int *val = NEW(A, int, X->w + 1);
    if (!Y->keys || !X->trans || !Y->table || !key || !val)
        return -1;
    memset(Y->table, 0xff, sizeof(int) * (size_t)Y->tsize);
    int lo = INT32_MAX, hi = -1;
    for (int st = 0; st < X->n; st++) {
        const uint8_t *k = X->keys + (size_t)st * X->w;
        for (int v = 0; v <= s; v++) {
            int ok = 1;
            for (int e = c->clue_ptr[i]; e < c->clue_ptr[i + 1] && ok; e++) {
                int j = c->clue_of[e];
                int r = (X->slot[j] >= 0 ? k[X->slot[j]] : c->need[j]) - v;
                ok = r >= 0 && r <= capleft[j];         /* capleft: after box i */
            }
            X->trans[st * (s + 1) + v] = -1;
            if (!ok)
                continue;
            for (int e = c->clue_ptr[i]; e < c->clue_ptr[i + 1]; e++) {
                int j = c->clue_of[e];
                if (Y->slot[j] >= 0)
                    key[Y->slot[j]] = (uint8_t)((X->slot[j] >= 0 ? k[X->slot[j]] : c->need[j]) - v);
            }
            for (int a = 0; a < ncarry; a++)
                key[carry[2 * a]] = k[carry[2 * a + 1]];
            X->trans[st * (s + 1) + v] = cut_state(Y, key, 1);
            if (X->lo + v < lo)
                lo = X->lo + v;
            if (X->lo + X->len - 1 + v > hi)
                hi = X->lo + X->len - 1 + v;
        }
    }
    Y->lo = Y->n ? lo : 0;
    Y->len = Y->n ? hi - lo + 1 : 1;
    *entries += (long long)Y->n * Y->len;
    return *entries > MAX_WIDE_ENTRIES;
}

/* [*lo, *hi): where row[0..len) is not zero (a state's polynomial is non-zero on a window of
 * its cut's range of mine counts; the loops below skip the rest). */
static void nonzero_window(const u128 *row, int len, int *lo, int *hi) {
    int a = 0, b = len;
    while (a < b && !row[a])
        a++;
    while (b > a && !row[b - 1])
        b--;
    *lo = a;
    *hi = b;
}

/* F at cut i + 1 from F at cut i and box i's transitions.  0, 1 on overflow, -1. */
static int wide_forward(const Part *c, const Cut *X, Cut *Y, int i, long long *work, Arena *A) {
    int s = c->size[i];
    Y->F = NEW(A, u128, (size_t)(Y->n ? Y->n : 1) * Y->len);
    if (!Y->F)
        return -1;
    if ((*work += (long long)X->n * (s + 1) * X->len) > MAX_WIDE_WORK)
        return 1;
    for (int st = 0; st < X->n; st++) {
        const u128 *f = X->F + (size_t)st * X->len;
        int t0, t1;
        nonzero_window(f, X->len, &t0, &t1);
        for (int v = 0; v <= s; v++) {
            int to = X->trans[st * (s + 1) + v];
            if (to < 0)
                continue;
            u128 *g = Y->F + (size_t)to * Y->len + (X->lo + v - Y->lo);
            for (int t = t0; t < t1; t++)
                if (f[t] && mul_add(&g[t], f[t], BINOM[s][v]))
                    return 1;
        }
    }
    return 0;
}

/* G at cut i from G at cut i + 1 (the completions of boxes i.. by their mines), and box
 * i's mined counts per cell: sum over states at cut i + 1 of H * G, H being F with box i's
 * factor C(s, v) replaced by C(s - 1, v - 1) (v / s of it).  0, 1 on overflow, -1. */
static int wide_backward(Part *c, Cut *X, const Cut *Y, int i, long long *work, Arena *A) {
    int s = c->size[i], L = c->cells + 1;
    *work += (long long)X->n * (s + 1) * (X->len + Y->glen) + (long long)Y->n * Y->len * Y->glen;
    if (*work > MAX_WIDE_WORK)
        return 1;
    X->glo = INT32_MAX;
    int ghi = -1;
    for (int st = 0; st < X->n; st++)
        for (int v = 0; v <= s; v++)
            if (X->trans[st * (s + 1) + v] >= 0) {
                X->glo = Y->glo + v < X->glo ? Y->glo + v : X->glo;
                ghi = Y->glo + Y->glen - 1 + v > ghi ? Y->glo + Y->glen - 1 + v : ghi;
            }
    X->glen = ghi >= X->glo ? ghi - X->glo + 1 : 1;
    if (ghi < X->glo)
        X->glo = 0;
    X->G = NEW(A, u128, (size_t)(X->n ? X->n : 1) * X->glen);
    u128 *H = NEW(A, u128, (size_t)(Y->n ? Y->n : 1) * Y->len);
    if (!X->G || !H)
        return -1;
    for (int st = 0; st < X->n; st++) {
        const u128 *f = X->F + (size_t)st * X->len;
        int f0, f1;
        nonzero_window(f, X->len, &f0, &f1);
        for (int v = 0; v <= s; v++) {
            int to = X->trans[st * (s + 1) + v], g0, g1;
            if (to < 0)
                continue;
            const u128 *g = Y->G + (size_t)to * Y->glen;
            u128 *out = X->G + (size_t)st * X->glen + (Y->glo + v - X->glo);
            nonzero_window(g, Y->glen, &g0, &g1);
            for (int t = g0; t < g1; t++)
                if (g[t] && mul_add(&out[t], g[t], BINOM[s][v]))
                    return 1;
            if (!v)
                continue;
            u128 *h = H + (size_t)to * Y->len + (X->lo + v - Y->lo);
            for (int t = f0; t < f1; t++)
                if (f[t] && mul_add(&h[t], f[t], BINOM[s - 1][v - 1]))
                    return 1;
        }
    }
    u128 *mined = c->mined + (size_t)i * L;
    for (int to = 0; to < Y->n; to++) {
        const u128 *g = Y->G + (size_t)to * Y->glen;
        int b0, b1;
        nonzero_window(g, Y->glen, &b0, &b1);
        for (int a = 0; a < Y->len && b0 < b1; a++) {
            u128 h = H[(size_t)to * Y->len + a];
            if (!h)
                continue;
            u128 *out = mined + Y->lo + a + Y->glo;
            for (int b = b0; b < b1; b++)
                if (g[b] && mul_add(&out[b], h, g[b]))
                    return 1;
        }
    }
    return 0;
}

/* The component counted by the programme: ST_OK, ST_DECLINED (overflow or budget),
 * ST_TIMEOUT, ST_CANCELLED or -1. */
static int count_wide(Part *c, Arena *A, Poll *pl) {
    int B = c->nboxes, L = c->cells + 1;
    Cut *cut = NEW(A, Cut, B + 1);
    int *first = NEW(A, int, c->nclues + 1), *last = NEW(A, int, c->nclues + 1);
    int *capleft = NEW(A, int, c->nclues + 1);
    c->total = NEW(A, u128, L);
    c->mined = NEW(A, u128, (size_t)B * L);
    if (!cut || !first || !last || !capleft || !c->total || !c->mined)
        return -1;
    for (int j = 0; j < c->nclues; j++) {
        first[j] = B;
        last[j] = -1;
        capleft[j] = c->cap[j];
    }
    for (int i = 0; i < B; i++)
        for (int e = c->clue_ptr[i]; e < c->clue_ptr[i + 1]; e++) {
            int j = c->clue_of[e];
            first[j] = first[j] < i ? first[j] : i;
            last[j] = i;
        }
    /* cut 0: one state (no clue active), F = 1 at 0 mines */
    if (cut_slots(&cut[0], first, last, c->nclues, -1, A) < 0)
        return -1;
    cut[0].n = 1;
    cut[0].len = 1;
    cut[0].F = NEW(A, u128, 1);
    if (!cut[0].F)
        return -1;
    cut[0].F[0] = 1;
    long long entries = 1, work = 0;
    for (int i = 0; i < B; i++) {
        int status = poll(pl);
        if (status != ST_OK)
            return status;
        for (int e = c->clue_ptr[i]; e < c->clue_ptr[i + 1]; e++)
            capleft[c->clue_of[e]] -= c->size[i];
        if (cut_slots(&cut[i + 1], first, last, c->nclues, i, A) < 0)
            return -1;
        int r = wide_next(c, &cut[i], &cut[i + 1], i, capleft, &entries, A);
        if (r == 0)
            r = wide_forward(c, &cut[i], &cut[i + 1], i, &work, A);
        if (r)
            return r < 0 ? -1 : ST_DECLINED;
    }
    Cut *end = &cut[B];         /* one state (no clue active) when any assignment exists */
    end->glo = 0;
    end->glen = 1;
    end->G = NEW(A, u128, 1);
    if (!end->G)
        return -1;
    end->G[0] = 1;
    for (int i = B - 1; i >= 0; i--) {
        int status = poll(pl);
        if (status != ST_OK)
            return status;
        int r = wide_backward(c, &cut[i], &cut[i + 1], i, &work, A);
        if (r)
            return r < 0 ? -1 : ST_DECLINED;
    }
    c->lo = c->hi = -1;
    for (int t = 0; t < end->len && end->n; t++)
        if ((c->total[end->lo + t] = end->F[t])) {
            if (c->lo < 0)
                c->lo = end->lo + t;
            c->hi = end->lo + t;
        }
    return ST_OK;
}

/* The boxes of c in the programme's order, as a part d (the same clues; old_of[new position]
 * = the position in c): the clues in breadth-first order from a far clue (Cuthill-McKee on
 * the graph of clues sharing a box), each placing its boxes not yet placed, so that few clues
 * are open at any cut; the search's order (clues in cell order) may leave many open.  0, -1. */
static int wide_order(const Part *c, Part *d, int *old_of, Arena *A) {
    int B = c->nboxes, J = c->nclues;
    int *cptr = NEW(A, int, J + 2), *cbox = NEW(A, int, c->clue_ptr[B] + 1);
    int *fill = NEW(A, int, J + 1), *order = NEW(A, int, J + 1), *seen = NEW(A, int, J + 1);
    int *placed = NEW(A, int, B + 1);
    *d = *c;
    d->size = NEW(A, int, B + 1);
    d->clue_ptr = NEW(A, int, B + 1);
    d->clue_of = NEW(A, int, c->clue_ptr[B] + 1);
    if (!cptr || !cbox || !fill || !order || !seen || !placed || !d->size || !d->clue_ptr ||
        !d->clue_of)
        return -1;
    for (int e = 0; e < c->clue_ptr[B]; e++)
        cptr[c->clue_of[e] + 1]++;
    for (int j = 0; j < J; j++)
        cptr[j + 1] += cptr[j];
    for (int i = 0; i < B; i++)
        for (int e = c->clue_ptr[i]; e < c->clue_ptr[i + 1]; e++)
            cbox[cptr[c->clue_of[e]] + fill[c->clue_of[e]]++] = i;
    int start = 0;
    for (int round = 0; round < 2; round++) {       /* the second from the first's last */
        int head = 0, tail = 0;
        for (int j = 0; j < J; j++)
            seen[j] = 0;
        order[tail++] = start;
        seen[start] = 1;
        while (head < tail) {
            int j = order[head++];
            for (int e = cptr[j]; e < cptr[j + 1]; e++) {
                int b = cbox[e];
                for (int f = c->clue_ptr[b]; f < c->clue_ptr[b + 1]; f++)
                    if (!seen[c->clue_of[f]]) {
                        seen[c->clue_of[f]] = 1;
                        order[tail++] = c->clue_of[f];
                    }
            }
        }
        start = order[tail - 1];
    }
    int nb = 0;
    for (int q = 0; q < J; q++)
        for (int e = cptr[order[q]]; e < cptr[order[q] + 1]; e++) {
            int b = cbox[e];
            if (placed[b])
                continue;
            placed[b] = 1;
            old_of[nb] = b;
            d->size[nb] = c->size[b];
            d->clue_ptr[nb + 1] = d->clue_ptr[nb] + c->clue_ptr[b + 1] - c->clue_ptr[b];
            memcpy(d->clue_of + d->clue_ptr[nb], c->clue_of + c->clue_ptr[b],
                   sizeof(int) * (size_t)(c->clue_ptr[b + 1] - c->clue_ptr[b]));
            nb++;
        }
    return nb == B ? 0 : -1;
}

/* The component counted by the programme in its own order (wide_order), the figures put
 * back in the search's order: ST_OK, ST_DECLINED, ST_TIMEOUT, ST_CANCELLED or -1. */
static int count_wide_part(Part *c, Arena *A, Poll *pl) {
    Part d;
    int *old_of = NEW(A, int, c->nboxes + 1), L = c->cells + 1;
    if (!old_of || wide_order(c, &d, old_of, A) < 0)
        return -1;
    int status = count_wide(&d, A, pl);
    if (status != ST_OK)
        return status;
    c->total = d.total;
    c->lo = d.lo;
    c->hi = d.hi;
    c->mined = NEW(A, u128, (size_t)c->nboxes * L);
    if (!c->mined)
        return -1;
    for (int i = 0; i < c->nboxes; i++)
        memcpy(c->mined + (size_t)old_of[i] * L, d.mined + (size_t)i * L, sizeof(u128) * (size_t)L);
    return ST_OK;
}


/* One component counted, by the search or by the programme, whichever is expected to be
 * faster: the search's cost grows with the assignments, the programme's with the clues open
 * at a cut, and measured on the components of Expert positions and of a scattered 1000x1000
 * board (bench/bench_count_choice.py, bench/results/count-choice-35d.json) the programme is the faster from about
 * SEARCH_CELLS cells, by 5 to 10 times at 80 to 120.  So: the search up to SEARCH_CELLS cells,
 * the programme above; what either declines (the search's node budget, the programme's state
 * budget), the other tries, the search only up to MAX_COMPONENT_CELLS (its 128-bit bound).
 * Status as count_part; *budget is spent by the search alone. */
#define SEARCH_CELLS 63
static int count_component(Part *c, Arena *A, Poll *pl, long long *budget) {
    long long before = *budget;
    int status = ST_DECLINED;
    if (c->cells <= SEARCH_CELLS && (status = count_part(c, A, pl, budget)) == ST_DECLINED)
        *budget = before;       /* the nodes spent in vain are not the next component's */
    if (status == ST_DECLINED)
        status = count_wide_part(c, A, pl);
    if (status == ST_DECLINED && c->cells > SEARCH_CELLS && c->cells <= MAX_COMPONENT_CELLS
        && (status = count_part(c, A, pl, budget)) == ST_DECLINED)
        *budget = before;
    return status;
}

/* ------------------------------------------------------------------ the model of a position */
/* The steps of constraints.build_system and its decomposition, each a function below:
 * model_constraints (the numbers, propagation, the active clues), model_boxes (boxes by the
 * clues around them), model_components (clues and boxes joined into components),
 * model_parts (each component in search order) and model_count (each counted).  Pure C: they
 * run without the GIL. */
typedef struct {
    int n, hidden, flagged, nmines, nclues, nboxes, nfloat, nfront, ncomps;
    Position P;
    int32_t *stack;             /* propagation's work stack */
    int *hn;                    /* hidden neighbours of each cell (for ranking) */
    int *clue_id, *clue_cell;   /* cell -> active clue (-1), and back */
    int *box_of, *box_size, *box_ptr, *box_cells;
    int *sig_pool, *sig_start, *sig_len, pool_top;   /* each box's clues */
    int *cb_ptr, *cb;           /* each clue's boxes (CSR) */
    int *comp_of_box, *box_pos;
    Part *parts;
} Model;

#define STR_(x) #x
#define STR(x) STR_(x)
#define WHY_BOX "a box or clue too large for the kernel"
#define WHY_VERY_WIDE "a component of more than " STR(MAX_WIDE_CELLS) " cells"
#define WHY_BUDGET "the search passed its node budget"
#define WHY_COMBINATION "a combination too large for the kernel"

static const char *why_stopped(int status) {
    return status == ST_TIMEOUT ? "timed out" : "cancelled";
}

/* The numbers of the position, propagated (constraints._propagate), and the active clues:
 * numbers with undecided hidden neighbours, in cell order.  ST_OK, ST_INCONSISTENT or -1. */
static int model_constraints(Model *M, Arena *A, const int32_t *indptr, const int32_t *indices,
                             int n, const int8_t *states) {
    int32_t m = indptr[n];
    Position P = {n, indptr, indices, NULL, NULL, NULL, NULL};
    P.state = NEW(A, int8_t, n);
    P.decided = NEW(A, int8_t, n);
    P.need = NEW(A, int32_t, n);
    P.left = NEW(A, int32_t, n);
    int32_t *stack = NEW(A, int32_t, (size_t)m + n + 1);
    int *hn = NEW(A, int, n);
    int *clue_id = NEW(A, int, n), *clue_cell = NEW(A, int, n + 1);
    if (!P.state || !P.decided || !P.need || !P.left || !stack || !hn || !clue_id || !clue_cell)
        return -1;
    M->n = n;
    M->P = P;
    M->stack = stack;
    M->hn = hn;
    M->clue_id = clue_id;
    M->clue_cell = clue_cell;
    memcpy(P.state, states, (size_t)n);
    memset(P.decided, 0xff, (size_t)n);
    /* Numbers with hidden neighbours ("open"); a number without any must be met already.
     * Counters in locals: the arrays may alias *M, which would keep them in memory. */
    int top = 0, hidden = 0, flagged = 0, nclues = 0, nmines = 0;
    for (int p = 0; p < n; p++) {
        int8_t s = P.state[p];
        hn[p] = -1;             /* a covered cell's count is taken when ranked (hidden_around) */
        hidden += s == S_HIDDEN;
        flagged += s == S_MINE;
        if (s < 0)
            continue;           /* only numbers need their neighbours here */
        int need = s, h = 0;
        for (int32_t e = P.indptr[p]; e < P.indptr[p + 1]; e++) {
            int8_t t = P.state[P.indices[e]];
            if (t == S_HIDDEN)
                h++;
            else if (t == S_MINE)
                need--;
        }
        hn[p] = h;
        if (!h) {
            if (need != 0)
                return ST_INCONSISTENT;
            continue;
        }
        P.need[p] = need;
        P.left[p] = h;
    }
    /* Open numbers in increasing order first (popped from the end), as the reference does. */
    for (int p = n - 1; p >= 0; p--)
        if (P.state[p] >= 0 && P.left[p] > 0)
            stack[top++] = p;
    if (propagate(&M->P, stack, top, NULL) >= 0)
        return ST_INCONSISTENT;
    for (int p = 0; p < n; p++) {
        clue_id[p] = -1;
        nmines += P.state[p] == S_HIDDEN && P.decided[p] == 1;
        if (P.state[p] >= 0 && P.left[p] > 0) {
            int need = P.need[p];
            if (need < 0 || need > P.left[p])
                return ST_INCONSISTENT;
            clue_cell[nclues] = p;
            clue_id[p] = nclues++;
        } else if (P.state[p] >= 0 && P.need[p] != 0 && hn[p] > 0) {
            return ST_INCONSISTENT;              /* every hidden neighbour decided, need unmet */
        }
    }
    M->hidden = hidden;
    M->flagged = flagged;
    M->nclues = nclues;
    M->nmines = nmines;
    return ST_OK;
}

/* The box of the signature `sig` (len sorted clue ids) in the open-addressing table, a new
 * one when it is not there yet. */
static int box_of_signature(Model *M, int *table, int table_size, const int *sig, int len) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)len;
    for (int i = 0; i < len; i++)
        h = (h ^ (uint64_t)sig[i]) * 1099511628211ULL;
    int slot = (int)(h & (uint64_t)(table_size - 1));
    while (table[slot] >= 0) {
        int b = table[slot];
        if (M->sig_len[b] == len &&
            !memcmp(M->sig_pool + M->sig_start[b], sig, sizeof(int) * (size_t)len))
            return b;
        slot = (slot + 1) & (table_size - 1);
    }
    int b = M->nboxes++;
    table[slot] = b;
    M->sig_start[b] = M->pool_top;
    M->sig_len[b] = len;
    memcpy(M->sig_pool + M->pool_top, sig, sizeof(int) * (size_t)len);
    M->pool_top += len;
    return b;
}

/* Boxes: undecided hidden cells grouped by the set of active clues around them, numbered by
 * their first cell, and their cells in CSR (increasing within each box); cells next to no
 * active clue float.  The signatures are gathered from the clues (in clue order, so each comes
 * sorted): a position's covered cells far outnumber its clues' neighbours.  ST_OK,
 * ST_DECLINED (why) or -1. */
static int model_boxes(Model *M, Arena *A, int max_floating, const char **why) {
    const Position *P = &M->P;
    int n = M->n;
    int32_t m = P->indptr[n];
    int *sig_ptr = NEW(A, int, n + 1), *sig_all = NEW(A, int, (size_t)m + 1);
    M->box_of = NEW(A, int, n);
    M->sig_pool = NEW(A, int, (size_t)m + 1);
    M->sig_start = NEW(A, int, n + 1);
    M->sig_len = NEW(A, int, n + 1);
    M->box_size = NEW(A, int, n + 1);
    if (!M->box_of || !M->sig_pool || !M->sig_start || !M->sig_len || !M->box_size ||
        !sig_ptr || !sig_all)
        return -1;
    /* each undecided hidden cell's clues, counted then filled (CSR over cells) */
    for (int j = 0; j < M->nclues; j++) {
        int p = M->clue_cell[j];
        for (int32_t e = P->indptr[p]; e < P->indptr[p + 1]; e++) {
            int q = P->indices[e];
            if (P->state[q] == S_HIDDEN && P->decided[q] < 0)
                sig_ptr[q + 1]++;
        }
    }
    int nfront = 0, run = 0;     /* counters in locals: the arrays may alias *M */
    for (int q = 0; q < n; q++) {
        int len = sig_ptr[q + 1];
        if (len > 256)
            { *why = WHY_BOX; return ST_DECLINED; }
        nfront += len > 0;
        run += len;
        sig_ptr[q + 1] = run;
    }
    M->nfront = nfront;
    for (int j = 0; j < M->nclues; j++) {
        int p = M->clue_cell[j];
        for (int32_t e = P->indptr[p]; e < P->indptr[p + 1]; e++) {
            int q = P->indices[e];
            if (P->state[q] == S_HIDDEN && P->decided[q] < 0)
                sig_all[sig_ptr[q] + M->box_of[q]++] = j;   /* box_of: a fill count for now */
        }
    }
    int nfloat = M->hidden - nfront;
    for (int q = 0; q < n; q++)
        nfloat -= P->state[q] == S_HIDDEN && P->decided[q] >= 0;
    M->nfloat = nfloat;
    int table_size = 16;
    while (table_size < 4 * (M->nfront + 1))
        table_size <<= 1;
    int *table = NEW(A, int, table_size);
    if (!table)
        return -1;
    for (int i = 0; i < table_size; i++)
        table[i] = -1;
    for (int q = 0; q < n; q++) {
        int len = sig_ptr[q + 1] - sig_ptr[q];
        M->box_of[q] = -1;
        if (!len)
            continue;
        int b = box_of_signature(M, table, table_size, sig_all + sig_ptr[q], len);
        M->box_of[q] = b;
        if (++M->box_size[b] > MAX_BOX_CELLS)
            { *why = WHY_BOX; return ST_DECLINED; }
    }
    if (max_floating >= 0 && M->nfloat > max_floating) {
        /* Decided before any counting: the caller could not combine the answer anyway. */
        *why = WHY_COMBINATION;
        return ST_DECLINED;
    }
    int nboxes = M->nboxes;
    M->box_ptr = NEW(A, int, nboxes + 1);
    M->box_cells = NEW(A, int, M->nfront + 1);
    int *fill = NEW(A, int, nboxes + 1);
    if (!M->box_ptr || !M->box_cells || !fill)
        return -1;
    for (int b = 0; b < nboxes; b++)
        M->box_ptr[b + 1] = M->box_ptr[b] + M->box_size[b];
    for (int q = 0; q < n; q++)
        if (M->box_of[q] >= 0) {
            int b = M->box_of[q];
            M->box_cells[M->box_ptr[b] + fill[b]++] = q;
        }
    return ST_OK;
}

/* Each clue's boxes (CSR), and the components: boxes joined by union-find over the boxes of
 * each clue, numbered by their first box.  ST_OK or -1. */
static int model_components(Model *M, Arena *A) {
    int nboxes = M->nboxes, nclues = M->nclues;
    M->cb_ptr = NEW(A, int, nclues + 1);
    M->cb = NEW(A, int, M->pool_top + 1);
    int *parent = NEW(A, int, nboxes + 1), *cfill = NEW(A, int, nclues + 1);
    int *comp_of_root = NEW(A, int, nboxes + 1);
    M->comp_of_box = NEW(A, int, nboxes + 1);
    if (!M->cb_ptr || !M->cb || !parent || !cfill || !comp_of_root || !M->comp_of_box)
        return -1;
    int *cb_ptr = M->cb_ptr, *cb = M->cb;
    for (int b = 0; b < nboxes; b++)
        for (int i = 0; i < M->sig_len[b]; i++)
            cb_ptr[M->sig_pool[M->sig_start[b] + i] + 1]++;
    for (int j = 0; j < nclues; j++)
        cb_ptr[j + 1] += cb_ptr[j];
    for (int b = 0; b < nboxes; b++) {
        parent[b] = b;
        for (int i = 0; i < M->sig_len[b]; i++) {
            int j = M->sig_pool[M->sig_start[b] + i];
            cb[cb_ptr[j] + cfill[j]++] = b;
        }
    }
    for (int j = 0; j < nclues; j++)
        for (int e = cb_ptr[j] + 1; e < cb_ptr[j + 1]; e++) {
            int a = uf_find(parent, cb[cb_ptr[j]]), r = uf_find(parent, cb[e]);
            if (a != r)
                parent[r] = a;
        }
    for (int b = 0; b < nboxes; b++)
        comp_of_root[b] = -1;
    for (int b = 0; b < nboxes; b++) {
        int r = uf_find(parent, b);
        if (comp_of_root[r] < 0)
            comp_of_root[r] = M->ncomps++;
        M->comp_of_box[b] = comp_of_root[r];
    }
    return ST_OK;
}

/* Each component as a Part to count: its boxes in search order (the clues in cell order, each
 * adding its boxes not yet placed, so that a clue's boxes come close together and its
 * equation closes early), its clues' needs and capacities, and each box's clues in local
 * numbering.  ST_OK, ST_DECLINED (why: a component past MAX_WIDE_CELLS) or -1. */
static int model_parts(Model *M, Arena *A, const char **why) {
    int nboxes = M->nboxes, nclues = M->nclues, ncomps = M->ncomps;
    int *cb_ptr = M->cb_ptr, *cb = M->cb;
    Part *parts = M->parts = NEW(A, Part, ncomps + 1);
    int *clue_comp = NEW(A, int, nclues + 1), *clue_local = NEW(A, int, nclues + 1);
    int *placed = NEW(A, int, nboxes + 1);
    M->box_pos = NEW(A, int, nboxes + 1);       /* a box's position in its part's order */
    if (!parts || !clue_comp || !clue_local || !M->box_pos || !placed)
        return -1;
    for (int b = 0; b < nboxes; b++) {
        Part *c = &parts[M->comp_of_box[b]];
        c->nboxes++;
        c->cells += M->box_size[b];
    }
    for (int j = 0; j < nclues; j++) {
        int c = M->comp_of_box[cb[cb_ptr[j]]];
        clue_comp[j] = c;
        clue_local[j] = parts[c].nclues++;
    }
    for (int ci = 0; ci < ncomps; ci++) {
        Part *c = &parts[ci];
        if (c->cells > MAX_WIDE_CELLS) {
            *why = WHY_VERY_WIDE;
            return ST_DECLINED;
        }
        c->boxes = NEW(A, int, c->nboxes);
        c->size = NEW(A, int, c->nboxes);
        c->clue_ptr = NEW(A, int, c->nboxes + 1);
        c->need = NEW(A, int, c->nclues);
        c->cap = NEW(A, int, c->nclues);
        if (!c->boxes || !c->size || !c->clue_ptr || !c->need || !c->cap)
            return -1;
        c->nboxes = 0;           /* refilled below, in search order */
    }
    for (int j = 0; j < nclues; j++) {
        Part *c = &parts[clue_comp[j]];
        int lj = clue_local[j];
        c->need[lj] = M->P.need[M->clue_cell[j]];
        for (int e = cb_ptr[j]; e < cb_ptr[j + 1]; e++) {
            int b = cb[e];
            c->cap[lj] += M->box_size[b];
            if (!placed[b]) {
                placed[b] = 1;
                M->box_pos[b] = c->nboxes;
                c->boxes[c->nboxes] = b;
                c->size[c->nboxes] = M->box_size[b];
                c->nboxes++;
            }
        }
    }
    for (int ci = 0; ci < ncomps; ci++) {
        Part *c = &parts[ci];
        int edges = 0;
        for (int i = 0; i < c->nboxes; i++)
            edges += M->sig_len[c->boxes[i]];
        c->clue_of = NEW(A, int, edges + 1);
        if (!c->clue_of)
            return -1;
        for (int i = 0; i < c->nboxes; i++) {
            int b = c->boxes[i];
            c->clue_ptr[i + 1] = c->clue_ptr[i] + M->sig_len[b];
            for (int e = 0; e < M->sig_len[b]; e++)
                c->clue_of[c->clue_ptr[i] + e] = clue_local[M->sig_pool[M->sig_start[b] + e]];
        }
    }
    return ST_OK;
}

/* Every component counted (engines/dp.py's job, by count_component), in order; the first
 * with no assignment makes the position inconsistent.  ST_OK, ST_INCONSISTENT, ST_DECLINED
 * (why), ST_TIMEOUT, ST_CANCELLED or -1. */
static int model_count(Model *M, Arena *A, Poll *pl, long long *budget, const char **why) {
    for (int ci = 0; ci < M->ncomps; ci++) {
        Part *c = &M->parts[ci];
        int status = count_component(c, A, pl, budget);
        if (status < 0)
            return -1;
        if (status == ST_DECLINED) {
            *why = WHY_WIDE;
            return ST_DECLINED;
        }
        if (status != ST_OK) {
            *why = why_stopped(status);
            return status;
        }
        if (c->lo < 0)
            return ST_INCONSISTENT;      /* no assignment meets this component's clues */
    }
    int status = poll_now(pl);
    if (status != ST_OK)
        *why = why_stopped(status);
    return status;
}

/* The model of the position `states` (on the graph in indptr/indices): constraints,
 * propagation, boxes and components, every component counted.  Returns ST_OK,
 * ST_INCONSISTENT, ST_DECLINED (why says why), ST_TIMEOUT, ST_CANCELLED, or -1 when out of
 * memory; spends search nodes from *budget; declines more than max_floating floating cells
 * (when >= 0).  All memory comes from the arena.  Pure C: runs without the GIL. */
static int build_model(Model *M, Arena *A, Poll *pl, const int32_t *indptr,
                       const int32_t *indices, int n, const int8_t *states, long long *budget,
                       int max_floating, const char **why) {
    memset(M, 0, sizeof *M);
    int status = model_constraints(M, A, indptr, indices, n, states);
    if (status == ST_OK)
        status = model_boxes(M, A, max_floating, why);
    if (status == ST_OK)
        status = model_components(M, A);
    if (status == ST_OK)
        status = model_parts(M, A, why);
    if (status == ST_OK)
        status = model_count(M, A, pl, budget, why);
    return status;
}
/* ------------------------------------------------------------------ Python-integer helpers */
#define DECREF_ARRAY(a, n) do { if (a) { for (Py_ssize_t _i = 0; _i < (n); _i++) Py_XDECREF((a)[_i]); } } while (0)

/* acc += x * y (acc may be NULL meaning 0); returns the new reference or NULL. */
static PyObject *muladd(PyObject *acc, PyObject *x, PyObject *y) {
    PyObject *p = PyNumber_Multiply(x, y);
    if (!p) {
        Py_XDECREF(acc);
        return NULL;
    }
    if (!acc)
        return p;
    PyObject *s = PyNumber_Add(acc, p);
    Py_DECREF(acc);
    Py_DECREF(p);
    return s;
}

static PyObject *comb(long long n, long long k) {
    if (k < 0 || k > n || n < 0)
        return PyLong_FromLong(0);
    return PyObject_CallFunction(math_comb, "LL", n, k);
}

/* An array of `n` new references (NULL entries allowed), released. */
static void free_objects(PyObject **a, Py_ssize_t n) {
    DECREF_ARRAY(a, n);
    PyMem_Free(a);
}

/* ------------------------------------------------------------------ combine */
/* The components combined under the total (engines/combine.py), on Python integers: the
 * only part of an analysis that needs the GIL besides the conversion of the answer. */
typedef struct {
    long long remaining;        /* mines left for the undecided cells (-1: no total) */
    int degree;                 /* sum of the parts' hi - lo */
} Plan;

/* Whether the total can be met, and whether the combination is one the kernel takes.  Pure C.
 * ST_OK, ST_INCONSISTENT or ST_DECLINED (why). */
static int combine_plan(const Model *M, long long total, Plan *plan, const char **why) {
    plan->remaining = -1;
    plan->degree = 0;
    for (int ci = 0; ci < M->ncomps; ci++)
        plan->degree += M->parts[ci].hi - M->parts[ci].lo;
    if (total < 0)
        return ST_OK;
    plan->remaining = total - M->flagged - M->nmines;
    int lo_sum = 0, hi_sum = 0;
    for (int ci = 0; ci < M->ncomps; ci++) {
        lo_sum += M->parts[ci].lo;
        hi_sum += M->parts[ci].hi;
    }
    if (plan->remaining < lo_sum || plan->remaining > (long long)hi_sum + M->nfloat)
        return ST_INCONSISTENT;
    if (plan->degree > MAX_DEGREE_COMBINED || M->nfloat > MAX_FLOATING_COMBINED) {
        *why = WHY_COMBINATION;
        return ST_DECLINED;
    }
    return ST_OK;
}

typedef struct {
    PyObject *count;            /* completions of the board */
    PyObject *per_floating;     /* completions with a mine on one given floating cell */
    int *S_ptr;                 /* S[S_ptr[c] + t - lo_c]: completions of everything but */
    PyObject **S;               /* part c when it holds t mines (one entry without a total) */
    Py_ssize_t nS;
    PyObject **box_count;       /* per box: completions with a mine on one of its cells */
    Py_ssize_t nboxes;
    /* With a total: each part's polynomial (its counts by mine count, from lo), their
     * product Q and the floating cells' weights W (both of degree + 1 entries). */
    PyObject ***poly;
    PyObject **Q, **W, **tmp;
    Py_ssize_t nQ, ncomps;
} Combined;

static void combined_free(Combined *C) {
    free_objects(C->S, C->nS);
    free_objects(C->box_count, C->nboxes);
    free_objects(C->Q, C->nQ);
    free_objects(C->W, C->nQ);
    free_objects(C->tmp, C->nQ);
    if (C->poly) {
        for (Py_ssize_t ci = 0; ci < C->ncomps; ci++)
            PyMem_Free(C->poly[ci]);     /* references released by combine_total */
        PyMem_Free(C->poly);
    }
    Py_XDECREF(C->count);
    Py_XDECREF(C->per_floating);
}

/* Without a total the parts are independent: count = prod(parts) * 2**F, and S[c] is the
 * product of the others times 2**F (prefix and suffix products).  0, or -1 with an error. */
static int combine_free(const Model *M, Combined *C) {
    int ncomps = M->ncomps, ok = 1;
    PyObject **tot = PyMem_Calloc((size_t)ncomps + 1, sizeof(PyObject *)), *prefix = NULL;
    if (!tot) {
        PyErr_NoMemory();
        return -1;
    }
    for (int ci = 0; ci < ncomps && ok; ci++) {
        u128 sum = 0;
        for (int t = M->parts[ci].lo; t <= M->parts[ci].hi; t++)
            sum += M->parts[ci].total[t];
        tot[ci] = from_u128(sum);
        ok = tot[ci] != NULL;
    }
    if (ok) {
        PyObject *one = PyLong_FromLong(1), *shift = PyLong_FromLong(M->nfloat);
        prefix = (one && shift) ? PyNumber_Lshift(one, shift) : NULL;
        Py_XDECREF(one);
        Py_XDECREF(shift);
        ok = prefix != NULL;
    }
    for (int ci = 0; ci < ncomps && ok; ci++) {      /* S[c] = prefix before c */
        Py_INCREF(prefix);
        C->S[C->S_ptr[ci]] = prefix;
        PyObject *next = PyNumber_Multiply(prefix, tot[ci]);
        Py_DECREF(prefix);
        prefix = next;
        ok = prefix != NULL;
    }
    if (ok) {
        C->count = prefix;                          /* prod of all * 2**F */
        prefix = NULL;
        PyObject *suffix = PyLong_FromLong(1);
        ok = suffix != NULL;
        for (int ci = ncomps - 1; ci >= 0 && ok; ci--) {
            PyObject *v = PyNumber_Multiply(C->S[C->S_ptr[ci]], suffix);
            Py_SETREF(C->S[C->S_ptr[ci]], v);
            PyObject *next = v ? PyNumber_Multiply(suffix, tot[ci]) : NULL;
            Py_SETREF(suffix, next);
            ok = v && next;
        }
        Py_XDECREF(suffix);
    }
    Py_XDECREF(prefix);
    free_objects(tot, ncomps);
    if (!ok)
        return -1;
    if (M->nfloat) {
        PyObject *one = PyLong_FromLong(1);
        C->per_floating = one ? PyNumber_Rshift(C->count, one) : NULL;
        Py_XDECREF(one);
    } else {
        C->per_floating = PyLong_FromLong(0);
    }
    return C->per_floating ? 0 : -1;
}

/* Q = the product of the parts' polynomials (schoolbook, part by part); the polynomials are
 * kept in C->poly for the sensitivities.  0, or -1 with an error. */
static int poly_product(const Model *M, Combined *C) {
    int ok = 1, qlen = 1;
    for (int ci = 0; ci < M->ncomps && ok; ci++) {
        const Part *c = &M->parts[ci];
        int len = c->hi - c->lo + 1;
        C->poly[ci] = PyMem_Calloc((size_t)len, sizeof(PyObject *));
        ok = C->poly[ci] != NULL;
        for (int t = 0; t < len && ok; t++) {
            C->poly[ci][t] = from_u128(c->total[c->lo + t]);
            ok = C->poly[ci][t] != NULL;
        }
    }
    if (ok) {
        C->Q[0] = PyLong_FromLong(1);
        ok = C->Q[0] != NULL;
    }
    for (int ci = 0; ci < M->ncomps && ok; ci++) {
        int len = M->parts[ci].hi - M->parts[ci].lo + 1;
        for (int u = 0; u < qlen + len - 1 && ok; u++) {
            PyObject *acc = NULL;
            for (int t = 0; t < len && ok; t++) {
                int v = u - t;
                if (v < 0 || v >= qlen)
                    continue;
                acc = muladd(acc, C->Q[v], C->poly[ci][t]);
                ok = acc != NULL;
            }
            if (ok && !acc)
                acc = PyLong_FromLong(0);
            C->tmp[u] = acc;
            ok = ok && acc;
        }
        if (!ok)
            break;
        for (int u = 0; u < qlen; u++)
            Py_CLEAR(C->Q[u]);
        qlen += len - 1;
        for (int u = 0; u < qlen; u++) {
            C->Q[u] = C->tmp[u];
            C->tmp[u] = NULL;
        }
    }
    return ok ? 0 : -1;
}

/* out[u] = C(n, k - u) for u < len (new references): one math.comb, then each from the one
 * before, C(n, j - 1) = C(n, j) * j / (n - j + 1), exact and cheap (a small factor).
 * 0, or -1 with an error. */
static int binomials_down(long long n, long long k, Py_ssize_t len, PyObject **out) {
    PyObject *prev = NULL;      /* C(n, k - u + 1) when in range */
    for (Py_ssize_t u = 0; u < len; u++) {
        long long j = k - u;
        if (j < 0 || j > n || n < 0 || !prev) {
            out[u] = comb(n, j);
        } else {                /* prev = C(n, j + 1): C(n, j) = prev * (j + 1) / (n - j) */
            PyObject *f = PyLong_FromLongLong(j + 1), *d = PyLong_FromLongLong(n - j);
            PyObject *p = f && d ? PyNumber_Multiply(prev, f) : NULL;
            out[u] = p ? PyNumber_FloorDivide(p, d) : NULL;
            Py_XDECREF(f);
            Py_XDECREF(d);
            Py_XDECREF(p);
        }
        if (!out[u])
            return -1;
        prev = (j >= 0 && j <= n && n >= 0) ? out[u] : NULL;
    }
    return 0;
}

/* The weights W[u] = C(F, R - base - u), the count sum Q[u] W[u], and the completions with
 * a mine on one floating cell, sum Q[u] C(F - 1, R - base - u - 1).  0, or -1. */
static int weigh(const Model *M, Combined *C, long long remaining, int base) {
    int ok = binomials_down(M->nfloat, remaining - base, C->nQ, C->W) == 0;
    for (Py_ssize_t u = 0; u < C->nQ && ok; u++) {
        C->count = muladd(C->count, C->Q[u], C->W[u]);
        ok = C->count != NULL;
    }
    /* C(F - 1, k - 1) = C(F, k) * k / F (and 0 without floating cells) */
    PyObject *F = ok ? PyLong_FromLong(M->nfloat) : NULL;
    ok = ok && F;
    for (Py_ssize_t u = 0; u < C->nQ && ok && M->nfloat > 0; u++) {
        long long k = remaining - base - u;
        if (k <= 0 || k > M->nfloat)
            continue;
        PyObject *kk = PyLong_FromLongLong(k);
        PyObject *p = kk ? PyNumber_Multiply(C->W[u], kk) : NULL;
        PyObject *w1 = p ? PyNumber_FloorDivide(p, F) : NULL;
        Py_XDECREF(kk);
        Py_XDECREF(p);
        ok = w1 != NULL;
        if (ok) {
            C->per_floating = muladd(C->per_floating, C->Q[u], w1);
            ok = C->per_floating != NULL;
        }
        Py_XDECREF(w1);
    }
    Py_XDECREF(F);
    if (ok && !C->per_floating) {
        C->per_floating = PyLong_FromLong(0);
        ok = C->per_floating != NULL;
    }
    return ok ? 0 : -1;
}

/* Part ci's sensitivities: O = Q / P_c (exact division, from the low end), then
 * S_c[t] = sum_u O[u] W[u + t].  0, or -1 with an error. */
static int sensitivities(const Model *M, Combined *C, int ci) {
    int len = M->parts[ci].hi - M->parts[ci].lo + 1, qlen = (int)C->nQ;
    int olen = qlen - len + 1, ok = 1;
    PyObject **rem = C->tmp, **poly = C->poly[ci];     /* a working copy of Q */
    for (int u = 0; u < qlen; u++) {
        Py_INCREF(C->Q[u]);
        rem[u] = C->Q[u];
    }
    PyObject **O = PyMem_Calloc((size_t)olen, sizeof(PyObject *));
    ok = O != NULL;
    for (int u = 0; u < olen && ok; u++) {
        O[u] = PyNumber_FloorDivide(rem[u], poly[0]);
        ok = O[u] != NULL;
        for (int j = 1; j < len && ok; j++) {
            PyObject *p = PyNumber_Multiply(O[u], poly[j]);
            PyObject *d = p ? PyNumber_Subtract(rem[u + j], p) : NULL;
            Py_XDECREF(p);
            ok = d != NULL;
            if (ok)
                Py_SETREF(rem[u + j], d);
        }
    }
    for (int u = 0; u < qlen; u++)
        Py_CLEAR(rem[u]);
    for (int t = 0; t < len && ok; t++) {
        PyObject *acc = NULL;
        for (int u = 0; u < olen && ok; u++) {
            if (u + t >= C->nQ)
                break;
            acc = muladd(acc, O[u], C->W[u + t]);
            ok = acc != NULL;
        }
        if (ok && !acc)
            acc = PyLong_FromLong(0);
        C->S[C->S_ptr[ci] + t] = acc;
        ok = ok && acc;
    }
    if (O)
        free_objects(O, olen);
    if (!ok && !PyErr_Occurred())
        PyErr_NoMemory();
    return ok ? 0 : -1;
}

/* With a total: Q, the weights, the count and every part's sensitivities.  0, or -1. */
static int combine_total(const Model *M, Combined *C, const Plan *plan) {
    int base = 0, status = 0;
    for (int ci = 0; ci < M->ncomps; ci++)
        base += M->parts[ci].lo;
    C->nQ = plan->degree + 1;
    C->ncomps = M->ncomps;
    C->Q = PyMem_Calloc((size_t)C->nQ, sizeof(PyObject *));
    C->W = PyMem_Calloc((size_t)C->nQ, sizeof(PyObject *));
    C->tmp = PyMem_Calloc((size_t)C->nQ, sizeof(PyObject *));
    C->poly = PyMem_Calloc((size_t)M->ncomps + 1, sizeof(PyObject **));
    if (!C->Q || !C->W || !C->tmp || !C->poly) {
        PyErr_NoMemory();
        return -1;
    }
    status = poly_product(M, C);
    if (status == 0)
        status = weigh(M, C, plan->remaining, base);
    for (int ci = 0; ci < M->ncomps && status == 0; ci++)
        status = sensitivities(M, C, ci);
    for (int ci = 0; ci < M->ncomps; ci++)
        if (C->poly[ci])
            DECREF_ARRAY(C->poly[ci], M->parts[ci].hi - M->parts[ci].lo + 1);
    return status;
}

/* Per box: the completions with a mine on one of its cells, sum_t mined[t] * S_c[t]. */
static int count_boxes(const Model *M, Combined *C, int with_total) {
    C->nboxes = M->nboxes;
    C->box_count = PyMem_Calloc((size_t)M->nboxes + 1, sizeof(PyObject *));
    if (!C->box_count) {
        PyErr_NoMemory();
        return -1;
    }
    for (int b = 0; b < M->nboxes; b++) {
        int ci = M->comp_of_box[b];
        const Part *c = &M->parts[ci];
        int i = M->box_pos[b], L = c->cells + 1;
        PyObject *acc = NULL;
        for (int t = c->lo; t <= c->hi; t++) {
            u128 v = c->mined[(size_t)i * L + t];
            if (!v)
                continue;
            PyObject *x = from_u128(v);
            if (!x) {
                Py_XDECREF(acc);
                return -1;
            }
            acc = muladd(acc, x, C->S[C->S_ptr[ci] + (with_total ? t - c->lo : 0)]);
            Py_DECREF(x);
            if (!acc)
                return -1;
        }
        C->box_count[b] = acc ? acc : PyLong_FromLong(0);
        if (!C->box_count[b])
            return -1;
    }
    return 0;
}

/* The combination: count, per floating cell, per box.  ST_OK, ST_INCONSISTENT (no
 * completion under the total), or -1 with an error. */
static int combine(const Model *M, Arena *A, Combined *C, long long total, const Plan *plan) {
    int with_total = total >= 0;
    C->S_ptr = NEW(A, int, M->ncomps + 1);
    if (!C->S_ptr) {
        PyErr_NoMemory();
        return -1;
    }
    for (int ci = 0; ci < M->ncomps; ci++)
        C->S_ptr[ci + 1] = C->S_ptr[ci] +
            (with_total ? M->parts[ci].hi - M->parts[ci].lo + 1 : 1);
    C->nS = C->S_ptr[M->ncomps];
    C->S = PyMem_Calloc((size_t)C->nS + 1, sizeof(PyObject *));
    if (!C->S) {
        PyErr_NoMemory();
        return -1;
    }
    if ((with_total ? combine_total(M, C, plan) : combine_free(M, C)) < 0)
        return -1;
    if (!C->count || !C->per_floating) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    if (!PyObject_IsTrue(C->count))
        return ST_INCONSISTENT;
    return count_boxes(M, C, with_total) < 0 ? -1 : ST_OK;
}

/* ------------------------------------------------------------------ forced */
typedef struct {
    int *safe, *mines, *floating;   /* hidden cells, increasing */
    int ns, nm, nf;
    int *box_state;                 /* per box: 0 safe, 1 mine, 2 neither */
    int fstate;                     /* the same for the floating cells */
} Forced;

/* 0 when v is zero, 1 when it equals count, 2 otherwise; -1 with an error. */
static int state_of(PyObject *v, PyObject *count) {
    int zero = !PyObject_IsTrue(v);
    int full = PyObject_RichCompareBool(v, count, Py_EQ);
    if (full < 0)
        return -1;
    return zero ? 0 : full ? 1 : 2;
}

/* Forced cells: propagation's, and whole boxes (or the floating cells) at 0 or count.
 * 0, or -1 with an error. */
static int forced_by_counts(const Model *M, Arena *A, const Combined *C, Forced *F) {
    F->safe = NEW(A, int, M->hidden + 1);
    F->mines = NEW(A, int, M->hidden + 1);
    F->floating = NEW(A, int, M->nfloat + 1);
    F->box_state = NEW(A, int, M->nboxes + 1);
    if (!F->safe || !F->mines || !F->floating || !F->box_state) {
        PyErr_NoMemory();
        return -1;
    }
    for (int b = 0; b < M->nboxes; b++)
        if ((F->box_state[b] = state_of(C->box_count[b], C->count)) < 0)
            return -1;
    if ((F->fstate = state_of(C->per_floating, C->count)) < 0)
        return -1;
    for (int q = 0; q < M->n; q++) {
        if (M->P.state[q] != S_HIDDEN)
            continue;
        int d = M->P.decided[q];
        if (d < 0) {
            if (M->box_of[q] >= 0) {
                d = F->box_state[M->box_of[q]];
            } else {
                F->floating[F->nf++] = q;
                d = F->fstate;
            }
        }
        if (d == 0)
            F->safe[F->ns++] = q;
        else if (d == 1)
            F->mines[F->nm++] = q;
    }
    return 0;
}

/* ------------------------------------------------------------------ best */
/* The hidden neighbours of cell q, counted on first use (the model counts them for numbers
 * only: ranking needs them for a few candidates, and most cells of a position are covered). */
static int hidden_around(const Model *M, int q) {
    int *hn = M->hn;
    if (hn[q] < 0) {
        int h = 0;
        for (int32_t e = M->P.indptr[q]; e < M->P.indptr[q + 1]; e++)
            h += M->P.state[M->P.indices[e]] == S_HIDDEN;
        hn[q] = h;
    }
    return hn[q];
}

/* The cell of `cells` (n of them) with the fewest hidden neighbours, the first on a tie. */
static int fewest_neighbours(const Model *M, const int *cells, int n) {
    int cand = -1, low = INT_MAX;
    for (int i = 0; i < n && low > 0; i++) {
        int h = hidden_around(M, cells[i]);
        if (cand < 0 || h < low) {
            cand = cells[i];
            low = h;
        }
    }
    return cand;
}

/* The best move (analysis.choose_best): a safe cell if any, else the lowest count among
 * cells that are not mines; ties by fewest hidden neighbours, then index.  The cell (-1:
 * none) and *basis; -2 with an error. */
static int best_move(const Model *M, const Combined *C, const Forced *F, const char **basis) {
    *basis = NULL;
    if (F->ns) {
        *basis = "safe";
        return fewest_neighbours(M, F->safe, F->ns);
    }
    PyObject *low = NULL;
    int best = -1;
    /* candidates: the floating group and the boxes that are not proven mines */
    for (int b = -1; b < M->nboxes; b++) {
        PyObject *v = b < 0 ? C->per_floating : C->box_count[b];
        int st = b < 0 ? F->fstate : F->box_state[b];
        if ((b < 0 && !F->nf) || st == 1)
            continue;
        int better = low ? PyObject_RichCompareBool(v, low, Py_LT) : 1;
        int equal = low && !better ? PyObject_RichCompareBool(v, low, Py_EQ) : 0;
        if (better < 0 || equal < 0)
            return -2;
        if (!better && !equal)
            continue;
        int cand = b < 0 ? fewest_neighbours(M, F->floating, F->nf)
                         : fewest_neighbours(M, M->box_cells + M->box_ptr[b],
                                             M->box_ptr[b + 1] - M->box_ptr[b]);
        if (better) {
            low = v;
            best = cand;
        } else if (hidden_around(M, cand) < hidden_around(M, best) ||
                   (hidden_around(M, cand) == hidden_around(M, best) && cand < best)) {
            best = cand;
        }
    }
    if (best >= 0)
        *basis = "probability";
    return best;
}

/* ------------------------------------------------------------------ results */
/* Typed results (struct sequences, described in _kernel.pyi): analyze -> Answer,
 * count_component -> Component, solvable -> Played.  Fields not set are None. */
static PyTypeObject *AnswerType = NULL, *ComponentType = NULL, *PlayedType = NULL;

static PyStructSequence_Field answer_fields[] = {
    {"status", "OK, INCONSISTENT, DECLINED, TIMEOUT or CANCELLED"},
    {"detail", "why, when declined, timed out or cancelled ('' otherwise)"},
    {"count", "completions of the board"},
    {"safe", "hidden cells safe in every completion, increasing"},
    {"mines", "hidden cells mined in every completion, increasing"},
    {"box_cells", "per box: its cells (a tuple)"},
    {"box_counts", "per box: completions with a mine on one of its cells"},
    {"box_floats", "per box: that count over count, correctly rounded"},
    {"floating", "hidden cells next to no active clue, increasing (bytes: native int32)"},
    {"floating_count", "completions with a mine on one floating cell"},
    {"floating_float", "that count over count, correctly rounded"},
    {"best", "the recommended cell, or -1"},
    {"basis", "'safe', 'probability' or None"},
    {"stats", "components, boxes, clues, floating cells and search nodes"},
    {"cell_floats", "every cell's mine probability as a double (bytes; NaN: not hidden), "
                    "or None when one lies below the double range"},
    {NULL, NULL},
};
static PyStructSequence_Desc answer_desc = {
    "minegraph._kernel.Answer", "analyze's answer on a position.", answer_fields, 15,
};

static PyStructSequence_Field component_fields[] = {
    {"status", "OK, INCONSISTENT, DECLINED, TIMEOUT or CANCELLED"},
    {"detail", "why, when declined, timed out or cancelled ('' otherwise)"},
    {"total", "counting: assignments by mine count (or one entry, the plain count)"},
    {"mined", "counting: per box, mines in the box summed over them, by mine count"},
    {"completion", "completing: mines per box of one assignment"},
    {"nodes", "search nodes spent"},
    {NULL, NULL},
};
static PyStructSequence_Desc component_desc = {
    "minegraph._kernel.Component", "count_component's answer on one component.",
    component_fields, 6,
};

static PyStructSequence_Field played_fields[] = {
    {"status", "OK (solved), INCONSISTENT (stuck), DECLINED, TIMEOUT or CANCELLED"},
    {"left", "safe cells still covered"},
    {NULL, NULL},
};
static PyStructSequence_Desc played_desc = {
    "minegraph._kernel.Played", "solvable's answer on a layout.", played_fields, 2,
};

/* A new result of `type` with its status and detail set and every other field None. */
static PyObject *new_result(PyTypeObject *type, int status, const char *detail) {
    PyObject *r = PyStructSequence_New(type);
    if (!r)
        return NULL;
    Py_ssize_t size = Py_SIZE(r);
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_INCREF(Py_None);
        PyStructSequence_SET_ITEM(r, i, Py_None);
    }
    PyObject *code = PyLong_FromLong(status);
    if (!code) {
        Py_DECREF(r);
        return NULL;
    }
    Py_SETREF(((PyTupleObject *)r)->ob_item[0], code);
    if (detail) {
        PyObject *text = PyUnicode_FromString(detail);
        if (!text) {
            Py_DECREF(r);
            return NULL;
        }
        Py_SETREF(((PyTupleObject *)r)->ob_item[1], text);
    }
    return r;
}

/* Field i of a result set to `value` (a new reference, stolen; NULL: -1). */
static int set_field(PyObject *r, Py_ssize_t i, PyObject *value) {
    if (!value)
        return -1;
    Py_SETREF(((PyTupleObject *)r)->ob_item[i], value);
    return 0;
}

static PyObject *int_list(const int *v, int n) {
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* n cells as native int32 values (bytes): the floating cells, often most of a position, are
 * read only when someone asks for per-cell counts, so no int object is made for them here. */
static PyObject *int32_bytes(const int *v, int n) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * (Py_ssize_t)sizeof(int32_t));
    if (!out)
        return NULL;
    int32_t *w = (int32_t *)PyBytes_AS_STRING(out);
    for (int i = 0; i < n; i++)
        w[i] = (int32_t)v[i];
    return out;
}

/* The boxes as Python lists: each box's cells (a tuple), its count, and its count over the
 * board's as a correctly rounded float.  0, or -1 with an error. */
static int box_lists(const Model *M, const Combined *C, PyObject *r) {
    PyObject *cells_list = PyList_New(M->nboxes), *counts = PyList_New(M->nboxes);
    PyObject *floats = PyList_New(M->nboxes);
    int ok = cells_list && counts && floats;
    for (int b = 0; b < M->nboxes && ok; b++) {
        int lo = M->box_ptr[b], hi = M->box_ptr[b + 1];
        PyObject *cells = PyTuple_New(hi - lo);
        ok = cells != NULL;
        for (int i = lo; i < hi && ok; i++) {
            PyObject *x = PyLong_FromLong(M->box_cells[i]);
            ok = x != NULL;
            if (ok)
                PyTuple_SET_ITEM(cells, i - lo, x);
        }
        if (!ok) {
            Py_XDECREF(cells);
            break;
        }
        PyList_SET_ITEM(cells_list, b, cells);
        Py_INCREF(C->box_count[b]);
        PyList_SET_ITEM(counts, b, C->box_count[b]);
        PyObject *f = PyNumber_TrueDivide(C->box_count[b], C->count);
        ok = f != NULL;
        if (ok)
            PyList_SET_ITEM(floats, b, f);
    }
    if (!ok) {
        Py_XDECREF(cells_list);
        Py_XDECREF(counts);
        Py_XDECREF(floats);
        return -1;
    }
    set_field(r, 5, cells_list);
    set_field(r, 6, counts);
    set_field(r, 7, floats);
    return 0;
}

/* A share of the completions as Analysis.floats reads it: 0.0 and 1.0 only when proven
 * (state 0 or 1), an unproven share that rounds to 1.0 as the largest double below 1; a
 * share that is not 0 but lies below the double range sets *below (Analysis.floats gives
 * it as an exact Fraction, which a double cannot hold). */
static double float_of_share(double x, int state, int *below) {
    if (state == 0 || state == 1)
        return (double)state;
    if (x < DBL_MIN)
        *below = 1;
    return x == 1.0 ? nextafter(1.0, 0.0) : x;
}

/* Every cell's mine probability as n doubles (NaN on cells that are not hidden), from the
 * boxes' correctly rounded shares (field 7 of the answer r) and the floating cells' share:
 * Analysis.floats in one buffer, for the dictionary (float_dict) and the array answer.  None
 * when a share lies below the double range; NULL with an error. */
static PyObject *cell_floats(const Model *M, const Forced *F, PyObject *r, double floating) {
    PyObject *box_floats = PyStructSequence_GET_ITEM(r, 7);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)M->n * (Py_ssize_t)sizeof(double));
    if (!out)
        return NULL;
    double *v = (double *)PyBytes_AS_STRING(out);
    int below = 0;
    double fl = float_of_share(floating, F->nf ? F->fstate : 0, &below);
    for (int q = 0; q < M->n; q++) {
        int d = M->P.state[q] == S_HIDDEN ? M->P.decided[q] : -2;
        if (d == -2)
            v[q] = NAN;
        else if (d >= 0)
            v[q] = (double)d;
        else if (M->box_of[q] < 0)
            v[q] = fl;
        else {
            int b = M->box_of[q];
            v[q] = float_of_share(PyFloat_AS_DOUBLE(PyList_GET_ITEM(box_floats, b)),
                                  F->box_state[b], &below);
        }
    }
    if (below)
        Py_SETREF(out, Py_NewRef(Py_None));
    return out;
}

/* The answer on a consistent position, as the struct sequence Answer. */
static PyObject *answer_of(const Model *M, const Combined *C, const Forced *F, int best,
                           const char *basis, long long nodes) {
    PyObject *r = new_result(AnswerType, ST_OK, "");
    if (!r)
        return NULL;
    if (set_field(r, 2, Py_NewRef(C->count)) < 0 || set_field(r, 3, int_list(F->safe, F->ns)) < 0 ||
        set_field(r, 4, int_list(F->mines, F->nm)) < 0 || box_lists(M, C, r) < 0 ||
        set_field(r, 8, int32_bytes(F->floating, F->nf)) < 0 ||
        set_field(r, 9, Py_NewRef(C->per_floating)) < 0 ||
        set_field(r, 10, PyNumber_TrueDivide(C->per_floating, C->count)) < 0 ||
        set_field(r, 11, PyLong_FromLong(best)) < 0 ||
        set_field(r, 12, basis ? PyUnicode_FromString(basis) : Py_NewRef(Py_None)) < 0 ||
        set_field(r, 13, Py_BuildValue("{s:i,s:i,s:i,s:i,s:L}", "components", M->ncomps,
                                       "boxes", M->nboxes, "clues", M->nclues,
                                       "floating", F->nf, "nodes", nodes)) < 0 ||
        set_field(r, 14, cell_floats(M, F, r, PyFloat_AS_DOUBLE(PyStructSequence_GET_ITEM(r, 10)))) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    return r;
}

/* ------------------------------------------------------------------ the call */
PyDoc_STRVAR(analyze_doc,
"analyze(indptr, indices, states, total, budget, deadline, cancel) -> Answer\n\n"
"indptr, indices: the neighbour lists in CSR form (buffers of int32);\n"
"states: a sequence of cell states (ints: numbers, -1 hidden, -2 mine, -3 blank);\n"
"total: the total mine count or -1; budget: search nodes allowed;\n"
"deadline: time.monotonic() value to stop at (0: none); cancel: a 1-byte buffer or None.\n\n"
"Returns an Answer (a struct sequence): status OK (answered), INCONSISTENT, DECLINED\n"
"(detail says why), TIMEOUT or CANCELLED; the other fields are set when OK.  The model\n"
"and the search run without the GIL; the combination runs with it (Python integers).");

/* The cell states as int8 (the kernel's range); 0, 1 when a number is beyond it (declined),
 * or -1 with an error. */
static int read_states(PyObject *states_fast, int8_t *states8, int n) {
    PyObject **items = PySequence_Fast_ITEMS(states_fast);
    /* A position holds a dozen distinct state objects (CPython's shared small ints): each is
     * converted once, then found by identity in a small cache local to this call. */
    PyObject *seen[16] = {NULL};
    long value[16];
    for (int i = 0; i < n; i++) {
        PyObject *o = items[i];
        unsigned slot = (unsigned)(((uintptr_t)o >> 5) & 15);
        long s;
        if (seen[slot] == o) {
            states8[i] = (int8_t)value[slot];
            continue;
        }
        s = PyLong_AsLong(o);
        if (s == -1 && PyErr_Occurred())
            return -1;
        if (s >= S_BLANK && s <= 127) {
            seen[slot] = o;
            value[slot] = s;
        }
        if (s < S_BLANK) {
            PyErr_Format(PyExc_ValueError, "state %ld of cell %d", s, i);
            return -1;
        }
        if (s > 127)            /* a graph cell of that many neighbours: not the kernel's */
            return 1;
        states8[i] = (int8_t)s;
    }
    return 0;
}

/* The answer of a built model that passed its plan: combine, forced, best (with the GIL). */
static PyObject *analyze_answer(const Model *M, Arena *A, long long total, const Plan *plan,
                                long long nodes) {
    Combined C = {0};
    Forced F = {0};
    PyObject *result = NULL;
    int status = combine(M, A, &C, total, plan);
    if (status == ST_INCONSISTENT)
        result = new_result(AnswerType, ST_INCONSISTENT, "");
    else if (status == ST_OK && forced_by_counts(M, A, &C, &F) == 0) {
        const char *basis;
        int best = best_move(M, &C, &F, &basis);
        if (best >= -1)
            result = answer_of(M, &C, &F, best, basis, nodes);
    }
    combined_free(&C);
    return result;
}

/* The number of cells of a neighbour table given as int32 buffers (indptr: n + 1 offsets
 * into indices) for n states, or -1 with ValueError when they do not fit each other. */
static int csr_cells(Py_ssize_t n_states, const Py_buffer *ipb, const Py_buffer *ixb) {
    if (n_states >= INT32_MAX / 2 || ipb->len != (Py_ssize_t)sizeof(int32_t) * (n_states + 1) ||
        ixb->len % sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "indptr: n + 1 int32 values for n states");
        return -1;
    }
    const int32_t *indptr = ipb->buf;
    if (indptr[0] != 0 || indptr[n_states] != (int32_t)(ixb->len / sizeof(int32_t))) {
        PyErr_SetString(PyExc_ValueError, "indptr does not match indices");
        return -1;
    }
    return (int)n_states;
}

static PyObject *kernel_analyze(PyObject *self, PyObject *args) {
    Py_buffer ipb = {0}, ixb = {0}, cancelb = {0};
    PyObject *states_obj, *cancel_obj, *result = NULL, *states_fast = NULL;
    long long total, budget;
    double deadline;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*OLLdO", &ipb, &ixb, &states_obj, &total, &budget,
                          &deadline, &cancel_obj))
        return NULL;
    Arena A = {0};
    Poll pl = {deadline, NULL, 0};
    if (watch_cancel(cancel_obj, &cancelb, &pl) < 0)
        goto done;
    states_fast = PySequence_Fast(states_obj, "states: a sequence of ints");
    if (!states_fast)
        goto done;
    int n = csr_cells(PySequence_Fast_GET_SIZE(states_fast), &ipb, &ixb);
    if (n < 0)
        goto done;
    const int32_t *indptr = ipb.buf, *indices = ixb.buf;
    int8_t *states8 = NEW(&A, int8_t, n);
    if (!states8) {
        PyErr_NoMemory();
        goto done;
    }
    int read = read_states(states_fast, states8, n);
    if (read != 0) {
        if (read > 0)
            result = new_result(AnswerType, ST_DECLINED, "a number above 127");
        goto done;
    }
    Model M;
    Plan plan = {-1, 0};
    const char *why = "";
    long long nodes_left = budget;
    int built;
    Py_BEGIN_ALLOW_THREADS      /* the model and the search: C data only */
    built = build_model(&M, &A, &pl, indptr, indices, n, states8, &nodes_left,
                        total >= 0 ? MAX_FLOATING_COMBINED : -1, &why);
    if (built == ST_OK)
        built = combine_plan(&M, total, &plan, &why);
    Py_END_ALLOW_THREADS
    if (built < 0)
        PyErr_NoMemory();
    else if (built != ST_OK)
        result = new_result(AnswerType, built, built == ST_INCONSISTENT ? "" : why);
    else
        result = analyze_answer(&M, &A, total, &plan, budget - nodes_left);
done:
    Py_XDECREF(states_fast);
    arena_free(&A);
    PyBuffer_Release(&ipb);
    PyBuffer_Release(&ixb);
    if (cancelb.obj)
        PyBuffer_Release(&cancelb);
    return result;
}

/* ------------------------------------------------------------------ forced cells, no counts */
/* The sumset of two sets of mine counts (bool arrays of lengths la and lb). */
static uint8_t *sumset(Arena *A, const uint8_t *a, int la, const uint8_t *b, int lb) {
    uint8_t *out = NEW(A, uint8_t, la + lb);
    if (!out)
        return NULL;
    for (int i = 0; i < la; i++)
        if (a[i])
            for (int j = 0; j < lb; j++)
                if (b[j])
                    out[i + j] = 1;
    return out;
}

/* Whether the bool array v (length len) has a 1 in [lo, hi]. */
static int any_in(const uint8_t *v, int len, long long lo, long long hi) {
    if (lo < 0)
        lo = 0;
    if (hi > len - 1)
        hi = len - 1;
    for (long long i = lo; i <= hi; i++)
        if (v[i])
            return 1;
    return 0;
}

/* Every hidden cell forced safe (0) or mined (1) in a built model, else -1, in `forced`;
 * decided without big integers: a box is safe when no feasible mine count of its component
 * puts a mine on it, where a count t is feasible when the other components and the floating
 * cells can take the rest of the total.  Returns ST_OK, ST_INCONSISTENT, or -1 (memory). */
static int forced_cells(Model *M, Arena *A, long long total, int8_t *forced) {
    int n = M->n, nc = M->ncomps, F = M->nfloat;
    uint8_t **feasible = NEW(A, uint8_t *, nc + 1);
    if (!feasible)
        return -1;
    int float_mine = F > 0, float_safe = F > 0;
    /* sup[c]: the mine counts component c can take */
    uint8_t **sup = NEW(A, uint8_t *, nc + 1);
    if (!sup)
        return -1;
    for (int c = 0; c < nc; c++) {
        Part *p = &M->parts[c];
        sup[c] = NEW(A, uint8_t, p->cells + 1);
        if (!sup[c])
            return -1;
        for (int t = p->lo; t <= p->hi; t++)
            sup[c][t] = p->total[t] != 0;
    }
    if (total < 0) {
        for (int c = 0; c < nc; c++)
            feasible[c] = sup[c];      /* without a total the components are independent */
    } else {
        long long R = total - M->flagged - M->nmines;
        /* prefix[c]: the counts the components before c can take together (suffix: after) */
        uint8_t **pre = NEW(A, uint8_t *, nc + 1), **suf = NEW(A, uint8_t *, nc + 1);
        int *plen = NEW(A, int, nc + 1), *slen = NEW(A, int, nc + 1);
        uint8_t *one = NEW(A, uint8_t, 1);
        if (!pre || !suf || !plen || !slen || !one)
            return -1;
        one[0] = 1;
        pre[0] = one;
        plen[0] = 1;
        suf[nc] = one;
        slen[nc] = 1;
        for (int c = 0; c < nc; c++) {
            pre[c + 1] = sumset(A, pre[c], plen[c], sup[c], M->parts[c].cells + 1);
            plen[c + 1] = plen[c] + M->parts[c].cells;
            if (!pre[c + 1])
                return -1;
        }
        for (int c = nc - 1; c >= 0; c--) {
            suf[c] = sumset(A, suf[c + 1], slen[c + 1], sup[c], M->parts[c].cells + 1);
            slen[c] = slen[c + 1] + M->parts[c].cells;
            if (!suf[c])
                return -1;
        }
        if (!any_in(pre[nc], plen[nc], R - F, R))
            return ST_INCONSISTENT;
        float_mine = F > 0 && any_in(pre[nc], plen[nc], R - F, R - 1);
        float_safe = F > 0 && any_in(pre[nc], plen[nc], R - F + 1, R);
        for (int c = 0; c < nc; c++) {
            Part *p = &M->parts[c];
            uint8_t *others = sumset(A, pre[c], plen[c], suf[c + 1], slen[c + 1]);
            int olen = plen[c] + slen[c + 1] - 1;
            feasible[c] = NEW(A, uint8_t, p->cells + 1);
            if (!others || !feasible[c])
                return -1;
            for (int t = p->lo; t <= p->hi; t++)
                feasible[c][t] = sup[c][t] && any_in(others, olen, R - t - F, R - t);
        }
    }
    for (int q = 0; q < n; q++)
        forced[q] = -1;
    for (int q = 0; q < n; q++) {
        if (M->P.state[q] != S_HIDDEN)
            continue;
        if (M->P.decided[q] >= 0) {
            forced[q] = M->P.decided[q];
        } else if (M->box_of[q] < 0) {
            forced[q] = float_mine && float_safe ? -1 : float_mine ? 1 : 0;
        }
    }
    for (int b = 0; b < M->nboxes; b++) {
        int c = M->comp_of_box[b];
        Part *p = &M->parts[c];
        int i = M->box_pos[b], L = p->cells + 1, can_mine = 0, can_safe = 0;
        for (int t = p->lo; t <= p->hi; t++) {
            if (!feasible[c][t])
                continue;
            u128 mined = p->mined[(size_t)i * L + t];
            can_mine |= mined != 0;
            can_safe |= mined != p->total[t];
        }
        if (can_mine && can_safe)
            continue;
        for (int e = M->box_ptr[b]; e < M->box_ptr[b + 1]; e++)
            forced[M->box_cells[e]] = can_mine ? 1 : 0;
    }
    return ST_OK;
}

/* ------------------------------------------------------------------ the no-guess player */
PyDoc_STRVAR(solvable_doc,
"solvable(indptr, indices, layout, first, total, budget, deadline, cancel, exact=True)\n"
"    -> (status, left)\n\n"
"Plays the layout (a bytes object, 1 = mine, one byte per cell) from the cell `first`:\n"
"uncover (zeros flood-fill), the two single-number rules, and when they are stuck (and\n"
"`exact` is true) the exact forced cells of the position (under the total), until every\n"
"safe cell is uncovered.\n"
"status 0: solved without a guess; 1: stuck (a guess would be needed); 2: a stuck position\n"
"the kernel declines; 3: timed out; 4: cancelled. `left`: safe cells still covered.");

typedef struct {
    int n;
    const int32_t *indptr, *indices;
    const uint8_t *mine;
    int8_t *state, *number;
    int32_t *need, *covered, *queue, *stack;
    int qtop, left;
} Play;

static void play_uncover(Play *G, int cell) {
    int top = 0;
    G->stack[top++] = cell;
    while (top) {
        int v = G->stack[--top];
        if (G->state[v] != S_HIDDEN)
            continue;
        int k = G->number[v];
        G->state[v] = (int8_t)k;
        G->left--;
        int need = k;
        for (int32_t e = G->indptr[v]; e < G->indptr[v + 1]; e++) {
            int w = G->indices[e];
            G->covered[w]--;
            int8_t t = G->state[w];
            if (t == S_MINE)
                need--;
            else if (t >= 0)
                G->queue[G->qtop++] = w;
            else if (k == 0)
                G->stack[top++] = w;
        }
        G->need[v] = need;
        G->queue[G->qtop++] = v;
    }
}

static void play_flag(Play *G, int cell) {
    if (G->state[cell] != S_HIDDEN)
        return;
    G->state[cell] = S_MINE;
    for (int32_t e = G->indptr[cell]; e < G->indptr[cell + 1]; e++) {
        int w = G->indices[e];
        G->covered[w]--;
        if (G->state[w] >= 0) {
            G->need[w]--;
            G->queue[G->qtop++] = w;
        }
    }
}
#define PLAY_NOMEM (-1)
#define PLAY_CONTRADICTION (-2)

/* The exact forced cells of a stuck position, played; *progress: whether any cell was
 * decided.  ST_OK, a status of build_model that stops the game (ST_DECLINED, ST_TIMEOUT,
 * ST_CANCELLED), PLAY_NOMEM or PLAY_CONTRADICTION. */
static int play_forced(Play *G, Poll *pl, long long total, long long *budget, int8_t *forced,
                       int *progress) {
    Arena B = {0};
    Model M;
    const char *why = "";
    int built = build_model(&M, &B, pl, G->indptr, G->indices, G->n, G->state, budget, -1,
                            &why);
    if (built == ST_OK)
        built = forced_cells(&M, &B, total, forced);
    *progress = 0;
    if (built == ST_OK) {
        for (int q = 0; q < G->n; q++) {
            if (G->state[q] != S_HIDDEN || forced[q] < 0)
                continue;
            *progress = 1;
            if (forced[q] == 1)
                play_flag(G, q);
            else
                play_uncover(G, q);
        }
    }
    arena_free(&B);
    return built < 0 ? PLAY_NOMEM : built == ST_INCONSISTENT ? PLAY_CONTRADICTION : built;
}

/* The game played from G's start to its end: the single-number rules, and when they are
 * stuck (with exact) the exact forced cells.  Pure C: runs without the GIL.  The status
 * (0 solved, 1 stuck, ST_DECLINED, ST_TIMEOUT, ST_CANCELLED) or PLAY_NOMEM /
 * PLAY_CONTRADICTION. */
static int play_out(Play *G, Poll *pl, long long total, long long budget, int exact,
                    int8_t *forced) {
    const int32_t *indptr = G->indptr, *indices = G->indices;
    while (G->left) {
        while (G->qtop) {
            int p = G->queue[--G->qtop];
            if (G->covered[p] == 0)
                continue;
            if (G->need[p] == 0) {
                for (int32_t e = indptr[p]; e < indptr[p + 1]; e++)
                    if (G->state[indices[e]] == S_HIDDEN)
                        play_uncover(G, indices[e]);
            } else if (G->need[p] == G->covered[p]) {
                for (int32_t e = indptr[p]; e < indptr[p + 1]; e++)
                    play_flag(G, indices[e]);
            }
        }
        if (!G->left)
            break;
        if (!exact)             /* the single-number rules alone, and they are stuck */
            return 1;
        int progress, status = play_forced(G, pl, total, &budget, forced, &progress);
        if (status != ST_OK)
            return status;
        if (!progress)
            return 1;
    }
    return 0;
}

/* The game's board: every cell covered, its number counted from the layout.  0, or 1 when a
 * number is beyond the int8 states (declined). */
static int play_setup(Play *G, int *mines) {
    *mines = 0;
    for (int v = 0; v < G->n; v++) {
        G->state[v] = S_HIDDEN;
        G->covered[v] = G->indptr[v + 1] - G->indptr[v];
        *mines += G->mine[v] != 0;
        int k = 0;
        for (int32_t e = G->indptr[v]; e < G->indptr[v + 1]; e++)
            k += G->mine[G->indices[e]] != 0;
        if (k > 127)            /* a number the position's int8 states cannot hold */
            return 1;
        G->number[v] = (int8_t)k;
    }
    return 0;
}

static PyObject *played(int status, int left) {
    PyObject *r = new_result(PlayedType, status, NULL);
    if (r && set_field(r, 1, PyLong_FromLong(left)) < 0)
        Py_CLEAR(r);
    return r;
}

static PyObject *kernel_solvable(PyObject *self, PyObject *args) {
    Py_buffer ipb = {0}, ixb = {0}, lb = {0}, cancelb = {0};
    PyObject *cancel_obj, *result = NULL;
    int first, exact = 1;
    long long total, budget;
    double deadline;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*iLLdO|p", &ipb, &ixb, &lb, &first, &total, &budget,
                          &deadline, &cancel_obj, &exact))
        return NULL;
    Arena A = {0};
    Poll pl = {deadline, NULL, 0};
    if (watch_cancel(cancel_obj, &cancelb, &pl) < 0)
        goto done;
    int n = (int)lb.len;
    const int32_t *indptr = (const int32_t *)ipb.buf, *indices = (const int32_t *)ixb.buf;
    int32_t m = (int32_t)(ixb.len / sizeof(int32_t));
    if (ipb.len != (Py_ssize_t)sizeof(int32_t) * (n + 1) || indptr[0] != 0 || indptr[n] != m ||
        first < 0 || first >= n) {
        PyErr_SetString(PyExc_ValueError, "indptr, indices, layout and first do not match");
        goto done;
    }
    Play G = {0};
    G.n = n;
    G.indptr = indptr;
    G.indices = indices;
    G.mine = (const uint8_t *)lb.buf;
    G.state = NEW(&A, int8_t, n);
    G.number = NEW(&A, int8_t, n);
    G.need = NEW(&A, int32_t, n);
    G.covered = NEW(&A, int32_t, n);
    /* Each cell enters the queue once per change of a neighbour, plus once when uncovered. */
    G.queue = NEW(&A, int32_t, (size_t)2 * m + n + 1);
    G.stack = NEW(&A, int32_t, (size_t)m + n + 1);
    int8_t *forced = NEW(&A, int8_t, n);
    if (!G.state || !G.number || !G.need || !G.covered || !G.queue || !G.stack || !forced) {
        PyErr_NoMemory();
        goto done;
    }
    int mines;
    if (play_setup(&G, &mines)) {
        result = played(ST_DECLINED, 0);
        goto done;
    }
    if (G.mine[first]) {
        result = played(1, n - mines);
        goto done;
    }
    G.left = n - mines;
    int status;
    Py_BEGIN_ALLOW_THREADS      /* the whole game: C data only */
    play_uncover(&G, first);
    status = play_out(&G, &pl, total, budget, exact, forced);
    Py_END_ALLOW_THREADS
    if (status == PLAY_NOMEM)
        PyErr_NoMemory();
    else if (status == PLAY_CONTRADICTION)
        PyErr_SetString(PyExc_ValueError, "the layout contradicts its own numbers");
    else
        result = played(status, G.left);
done:
    arena_free(&A);
    PyBuffer_Release(&ipb);
    PyBuffer_Release(&ixb);
    PyBuffer_Release(&lb);
    if (cancelb.obj)
        PyBuffer_Release(&cancelb);
    return result;
}
/* ------------------------------------------------------------------ constraints.build_system's reasoning */
PyDoc_STRVAR(reasoning_doc,
"reasoning(indptr, indices, states, propagate) -> tuple or None\n\n"
"The first two steps of constraints.build_system in C: the numbers with hidden neighbours\n"
"(_open_numbers) and, when propagate is true, the two trivial rules to their fixpoint\n"
"(_propagate).  Returns (opened, need, unknown, cells, mines, clues, failed): the numbers\n"
"with hidden neighbours, increasing; each cell's need and undecided hidden neighbours (n\n"
"values each, 0 on cells that are not such numbers); the decisions in order (the cell, 1\n"
"for a mine, the number that decided it); all native int32 bytes but mines (one byte\n"
"each); failed, the first number found unsatisfiable or -1.  None when a state is outside\n"
"the kernel's int8 range (a number above 127): the Python steps answer then.");

/* _open_numbers: need and undecided hidden neighbours of every number with hidden
 * neighbours, listed increasing in opened; the first number without hidden neighbours whose
 * need is not met is *failed.  Returns how many were opened. */
static int open_numbers(Position *P, int32_t *opened, int *failed) {
    int nopened = 0;
    *failed = -1;
    for (int p = 0; p < P->n; p++) {
        int8_t s = P->state[p];
        if (s < 0)
            continue;
        int need = s, left = 0;
        for (int32_t e = P->indptr[p]; e < P->indptr[p + 1]; e++) {
            int8_t t = P->state[P->indices[e]];
            left += t == S_HIDDEN;
            need -= t == S_MINE;
        }
        if (left) {
            P->need[p] = need;
            P->left[p] = left;
            opened[nopened++] = p;
        } else if (need != 0 && *failed < 0) {
            *failed = p;
        }
    }
    return nopened;
}

/* The answer's tuple of bytes (NULL with an error). */
static PyObject *reasoning_answer(const Position *P, const int32_t *opened, int nopened,
                                  const Trace *T, int failed) {
    return Py_BuildValue("(y#y#y#y#y#y#i)",
                         (const char *)opened, (Py_ssize_t)nopened * 4,
                         (const char *)P->need, (Py_ssize_t)P->n * 4,
                         (const char *)P->left, (Py_ssize_t)P->n * 4,
                         (const char *)T->cell, (Py_ssize_t)T->n * 4,
                         (const char *)T->mine, (Py_ssize_t)T->n,
                         (const char *)T->clue, (Py_ssize_t)T->n * 4, failed);
}

static PyObject *kernel_reasoning(PyObject *self, PyObject *args) {
    Py_buffer ipb = {0}, ixb = {0};
    PyObject *states_obj, *states_fast = NULL, *result = NULL;
    int run;
    Arena A = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*Op", &ipb, &ixb, &states_obj, &run))
        return NULL;
    states_fast = PySequence_Fast(states_obj, "states: a sequence of ints");
    if (!states_fast)
        goto done;
    int n = csr_cells(PySequence_Fast_GET_SIZE(states_fast), &ipb, &ixb);
    if (n < 0)
        goto done;
    const int32_t *indptr = ipb.buf, *indices = ixb.buf;
    Position P = {n, indptr, indices, NEW(&A, int8_t, n), NEW(&A, int8_t, n),
                  NEW(&A, int32_t, n), NEW(&A, int32_t, n)};
    int32_t *opened = NEW(&A, int32_t, n), *stack = NEW(&A, int32_t, (size_t)indptr[n] + n + 1);
    Trace T = {NEW(&A, int32_t, n), NEW(&A, int32_t, n), NEW(&A, uint8_t, n), 0};
    if (!P.state || !P.decided || !P.need || !P.left || !opened || !stack || !T.cell ||
        !T.clue || !T.mine) {
        PyErr_NoMemory();
        goto done;
    }
    int read = read_states(states_fast, P.state, n);
    if (read != 0) {
        if (read > 0)
            result = Py_NewRef(Py_None);
        goto done;
    }
    int failed, nopened;
    Py_BEGIN_ALLOW_THREADS      /* C data only */
    memset(P.decided, 0xff, (size_t)n);
    nopened = open_numbers(&P, opened, &failed);
    if (run && failed < 0) {
        for (int k = 0; k < nopened; k++)       /* popped from the end: increasing order */
            stack[k] = opened[nopened - 1 - k];
        failed = propagate(&P, stack, nopened, &T);
    }
    Py_END_ALLOW_THREADS
    result = reasoning_answer(&P, opened, nopened, &T, failed);
done:
    Py_XDECREF(states_fast);
    arena_free(&A);
    PyBuffer_Release(&ipb);
    PyBuffer_Release(&ixb);
    return result;
}

/* ------------------------------------------------------------------ the neighbour table */
static PyObject *kernel_csr(PyObject *self, PyObject *neighbors) {
    (void)self;
    PyObject *outer = PySequence_Fast(neighbors, "neighbors: a sequence of sequences of ints");
    if (!outer)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(outer), m = 0;
    PyObject **rows = PySequence_Fast_ITEMS(outer), *result = NULL;
    PyObject *indptr = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int32_t));
    PyObject *indices = NULL;
    if (!indptr)
        goto done;
    int32_t *ip = (int32_t *)PyBytes_AS_STRING(indptr);
    ip[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t len = PySequence_Length(rows[i]);
        if (len < 0)
            goto done;
        m += len;
        if (m > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError, "neighbors: too many entries");
            goto done;
        }
        ip[i + 1] = (int32_t)m;
    }
    indices = PyBytes_FromStringAndSize(NULL, m * (Py_ssize_t)sizeof(int32_t));
    if (!indices)
        goto done;
    int32_t *ix = (int32_t *)PyBytes_AS_STRING(indices);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PySequence_Fast(rows[i], "neighbors: a sequence of sequences of ints");
        if (!row)
            goto done;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(row);
        PyObject **items = PySequence_Fast_ITEMS(row);
        for (Py_ssize_t j = 0; j < len; j++) {
            long v = PyLong_AsLong(items[j]);
            if ((v == -1 && PyErr_Occurred()) || v < 0 || v >= n) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_ValueError, "neighbors: %ld is not a cell", v);
                Py_DECREF(row);
                goto done;
            }
            ix[ip[i] + j] = (int32_t)v;
        }
        Py_DECREF(row);
    }
    result = PyTuple_Pack(2, indptr, indices);
done:
    Py_XDECREF(indptr);
    Py_XDECREF(indices);
    Py_DECREF(outer);
    return result;
}


/* ------------------------------------------------------------------ assemble */
PyDoc_STRVAR(assemble_doc,
"assemble(indptr, indices, states, decided, opened, need, unknown, failed) -> tuple\n"
"\n"
"constraints._assemble's steps in C, from propagation's result: decided holds one byte per\n"
"cell (0 undecided, 1 safe, 2 mine), opened the numbers with hidden neighbours (increasing),\n"
"need and unknown each number's need and undecided hidden neighbours (sequences of n).\n"
"Returns (box_cells, box_clues, clue_cells, clue_needs, clue_boxes, comp_boxes, comp_clues,\n"
"comp_keys, hidden, floating, failed): the active clues in cell order, the boxes (cells next\n"
"to the same active clues) by first cell, the components by first box with their canonical\n"
"keys, every hidden cell, the floating cells, and the first number that cannot be\n"
"satisfied (failed, else -1).  The work runs without the GIL.");

/* The model of _assemble in flat arrays (cells, clues and boxes by index; lists in CSR). */
typedef struct {
    int n, nclues, nboxes, ncomps, nhidden, nfloat, failed;
    const int32_t *indptr, *indices;
    const int8_t *state, *decided;
    int *clue_cell, *clue_need;
    int *touch_ptr, *touch;         /* per cell, its active clues in increasing order */
    int *hidden, *floating, *box_of;
    int *box_ptr, *box_cells, *box_rep;     /* box_rep: a cell of the box (its clues: touch) */
    int *cb_ptr, *cb;               /* per clue, its boxes */
    int *comp_ptr, *comp_boxes, *local, *cc_ptr, *comp_clues;
} Assembly;

/* The active clues (numbers with undecided hidden neighbours, in order), the first number
 * that cannot be satisfied, and every undecided hidden cell's clues.  0, -1 out of memory. */
static int assemble_clues(Assembly *S, const int *opened, int nopened, const int *need,
                          const int *left, Arena *A) {
    int n = S->n;
    const int32_t *ip = S->indptr, *ix = S->indices;
    S->clue_cell = NEW(A, int, nopened + 1);
    S->clue_need = NEW(A, int, nopened + 1);
    S->touch_ptr = NEW(A, int, n + 1);
    if (!S->clue_cell || !S->clue_need || !S->touch_ptr)
        return -1;
    for (int i = 0; i < nopened; i++) {
        int p = opened[i];
        if (!left[i]) {
            if (need[i] != 0 && S->failed < 0)
                S->failed = p;
            continue;
        }
        if ((need[i] < 0 || need[i] > left[i]) && S->failed < 0)
            S->failed = p;
        S->clue_cell[S->nclues] = p;
        S->clue_need[S->nclues++] = need[i];
        for (int e = ip[p]; e < ip[p + 1]; e++)
            if (S->state[ix[e]] == S_HIDDEN && !S->decided[ix[e]])
                S->touch_ptr[ix[e] + 1]++;
    }
    for (int q = 0; q < n; q++)
        S->touch_ptr[q + 1] += S->touch_ptr[q];
    int *fill = NEW(A, int, n + 1);
    S->touch = NEW(A, int, S->touch_ptr[n] + 1);
    if (!fill || !S->touch)
        return -1;
    for (int k = 0; k < S->nclues; k++) {
        int p = S->clue_cell[k];
        for (int e = ip[p]; e < ip[p + 1]; e++) {
            int q = ix[e];
            if (S->state[q] == S_HIDDEN && !S->decided[q])
                S->touch[S->touch_ptr[q] + fill[q]++] = k;
        }
    }
    return 0;
}

/* Whether cells a and b are next to exactly the same active clues. */
static int same_touch(const Assembly *S, int a, int b) {
    int la = S->touch_ptr[a + 1] - S->touch_ptr[a];
    return la == S->touch_ptr[b + 1] - S->touch_ptr[b] &&
        !memcmp(S->touch + S->touch_ptr[a], S->touch + S->touch_ptr[b], sizeof(int) * (size_t)la);
}

/* The hidden and floating cells, and the boxes: the undecided hidden cells grouped by their
 * clues, each box numbered at its first cell, its cells increasing; then each clue's boxes.
 * 0, -1 out of memory. */
static int assemble_boxes(Assembly *S, Arena *A) {
    int n = S->n, tsize = 16;
    for (; tsize < 2 * (S->touch_ptr[n] + 1); tsize <<= 1)
        ;
    int *table = NEW(A, int, tsize), *size = NEW(A, int, n + 1);
    S->hidden = NEW(A, int, n + 1);
    S->floating = NEW(A, int, n + 1);
    S->box_of = NEW(A, int, n + 1);
    S->box_rep = NEW(A, int, n + 1);
    if (!table || !size || !S->hidden || !S->floating || !S->box_of || !S->box_rep)
        return -1;
    memset(table, 0xff, sizeof(int) * (size_t)tsize);
    for (int q = 0; q < n; q++) {
        S->box_of[q] = -1;
        if (S->state[q] != S_HIDDEN)
            continue;
        S->hidden[S->nhidden++] = q;
        int t0 = S->touch_ptr[q], t1 = S->touch_ptr[q + 1];
        if (t0 == t1) {
            if (!S->decided[q])
                S->floating[S->nfloat++] = q;
            continue;
        }
        uint64_t h = 1469598103934665603ULL;
        for (int e = t0; e < t1; e++)
            h = (h ^ (uint64_t)S->touch[e]) * 1099511628211ULL;
        int slot = (int)(h & (uint64_t)(tsize - 1));
        while (table[slot] >= 0 && !same_touch(S, S->box_rep[table[slot]], q))
            slot = (slot + 1) & (tsize - 1);
        if (table[slot] < 0) {
            table[slot] = S->nboxes;
            S->box_rep[S->nboxes++] = q;
        }
        S->box_of[q] = table[slot];
        size[table[slot]]++;
    }
    S->box_ptr = NEW(A, int, S->nboxes + 1);
    S->box_cells = NEW(A, int, S->nhidden + 1);
    S->cb_ptr = NEW(A, int, S->nclues + 1);
    int *fill = NEW(A, int, (S->nboxes > S->nclues ? S->nboxes : S->nclues) + 1);
    if (!S->box_ptr || !S->box_cells || !S->cb_ptr || !fill)
        return -1;
    for (int b = 0; b < S->nboxes; b++)
        S->box_ptr[b + 1] = S->box_ptr[b] + size[b];
    for (int q = 0; q < n; q++)
        if (S->box_of[q] >= 0)
            S->box_cells[S->box_ptr[S->box_of[q]] + fill[S->box_of[q]]++] = q;
    for (int b = 0; b < S->nboxes; b++)
        for (int e = S->touch_ptr[S->box_rep[b]]; e < S->touch_ptr[S->box_rep[b] + 1]; e++)
            S->cb_ptr[S->touch[e] + 1]++;
    for (int k = 0; k < S->nclues; k++)
        S->cb_ptr[k + 1] += S->cb_ptr[k];
    S->cb = NEW(A, int, S->cb_ptr[S->nclues] + 1);
    if (!S->cb)
        return -1;
    memset(fill, 0, sizeof(int) * (size_t)(S->nclues + 1));
    for (int b = 0; b < S->nboxes; b++)
        for (int e = S->touch_ptr[S->box_rep[b]]; e < S->touch_ptr[S->box_rep[b] + 1]; e++)
            S->cb[S->cb_ptr[S->touch[e]] + fill[S->touch[e]]++] = b;
    return 0;
}

/* The components: boxes joined through shared clues, numbered by their first box, each
 * with its boxes and clues increasing and every box's local index.  0, -1 out of memory. */
static int assemble_components(Assembly *S, Arena *A) {
    int B = S->nboxes, J = S->nclues;
    int *parent = NEW(A, int, B + 1), *comp = NEW(A, int, B + 1), *fill = NEW(A, int, B + 1);
    int *comp_of_clue = NEW(A, int, J + 1);
    S->comp_ptr = NEW(A, int, B + 2);
    S->cc_ptr = NEW(A, int, B + 2);
    S->comp_boxes = NEW(A, int, B + 1);
    S->local = NEW(A, int, B + 1);
    S->comp_clues = NEW(A, int, J + 1);
    if (!parent || !comp || !fill || !comp_of_clue || !S->comp_ptr || !S->cc_ptr ||
        !S->comp_boxes || !S->local || !S->comp_clues)
        return -1;
    for (int b = 0; b < B; b++)
        parent[b] = b;
    for (int k = 0; k < J; k++)
        for (int e = S->cb_ptr[k] + 1; e < S->cb_ptr[k + 1]; e++) {
            int ra = uf_find(parent, S->cb[S->cb_ptr[k]]), rb = uf_find(parent, S->cb[e]);
            if (ra != rb)
                parent[rb] = ra;
        }
    for (int b = 0; b < B; b++)
        comp[b] = -1;
    for (int b = 0; b < B; b++) {       /* numbered by first box */
        int r = uf_find(parent, b);
        if (comp[r] < 0)
            comp[r] = S->ncomps++;
        S->comp_ptr[comp[r] + 1]++;
    }
    for (int c = 0; c < S->ncomps; c++)
        S->comp_ptr[c + 1] += S->comp_ptr[c];
    for (int b = 0; b < B; b++) {
        int c = comp[uf_find(parent, b)];
        S->local[b] = fill[c]++;
        S->comp_boxes[S->comp_ptr[c] + S->local[b]] = b;
    }
    for (int k = 0; k < J; k++) {
        comp_of_clue[k] = comp[uf_find(parent, S->cb[S->cb_ptr[k]])];
        S->cc_ptr[comp_of_clue[k] + 1]++;
    }
    for (int c = 0; c < S->ncomps; c++)
        S->cc_ptr[c + 1] += S->cc_ptr[c];
    memset(fill, 0, sizeof(int) * (size_t)(B + 1));
    for (int k = 0; k < J; k++)
        S->comp_clues[S->cc_ptr[comp_of_clue[k]] + fill[comp_of_clue[k]]++] = k;
    return 0;
}

/* The int object of value i < size, made once and shared (cells, boxes and clues appear in
 * several tuples: one object each, as the Python steps share theirs).  New reference. */
typedef struct {
    PyObject **obj;
    int size;
} Ints;

static PyObject *shared_int(Ints *I, int i) {
    if (i < 0 || i >= I->size)
        return PyLong_FromLong(i);
    if (!I->obj[i])
        I->obj[i] = PyLong_FromLong(i);
    Py_XINCREF(I->obj[i]);
    return I->obj[i];
}

/* A tuple of ints: v[0..len) mapped through map (when given), from I. */
static PyObject *int_tuple(const int *v, int len, const int *map, Ints *I) {
    PyObject *t = PyTuple_New(len);
    for (int i = 0; t && i < len; i++) {
        PyObject *x = shared_int(I, map ? map[v[i]] : v[i]);
        if (!x)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* A list of count tuples, tuple i being v[ptr[i]..ptr[i + 1]) mapped through map. */
static PyObject *tuple_list(const int *ptr, const int *v, int count, const int *map, Ints *I) {
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++) {
        PyObject *t = int_tuple(v + ptr[i], ptr[i + 1] - ptr[i], map, I);
        if (!t)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, t);
    }
    return list;
}

/* ---------------------------------------------------------------- grid tables
 * topology.grid_neighbors's twin: the sorted neighbour tuples of a rows x cols grid whose
 * cells fall in classes (none, by (r + c) % 2, or by r % 2), each class with its offsets as
 * topology.py defines them (passed in, so the offsets live in one place). */

enum { PARITY_NONE = 0, PARITY_SUM = 1, PARITY_ROW = 2, GRID_MAX_OFFSETS = 16 };

typedef struct {
    int count[2];
    int dr[2][GRID_MAX_OFFSETS], dc[2][GRID_MAX_OFFSETS];
} GridOffsets;

/* Reads ((dr, dc), ...) per class; 0, or -1 with an exception set. */
static int grid_offsets(PyObject *classes, GridOffsets *G) {
    Py_ssize_t k = PyTuple_Check(classes) ? PyTuple_GET_SIZE(classes) : 0;
    if (k < 1 || k > 2) {
        PyErr_SetString(PyExc_ValueError, "offsets: a tuple of one or two classes");
        return -1;
    }
    for (int c = 0; c < 2; c++) {
        PyObject *list = PyTuple_GET_ITEM(classes, c < k ? c : 0);
        Py_ssize_t m = PyTuple_Check(list) ? PyTuple_GET_SIZE(list) : -1;
        if (m < 0 || m > GRID_MAX_OFFSETS) {
            PyErr_SetString(PyExc_ValueError, "offsets: at most 16 (dr, dc) pairs per class");
            return -1;
        }
        G->count[c] = (int)m;
        for (Py_ssize_t j = 0; j < m; j++)
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(list, j), "ii", &G->dr[c][j], &G->dc[c][j]))
                return -1;
    }
    return 0;
}

/* Cell (r, c)'s neighbours, sorted and without repeats or itself; their number. */
static int grid_row(const GridOffsets *G, int parity, int wrap, int rows, int cols, int r, int c,
                    int *out) {
    int k = parity == PARITY_SUM ? (r + c) % 2 : parity == PARITY_ROW ? r % 2 : 0, n = 0;
    for (int j = 0; j < G->count[k]; j++) {
        int rr = r + G->dr[k][j], cc = c + G->dc[k][j];
        if (wrap) {
            rr = ((rr % rows) + rows) % rows;
            cc = ((cc % cols) + cols) % cols;
        } else if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) {
            continue;
        }
        int v = rr * cols + cc, at = n;
        if (v == r * cols + c)
            continue;
        while (at > 0 && out[at - 1] > v)
            at--;
        if (at > 0 && out[at - 1] == v)
            continue;
        memmove(out + at + 1, out + at, sizeof(int) * (size_t)(n - at));
        out[at] = v;
        n++;
    }
    return n;
}

static PyObject *kernel_grid_table(PyObject *self, PyObject *args) {
    (void)self;
    int rows, cols, wrap, parity;
    PyObject *classes;
    GridOffsets G;
    if (!PyArg_ParseTuple(args, "iipiO", &rows, &cols, &wrap, &parity, &classes)
        || grid_offsets(classes, &G) < 0)
        return NULL;
    if (rows < 0 || cols < 0 || (long long)rows * cols > INT32_MAX
        || parity < PARITY_NONE || parity > PARITY_ROW) {
        PyErr_SetString(PyExc_ValueError, "grid_table: a size of at most 2**31 - 1 cells");
        return NULL;
    }
    int n = rows * cols, row[GRID_MAX_OFFSETS];
    Ints I = {PyMem_Calloc((size_t)n + 1, sizeof(PyObject *)), n};
    PyObject *table = I.obj ? PyTuple_New(n) : PyErr_NoMemory();
    for (int r = 0; table && r < rows; r++)
        for (int c = 0; table && c < cols; c++) {
            int len = grid_row(&G, parity, wrap, rows, cols, r, c, row);
            PyObject *t = int_tuple(row, len, NULL, &I);
            if (!t)
                Py_CLEAR(table);
            else
                PyTuple_SET_ITEM(table, r * cols + c, t);
        }
    for (int i = 0; I.obj && i < n; i++)
        Py_XDECREF(I.obj[i]);
    PyMem_Free(I.obj);
    return table;
}

/* Each component's canonical key: its boxes' sizes, and each clue's (need, local boxes). */
static PyObject *component_keys(const Assembly *S, Ints *I) {
    PyObject *keys = PyList_New(S->ncomps);
    for (int c = 0; keys && c < S->ncomps; c++) {
        int nb = S->comp_ptr[c + 1] - S->comp_ptr[c], nk = S->cc_ptr[c + 1] - S->cc_ptr[c];
        PyObject *sizes = PyTuple_New(nb), *clues = PyTuple_New(nk), *key = NULL;
        for (int i = 0; sizes && i < nb; i++) {
            int b = S->comp_boxes[S->comp_ptr[c] + i];
            PyObject *x = shared_int(I, S->box_ptr[b + 1] - S->box_ptr[b]);
            if (!x)
                Py_CLEAR(sizes);
            else
                PyTuple_SET_ITEM(sizes, i, x);
        }
        for (int i = 0; sizes && clues && i < nk; i++) {
            int k = S->comp_clues[S->cc_ptr[c] + i];
            PyObject *boxes = int_tuple(S->cb + S->cb_ptr[k], S->cb_ptr[k + 1] - S->cb_ptr[k],
                                        S->local, I);
            PyObject *pair = boxes ? Py_BuildValue("(iN)", S->clue_need[k], boxes) : NULL;
            if (!pair)
                Py_CLEAR(clues);
            else
                PyTuple_SET_ITEM(clues, i, pair);
        }
        if (sizes && clues)
            key = PyTuple_Pack(2, sizes, clues);
        Py_XDECREF(sizes);
        Py_XDECREF(clues);
        if (!key)
            Py_CLEAR(keys);
        else
            PyList_SET_ITEM(keys, c, key);
    }
    return keys;
}

/* The Python answer of assemble (see assemble_doc). */
static PyObject *assembly_answer(const Assembly *S, Arena *A) {
    int *box_clue_ptr = NEW(A, int, S->nboxes + 1), *box_clues = NEW(A, int, S->touch_ptr[S->n] + 1);
    Ints I = {NEW(A, PyObject *, S->n + 1), S->n + 1};
    if (!box_clue_ptr || !box_clues || !I.obj)
        return PyErr_NoMemory();
    for (int b = 0; b < S->nboxes; b++) {
        int r = S->box_rep[b], len = S->touch_ptr[r + 1] - S->touch_ptr[r];
        box_clue_ptr[b + 1] = box_clue_ptr[b] + len;
        memcpy(box_clues + box_clue_ptr[b], S->touch + S->touch_ptr[r], sizeof(int) * (size_t)len);
    }
    PyObject *parts[10] = {
        tuple_list(S->box_ptr, S->box_cells, S->nboxes, NULL, &I),
        tuple_list(box_clue_ptr, box_clues, S->nboxes, NULL, &I),
        int_tuple(S->clue_cell, S->nclues, NULL, &I), int_list(S->clue_need, S->nclues),
        tuple_list(S->cb_ptr, S->cb, S->nclues, NULL, &I),
        tuple_list(S->comp_ptr, S->comp_boxes, S->ncomps, NULL, &I),
        tuple_list(S->cc_ptr, S->comp_clues, S->ncomps, NULL, &I),
        component_keys(S, &I),
        int_tuple(S->hidden, S->nhidden, NULL, &I), int_tuple(S->floating, S->nfloat, NULL, &I)};
    PyObject *out = NULL;
    if (parts[2])               /* the clue cells as a list, as the Python steps give them */
        Py_SETREF(parts[2], PySequence_List(parts[2]));
    int ok = 1;
    for (int i = 0; i < 10; i++)
        ok = ok && parts[i];
    if (ok)
        out = Py_BuildValue("(OOOOOOOOOOi)", parts[0], parts[1], parts[2], parts[3], parts[4],
                            parts[5], parts[6], parts[7], parts[8], parts[9], S->failed);
    for (int i = 0; i < 10; i++)
        Py_XDECREF(parts[i]);
    for (int i = 0; i < I.size; i++)
        Py_XDECREF(I.obj[i]);
    return out;
}

/* Reads `count` ints of a sequence (at the positions `at`, when given) into out.  0, -1. */
static int read_ints(PyObject *fast, const int *at, int count, int *out) {
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    for (int i = 0; i < count; i++) {
        Py_ssize_t j = at ? at[i] : i;
        if (j >= len) {
            PyErr_SetString(PyExc_ValueError, "assemble: a number past need or unknown");
            return -1;
        }
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < INT_MIN / 2 || v > INT_MAX / 2) {
            PyErr_SetString(PyExc_OverflowError, "assemble: a value out of range");
            return -1;
        }
        out[i] = (int)v;
    }
    return 0;
}

static PyObject *kernel_assemble(PyObject *self, PyObject *args) {
    Py_buffer ipb = {0}, ixb = {0}, db = {0};
    PyObject *states_obj, *opened_obj, *need_obj, *left_obj, *result = NULL;
    PyObject *sf = NULL, *of = NULL, *nf = NULL, *lf = NULL;
    int failed;
    Arena A = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*Oy*OOOi", &ipb, &ixb, &states_obj, &db, &opened_obj,
                          &need_obj, &left_obj, &failed))
        return NULL;
    if (!(sf = PySequence_Fast(states_obj, "states: a sequence of ints"))
        || !(of = PySequence_Fast(opened_obj, "opened: a sequence of ints"))
        || !(nf = PySequence_Fast(need_obj, "need: a sequence of ints"))
        || !(lf = PySequence_Fast(left_obj, "unknown: a sequence of ints")))
        goto done;
    int n = csr_cells(PySequence_Fast_GET_SIZE(sf), &ipb, &ixb);
    if (n < 0)
        goto done;
    if (db.len != n) {
        PyErr_SetString(PyExc_ValueError, "decided: one byte per cell");
        goto done;
    }
    int nopened = (int)PySequence_Fast_GET_SIZE(of);
    int8_t *state = NEW(&A, int8_t, n + 1);
    int *opened = NEW(&A, int, nopened + 1), *need = NEW(&A, int, nopened + 1);
    int *left = NEW(&A, int, nopened + 1);
    if (!state || !opened || !need || !left) {
        PyErr_NoMemory();
        goto done;
    }
    int read = read_states(sf, state, n);
    if (read > 0)
        result = Py_NewRef(Py_None);    /* a number above 127: the Python steps */
    if (read != 0 || read_ints(of, NULL, nopened, opened) < 0)
        goto done;
    for (int i = 0; i < nopened; i++)
        if (opened[i] < 0 || opened[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "opened: a cell out of range");
            goto done;
        }
    if (read_ints(nf, opened, nopened, need) < 0 || read_ints(lf, opened, nopened, left) < 0)
        goto done;
    Assembly S = {.n = n, .failed = failed, .indptr = ipb.buf, .indices = ixb.buf,
                  .state = state, .decided = db.buf};
    int status;
    Py_BEGIN_ALLOW_THREADS      /* C data only */
    status = assemble_clues(&S, opened, nopened, need, left, &A);
    if (status == 0)
        status = assemble_boxes(&S, &A);
    if (status == 0)
        status = assemble_components(&S, &A);
    Py_END_ALLOW_THREADS
    result = status < 0 ? PyErr_NoMemory() : assembly_answer(&S, &A);
done:
    Py_XDECREF(sf);
    Py_XDECREF(of);
    Py_XDECREF(nf);
    Py_XDECREF(lf);
    arena_free(&A);
    PyBuffer_Release(&ipb);
    PyBuffer_Release(&ixb);
    PyBuffer_Release(&db);
    return result;
}

/* ------------------------------------------------------------------ one component on its own */
PyDoc_STRVAR(count_component_doc,
"count_component(sizes, clues, with_total, budget, deadline, cancel, want) -> Component\n"
"\n"
"One component in local numbering (its canonical key): sizes[b] cells in box b, clues as\n"
"(need, boxes) with distinct box indices.  want == -2: count it -> Component(OK, total,\n"
"mined, nodes) where total[t] is the number of assignments with t mines (trimmed; one entry,\n"
"the plain count, without a total) and mined[b][t] the mines in box b summed over them\n"
"(cells + 1 entries, or one); want == -3: the same by the search alone (a benchmark's and\n"
"a test's way to compare the two counts; up to MAX_COMPONENT_CELLS cells).  want >= -1: one\n"
"assignment with `want` mines (any when -1)\n"
"-> completion (mines per box), or status INCONSISTENT.  Otherwise the status says why:\n"
"DECLINED past MAX_WIDE_CELLS cells, 128 bits or the budgets, TIMEOUT, CANCELLED.  The\n"
"search runs without the GIL.");

/* A component's key read from Python: box sizes, and each clue's need and boxes (CSR). */
typedef struct {
    int B, J, cells, edges;
    int *size, *need, *clue_ptr, *clue_box;
} Key;

/* The key, checked: 0, 1 when it is past MAX_WIDE_CELLS (declined), -1 with an error. */
static int read_key(PyObject *sizes_fast, PyObject *clues_fast, Key *K, Arena *A) {
    int B = K->B = (int)PySequence_Fast_GET_SIZE(sizes_fast);
    int J = K->J = (int)PySequence_Fast_GET_SIZE(clues_fast);
    int *mark = NEW(A, int, B + 1);
    K->size = NEW(A, int, B + 1);
    K->clue_ptr = NEW(A, int, J + 1);
    K->need = NEW(A, int, J + 1);
    if (!K->size || !mark || !K->clue_ptr || !K->need)
        return PyErr_NoMemory(), -1;
    for (int b = 0; b < B; b++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(sizes_fast, b));
        if (s == -1 && PyErr_Occurred())
            return -1;
        if (s < 1) {
            PyErr_Format(PyExc_ValueError, "sizes[%d]: a box holds at least one cell", b);
            return -1;
        }
        if (s > MAX_BOX_CELLS || (K->cells += (int)s) > MAX_WIDE_CELLS)
            return 1;
        K->size[b] = (int)s;
    }
    /* The clues' boxes in CSR, checked: in range and distinct within a clue. */
    PyObject **pairs = PySequence_Fast_ITEMS(clues_fast);
    for (int j = 0; j < J; j++) {
        PyObject *boxes = PyTuple_Check(pairs[j]) && PyTuple_GET_SIZE(pairs[j]) == 2
            ? PyTuple_GET_ITEM(pairs[j], 1) : NULL;
        if (!boxes || !PyTuple_Check(boxes)) {
            PyErr_Format(PyExc_TypeError, "clues[%d]: a pair (need, tuple of boxes)", j);
            return -1;
        }
        K->edges += (int)PyTuple_GET_SIZE(boxes);
        K->clue_ptr[j + 1] = K->edges;
    }
    K->clue_box = NEW(A, int, K->edges + 1);
    if (!K->clue_box)
        return PyErr_NoMemory(), -1;
    for (int j = 0; j < J; j++) {
        long nd = PyLong_AsLong(PyTuple_GET_ITEM(pairs[j], 0));
        if (nd == -1 && PyErr_Occurred())
            return -1;
        K->need[j] = nd < -1 ? -1 : nd > 10000 ? 10000 : (int)nd;  /* out of range: unmeetable */
        PyObject *boxes = PyTuple_GET_ITEM(pairs[j], 1);
        for (int e = K->clue_ptr[j]; e < K->clue_ptr[j + 1]; e++) {
            long b = PyLong_AsLong(PyTuple_GET_ITEM(boxes, e - K->clue_ptr[j]));
            if (b == -1 && PyErr_Occurred())
                return -1;
            if (b < 0 || b >= B || mark[b] == j + 1) {
                PyErr_Format(PyExc_ValueError, "clues[%d]: box %ld out of range or repeated", j, b);
                return -1;
            }
            mark[b] = j + 1;
            K->clue_box[e] = (int)b;
        }
    }
    return 0;
}

/* The key as a Part in search order (as model_parts: the clues in order, each adding its
 * boxes not yet placed; boxes of no clue last); pos[b]: box b's search position.  Pure C.
 * ST_OK, ST_INCONSISTENT (a number over no box that needs mines) or -1. */
static int order_key(const Key *K, Part *c, int *pos, Arena *A) {
    int B = K->B, J = K->J;
    c->nboxes = B;
    c->nclues = J;
    c->cells = K->cells;
    c->boxes = NEW(A, int, B + 1);
    c->size = NEW(A, int, B + 1);
    c->clue_ptr = NEW(A, int, B + 1);
    c->clue_of = NEW(A, int, K->edges + 1);
    c->need = K->need;
    c->cap = NEW(A, int, J + 1);
    int *deg = NEW(A, int, B + 1), *fill = NEW(A, int, B + 1);
    if (!c->boxes || !c->size || !c->clue_ptr || !c->clue_of || !c->cap || !deg || !fill)
        return -1;
    int placed = 0;
    for (int b = 0; b < B; b++)
        pos[b] = -1;
    for (int j = 0; j < J; j++) {
        if (K->clue_ptr[j] == K->clue_ptr[j + 1] && K->need[j] != 0)
            return ST_INCONSISTENT;
        for (int e = K->clue_ptr[j]; e < K->clue_ptr[j + 1]; e++) {
            int b = K->clue_box[e];
            c->cap[j] += K->size[b];
            deg[b]++;
            if (pos[b] < 0) {
                pos[b] = placed;
                c->boxes[placed++] = b;
            }
        }
    }
    for (int b = 0; b < B; b++)
        if (pos[b] < 0) {
            pos[b] = placed;
            c->boxes[placed++] = b;
        }
    for (int i = 0; i < B; i++) {
        c->size[i] = K->size[c->boxes[i]];
        c->clue_ptr[i + 1] = c->clue_ptr[i] + deg[c->boxes[i]];
    }
    for (int j = 0; j < J; j++)
        for (int e = K->clue_ptr[j]; e < K->clue_ptr[j + 1]; e++) {
            int i = pos[K->clue_box[e]];
            c->clue_of[c->clue_ptr[i] + fill[i]++] = j;
        }
    return ST_OK;
}

/* The counted component as Component(OK, total, mined, nodes) in the key's box numbering. */
static PyObject *component_counts(const Part *c, const Key *K, const int *pos, int with_total,
                                  long long nodes) {
    int L = K->cells + 1, top = 0, B = K->B;
    for (int t = 0; t < L; t++)
        if (c->total[t])
            top = t;
    int len_total = with_total ? top + 1 : 1, len_mined = with_total ? L : 1;
    PyObject *total_list = PyList_New(len_total), *mined_list = PyList_New(B);
    PyObject *r = new_result(ComponentType, ST_OK, "");
    if (!total_list || !mined_list || !r)
        goto fail;
    u128 sum = 0;
    for (int t = 0; t < L; t++)
        sum += c->total[t];
    for (int t = 0; t < len_total; t++)
        PyList_SET_ITEM(total_list, t, from_u128(with_total ? c->total[t] : sum));
    for (int b = 0; b < B && !PyErr_Occurred(); b++) {
        const u128 *row = &c->mined[(size_t)pos[b] * L];
        PyObject *per_t = PyList_New(len_mined);
        if (!per_t)
            break;
        /* row holds the mines on one cell of the box; the box holds size times that */
        u128 acc = 0;
        for (int t = 0; t < L; t++)
            acc += row[t];
        for (int t = 0; t < len_mined; t++)
            PyList_SET_ITEM(per_t, t, from_u128((with_total ? row[t] : acc) * (u128)K->size[b]));
        PyList_SET_ITEM(mined_list, b, per_t);
    }
    if (PyErr_Occurred())
        goto fail;
    set_field(r, 2, total_list);
    set_field(r, 3, mined_list);
    if (set_field(r, 5, PyLong_FromLongLong(nodes)) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    return r;
fail:
    Py_XDECREF(total_list);
    Py_XDECREF(mined_list);
    Py_XDECREF(r);
    return NULL;
}

/* The component counted, or completed (want >= -1), once its key is read. */
static PyObject *component_answer(const Key *K, Arena *A, Poll *pl, int with_total,
                                  long long budget, int want) {
    Part part = {0}, *c = &part;
    int *pos = NEW(A, int, K->B + 1);
    if (!pos)
        return PyErr_NoMemory();
    if (want >= -1) {
        c->completing = 1;
        c->want = want;
        c->found = NEW(A, int, K->B + 1);
        if (!c->found)
            return PyErr_NoMemory();
    }
    long long nodes = budget;
    int status;
    Py_BEGIN_ALLOW_THREADS      /* the search: C data only */
    status = order_key(K, c, pos, A);
    /* completing, or counting with want == -3: the search alone (up to its 128-bit bound);
     * counting: count_component's choice */
    if (status == ST_OK && (c->completing || want == -3))
        status = c->cells <= MAX_COMPONENT_CELLS ? count_part(c, A, pl, &nodes) : ST_DECLINED;
    else if (status == ST_OK)
        status = count_component(c, A, pl, &nodes);
    Py_END_ALLOW_THREADS
    if (status < 0)
        return PyErr_NoMemory();
    if (status == ST_INCONSISTENT || (status == ST_OK && c->completing && c->lo < 0))
        return new_result(ComponentType, ST_INCONSISTENT, "");
    if (status != ST_OK)
        return new_result(ComponentType, status, status != ST_DECLINED ? why_stopped(status)
                          : c->completing ? WHY_BUDGET : WHY_WIDE);
    if (!c->completing)
        return component_counts(c, K, pos, with_total, budget - nodes);
    PyObject *r = new_result(ComponentType, ST_OK, "");
    int *found = NEW(A, int, K->B + 1);
    if (!found) {
        Py_XDECREF(r);
        return PyErr_NoMemory();
    }
    for (int b = 0; b < K->B; b++)
        found[b] = c->found[pos[b]];
    if (r && set_field(r, 4, int_list(found, K->B)) < 0)
        Py_CLEAR(r);
    return r;
}

static PyObject *kernel_count_component(PyObject *self, PyObject *args) {
    PyObject *sizes_obj, *clues_obj, *cancel_obj;
    int with_total, want;
    long long budget;
    double deadline;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOpLdOi", &sizes_obj, &clues_obj, &with_total, &budget,
                          &deadline, &cancel_obj, &want))
        return NULL;
    PyObject *result = NULL, *sizes_fast = NULL, *clues_fast = NULL;
    Py_buffer cancelb = {0};
    Arena A = {0};
    Poll pl = {deadline, NULL, 0};
    if (watch_cancel(cancel_obj, &cancelb, &pl) < 0)
        goto done;
    sizes_fast = PySequence_Fast(sizes_obj, "sizes: a sequence of ints");
    clues_fast = sizes_fast ? PySequence_Fast(clues_obj, "clues: a sequence of pairs") : NULL;
    if (!clues_fast)
        goto done;
    Key K = {0};
    int read = read_key(sizes_fast, clues_fast, &K, &A);
    if (read > 0)
        result = new_result(ComponentType, ST_DECLINED, WHY_VERY_WIDE);
    else if (read == 0)
        result = component_answer(&K, &A, &pl, with_total, budget, want);
done:
    Py_XDECREF(sizes_fast);
    Py_XDECREF(clues_fast);
    if (cancelb.obj)
        PyBuffer_Release(&cancelb);
    arena_free(&A);
    return result;
}

/* ------------------------------------------------------------------ box_shares */
PyDoc_STRVAR(box_shares_doc,
"box_shares(mined, sizes, totals, likely, shares) -> bytes\n"
"\n"
"engines/dp.py's per-box step of a floating-point answer (_box_value), for the boxes of one\n"
"counted part: per box b, over the mine counts t = likely[j] whose share of the part is\n"
"shares[j] (floats), 0.0 when mined[b][t] == 0 for every t (proven safe), 1.0 when\n"
"mined[b][t] == sizes[b] * totals[t] for every t (proven mines), else\n"
"sum(mined[b][t] / (sizes[b] * totals[t]) * shares[j]) added in that order (each quotient\n"
"correctly rounded, as Python's int / int), at most 1 - 2**-53; NaN when that sum is below\n"
"2**-922 or a total is 0 (the caller answers those boxes exactly).  One native double per box.");

/* mined / ways for ways = size * total, correctly rounded as Python's int / int; clears
 * *zero unless mined == 0 and *full unless mined == ways; *bad when ways == 0.  0, or -1 with
 * an error.  Counts below 2**53 are exact doubles (IEEE division rounds correctly); larger
 * ones go through Python's own division. */
static int box_term(PyObject *m, PyObject *total, long size, double *q, int *zero, int *full,
                    int *bad) {
    int om, ot;
    long long mv = PyLong_AsLongLongAndOverflow(m, &om);
    long long tv = mv == -1 && PyErr_Occurred() ? -1 : PyLong_AsLongLongAndOverflow(total, &ot);
    if (PyErr_Occurred())
        return -1;
    const long long exact = 1LL << 53;
    if (!om && !ot && mv >= 0 && tv > 0 && tv <= exact / size && mv <= exact) {
        long long ways = tv * size;
        *zero &= mv == 0;
        *full &= mv == ways;
        *q = (double)mv / (double)ways;
        return 0;
    }
    PyObject *s = PyLong_FromLong(size), *ways = s ? PyNumber_Multiply(s, total) : NULL;
    Py_XDECREF(s);
    if (!ways)
        return -1;
    int nonzero = PyObject_IsTrue(m), equal = PyObject_RichCompareBool(m, ways, Py_EQ);
    int none = nonzero < 0 || equal < 0 ? -1 : PyObject_Not(ways);
    if (none < 0) {
        Py_DECREF(ways);
        return -1;
    }
    *zero &= !nonzero;
    *full &= equal;
    *q = 0.0;
    if (none) {
        *bad = 1;
    } else {
        PyObject *quotient = PyNumber_TrueDivide(m, ways);
        *q = quotient ? PyFloat_AsDouble(quotient) : -1.0;
        Py_XDECREF(quotient);
    }
    Py_DECREF(ways);
    return PyErr_Occurred() ? -1 : 0;
}

/* One box's value (see box_shares_doc) from its row of mined counts.  0, or -1 with an error. */
static int box_value(PyObject *row, long size, PyObject **totals, Py_ssize_t ntotals,
                     const Py_ssize_t *likely, const double *shares, Py_ssize_t nlikely,
                     double *value) {
    PyObject *fast = PySequence_Fast(row, "mined: a sequence of sequences of ints");
    if (!fast)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    int zero = 1, full = 1, bad = 0;
    double acc = 0.0;
    for (Py_ssize_t j = 0; j < nlikely; j++) {
        Py_ssize_t t = likely[j];
        double q;
        if (t >= len || t >= ntotals) {
            PyErr_Format(PyExc_IndexError, "likely[%zd] = %zd: past mined or totals", j, t);
            Py_DECREF(fast);
            return -1;
        }
        if (box_term(PySequence_Fast_GET_ITEM(fast, t), totals[t], size, &q, &zero, &full,
                     &bad) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        acc += q * shares[j];
    }
    Py_DECREF(fast);
    if (zero)
        *value = 0.0;
    else if (full)
        *value = 1.0;
    else if (bad || !(acc >= 0x1p-922))
        *value = NAN;
    else
        *value = acc < 1.0 - 0x1p-53 ? acc : 1.0 - 0x1p-53;
    return 0;
}

static PyObject *kernel_box_shares(PyObject *self, PyObject *args) {
    PyObject *mined, *sizes, *totals, *likely, *shares, *out = NULL;
    PyObject *mf = NULL, *sf = NULL, *tf = NULL, *lf = NULL, *hf = NULL;
    Py_ssize_t *ts = NULL;
    double *ws = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOO", &mined, &sizes, &totals, &likely, &shares))
        return NULL;
    if (!(mf = PySequence_Fast(mined, "mined: a sequence of sequences of ints"))
        || !(sf = PySequence_Fast(sizes, "sizes: a sequence of ints"))
        || !(tf = PySequence_Fast(totals, "totals: a sequence of ints"))
        || !(lf = PySequence_Fast(likely, "likely: a sequence of ints"))
        || !(hf = PySequence_Fast(shares, "shares: a sequence of floats")))
        goto done;
    Py_ssize_t B = PySequence_Fast_GET_SIZE(mf), J = PySequence_Fast_GET_SIZE(lf);
    if (PySequence_Fast_GET_SIZE(sf) != B || PySequence_Fast_GET_SIZE(hf) != J) {
        PyErr_SetString(PyExc_ValueError, "box_shares: one size per box and one share per count");
        goto done;
    }
    ts = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(J + 1));
    ws = PyMem_Malloc(sizeof(double) * (size_t)(J + 1));
    if (!ts || !ws) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < J; j++) {
        PyObject *share = PySequence_Fast_GET_ITEM(hf, j);
        ts[j] = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(lf, j));
        if ((ts[j] < 0 && !PyErr_Occurred()) || !PyFloat_Check(share)) {
            PyErr_Format(PyExc_ValueError, "likely[%zd] and shares[%zd]: a count >= 0 and a "
                         "float", j, j);
        }
        if (PyErr_Occurred())
            goto done;
        ws[j] = PyFloat_AS_DOUBLE(share);
    }
    out = PyBytes_FromStringAndSize(NULL, B * (Py_ssize_t)sizeof(double));
    double *v = out ? (double *)PyBytes_AS_STRING(out) : NULL;
    for (Py_ssize_t b = 0; b < B && out; b++) {
        long size = PyLong_AsLong(PySequence_Fast_GET_ITEM(sf, b));
        if (size < 1 || size > INT_MAX) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "sizes[%zd]: a box holds at least one cell", b);
            Py_CLEAR(out);
        } else if (box_value(PySequence_Fast_GET_ITEM(mf, b), size, PySequence_Fast_ITEMS(tf),
                             PySequence_Fast_GET_SIZE(tf), ts, ws, J, &v[b]) < 0) {
            Py_CLEAR(out);
        }
    }
done:
    PyMem_Free(ts);
    PyMem_Free(ws);
    Py_XDECREF(mf);
    Py_XDECREF(sf);
    Py_XDECREF(tf);
    Py_XDECREF(lf);
    Py_XDECREF(hf);
    return out;
}

/* ------------------------------------------------------------------ float_dict */
PyDoc_STRVAR(key_hashes_doc,
"key_hashes(keys) -> bytes\n\n"
"The hash of every key (a list of n hashable objects), as n native Py_hash_t values:\n"
"computed once per board shape, so that float_dict inserts without hashing.");

static PyObject *kernel_key_hashes(PyObject *self, PyObject *keys) {
    (void)self;
    if (!PyList_Check(keys)) {
        PyErr_SetString(PyExc_TypeError, "keys: a list");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(keys);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(Py_hash_t));
    if (!out)
        return NULL;
    Py_hash_t *h = (Py_hash_t *)PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++)
        if ((h[i] = PyObject_Hash(PyList_GET_ITEM(keys, i))) == -1) {
            Py_DECREF(out);
            return NULL;
        }
    return out;
}

PyDoc_STRVAR(float_dict_doc,
"float_dict(keys, hashes, cell_floats) -> dict\n\n"
"keys: every cell's key (a list of n objects); hashes: their key_hashes; cell_floats: n\n"
"doubles (Answer.cell_floats).  The dictionary key -> probability of the cells whose value\n"
"is not NaN (the hidden cells), in cell order: Analysis.floats of a kernel answer.");

#define FLOAT_CACHE 64

static PyObject *kernel_float_dict(PyObject *self, PyObject *args) {
    PyObject *keys, *out = NULL, *cache[FLOAT_CACHE] = {NULL};
    Py_buffer fb = {0}, hb = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "O!y*y*", &PyList_Type, &keys, &hb, &fb))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(keys);
    if (fb.len != n * (Py_ssize_t)sizeof(double) || hb.len != n * (Py_ssize_t)sizeof(Py_hash_t)) {
        PyErr_SetString(PyExc_ValueError, "cell_floats and hashes: one value per key");
        goto done;
    }
    const double *v = fb.buf;
    const Py_hash_t *h = hb.buf;
    Py_ssize_t hidden = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        hidden += !isnan(v[i]);
    out = _PyDict_NewPresized(hidden);     /* no resizing on the way */
    for (Py_ssize_t i = 0; i < n && out; i++) {
        if (isnan(v[i]))
            continue;
        /* cells of one box share one float object (a small cache by value) */
        uint64_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        PyObject **slot = &cache[(bits ^ (bits >> 29) ^ (bits >> 47)) % FLOAT_CACHE];
        if (!*slot || PyFloat_AS_DOUBLE(*slot) != v[i]) {
            Py_XDECREF(*slot);
            *slot = PyFloat_FromDouble(v[i]);
        }
        if (!*slot || _PyDict_SetItem_KnownHash(out, PyList_GET_ITEM(keys, i), *slot, h[i]) < 0)
            Py_CLEAR(out);
    }
    for (int i = 0; i < FLOAT_CACHE; i++)
        Py_XDECREF(cache[i]);
done:
    PyBuffer_Release(&fb);
    PyBuffer_Release(&hb);
    return out;
}

static PyMethodDef methods[] = {
    {"float_dict", kernel_float_dict, METH_VARARGS, float_dict_doc},
    {"key_hashes", kernel_key_hashes, METH_O, key_hashes_doc},
    {"analyze", kernel_analyze, METH_VARARGS, analyze_doc},
    {"reasoning", kernel_reasoning, METH_VARARGS, reasoning_doc},
    {"grid_table", kernel_grid_table, METH_VARARGS, "grid_table(rows, cols, wrap, parity, offsets) -> "
     "the neighbour tuples of a grid (topology.grid_neighbors's twin)."},
    {"csr", kernel_csr, METH_O, "csr(neighbors) -> (indptr, indices): the table as int32 bytes."},
    {"solvable", kernel_solvable, METH_VARARGS, solvable_doc},
    {"count_component", kernel_count_component, METH_VARARGS, count_component_doc},
    {"box_shares", kernel_box_shares, METH_VARARGS, box_shares_doc},
    {"assemble", kernel_assemble, METH_VARARGS, assemble_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "minegraph._kernel",
    "The native analysis kernel of minegraph (see minegraph/kernel.py and _kernel.pyi).", -1,
    methods, NULL, NULL, NULL, NULL,
};

/* The module's constants: the one definition of the status codes and the limits, which
 * minegraph/kernel.py reads from here. */
static int add_constants(PyObject *m) {
    static const struct { const char *name; int value; } ints[] = {
        {"OK", ST_OK}, {"INCONSISTENT", ST_INCONSISTENT}, {"DECLINED", ST_DECLINED},
        {"TIMEOUT", ST_TIMEOUT}, {"CANCELLED", ST_CANCELLED},
        {"MAX_COMPONENT_CELLS", MAX_COMPONENT_CELLS}, {"MAX_BOX_CELLS", MAX_BOX_CELLS},
        {"MAX_WIDE_CELLS", MAX_WIDE_CELLS},
        {"PARITY_NONE", PARITY_NONE}, {"PARITY_SUM", PARITY_SUM}, {"PARITY_ROW", PARITY_ROW},
        {"MAX_DEGREE_COMBINED", MAX_DEGREE_COMBINED},
        {"MAX_FLOATING_COMBINED", MAX_FLOATING_COMBINED},
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (PyModule_AddIntConstant(m, ints[i].name, ints[i].value) < 0)
            return -1;
    if (PyModule_AddStringConstant(m, "VERSION", KERNEL_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_HASH", KERNEL_SOURCE_HASH) < 0)
        return -1;
    AnswerType = PyStructSequence_NewType(&answer_desc);
    ComponentType = AnswerType ? PyStructSequence_NewType(&component_desc) : NULL;
    PlayedType = ComponentType ? PyStructSequence_NewType(&played_desc) : NULL;
    if (!PlayedType)
        return -1;
    if (PyModule_AddObjectRef(m, "Answer", (PyObject *)AnswerType) < 0 ||
        PyModule_AddObjectRef(m, "Component", (PyObject *)ComponentType) < 0 ||
        PyModule_AddObjectRef(m, "Played", (PyObject *)PlayedType) < 0)
        return -1;
    return 0;
}

PyMODINIT_FUNC PyInit__kernel(void) {
    init_binomials();
    spares_init();
    PyObject *math = PyImport_ImportModule("math");
    if (!math)
        return NULL;
    math_comb = PyObject_GetAttrString(math, "comb");
    Py_DECREF(math);
    if (!math_comb)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (add_constants(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
