/* A frame's two loops (door/term/layers.py) in C: gathering its layers (``_gather``:
 * each layer kept if its key is unchanged, else drawn again), and laying its dirty rows
 * again from the layers' runs (``_lay_rows``; ``_lay_frame`` also copies the rows and
 * picks the layers that touch a dirty one, the Python around the laying).
 *
 * ``gather`` does what the Python does, step for step (tests/door/term/test_layers.py
 * runs both over the same layers): it calls the same draws in the same order and makes
 * the same entries. It saves the interpreter's steps a layer, most of which are kept.
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
    Py_UCS4 *chars, *styles; /* cols cells a row, for each dirty row */
    Py_ssize_t *slot;        /* where a dirty row's cells are in them */
    unsigned char *dirty, *touched;
} Rows;

static int read_dirty(PyObject *dirty, Py_ssize_t rows, unsigned char *flags) {
    if (!PyLong_Check(dirty) || Py_SIZE(dirty) < 0) {
        PyErr_SetString(PyExc_TypeError, "dirty must be an int of bits, one a row");
        return -1;
    }
    if (rows <= 64) { /* a frame's rows in one machine word: no bytes object made */
        unsigned long long bits = PyLong_AsUnsignedLongLong(dirty);
        if (bits == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear(); /* beyond 64 bits: to_bytes below says so */
        } else if (rows == 64 || bits >> rows == 0) {
            for (Py_ssize_t y = 0; y < rows; y++)
                flags[y] = bits >> y & 1;
            return 0;
        }
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
    Py_ssize_t at = laid->slot[y] * cols + start;
    Py_UCS4 *chars = laid->chars + at, *kinds = laid->styles + at;
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
    Rows laid = {NULL, NULL, NULL, NULL, NULL};
    PyObject *result = NULL;
    laid.dirty = PyMem_Calloc(rows + 1, 1);
    laid.touched = PyMem_Calloc(rows + 1, 1);
    laid.slot = PyMem_Malloc((rows + 1) * sizeof(Py_ssize_t));
    if (!laid.dirty || !laid.touched || !laid.slot) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_dirty(args[3], rows, laid.dirty) < 0)
        goto done;
    Py_ssize_t dirty_rows = 0; /* cells for those alone: a bar move lays one row */
    for (Py_ssize_t y = 0; y < rows; y++)
        laid.slot[y] = laid.dirty[y] ? dirty_rows++ : -1;
    laid.chars = PyMem_Malloc((dirty_rows * cols + 1) * sizeof(Py_UCS4));
    laid.styles = PyMem_Malloc((dirty_rows * cols + 1) * sizeof(Py_UCS4));
    if (!laid.chars || !laid.styles) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t cell = 0; cell < dirty_rows * cols; cell++) {
        laid.chars[cell] = blank_char;
        laid.styles[cell] = blank_style;
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
            Py_ssize_t at = laid.slot[y] * cols;
            chars = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, laid.chars + at, cols);
            styles = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, laid.styles + at, cols);
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
    PyMem_Free(laid.slot);
    return result;
}


/* Whether a layer's rows (bits) meet the dirty rows: ``rows & dirty``, for Python ints. */
static int meets(PyObject *rows, PyObject *dirty) {
    if (!PyLong_Check(rows)) {
        PyErr_SetString(PyExc_TypeError, "a layer's rows are an int of bits");
        return -1;
    }
    int overflow_rows = 0, overflow_dirty = 0;
    long long a = PyLong_AsLongLongAndOverflow(rows, &overflow_rows);
    long long b = PyLong_AsLongLongAndOverflow(dirty, &overflow_dirty);
    if (PyErr_Occurred())
        return -1;
    if (!overflow_rows && !overflow_dirty)
        return (a & b) != 0;
    PyObject *both = PyNumber_And(rows, dirty); /* a tall window's rows past 63 */
    if (both == NULL)
        return -1;
    int truth = PyObject_IsTrue(both);
    Py_DECREF(both);
    return truth;
}

PyDoc_STRVAR(lay_frame_doc,
             "lay_frame(chars, styles, cols, dirty, order, drawn, blank_chars, blank_styles)\n"
             "--\n\n"
             "door/term/layers.py's _lay_frame, in C: new lists of the rows ``chars`` and\n"
             "``styles``, each dirty row laid again from the runs of the layers named in\n"
             "``order`` (``drawn``: each (key, runs, result, rows) by name) that touch one.");

static PyObject *lay_frame(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "lay_frame takes 8 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *order = args[4], *drawn = args[5], *dirty = args[3];
    if (!PyList_Check(args[0]) || !PyList_Check(args[1]) || !PyList_Check(order) ||
        !PyDict_Check(drawn) || !PyLong_Check(dirty)) {
        PyErr_SetString(PyExc_TypeError,
                        "the rows and the order are lists, the layers drawn a dict, dirty an int");
        return NULL;
    }
    PyObject *chars = PyList_GetSlice(args[0], 0, PyList_GET_SIZE(args[0]));
    PyObject *styles = PyList_GetSlice(args[1], 0, PyList_GET_SIZE(args[1]));
    PyObject *touching = PyList_New(0), *answer = NULL;
    if (chars == NULL || styles == NULL || touching == NULL)
        goto done;
    /* A tuple of the names, holding each: a name's hash or comparison may run Python. */
    PyObject *names = PyList_AsTuple(order);
    if (names == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
        PyObject *layer = PyDict_GetItemWithError(drawn, PyTuple_GET_ITEM(names, i));
        if (layer == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetObject(PyExc_KeyError, PyTuple_GET_ITEM(names, i));
            Py_DECREF(names);
            goto done;
        }
        if (!PyTuple_Check(layer) || PyTuple_GET_SIZE(layer) != 4) {
            PyErr_SetString(PyExc_TypeError, "a layer drawn is (key, runs, result, rows)");
            Py_DECREF(names);
            goto done;
        }
        int meet = meets(PyTuple_GET_ITEM(layer, 3), dirty);
        if (meet < 0 || (meet && PyList_Append(touching, PyTuple_GET_ITEM(layer, 1)) < 0)) {
            Py_DECREF(names);
            goto done;
        }
    }
    Py_DECREF(names);
    PyObject *lay_args[7] = {chars, styles, args[2], dirty, touching, args[6], args[7]};
    PyObject *laid = lay_rows(module, lay_args, 7);
    if (laid == NULL)
        goto done;
    Py_DECREF(laid);
    answer = PyTuple_Pack(2, chars, styles);
done:
    Py_XDECREF(chars);
    Py_XDECREF(styles);
    Py_XDECREF(touching);
    return answer;
}

/* The rows (as bits) a layer's runs touch: ``_rows_of``. */
static PyObject *rows_of(PyObject *runs) {
    unsigned long long low = 0; /* rows 0-63, the rest (a tall window) as Python ints */
    PyObject *high = NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(runs); i += 4) {
        Py_ssize_t y = PyLong_AsSsize_t(PyTuple_GET_ITEM(runs, i));
        if (y == -1 && PyErr_Occurred())
            goto failed;
        if (y < 0) {
            PyErr_SetString(PyExc_ValueError, "negative shift count");
            goto failed;
        }
        if (y < 64) {
            low |= 1ULL << y;
            continue;
        }
        PyObject *one = PyLong_FromLong(1), *at = PyLong_FromSsize_t(y), *bit = NULL;
        if (one != NULL && at != NULL)
            bit = PyNumber_Lshift(one, at);
        Py_XDECREF(one);
        Py_XDECREF(at);
        if (bit == NULL)
            goto failed;
        if (high == NULL) {
            high = bit;
        } else {
            Py_SETREF(high, PyNumber_Or(high, bit));
            Py_DECREF(bit);
            if (high == NULL)
                goto failed;
        }
    }
    PyObject *rows = PyLong_FromUnsignedLongLong(low);
    if (high == NULL || rows == NULL)
        return rows;
    Py_SETREF(rows, PyNumber_Or(rows, high));
    Py_DECREF(high);
    return rows;
failed:
    Py_XDECREF(high);
    return NULL;
}

/* dirty |= rows, for Python ints. */
static int add_rows(PyObject **dirty, PyObject *rows) {
    PyObject *both = PyNumber_Or(*dirty, rows);
    if (both == NULL)
        return -1;
    Py_SETREF(*dirty, both);
    return 0;
}

/* What a layer's draw returns: ``key[0](recorder, *key[1:])`` with ``draw`` None, else
 * ``draw(recorder)``. */
static PyObject *draw_layer(PyObject *key, PyObject *draw, PyObject *recorder) {
    if (draw != Py_None)
        return PyObject_CallOneArg(draw, recorder);
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) < 1) {
        PyErr_SetString(PyExc_TypeError, "a layer without a draw has a key (function, *args)");
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(key);
    PyObject *small[9], **args = small;
    if (count > 9) {
        args = PyMem_Malloc(count * sizeof(PyObject *));
        if (args == NULL)
            return PyErr_NoMemory();
    }
    args[0] = recorder;
    for (Py_ssize_t i = 1; i < count; i++)
        args[i] = PyTuple_GET_ITEM(key, i);
    PyObject *result = PyObject_Vectorcall(PyTuple_GET_ITEM(key, 0), args, count, NULL);
    if (args != small)
        PyMem_Free(args);
    return result;
}

PyDoc_STRVAR(gather_doc,
             "gather(layers, kept, recorder, always)\n"
             "--\n\n"
             "door/term/layers.py's _gather, in C: (drawn, results, count, dirty).");

static PyObject *gather(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "gather takes 4 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *layers = args[0], *kept = args[1], *recorder = args[2], *always = args[3];
    if (!PyList_Check(layers) || !PyDict_Check(kept)) {
        PyErr_SetString(PyExc_TypeError, "the layers are a list, those kept a dict");
        return NULL;
    }
    PyObject *recorded = PyObject_GetAttrString(recorder, "runs");
    if (recorded == NULL)
        return NULL;
    if (!PyList_Check(recorded)) {
        Py_DECREF(recorded);
        PyErr_SetString(PyExc_TypeError, "a recorder's runs are a list");
        return NULL;
    }
    /* A tuple of the layers, holding each: a draw runs Python, which could change the
     * list and free a layer whose name, key and draw are still in use here. */
    PyObject *held = PyList_AsTuple(layers);
    PyObject *drawn = PyDict_New(), *results = PyDict_New(), *dirty = PyLong_FromLong(0);
    PyObject *answer = NULL;
    Py_ssize_t count = 0;
    if (held == NULL || drawn == NULL || results == NULL || dirty == NULL)
        goto done;
    for (Py_ssize_t index = 0; index < PyTuple_GET_SIZE(held); index++) {
        PyObject *layer = PyTuple_GET_ITEM(held, index);
        if (!PyTuple_Check(layer) || PyTuple_GET_SIZE(layer) != 3) {
            PyErr_SetString(PyExc_TypeError, "a layer is (name, key, draw)");
            goto done;
        }
        PyObject *name = PyTuple_GET_ITEM(layer, 0), *key = PyTuple_GET_ITEM(layer, 1);
        PyObject *draw = PyTuple_GET_ITEM(layer, 2);
        PyObject *before = PyDict_GetItemWithError(kept, name); /* borrowed */
        if (before == NULL && PyErr_Occurred())
            goto done;
        if (before != NULL && (!PyTuple_Check(before) || PyTuple_GET_SIZE(before) != 4)) {
            PyErr_SetString(PyExc_TypeError, "a layer kept is (key, runs, result, rows)");
            goto done;
        }
        Py_XINCREF(before); /* held: a key's comparison may run Python that changes kept */
        if (before != NULL && key != always) {
            int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(before, 0), key, Py_EQ);
            if (same > 0) {
                PyObject *result = PyTuple_GET_ITEM(before, 2);
                int failed = PyDict_SetItem(drawn, name, before) < 0 ||
                             (result != Py_None && PyDict_SetItem(results, name, result) < 0);
                Py_DECREF(before);
                if (failed)
                    goto done;
                continue;
            }
            if (same < 0) {
                Py_DECREF(before);
                goto done;
            }
        }
        if (PyList_SetSlice(recorded, 0, PyList_GET_SIZE(recorded), NULL) < 0) {
            Py_XDECREF(before);
            goto done;
        }
        PyObject *result = draw_layer(key, draw, recorder);
        PyObject *runs = NULL, *rows = NULL, *entry = NULL;
        int failed = result == NULL;
        if (!failed && result != Py_None)
            failed = PyDict_SetItem(results, name, result) < 0;
        if (!failed)
            failed = (runs = PyList_AsTuple(recorded)) == NULL;
        if (!failed)
            failed = (rows = rows_of(runs)) == NULL;
        if (!failed)
            failed = (entry = PyTuple_Pack(4, key, runs, result, rows)) == NULL;
        if (!failed)
            failed = PyDict_SetItem(drawn, name, entry) < 0 || add_rows(&dirty, rows) < 0;
        if (!failed && before != NULL) {
            PyObject *rows_before = PyTuple_GET_ITEM(before, 3);
            failed = add_rows(&dirty, rows_before) < 0;
        }
        count++;
        Py_XDECREF(before);
        Py_XDECREF(result);
        Py_XDECREF(runs);
        Py_XDECREF(rows);
        Py_XDECREF(entry);
        if (failed)
            goto done;
    }
    if (PyList_SetSlice(recorded, 0, PyList_GET_SIZE(recorded), NULL) < 0)
        goto done;
    answer = Py_BuildValue("(OOnO)", drawn, results, count, dirty);
done:
    Py_DECREF(recorded);
    Py_XDECREF(held);
    Py_XDECREF(drawn);
    Py_XDECREF(results);
    Py_XDECREF(dirty);
    return answer;
}

static PyMethodDef methods[] = {
    {"gather", (PyCFunction)(void (*)(void))gather, METH_FASTCALL, gather_doc},
    {"lay_rows", (PyCFunction)(void (*)(void))lay_rows, METH_FASTCALL, lay_rows_doc},
    {"lay_frame", (PyCFunction)(void (*)(void))lay_frame, METH_FASTCALL, lay_frame_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "door.term._lay",
    "Gathering a frame's layers and laying its dirty rows, in C (door/term/layers.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__lay(void) { return PyModule_Create(&module); }
