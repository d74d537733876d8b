/* Three sides' chances through a deal whose points each role takes together (the win
 * bar's usual case at three players: engine/odds/model.py's ``_through_by_role``), the
 * start table's box of scores weighed by each role's points, in C.
 *
 * The Python casts the box (up to 50 x 40 x 50 x 3 values of the 21 MB float32 table) to
 * float64 slice by slice and multiplies it down one axis at a time, writing and reading
 * the box two more times; here it is read once, each row of role 0's scores added into one
 * row of float64 sums weighed by the other two roles' chances, and that row weighed by
 * role 0's. The sums are the same to within their order (tests/engine/odds/test_by_role.py).
 *
 * Nothing here trusts its arguments: a table that is not four-dimensional float32 or
 * float64 with three chances a cell, C-contiguous, a weight that is not one-dimensional
 * float64, or a box that does not fit in the table raises an exception, and nothing is
 * read outside what was given.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define ROLES 3

static int read_weights(PyObject *array, Py_buffer *view) {
    if (PyObject_GetBuffer(array, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->ndim != 1 || view->itemsize != sizeof(double) || view->format == NULL ||
        strcmp(view->format, "d") != 0 || view->shape[0] < 1) {
        PyErr_SetString(PyExc_TypeError, "a weight is a non-empty 1-D float64 array");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(box_sum_doc,
             "box_sum(table, first, second, third, w_first, w_second, w_third) -> (a, b, c)\n\n"
             "sum over i, j, k of w_first[i] * w_second[j] * w_third[k] * table[first + i, "
             "second + j, third + k, :], the table four-dimensional float32 or float64 of "
             "three chances a cell: the box's own part of engine/odds/model.py's "
             "``_through_by_role``.");

static PyObject *box_sum(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "box_sum(table, first, second, third, w_first, w_second, w_third)");
        return NULL;
    }
    Py_ssize_t start[3];
    for (int axis = 0; axis < 3; axis++) {
        start[axis] = PyLong_AsSsize_t(args[1 + axis]);
        if (start[axis] == -1 && PyErr_Occurred())
            return NULL;
        if (start[axis] < 0) {
            PyErr_SetString(PyExc_ValueError, "a box starts at a score of 0 or more");
            return NULL;
        }
    }
    Py_buffer table;
    if (PyObject_GetBuffer(args[0], &table, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    int single = table.format != NULL && strcmp(table.format, "f") == 0 &&
                 table.itemsize == sizeof(float);
    int twice = table.format != NULL && strcmp(table.format, "d") == 0 &&
                table.itemsize == sizeof(double);
    if (table.ndim != 4 || table.shape[3] != ROLES || !(single || twice)) {
        PyErr_SetString(PyExc_TypeError,
                        "the table is four-dimensional float32 or float64, three chances a cell");
        PyBuffer_Release(&table);
        return NULL;
    }
    Py_buffer weights[3];
    int read = 0;
    for (; read < 3; read++)
        if (read_weights(args[4 + read], &weights[read]) < 0)
            break;
    PyObject *result = NULL;
    if (read == 3) {
        Py_ssize_t size[3];
        int fits = 1;
        for (int axis = 0; axis < 3; axis++) {
            size[axis] = weights[axis].shape[0];
            fits = fits && start[axis] <= table.shape[axis] - size[axis];
        }
        if (!fits) {
            PyErr_SetString(PyExc_ValueError, "the box does not fit in the table");
        } else {
            const double *w0 = weights[0].buf, *w1 = weights[1].buf, *w2 = weights[2].buf;
            Py_ssize_t row = size[2] * ROLES; /* one row of the third role's scores */
            double *sums = PyMem_Calloc((size_t)row, sizeof(double));
            if (sums == NULL) {
                PyErr_NoMemory();
            } else {
                Py_ssize_t stride1 = table.shape[2] * ROLES;
                Py_ssize_t stride0 = table.shape[1] * stride1;
                for (Py_ssize_t i = 0; i < size[0]; i++) {
                    for (Py_ssize_t j = 0; j < size[1]; j++) {
                        double weight = w0[i] * w1[j];
                        Py_ssize_t at = (start[0] + i) * stride0 + (start[1] + j) * stride1 +
                                        start[2] * ROLES;
                        if (single) {
                            const float *cells = (const float *)table.buf + at;
                            for (Py_ssize_t t = 0; t < row; t++)
                                sums[t] += weight * (double)cells[t];
                        } else {
                            const double *cells = (const double *)table.buf + at;
                            for (Py_ssize_t t = 0; t < row; t++)
                                sums[t] += weight * cells[t];
                        }
                    }
                }
                double total[ROLES] = {0.0, 0.0, 0.0};
                for (Py_ssize_t k = 0; k < size[2]; k++)
                    for (int r = 0; r < ROLES; r++)
                        total[r] += w2[k] * sums[k * ROLES + r];
                PyMem_Free(sums);
                result = Py_BuildValue("(ddd)", total[0], total[1], total[2]);
            }
        }
    }
    for (int done = 0; done < read; done++)
        PyBuffer_Release(&weights[done]);
    PyBuffer_Release(&table);
    return result;
}

static PyMethodDef methods[] = {
    {"box_sum", (PyCFunction)(void (*)(void))box_sum, METH_FASTCALL, box_sum_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.odds._by_role",
    "Three sides' chances through a deal taken by role, in C (engine/odds/model.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__by_role(void) { return PyModule_Create(&module); }
