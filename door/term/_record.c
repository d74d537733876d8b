/* Drawing text on a Recorder (door/term/canvas.py: ``Canvas.put`` and ``put_styled``
 * with ``Recorder.lay_run``) in C.
 *
 * A layer's drawing is a few dozen puts, each a few steps: clip to the canvas, make every
 * character one cell, name the style by its character, and add a run to the recorder's
 * list or carry on the one before. The Python spends more on calling and stepping than on
 * the work, so the recorder's two puts are these (tests/door/term/test_record.py compares
 * them with the Python on random drawings). Where this was not built (no compiler), the
 * recorder uses the Python.
 *
 * What a put is given comes from the door's own screens, but nothing here trusts it: the
 * wrong types raise an exception, and text beyond the canvas is cut off, as in Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Whether ``text`` is all printable ASCII or the door's own glyphs (canvas.DRAWN_GLYPHS),
 * each one cell wide: then it needs no look at each character in Python. */
static int one_cell_already(PyObject *text, PyObject *glyphs) {
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t glyph_count = PyUnicode_GET_LENGTH(glyphs);
    int glyph_kind = PyUnicode_KIND(glyphs);
    const void *glyph_data = PyUnicode_DATA(glyphs);
    for (Py_ssize_t i = 0; i < length; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= 0x20 && c <= 0x7e)
            continue;
        Py_ssize_t g = 0;
        while (g < glyph_count && PyUnicode_READ(glyph_kind, glyph_data, g) != c)
            g++;
        if (g == glyph_count)
            return 0;
    }
    return 1;
}

typedef struct {
    PyObject *glyphs;        /* canvas.DRAWN_GLYPHS */
    PyObject *one_cell_text; /* canvas.one_cell_text, for any other text */
    PyObject *style_chars;   /* canvas._STYLE_CHARS: style -> its character */
    PyObject *style_char;    /* canvas.style_char, for a style not numbered yet */
    PyObject *runs;          /* the recorder's list of runs */
    Py_ssize_t rows, cols;
} Recording;

static int read_recording(PyObject *const *args, Recording *to) {
    to->glyphs = args[0];
    to->one_cell_text = args[1];
    to->style_chars = args[2];
    to->style_char = args[3];
    to->runs = args[5];
    if (!PyUnicode_Check(to->glyphs) || !PyCallable_Check(to->one_cell_text) ||
        !PyDict_Check(to->style_chars) || !PyCallable_Check(to->style_char) ||
        !PyList_Check(to->runs)) {
        PyErr_SetString(PyExc_TypeError, "put: not a recording");
        return -1;
    }
    to->rows = PyLong_AsSsize_t(args[6]);
    to->cols = PyLong_AsSsize_t(args[7]);
    return (to->rows == -1 || to->cols == -1) && PyErr_Occurred() ? -1 : 0;
}

/* Recorder.lay_run: a run that carries on where the last left off (on its row) is one
 * run with it. Steals nothing; ``text`` and ``styles`` are as long as each other. */
static int store(PyObject *runs, Py_ssize_t row, Py_ssize_t start, PyObject *text,
                 PyObject *styles) {
    Py_ssize_t count = PyList_GET_SIZE(runs);
    if (count >= 4) {
        PyObject *last_row = PyList_GET_ITEM(runs, count - 4);
        PyObject *last_start = PyList_GET_ITEM(runs, count - 3);
        PyObject *last_text = PyList_GET_ITEM(runs, count - 2);
        PyObject *last_styles = PyList_GET_ITEM(runs, count - 1);
        if (PyLong_Check(last_row) && PyLong_Check(last_start) && PyUnicode_Check(last_text) &&
            PyUnicode_Check(last_styles) && PyLong_AsSsize_t(last_row) == row &&
            PyLong_AsSsize_t(last_start) + PyUnicode_GET_LENGTH(last_text) == start) {
            PyObject *joined_text = PyUnicode_Concat(last_text, text);
            if (joined_text == NULL)
                return -1;
            PyObject *joined_styles = PyUnicode_Concat(last_styles, styles);
            if (joined_styles == NULL) {
                Py_DECREF(joined_text);
                return -1;
            }
            PyList_SetItem(runs, count - 2, joined_text); /* steals */
            PyList_SetItem(runs, count - 1, joined_styles);
            return 0;
        }
        if (PyErr_Occurred())
            return -1;
    }
    PyObject *row_number = PyLong_FromSsize_t(row);
    PyObject *start_number = PyLong_FromSsize_t(start);
    int failed = row_number == NULL || start_number == NULL ||
                 PyList_Append(runs, row_number) < 0 || PyList_Append(runs, start_number) < 0 ||
                 PyList_Append(runs, text) < 0 || PyList_Append(runs, styles) < 0;
    Py_XDECREF(row_number);
    Py_XDECREF(start_number);
    return failed ? -1 : 0;
}

/* Both puts: ``styles`` NULL for ``put`` (every character in ``style``). */
static PyObject *put(Recording *recording, PyObject *row_arg, PyObject *col_arg, PyObject *text,
                     PyObject *style, PyObject *styles) {
    if (!PyUnicode_Check(text) || (styles != NULL && !PyUnicode_Check(styles))) {
        PyErr_SetString(PyExc_TypeError, "put: the text (and its styles) must be strings");
        return NULL;
    }
    Py_ssize_t row = PyLong_AsSsize_t(row_arg), col = PyLong_AsSsize_t(col_arg);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    if (col > PY_SSIZE_T_MAX - length) {
        PyErr_SetString(PyExc_OverflowError, "put: the column is out of all reach");
        return NULL;
    }
    Py_ssize_t end = col + length;
    if (row < 0 || row >= recording->rows)
        return PyLong_FromSsize_t(end);
    Py_ssize_t first = 0, past = length; /* the part of text on the canvas */
    if (col < 0 || end > recording->cols) {
        first = col < 0 ? -col : 0;
        past = recording->cols - col > 0 ? recording->cols - col : 0;
        if (past > length)
            past = length;
    }
    if (past <= first)
        return PyLong_FromSsize_t(end);
    PyObject *cut = NULL, *kept = NULL, *cut_styles = NULL, *result = NULL;
    cut = PyUnicode_Substring(text, first, past);
    if (cut == NULL)
        goto done;
    if (styles != NULL) { /* put_styled: the styles cut as the text is */
        cut_styles = PyUnicode_Substring(styles, first, past);
        if (cut_styles == NULL)
            goto done;
    }
    if (one_cell_already(cut, recording->glyphs)) {
        kept = Py_NewRef(cut);
    } else {
        kept = PyObject_CallOneArg(recording->one_cell_text, cut);
        if (kept == NULL)
            goto done;
        if (!PyUnicode_Check(kept) || PyUnicode_GET_LENGTH(kept) != PyUnicode_GET_LENGTH(cut)) {
            PyErr_SetString(PyExc_ValueError, "one_cell_text must keep the text's length");
            goto done;
        }
    }
    if (cut_styles == NULL) {
        PyObject *character = PyDict_GetItemWithError(recording->style_chars, style);
        if (character != NULL) {
            Py_INCREF(character);
        } else {
            if (PyErr_Occurred())
                goto done;
            character = PyObject_CallOneArg(recording->style_char, style);
            if (character == NULL)
                goto done;
        }
        cut_styles = PySequence_Repeat(character, past - first);
        Py_DECREF(character);
        if (cut_styles == NULL)
            goto done;
    }
    if (!PyUnicode_Check(cut_styles) || PyUnicode_GET_LENGTH(cut_styles) != past - first) {
        PyErr_SetString(PyExc_ValueError, "put: a style's character for each character");
        goto done;
    }
    if (store(recording->runs, row, col > 0 ? col : 0, kept, cut_styles) < 0)
        goto done;
    result = PyLong_FromSsize_t(end);
done:
    Py_XDECREF(cut);
    Py_XDECREF(kept);
    Py_XDECREF(cut_styles);
    return result;
}

/* A put's last argument, ``name`` (the style, or the styles), given by position (the
 * twelfth, after the eight bound and row, col and text) or by keyword; NULL if not
 * given. An error for another number of arguments or any other keyword. */
static int last_argument(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                         const char *name, PyObject **last) {
    *last = NULL;
    Py_ssize_t keywords = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs < 11 || nargs + keywords > 12) {
        PyErr_Format(PyExc_TypeError, "put takes row, col, text and %s (%zd given)", name,
                     nargs + keywords - 8);
        return -1;
    }
    if (keywords) {
        PyObject *given = PyTuple_GET_ITEM(kwnames, 0);
        if (PyUnicode_CompareWithASCIIString(given, name) != 0) {
            PyErr_Format(PyExc_TypeError, "put: unexpected keyword argument %R", given);
            return -1;
        }
        *last = args[nargs];
    } else if (nargs == 12) {
        *last = args[11];
    }
    return 0;
}

PyDoc_STRVAR(record_put_doc,
             "record_put(glyphs, one_cell_text, style_chars, style_char, plain, runs, rows, "
             "cols, row, col, text, style=plain)\n--\n\n"
             "Canvas.put on a Recorder: the column after the text.");

static PyObject *record_put(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    PyObject *style;
    Recording recording;
    if (last_argument(args, nargs, kwnames, "style", &style) < 0 ||
        read_recording(args, &recording) < 0)
        return NULL;
    return put(&recording, args[8], args[9], args[10], style != NULL ? style : args[4], NULL);
}

PyDoc_STRVAR(record_put_styled_doc,
             "record_put_styled(glyphs, one_cell_text, style_chars, style_char, plain, runs, "
             "rows, cols, row, col, text, styles)\n--\n\n"
             "Canvas.put_styled on a Recorder: the column after the text.");

static PyObject *record_put_styled(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames) {
    PyObject *styles;
    Recording recording;
    if (last_argument(args, nargs, kwnames, "styles", &styles) < 0 ||
        read_recording(args, &recording) < 0)
        return NULL;
    if (styles == NULL) {
        PyErr_SetString(PyExc_TypeError, "put_styled: the styles must be given");
        return NULL;
    }
    if (!PyUnicode_Check(args[10]) || !PyUnicode_Check(styles) ||
        PyUnicode_GET_LENGTH(args[10]) != PyUnicode_GET_LENGTH(styles)) {
        PyErr_SetString(PyExc_ValueError, "put_styled: a style's character for each character");
        return NULL;
    }
    return put(&recording, args[8], args[9], args[10], NULL, styles);
}

static PyMethodDef methods[] = {
    {"record_put", (PyCFunction)(void (*)(void))record_put, METH_FASTCALL | METH_KEYWORDS,
     record_put_doc},
    {"record_put_styled", (PyCFunction)(void (*)(void))record_put_styled,
     METH_FASTCALL | METH_KEYWORDS, record_put_styled_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "door.term._record",
    "Drawing text on a Recorder, in C (door/term/canvas.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__record(void) { return PyModule_Create(&module); }
