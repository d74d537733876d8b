/* Two sides' chances once the play is over, and a moment of the play through them
 * (engine/odds/after_play.py: ``_values_python`` and ``_through_crib_python``) in C.
 *
 * after_play: the values before the pone's hand and the dealer's are counted, a point at
 * a time, each value's terms in the Python's order (the same to the bit).
 * through_crib: the crib (trimmed here as engine/odds/model.py trims a distribution) taken
 * through those values a point at a time, over the scores the play still to come may
 * bring; then the play's joint stage at the scores now, as engine/odds/_forward.c's
 * pull_joint takes it. The play's sum is added in another order than numpy's dot
 * product, so a chance may differ from the Python's in its last bits
 * (tests/engine/odds/test_after_play.py).
 *
 * Nothing here trusts its arguments: an array that is not float64 of the right number of
 * dimensions, or rows, columns and scores that would read outside it, raise an exception.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_float64_args.h"

#define TAIL 1e-6 /* engine/odds/model.py's TAIL */

PyDoc_STRVAR(through_crib_doc,
             "through_crib(values, passed, goal_row, row, col, need0, need1, crib, pegging) "
             "-> float\n\n"
             "Role 0's chance from ``values[row, col]`` (row ``goal_row`` the goal's, "
             "``passed`` past it) with ``crib`` (trimmed here) and then ``pegging`` to come, "
             "over ``need0`` x ``need1`` scores, or None where ``values`` has too few rows "
             "for the crib, as engine/odds/after_play.py's Python twin works it out.");

static PyObject *through_crib(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "through_crib(values, passed, goal_row, row, col, "
                                         "need0, need1, crib, pegging)");
        return NULL;
    }
    Py_ssize_t numbers[5]; /* goal_row, row, col, need0, need1 */
    for (int i = 0; i < 5; i++) {
        numbers[i] = PyLong_AsSsize_t(args[2 + i]);
        if (numbers[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    Py_ssize_t goal_row = numbers[0], row = numbers[1], col = numbers[2];
    Py_ssize_t need0 = numbers[3], need1 = numbers[4];
    Py_buffer views[4]; /* values, passed, crib, pegging */
    int read = 0;
    PyObject *result = NULL;
    double *after = NULL, *tails = NULL;
    if (read_float64(args[0], &views[0], 2, "values") < 0)
        goto done;
    read++;
    if (read_float64(args[1], &views[1], 1, "passed") < 0)
        goto done;
    read++;
    if (read_float64(args[7], &views[2], 1, "crib") < 0)
        goto done;
    read++;
    if (read_float64(args[8], &views[3], 2, "pegging") < 0)
        goto done;
    read++;
    const Py_buffer *values = &views[0], *passed = &views[1], *crib = &views[2],
                    *pegging = &views[3];
    Py_ssize_t rows = values->shape[0], cols = values->shape[1], length = crib->shape[0];
    Py_ssize_t prows = pegging->shape[0], pcols = pegging->shape[1];
    if (row < 0 || col < 0 || need0 < 1 || need1 < 1 || need0 > prows || need1 > pcols ||
        row >= goal_row || col + need1 > cols || passed->shape[0] != cols) {
        PyErr_SetString(PyExc_ValueError, "the scores asked for must lie inside the values");
        goto done;
    }
    /* The crib without its negligible tail, as engine/odds/model.py trims a distribution:
     * the points past those kept bring at most TAIL (summed from the last point down),
     * and what is kept is weighed by its own total. */
    Py_ssize_t kept = 1;
    double tail = 0.0;
    for (Py_ssize_t points = length - 1; points > 0; points--) {
        tail += item1(crib, points);
        if (tail > TAIL) {
            kept = points + 1;
            break;
        }
    }
    double total = 0.0;
    for (Py_ssize_t points = 0; points < kept; points++)
        total += item1(crib, points);
    length = kept;
    Py_ssize_t last = row + need0 + length - 1; /* one past the last row read */
    if ((last < goal_row ? last : goal_row) > rows) {
        result = Py_None; /* the values do not hold the scores the crib may bring */
        Py_INCREF(result);
        goto done;
    }
    after = (double *)PyMem_Calloc((size_t)(need0 * need1), sizeof(double));
    Py_ssize_t width = pcols + 1;
    tails = (double *)PyMem_Calloc((size_t)((prows + 1) * width), sizeof(double));
    if (after == NULL || tails == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* The crib's points, a point at a time (as the Python adds them). */
    for (Py_ssize_t points = 0; points < length; points++) {
        double weight = item1(crib, points) / total;
        if (weight == 0.0)
            continue; /* adds nothing (as in the Python) */
        for (Py_ssize_t i = 0; i < need0; i++) {
            Py_ssize_t from = row + i + points;
            double *out = after + i * need1;
            if (from < goal_row) {
                for (Py_ssize_t j = 0; j < need1; j++)
                    out[j] += weight * item2(values, from, col + j);
            } else {
                for (Py_ssize_t j = 0; j < need1; j++)
                    out[j] += weight * item1(passed, col + j);
            }
        }
    }
    /* The play, as _forward.c's pull_joint at the scores now: tails[a][b] is the chance of
     * a points or more and b or more, added from the far corner. */
    for (Py_ssize_t y = 0; y < pcols; y++) {
        double sum = 0.0;
        for (Py_ssize_t x = prows - 1; x >= 0; x--) {
            sum += item2(pegging, x, y);
            tails[x * width + y] = sum;
        }
    }
    for (Py_ssize_t x = 0; x < prows; x++) {
        double sum = 0.0;
        for (Py_ssize_t y = pcols - 1; y >= 0; y--) {
            sum += tails[x * width + y];
            tails[x * width + y] = sum;
        }
    }
    double here = 0.0;
    for (Py_ssize_t x = 0; x < need0; x++)
        for (Py_ssize_t y = 0; y < need1; y++)
            here += item2(pegging, x, y) * after[x * need1 + y];
    double both = tails[need0 * width + need1];
    result = PyFloat_FromDouble(here + (tails[need0 * width] - both + both / 2));
done:
    PyMem_Free(after);
    PyMem_Free(tails);
    for (int i = 0; i < read; i++)
        PyBuffer_Release(&views[i]);
    return result;
}

static int read_writeable(PyObject *array, Py_buffer *view, int ndim, const char *what) {
    if (PyObject_GetBuffer(array, view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0)
        return -1;
    if (view->ndim != ndim || view->itemsize != sizeof(double) || view->format == NULL ||
        strcmp(view->format, "d") != 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a %d-dimensional array of float64", what,
                     ndim);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(after_play_doc,
             "after_play(first_role, first, second, pone, dealer_hand, values, passed)\n\n"
             "Fill ``values`` (rows x columns from the scores ``first``, ``second``, which "
             "must not reach the goal, the table's last row and column) and ``passed`` (a "
             "column each) as engine/odds/after_play.py's Python twin works them out.");

static PyObject *after_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "after_play(first_role, first, second, pone, dealer_hand, values, "
                        "passed)");
        return NULL;
    }
    Py_ssize_t first = PyLong_AsSsize_t(args[1]);
    if (first == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t second = PyLong_AsSsize_t(args[2]);
    if (second == -1 && PyErr_Occurred())
        return NULL;
    Py_buffer views[5]; /* first_role, pone, dealer_hand, values, passed */
    int read = 0;
    PyObject *result = NULL;
    double *counted = NULL;
    if (read_float64(args[0], &views[0], 2, "first_role") < 0)
        goto done;
    read++;
    if (read_float64(args[3], &views[1], 1, "pone") < 0)
        goto done;
    read++;
    if (read_float64(args[4], &views[2], 1, "dealer_hand") < 0)
        goto done;
    read++;
    if (read_writeable(args[5], &views[3], 2, "values") < 0)
        goto done;
    read++;
    if (read_writeable(args[6], &views[4], 1, "passed") < 0)
        goto done;
    read++;
    const Py_buffer *table = &views[0], *pone = &views[1], *hand = &views[2];
    double *values = (double *)views[3].buf, *passed = (double *)views[4].buf;
    Py_ssize_t goal0 = table->shape[0], goal1 = table->shape[1];
    Py_ssize_t rows = views[3].shape[0], cols = views[3].shape[1];
    Py_ssize_t plength = pone->shape[0], hlength = hand->shape[0];
    if (first < 0 || second < 0 || first + rows > goal0 || second + cols > goal1 ||
        views[4].shape[0] != cols) {
        PyErr_SetString(PyExc_ValueError, "the values must lie inside the table");
        goto done;
    }
    /* The pone's points first: none of the table's scores past the goal (the pone won). */
    Py_ssize_t dealer_rows = rows + hlength - 1 < goal0 - first ? rows + hlength - 1
                                                                : goal0 - first;
    counted = (double *)PyMem_Calloc((size_t)(dealer_rows * cols), sizeof(double));
    if (counted == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < cols; k++)
        passed[k] = 0.0;
    for (Py_ssize_t points = 0; points < plength; points++) {
        double weight = item1(pone, points);
        if (weight == 0.0)
            continue; /* adds nothing (as in the Python): a hand known is one weight */
        for (Py_ssize_t k = 0; k < cols; k++) {
            if (second + k + points < goal1)
                passed[k] += weight * 1.0;
            else
                passed[k] += weight * 0.0;
        }
        Py_ssize_t inside = goal1 - second - points; /* columns whose points stay short */
        if (inside > cols)
            inside = cols;
        for (Py_ssize_t i = 0; i < dealer_rows; i++) {
            double *out = counted + i * cols;
            const char *row = (const char *)table->buf + (first + i) * table->strides[0];
            for (Py_ssize_t k = 0; k < inside; k++)
                out[k] += weight * *(const double *)(row + (second + k + points) *
                                                               table->strides[1]);
        }
    }
    /* Then the dealer's: past the goal, role 0 wins if the pone did not first. */
    for (Py_ssize_t i = 0; i < rows * cols; i++)
        values[i] = 0.0;
    for (Py_ssize_t points = 0; points < hlength; points++) {
        double weight = item1(hand, points);
        if (weight == 0.0)
            continue;
        for (Py_ssize_t i = 0; i < rows; i++) {
            Py_ssize_t from = i + points;
            const double *below = from < dealer_rows ? counted + from * cols : passed;
            double *out = values + i * cols;
            for (Py_ssize_t k = 0; k < cols; k++)
                out[k] += weight * below[k];
        }
    }
    result = Py_None;
    Py_INCREF(result);
done:
    PyMem_Free(counted);
    for (int i = 0; i < read; i++)
        PyBuffer_Release(&views[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"after_play", (PyCFunction)(void (*)(void))after_play, METH_FASTCALL, after_play_doc},
    {"through_crib", (PyCFunction)(void (*)(void))through_crib, METH_FASTCALL,
     through_crib_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.odds._after_play",
    "A moment of two sides' play through the values after it, in C "
    "(engine/odds/after_play.py).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__after_play(void) { return PyModule_Create(&module); }
