/* The points the last card laid on a count pegs (engine.computer.pegging.peg_points), for
 * the play's full searches in C: two players (_peg.c) and a table of three or four
 * (_table_peg.c). Ranks only; ``exact`` asks for runs in the order laid. */
#ifndef CRIBBAGE_PEG_POINTS_H
#define CRIBBAGE_PEG_POINTS_H

static const int PIPS[14] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};

/* Points for the last of seq[from..to) at ``count``: engine.computer.pegging.peg_points. */
static int peg_points(const int *seq, int size, int count, int exact) {
    int points = (count == 15 || count == 31) ? 2 : 0;
    int last = seq[size - 1];
    int same = 1;
    while (same < size && seq[size - same - 1] == last)
        same++;
    if (same > 1) {
        static const int PAIRS[5] = {0, 0, 2, 6, 12};
        return points + PAIRS[same > 4 ? 4 : same];
    }
    for (int length = size; length > 2; length--) {
        const int *tail = seq + size - length;
        if (exact) {
            int step = tail[1] - tail[0];
            if (step != 1 && step != -1)
                continue;
            int steady = 1;
            for (int i = 1; i < length && steady; i++)
                steady = tail[i] - tail[i - 1] == step;
            if (steady)
                return points + length;
        } else {
            int low = 14, high = 0, seen = 0, distinct = 1;
            for (int i = 0; i < length; i++) {
                int bit = 1 << tail[i];
                if (seen & bit)
                    distinct = 0;
                seen |= bit;
                if (tail[i] < low)
                    low = tail[i];
                if (tail[i] > high)
                    high = tail[i];
            }
            if (distinct && high - low == length - 1)
                return points + length;
        }
    }
    return points;
}

#endif
