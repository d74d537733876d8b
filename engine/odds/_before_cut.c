/* What a known hand and a half-known crib may score before the starter is cut: the win
 * bar's two distributions at the cut (engine/odds/before_cut.py's Python twins), in C.
 *
 * ``hand_counts`` counts, for each unseen starter, the points of four known cards with it
 * (whole numbers, so the same counts as the Python's bincount). ``crib_weights`` is the
 * rank-by-rank sum of engine/odds/hand_values.py's ``crib_distributions_pair`` for one
 * throw: every (x, y, starter) completion of ranks weighted by how many unseen cards make it
 * and how often the other player throws x with y, added to its points' bin, with the flush's
 * and his nob's weighted counts beside it; the Python turns them into the distribution as
 * ``crib_distributions_pair`` does (tests/engine/odds/test_before_cut.py holds the two to
 * each other).
 *
 * Nothing here trusts its arguments: a table that is not the shipped one's shape and type,
 * a card outside the deck, a card among the seen, or bins that are not 30 writeable float64
 * raise an exception, and nothing is read or written outside what was given.
 */
#include "_card_args.h"

#define SUITS 4
#define JACK 10 /* the jack's rank, counted from the ace's 0 */

static const Py_ssize_t table_shape[5] = {RANKS, RANKS, RANKS, RANKS, RANKS};
static const Py_ssize_t bins_shape[1] = {BINS};

PyDoc_STRVAR(hand_counts_doc,
             "hand_counts(rank_table, cards, seen, crib, bins)\n\n"
             "Add one to ``bins`` (30 float64) for each starter outside ``seen`` (bits by card "
             "index) at the points the four ``cards`` (a tuple of card indices, all seen) "
             "make with it: a crib's flush only with the starter's suit. Returns how many "
             "starters were counted.");

static PyObject *hand_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "hand_counts(rank_table, cards, seen, crib, bins)");
        return NULL;
    }
    if (!PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != 4) {
        PyErr_SetString(PyExc_TypeError, "cards is a tuple of four card indices");
        return NULL;
    }
    int cards[4];
    for (int i = 0; i < 4; i++)
        if (read_card(PyTuple_GET_ITEM(args[1], i), &cards[i]) < 0)
            return NULL;
    unsigned long long seen;
    if (read_seen(args[2], &seen) < 0)
        return NULL;
    for (int i = 0; i < 4; i++)
        if (!(seen >> cards[i] & 1)) {
            PyErr_SetString(PyExc_ValueError, "the hand's cards are among the seen");
            return NULL;
        }
    int crib = PyObject_IsTrue(args[3]);
    if (crib < 0)
        return NULL;
    Py_buffer table, bins;
    if (read_array(args[0], &table, PyBUF_SIMPLE, "b", 1, 5, table_shape, "the rank table") < 0)
        return NULL;
    if (read_array(args[4], &bins, PyBUF_WRITABLE, "d", sizeof(double), 1, bins_shape,
                   "the bins") < 0) {
        PyBuffer_Release(&table);
        return NULL;
    }
    /* What the starter's suit adds: a flush (four for any starter in a hand, five with
     * the starter's suit; a crib's five only then), his nob (the jack of its suit). */
    int by_suit[SUITS] = {0, 0, 0, 0};
    int suit = cards[0] % SUITS;
    if (cards[1] % SUITS == suit && cards[2] % SUITS == suit && cards[3] % SUITS == suit) {
        if (crib) {
            by_suit[suit] += 5;
        } else {
            for (int s = 0; s < SUITS; s++)
                by_suit[s] += 4;
            by_suit[suit] += 1;
        }
    }
    for (int i = 0; i < 4; i++)
        if (cards[i] / SUITS == JACK)
            by_suit[cards[i] % SUITS] += 1;
    const signed char *by_ranks =
        (const signed char *)table.buf +
        (((cards[0] / SUITS * RANKS + cards[1] / SUITS) * RANKS + cards[2] / SUITS) * RANKS +
         cards[3] / SUITS) *
            RANKS;
    double *out = (double *)bins.buf;
    long counted = 0;
    for (int starter = 0; starter < CARDS; starter++) {
        if (seen >> starter & 1)
            continue;
        int points = by_ranks[starter / SUITS] + by_suit[starter % SUITS];
        if (points >= 0 && points < BINS)
            out[points] += 1.0;
        counted++;
    }
    PyBuffer_Release(&bins);
    PyBuffer_Release(&table);
    return PyLong_FromLong(counted);
}

PyDoc_STRVAR(crib_weights_doc,
             "crib_weights(rank_table, weight, first, second, seen, bins)\n\n"
             "Add to ``bins`` (30 float64) each (x, y, starter) completion of ranks of the crib "
             "``first``, ``second`` (card indices, both seen) by its points, weighted by the "
             "cards outside ``seen`` that make it and by ``weight[x, y]`` (13 x 13). Returns "
             "(total, flush, nob): the completions' total weight, the weight of those whose "
             "two cards and starter are all of the thrown pair's suit (the pair suited; 0 "
             "otherwise) times five, and the weight of those in which his nob scores.");

static PyObject *crib_weights(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "crib_weights(rank_table, weight, first, second, seen, bins)");
        return NULL;
    }
    int first, second;
    if (read_card(args[2], &first) < 0 || read_card(args[3], &second) < 0)
        return NULL;
    unsigned long long seen;
    if (read_seen(args[4], &seen) < 0)
        return NULL;
    if (first == second || !(seen >> first & 1) || !(seen >> second & 1)) {
        PyErr_SetString(PyExc_ValueError, "the two thrown cards are different and seen");
        return NULL;
    }
    Py_buffer views[3]; /* the rank table, the weight, the bins */
    if (read_table_weight_bins(args[0], args[1], args[5], views) < 0)
        return NULL;
    const double *w = (const double *)views[1].buf;
    double *out = (double *)views[2].buf;
    double n[RANKS] = {0}, suited[SUITS] = {0};
    int present[RANKS][SUITS];
    for (int card = 0; card < CARDS; card++) {
        present[card / SUITS][card % SUITS] = !(seen >> card & 1);
        if (present[card / SUITS][card % SUITS]) {
            n[card / SUITS] += 1.0;
            suited[card % SUITS] += 1.0;
        }
    }
    /* The ranks: ordered opponent pairs (x, y), then the starter s from what is left. */
    const signed char *by_ranks = (const signed char *)views[0].buf +
                                  (first / SUITS * RANKS + second / SUITS) * RANKS * RANKS * RANKS;
    double total = 0.0;
    for (int x = 0; x < RANKS; x++) {
        for (int y = 0; y < RANKS; y++) {
            double pairs = n[x] * (n[y] - (x == y)) * w[x * RANKS + y];
            const signed char *points = by_ranks + (x * RANKS + y) * RANKS;
            for (int s = 0; s < RANKS; s++) {
                double count = pairs * (n[s] - (x == s) - (y == s));
                total += count;
                if (points[s] >= 0 && points[s] < BINS)
                    out[points[s]] += count;
            }
        }
    }
    /* Weighted ordered pairs that include a given card of rank r: 2 * (row[r] - w[r, r]). */
    double pair_total = 0.0, row[RANKS];
    for (int x = 0; x < RANKS; x++) {
        row[x] = 0.0;
        for (int y = 0; y < RANKS; y++) {
            double pairs = n[x] * (n[y] - (x == y)) * w[x * RANKS + y];
            pair_total += pairs;
            row[x] += w[x * RANKS + y] * n[y];
        }
    }
    /* A flush: the pair suited, the other two and the starter of its suit too. */
    double flush = 0.0;
    int suit = first % SUITS;
    if (second % SUITS == suit) {
        double suited_pairs = 0.0;
        for (int x = 0; x < RANKS; x++) {
            if (!present[x][suit])
                continue;
            for (int y = 0; y < RANKS; y++)
                if (present[y][suit])
                    suited_pairs += w[x * RANKS + y];
            suited_pairs -= w[x * RANKS + x];
        }
        flush = 5 * suited_pairs * (suited[suit] - 2);
    }
    /* His nob: a thrown jack with a starter of its suit (any pair without that starter),
     * or an unseen jack among the other two with a starter of its suit. */
    double nob = 0.0;
    for (int i = 0; i < 2; i++) {
        int card = i ? second : first;
        if (card / SUITS != JACK)
            continue;
        for (int x = 0; x < RANKS; x++)
            if (present[x][card % SUITS])
                nob += pair_total - 2 * (row[x] - w[x * RANKS + x]);
    }
    double with_jack[RANKS];
    for (int x = 0; x < RANKS; x++)
        with_jack[x] = 2 * (row[JACK] - w[JACK * RANKS + JACK] - w[JACK * RANKS + x]);
    for (int s = 0; s < SUITS; s++) {
        if (!present[JACK][s])
            continue;
        for (int x = 0; x < RANKS; x++)
            if (x != JACK && present[x][s])
                nob += with_jack[x];
    }
    release_all(views, 3);
    return Py_BuildValue("(ddd)", total, flush, nob);
}

static PyMethodDef methods[] = {
    {"hand_counts", (PyCFunction)(void (*)(void))hand_counts, METH_FASTCALL, hand_counts_doc},
    {"crib_weights", (PyCFunction)(void (*)(void))crib_weights, METH_FASTCALL, crib_weights_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.odds._before_cut",
    "A known hand and a half-known crib before the cut, in C (engine/odds/before_cut.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__before_cut(void) { return PyModule_Create(&module); }
