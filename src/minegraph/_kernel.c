/*
 * minegraph._kernel: the native analysis kernel.
 *
 * One call answers a whole position: constraint building, propagation by the two trivial
 * rules, boxes (hidden cells next to exactly the same clues), components, an exact count of
 * every component by a clue-ordered search, and the combination of the components under the
 * total mine count.  The Python modules constraints.py, engines/dp.py and engines/combine.py
 * are the readable reference of the same mathematics; tests/test_kernel.py holds the two
 * equal on thousands of random positions of every topology.
 *
 * Interface (narrow, flat): see analyze_doc below.  The kernel declines (status DECLINED)
 * whatever it is not built for -- a component of more than MAX_COMPONENT_CELLS cells, a search
 * past its node budget, a combination past MAX_DEGREE -- and the caller then runs the Python
 * path.  It never touches signals: it polls the caller's deadline and cancel flag.
 *
 * Counts inside a component are exact unsigned 128-bit integers: a component of c <= 120
 * cells has at most 2**c assignments, so every per-box sum (at most c * 2**c) fits.  The
 * combination runs on Python integers (any size).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#ifndef _WIN32
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <unistd.h>
#define HAVE_SIGINT_GUARD 1
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
typedef struct {
    void **blocks;
    int used, size;
} Arena;

static void *arena_alloc(Arena *a, size_t bytes) {
    if (a->used == a->size) {
        int size = a->size ? 2 * a->size : 64;
        void **blocks = realloc(a->blocks, sizeof(void *) * (size_t)size);
        if (!blocks)
            return NULL;
        a->blocks = blocks;
        a->size = size;
    }
    void *p = calloc(1, bytes ? bytes : 1);
    if (p)
        a->blocks[a->used++] = p;
    return p;
}

static void arena_free(Arena *a) {
    for (int i = 0; i < a->used; i++)
        free(a->blocks[i]);
    free(a->blocks);
}

#define NEW(arena, type, count) ((type *)arena_alloc((arena), sizeof(type) * (size_t)(count)))

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

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

/* Propagation by the two trivial rules from the numbers on the stack, as
 * constraints._propagate does.  Returns the number found unsatisfiable, or -1. */
static int propagate(Position *P, int32_t *stack, int top) {
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

/* ------------------------------------------------------------------ the model of a position */
typedef struct {
    int n, hidden, flagged, nmines, nclues, nboxes, nfloat, nfront, ncomps;
    Position P;
    int *hn;                    /* hidden neighbours of each cell (for ranking) */
    int *clue_id, *clue_cell;
    int *box_of, *box_size, *box_ptr, *box_cells;
    int *comp_of_box, *box_pos;
    Part *parts;
} Model;

/* Constraints, propagation, boxes and components of the position `states` (on the graph in
 * indptr/indices), and every component counted.  Returns ST_OK, ST_INCONSISTENT, ST_DECLINED
 * (why says why), ST_TIMEOUT, ST_CANCELLED, or -1 when out of memory; spends search nodes
 * from *budget.  All memory comes from the arena. */
static int build_model(Model *M, Arena *A, Poll *pl, const int32_t *indptr,
                       const int32_t *indices, int n, const int8_t *states, long long *budget,
                       int max_floating, const char **why) {
    int32_t m = indptr[n];
    Position P = {n, indptr, indices, NULL, NULL, NULL, NULL};
    P.state = NEW(A, int8_t, n);
    P.decided = NEW(A, int8_t, n);
    P.need = NEW(A, int32_t, n);
    P.left = NEW(A, int32_t, n);
    int32_t *stack = NEW(A, int32_t, (size_t)m + n + 1);
    int *hn = NEW(A, int, n);       /* hidden neighbours of each cell (for ranking) */
    if (!P.state || !P.decided || !P.need || !P.left || !stack || !hn)
        return -1;
    for (int i = 0; i < n; i++) {
        P.state[i] = states[i];
        P.decided[i] = -1;
    }
    /* Numbers with hidden neighbours ("open"); a number without any must be met already. */
    int top = 0, hidden = 0, flagged = 0;
    for (int p = 0; p < n; p++) {
        int8_t s = P.state[p];
        if (s == S_HIDDEN)
            hidden++;
        else if (s == S_MINE)
            flagged++;
        int need = s, left = 0, h = 0;
        for (int32_t e = P.indptr[p]; e < P.indptr[p + 1]; e++) {
            int8_t t = P.state[P.indices[e]];
            if (t == S_HIDDEN)
                h++;
            else if (t == S_MINE)
                need--;
        }
        hn[p] = h;
        if (s < 0)
            continue;
        left = h;
        if (!left) {
            if (need != 0)
                return ST_INCONSISTENT;
            continue;
        }
        P.need[p] = need;
        P.left[p] = left;
    }
    /* Open numbers in increasing order first (popped from the end), as the reference does. */
    for (int p = n - 1; p >= 0; p--)
        if (P.state[p] >= 0 && P.left[p] > 0)
            stack[top++] = p;
    if (propagate(&P, stack, top) >= 0)
        return ST_INCONSISTENT;

    /* Active clues: numbers with undecided hidden neighbours, in cell order. */
    int *clue_id = NEW(A, int, n);
    if (!clue_id)
        return -1;
    int nclues = 0;
    for (int p = 0; p < n; p++) {
        clue_id[p] = -1;
        if (P.state[p] >= 0 && P.left[p] > 0) {
            int need = P.need[p];
            if (need < 0 || need > P.left[p])
                return ST_INCONSISTENT;
            clue_id[p] = nclues++;
        } else if (P.state[p] >= 0 && P.need[p] != 0 && hn[p] > 0) {
            return ST_INCONSISTENT;              /* every hidden neighbour decided, need unmet */
        }
    }
    int *clue_cell = NEW(A, int, nclues + 1);
    if (!clue_cell)
        return -1;
    for (int p = 0; p < n; p++)
        if (clue_id[p] >= 0)
            clue_cell[clue_id[p]] = p;

    /* Boxes: undecided hidden cells grouped by the set of active clues around them; boxes are
     * numbered by their first cell.  Signatures go into a hash table. */
    int nsafe = 0, nmines = 0, nfloat = 0, nfront = 0;
    for (int q = 0; q < n; q++) {
        if (P.state[q] != S_HIDDEN)
            continue;
        if (P.decided[q] == 0)
            nsafe++;
        else if (P.decided[q] == 1)
            nmines++;
    }
    int *box_of = NEW(A, int, n);
    int *sig_pool = NEW(A, int, (size_t)m + 1);
    int *sig_start = NEW(A, int, n + 1), *sig_len = NEW(A, int, n + 1);
    int table_size = 16;
    while (table_size < 4 * (hidden + 1))
        table_size <<= 1;
    int *table = NEW(A, int, table_size);
    int *box_size = NEW(A, int, n + 1);
    if (!box_of || !sig_pool || !sig_start || !sig_len || !table || !box_size)
        return -1;
    for (int i = 0; i < table_size; i++)
        table[i] = -1;
    int nboxes = 0, pool_top = 0;
    int sig[256];
    for (int q = 0; q < n; q++) {
        box_of[q] = -1;
        if (P.state[q] != S_HIDDEN || P.decided[q] >= 0)
            continue;
        int len = 0;
        for (int32_t e = P.indptr[q]; e < P.indptr[q + 1]; e++) {
            int c = clue_id[P.indices[e]];
            if (c >= 0) {
                if (len == 256)
                    { *why = "a box or clue too large for the kernel"; return ST_DECLINED; }
                sig[len++] = c;
            }
        }
        if (!len) {
            nfloat++;
            continue;
        }
        nfront++;
        qsort(sig, (size_t)len, sizeof(int), cmp_int);
        uint64_t h = 1469598103934665603ULL ^ (uint64_t)len;
        for (int i = 0; i < len; i++)
            h = (h ^ (uint64_t)sig[i]) * 1099511628211ULL;
        int slot = (int)(h & (uint64_t)(table_size - 1));
        int found = -1;
        while (table[slot] >= 0) {
            int b = table[slot];
            if (sig_len[b] == len && !memcmp(sig_pool + sig_start[b], sig, sizeof(int) * (size_t)len)) {
                found = b;
                break;
            }
            slot = (slot + 1) & (table_size - 1);
        }
        if (found < 0) {
            found = nboxes++;
            table[slot] = found;
            sig_start[found] = pool_top;
            sig_len[found] = len;
            memcpy(sig_pool + pool_top, sig, sizeof(int) * (size_t)len);
            pool_top += len;
        }
        box_of[q] = found;
        box_size[found]++;
        if (box_size[found] > MAX_BOX_CELLS)
            { *why = "a box or clue too large for the kernel"; return ST_DECLINED; }
    }
    if (max_floating >= 0 && nfloat > max_floating) {
        /* Decided before any counting: the caller could not combine the answer anyway. */
        *why = "a combination too large for the kernel";
        return ST_DECLINED;
    }
    /* Box cells in CSR, increasing within each box. */
    int *box_ptr = NEW(A, int, nboxes + 1), *box_cells = NEW(A, int, nfront + 1);
    int *fill = NEW(A, int, nboxes + 1);
    if (!box_ptr || !box_cells || !fill)
        return -1;
    for (int b = 0; b < nboxes; b++)
        box_ptr[b + 1] = box_ptr[b] + box_size[b];
    for (int q = 0; q < n; q++)
        if (box_of[q] >= 0) {
            int b = box_of[q];
            box_cells[box_ptr[b] + fill[b]++] = q;
        }
    /* Clue -> boxes (CSR), and components by union-find over the boxes of each clue. */
    int *cb_ptr = NEW(A, int, nclues + 1), *cb = NEW(A, int, pool_top + 1);
    int *parent = NEW(A, int, nboxes + 1);
    if (!cb_ptr || !cb || !parent)
        return -1;
    for (int b = 0; b < nboxes; b++)
        for (int i = 0; i < sig_len[b]; i++)
            cb_ptr[sig_pool[sig_start[b] + i] + 1]++;
    for (int j = 0; j < nclues; j++)
        cb_ptr[j + 1] += cb_ptr[j];
    memset(fill, 0, sizeof(int) * (size_t)(nboxes + 1));
    int *cfill = NEW(A, int, nclues + 1);
    if (!cfill)
        return -1;
    for (int b = 0; b < nboxes; b++) {
        parent[b] = b;
        for (int i = 0; i < sig_len[b]; i++) {
            int j = sig_pool[sig_start[b] + i];
            cb[cb_ptr[j] + cfill[j]++] = b;
        }
    }
    for (int j = 0; j < nclues; j++)
        for (int e = cb_ptr[j] + 1; e < cb_ptr[j + 1]; e++) {
            int a = uf_find(parent, cb[cb_ptr[j]]), r = uf_find(parent, cb[e]);
            if (a != r)
                parent[r] = a;
        }
    int *comp_of_root = NEW(A, int, nboxes + 1), *comp_of_box = NEW(A, int, nboxes + 1);
    if (!comp_of_root || !comp_of_box)
        return -1;
    int ncomps = 0;
    for (int b = 0; b < nboxes; b++)
        comp_of_root[b] = -1;
    for (int b = 0; b < nboxes; b++) {
        int r = uf_find(parent, b);
        if (comp_of_root[r] < 0)
            comp_of_root[r] = ncomps++;
        comp_of_box[b] = comp_of_root[r];
    }
    Part *parts = NEW(A, Part, ncomps + 1);
    int *comp_first_clue = NEW(A, int, ncomps + 1);
    int *clue_comp = NEW(A, int, nclues + 1);
    int *clue_local = NEW(A, int, nclues + 1);
    int *box_pos = NEW(A, int, nboxes + 1);     /* a box's position in its part's order */
    int *placed = NEW(A, int, nboxes + 1);
    if (!parts || !comp_first_clue || !clue_comp || !clue_local || !box_pos || !placed)
        return -1;
    for (int b = 0; b < nboxes; b++) {
        Part *c = &parts[comp_of_box[b]];
        c->nboxes++;
        c->cells += box_size[b];
    }
    for (int j = 0; j < nclues; j++) {
        int c = comp_of_box[cb[cb_ptr[j]]];
        clue_comp[j] = c;
        clue_local[j] = parts[c].nclues++;
    }
    for (int ci = 0; ci < ncomps; ci++) {
        Part *c = &parts[ci];
        if (c->cells > MAX_COMPONENT_CELLS) {
            *why = "a component of more than 120 cells";
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
    /* Search order: the clues in cell order, each adding its boxes not yet placed, so that a
     * clue's boxes come close together and its equation closes early. */
    for (int j = 0; j < nclues; j++) {
        Part *c = &parts[clue_comp[j]];
        int lj = clue_local[j];
        c->need[lj] = P.need[clue_cell[j]];
        for (int e = cb_ptr[j]; e < cb_ptr[j + 1]; e++) {
            int b = cb[e];
            c->cap[lj] += box_size[b];
            if (!placed[b]) {
                placed[b] = 1;
                box_pos[b] = c->nboxes;
                c->boxes[c->nboxes] = b;
                c->size[c->nboxes] = box_size[b];
                c->nboxes++;
            }
        }
    }
    for (int ci = 0; ci < ncomps; ci++) {
        Part *c = &parts[ci];
        int edges = 0;
        for (int i = 0; i < c->nboxes; i++)
            edges += sig_len[c->boxes[i]];
        c->clue_of = NEW(A, int, edges + 1);
        if (!c->clue_of)
            return -1;
        for (int i = 0; i < c->nboxes; i++) {
            int b = c->boxes[i];
            c->clue_ptr[i + 1] = c->clue_ptr[i] + sig_len[b];
            for (int e = 0; e < sig_len[b]; e++)
                c->clue_of[c->clue_ptr[i] + e] = clue_local[sig_pool[sig_start[b] + e]];
        }
        int status = count_part(c, A, pl, budget);
        if (status < 0)
            return -1;
        if (status == ST_DECLINED) {
            *why = "the search passed its node budget";
            return ST_DECLINED;
        }
        if (status != ST_OK) {
            *why = status == ST_TIMEOUT ? "timed out" : "cancelled";
            return status;
        }
        if (c->lo < 0)
            return ST_INCONSISTENT;                 /* no assignment meets this component's clues */
    }
    {
        int status = poll_now(pl);
        if (status != ST_OK) {
            *why = status == ST_TIMEOUT ? "timed out" : "cancelled";
            return status;
        }
    }

    M->n = n;
    M->hidden = hidden;
    M->flagged = flagged;
    M->nmines = nmines;
    M->nclues = nclues;
    M->nboxes = nboxes;
    M->nfloat = nfloat;
    M->nfront = nfront;
    M->ncomps = ncomps;
    M->P = P;
    M->hn = hn;
    M->clue_id = clue_id;
    M->clue_cell = clue_cell;
    M->box_of = box_of;
    M->box_size = box_size;
    M->box_ptr = box_ptr;
    M->box_cells = box_cells;
    M->comp_of_box = comp_of_box;
    M->box_pos = box_pos;
    M->parts = parts;
    (void)nsafe;
    return ST_OK;
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

/* ------------------------------------------------------------------ the call */
PyDoc_STRVAR(analyze_doc,
"analyze(indptr, indices, states, total, budget, deadline, cancel) -> tuple\n\n"
"indptr, indices: the neighbour lists in CSR form (buffers of int32);\n"
"states: a sequence of cell states (ints: numbers, -1 hidden, -2 mine, -3 blank);\n"
"total: the total mine count or -1; budget: search nodes allowed;\n"
"deadline: time.monotonic() value to stop at (0: none); cancel: a 1-byte buffer or None.\n\n"
"Returns (status, detail, count, safe, mines, box_cells, box_counts, box_floats,\n"
"floating, floating_count, floating_float, best, basis, stats). status 0: answered,\n"
"1: inconsistent, 2: declined (detail says why), 3: timed out, 4: cancelled.");

static PyObject *status_only(int status, const char *detail) {
    return Py_BuildValue("(is)", status, detail);
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

static PyObject *kernel_analyze(PyObject *self, PyObject *args) {
    Py_buffer ipb = {0}, ixb = {0}, cancelb = {0};
    PyObject *states_obj, *cancel_obj;
    long long total, budget;
    double deadline;
    if (!PyArg_ParseTuple(args, "y*y*OLLdO", &ipb, &ixb, &states_obj, &total, &budget,
                          &deadline, &cancel_obj))
        return NULL;
    PyObject *result = NULL, *states_fast = NULL;
    PyObject **Q = NULL, **W = NULL, **S = NULL, **box_count = NULL;
    Py_ssize_t nQ = 0, nW = 0, nS = 0, nBC = 0;
    PyObject *count = NULL, *per_floating = NULL;
    Arena A = {0};
    Poll pl = {deadline, NULL, 0};
    if (watch_cancel(cancel_obj, &cancelb, &pl) < 0)
        goto done;
    states_fast = PySequence_Fast(states_obj, "states: a sequence of ints");
    if (!states_fast)
        goto done;
    Py_ssize_t n_ss = PySequence_Fast_GET_SIZE(states_fast);
    if (ipb.len != (Py_ssize_t)sizeof(int32_t) * (n_ss + 1) || ixb.len % sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "indptr: n + 1 int32 values for n states");
        goto done;
    }
    int n = (int)n_ss;
    int32_t m = (int32_t)(ixb.len / sizeof(int32_t));
    if (((const int32_t *)ipb.buf)[0] != 0 || ((const int32_t *)ipb.buf)[n] != m) {
        PyErr_SetString(PyExc_ValueError, "indptr does not match indices");
        goto done;
    }
    int8_t *states8 = NEW(&A, int8_t, n);
    if (!states8)
        goto nomem;
    PyObject **items = PySequence_Fast_ITEMS(states_fast);
    for (int i = 0; i < n; i++) {
        long s = PyLong_AsLong(items[i]);
        if (s == -1 && PyErr_Occurred())
            goto done;
        if (s < S_BLANK) {
            PyErr_Format(PyExc_ValueError, "state %ld of cell %d", s, i);
            goto done;
        }
        if (s > 127) {          /* a graph cell of that many neighbours: not the kernel's */
            result = status_only(ST_DECLINED, "a number above 127");
            goto done;
        }
        states8[i] = (int8_t)s;
    }
    Model M = {0};
    const char *why = "";
    long long nodes_budget = budget;
    int built = build_model(&M, &A, &pl, (const int32_t *)ipb.buf, (const int32_t *)ixb.buf, n,
                            states8, &nodes_budget, total >= 0 ? MAX_FLOATING_COMBINED : -1,
                            &why);
    if (built < 0)
        goto nomem;
    if (built == ST_INCONSISTENT)
        goto inconsistent;
    if (built != ST_OK) {
        result = status_only(built, why);
        goto done;
    }
    Position P = M.P;
    int *hn = M.hn, *box_of = M.box_of, *box_ptr = M.box_ptr, *box_cells = M.box_cells;
    int *comp_of_box = M.comp_of_box, *box_pos = M.box_pos;
    int hidden = M.hidden, flagged = M.flagged, nmines = M.nmines, nclues = M.nclues;
    int nboxes = M.nboxes, nfloat = M.nfloat, ncomps = M.ncomps;
    Part *parts = M.parts;
    /* ------------------------------------------------------------ the combination */
    long long remaining = -1;
    int degree = 0;
    for (int ci = 0; ci < ncomps; ci++)
        degree += parts[ci].hi - parts[ci].lo;
    if (total >= 0) {
        remaining = total - flagged - nmines;
        int lo_sum = 0, hi_sum = 0;
        for (int ci = 0; ci < ncomps; ci++) {
            lo_sum += parts[ci].lo;
            hi_sum += parts[ci].hi;
        }
        if (remaining < lo_sum || remaining > (long long)hi_sum + nfloat)
            goto inconsistent;
        if (degree > MAX_DEGREE_COMBINED || nfloat > MAX_FLOATING_COMBINED) {
            result = status_only(ST_DECLINED, "a combination too large for the kernel");
            goto done;
        }
    }
    /* S[c][t - lo_c]: completions of everything but part c when it holds t mines. */
    int *S_ptr = NEW(&A, int, ncomps + 1);
    if (!S_ptr)
        goto nomem;
    for (int ci = 0; ci < ncomps; ci++)
        S_ptr[ci + 1] = S_ptr[ci] + (total >= 0 ? parts[ci].hi - parts[ci].lo + 1 : 1);
    nS = S_ptr[ncomps];
    S = PyMem_Calloc((size_t)nS + 1, sizeof(PyObject *));
    if (!S)
        goto nomem;
    if (total < 0) {
        /* Without a total, parts are independent: count = prod(parts) * 2**floating. */
        PyObject **tot = PyMem_Calloc((size_t)ncomps + 1, sizeof(PyObject *));
        PyObject *prefix = NULL;
        if (!tot)
            goto nomem;
        int ok = 1;
        for (int ci = 0; ci < ncomps && ok; ci++) {
            u128 sum = 0;
            for (int t = parts[ci].lo; t <= parts[ci].hi; t++)
                sum += parts[ci].total[t];
            tot[ci] = from_u128(sum);
            ok = tot[ci] != NULL;
        }
        /* S[c] = prod of the others * 2**F, by prefix and suffix products. */
        if (ok) {
            PyObject *one = PyLong_FromLong(1), *shift = PyLong_FromLong(nfloat);
            prefix = (one && shift) ? PyNumber_Lshift(one, shift) : NULL;
            Py_XDECREF(one);
            Py_XDECREF(shift);
            ok = prefix != NULL;
        }
        for (int ci = 0; ci < ncomps && ok; ci++) {      /* S[c] = prefix before c */
            Py_INCREF(prefix);
            S[S_ptr[ci]] = prefix;
            PyObject *next = PyNumber_Multiply(prefix, tot[ci]);
            Py_DECREF(prefix);
            prefix = next;
            ok = prefix != NULL;
        }
        if (ok) {
            count = prefix;                             /* prod of all * 2**F */
            prefix = NULL;
            PyObject *suffix = PyLong_FromLong(1);
            ok = suffix != NULL;
            for (int ci = ncomps - 1; ci >= 0 && ok; ci--) {
                PyObject *v = PyNumber_Multiply(S[S_ptr[ci]], suffix);
                Py_SETREF(S[S_ptr[ci]], v);
                PyObject *next = v ? PyNumber_Multiply(suffix, tot[ci]) : NULL;
                Py_SETREF(suffix, next);
                ok = v && next;
            }
            Py_XDECREF(suffix);
        }
        Py_XDECREF(prefix);
        DECREF_ARRAY(tot, ncomps);
        PyMem_Free(tot);
        if (!ok)
            goto done;
        if (nfloat) {
            PyObject *one = PyLong_FromLong(1);
            per_floating = one ? PyNumber_Rshift(count, one) : NULL;
            Py_XDECREF(one);
            if (!per_floating)
                goto done;
        } else {
            per_floating = PyLong_FromLong(0);
        }
    } else {
        /* Q = prod of the parts' polynomials (shifted by their lowest count); weights
         * W[u] = C(F, R - base - u); count = sum Q[u] W[u]. */
        int base = 0;
        for (int ci = 0; ci < ncomps; ci++)
            base += parts[ci].lo;
        nQ = degree + 1;
        nW = degree + 1;
        Q = PyMem_Calloc((size_t)nQ, sizeof(PyObject *));
        W = PyMem_Calloc((size_t)nW, sizeof(PyObject *));
        PyObject **tmp = PyMem_Calloc((size_t)nQ, sizeof(PyObject *));
        PyObject ***poly = PyMem_Calloc((size_t)ncomps + 1, sizeof(PyObject **));
        int ok = Q && W && tmp && poly;
        for (int ci = 0; ci < ncomps && ok; ci++) {
            Part *c = &parts[ci];
            int len = c->hi - c->lo + 1;
            poly[ci] = PyMem_Calloc((size_t)len, sizeof(PyObject *));
            ok = poly[ci] != NULL;
            for (int t = 0; t < len && ok; t++) {
                poly[ci][t] = from_u128(c->total[c->lo + t]);
                ok = poly[ci][t] != NULL;
            }
        }
        /* The product, part by part (schoolbook). */
        int qlen = 1;
        if (ok) {
            Q[0] = PyLong_FromLong(1);
            ok = Q[0] != NULL;
        }
        for (int ci = 0; ci < ncomps && ok; ci++) {
            int len = parts[ci].hi - parts[ci].lo + 1;
            for (int u = 0; u < qlen + len - 1 && ok; u++) {
                PyObject *acc = NULL;
                for (int t = 0; t < len && ok; t++) {
                    int v = u - t;
                    if (v < 0 || v >= qlen)
                        continue;
                    acc = muladd(acc, Q[v], poly[ci][t]);
                    ok = acc != NULL;
                }
                if (ok && !acc)
                    acc = PyLong_FromLong(0);
                tmp[u] = acc;
                ok = ok && acc;
            }
            if (!ok)
                break;
            for (int u = 0; u < qlen; u++)
                Py_CLEAR(Q[u]);
            qlen += len - 1;
            for (int u = 0; u < qlen; u++) {
                Q[u] = tmp[u];
                tmp[u] = NULL;
            }
        }
        /* Weights by one binomial and a ratio recurrence:
         * C(F, k - 1) = C(F, k) * k / (F - k + 1), going down from the largest k. */
        for (int u = 0; u < nW && ok; u++) {
            W[u] = comb(nfloat, remaining - base - u);
            ok = W[u] != NULL;
        }
        if (ok) {
            for (int u = 0; u < nQ && ok; u++) {
                PyObject *p = PyNumber_Multiply(Q[u], W[u]);
                ok = p != NULL;
                if (ok) {
                    if (count) {
                        PyObject *s2 = PyNumber_Add(count, p);
                        Py_DECREF(count);
                        count = s2;
                        ok = count != NULL;
                    } else {
                        count = p;
                        p = NULL;
                    }
                }
                Py_XDECREF(p);
            }
        }
        /* A floating cell is a mine in sum Q[u] C(F - 1, R - base - u - 1) completions. */
        for (int u = 0; u < nQ && ok; u++) {
            PyObject *w1 = comb(nfloat - 1, remaining - base - u - 1);
            ok = w1 != NULL;
            if (ok) {
                per_floating = muladd(per_floating, Q[u], w1);
                ok = per_floating != NULL;
            }
            Py_XDECREF(w1);
        }
        /* Sensitivities: O = Q / P_c (exact division, from the low end), then
         * S_c[t] = sum_u O[u] W[u + t]. */
        for (int ci = 0; ci < ncomps && ok; ci++) {
            int len = parts[ci].hi - parts[ci].lo + 1;
            int olen = qlen - len + 1;
            PyObject **rem = tmp;               /* a working copy of Q */
            for (int u = 0; u < qlen; u++) {
                Py_INCREF(Q[u]);
                rem[u] = Q[u];
            }
            PyObject **O = PyMem_Calloc((size_t)olen, sizeof(PyObject *));
            ok = O != NULL;
            for (int u = 0; u < olen && ok; u++) {
                O[u] = PyNumber_FloorDivide(rem[u], poly[ci][0]);
                ok = O[u] != NULL;
                for (int j = 1; j < len && ok; j++) {
                    PyObject *p = PyNumber_Multiply(O[u], poly[ci][j]);
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
                    if (u + t >= nW)
                        break;
                    acc = muladd(acc, O[u], W[u + t]);
                    ok = acc != NULL;
                }
                if (ok && !acc)
                    acc = PyLong_FromLong(0);
                S[S_ptr[ci] + t] = acc;
                ok = ok && acc;
            }
            if (O) {
                DECREF_ARRAY(O, olen);
                PyMem_Free(O);
            }
        }
        for (int ci = 0; ci < ncomps; ci++) {
            if (poly && poly[ci]) {
                DECREF_ARRAY(poly[ci], parts[ci].hi - parts[ci].lo + 1);
                PyMem_Free(poly[ci]);
            }
        }
        PyMem_Free(poly);
        if (tmp) {
            DECREF_ARRAY(tmp, nQ);
            PyMem_Free(tmp);
        }
        if (!ok)
            goto done;
        if (!per_floating)
            per_floating = PyLong_FromLong(0);
    }
    if (!count || !per_floating)
        goto done;
    if (!PyObject_IsTrue(count))
        goto inconsistent;

    /* Per box: mines on one of its cells over all completions = sum_t mined[t] * S_c[t]. */
    nBC = nboxes;
    box_count = PyMem_Calloc((size_t)nboxes + 1, sizeof(PyObject *));
    if (!box_count)
        goto nomem;
    for (int b = 0; b < nboxes; b++) {
        int ci = comp_of_box[b];
        Part *c = &parts[ci];
        int i = box_pos[b], L = c->cells + 1;
        PyObject *acc = NULL;
        for (int t = c->lo; t <= c->hi; t++) {
            u128 v = c->mined[(size_t)i * L + t];
            if (!v)
                continue;
            PyObject *x = from_u128(v);
            if (!x) {
                Py_XDECREF(acc);
                goto done;
            }
            PyObject *s = S[S_ptr[ci] + (total >= 0 ? t - c->lo : 0)];
            acc = muladd(acc, x, s);
            Py_DECREF(x);
            if (!acc)
                goto done;
        }
        box_count[b] = acc ? acc : PyLong_FromLong(0);
        if (!box_count[b])
            goto done;
    }

    /* Forced cells: propagation's, and whole boxes (or the floating cells) at 0 or count. */
    {
        int *safe = NEW(&A, int, hidden + 1), *mines = NEW(&A, int, hidden + 1);
        int *floating = NEW(&A, int, nfloat + 1);
        int *box_state = NEW(&A, int, nboxes + 1);   /* 0 safe, 1 mine, 2 neither */
        if (!safe || !mines || !floating || !box_state)
            goto nomem;
        for (int b = 0; b < nboxes; b++) {
            int z = !PyObject_IsTrue(box_count[b]);
            int full = PyObject_RichCompareBool(box_count[b], count, Py_EQ);
            if (full < 0)
                goto done;
            box_state[b] = z ? 0 : full ? 1 : 2;
        }
        int fz = !PyObject_IsTrue(per_floating);
        int ff = PyObject_RichCompareBool(per_floating, count, Py_EQ);
        if (ff < 0)
            goto done;
        int fstate = fz ? 0 : ff ? 1 : 2;
        int ns = 0, nm = 0, nf = 0;
        for (int q = 0; q < n; q++) {
            if (P.state[q] != S_HIDDEN)
                continue;
            int d = P.decided[q];
            if (d < 0) {
                if (box_of[q] >= 0)
                    d = box_state[box_of[q]];
                else {
                    floating[nf++] = q;
                    d = fstate;
                }
            }
            if (d == 0)
                safe[ns++] = q;
            else if (d == 1)
                mines[nm++] = q;
        }
        /* The best move (analysis.choose_best): a safe cell if any, else the lowest count
         * among cells that are not mines; ties by fewest hidden neighbours, then index. */
        int best = -1;
        const char *basis = NULL;
        if (ns) {
            basis = "safe";
            for (int i = 0; i < ns; i++)
                if (best < 0 || hn[safe[i]] < hn[best])
                    best = safe[i];
        } else {
            PyObject *low = NULL;
            /* candidates: boxes and the floating group that are not proven mines */
            for (int b = -1; b < nboxes; b++) {
                PyObject *v;
                int first, last, st;
                if (b < 0) {
                    if (!nf)
                        continue;
                    v = per_floating;
                    st = fstate;
                } else {
                    v = box_count[b];
                    st = box_state[b];
                }
                if (st == 1)
                    continue;
                int better = low ? PyObject_RichCompareBool(v, low, Py_LT) : 1;
                int equal = low && !better ? PyObject_RichCompareBool(v, low, Py_EQ) : 0;
                if (better < 0 || equal < 0)
                    goto done;
                if (!better && !equal)
                    continue;
                int cand = -1;
                if (b < 0) {
                    first = 0;
                    last = nf;
                    for (int i = first; i < last; i++)
                        if (cand < 0 || hn[floating[i]] < hn[cand])
                            cand = floating[i];
                } else {
                    for (int i = box_ptr[b]; i < box_ptr[b + 1]; i++)
                        if (cand < 0 || hn[box_cells[i]] < hn[cand])
                            cand = box_cells[i];
                }
                if (better) {
                    low = v;
                    best = cand;
                } else if (hn[cand] < hn[best] || (hn[cand] == hn[best] && cand < best)) {
                    best = cand;
                }
            }
            if (best >= 0)
                basis = "probability";
        }
        /* Floats: each box's probability, correctly rounded from the exact integers. */
        PyObject *box_cells_list = PyList_New(nboxes), *counts = PyList_New(nboxes);
        PyObject *floats = PyList_New(nboxes);
        PyObject *safe_list = int_list(safe, ns), *mine_list = int_list(mines, nm);
        PyObject *float_list = int_list(floating, nf);
        PyObject *floating_float = PyNumber_TrueDivide(per_floating, count);
        PyObject *stats = Py_BuildValue("{s:i,s:i,s:i,s:i,s:L}", "components", ncomps,
                                        "boxes", nboxes, "clues", nclues, "floating", nf,
                                        "nodes", budget - nodes_budget);
        int ok = box_cells_list && counts && floats && safe_list && mine_list && float_list &&
                 floating_float && stats;
        for (int b = 0; b < nboxes && ok; b++) {
            PyObject *cells = PyTuple_New(box_ptr[b + 1] - box_ptr[b]);
            ok = cells != NULL;
            for (int i = box_ptr[b]; i < box_ptr[b + 1] && ok; i++) {
                PyObject *x = PyLong_FromLong(box_cells[i]);
                ok = x != NULL;
                if (ok)
                    PyTuple_SET_ITEM(cells, i - box_ptr[b], x);
            }
            if (!ok) {
                Py_XDECREF(cells);
                break;
            }
            PyList_SET_ITEM(box_cells_list, b, cells);
            Py_INCREF(box_count[b]);
            PyList_SET_ITEM(counts, b, box_count[b]);
            PyObject *f = PyNumber_TrueDivide(box_count[b], count);
            ok = f != NULL;
            if (ok)
                PyList_SET_ITEM(floats, b, f);
        }
        if (ok)
            result = Py_BuildValue("(isOOOOOOOOOizO)", ST_OK, "", count, safe_list, mine_list,
                                   box_cells_list, counts, floats, float_list, per_floating,
                                   floating_float, best, basis, stats);
        Py_XDECREF(box_cells_list); Py_XDECREF(counts); Py_XDECREF(floats);
        Py_XDECREF(safe_list); Py_XDECREF(mine_list); Py_XDECREF(float_list);
        Py_XDECREF(floating_float); Py_XDECREF(stats);
    }
    goto done;

inconsistent:
    result = status_only(ST_INCONSISTENT, "");
    goto done;
nomem:
    PyErr_NoMemory();
done:
    DECREF_ARRAY(Q, nQ);
    PyMem_Free(Q);
    DECREF_ARRAY(W, nW);
    PyMem_Free(W);
    DECREF_ARRAY(S, nS);
    PyMem_Free(S);
    DECREF_ARRAY(box_count, nBC);
    PyMem_Free(box_count);
    Py_XDECREF(count);
    Py_XDECREF(per_floating);
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
    Play G = {n, indptr, indices, (const uint8_t *)lb.buf};
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
    int mines = 0;
    for (int v = 0; v < n; v++) {
        G.state[v] = S_HIDDEN;
        G.covered[v] = indptr[v + 1] - indptr[v];
        mines += G.mine[v] != 0;
        int k = 0;
        for (int32_t e = indptr[v]; e < indptr[v + 1]; e++)
            k += G.mine[indices[e]] != 0;
        if (k > 127) {          /* a number the position's int8 states cannot hold */
            result = Py_BuildValue("(ii)", ST_DECLINED, 0);
            goto done;
        }
        G.number[v] = (int8_t)k;
    }
    if (G.mine[first]) {
        result = Py_BuildValue("(ii)", 1, n - mines);
        goto done;
    }
    G.left = n - mines;
    play_uncover(&G, first);
    int status = 0;
    while (G.left) {
        while (G.qtop) {
            int p = G.queue[--G.qtop];
            if (G.covered[p] == 0)
                continue;
            if (G.need[p] == 0) {
                for (int32_t e = indptr[p]; e < indptr[p + 1]; e++)
                    if (G.state[indices[e]] == S_HIDDEN)
                        play_uncover(&G, indices[e]);
            } else if (G.need[p] == G.covered[p]) {
                for (int32_t e = indptr[p]; e < indptr[p + 1]; e++)
                    play_flag(&G, indices[e]);
            }
        }
        if (!G.left)
            break;
        if (!exact) {           /* the single-number rules alone, and they are stuck */
            status = 1;
            break;
        }
        /* Stuck: the exact forced cells of the position as it stands. */
        Arena B = {0};
        Model M = {0};
        const char *why = "";
        int built = build_model(&M, &B, &pl, indptr, indices, n, G.state, &budget, -1, &why);
        if (built == ST_OK)
            built = forced_cells(&M, &B, total, forced);
        int progress = 0;
        if (built == ST_OK) {
            for (int q = 0; q < n; q++) {
                if (G.state[q] != S_HIDDEN || forced[q] < 0)
                    continue;
                progress = 1;
                if (forced[q] == 1)
                    play_flag(&G, q);
                else
                    play_uncover(&G, q);
            }
        }
        arena_free(&B);
        if (built < 0) {
            PyErr_NoMemory();
            goto done;
        }
        if (built == ST_INCONSISTENT) {
            PyErr_SetString(PyExc_ValueError, "the layout contradicts its own numbers");
            goto done;
        }
        if (built != ST_OK) {
            status = built;
            break;
        }
        if (!progress) {
            status = 1;
            break;
        }
    }
    result = Py_BuildValue("(ii)", status, G.left);
done:
    arena_free(&A);
    PyBuffer_Release(&ipb);
    PyBuffer_Release(&ixb);
    PyBuffer_Release(&lb);
    if (cancelb.obj)
        PyBuffer_Release(&cancelb);
    return result;
}

/* ------------------------------------------------------------------ Ctrl-C for the CLI */
/* The command line (minegraph/cli/interrupt.py) owns SIGINT; the library never touches it.
 * A Python-level handler runs only when the main thread executes bytecode, which it cannot
 * while another thread holds the GIL inside a long C call (a CaDiCaL slice, an encoder).  This
 * guard acts at C level: the first SIGINT sets the query's cancel flag (the work stops at its
 * next check) and wakes a watcher thread, which ends the process with the given status if it
 * is still running `grace` seconds later; a second SIGINT ends it at once.  Only
 * async-signal-safe calls (a byte store, sem_post, _exit) happen in the handler. */
#ifdef HAVE_SIGINT_GUARD
static volatile char *guard_flag = NULL;
static Py_buffer guard_buffer;
static volatile sig_atomic_t guard_hits = 0, guard_armed = 0;
/* Each arming is a generation: a watcher woken by an earlier one never ends a later one. */
static volatile sig_atomic_t guard_generation = 0, guard_fired = -1;
static int guard_status = 130;
static double guard_grace = 0.4;
static sem_t guard_sem;
static int guard_thread_started = 0;
static struct sigaction guard_previous;

static void guard_handler(int signum) {
    (void)signum;
    if (!guard_armed)
        return;
    if (guard_hits++) {
        _exit(guard_status);
    }
    if (guard_flag)
        *guard_flag = 1;
    guard_fired = guard_generation;
    sem_post(&guard_sem);
}

static void *guard_watch(void *arg) {
    (void)arg;
    for (;;) {
        while (sem_wait(&guard_sem) != 0) {
        }
        struct timespec ts;
        ts.tv_sec = (time_t)guard_grace;
        ts.tv_nsec = (long)((guard_grace - (double)ts.tv_sec) * 1e9);
        while (nanosleep(&ts, &ts) != 0) {
        }
        if (guard_armed && guard_fired == guard_generation)
            _exit(guard_status);
    }
    return NULL;
}
#endif

static PyObject *kernel_guard_sigint(PyObject *self, PyObject *args) {
    PyObject *flag;
    double grace;
    int status;
    (void)self;
    if (!PyArg_ParseTuple(args, "Odi", &flag, &grace, &status))
        return NULL;
#ifdef HAVE_SIGINT_GUARD
    if (guard_armed) {
        PyErr_SetString(PyExc_RuntimeError, "the Ctrl-C guard is already armed");
        return NULL;
    }
    if (PyObject_GetBuffer(flag, &guard_buffer, PyBUF_WRITABLE) < 0)
        return NULL;
    if (guard_buffer.len < 1) {
        PyBuffer_Release(&guard_buffer);
        PyErr_SetString(PyExc_ValueError, "flag: a writable buffer of at least one byte");
        return NULL;
    }
    if (!guard_thread_started) {
        pthread_t thread;
        if (sem_init(&guard_sem, 0, 0) != 0 ||
            pthread_create(&thread, NULL, guard_watch, NULL) != 0) {
            PyBuffer_Release(&guard_buffer);
            return PyErr_SetFromErrno(PyExc_OSError);
        }
        pthread_detach(thread);
        guard_thread_started = 1;
    }
    guard_flag = (volatile char *)guard_buffer.buf;
    guard_grace = grace > 0 ? grace : 0;
    guard_status = status;
    guard_hits = 0;
    guard_generation++;
    guard_armed = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = guard_handler;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGINT, &action, &guard_previous) != 0) {
        guard_armed = 0;
        guard_flag = NULL;
        PyBuffer_Release(&guard_buffer);
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_TRUE;
#else
    (void)flag; (void)grace; (void)status;
    Py_RETURN_FALSE;
#endif
}

static PyObject *kernel_release_sigint(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
#ifdef HAVE_SIGINT_GUARD
    if (!guard_armed)
        Py_RETURN_FALSE;
    sigaction(SIGINT, &guard_previous, NULL);
    guard_armed = 0;
    int hits = guard_hits;
    guard_flag = NULL;
    PyBuffer_Release(&guard_buffer);
    return PyBool_FromLong(hits > 0);
#else
    Py_RETURN_FALSE;
#endif
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

/* ------------------------------------------------------------------ one component on its own */
PyDoc_STRVAR(count_component_doc,
"count_component(sizes, clues, with_total, budget, deadline, cancel, want)\n"
"\n"
"One component in local numbering (its canonical key): sizes[b] cells in box b, clues as\n"
"(need, boxes) with distinct box indices.  want == -2: count it -> (OK, total, mined, nodes)\n"
"where total[t] is the number of assignments with t mines (trimmed; one entry, the plain\n"
"count, without a total) and mined[b][t] the mines in box b summed over them (cells + 1\n"
"entries, or one).  want >= -1: one assignment with `want` mines (any when -1) -> (OK, per-box\n"
"mines) or (INCONSISTENT, None).  Otherwise (status, reason): DECLINED past 120 cells or the\n"
"node budget, TIMEOUT, CANCELLED.");

static PyObject *kernel_count_component(PyObject *self, PyObject *args) {
    PyObject *sizes_obj, *clues_obj, *cancel_obj;
    int with_total, want;
    long long budget;
    double deadline;
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
    int B = (int)PySequence_Fast_GET_SIZE(sizes_fast);
    int J = (int)PySequence_Fast_GET_SIZE(clues_fast);
    Part part = {0}, *c = &part;
    int *size = NEW(&A, int, B + 1), *pos = NEW(&A, int, B + 1), *mark = NEW(&A, int, B + 1);
    int *clue_ptr = NEW(&A, int, J + 1), *clue_box = NULL;
    if (!size || !pos || !mark || !clue_ptr)
        goto nomem;
    int cells = 0;
    for (int b = 0; b < B; b++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(sizes_fast, b));
        if (s == -1 && PyErr_Occurred())
            goto done;
        if (s < 1) {
            PyErr_Format(PyExc_ValueError, "sizes[%d]: a box holds at least one cell", b);
            goto done;
        }
        if (s > MAX_COMPONENT_CELLS || (cells += (int)s) > MAX_COMPONENT_CELLS) {
            result = status_only(ST_DECLINED, "a component of more than 120 cells");
            goto done;
        }
        size[b] = (int)s;
    }
    /* The clues' boxes in CSR, checked: in range and distinct within a clue. */
    int edges = 0;
    PyObject **pairs = PySequence_Fast_ITEMS(clues_fast);
    for (int j = 0; j < J; j++) {
        PyObject *boxes = PyTuple_Check(pairs[j]) && PyTuple_GET_SIZE(pairs[j]) == 2
            ? PyTuple_GET_ITEM(pairs[j], 1) : NULL;
        if (!boxes || !PyTuple_Check(boxes)) {
            PyErr_Format(PyExc_TypeError, "clues[%d]: a pair (need, tuple of boxes)", j);
            goto done;
        }
        edges += (int)PyTuple_GET_SIZE(boxes);
        clue_ptr[j + 1] = edges;
    }
    int *need = NEW(&A, int, J + 1);
    clue_box = NEW(&A, int, edges + 1);
    if (!need || !clue_box)
        goto nomem;
    for (int j = 0; j < J; j++) {
        long nd = PyLong_AsLong(PyTuple_GET_ITEM(pairs[j], 0));
        if (nd == -1 && PyErr_Occurred())
            goto done;
        need[j] = nd < -1 ? -1 : nd > 10000 ? 10000 : (int)nd;  /* out of range: unmeetable */
        PyObject *boxes = PyTuple_GET_ITEM(pairs[j], 1);
        for (int e = clue_ptr[j]; e < clue_ptr[j + 1]; e++) {
            long b = PyLong_AsLong(PyTuple_GET_ITEM(boxes, e - clue_ptr[j]));
            if (b == -1 && PyErr_Occurred())
                goto done;
            if (b < 0 || b >= B || mark[b] == j + 1) {
                PyErr_Format(PyExc_ValueError, "clues[%d]: box %ld out of range or repeated", j, b);
                goto done;
            }
            mark[b] = j + 1;
            clue_box[e] = (int)b;
        }
    }
    /* Search order as in build_model: the clues in order, each adding its boxes not yet
     * placed; boxes of no clue last. */
    c->nboxes = B;
    c->nclues = J;
    c->cells = cells;
    c->boxes = NEW(&A, int, B + 1);
    c->size = NEW(&A, int, B + 1);
    c->clue_ptr = NEW(&A, int, B + 1);
    c->clue_of = NEW(&A, int, edges + 1);
    c->need = need;
    c->cap = NEW(&A, int, J + 1);
    int *placed_at = NEW(&A, int, B + 1), *deg = NEW(&A, int, B + 1), *fill = NEW(&A, int, B + 1);
    if (!c->boxes || !c->size || !c->clue_ptr || !c->clue_of || !c->cap || !placed_at || !deg
        || !fill)
        goto nomem;
    int placed = 0;
    for (int b = 0; b < B; b++)
        pos[b] = -1;
    for (int j = 0; j < J; j++) {
        if (clue_ptr[j] == clue_ptr[j + 1] && need[j] != 0)
            goto inconsistent;          /* a number over no box that needs mines */
        for (int e = clue_ptr[j]; e < clue_ptr[j + 1]; e++) {
            int b = clue_box[e];
            c->cap[j] += size[b];
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
        c->size[i] = size[c->boxes[i]];
        c->clue_ptr[i + 1] = c->clue_ptr[i] + deg[c->boxes[i]];
    }
    for (int j = 0; j < J; j++)
        for (int e = clue_ptr[j]; e < clue_ptr[j + 1]; e++) {
            int i = pos[clue_box[e]];
            c->clue_of[c->clue_ptr[i] + fill[i]++] = j;
        }
    if (want >= -1) {
        c->completing = 1;
        c->want = want;
        c->found = NEW(&A, int, B + 1);
        if (!c->found)
            goto nomem;
    }
    long long nodes = budget;
    int status = count_part(c, &A, &pl, &nodes);
    if (status < 0)
        goto nomem;
    if (status == ST_DECLINED) {
        result = status_only(ST_DECLINED, "the search passed its node budget");
        goto done;
    }
    if (status != ST_OK) {
        result = status_only(status, status == ST_TIMEOUT ? "timed out" : "cancelled");
        goto done;
    }
    if (c->completing) {
        if (c->lo < 0)
            goto inconsistent;
        PyObject *per_box = PyList_New(B);
        if (!per_box)
            goto done;
        for (int b = 0; b < B; b++)
            PyList_SET_ITEM(per_box, b, PyLong_FromLong(c->found[pos[b]]));
        result = Py_BuildValue("(iN)", ST_OK, per_box);
        goto done;
    }
    {
        int L = cells + 1, top = 0;
        for (int t = 0; t < L; t++)
            if (c->total[t])
                top = t;
        int len_total = with_total ? top + 1 : 1, len_mined = with_total ? L : 1;
        PyObject *total_list = PyList_New(len_total), *mined_list = PyList_New(B);
        if (!total_list || !mined_list) {
            Py_XDECREF(total_list);
            Py_XDECREF(mined_list);
            goto done;
        }
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
                PyList_SET_ITEM(per_t, t, from_u128((with_total ? row[t] : acc) * (u128)size[b]));
            PyList_SET_ITEM(mined_list, b, per_t);
        }
        if (PyErr_Occurred()) {
            Py_DECREF(total_list);
            Py_DECREF(mined_list);
            goto done;
        }
        result = Py_BuildValue("(iNNL)", ST_OK, total_list, mined_list, budget - nodes);
        goto done;
    }
inconsistent:
    result = Py_BuildValue("(iO)", ST_INCONSISTENT, Py_None);
    goto done;
nomem:
    PyErr_NoMemory();
done:
    Py_XDECREF(sizes_fast);
    Py_XDECREF(clues_fast);
    if (cancelb.obj)
        PyBuffer_Release(&cancelb);
    arena_free(&A);
    return result;
}

static PyMethodDef methods[] = {
    {"analyze", kernel_analyze, METH_VARARGS, analyze_doc},
    {"csr", kernel_csr, METH_O, "csr(neighbors) -> (indptr, indices): the table as int32 bytes."},
    {"solvable", kernel_solvable, METH_VARARGS, solvable_doc},
    {"count_component", kernel_count_component, METH_VARARGS, count_component_doc},
    {"guard_sigint", kernel_guard_sigint, METH_VARARGS,
     "guard_sigint(flag, grace, status): the command line's Ctrl-C guard (see the source)."},
    {"release_sigint", kernel_release_sigint, METH_NOARGS,
     "release_sigint() -> whether SIGINT arrived while the guard was armed."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "minegraph._kernel",
    "The native analysis kernel of minegraph (see minegraph/kernel.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    init_binomials();
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
    if (PyModule_AddStringConstant(m, "VERSION", KERNEL_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_HASH", KERNEL_SOURCE_HASH) < 0 ||
        PyModule_AddIntConstant(m, "MAX_COMPONENT_CELLS", MAX_COMPONENT_CELLS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
