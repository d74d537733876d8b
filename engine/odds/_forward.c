/* The two-sided forward run of a win bar (engine/odds/model.py,
 * ``_through_two_sides``) in C.
 *
 * The same steps as the Python, backward from the next deal's start table through the
 * stages left of this deal: a role's points are a band of its distribution against the
 * values after it, plus the chance of passing the goal from the scores near it (role 0's;
 * role 1 passing it leaves role 0 nothing); the play's joint stage is a sum over both
 * sides' points at each score. The Python does each step as a few numpy calls over a
 * dense band, zeros and all; here each is one loop over the band's non-zero part, with
 * no array made between steps. Sums are added in another order than numpy's matrix
 * products add them, so a chance may differ from the Python's in its last bits
 * (tests/engine/odds/test_forward_in_c.py compares the two on random stages and real games).
 *
 * Nothing here trusts its arguments: a distribution that is not float64 of the right
 * number of dimensions, a stage that is not one, a role, a score or a region outside the
 * table raises an exception, and nothing is read outside what was given.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_float64_args.h"

typedef struct {
    double *data;
    Py_ssize_t rows, cols, stride; /* stride: doubles from one row to the next */
    int owned;                     /* made here (PyMem), or the start table's own */
} Matrix;

static void replace(Matrix *value, double *data, Py_ssize_t rows, Py_ssize_t cols) {
    if (value->owned)
        PyMem_Free(value->data);
    *value = (Matrix){data, rows, cols, cols, 1};
}

typedef struct {
    Py_buffer view;
    int joint, role;
    Py_ssize_t before0, before1;
} Stage;

static int read_pair(PyObject *pair, Py_ssize_t *first, Py_ssize_t *second, const char *what) {
    PyObject *items = PySequence_Fast(pair, what);
    if (items == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(items) != 2) {
        PyErr_Format(PyExc_ValueError, "%s must hold two numbers", what);
        Py_DECREF(items);
        return -1;
    }
    *first = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(items, 0));
    *second = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(items, 1));
    Py_DECREF(items);
    if (PyErr_Occurred())
        return -1;
    if (*first < 0 || *second < 0) {
        PyErr_Format(PyExc_ValueError, "%s must not be negative", what);
        return -1;
    }
    return 0;
}

static int read_stage(PyObject *stage, PyObject *before, Stage *out) {
    if (!PyTuple_Check(stage) || PyTuple_GET_SIZE(stage) != 3) {
        PyErr_SetString(PyExc_TypeError, "a stage is a tuple (kind, role, distribution)");
        return -1;
    }
    PyObject *kind = PyTuple_GET_ITEM(stage, 0);
    if (!PyUnicode_Check(kind)) {
        PyErr_SetString(PyExc_TypeError, "a stage's kind is 'joint' or 'add'");
        return -1;
    }
    if (PyUnicode_CompareWithASCIIString(kind, "joint") == 0)
        out->joint = 1;
    else if (PyUnicode_CompareWithASCIIString(kind, "add") == 0)
        out->joint = 0;
    else {
        PyErr_SetString(PyExc_ValueError, "a stage's kind is 'joint' or 'add'");
        return -1;
    }
    long role = PyLong_AsLong(PyTuple_GET_ITEM(stage, 1));
    if (role == -1 && PyErr_Occurred())
        return -1;
    if (!out->joint && role != 0 && role != 1) {
        PyErr_SetString(PyExc_ValueError, "an add's role is 0 or 1");
        return -1;
    }
    out->role = (int)role;
    if (read_pair(before, &out->before0, &out->before1, "a stage's points before it") < 0)
        return -1;
    return read_float64(PyTuple_GET_ITEM(stage, 2), &out->view, out->joint ? 2 : 1,
                        "a stage's distribution");
}

static double *new_doubles(Py_ssize_t count) {
    double *data = (double *)PyMem_Calloc((size_t)(count > 0 ? count : 1), sizeof(double));
    if (data == NULL)
        PyErr_NoMemory();
    return data;
}

/* tails[t]: the chance of t points or more (t < length), added from the far end, as
 * numpy's cumsum of the reversed distribution adds them. */
static void tails_of(const Py_buffer *dist, double *tails) {
    Py_ssize_t length = dist->shape[0];
    double sum = 0.0;
    for (Py_ssize_t t = length - 1; t >= 0; t--) {
        sum += item1(dist, t);
        tails[t] = sum;
    }
}

/* Role 0 scores ``dist``: need rows, from value's rows (role 0 past the goal wins). */
static int pull_first(Matrix *value, const Py_buffer *dist, Py_ssize_t need) {
    Py_ssize_t size = value->rows, cols = value->cols, length = dist->shape[0];
    double *out = new_doubles(need * cols), *tails = new_doubles(length);
    if (out == NULL || tails == NULL) {
        PyMem_Free(out);
        PyMem_Free(tails);
        return -1;
    }
    Py_ssize_t band = length < size ? length : size;
    for (Py_ssize_t i = 0; i < need; i++) {
        double *row = out + i * cols;
        for (Py_ssize_t points = 0; points < band && i + points < size; points++) {
            double weight = item1(dist, points);
            const double *after = value->data + (i + points) * value->stride;
            for (Py_ssize_t k = 0; k < cols; k++)
                row[k] += weight * after[k];
        }
    }
    tails_of(dist, tails);
    for (Py_ssize_t i = size - length + 1 > 0 ? size - length + 1 : 0; i < need; i++) {
        double past = tails[size - i]; /* size - i points or more pass the goal */
        for (Py_ssize_t k = 0; k < cols; k++)
            out[i * cols + k] += past;
    }
    PyMem_Free(tails);
    replace(value, out, need, cols);
    return 0;
}

/* Role 1 scores ``dist``: need columns (role 1 past the goal: nothing for role 0). */
static int pull_second(Matrix *value, const Py_buffer *dist, Py_ssize_t need) {
    Py_ssize_t rows = value->rows, size = value->cols, length = dist->shape[0];
    double *out = new_doubles(rows * need);
    if (out == NULL)
        return -1;
    Py_ssize_t band = length < size ? length : size;
    for (Py_ssize_t i = 0; i < rows; i++) {
        const double *after = value->data + i * value->stride;
        for (Py_ssize_t k = 0; k < need; k++) {
            double sum = 0.0;
            for (Py_ssize_t points = 0; points < band && k + points < size; points++)
                sum += item1(dist, points) * after[k + points];
            out[i * need + k] = sum;
        }
    }
    replace(value, out, rows, need);
    return 0;
}

/* Both sides peg ``pegging`` jointly: the first past the goal wins, both past it even. */
static int pull_joint(Matrix *value, const Py_buffer *pegging, Py_ssize_t need0,
                      Py_ssize_t need1) {
    Py_ssize_t size0 = value->rows, size1 = value->cols;
    Py_ssize_t prows = pegging->shape[0], pcols = pegging->shape[1];
    /* tails[a][b]: the chance of a points or more and b or more, a row and a column of
     * zeros past the end; added from the far corner as the Python's cumsums add them. */
    Py_ssize_t width = pcols + 1;
    double *tails = new_doubles((prows + 1) * width), *out = new_doubles(need0 * need1);
    if (tails == NULL || out == NULL) {
        PyMem_Free(tails);
        PyMem_Free(out);
        return -1;
    }
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
    for (Py_ssize_t i = 0; i < need0; i++) {
        for (Py_ssize_t j = 0; j < need1; j++) {
            Py_ssize_t in0 = prows < size0 - i ? prows : size0 - i;
            Py_ssize_t in1 = pcols < size1 - j ? pcols : size1 - j;
            double here = 0.0;
            for (Py_ssize_t x = 0; x < in0; x++) {
                const double *after = value->data + (i + x) * value->stride + j;
                for (Py_ssize_t y = 0; y < in1; y++)
                    here += item2(pegging, x, y) * after[y];
            }
            double both = tails[in0 * width + in1];
            out[i * need1 + j] = here + (tails[in0 * width] - both + both / 2);
        }
    }
    PyMem_Free(tails);
    replace(value, out, need0, need1);
    return 0;
}

PyDoc_STRVAR(through_two_sides_doc,
             "through_two_sides(scores, stages, before, region, first_role) -> float\n\n"
             "Role 0's chance from ``scores`` through ``stages`` (their points before each "
             "in ``before``), over ``region`` of the rotated start table ``first_role``, "
             "as engine/odds/model.py's Python twin works it out.");

static PyObject *through_two_sides(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                         "through_two_sides(scores, stages, before, region, first_role)");
        return NULL;
    }
    Py_ssize_t score0, score1, region0, region1;
    if (read_pair(args[0], &score0, &score1, "scores") < 0 ||
        read_pair(args[3], &region0, &region1, "region") < 0)
        return NULL;
    PyObject *stages = PySequence_Fast(args[1], "stages must be a sequence");
    if (stages == NULL)
        return NULL;
    PyObject *before = PySequence_Fast(args[2], "before must be a sequence");
    if (before == NULL) {
        Py_DECREF(stages);
        return NULL;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(stages), read = 0;
    Stage *steps = NULL;
    Py_buffer table = {0};
    int have_table = 0;
    Matrix value = {NULL, 0, 0, 0, 0};
    PyObject *result = NULL;
    if (PySequence_Fast_GET_SIZE(before) != count) {
        PyErr_SetString(PyExc_ValueError, "before must hold one pair a stage");
        goto done;
    }
    steps = (Stage *)PyMem_Calloc((size_t)(count > 0 ? count : 1), sizeof(Stage));
    if (steps == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (; read < count; read++) {
        if (read_stage(PySequence_Fast_GET_ITEM(stages, read),
                       PySequence_Fast_GET_ITEM(before, read), &steps[read]) < 0)
            goto done;
    }
    if (read_float64(args[4], &table, 2, "first_role") < 0)
        goto done;
    have_table = 1;
    if (region0 < 1 || region1 < 1 || score0 > table.shape[0] - region0 ||
        score1 > table.shape[1] - region1) {
        PyErr_SetString(PyExc_ValueError, "the region must lie inside the table");
        goto done;
    }
    /* The table's region is the first value, read in place where its rows are laid
     * out as the C's are (the shipped table is), else copied. */
    if (table.strides[1] == sizeof(double) && table.strides[0] > 0) {
        double *corner = (double *)((char *)table.buf + score0 * table.strides[0]) + score1;
        value = (Matrix){corner, region0, region1, table.strides[0] / sizeof(double), 0};
    } else {
        double *copy = new_doubles(region0 * region1);
        if (copy == NULL)
            goto done;
        for (Py_ssize_t i = 0; i < region0; i++)
            for (Py_ssize_t k = 0; k < region1; k++)
                copy[i * region1 + k] = item2(&table, score0 + i, score1 + k);
        value = (Matrix){copy, region0, region1, region1, 1};
    }
    for (Py_ssize_t index = count - 1; index >= 0; index--) {
        Stage *stage = &steps[index];
        Py_ssize_t need0 = stage->before0 + 1 < region0 ? stage->before0 + 1 : region0;
        Py_ssize_t need1 = stage->before1 + 1 < region1 ? stage->before1 + 1 : region1;
        /* An earlier stage never needs more scores than a later one left. */
        if (need0 > value.rows || need1 > value.cols) {
            PyErr_SetString(PyExc_ValueError, "the points before a stage must not fall");
            goto done;
        }
        int failed = stage->joint ? pull_joint(&value, &stage->view, need0, need1)
                     : stage->role == 0 ? pull_first(&value, &stage->view, need0)
                                        : pull_second(&value, &stage->view, need1);
        if (failed < 0)
            goto done;
    }
    result = PyFloat_FromDouble(value.data[0]);
done:
    if (value.owned)
        PyMem_Free(value.data);
    if (have_table)
        PyBuffer_Release(&table);
    for (Py_ssize_t index = 0; index < read; index++)
        PyBuffer_Release(&steps[index].view);
    PyMem_Free(steps);
    Py_DECREF(before);
    Py_DECREF(stages);
    return result;
}

static PyMethodDef methods[] = {
    {"through_two_sides", (PyCFunction)(void (*)(void))through_two_sides, METH_FASTCALL,
     through_two_sides_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.odds._forward",
    "The two-sided forward run of a win bar, in C (engine/odds/model.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__forward(void) { return PyModule_Create(&module); }
