/* What the play's full searches in C (two players, _peg.c; a table of three or four,
 * _table_peg.c) read from Python and hand back to it: the same checks and the same result
 * for both, as their Python twins share engine.computer.full_play's. */
#ifndef CRIBBAGE_PLAY_ARGS_H
#define CRIBBAGE_PLAY_ARGS_H

#include <Python.h>

/* ``object`` (bytes of ranks 1..13, at most ``most``) into ``ranks``, its length into
   ``size``; -1 with the error set when it is not. */
static int read_ranks(PyObject *object, int *ranks, Py_ssize_t most, Py_ssize_t *size,
                      const char *what) {
    if (!PyBytes_Check(object)) {
        PyErr_Format(PyExc_TypeError, "%s is bytes of ranks", what);
        return -1;
    }
    Py_ssize_t length = PyBytes_GET_SIZE(object);
    if (length > most) {
        PyErr_Format(PyExc_ValueError, "%s holds at most %zd cards", what, most);
        return -1;
    }
    const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(object);
    for (Py_ssize_t i = 0; i < length; i++) {
        if (bytes[i] < 1 || bytes[i] > 13) {
            PyErr_SetString(PyExc_ValueError, "ranks are 1 to 13");
            return -1;
        }
        ranks[i] = bytes[i];
    }
    *size = length;
    return 0;
}

/* What a sample's ``set_sample`` found (it runs without the GIL, so it only says). */
enum { SAMPLE_OK = 0, BAD_RANK = 1, TOO_MANY = 2 };

/* Raise what ``set_sample`` found wrong with a sample. */
static void raise_sample_problem(int problem) {
    PyErr_SetString(PyExc_ValueError, problem == BAD_RANK
                                          ? "ranks are 1 to 13"
                                          : "no rank is in play more than four times");
}

/* The sums of the fourteen ranks (index 0 unused) as a list of floats; NULL with the
   error set when it cannot be made. */
static PyObject *sums_as_list(const double *sums) {
    PyObject *result = PyList_New(14);
    if (result == NULL)
        return NULL;
    for (int rank = 0; rank < 14; rank++) {
        PyObject *value = PyFloat_FromDouble(sums[rank]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, rank, value);
    }
    return result;
}

#endif
