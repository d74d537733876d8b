/* The renderer's row loop (door/ui/renderer.py, ``_paint_rows``) in C.
 *
 * It does exactly what ``_paint_rows`` does (tests/door/ui/test_paint_rows.py compares
 * the two on random frames), a cell at a time, which C can afford: finding the changed
 * cells of a row, the spans worth rewriting, the cursor moves and the colour changes,
 * and the text to send. The door runs the same without it: where this was not built
 * (no compiler), the renderer uses the Python.
 *
 * Every input comes from the renderer's own canvases, but nothing here trusts them:
 * a row that is not a string, strings of unequal length, a list shorter than ``rows``
 * or a style beyond the table raise an exception, never read out of bounds.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define MAX_GAP 4 /* renderer._MAX_GAP: unchanged cells rewritten rather than jumped */
#define STYLES 256 /* canvas._MAX_STYLES */
#define MAX_FORBIDDEN 8

typedef struct {
    Py_UCS4 *data;
    Py_ssize_t length, room;
    Py_UCS4 inline_room[2048];
} Text;

static int text_reserve(Text *text, Py_ssize_t more) {
    if (text->length + more <= text->room)
        return 0;
    Py_ssize_t room = text->room * 2;
    if (room < text->length + more)
        room = text->length + more;
    Py_UCS4 *data;
    if (text->data == text->inline_room) {
        data = PyMem_Malloc(room * sizeof(Py_UCS4));
        if (data != NULL)
            memcpy(data, text->data, text->length * sizeof(Py_UCS4));
    } else {
        data = PyMem_Realloc(text->data, room * sizeof(Py_UCS4));
    }
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    text->data = data;
    text->room = room;
    return 0;
}

static int text_add_ascii(Text *text, const char *ascii, Py_ssize_t length) {
    if (text_reserve(text, length) < 0)
        return -1;
    for (Py_ssize_t i = 0; i < length; i++)
        text->data[text->length++] = (unsigned char)ascii[i];
    return 0;
}

static int text_add_string(Text *text, PyObject *string) {
    Py_ssize_t length = PyUnicode_GET_LENGTH(string);
    if (text_reserve(text, length) < 0)
        return -1;
    int kind = PyUnicode_KIND(string);
    const void *data = PyUnicode_DATA(string);
    for (Py_ssize_t i = 0; i < length; i++)
        text->data[text->length++] = PyUnicode_READ(kind, data, i);
    return 0;
}

/* ``number`` in decimal at ``out`` (at most 20 characters): how many characters. */
static int write_number(char *out, Py_ssize_t number) {
    char digits[24];
    int count = 0, sign = number < 0;
    size_t left = sign ? (size_t)0 - (size_t)number : (size_t)number;
    if (sign)
        *out++ = '-';
    do {
        digits[count++] = (char)('0' + left % 10);
        left /= 10;
    } while (left);
    for (int i = 0; i < count; i++)
        out[i] = digits[count - 1 - i];
    return count + sign;
}

/* renderer._move_to(row, col), both counted from 1. */
static int text_move_to(Text *text, Py_ssize_t row, Py_ssize_t col) {
    /* Written by hand: snprintf was a tenth of this module's time. */
    char move[64];
    int length = 0;
    move[length++] = '\x1b';
    move[length++] = '[';
    length += write_number(move + length, row);
    move[length++] = ';';
    length += write_number(move + length, col);
    move[length++] = 'H';
    return text_add_ascii(text, move, length);
}

typedef struct {
    PyObject *sgr;      /* list: the escape that sets each style, by number, or None */
    PyObject *remember; /* remember(style's character) -> escape, filling the list */
    Py_UCS4 plain;      /* the plain style's character */
} Styles;

static int text_set_style(Text *text, Styles *styles, Py_UCS4 style) {
    if (style >= STYLES || PyList_GET_SIZE(styles->sgr) != STYLES) {
        PyErr_Format(PyExc_ValueError, "style %u is not one of %d", (unsigned)style, STYLES);
        return -1;
    }
    PyObject *escape = PyList_GET_ITEM(styles->sgr, style);
    if (escape != Py_None) {
        Py_INCREF(escape);
    } else {
        PyObject *key = PyUnicode_FromOrdinal(style);
        if (key == NULL)
            return -1;
        escape = PyObject_CallOneArg(styles->remember, key);
        Py_DECREF(key);
        if (escape == NULL)
            return -1;
    }
    int result = -1;
    if (PyUnicode_Check(escape))
        result = text_add_string(text, escape);
    else
        PyErr_SetString(PyExc_TypeError, "a style's escape must be a string");
    Py_DECREF(escape);
    return result;
}

typedef struct {
    Py_ssize_t first, last;
} Span;

typedef struct {
    int kind;
    const void *data;
} Chars;

static Chars chars_of(PyObject *string) {
    Chars chars = {PyUnicode_KIND(string), PyUnicode_DATA(string)};
    return chars;
}

#define AT(chars, x) PyUnicode_READ((chars).kind, (chars).data, (x))

typedef struct {
    Py_ssize_t row, col;
} Cell;

typedef struct {
    Py_UCS4 current_style; /* STYLES + 1: not known */
    Py_ssize_t at_row, at_col;
} Cursor;

#define STYLE_UNKNOWN (STYLES + 1)

/* One row's change, onto ``text``: ``_row_patch`` and the loop's cursor and style. */
static int paint_row(Text *text, Styles *styles, Cursor *cursor, Span *spans, Py_ssize_t y,
                     Py_ssize_t cols, Py_ssize_t term_cols, int colour, const Cell *forbidden,
                     int forbidden_count, PyObject *const row[4]) {
    PyObject *new_chars = row[0], *new_styles = row[1], *old_chars = row[2],
             *old_styles = row[3];
    for (int i = 0; i < 4; i++) {
        if (!PyUnicode_Check(row[i])) {
            PyErr_Format(PyExc_TypeError, "row %zd is not a string", y);
            return -1;
        }
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(new_chars);
    if (PyUnicode_GET_LENGTH(new_styles) != length || PyUnicode_GET_LENGTH(old_chars) != length ||
        PyUnicode_GET_LENGTH(old_styles) != length) {
        PyErr_Format(PyExc_ValueError, "row %zd: its strings are of different lengths", y);
        return -1;
    }
    Py_ssize_t n = length < cols ? length : cols;
    Chars chars = chars_of(new_chars), kinds = chars_of(new_styles);
    Chars was_chars = chars_of(old_chars), was_kinds = chars_of(old_styles);
    Py_ssize_t count = 0;
    /* The cells that differ, gathered into spans. The loop is written out for the
     * usual kinds of string (styles one byte a cell, characters one or two bytes, the
     * same in both frames): reading a cell through its kind at every cell was most of
     * this function's time. */
#define SPANS(READ_CHARS, READ_WAS_CHARS, READ_KINDS, READ_WAS_KINDS)                       \
    for (Py_ssize_t x = 0; x < n; x++) {                                                    \
        if (READ_CHARS(x) == READ_WAS_CHARS(x) && READ_KINDS(x) == READ_WAS_KINDS(x))       \
            continue;                                                                       \
        if (count && x - spans[count - 1].last <= MAX_GAP + 1) {                            \
            spans[count - 1].last = x;                                                      \
        } else {                                                                            \
            spans[count].first = spans[count].last = x;                                     \
            count++;                                                                        \
        }                                                                                   \
    }
#define TYPED(data, type) ((const type *)(data))
#define UCS1_CHARS(x) TYPED(chars.data, Py_UCS1)[x]
#define UCS1_WAS_CHARS(x) TYPED(was_chars.data, Py_UCS1)[x]
#define UCS2_CHARS(x) TYPED(chars.data, Py_UCS2)[x]
#define UCS2_WAS_CHARS(x) TYPED(was_chars.data, Py_UCS2)[x]
#define UCS1_KINDS(x) TYPED(kinds.data, Py_UCS1)[x]
#define UCS1_WAS_KINDS(x) TYPED(was_kinds.data, Py_UCS1)[x]
#define ANY_CHARS(x) AT(chars, x)
#define ANY_WAS_CHARS(x) AT(was_chars, x)
#define ANY_KINDS(x) AT(kinds, x)
#define ANY_WAS_KINDS(x) AT(was_kinds, x)
    int one_byte_styles = kinds.kind == PyUnicode_1BYTE_KIND &&
                          was_kinds.kind == PyUnicode_1BYTE_KIND;
    if (one_byte_styles && chars.kind == PyUnicode_1BYTE_KIND &&
        was_chars.kind == PyUnicode_1BYTE_KIND) {
        SPANS(UCS1_CHARS, UCS1_WAS_CHARS, UCS1_KINDS, UCS1_WAS_KINDS)
    } else if (one_byte_styles && chars.kind == PyUnicode_2BYTE_KIND &&
               was_chars.kind == PyUnicode_2BYTE_KIND) {
        SPANS(UCS2_CHARS, UCS2_WAS_CHARS, UCS1_KINDS, UCS1_WAS_KINDS)
    } else {
        SPANS(ANY_CHARS, ANY_WAS_CHARS, ANY_KINDS, ANY_WAS_KINDS)
    }
    if (!count)
        return 0;
    Py_ssize_t last = spans[count - 1].last;
    for (int i = 0; i < forbidden_count; i++) {
        if (forbidden[i].row == y && forbidden[i].col == last) {
            Py_ssize_t first = spans[--count].first;
            if (last > first) {
                spans[count].last = last - 1;
                count++;
            }
            if (!count)
                return 0;
            last = spans[count - 1].last;
            break;
        }
    }
    /* Erasing to the end of the line pays only for more than a gap of blanks. */
    int erase = 0;
    Py_ssize_t blank_from = 0;
    if (AT(chars, last) == ' ' && AT(kinds, last) == styles->plain) {
        Py_ssize_t blank_chars = n, blank_styles = n;
        while (blank_chars > 0 && AT(chars, blank_chars - 1) == ' ')
            blank_chars--;
        while (blank_styles > 0 && AT(kinds, blank_styles - 1) == styles->plain)
            blank_styles--;
        blank_from = blank_chars > blank_styles ? blank_chars : blank_styles;
        Py_ssize_t blanked = 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            if (spans[i].last >= blank_from)
                blanked += spans[i].last + 1 -
                           (spans[i].first > blank_from ? spans[i].first : blank_from);
        }
        erase = blanked > MAX_GAP;
    }
    if (erase) {
        Py_ssize_t kept = 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            if (spans[i].first < blank_from) {
                spans[kept].first = spans[i].first;
                spans[kept].last = spans[i].last < blank_from - 1 ? spans[i].last : blank_from - 1;
                kept++;
            }
        }
        count = kept;
    }
    Py_ssize_t first = count ? spans[0].first : blank_from;
    if (cursor->at_row != y || cursor->at_col != first) {
        if (text_move_to(text, y + 1, first + 1) < 0)
            return -1;
    }
    Py_ssize_t at_col = first;
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t start = spans[i].first, end = spans[i].last + 1;
        if (at_col != start && text_move_to(text, y + 1, start + 1) < 0)
            return -1;
        if (text_reserve(text, end - start) < 0)
            return -1;
        for (Py_ssize_t x = start; x < end; x++) {
            if (colour) {
                Py_UCS4 style = AT(kinds, x);
                if (style != cursor->current_style) {
                    if (text_set_style(text, styles, style) < 0)
                        return -1;
                    cursor->current_style = style;
                    if (text_reserve(text, end - x) < 0)
                        return -1;
                }
            }
            text->data[text->length++] = AT(chars, x);
        }
        at_col = end;
    }
    if (erase) {
        if (at_col != blank_from) {
            if (text_move_to(text, y + 1, blank_from + 1) < 0)
                return -1;
            at_col = blank_from;
        }
        if (colour && cursor->current_style != styles->plain) {
            if (text_add_ascii(text, "\x1b[0m", 4) < 0) /* ansi.RESET */
                return -1;
            cursor->current_style = styles->plain;
        }
        if (text_add_ascii(text, "\x1b[K", 3) < 0) /* ansi.CLEAR_TO_END_OF_LINE */
            return -1;
    }
    /* Writing the last column leaves the cursor in a pending-wrap state that
     * terminals disagree about: treat the position as unknown. */
    if (at_col < term_cols) {
        cursor->at_row = y;
        cursor->at_col = at_col;
    } else {
        cursor->at_row = -1;
        cursor->at_col = 0;
    }
    return 0;
}

static int read_forbidden(PyObject *cells, Cell *forbidden, int *count) {
    if (!PyTuple_Check(cells) || PyTuple_GET_SIZE(cells) > MAX_FORBIDDEN) {
        PyErr_SetString(PyExc_TypeError, "forbidden_cells must be a short tuple of (row, column)");
        return -1;
    }
    *count = (int)PyTuple_GET_SIZE(cells);
    for (int i = 0; i < *count; i++) {
        PyObject *cell = PyTuple_GET_ITEM(cells, i);
        if (!PyTuple_Check(cell) || PyTuple_GET_SIZE(cell) != 2) {
            PyErr_SetString(PyExc_TypeError, "a forbidden cell is a (row, column) tuple");
            return -1;
        }
        forbidden[i].row = PyLong_AsSsize_t(PyTuple_GET_ITEM(cell, 0));
        forbidden[i].col = PyLong_AsSsize_t(PyTuple_GET_ITEM(cell, 1));
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

PyDoc_STRVAR(paint_rows_doc,
             "paint_rows(sgr, remember, plain, new_chars, new_styles, old_chars, old_styles, "
             "rows, cols, term_cols, colour, forbidden_cells, current_style, at_row, at_col)\n"
             "--\n\n"
             "door/ui/renderer.py's _paint_rows, in C: ``sgr`` is the list of each style's\n"
             "escape by number (None: not yet made), ``remember(style)`` makes one, and\n"
             "``plain`` is the plain style's character.");

static PyObject *paint_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 15) {
        PyErr_Format(PyExc_TypeError, "paint_rows takes 15 arguments (%zd given)", nargs);
        return NULL;
    }
    Styles styles = {args[0], args[1], 0};
    if (!PyList_Check(styles.sgr) || !PyCallable_Check(styles.remember) ||
        !PyUnicode_Check(args[2]) || PyUnicode_GET_LENGTH(args[2]) != 1) {
        PyErr_SetString(PyExc_TypeError, "sgr must be a list, remember callable, plain a character");
        return NULL;
    }
    styles.plain = PyUnicode_READ_CHAR(args[2], 0);
    PyObject *lists[4];
    for (int i = 0; i < 4; i++) {
        lists[i] = args[3 + i];
        if (!PyList_Check(lists[i])) {
            PyErr_SetString(PyExc_TypeError, "the rows must be lists of strings");
            return NULL;
        }
    }
    Py_ssize_t rows = PyLong_AsSsize_t(args[7]);
    Py_ssize_t cols = PyLong_AsSsize_t(args[8]);
    Py_ssize_t term_cols = PyLong_AsSsize_t(args[9]);
    int colour = PyObject_IsTrue(args[10]);
    if (PyErr_Occurred() || colour < 0)
        return NULL;
    Cell forbidden[MAX_FORBIDDEN];
    int forbidden_count = 0;
    if (read_forbidden(args[11], forbidden, &forbidden_count) < 0)
        return NULL;
    Cursor cursor = {STYLE_UNKNOWN, PyLong_AsSsize_t(args[13]), PyLong_AsSsize_t(args[14])};
    if (PyErr_Occurred())
        return NULL;
    if (args[12] != Py_None) {
        if (!PyUnicode_Check(args[12]) || PyUnicode_GET_LENGTH(args[12]) != 1) {
            PyErr_SetString(PyExc_TypeError, "current_style must be a character or None");
            return NULL;
        }
        cursor.current_style = PyUnicode_READ_CHAR(args[12], 0);
    }
    if (cols < 0)
        cols = 0;
    Text text = {NULL, 0, 2048, {0}};
    text.data = text.inline_room;
    Span *spans = NULL;
    Py_ssize_t spans_room = 0;
    PyObject *result = NULL;
    for (Py_ssize_t y = 0; y < rows; y++) {
        PyObject *row[4];
        int listed = 1;
        for (int i = 0; i < 4; i++) {
            if (y >= PyList_GET_SIZE(lists[i]))
                listed = 0;
        }
        if (!listed) {
            PyErr_Format(PyExc_IndexError, "the frame has fewer than %zd rows", rows);
            goto done;
        }
        for (int i = 0; i < 4; i++)
            row[i] = PyList_GET_ITEM(lists[i], y);
        if (row[0] == row[2] && row[1] == row[3])
            continue; /* a row a kept frame did not touch: most rows of most frames */
        if (PyUnicode_Check(row[0])) {
            Py_ssize_t need = PyUnicode_GET_LENGTH(row[0]);
            if (need > spans_room) {
                PyMem_Free(spans);
                spans = PyMem_Malloc((need + 1) * sizeof(Span));
                if (spans == NULL) {
                    PyErr_NoMemory();
                    goto done;
                }
                spans_room = need;
            }
        }
        /* Held while the row is read: ``remember`` runs Python, which could drop them. */
        for (int i = 0; i < 4; i++)
            Py_INCREF(row[i]);
        int failed = paint_row(&text, &styles, &cursor, spans, y, cols, term_cols, colour,
                               forbidden, forbidden_count, row);
        for (int i = 0; i < 4; i++)
            Py_DECREF(row[i]);
        if (failed)
            goto done;
    }
    PyObject *changes = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, text.data, text.length);
    if (changes == NULL)
        goto done;
    PyObject *style;
    if (cursor.current_style == STYLE_UNKNOWN) {
        style = Py_None;
        Py_INCREF(style);
    } else {
        style = PyUnicode_FromOrdinal(cursor.current_style);
        if (style == NULL) {
            Py_DECREF(changes);
            goto done;
        }
    }
    result = Py_BuildValue("(NNnn)", changes, style, cursor.at_row, cursor.at_col);
done:
    PyMem_Free(spans);
    if (text.data != text.inline_room)
        PyMem_Free(text.data);
    return result;
}

static PyMethodDef methods[] = {
    {"paint_rows", (PyCFunction)(void (*)(void))paint_rows, METH_FASTCALL, paint_rows_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "door.ui._paint",
    "The renderer's row loop in C (door/ui/renderer.py's _paint_rows).", -1, methods,
};

PyMODINIT_FUNC PyInit__paint(void) { return PyModule_Create(&module); }
