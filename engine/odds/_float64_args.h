/* Reading a numpy array of float64 of any strides, as engine/odds/_forward.c and
 * _after_play.c both take their tables and distributions: checked on reading (raises a
 * Python exception and returns -1), then read an item at a time through its strides. */
#ifndef CRIBBAGE_FLOAT64_ARGS_H
#define CRIBBAGE_FLOAT64_ARGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

static int read_float64(PyObject *array, Py_buffer *view, int ndim, const char *what) {
    if (PyObject_GetBuffer(array, view, PyBUF_STRIDES | PyBUF_FORMAT) < 0)
        return -1;
    if (view->ndim != ndim || view->itemsize != sizeof(double) || view->format == NULL ||
        strcmp(view->format, "d") != 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a %d-dimensional array of float64", what,
                     ndim);
        PyBuffer_Release(view);
        return -1;
    }
    for (int axis = 0; axis < ndim; axis++) {
        if (view->shape[axis] < 1 || view->strides[axis] % (Py_ssize_t)sizeof(double) != 0) {
            PyErr_Format(PyExc_ValueError, "%s must be non-empty and aligned", what);
            PyBuffer_Release(view);
            return -1;
        }
    }
    return 0;
}

static double item1(const Py_buffer *view, Py_ssize_t i) {
    return *(const double *)((const char *)view->buf + i * view->strides[0]);
}

static double item2(const Py_buffer *view, Py_ssize_t i, Py_ssize_t j) {
    return *(const double *)((const char *)view->buf + i * view->strides[0] +
                             j * view->strides[1]);
}

#endif
