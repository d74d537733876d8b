/* The arguments engine/odds/_crib.c and _before_cut.c share, checked alike: a numpy array
 * of one exact type and shape, a card's index, the cards seen as an int of bits. Each
 * raises a Python exception and returns -1 for anything else; nothing is read past what
 * was given. */
#ifndef CRIBBAGE_CARD_ARGS_H
#define CRIBBAGE_CARD_ARGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define CARDS 52

static int read_array(PyObject *array, Py_buffer *view, int flags, const char *format,
                      Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape, const char *what) {
    if (PyObject_GetBuffer(array, view, flags | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    int fits = view->ndim == ndim && view->itemsize == itemsize && view->format != NULL &&
               strcmp(view->format, format) == 0;
    for (int axis = 0; fits && axis < ndim; axis++)
        fits = view->shape[axis] == shape[axis];
    if (!fits) {
        PyErr_Format(PyExc_TypeError, "%s is not of the right type and shape", what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int read_card(PyObject *number, int *card) {
    long index = PyLong_AsLong(number);
    if (index == -1 && PyErr_Occurred())
        return -1;
    if (index < 0 || index >= CARDS) {
        PyErr_SetString(PyExc_ValueError, "a card's index is 0 to 51");
        return -1;
    }
    *card = (int)index;
    return 0;
}

static int read_seen(PyObject *number, unsigned long long *seen) {
    if (!PyLong_Check(number) || Py_SIZE(number) < 0) {
        PyErr_SetString(PyExc_TypeError, "seen is an int of bits, one a card");
        return -1;
    }
    *seen = PyLong_AsUnsignedLongLong(number);
    if (*seen == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (*seen >> CARDS) {
        PyErr_SetString(PyExc_ValueError, "seen has a bit beyond the deck");
        return -1;
    }
    return 0;
}

#define RANKS 13
#define BINS 30

/* The rank table (13^5 int8 points), a weight by two ranks (13 x 13 float64) and the 30
 * float64 bins written: into views[0], [1] and [2], all or none (released on failure). */
static int read_table_weight_bins(PyObject *table, PyObject *weight, PyObject *bins,
                                  Py_buffer *views) {
    static const Py_ssize_t table_shape[5] = {RANKS, RANKS, RANKS, RANKS, RANKS};
    static const Py_ssize_t weight_shape[2] = {RANKS, RANKS};
    static const Py_ssize_t bins_shape[1] = {BINS};
    if (read_array(table, &views[0], PyBUF_SIMPLE, "b", 1, 5, table_shape, "the rank table") < 0)
        return -1;
    if (read_array(weight, &views[1], PyBUF_SIMPLE, "d", sizeof(double), 2, weight_shape,
                   "the weight") < 0) {
        PyBuffer_Release(&views[0]);
        return -1;
    }
    if (read_array(bins, &views[2], PyBUF_WRITABLE, "d", sizeof(double), 1, bins_shape,
                   "the bins") < 0) {
        PyBuffer_Release(&views[1]);
        PyBuffer_Release(&views[0]);
        return -1;
    }
    return 0;
}

static void release_all(Py_buffer *views, int count) {
    for (int view = count - 1; view >= 0; view--)
        PyBuffer_Release(&views[view]);
}

#endif
