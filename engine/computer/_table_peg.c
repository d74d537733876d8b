/* The rest of a play at a table of three or four searched to its end with every hand known,
 * summed over sampled hands of the other seats (engine/computer/table_full_play.py,
 * ``_search_sums``), in C.
 *
 * The same rules, the same order of cards (ranks upwards), the same cut-offs (alpha-beta on
 * our side's value at four, where the partnerships make a zero-sum game; none in the max-n
 * search at three) and the same sums as the Python twin, to the bit: a line's value is
 * worked out in the same order of additions (tests/engine/computer/test_table_full_play.py).
 * Hands are counts by rank and nothing is allocated, so a sample's search is microseconds
 * where the Python's is milliseconds.
 *
 * Nothing here trusts its arguments: a rank outside 1..13, more than four of a rank in play,
 * a count past 31, hands or a count beyond the bounds, seats or sides the search does not
 * cover or values of the wrong kind raise an exception, and nothing is read outside what
 * was given.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_peg_points.h"
#include "_play_args.h"

#define MOST_IN_HAND 6
#define MOST_ON_COUNT 13
#define MOST_SAMPLES 4096
#define MOST_SEATS 4
#define MOST_SIDES 3
#define FAR (1 << 30)
/* Every card of every hand and the count, each new count's cards after the last's. */
#define SEQ_ROOM (MOST_ON_COUNT + MOST_SEATS * MOST_IN_HAND + 1)

typedef struct {
    double v[MOST_SIDES];
} Value;

typedef struct {
    int p[MOST_SIDES];
} Points;

typedef struct {
    int exact;
    int seats;
    int sides;
    int max_n; /* three sides: each seat for its own side, no cut-offs */
    int side_of[MOST_SEATS];
    double base[MOST_SIDES];
    double worth[MOST_SIDES][MOST_SIDES];
    int need[MOST_SIDES];
    int hand[MOST_SEATS][14];
    int held[MOST_SEATS];
    int total;
    int seq[SEQ_ROOM];
} Table;

static Value leaf(const Table *t, Points points) {
    Value value = {{0.0, 0.0, 0.0}};
    int rows = t->max_n ? t->sides : 1;
    for (int side = 0; side < rows; side++) {
        double v = t->base[side];
        for (int other = 0; other < t->sides; other++)
            v += t->worth[side][other] * (double)points.p[other];
        value.v[side] = v;
    }
    return value;
}

static Value won(int side) {
    Value value = {{0.0, 0.0, 0.0}};
    value.v[side] = 1.0;
    return value;
}

static Value next_turn(Table *t, int base, int size, int count, int after, int last, int out,
                       Points points, double alpha, double beta);

/* ``seat`` lays ``rank`` on the count seq[base..base+size). */
static Value lay(Table *t, int base, int size, int count, int seat, int rank, int out,
                 Points points, double alpha, double beta) {
    t->seq[base + size] = rank;
    size++;
    count += PIPS[rank];
    t->hand[seat][rank]--;
    t->held[seat]--;
    t->total--;
    int side = t->side_of[seat];
    Value value;
    points.p[side] += peg_points(t->seq + base, size, count, t->exact);
    if (points.p[side] >= t->need[side]) {
        value = won(side);
    } else if (t->total == 0) {
        if (count != 31)
            points.p[side] += 1; /* one for last */
        if (points.p[side] >= t->need[side])
            value = won(side);
        else
            value = leaf(t, points);
    } else if (count == 31) {
        value = next_turn(t, base + size, 0, 0, seat, seat, 0, points, alpha, beta);
    } else {
        value = next_turn(t, base, size, count, seat, seat, out, points, alpha, beta);
    }
    t->hand[seat][rank]++;
    t->held[seat]++;
    t->total++;
    return value;
}

static int better(const Table *t, int side, const Value *value, const Value *best) {
    if (side == 0)
        return value->v[0] > best->v[0];
    if (!t->max_n)
        return value->v[0] < best->v[0];
    return value->v[side] > best->v[side] ||
           (value->v[side] == best->v[side] && value->v[0] < best->v[0]);
}

/* ``seat`` lays a card or says go; ``last`` laid the count's last card. */
static Value turn(Table *t, int base, int size, int count, int seat, int last, int out,
                  Points points, double alpha, double beta) {
    int side = t->side_of[seat];
    int any = 0;
    Value best = {{0.0, 0.0, 0.0}};
    for (int rank = 1; rank <= 13; rank++) {
        if (!t->hand[seat][rank] || count + PIPS[rank] > 31)
            continue;
        Value value = lay(t, base, size, count, seat, rank, out, points, alpha, beta);
        if (!any || better(t, side, &value, &best))
            best = value;
        any = 1;
        if (!t->max_n) {
            if (side == 0) {
                if (best.v[0] > alpha)
                    alpha = best.v[0];
            } else if (best.v[0] < beta) {
                beta = best.v[0];
            }
            if (alpha >= beta)
                break;
        }
    }
    if (any)
        return best;
    return next_turn(t, base, size, count, seat, last, out | 1 << seat, points, alpha, beta);
}

/* The turn passes on from ``after``: the first seat after it holding a card and not out. */
static Value next_turn(Table *t, int base, int size, int count, int after, int last, int out,
                       Points points, double alpha, double beta) {
    for (int offset = 1; offset <= t->seats; offset++) {
        int seat = (after + offset) % t->seats;
        if (t->held[seat] && !(out >> seat & 1))
            return turn(t, base, size, count, seat, last, out, points, alpha, beta);
    }
    int side = t->side_of[last]; /* nobody can lay a card: one for the go, a new count */
    points.p[side] += 1;
    if (points.p[side] >= t->need[side])
        return won(side);
    return next_turn(t, base + size, 0, 0, last, last, 0, points, alpha, beta);
}

/* ``count`` floats from the tuple ``object`` into ``into``. */
static int read_floats(PyObject *object, double *into, Py_ssize_t count, const char *what) {
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != count) {
        PyErr_Format(PyExc_ValueError, "%s is a tuple of %zd floats", what, count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PyTuple_GET_ITEM(object, i);
        if (!PyFloat_Check(item)) {
            PyErr_Format(PyExc_TypeError, "%s is a tuple of %zd floats", what, count);
            return -1;
        }
        into[i] = PyFloat_AS_DOUBLE(item);
    }
    return 0;
}

/* Set every seat's hand, the count's cards and the sizes for one sample: ours, then the
   other seats' ``held`` ranks in turn at ``hand``. Returns SAMPLE_OK, or what is wrong with
   it (no Python call: it runs without the GIL too). */
static int set_sample(Table *t, const int *mine, Py_ssize_t mine_size, const int *seq,
                      Py_ssize_t seq_size, const unsigned char *hand,
                      const unsigned char *held) {
    memset(t->hand, 0, sizeof t->hand);
    int in_play[14] = {0};
    for (Py_ssize_t i = 0; i < mine_size; i++) {
        t->hand[0][mine[i]]++;
        in_play[mine[i]]++;
    }
    for (Py_ssize_t i = 0; i < seq_size; i++) {
        t->seq[i] = seq[i];
        in_play[seq[i]]++;
    }
    t->held[0] = (int)mine_size;
    t->total = (int)mine_size;
    for (int seat = 1; seat < t->seats; seat++) {
        for (int i = 0; i < held[seat - 1]; i++, hand++) {
            if (*hand < 1 || *hand > 13)
                return BAD_RANK;
            t->hand[seat][*hand]++;
            in_play[*hand]++;
        }
        t->held[seat] = held[seat - 1];
        t->total += held[seat - 1];
    }
    for (int rank = 1; rank <= 13; rank++) {
        if (in_play[rank] > 4)
            return TOO_MANY;
    }
    return SAMPLE_OK;
}

PyDoc_STRVAR(search_sums_doc,
             "search_sums(mine, hands, held, samples, seq, out, exact, side_of, base, worth, "
             "need)\n\n"
             "For each rank 0..13 the sum over the ``samples`` samples of our side's value "
             "when we lay that rank from ``mine`` (bytes of ranks) on ``seq`` (the count's "
             "ranks) and every seat plays on knowing every hand: "
             "engine/computer/table_full_play.py's Python twin. ``hands``: each sample's "
             "other seats' ranks, seat 1 first, ``held[s - 1]`` of them for seat s; "
             "``out``: a bit for each seat out of the count; ``side_of``: bytes, a side "
             "for each seat (ours 0); ``base`` and ``need``: a float and an int for each "
             "side, ``worth`` a float for each pair of sides, row by row. Ranks that do "
             "not fit sum to 0.");

static PyObject *search_sums(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "search_sums(mine, hands, held, samples, seq, out, "
                                         "exact, side_of, base, worth, need)");
        return NULL;
    }
    Table table;
    Table *t = &table;
    memset(t, 0, sizeof *t);
    int mine[MOST_IN_HAND], seq[MOST_ON_COUNT];
    Py_ssize_t mine_size, seq_size;
    if (read_ranks(args[0], mine, MOST_IN_HAND, &mine_size, "mine") < 0 ||
        read_ranks(args[4], seq, MOST_ON_COUNT, &seq_size, "seq") < 0)
        return NULL;
    if (!PyBytes_Check(args[2]) || !PyBytes_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, "held and side_of are bytes");
        return NULL;
    }
    Py_ssize_t others = PyBytes_GET_SIZE(args[2]);
    if (others < 2 || others > MOST_SEATS - 1 || PyBytes_GET_SIZE(args[7]) != others + 1) {
        PyErr_SetString(PyExc_ValueError, "three or four seats, a side for each");
        return NULL;
    }
    t->seats = (int)others + 1;
    const unsigned char *held = (const unsigned char *)PyBytes_AS_STRING(args[2]);
    const unsigned char *side_of = (const unsigned char *)PyBytes_AS_STRING(args[7]);
    Py_ssize_t per_sample = 0;
    for (Py_ssize_t i = 0; i < others; i++) {
        if (held[i] > MOST_IN_HAND) {
            PyErr_SetString(PyExc_ValueError, "a hand holds at most 6 cards here");
            return NULL;
        }
        per_sample += held[i];
    }
    int sides = 0;
    for (int seat = 0; seat < t->seats; seat++) {
        if (side_of[seat] >= MOST_SIDES || (seat == 0 && side_of[seat] != 0)) {
            PyErr_SetString(PyExc_ValueError, "two or three sides, ours 0");
            return NULL;
        }
        t->side_of[seat] = side_of[seat];
        if (side_of[seat] + 1 > sides)
            sides = side_of[seat] + 1;
    }
    if (sides < 2) {
        PyErr_SetString(PyExc_ValueError, "two or three sides, ours 0");
        return NULL;
    }
    t->sides = sides;
    t->max_n = sides > 2;
    Py_ssize_t samples = PyLong_AsSsize_t(args[3]);
    if (samples == -1 && PyErr_Occurred())
        return NULL;
    if (samples < 1 || samples > MOST_SAMPLES) {
        PyErr_SetString(PyExc_ValueError, "from 1 to 4096 samples");
        return NULL;
    }
    if (!PyBytes_Check(args[1]) || PyBytes_GET_SIZE(args[1]) != samples * per_sample) {
        PyErr_SetString(PyExc_ValueError, "hands is bytes of ranks, samples times the hands");
        return NULL;
    }
    const unsigned char *hands = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    long out = PyLong_AsLong(args[5]);
    if (out == -1 && PyErr_Occurred())
        return NULL;
    if (out < 0 || out >= 1L << t->seats || out & 1) {
        PyErr_SetString(PyExc_ValueError, "out is a bit for each seat but ours");
        return NULL;
    }
    int exact = PyObject_IsTrue(args[6]);
    if (exact < 0)
        return NULL;
    t->exact = exact;
    double worth[MOST_SIDES * MOST_SIDES];
    if (read_floats(args[8], t->base, sides, "base") < 0 ||
        read_floats(args[9], worth, sides * sides, "worth") < 0)
        return NULL;
    for (int side = 0; side < sides; side++)
        for (int other = 0; other < sides; other++)
            t->worth[side][other] = worth[side * sides + other];
    if (!PyTuple_Check(args[10]) || PyTuple_GET_SIZE(args[10]) != sides) {
        PyErr_SetString(PyExc_ValueError, "need is a tuple of an int for each side");
        return NULL;
    }
    for (int side = 0; side < sides; side++) {
        long need = PyLong_AsLong(PyTuple_GET_ITEM(args[10], side));
        if (need == -1 && PyErr_Occurred())
            return NULL;
        if (need < 1 || need > FAR) {
            PyErr_SetString(PyExc_ValueError, "a side needs 1 to 2**30 points");
            return NULL;
        }
        t->need[side] = (int)need;
    }
    int count = 0;
    for (Py_ssize_t i = 0; i < seq_size; i++)
        count += PIPS[seq[i]];
    if (count > 31) {
        PyErr_SetString(PyExc_ValueError, "the count cannot pass 31");
        return NULL;
    }
    /* Every sample is checked first, holding the GIL (a bad one raises); then the search
       lets it go: it reads only C memory (the ranks' bytes, held by the call), so the
       door's event loop runs on while a thinking thread searches (up to tens of
       milliseconds at three and four players), where it stood still. */
    for (Py_ssize_t sample = 0; sample < samples; sample++) {
        int problem = set_sample(t, mine, mine_size, seq, seq_size, hands + sample * per_sample,
                                 held);
        if (problem) {
            raise_sample_problem(problem);
            return NULL;
        }
    }
    double sums[14] = {0};
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t sample = 0; sample < samples; sample++) {
        set_sample(t, mine, mine_size, seq, seq_size, hands + sample * per_sample, held);
        Points start = {{0, 0, 0}};
        for (int rank = 1; rank <= 13; rank++) {
            if (t->hand[0][rank] && count + PIPS[rank] <= 31)
                sums[rank] += lay(t, 0, (int)seq_size, count, 0, rank, (int)out, start, -1e300,
                                  1e300)
                                  .v[0];
        }
    }
    Py_END_ALLOW_THREADS
    return sums_as_list(sums);
}

static PyMethodDef methods[] = {
    {"search_sums", (PyCFunction)(void (*)(void))search_sums, METH_FASTCALL, search_sums_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_table_peg",
    "The full search of a play at a table of three or four over sampled hands "
    "(engine/computer/table_full_play.py's twin).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__table_peg(void) { return PyModule_Create(&module); }
