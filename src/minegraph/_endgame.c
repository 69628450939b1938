/*
 * minegraph._endgame: the exact endgame search (minegraph/play/endgame.py) in C.
 *
 * Three calls, all on flat arrays and all run without the GIL:
 *
 *   completions(...)   every completion of the position (endgame.completions' backtracking,
 *                      in the same order), as the mined cells of each layout, or LIMIT past
 *                      the limit.
 *   observations(...)  for each relevant hidden cell and each layout, what uncovering the
 *                      cell shows: -1 when it is a mine there, else a small id (dense per
 *                      cell) that is equal for two layouts exactly when the player sees the
 *                      same thing (the same number; for a 0, the same flood fill with the
 *                      same numbers).  Mirrors _Search._observations.
 *   search(...)        the number of layouts won under perfect play (and a cell that wins
 *                      them), or the value after uncovering each of given cells first.
 *                      Mirrors _Search.value / after / split / _keep: cells safe in every
 *                      layout are uncovered for free, the others are tried safest first and
 *                      the loop stops once no cell can beat the best, a part's search is
 *                      told how much it must win (fail-low, fail-soft), upper bounds are kept
 *                      beside exact values in the memo, and cells that split the layouts
 *                      identically are tried once.  Beyond _Search: the parts of a split
 *                      are bounded by what the memo knows of them (each part must then win
 *                      more the less the others can), and guesses that tell nothing are
 *                      tried after those that tell something.  Given the near lists, a
 *                      group that is every combination of its layouts on one region of
 *                      the guessed cells and on the rest is searched as two games whose
 *                      values multiply (factor; _Search._factored).  And every part is
 *                      bounded by its layouts no move tells apart (tangle_bound: at most one
 *                      of each tangled set is won), found once for the whole search; the
 *                      guesses of a group of ORDER_MIN layouts or more are tried from the
 *                      highest such bound down, and a guess whose bound cannot beat the best
 *                      is not searched.
 *
 * Sets of layouts are sorted lists of layout indices (uint32); the memo is an
 * open-addressing hash table keyed by the list, whose keys live in an arena of at most
 * `memo_bytes` bytes: past that the memo keeps what it has and stops growing (the search
 * stays exact, only slower).  The deadline (seconds from the call) and a node budget are
 * checked every 256 nodes; past either the call answers TIMEOUT.  A failed allocation
 * answers NOMEMORY; nothing here aborts the process.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef KERNEL_VERSION
#define KERNEL_VERSION "unknown"
#endif
#ifndef KERNEL_SOURCE_HASH
#define KERNEL_SOURCE_HASH "unknown"
#endif

enum { EG_OK = 0, EG_TIMEOUT = 1, EG_NOMEMORY = 2, EG_CANCELLED = 3, EG_LIMIT = 4 };

/* The most layouts and cells a search takes (indices and counts fit easily below these). */
#define EG_MAX_LAYOUTS 4000000
#define EG_MAX_CELLS 100000

static uint64_t mix64(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- observations ---------- */

/* One distinct thing a cell can show: (cell, number, flood sequence) -> dense id. */
typedef struct {
    uint64_t hash;
    int32_t cell, number, id, len;
    size_t offset; /* of the flood's (cell, number) pairs in the sequence arena */
} ObsEntry;

typedef struct {
    ObsEntry *slots;
    size_t capacity, used;
    int32_t *arena; /* the flood sequences */
    size_t arena_len, arena_cap, arena_limit;
    int32_t *next_id; /* per relevant cell: the next dense id */
} ObsTable;

static int obs_grow(ObsTable *t) {
    size_t cap = t->capacity ? t->capacity * 2 : 1024;
    ObsEntry *slots = calloc(cap, sizeof(ObsEntry));
    if (!slots)
        return -1;
    for (size_t i = 0; i < cap; i++)
        slots[i].id = -1;
    for (size_t i = 0; i < t->capacity; i++) {
        if (t->slots[i].id < 0)
            continue;
        size_t j = (size_t)t->slots[i].hash & (cap - 1);
        while (slots[j].id >= 0)
            j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->capacity = cap;
    return 0;
}

/* The dense id of what cell position `i` shows: `number`, and for a 0 the `len` pairs of
 * `seq`; -1 when out of memory. */
static int32_t obs_id(ObsTable *t, int32_t i, int32_t number, const int32_t *seq, int32_t len) {
    uint64_t h = mix64(mix64((uint64_t)i + 1, (uint64_t)number + 7), (uint64_t)len);
    for (int32_t j = 0; j < 2 * len; j++)
        h = mix64(h, (uint64_t)(uint32_t)seq[j]);
    if ((t->used + 1) * 2 > t->capacity && obs_grow(t) < 0)
        return -1;
    size_t j = (size_t)h & (t->capacity - 1);
    for (; t->slots[j].id >= 0; j = (j + 1) & (t->capacity - 1)) {
        ObsEntry *e = &t->slots[j];
        if (e->hash == h && e->cell == i && e->number == number && e->len == len &&
            memcmp(t->arena + e->offset, seq, sizeof(int32_t) * 2 * (size_t)len) == 0)
            return e->id;
    }
    size_t need = t->arena_len + 2 * (size_t)len;
    if (need > t->arena_cap) {
        size_t cap = t->arena_cap ? t->arena_cap : 4096;
        while (cap < need)
            cap *= 2;
        if (cap * sizeof(int32_t) > t->arena_limit)
            return -1;
        int32_t *arena = realloc(t->arena, cap * sizeof(int32_t));
        if (!arena)
            return -1;
        t->arena = arena;
        t->arena_cap = cap;
    }
    memcpy(t->arena + t->arena_len, seq, sizeof(int32_t) * 2 * (size_t)len);
    ObsEntry *e = &t->slots[j];
    e->hash = h;
    e->cell = i;
    e->number = number;
    e->len = len;
    e->offset = t->arena_len;
    e->id = t->next_id[i]++;
    t->arena_len = need;
    t->used++;
    return e->id;
}

typedef struct {
    int32_t n_board;
    const int32_t *indptr, *indices; /* the board's neighbour lists (CSR) */
    const uint8_t *shown;            /* numbers and flags: a flood never passes them */
    uint8_t *mine;                   /* scratch: the current layout's mines */
    int32_t *stamp, *stack, *seq;    /* scratch for the flood fill */
    int32_t generation;
} Board;

static int32_t count_mines(const Board *b, int32_t v) {
    int32_t k = 0;
    for (int32_t p = b->indptr[v]; p < b->indptr[v + 1]; p++)
        k += b->mine[b->indices[p]];
    return k;
}

static int compare_pairs(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The cells a 0 at `cell` opens, as sorted (cell, number) pairs in b->seq: rules.flood_fill.
 * Returns how many. */
static int32_t flood_fill(Board *b, int32_t cell) {
    int32_t gen = ++b->generation, top = 0, len = 0;
    b->stamp[cell] = gen;
    b->stack[top++] = cell;
    while (top) {
        int32_t v = b->stack[--top];
        int32_t k = count_mines(b, v);
        b->seq[2 * len] = v;
        b->seq[2 * len + 1] = k;
        len++;
        if (k)
            continue;
        for (int32_t p = b->indptr[v]; p < b->indptr[v + 1]; p++) {
            int32_t w = b->indices[p];
            if (b->stamp[w] != gen && !b->mine[w] && !b->shown[w]) {
                b->stamp[w] = gen;
                b->stack[top++] = w;
            }
        }
    }
    qsort(b->seq, (size_t)len, 2 * sizeof(int32_t), compare_pairs);
    return len;
}

/* Fill codes[i * n_layouts + k] for every cell position i and layout k; -1 when out of
 * memory, else 0. */
static int observe_all(Board *b, const int32_t *cells, int32_t n_cells, const int32_t *mined_ptr,
                       const int32_t *mined, int32_t n_layouts, const int32_t *constant,
                       int32_t n_constant, ObsTable *t, int32_t *codes) {
    for (int32_t j = 0; j < n_constant; j++)
        b->mine[constant[j]] = 1;
    for (int32_t k = 0; k < n_layouts; k++) {
        for (int32_t p = mined_ptr[k]; p < mined_ptr[k + 1]; p++)
            b->mine[mined[p]] = 1;
        for (int32_t i = 0; i < n_cells; i++) {
            int32_t c = cells[i], id;
            if (b->mine[c]) {
                id = -1;
            } else {
                int32_t number = count_mines(b, c);
                int32_t len = number ? 0 : flood_fill(b, c);
                id = obs_id(t, i, number, b->seq, len);
                if (id < 0)
                    return -1;
            }
            codes[(size_t)i * (size_t)n_layouts + (size_t)k] = id;
        }
        for (int32_t p = mined_ptr[k]; p < mined_ptr[k + 1]; p++)
            b->mine[mined[p]] = 0;
        for (int32_t j = 0; j < n_constant; j++)
            b->mine[constant[j]] = 1; /* a layout never unsets the constant mines */
    }
    return 0;
}

static int buffer_len(Py_buffer *v, Py_ssize_t item, Py_ssize_t *out, const char *name) {
    if (v->len % item) {
        PyErr_Format(PyExc_ValueError, "%s: a whole number of %zd-byte items expected", name, item);
        return -1;
    }
    *out = v->len / item;
    return 0;
}

/* Checks of observations' arguments: every index in range (the C code trusts them). */
static int check_observe_args(Py_buffer *indptr, Py_buffer *indices, Py_buffer *shown,
                              Py_buffer *cells, Py_buffer *mined_ptr, Py_buffer *mined,
                              Py_buffer *constant, Py_ssize_t *n_board, Py_ssize_t *n_layouts) {
    Py_ssize_t np, ni, ns, nc, nm, nmm, nk;
    if (buffer_len(indptr, 4, &np, "indptr") || buffer_len(indices, 4, &ni, "indices") ||
        buffer_len(shown, 1, &ns, "shown") || buffer_len(cells, 4, &nc, "cells") ||
        buffer_len(mined_ptr, 4, &nm, "mined_ptr") || buffer_len(mined, 4, &nmm, "mined") ||
        buffer_len(constant, 4, &nk, "constant"))
        return -1;
    const int32_t *ip = indptr->buf, *ix = indices->buf, *mp = mined_ptr->buf;
    *n_board = np - 1;
    *n_layouts = nm - 1;
    if (np < 1 || ns != np - 1 || ip[0] != 0 || ip[np - 1] != ni || nm < 1 || mp[0] != 0 ||
        mp[nm - 1] != nmm || nm - 1 > EG_MAX_LAYOUTS || nc > EG_MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "observations: inconsistent array lengths");
        return -1;
    }
    for (Py_ssize_t j = 0; j + 1 < np; j++)
        if (ip[j] > ip[j + 1])
            goto bad;
    for (Py_ssize_t j = 0; j + 1 < nm; j++)
        if (mp[j] > mp[j + 1])
            goto bad;
    for (Py_ssize_t j = 0; j < ni; j++)
        if (ix[j] < 0 || ix[j] >= *n_board)
            goto bad;
    const int32_t *lists[3] = {cells->buf, mined->buf, constant->buf};
    Py_ssize_t lens[3] = {nc, nmm, nk};
    for (int l = 0; l < 3; l++)
        for (Py_ssize_t j = 0; j < lens[l]; j++)
            if (lists[l][j] < 0 || lists[l][j] >= *n_board)
                goto bad;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "observations: a cell index out of range");
    return -1;
}

static PyObject *observations(PyObject *self, PyObject *args) {
    Py_buffer indptr, indices, shown, cells, mined_ptr, mined, constant;
    Py_ssize_t arena_limit, n_board, n_layouts;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*n", &indptr, &indices, &shown, &cells, &mined_ptr,
                          &mined, &constant, &arena_limit))
        return NULL;
    PyObject *out = NULL;
    if (check_observe_args(&indptr, &indices, &shown, &cells, &mined_ptr, &mined, &constant,
                           &n_board, &n_layouts) == 0) {
        Py_ssize_t n_cells = cells.len / 4;
        out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(int32_t) * n_cells * n_layouts);
        Board b = {(int32_t)n_board, indptr.buf, indices.buf, shown.buf, NULL, NULL, NULL, NULL, 0};
        ObsTable t = {NULL, 0, 0, NULL, 0, 0, (size_t)arena_limit, NULL};
        int failed = out == NULL;
        if (!failed) {
            Py_BEGIN_ALLOW_THREADS
            size_t nb = (size_t)n_board + 1;
            b.mine = calloc(nb, 1);
            b.stamp = calloc(nb, sizeof(int32_t));
            b.stack = malloc(nb * sizeof(int32_t));
            b.seq = malloc(2 * nb * sizeof(int32_t));
            t.next_id = calloc((size_t)n_cells + 1, sizeof(int32_t));
            failed = !b.mine || !b.stamp || !b.stack || !b.seq || !t.next_id ||
                     observe_all(&b, cells.buf, (int32_t)n_cells, mined_ptr.buf, mined.buf,
                                 (int32_t)n_layouts, constant.buf, (int32_t)(constant.len / 4),
                                 &t, (int32_t *)PyBytes_AS_STRING(out)) < 0;
            free(b.mine);
            free(b.stamp);
            free(b.stack);
            free(b.seq);
            free(t.next_id);
            free(t.slots);
            free(t.arena);
            Py_END_ALLOW_THREADS
            if (failed) {
                Py_CLEAR(out);
                PyErr_SetString(PyExc_MemoryError, "observations: out of memory");
            }
        }
    }
    PyBuffer_Release(&indptr);
    PyBuffer_Release(&indices);
    PyBuffer_Release(&shown);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&mined_ptr);
    PyBuffer_Release(&mined);
    PyBuffer_Release(&constant);
    return out;
}

/* ---------------------------------------------------------------- completions ----------- */

/* The backtracking of endgame.completions: hidden cells in the given order, value 0 then 1,
 * a branch cut as soon as a clue or the total cannot be met.  Layouts go to `out` (their
 * mined positions, CSR in *ptr); returns the number listed, -1 past `limit`, -2 on a timeout
 * or cancel, -3 out of memory. */
typedef struct {
    int32_t *ptr, *cells;
    size_t n_ptr, cap_ptr, n_cells, cap_cells;
} Listing;

static int listing_push(Listing *l, const int32_t *chosen, int32_t placed) {
    if (l->n_ptr + 1 >= l->cap_ptr) {
        size_t cap = l->cap_ptr ? 2 * l->cap_ptr : 1024;
        int32_t *p = realloc(l->ptr, cap * sizeof(int32_t));
        if (!p)
            return -1;
        l->ptr = p;
        l->cap_ptr = cap;
    }
    if (l->n_cells + (size_t)placed > l->cap_cells) {
        size_t cap = l->cap_cells ? 2 * l->cap_cells : 4096;
        while (cap < l->n_cells + (size_t)placed)
            cap *= 2;
        int32_t *c = realloc(l->cells, cap * sizeof(int32_t));
        if (!c)
            return -1;
        l->cells = c;
        l->cap_cells = cap;
    }
    memcpy(l->cells + l->n_cells, chosen, (size_t)placed * sizeof(int32_t));
    l->n_cells += (size_t)placed;
    l->ptr[++l->n_ptr] = (int32_t)l->n_cells;
    return 0;
}

typedef struct {
    const int32_t *watch_ptr, *watch; /* per hidden position: the clues over it */
    int32_t *need, *left;             /* per clue: mines still needed, cells still open */
    int32_t n, total;                 /* hidden cells; the mines left (-1: no total) */
    double deadline;
    int has_deadline;
    volatile const char *cancel;
} Backtrack;

/* Try value v at depth i: update the clues and say whether they can still be met. */
static int place(Backtrack *b, int32_t i, int32_t v) {
    int ok = 1;
    for (int32_t p = b->watch_ptr[i]; p < b->watch_ptr[i + 1]; p++) {
        int32_t k = b->watch[p];
        b->left[k]--;
        b->need[k] -= v;
        if (b->need[k] < 0 || b->need[k] > b->left[k])
            ok = 0;
    }
    return ok;
}

static void unplace(Backtrack *b, int32_t i, int32_t v) {
    for (int32_t p = b->watch_ptr[i]; p < b->watch_ptr[i + 1]; p++) {
        b->left[b->watch[p]]++;
        b->need[b->watch[p]] += v;
    }
}

static int64_t list_layouts(Backtrack *b, const int32_t *cells, int64_t limit, Listing *out) {
    int32_t n = b->n, i = 0, placed = 0;
    int8_t *value = malloc((size_t)n + 1);
    int32_t *chosen = malloc(((size_t)n + 1) * sizeof(int32_t));
    int64_t found = 0, nodes = 0, result = 0;
    if (!value || !chosen) {
        free(value);
        free(chosen);
        return -3;
    }
    memset(value, -1, (size_t)n + 1);
    out->ptr[0] = 0;
    while (i >= 0) {
        if (i == n) {
            if (++found > limit) {
                result = -1;
                break;
            }
            if (listing_push(out, chosen, placed) < 0) {
                result = -3;
                break;
            }
            i--;
            continue;
        }
        int32_t v = value[i];
        if (v >= 0) { /* take back the value tried last here */
            unplace(b, i, v);
            placed -= v;
        }
        if (++v > 1) {
            value[i--] = -1;
            continue;
        }
        value[i] = (int8_t)v;
        if (++nodes % 4096 == 0 && ((b->cancel && *b->cancel) ||
                                    (b->has_deadline && now_seconds() >= b->deadline))) {
            result = -2;
            break;
        }
        int ok = place(b, i, v);
        if (v)
            chosen[placed++] = cells[i];
        if (ok && (b->total < 0 || (placed <= b->total && b->total <= placed + n - i - 1)))
            i++;
    }
    free(value);
    free(chosen);
    return result < 0 ? result : found;
}

static PyObject *completions(PyObject *self, PyObject *args) {
    Py_buffer cells, watch_ptr, watch, need;
    Py_ssize_t total, limit;
    double seconds;
    PyObject *flag;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*y*nndO", &cells, &watch_ptr, &watch, &need, &total,
                          &limit, &seconds, &flag))
        return NULL;
    Py_buffer cancel = {0};
    PyObject *out = NULL;
    Py_ssize_t n = cells.len / 4, n_clues = need.len / 4, n_watch = watch.len / 4;
    const int32_t *wp = watch_ptr.buf, *w = watch.buf;
    int ok = cells.len % 4 == 0 && need.len % 4 == 0 && watch.len % 4 == 0 &&
             watch_ptr.len == 4 * (n + 1) && wp[0] == 0 && wp[n] == n_watch && limit >= 0 &&
             n < INT32_MAX / 2;
    for (Py_ssize_t j = 0; ok && j < n; j++)
        ok = wp[j] <= wp[j + 1];
    for (Py_ssize_t j = 0; ok && j < n_watch; j++)
        ok = w[j] >= 0 && w[j] < n_clues;
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "completions: inconsistent arguments");
    else if (flag == Py_None || PyObject_GetBuffer(flag, &cancel, PyBUF_WRITABLE) == 0) {
        Backtrack b = {wp, w, malloc(4 * (size_t)n_clues + 4), calloc((size_t)n_clues + 1, 4),
                       (int32_t)n, (int32_t)total, now_seconds() + (seconds > 0 ? seconds : 0),
                       seconds >= 0, cancel.buf && cancel.len > 0 ? cancel.buf : NULL};
        Listing l = {malloc(1024 * sizeof(int32_t)), NULL, 0, 1024, 0, 0};
        int64_t found = -3;
        Py_BEGIN_ALLOW_THREADS
        if (b.need && b.left && l.ptr) {
            memcpy(b.need, need.buf, 4 * (size_t)n_clues);
            for (Py_ssize_t j = 0; j < n_watch; j++)
                b.left[w[j]]++;
            found = list_layouts(&b, cells.buf, limit, &l);
        }
        Py_END_ALLOW_THREADS
        if (found >= 0)
            out = Py_BuildValue("(iy#y#)", EG_OK, (const char *)l.ptr,
                                (Py_ssize_t)(4 * (found + 1)), (const char *)(l.cells ? l.cells : l.ptr),
                                (Py_ssize_t)(4 * l.n_cells));
        else
            out = Py_BuildValue("(iOO)", found == -1 ? EG_LIMIT : found == -2 ? EG_TIMEOUT
                                                                                 : EG_NOMEMORY,
                                Py_None, Py_None);
        free(b.need);
        free(b.left);
        free(l.ptr);
        free(l.cells);
        if (cancel.obj)
            PyBuffer_Release(&cancel);
    }
    PyBuffer_Release(&cells);
    PyBuffer_Release(&watch_ptr);
    PyBuffer_Release(&watch);
    PyBuffer_Release(&need);
    return out;
}

/* ---------------------------------------------------------------- the search ------------ */

typedef struct {
    uint64_t hash;
    uint32_t *key; /* the sorted layout indices (in the key arena); NULL: empty slot */
    uint32_t n;
    int32_t cell;  /* with exact: a cell that wins it (-1: none to choose) */
    int64_t exact; /* -1: unknown */
    int64_t upper; /* -1: no bound known */
} MemoEntry;

typedef struct {
    int32_t n_layouts, n_cells;
    const int32_t *codes;  /* codes[i * n_layouts + k] */
    const int32_t *order;  /* the board index of each cell position: ties go to the lowest */
    int32_t *slot;         /* scratch of split: per observation id, its part (-1: none yet) */
    MemoEntry *memo;
    size_t capacity, used;
    char *chunk;           /* the key arena: chunks of memory, never moved */
    char *chunk_next;      /* the next free byte of the newest chunk */
    size_t chunk_left, key_bytes, key_limit;
    double deadline;       /* monotonic seconds, when has_deadline */
    int has_deadline;
    int64_t nodes, max_nodes;
    volatile const char *cancel; /* the caller's cancel flag (a byte), or NULL */
    int status;
    /* Independent regions (factor): per cell position, the positions at most two steps
     * away (CSR; NULL: never factor), a random key per position. */
    const int32_t *near_ptr, *near;
    uint64_t *key;
    int32_t *stamp, generation; /* stamp: per position, the generation of its last region search */
    int same_total; /* every layout has the same number of mines among the cells */
    uint32_t factor_min; /* the fewest layouts of a group factor looks at */
    /* Tangles (tangle_bound): per layout, the layouts no cell safe in both tells apart (CSR;
     * NULL: none known, no bound), and the scratch of one cover. */
    uint32_t *tangle_ptr, *tangle;
    int32_t *stamp_of, *set_of, *set_size, *set_hits;
    int32_t tangle_generation;
    uint32_t tangle_layouts; /* the most layouts whose tangles are found (0: none) */
} Search;

static uint64_t hash_group(const uint32_t *g, uint32_t n) {
    uint64_t h = 0x243f6a8885a308d3ULL ^ n;
    for (uint32_t j = 0; j < n; j++)
        h = mix64(h, g[j]);
    return h;
}

static MemoEntry *memo_find(Search *s, const uint32_t *g, uint32_t n, uint64_t h) {
    if (!s->capacity)
        return NULL;
    for (size_t j = (size_t)h & (s->capacity - 1); s->memo[j].key; j = (j + 1) & (s->capacity - 1)) {
        MemoEntry *e = &s->memo[j];
        if (e->hash == h && e->n == n && memcmp(e->key, g, n * sizeof(uint32_t)) == 0)
            return e;
    }
    return NULL;
}

static int memo_grow(Search *s) {
    size_t cap = s->capacity ? s->capacity * 2 : 4096;
    MemoEntry *memo = calloc(cap, sizeof(MemoEntry));
    if (!memo)
        return -1;
    for (size_t i = 0; i < s->capacity; i++) {
        if (!s->memo[i].key)
            continue;
        size_t j = (size_t)s->memo[i].hash & (cap - 1);
        while (memo[j].key)
            j = (j + 1) & (cap - 1);
        memo[j] = s->memo[i];
    }
    free(s->memo);
    s->memo = memo;
    s->capacity = cap;
    return 0;
}

/* A new entry for the group, or NULL once the memo is full (the search goes on without). */
static MemoEntry *memo_add(Search *s, const uint32_t *g, uint32_t n, uint64_t h) {
    size_t bytes = ((size_t)n * sizeof(uint32_t) + 7) & ~(size_t)7;
    size_t table = (s->capacity + 1) * sizeof(MemoEntry);
    if (s->key_bytes + bytes + 2 * table > s->key_limit)
        return NULL;
    if ((s->used + 1) * 2 > s->capacity && memo_grow(s) < 0)
        return NULL;
    if (bytes > s->chunk_left) {
        size_t size = bytes > ((size_t)1 << 20) ? bytes : ((size_t)1 << 20);
        char *chunk = malloc(size + 8);
        if (!chunk)
            return NULL;
        *(char **)chunk = s->chunk; /* chunks are chained, to be freed at the end */
        s->chunk = chunk;
        s->chunk_next = chunk + 8;
        s->chunk_left = size;
        s->key_bytes += size;
    }
    uint32_t *key = (uint32_t *)s->chunk_next;
    s->chunk_next += bytes;
    s->chunk_left -= bytes;
    memcpy(key, g, n * sizeof(uint32_t));
    size_t j = (size_t)h & (s->capacity - 1);
    while (s->memo[j].key)
        j = (j + 1) & (s->capacity - 1);
    MemoEntry *e = &s->memo[j];
    e->hash = h;
    e->key = key;
    e->n = n;
    e->cell = -1;
    e->exact = e->upper = -1;
    s->used++;
    return e;
}

static void memo_free(Search *s) {
    while (s->chunk) {
        char *next = *(char **)s->chunk;
        free(s->chunk);
        s->chunk = next;
    }
    free(s->memo);
    s->memo = NULL;
}

/* _Search._keep: remember `won` for the group, its value when above `floor` or `settled`,
 * else a bound it cannot exceed. */
static int64_t keep(Search *s, const uint32_t *g, uint32_t n, uint64_t h, int64_t won,
                    int32_t cell, int64_t floor, int settled, int32_t *best) {
    MemoEntry *e = memo_find(s, g, n, h);
    if (!e)
        e = memo_add(s, g, n, h);
    if (won > floor || settled) {
        if (e) {
            e->exact = won;
            e->cell = cell;
        }
        *best = cell;
        return won;
    }
    if (e && (e->upper < 0 || won < e->upper))
        e->upper = won;
    *best = -1;
    return won;
}

/* _Search.split: the layouts of the group where cell position `i` is safe, by what it shows.
 * labels[j]: the part of g[j] (-1: a mine), parts numbered by first appearance (so two cells
 * that split alike give equal labels); parts (n entries) holds them part after part, from
 * offsets start[p]. Returns the number of parts. */
static uint32_t split(Search *s, int32_t i, const uint32_t *g, uint32_t n, int32_t *labels,
                      uint32_t *parts, uint32_t *start) {
    const int32_t *code = s->codes + (size_t)i * (size_t)s->n_layouts;
    uint32_t n_parts = 0;
    for (uint32_t j = 0; j < n; j++) {
        int32_t o = code[g[j]];
        if (o < 0) {
            labels[j] = -1;
            continue;
        }
        if (s->slot[o] < 0) {
            s->slot[o] = (int32_t)n_parts;
            start[n_parts++] = 0;
        }
        labels[j] = s->slot[o];
        start[labels[j]]++;
    }
    uint32_t at = 0;
    for (uint32_t p = 0; p < n_parts; p++) { /* sizes -> offsets */
        uint32_t size = start[p];
        start[p] = at;
        at += size;
    }
    start[n_parts] = at;
    for (uint32_t j = 0; j < n; j++) {
        if (labels[j] >= 0) {
            parts[start[labels[j]]++] = g[j];
            s->slot[code[g[j]]] = -1;
        }
    }
    for (uint32_t p = n_parts; p > 0; p--) /* the ends back to starts */
        start[p] = start[p - 1];
    start[0] = 0;
    return n_parts;
}

static int64_t value(Search *s, const uint32_t *g, uint32_t n, const int32_t *cells, int32_t m,
                     int64_t floor, int32_t *best);
static int64_t value_at(Search *s, const uint32_t *g, uint32_t n, uint64_t h,
                        const int32_t *cells, int32_t m, int64_t floor, int32_t *best);

typedef struct {
    uint32_t size, start;
    int64_t bound; /* the most the part can win (its size, or less: part_bound) */
    uint64_t hash;
} Part;

/* Free the tangled pairs (the search then runs without tangle_bound). */
static void tangles_free(Search *s) {
    free(s->tangle_ptr);
    free(s->tangle);
    free(s->stamp_of);
    s->tangle_ptr = s->tangle = NULL;
    s->stamp_of = s->set_of = s->set_size = s->set_hits = NULL;
}

/* A bound on the group's value from layouts no move tells apart.  Two layouts are tangled
 * when every cell safe in both shows the same in both: until a move uncovers a cell mined in
 * one of them, play cannot separate them, and that move loses one.  So of a set of layouts
 * tangled pairwise, play wins at most one (two distinct layouts differ on a cell some layout
 * of the group mines, so a group that still holds both is not won), and the number of sets
 * of any cover of the group by such sets bounds its value.  Tangling is a property of the
 * two layouts alone (codes do not depend on the group), so the pairs are found once
 * (tangles_open) and each cover is greedy over them: a layout joins the first set all of
 * whose members it is tangled with.  n when no pairs are known. */
static int64_t tangle_bound(Search *s, const uint32_t *g, uint32_t n) {
    if (!s->tangle_ptr)
        return n;
    int32_t gen = ++s->tangle_generation;
    for (uint32_t j = 0; j < n; j++) {
        s->stamp_of[g[j]] = gen;
        s->set_of[g[j]] = -1;
    }
    int32_t count = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t x = g[j], from = s->tangle_ptr[x], to = s->tangle_ptr[x + 1];
        int32_t join = -1;
        for (uint32_t e = from; e < to; e++) { /* members of each set x is tangled with */
            uint32_t y = s->tangle[e];
            if (s->stamp_of[y] == gen && s->set_of[y] >= 0)
                s->set_hits[s->set_of[y]]++;
        }
        for (uint32_t e = from; e < to; e++) { /* the first set x is tangled with entirely */
            uint32_t y = s->tangle[e];
            if (s->stamp_of[y] != gen || s->set_of[y] < 0)
                continue;
            int32_t t = s->set_of[y];
            if (join < 0 && s->set_hits[t] == s->set_size[t])
                join = t;
            s->set_hits[t] = 0;
        }
        if (join < 0) {
            join = count++;
            s->set_size[join] = 0;
            s->set_hits[join] = 0;
        }
        s->set_of[x] = join;
        s->set_size[join]++;
    }
    return count;
}

/* A bound the value of the group (hash h) cannot exceed: its value or bound in the memo,
 * else tangle_bound. */
static int64_t part_bound(Search *s, const uint32_t *g, uint32_t n, uint64_t h) {
    MemoEntry *e = n > 1 ? memo_find(s, g, n, h) : NULL;
    if (e && e->exact >= 0)
        return e->exact;
    if (e && e->upper >= 0)
        return e->upper;
    if (n <= 1)
        return n;
    int64_t bound = tangle_bound(s, g, n);
    if (!e)
        e = memo_add(s, g, n, h);
    if (e)
        e->upper = bound;
    return bound;
}

static int by_size_desc(const void *a, const void *b) {
    const Part *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? 1 : -1;
    return (x->start > y->start) - (x->start < y->start);
}

/* _Search.after: the layouts won after a split into parts, if more than `floor`; else a
 * bound at most `floor` that it cannot exceed. */
static int64_t after(Search *s, const uint32_t *parts, const uint32_t *start, uint32_t n_parts,
                     int64_t floor, const int32_t *cells, int32_t m) {
    Part stack_order[16];
    Part *order = n_parts <= 16 ? stack_order : malloc(n_parts * sizeof(Part));
    if (!order) {
        s->status = EG_NOMEMORY;
        return 0;
    }
    int64_t left = 0, total = 0, result = -1;
    for (uint32_t p = 0; p < n_parts; p++) {
        order[p].size = start[p + 1] - start[p];
        order[p].start = start[p];
        /* With a floor to pass, each part's bound from the memo: the parts together must
         * pass it, and each part needs more the less the others can win. */
        order[p].hash = hash_group(parts + start[p], order[p].size);
        order[p].bound = floor < 0 ? (int64_t)order[p].size
                                   : part_bound(s, parts + start[p], order[p].size, order[p].hash);
        left += order[p].bound;
    }
    qsort(order, n_parts, sizeof(Part), by_size_desc);
    for (uint32_t p = 0; p < n_parts && result < 0; p++) {
        int64_t size = order[p].bound;
        left -= size;
        int64_t need = floor - total - left; /* this part must win more than this */
        if (need >= size) {
            result = total + size + left;
            break;
        }
        int32_t cell;
        int64_t won = order[p].size <= 1 ? order[p].size
                      : value_at(s, parts + order[p].start, order[p].size, order[p].hash, cells,
                                 m, need, &cell);
        if (s->status != EG_OK)
            result = 0;
        else if (won <= need) /* `won` bounds the part: so does the sum */
            result = total + won + left;
        else
            total += won;
    }
    if (order != stack_order)
        free(order);
    return result < 0 ? total : result;
}

/* The scratch of one call of value, in one allocation. */
typedef struct {
    int32_t *count, *live, *guess;
    int32_t *labels;   /* per tried cell: its labels (n each), to find cells that split alike */
    uint64_t *sig;     /* per tried cell: the hash of its labels */
    uint32_t *parts, *start;
    void *block;
} Frame;

static int frame_open(Frame *f, uint32_t n, int32_t m) {
    size_t bytes = sizeof(int32_t) * 3 * (size_t)m + sizeof(int32_t) * (size_t)n * (size_t)(m + 1) +
                   sizeof(uint64_t) * (size_t)m + sizeof(uint32_t) * (2 * (size_t)n + 2);
    char *p = f->block = malloc(bytes + 64);
    if (!p)
        return -1;
    f->sig = (uint64_t *)p;
    p += sizeof(uint64_t) * (size_t)m;
    f->count = (int32_t *)p;
    f->live = f->count + m;
    f->guess = f->live + m;
    f->labels = f->guess + m;
    f->parts = (uint32_t *)(f->labels + (size_t)n * (size_t)(m + 1));
    f->start = f->parts + n;
    return 0;
}

typedef struct {
    const uint32_t *g;
    uint32_t n;
    uint64_t hash;
    const int32_t *cells; /* the cells that may matter, and the live ones among them */
    int32_t m, n_live;
} Node;

/* Whether cell position a (in node->cells) goes before b: safest first, then lowest index. */
static int guess_before(const Search *s, const Node *node, const Frame *f, int32_t a, int32_t b) {
    if (f->count[a] != f->count[b])
        return f->count[a] < f->count[b];
    return s->order[node->cells[a]] < s->order[node->cells[b]];
}

/* The guesses sorted safest first, then by board index (insertion sort: few cells). */
static void sort_guesses(const Search *s, const Node *node, Frame *f, int32_t k) {
    for (int32_t a = 1; a < k; a++) {
        int32_t x = f->guess[a], b = a - 1;
        while (b >= 0 && guess_before(s, node, f, x, f->guess[b])) {
            f->guess[b + 1] = f->guess[b];
            b--;
        }
        f->guess[b + 1] = x;
    }
}

static int tick(Search *s) {
    if (s->nodes++ % 256 == 0) {
        if (s->cancel && *s->cancel) {
            s->status = EG_CANCELLED;
            return -1;
        }
        if ((s->has_deadline && now_seconds() >= s->deadline) ||
            (s->max_nodes > 0 && s->nodes > s->max_nodes)) {
            s->status = EG_TIMEOUT;
            return -1;
        }
    }
    return 0;
}

/* One guess of best_guess: the layouts won after guessing cell position `at` of the node if
 * more than *top (then *top and *best move), else a bound (into *bound); 0 when skipped: in
 * the first pass (`pass` 0) a guess that tells nothing, in the second one that does, or a
 * guess that splits the layouts as one already tried. */
static void try_guess(Search *s, const Node *node, Frame *f, int32_t at, int pass, int32_t *tried,
                      int64_t *top, int32_t *best, int64_t *bound) {
    uint32_t n = node->n;
    int32_t i = node->cells[at];
    int32_t *labels = f->labels + (size_t)*tried * n;
    uint32_t n_parts = split(s, i, node->g, n, labels, f->parts, f->start);
    if (pass < 2 && (n_parts == 1) != pass)
        return;
    uint64_t h = hash_group((const uint32_t *)labels, n);
    for (int32_t t = 0; t < *tried; t++)
        if (f->sig[t] == h && memcmp(f->labels + (size_t)t * n, labels, n * sizeof(int32_t)) == 0)
            return; /* splits the layouts as a cell already tried */
    f->sig[(*tried)++] = h;
    int64_t won = after(s, f->parts, f->start, n_parts, *top, f->live, node->n_live);
    if (s->status != EG_OK)
        return;
    if (won > *top) {
        *top = won;
        *best = i;
    } else if (won > *bound) {
        *bound = won;
    }
}

/* The guessing loop of _Search.value: the best over the k sorted guesses above `floor`;
 * `*best` = its cell, or -1 with `*bound` the most any cell could win.  Guesses that tell
 * something go first (safest first), then those that tell nothing (they only make progress
 * by their own cell, rarely the best, and once a good value is known they fail low cheaply). */
static int64_t best_guess(Search *s, const Node *node, Frame *f, int32_t k, int64_t floor,
                          int32_t *best, int64_t *bound) {
    int64_t top = floor;
    int32_t tried = 0;
    *best = -1;
    *bound = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int32_t a = 0; a < k && s->status == EG_OK; a++) {
            int64_t safe = (int64_t)node->n - f->count[f->guess[a]];
            if (safe <= top) {
                if (safe > *bound)
                    *bound = safe;
                break; /* no cell from here on can win more */
            }
            try_guess(s, node, f, f->guess[a], pass, &tried, &top, best, bound);
        }
    }
    return s->status != EG_OK ? 0 : top;
}

/* The fewest layouts of a group whose guesses are ordered, and cut, by what each could win
 * (guess_bound); smaller groups try them safest first. */
#define ORDER_MIN 16

/* The most the group could win guessing cell position i first: the sum over the parts of
 * its split of each part's bound (part_bound). */
static int64_t guess_bound(Search *s, const Node *node, Frame *f, int32_t i) {
    uint32_t n_parts = split(s, i, node->g, node->n, f->labels, f->parts, f->start);
    int64_t total = 0;
    for (uint32_t p = 0; p < n_parts; p++) {
        uint32_t size = f->start[p + 1] - f->start[p];
        const uint32_t *part = f->parts + f->start[p];
        total += size > 1 ? part_bound(s, part, size, hash_group(part, size)) : (int64_t)size;
    }
    return total;
}

/* best_guess for a large group: every guess bounded first (guess_bound), then tried from the
 * highest bound down until no bound beats the best found. */
static int64_t ordered_guess(Search *s, const Node *node, Frame *f, int32_t k, int64_t floor,
                             int32_t *best, int64_t *bound) {
    int64_t *ub = malloc(sizeof(int64_t) * (size_t)k);
    int64_t top = floor;
    int32_t tried = 0;
    *best = -1;
    *bound = 0;
    if (!ub) {
        s->status = EG_NOMEMORY;
        return 0;
    }
    for (int32_t a = 0; a < k; a++)
        ub[a] = guess_bound(s, node, f, node->cells[f->guess[a]]);
    for (int32_t a = 1; a < k; a++) { /* by bound, highest first; stable: safest first */
        int32_t x = f->guess[a], b = a - 1;
        int64_t u = ub[a];
        while (b >= 0 && ub[b] < u) {
            f->guess[b + 1] = f->guess[b];
            ub[b + 1] = ub[b];
            b--;
        }
        f->guess[b + 1] = x;
        ub[b + 1] = u;
    }
    for (int32_t a = 0; a < k && s->status == EG_OK; a++) {
        if (ub[a] <= top) {
            if (ub[a] > *bound)
                *bound = ub[a];
            break; /* no cell from here on can win more */
        }
        try_guess(s, node, f, f->guess[a], 2, &tried, &top, best, bound);
    }
    free(ub);
    return s->status != EG_OK ? 0 : top;
}

/* Drop cell i from the live cells (safe in every layout and teaching nothing). */
static int32_t drop_live(int32_t *live, int32_t n_live, int32_t i) {
    int32_t b = 0;
    for (int32_t c = 0; c < n_live; c++)
        if (live[c] != i)
            live[b++] = live[c];
    return b;
}

/* ---------------------------------------------------------------- independent regions --- */

/* The fewest layouts a group must hold before the search looks for independent regions in
 * it, unless the call says otherwise (endgame.FACTOR_MIN): below this, testing costs more
 * than the search it saves. */
#define FACTOR_MIN 8

/* Whether layouts x and y have the same mines on the m cell positions `cells`. */
static int same_pattern(const Search *s, uint32_t x, uint32_t y, const int32_t *cells, int32_t m) {
    for (int32_t a = 0; a < m; a++) {
        const int32_t *code = s->codes + (size_t)cells[a] * (size_t)s->n_layouts;
        if ((code[x] < 0) != (code[y] < 0))
            return 0;
    }
    return 1;
}

static uint64_t pattern_hash(const Search *s, uint32_t x, const int32_t *cells, int32_t m) {
    uint64_t h = 0;
    for (int32_t a = 0; a < m; a++)
        if (s->codes[(size_t)cells[a] * (size_t)s->n_layouts + x] < 0)
            h += s->key[cells[a]];
    return h;
}

typedef struct {
    uint64_t hash;
    uint32_t layout;
} Keyed;

static int by_hash(const void *a, const void *b) {
    const Keyed *x = a, *y = b;
    return (x->hash > y->hash) - (x->hash < y->hash);
}

/* Whether every layout of g has, on `cells`, the pattern of one of the `a` layouts of rep
 * (exact: the hashes only find the candidates, the patterns are compared). */
static int covered(const Search *s, const uint32_t *g, uint32_t n, const uint32_t *rep, uint32_t a,
                   const int32_t *cells, int32_t m, Keyed *sorted) {
    for (uint32_t t = 0; t < a; t++) {
        sorted[t].hash = pattern_hash(s, rep[t], cells, m);
        sorted[t].layout = rep[t];
    }
    qsort(sorted, a, sizeof(Keyed), by_hash);
    for (uint32_t j = 0; j < n; j++) {
        uint64_t h = pattern_hash(s, g[j], cells, m);
        uint32_t lo = 0, hi = a, found = 0;
        while (lo < hi) { /* the first of the sorted hashes >= h */
            uint32_t mid = lo + (hi - lo) / 2;
            if (sorted[mid].hash < h)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < a && sorted[lo].hash == h && !found; lo++)
            found = same_pattern(s, g[j], sorted[lo].layout, cells, m);
        if (!found)
            return 0;
    }
    return 1;
}

/* The regions of the k guessed cell positions gs: cells at most two steps apart (near) are
 * joined.  out holds them region by region, region r at out[start[r]..start[r+1]).
 * Returns the number of regions. */
static int32_t find_regions(Search *s, const int32_t *gs, int32_t k, int32_t *out,
                            int32_t *start) {
    int32_t gen = ++s->generation, tail = 0, n_regions = 0;
    for (int32_t t = 0; t < k; t++)
        s->stamp[gs[t]] = gen; /* guessed, not reached yet; -gen once reached */
    for (int32_t t = 0; t < k; t++) {
        if (s->stamp[gs[t]] != gen)
            continue;
        start[n_regions++] = tail;
        s->stamp[gs[t]] = -gen;
        out[tail++] = gs[t];
        for (int32_t head = start[n_regions - 1]; head < tail; head++) {
            int32_t v = out[head];
            for (int32_t p = s->near_ptr[v]; p < s->near_ptr[v + 1]; p++) {
                int32_t q = s->near[p];
                if (s->stamp[q] == gen) {
                    s->stamp[q] = -gen;
                    out[tail++] = q;
                }
            }
        }
    }
    start[n_regions] = tail;
    return n_regions;
}

/* Whether the group is every combination of its patterns on R (r cells) and on O (o cells):
 * then gr (*a layouts) holds those agreeing with g[0] on O, go (*b) those agreeing on R.
 * With one total of mines in every layout, R's count must be the same in every layout of a
 * product (two layouts with the same O-pattern differ only on R): tested first, cheaply. */
static int product(const Search *s, const uint32_t *g, uint32_t n, const int32_t *R, int32_t r,
                   const int32_t *O, int32_t o, uint32_t *gr, uint32_t *a, uint32_t *go,
                   uint32_t *b, Keyed *sorted) {
    if (s->same_total) {
        int32_t first = 0;
        for (int32_t c = 0; c < r; c++)
            first += s->codes[(size_t)R[c] * (size_t)s->n_layouts + g[0]] < 0;
        for (uint32_t j = 1; j < n; j++) {
            int32_t k = 0;
            for (int32_t c = 0; c < r; c++)
                k += s->codes[(size_t)R[c] * (size_t)s->n_layouts + g[j]] < 0;
            if (k != first)
                return 0;
        }
    }
    *a = *b = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (same_pattern(s, g[j], g[0], O, o))
            gr[(*a)++] = g[j];
        if (same_pattern(s, g[j], g[0], R, r))
            go[(*b)++] = g[j];
    }
    /* g is within (R-patterns) x (O-patterns); gr and go hold distinct ones of each (the
     * layouts are distinct, and differ only where they are guessed): when every layout's
     * patterns are among them and the sizes multiply to n, g is the whole product. */
    return (uint64_t)*a * *b == n && covered(s, g, n, gr, *a, R, r, sorted) &&
           covered(s, g, n, go, *b, O, o, sorted);
}

/* _Search._factored: the value of the group as a product over independent regions, or -1
 * when it does not split.  What a guessed cell shows depends only on the guessed cells near
 * it (its neighbours; a 0's flood passes only through guessed cells, the cells around the
 * flood are near one of them, and every other cell is the same in every layout), so on a
 * product R x O the player learns about R only from R's cells and about O only from O's:
 * every strategy plays two independent games, and the best wins the product of the two
 * games' best (the layouts are equally likely, so those of R and of O are independent).
 * Each game is played on the layouts agreeing with g[0] off it (the same observations).
 * With `floor`: O must win more than floor / W(R) for the product to pass floor. */
static int64_t factor(Search *s, const Node *node, const Frame *f, int32_t k, int64_t floor,
                      int32_t *best) {
    uint32_t n = node->n;
    if (!s->near_ptr || n < s->factor_min || k < 2)
        return -1;
    int32_t *gs = malloc(sizeof(int32_t) * (4 * (size_t)k + 2));
    uint32_t *gr = malloc(sizeof(uint32_t) * 2 * (size_t)n);
    Keyed *sorted = malloc(sizeof(Keyed) * (size_t)n);
    if (!gs || !gr || !sorted) {
        free(gs);
        free(gr);
        free(sorted);
        s->status = EG_NOMEMORY;
        return 0;
    }
    int32_t *out = gs + k, *start = out + k, *rest = start + k + 1;
    uint32_t *go = gr + n, a = 0, b = 0;
    for (int32_t t = 0; t < k; t++)
        gs[t] = node->cells[f->guess[t]];
    int32_t n_regions = find_regions(s, gs, k, out, start), r = 0, split = 0;
    for (; n_regions > 1 && r < n_regions && !split; r++) {
        int32_t o = 0;
        for (int32_t t = 0; t < k; t++)
            if (t < start[r] || t >= start[r + 1])
                rest[o++] = out[t];
        split = product(s, node->g, n, out + start[r], start[r + 1] - start[r], rest, o, gr, &a,
                        go, &b, sorted);
    }
    int64_t result = -1;
    if (split) {
        r--;
        int32_t cr, co, len = start[r + 1] - start[r];
        int64_t wr = value(s, gr, a, out + start[r], len, -1, &cr), wo = 0;
        int64_t need = floor < 0 || wr <= 0 ? floor : floor / wr;
        if (s->status == EG_OK)
            wo = value(s, go, b, rest, k - len, need, &co);
        if (s->status != EG_OK)
            result = 0;
        else if (wo > need)
            result = keep(s, node->g, n, node->hash, wr * wo, cr >= 0 ? cr : co, floor, 1, best);
        else /* O cannot win more than wo: nor the product more than wr * wo <= floor */
            result = keep(s, node->g, n, node->hash, wr * wo, -1, floor, 0, best);
    }
    free(gs);
    free(gr);
    free(sorted);
    return result;
}

/* The body of value once the memo has no answer: free cells, then guesses. */
static int64_t search_node(Search *s, Node *node, Frame *f, int64_t floor, int32_t *best) {
    const uint32_t *g = node->g;
    uint32_t n = node->n;
    int32_t k = 0;
    node->n_live = 0;
    for (int32_t a = 0; a < node->m; a++) {
        const int32_t *code = s->codes + (size_t)node->cells[a] * (size_t)s->n_layouts;
        int32_t mined = 0;
        for (uint32_t j = 0; j < n; j++)
            mined += code[g[j]] < 0;
        f->count[a] = mined;
        if ((uint32_t)mined < n)
            f->live[node->n_live++] = node->cells[a];
    }
    for (int32_t a = 0; a < node->m; a++) { /* certainly safe and informative: for free */
        if (f->count[a] != 0)
            continue;
        int32_t i = node->cells[a];
        uint32_t n_parts = split(s, i, g, n, f->labels, f->parts, f->start);
        if (n_parts > 1) {
            int64_t won = after(s, f->parts, f->start, n_parts, floor, f->live, node->n_live);
            return s->status != EG_OK ? 0 : keep(s, g, n, node->hash, won, i, floor, 0, best);
        }
        node->n_live = drop_live(f->live, node->n_live, i);
    }
    for (int32_t a = 0; a < node->m; a++)
        if (f->count[a] > 0 && (uint32_t)f->count[a] < n)
            f->guess[k++] = a;
    if (k == 0) /* every layout agrees on every cell that matters */
        return keep(s, g, n, node->hash, n, -1, floor, 1, best);
    if (floor >= (int64_t)n)
        return n;
    int64_t factored = factor(s, node, f, k, floor, best);
    if (factored >= 0 || s->status != EG_OK)
        return s->status != EG_OK ? 0 : factored;
    sort_guesses(s, node, f, k);
    int64_t bound, top = n >= ORDER_MIN ? ordered_guess(s, node, f, k, floor, best, &bound)
                                        : best_guess(s, node, f, k, floor, best, &bound);
    if (s->status != EG_OK)
        return 0;
    if (*best < 0)
        return keep(s, g, n, node->hash, bound, -1, floor, 0, best);
    return keep(s, g, n, node->hash, top, *best, floor, 0, best);
}

/* _Search.value: the most layouts of the group (n sorted indices) perfect play wins and a
 * cell that wins them, when more than `floor`; else a bound <= floor and *best = -1.
 * `cells` (m positions) holds every cell that may still matter. */
static int64_t value(Search *s, const uint32_t *g, uint32_t n, const int32_t *cells, int32_t m,
                     int64_t floor, int32_t *best) {
    *best = -1;
    if (n <= 1)
        return n;
    return value_at(s, g, n, hash_group(g, n), cells, m, floor, best);
}

/* value of a group of two layouts or more whose hash (hash_group) is h. */
static int64_t value_at(Search *s, const uint32_t *g, uint32_t n, uint64_t h,
                        const int32_t *cells, int32_t m, int64_t floor, int32_t *best) {
    *best = -1;
    MemoEntry *e = memo_find(s, g, n, h);
    if (e && e->exact >= 0) {
        *best = e->cell;
        return e->exact;
    }
    if (e && e->upper >= 0 && e->upper <= floor)
        return e->upper;
    if (tick(s) < 0)
        return 0;
    Frame f;
    if (frame_open(&f, n, m) < 0) {
        s->status = EG_NOMEMORY;
        return 0;
    }
    Node node = {g, n, h, cells, m, 0};
    int64_t won = search_node(s, &node, &f, floor, best);
    free(f.block);
    return won;
}

/* ---------------------------------------------------------------- tangles --------------- */

/* The most layouts whose tangled pairs are looked for (the work grows as their square), the
 * most pairs kept and the most bytes of the bit sets that find them: past any of these the
 * search goes on without tangle_bound. */
#define TANGLE_LAYOUTS 20000
#define TANGLE_PAIRS 4000000
#define TANGLE_BYTES ((size_t)64 << 20)

/* The bit sets of tangles_open: for each cell that tells some layouts apart (base[i] >= 0)
 * and each code v it shows, the layouts safe there showing another code (at sets + (base[i]
 * + v) * words); NULL when too big. */
static uint64_t *conflict_sets(const Search *s, int32_t *base, size_t words) {
    uint32_t n = (uint32_t)s->n_layouts;
    size_t total = 0;
    int32_t *tops = malloc(sizeof(int32_t) * ((size_t)s->n_cells + 1));
    for (int32_t i = 0; tops && i < s->n_cells; i++) {
        const int32_t *code = s->codes + (size_t)i * n;
        int32_t top = -1, first = -1, differ = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (code[k] < 0)
                continue;
            if (code[k] > top)
                top = code[k];
            differ |= first >= 0 && code[k] != first;
            first = code[k];
        }
        base[i] = differ ? (int32_t)total : -1;
        tops[i] = top;
        total += differ ? (size_t)top + 2 : 0; /* the codes, and the safe layouts last */
    }
    uint64_t *sets = tops && total * words * sizeof(uint64_t) <= TANGLE_BYTES
                         ? calloc(total * words + 1, sizeof(uint64_t))
                         : NULL;
    for (int32_t i = 0; sets && i < s->n_cells; i++) {
        if (base[i] < 0)
            continue;
        const int32_t *code = s->codes + (size_t)i * n;
        int32_t top = tops[i];
        uint64_t *safe = sets + ((size_t)base[i] + (size_t)top + 1) * words;
        for (uint32_t k = 0; k < n; k++) {
            if (code[k] < 0)
                continue;
            sets[((size_t)base[i] + (size_t)code[k]) * words + k / 64] |= (uint64_t)1 << (k % 64);
            safe[k / 64] |= (uint64_t)1 << (k % 64);
        }
        for (int32_t v = 0; v <= top; v++) /* showing v -> safe and showing another */
            for (size_t w = 0; w < words; w++)
                sets[((size_t)base[i] + (size_t)v) * words + w] ^= safe[w];
    }
    free(tops);
    return sets;
}

/* The tangled pairs (tangle_bound) as CSR lists in s->tangle_ptr / s->tangle, and the
 * scratch of a cover: layout x is tangled with y > x when no cell safe in x shows a code
 * that conflicts with y (the union of x's conflict sets misses y).  0 when done or skipped
 * (too many layouts or pairs: the search runs without the bound), -1 when out of memory. */
static int tangles_open(Search *s) {
    uint32_t n = (uint32_t)s->n_layouts;
    if (n < 2 || n > s->tangle_layouts)
        return 0;
    size_t words = (n + 63) / 64, n_pairs = 0, cap = 1024;
    int32_t *base = malloc(sizeof(int32_t) * ((size_t)s->n_cells + 1));
    uint64_t *sets = base ? conflict_sets(s, base, words) : NULL;
    uint64_t *acc = malloc(sizeof(uint64_t) * (words + 1));
    uint32_t *pairs = malloc(sizeof(uint32_t) * 2 * cap), *degree = calloc(n + 1, sizeof(uint32_t));
    int ok = base && sets && acc && pairs && degree;
    for (uint32_t x = 0; ok && x < n; x++) {
        size_t from = x / 64;
        memset(acc + from, 0, sizeof(uint64_t) * (words - from));
        for (int32_t i = 0; i < s->n_cells; i++) {
            int32_t v = s->codes[(size_t)i * n + x];
            if (base[i] < 0 || v < 0)
                continue;
            const uint64_t *set = sets + ((size_t)base[i] + (size_t)v) * words;
            for (size_t w = from; w < words; w++)
                acc[w] |= set[w];
        }
        for (uint32_t y = x + 1; ok && y < n; y++) {
            if (acc[y / 64] == ~(uint64_t)0) {
                y |= 63; /* a whole word of conflicts */
                continue;
            }
            if (acc[y / 64] >> (y % 64) & 1)
                continue;
            if (n_pairs == cap) {
                size_t more = cap * 2 < TANGLE_PAIRS ? cap * 2 : TANGLE_PAIRS;
                uint32_t *grown = more > cap ? realloc(pairs, sizeof(uint32_t) * 2 * more) : NULL;
                if (!grown) {
                    ok = 0; /* too many pairs (or no memory): no bound */
                    break;
                }
                pairs = grown;
                cap = more;
            }
            pairs[2 * n_pairs] = x;
            pairs[2 * n_pairs++ + 1] = y;
            degree[x]++;
            degree[y]++;
        }
    }
    int failed = !(base && acc && pairs && degree);
    if (ok) {
        s->tangle_ptr = malloc(sizeof(uint32_t) * ((size_t)n + 1));
        s->tangle = malloc(sizeof(uint32_t) * (2 * n_pairs + 1));
        s->stamp_of = calloc(4 * (size_t)n, sizeof(int32_t));
        if (s->tangle_ptr && s->tangle && s->stamp_of) {
            s->set_of = s->stamp_of + n;
            s->set_size = s->set_of + n;
            s->set_hits = s->set_size + n;
            s->tangle_ptr[0] = 0;
            for (uint32_t x = 0; x < n; x++)
                s->tangle_ptr[x + 1] = s->tangle_ptr[x] + degree[x];
            for (uint32_t x = 0; x < n; x++) /* degree: the next free slot of each list */
                degree[x] = s->tangle_ptr[x];
            for (size_t e = 0; e < n_pairs; e++) {
                uint32_t x = pairs[2 * e], y = pairs[2 * e + 1];
                s->tangle[degree[x]++] = y;
                s->tangle[degree[y]++] = x;
            }
        } else {
            failed = 1;
        }
    }
    if (!ok || failed)
        tangles_free(s);
    free(base);
    free(sets);
    free(acc);
    free(pairs);
    free(degree);
    return failed ? -1 : 0;
}

/* The whole search: the root's value and cell (`n_first` = 0), or the value after
 * uncovering each of `first` (positions) and then playing perfectly (in values). */
static void solve(Search *s, const int32_t *first, int32_t n_first, int64_t *values,
                  int32_t *best) {
    uint32_t n = (uint32_t)s->n_layouts;
    int32_t m = s->n_cells;
    uint32_t *all = malloc(sizeof(uint32_t) * ((size_t)n + 1));
    int32_t *cells = malloc(sizeof(int32_t) * ((size_t)m + 1));
    Frame f = {0};
    if (!all || !cells || frame_open(&f, n, 1) < 0) {
        s->status = EG_NOMEMORY;
    } else {
        for (uint32_t j = 0; j < n; j++)
            all[j] = j;
        for (int32_t i = 0; i < m; i++)
            cells[i] = i;
        if (n_first == 0)
            values[0] = value(s, all, n, cells, m, -1, best);
        for (int32_t a = 0; a < n_first && s->status == EG_OK; a++) {
            uint32_t n_parts = split(s, first[a], all, n, f.labels, f.parts, f.start);
            values[a] = after(s, f.parts, f.start, n_parts, -1, cells, m);
        }
    }
    free(f.block);
    free(all);
    free(cells);
}

/* Whether the optional near lists (CSR over the n cell positions) are consistent. */
static int near_ok(const Py_buffer *near_ptr, const Py_buffer *near, Py_ssize_t n) {
    if (!near_ptr->obj && !near->obj)
        return 1;
    if (!near_ptr->obj || !near->obj || near_ptr->len != 4 * (n + 1) || near->len % 4)
        return 0;
    const int32_t *p = near_ptr->buf, *q = near->buf;
    if (p[0] != 0 || p[n] != near->len / 4)
        return 0;
    for (Py_ssize_t j = 0; j < n; j++)
        if (p[j] > p[j + 1])
            return 0;
    for (Py_ssize_t j = 0; j < near->len / 4; j++)
        if (q[j] < 0 || q[j] >= n)
            return 0;
    return 1;
}

/* The scratch of factor, and whether every layout has as many mines among the cells. */
static int factor_open(Search *s) {
    size_t m = (size_t)s->n_cells + 1;
    s->key = malloc(sizeof(uint64_t) * m);
    s->stamp = calloc(m, sizeof(int32_t));
    if (!s->key || !s->stamp)
        return -1;
    uint64_t h = 0x6a09e667f3bcc909ULL;
    for (size_t i = 0; i < m; i++)
        s->key[i] = h = mix64(h, i);
    s->same_total = 1;
    int32_t first = 0;
    for (int32_t k = 0; k < s->n_layouts && s->same_total; k++) {
        int32_t mines = 0;
        for (int32_t i = 0; i < s->n_cells; i++)
            mines += s->codes[(size_t)i * (size_t)s->n_layouts + (size_t)k] < 0;
        if (k == 0)
            first = mines;
        s->same_total = mines == first;
    }
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args) {
    Py_buffer codes, order, first, cancel = {0}, near_ptr = {0}, near = {0};
    Py_ssize_t n_layouts, memo_bytes, tangle_layouts, factor_min = FACTOR_MIN;
    double seconds;
    long long max_nodes;
    PyObject *flag;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ny*y*dLnOn|y*y*n", &codes, &n_layouts, &order, &first,
                          &seconds, &max_nodes, &memo_bytes, &flag, &tangle_layouts, &near_ptr,
                          &near, &factor_min))
        return NULL;
    if (flag != Py_None && PyObject_GetBuffer(flag, &cancel, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&codes);
        PyBuffer_Release(&order);
        PyBuffer_Release(&first);
        if (near_ptr.obj)
            PyBuffer_Release(&near_ptr);
        if (near.obj)
            PyBuffer_Release(&near);
        return NULL;
    }
    PyObject *out = NULL;
    Py_ssize_t n_cells = order.len / 4, n_first = first.len / 4;
    int ok = n_layouts >= 0 && n_layouts <= EG_MAX_LAYOUTS && n_cells <= EG_MAX_CELLS &&
             order.len % 4 == 0 && first.len % 4 == 0 &&
             codes.len == (Py_ssize_t)sizeof(int32_t) * n_cells * n_layouts &&
             near_ok(&near_ptr, &near, n_cells) && factor_min >= 2 && tangle_layouts >= 0;
    int32_t max_code = -1;
    for (Py_ssize_t j = 0; ok && j < codes.len / 4; j++) {
        int32_t c = ((const int32_t *)codes.buf)[j];
        ok = c >= -1 && c < EG_MAX_LAYOUTS;
        if (c > max_code)
            max_code = c;
    }
    for (Py_ssize_t j = 0; ok && j < n_first; j++)
        ok = ((const int32_t *)first.buf)[j] >= 0 && ((const int32_t *)first.buf)[j] < n_cells;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "search: inconsistent arguments");
    } else {
        int64_t *values = calloc((size_t)n_first + 1, sizeof(int64_t));
        int32_t best = -1;
        Search s;
        memset(&s, 0, sizeof s);
        s.n_layouts = (int32_t)n_layouts;
        s.n_cells = (int32_t)n_cells;
        s.codes = codes.buf;
        s.order = order.buf;
        s.key_limit = (size_t)memo_bytes;
        s.has_deadline = seconds >= 0;
        s.deadline = now_seconds() + (seconds > 0 ? seconds : 0);
        s.max_nodes = max_nodes;
        s.cancel = cancel.buf && cancel.len > 0 ? cancel.buf : NULL;
        s.near_ptr = near_ptr.obj ? near_ptr.buf : NULL;
        s.near = near.obj ? near.buf : NULL;
        s.factor_min = (uint32_t)(factor_min < EG_MAX_LAYOUTS ? factor_min : EG_MAX_LAYOUTS);
        s.tangle_layouts = tangle_layouts < TANGLE_LAYOUTS ? (uint32_t)tangle_layouts : TANGLE_LAYOUTS;
        Py_BEGIN_ALLOW_THREADS
        s.slot = malloc(sizeof(int32_t) * ((size_t)max_code + 2));
        if (!values || !s.slot || factor_open(&s) < 0 || tangles_open(&s) < 0) {
            s.status = EG_NOMEMORY;
        } else {
            for (int32_t c = 0; c <= max_code; c++)
                s.slot[c] = -1;
            solve(&s, first.buf, (int32_t)n_first, values, &best);
        }
        Py_END_ALLOW_THREADS
        if (s.status == EG_OK) {
            PyObject *list = PyList_New(n_first);
            for (Py_ssize_t a = 0; list && a < n_first; a++)
                PyList_SET_ITEM(list, a, PyLong_FromLongLong(values[a]));
            if (list)
                out = Py_BuildValue("(iLiNL)", s.status, (long long)values[0], best, list,
                                    (long long)s.nodes);
        } else {
            out = Py_BuildValue("(iLiOL)", s.status, 0LL, -1, Py_None, (long long)s.nodes);
        }
        memo_free(&s);
        free(s.slot);
        free(s.key);
        free(s.stamp);
        tangles_free(&s);
        free(values);
    }
    PyBuffer_Release(&codes);
    PyBuffer_Release(&order);
    PyBuffer_Release(&first);
    if (cancel.obj)
        PyBuffer_Release(&cancel);
    if (near_ptr.obj)
        PyBuffer_Release(&near_ptr);
    if (near.obj)
        PyBuffer_Release(&near);
    return out;
}

static PyMethodDef methods[] = {
    {"completions", completions, METH_VARARGS,
     "completions(cells, watch_ptr, watch, need, total, limit, seconds, cancel) -> "
     "(status, mined_ptr, mined): every completion's mined cells (int32 CSR), or LIMIT."},
    {"observations", observations, METH_VARARGS,
     "observations(indptr, indices, shown, cells, mined_ptr, mined, constant, arena_bytes) -> "
     "bytes: int32 codes[i * n_layouts + k] (-1: a mine) of what each cell shows per layout."},
    {"search", search, METH_VARARGS,
     "search(codes, n_layouts, order, first, seconds, max_nodes, memo_bytes, cancel[, near_ptr, "
     "near, factor_min]) -> (status, won, best, values, nodes)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_endgame",
                                    "The exact endgame search (minegraph.play.endgame).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__endgame(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddStringConstant(m, "VERSION", KERNEL_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_HASH", KERNEL_SOURCE_HASH) < 0 ||
        PyModule_AddIntConstant(m, "OK", EG_OK) < 0 ||
        PyModule_AddIntConstant(m, "TIMEOUT", EG_TIMEOUT) < 0 ||
        PyModule_AddIntConstant(m, "NOMEMORY", EG_NOMEMORY) < 0 ||
        PyModule_AddIntConstant(m, "CANCELLED", EG_CANCELLED) < 0 ||
        PyModule_AddIntConstant(m, "LIMIT", EG_LIMIT) < 0 ||
        PyModule_AddIntConstant(m, "MAX_LAYOUTS", EG_MAX_LAYOUTS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_TANGLE_LAYOUTS", TANGLE_LAYOUTS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
