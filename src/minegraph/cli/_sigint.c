/*
 * minegraph.cli._sigint: the command line's Ctrl-C guard (minegraph/cli/interrupt.py).
 *
 * The command line owns SIGINT; the library (and its analysis kernel, minegraph._kernel)
 * never touches it.  A Python-level handler runs only when the main thread executes bytecode,
 * which it cannot while another thread holds the GIL inside a long C call (a CaDiCaL slice, an
 * encoder).  This guard acts at C level: the first SIGINT sets the query's cancel flag (the
 * work stops at its next check) and wakes a watcher thread, which ends the process with the
 * given status if it is still running `grace` seconds later; a second SIGINT ends it at once.
 * Only async-signal-safe calls (a byte store, sem_post, _exit) happen in the handler.
 *
 * Built by setup.py beside the kernel, and optional like it: without it (or on Windows, where
 * guard_sigint returns False) interrupt.py installs a Python handler instead.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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

static PyObject *guard_sigint(PyObject *self, PyObject *args) {
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

static PyObject *release_sigint(PyObject *self, PyObject *args) {
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


static PyMethodDef methods[] = {
    {"guard_sigint", guard_sigint, METH_VARARGS,
     "guard_sigint(flag, grace, status) -> whether the C-level guard is armed (see the source)."},
    {"release_sigint", release_sigint, METH_NOARGS,
     "release_sigint() -> whether SIGINT arrived while the guard was armed."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "minegraph.cli._sigint",
    "The command line's C-level Ctrl-C guard (see minegraph/cli/interrupt.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__sigint(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddStringConstant(m, "VERSION", KERNEL_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_HASH", KERNEL_SOURCE_HASH) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
