/* A crib's points once the starter is cut, over the other side's two cards
 * (engine/odds/crib.py, ``_crib_given_starter``), in C.
 *
 * The Python gathers every pair of the deck's unseen cards with numpy (a mask over the
 * deck's 1,326 pairs, a look-up of their points, a weighted bincount); here it is one loop
 * over the same pairs in the same order, adding each pair's weight to its points' bin as
 * bincount adds it, so every bin is the same sum, to the bit
 * (tests/engine/odds/test_crib_in_c.py).
 *
 * Nothing here trusts its arguments: a table that is not the shipped one's shape and
 * type, a card outside the deck or a bin array that is not 30 writeable float64 raises an
 * exception, and nothing is read or written outside what was given.
 */
#include "_card_args.h"

#define JACK 10 /* the jack's rank, counted from the ace's 0 */

PyDoc_STRVAR(crib_counts_doc,
             "crib_counts(rank_table, weight, first, second, starter, seen, bins)\n\n"
             "Add to ``bins`` (30 float64) each pair of cards outside ``seen`` (bits by card "
             "index) by the points the crib ``first``, ``second`` and the pair make with "
             "``starter`` (card indices), weighted by ``weight`` (13 x 13 by the pair's "
             "ranks): engine/odds/crib.py's Python twin before it divides by the total.");

static PyObject *crib_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "crib_counts(rank_table, weight, first, second, starter, seen, bins)");
        return NULL;
    }
    int first, second, starter;
    if (read_card(args[2], &first) < 0 || read_card(args[3], &second) < 0 ||
        read_card(args[4], &starter) < 0)
        return NULL;
    unsigned long long seen;
    if (read_seen(args[5], &seen) < 0)
        return NULL;
    Py_buffer views[3]; /* the rank table, the weight, the bins */
    if (read_table_weight_bins(args[0], args[1], args[6], views) < 0)
        return NULL;
    const signed char *points_by_ranks = (const signed char *)views[0].buf;
    const double *weights = (const double *)views[1].buf;
    double *out = (double *)views[2].buf;
    int suit = starter % 4, nob = JACK * 4 + suit; /* the jack of the starter's suit */
    /* RANK_TABLE[first, second, x, y, starter]: the ranks' points, x and y the pair's */
    const signed char *by_ranks = points_by_ranks + ((first / 4) * RANKS + second / 4) *
                                                        RANKS * RANKS * RANKS + starter / 4;
    int extra = (first == nob || second == nob);
    int flush = first % 4 == suit && second % 4 == suit;
    for (int x = 0; x < CARDS; x++) {
        if (seen >> x & 1)
            continue;
        for (int y = x + 1; y < CARDS; y++) {
            if (seen >> y & 1)
                continue;
            int points = by_ranks[((x / 4) * RANKS + y / 4) * RANKS] + extra;
            points += (x == nob || y == nob);
            if (flush && x % 4 == suit && y % 4 == suit)
                points += 5;
            if (points >= 0 && points < BINS) /* (bincount's bins past 30 are dropped) */
                out[points] += weights[(x / 4) * RANKS + y / 4];
        }
    }
    release_all(views, 3);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"crib_counts", (PyCFunction)(void (*)(void))crib_counts, METH_FASTCALL, crib_counts_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.odds._crib",
    "A crib's points once the starter is cut, in C (engine/odds/crib.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__crib(void) { return PyModule_Create(&module); }
