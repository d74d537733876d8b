/* The rest of a two-player play searched to its end with both hands known, summed over
 * sampled opponent hands (engine/computer/full_play.py, ``_search_sums``), in C.
 *
 * The same rules, the same alpha-beta cut-offs (each card we may lay now is searched with
 * the full window, so its value is exact) and the same values as the Python twin; here the
 * hands are kept as counts by rank and nothing is allocated, so a sample's search is
 * microseconds where the Python's is a millisecond or so. Each card's sum adds the samples in
 * their order, as the Python does, so the sums are the same to the bit
 * (tests/engine/computer/test_full_play.py).
 *
 * Nothing here trusts its arguments: a rank outside 1..13, more than four of a rank, a
 * count past 31, hands or a count beyond the bounds, a table that is not 121 x 121 float64
 * or a score off the board raises an exception, and nothing is read outside what was given.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_peg_points.h"
#include "_play_args.h"

#define GOAL 121
#define MOST_IN_HAND 6
#define MOST_ON_COUNT 13
#define MOST_SAMPLES 4096
#define ME 0
#define OPP 1
#define FAR (1 << 30)
/* Every card of both hands and the count, each new count's cards after the last's. */
#define SEQ_ROOM (MOST_ON_COUNT + 2 * MOST_IN_HAND + 1)

typedef struct {
    int exact;
    const double *table; /* NULL: points */
    int start[2];
    int need[2];
    int hand[2][14];
    int held[2];
    int seq[SEQ_ROOM];
} Search;

static double turn(Search *s, int base, int size, int count, int side, int passed, int last,
                   int mine, int theirs, double alpha, double beta);

static double end_value(const Search *s, int mine, int theirs) {
    if (s->table == NULL)
        return (double)(mine - theirs);
    return s->table[(s->start[ME] + mine) * GOAL + s->start[OPP] + theirs];
}

static double new_count(Search *s, int base, int leader, int last, int mine, int theirs,
                        double alpha, double beta) {
    if (s->held[leader] == 0)
        leader = 1 - leader;
    return turn(s, base, 0, 0, leader, 0, last, mine, theirs, alpha, beta);
}

/* ``mover`` lays ``rank`` on the count seq[base..base+size); ``passed``: the other side
 * has said go. */
static double lay(Search *s, int base, int size, int count, int mover, int rank, int passed,
                  int mine, int theirs, double alpha, double beta) {
    s->seq[base + size] = rank;
    size++;
    count += PIPS[rank];
    s->hand[mover][rank]--;
    s->held[mover]--;
    int points[2] = {mine, theirs};
    double value;
    points[mover] += peg_points(s->seq + base, size, count, s->exact);
    if (points[mover] >= s->need[mover]) {
        value = mover == ME ? 1.0 : 0.0;
    } else if (s->held[ME] == 0 && s->held[OPP] == 0) {
        if (count != 31)
            points[mover] += 1; /* one for last */
        if (points[mover] >= s->need[mover])
            value = mover == ME ? 1.0 : 0.0;
        else
            value = end_value(s, points[ME], points[OPP]);
    } else if (count == 31) {
        value = new_count(s, base + size, 1 - mover, mover, points[ME], points[OPP], alpha, beta);
    } else if (passed) {
        value = turn(s, base, size, count, mover, 1, mover, points[ME], points[OPP], alpha, beta);
    } else {
        value = turn(s, base, size, count, 1 - mover, 0, mover, points[ME], points[OPP], alpha,
                     beta);
    }
    s->hand[mover][rank]++;
    s->held[mover]++;
    return value;
}

/* ``side`` to lay a card or say go; ``last`` laid the count's last card. */
static double turn(Search *s, int base, int size, int count, int side, int passed, int last,
                   int mine, int theirs, double alpha, double beta) {
    int room = 31 - count;
    int any = 0;
    double best = side == ME ? -1e300 : 1e300;
    for (int rank = 1; rank <= 13; rank++) {
        if (!s->hand[side][rank] || PIPS[rank] > room)
            continue;
        any = 1;
        double value = lay(s, base, size, count, side, rank, passed, mine, theirs, alpha, beta);
        if (side == ME) {
            if (value > best)
                best = value;
            if (best > alpha)
                alpha = best;
        } else {
            if (value < best)
                best = value;
            if (best < beta)
                beta = best;
        }
        if (alpha >= beta)
            break;
    }
    if (any)
        return best;
    if (passed) { /* nobody can lay a card: one for the go, then a new count */
        int points[2] = {mine, theirs};
        points[last] += 1;
        if (points[last] >= s->need[last])
            return last == ME ? 1.0 : 0.0;
        return new_count(s, base + size, 1 - last, last, points[ME], points[OPP], alpha, beta);
    }
    return turn(s, base, size, count, 1 - side, 1, last, mine, theirs, alpha, beta);
}

/* Set the search's hands, count and sizes for one sample: ours, the count's cards and the
   opponent's ``held`` ranks at ``hand``. Returns SAMPLE_OK, or what is wrong with it (no
   Python call: it runs without the GIL too). */
static int set_sample(Search *s, const int *mine, Py_ssize_t mine_size, const int *seq,
                      Py_ssize_t seq_size, const unsigned char *hand, Py_ssize_t held) {
    memset(s->hand, 0, sizeof s->hand);
    int in_play[14] = {0};
    for (Py_ssize_t i = 0; i < mine_size; i++) {
        s->hand[ME][mine[i]]++;
        in_play[mine[i]]++;
    }
    for (Py_ssize_t i = 0; i < seq_size; i++) {
        s->seq[i] = seq[i];
        in_play[seq[i]]++;
    }
    for (Py_ssize_t i = 0; i < held; i++) {
        if (hand[i] < 1 || hand[i] > 13)
            return BAD_RANK;
        s->hand[OPP][hand[i]]++;
        in_play[hand[i]]++;
    }
    for (int rank = 1; rank <= 13; rank++) {
        if (in_play[rank] > 4)
            return TOO_MANY;
    }
    s->held[ME] = (int)mine_size;
    s->held[OPP] = (int)held;
    return SAMPLE_OK;
}

PyDoc_STRVAR(search_sums_doc,
             "search_sums(mine, hands, samples, seq, opp_said_go, exact, table, my_score, "
             "opp_score)\n\n"
             "For each rank 0..13 the sum over the ``samples`` opponent hands (``hands``: "
             "their ranks, bytes, samples times the hand's size) of the play's minimax "
             "value when we lay that rank from ``mine`` (bytes of ranks) on ``seq`` (the "
             "count's ranks): engine/computer/full_play.py's Python twin. ``table`` None "
             "scores points, else a 121 x 121 float64 chance to win once the play is over, "
             "from the two scores. Ranks that do not fit sum to 0.");

static PyObject *search_sums(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "search_sums(mine, hands, samples, seq, opp_said_go, "
                                         "exact, table, my_score, opp_score)");
        return NULL;
    }
    Search search;
    Search *s = &search;
    memset(s, 0, sizeof *s);
    int mine[MOST_IN_HAND], seq[MOST_ON_COUNT];
    Py_ssize_t mine_size, seq_size;
    if (read_ranks(args[0], mine, MOST_IN_HAND, &mine_size, "mine") < 0 ||
        read_ranks(args[3], seq, MOST_ON_COUNT, &seq_size, "seq") < 0)
        return NULL;
    Py_ssize_t samples = PyLong_AsSsize_t(args[2]);
    if (samples == -1 && PyErr_Occurred())
        return NULL;
    if (samples < 1 || samples > MOST_SAMPLES) {
        PyErr_SetString(PyExc_ValueError, "from 1 to 4096 samples");
        return NULL;
    }
    if (!PyBytes_Check(args[1]) || PyBytes_GET_SIZE(args[1]) % samples != 0 ||
        PyBytes_GET_SIZE(args[1]) / samples > MOST_IN_HAND) {
        PyErr_SetString(PyExc_ValueError, "hands is bytes of ranks, samples times a hand");
        return NULL;
    }
    Py_ssize_t held = PyBytes_GET_SIZE(args[1]) / samples;
    const unsigned char *hands = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    int said_go = PyObject_IsTrue(args[4]);
    int exact = PyObject_IsTrue(args[5]);
    if (said_go < 0 || exact < 0)
        return NULL;
    long scores[2];
    for (int side = 0; side < 2; side++) {
        scores[side] = PyLong_AsLong(args[7 + side]);
        if (scores[side] == -1 && PyErr_Occurred())
            return NULL;
        if (scores[side] < 0 || scores[side] >= GOAL) {
            PyErr_SetString(PyExc_ValueError, "scores are 0 to 120 while the play goes on");
            return NULL;
        }
    }
    int count = 0;
    for (Py_ssize_t i = 0; i < seq_size; i++)
        count += PIPS[seq[i]];
    if (count > 31) {
        PyErr_SetString(PyExc_ValueError, "the count cannot pass 31");
        return NULL;
    }
    Py_buffer view;
    int has_table = args[6] != Py_None;
    if (has_table) {
        if (PyObject_GetBuffer(args[6], &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            return NULL;
        if (view.ndim != 2 || view.itemsize != 8 || view.format == NULL ||
            strcmp(view.format, "d") != 0 || view.shape[0] != GOAL || view.shape[1] != GOAL) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_TypeError, "the table is 121 x 121 float64");
            return NULL;
        }
    }
    s->exact = exact;
    s->table = has_table ? (const double *)view.buf : NULL;
    s->start[ME] = (int)scores[ME];
    s->start[OPP] = (int)scores[OPP];
    s->need[ME] = has_table ? GOAL - s->start[ME] : FAR;
    s->need[OPP] = has_table ? GOAL - s->start[OPP] : FAR;
    /* Every sample is checked first, holding the GIL (a bad one raises); then the search
       lets it go: it reads only C memory (the ranks' bytes and the table's buffer, both
       held by the call), so the door's event loop runs on while a thinking thread searches,
       where the loop stood still for the whole search (up to tens of milliseconds). */
    int failed = 0;
    for (Py_ssize_t sample = 0; sample < samples && !failed; sample++) {
        int problem = set_sample(s, mine, mine_size, seq, seq_size, hands + sample * held, held);
        if (problem) {
            raise_sample_problem(problem);
            failed = 1;
        }
    }
    double sums[14] = {0};
    if (!failed) {
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t sample = 0; sample < samples; sample++) {
            set_sample(s, mine, mine_size, seq, seq_size, hands + sample * held, held);
            for (int rank = 1; rank <= 13; rank++) {
                if (s->hand[ME][rank] && count + PIPS[rank] <= 31)
                    sums[rank] += lay(s, 0, (int)seq_size, count, ME, rank, said_go, 0, 0,
                                      -1e300, 1e300);
            }
        }
        Py_END_ALLOW_THREADS
    }
    if (has_table)
        PyBuffer_Release(&view);
    if (failed)
        return NULL;
    return sums_as_list(sums);
}

static PyMethodDef methods[] = {
    {"search_sums", (PyCFunction)(void (*)(void))search_sums, METH_FASTCALL, search_sums_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_peg",
    "The full search of a two-player play over sampled hands "
    "(engine/computer/full_play.py's twin).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__peg(void) { return PyModule_Create(&module); }
