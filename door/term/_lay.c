/* Laying a frame's dirty rows again from its layers' runs (door/term/layers.py,
 * ``_lay_rows``) in C.
 *
 * It makes exactly the rows the Python makes (tests/door/term/test_lay_rows.py compares
 * the two on random layers): each dirty row starts blank and takes every run on it, the
 * layers in order, a run over what lies under it. Where this was not built (no
 * compiler), layers.py uses the Python.
 *
 * A run is (row, first column, text, styles), as door/term/canvas.py's Recorder keeps
 * them. Nothing here trusts them: a run that is not one raises an exception, and a run
 * beyond the row is cut to it, never written past it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef struct {
    Py_UCS4 *chars, *styles; /* cols cells a row, for each row */
    unsigned char *dirty, *touched;
} Rows;

static int read_dirty(PyObject *dirty, Py_ssize_t rows, unsigned char *flags) {
    if (!PyLong_Check(dirty) || Py_SIZE(dirty) < 0) {
        PyErr_SetString(PyExc_TypeError, "dirty must be an int of bits, one a row");
        return -1;
    }
    PyObject *bytes = PyObject_CallMethod(dirty, "to_bytes", "ns", (rows + 7) / 8, "little");
    if (bytes == NULL)
        return -1; /* OverflowError: a bit beyond the rows */
    const unsigned char *bits = (const unsigned char *)PyBytes_AS_STRING(bytes);
    for (Py_ssize_t y = 0; y < rows; y++)
        flags[y] = bits[y / 8] >> (y % 8) & 1;
    Py_DECREF(bytes);
    return 0;
}

static int lay_run(Rows *laid, Py_ssize_t rows, Py_ssize_t cols, PyObject *const run[4]) {
    Py_ssize_t y = PyLong_AsSsize_t(run[0]);
    Py_ssize_t start = PyLong_AsSsize_t(run[1]);
    if (PyErr_Occurred())
        return -1;
    PyObject *text = run[2], *styles = run[3];
    if (!PyUnicode_Check(text) || !PyUnicode_Check(styles) ||
        PyUnicode_GET_LENGTH(text) != PyUnicode_GET_LENGTH(styles)) {
        PyErr_SetString(PyExc_TypeError, "a run's text and styles are strings of one length");
        return -1;
    }
    if (y < 0 || y >= rows || !laid->dirty[y])
        return 0;
    Py_ssize_t length = PyUnicode_GET_LENGTH(text), skip = 0;
    if (start < 0) {
        skip = -start;
        start = 0;
    }
    if (length - skip > cols - start)
        length = cols - start + skip;
    if (length <= skip)
        return 0;
    int text_kind = PyUnicode_KIND(text), styles_kind = PyUnicode_KIND(styles);
    const void *text_data = PyUnicode_DATA(text), *styles_data = PyUnicode_DATA(styles);
    Py_UCS4 *chars = laid->chars + y * cols + start, *kinds = laid->styles + y * cols + start;
    for (Py_ssize_t i = skip; i < length; i++) {
        *chars++ = PyUnicode_READ(text_kind, text_data, i);
        *kinds++ = PyUnicode_READ(styles_kind, styles_data, i);
    }
    laid->touched[y] = 1;
    return 0;
}

PyDoc_STRVAR(lay_rows_doc,
             "lay_rows(chars, styles, cols, dirty, layers_runs, blank_chars, blank_styles)\n"
             "--\n\n"
             "door/term/layers.py's _lay_rows, in C: sets each dirty row (``dirty``: bits)\n"
             "of the lists ``chars`` and ``styles`` to its cells laid from the runs of each\n"
             "layer in ``layers_runs``, in order, over a blank row.");

static PyObject *lay_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "lay_rows takes 7 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *chars_list = args[0], *styles_list = args[1], *layers = args[4];
    PyObject *blank_chars = args[5], *blank_styles = args[6];
    if (!PyList_Check(chars_list) || !PyList_Check(styles_list) || !PyList_Check(layers) ||
        PyList_GET_SIZE(chars_list) != PyList_GET_SIZE(styles_list)) {
        PyErr_SetString(PyExc_TypeError, "the rows are two lists of one length; the runs a list");
        return NULL;
    }
    Py_ssize_t cols = PyLong_AsSsize_t(args[2]);
    if (cols == -1 && PyErr_Occurred())
        return NULL;
    if (!PyUnicode_Check(blank_chars) || !PyUnicode_Check(blank_styles) ||
        PyUnicode_GET_LENGTH(blank_chars) != cols || PyUnicode_GET_LENGTH(blank_styles) != cols) {
        PyErr_SetString(PyExc_TypeError, "the blank row is two strings of cols characters");
        return NULL;
    }
    Py_ssize_t rows = PyList_GET_SIZE(chars_list);
    Py_UCS4 blank_char = cols ? PyUnicode_READ_CHAR(blank_chars, 0) : ' ';
    Py_UCS4 blank_style = cols ? PyUnicode_READ_CHAR(blank_styles, 0) : 0;
    Rows laid = {NULL, NULL, NULL, NULL};
    PyObject *result = NULL;
    laid.chars = PyMem_Malloc((rows * cols + 1) * sizeof(Py_UCS4));
    laid.styles = PyMem_Malloc((rows * cols + 1) * sizeof(Py_UCS4));
    laid.dirty = PyMem_Calloc(rows + 1, 1);
    laid.touched = PyMem_Calloc(rows + 1, 1);
    if (!laid.chars || !laid.styles || !laid.dirty || !laid.touched) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_dirty(args[3], rows, laid.dirty) < 0)
        goto done;
    for (Py_ssize_t y = 0; y < rows; y++) {
        if (!laid.dirty[y])
            continue;
        for (Py_ssize_t x = 0; x < cols; x++) {
            laid.chars[y * cols + x] = blank_char;
            laid.styles[y * cols + x] = blank_style;
        }
    }
    for (Py_ssize_t layer = 0; layer < PyList_GET_SIZE(layers); layer++) {
        PyObject *runs = PyList_GET_ITEM(layers, layer);
        if (!PyTuple_Check(runs) || PyTuple_GET_SIZE(runs) % 4) {
            PyErr_SetString(PyExc_TypeError, "a layer's runs are a tuple of fours");
            goto done;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(runs); i += 4) {
            if (lay_run(&laid, rows, cols, &PyTuple_GET_ITEM(runs, i)) < 0)
                goto done;
        }
    }
    for (Py_ssize_t y = 0; y < rows; y++) {
        if (!laid.dirty[y])
            continue;
        PyObject *chars, *styles;
        if (laid.touched[y]) {
            chars = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, laid.chars + y * cols, cols);
            styles = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, laid.styles + y * cols, cols);
        } else { /* no run on it: the blank row itself, as the Python leaves it */
            chars = Py_NewRef(blank_chars);
            styles = Py_NewRef(blank_styles);
        }
        if (chars == NULL || styles == NULL) {
            Py_XDECREF(chars);
            Py_XDECREF(styles);
            goto done;
        }
        PyList_SetItem(chars_list, y, chars); /* steals; drops the row it replaces */
        PyList_SetItem(styles_list, y, styles);
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(laid.chars);
    PyMem_Free(laid.styles);
    PyMem_Free(laid.dirty);
    PyMem_Free(laid.touched);
    return result;
}

static PyMethodDef methods[] = {
    {"lay_rows", (PyCFunction)(void (*)(void))lay_rows, METH_FASTCALL, lay_rows_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "door.term._lay",
    "Laying a frame's dirty rows from its layers' runs, in C (door/term/layers.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__lay(void) { return PyModule_Create(&module); }
