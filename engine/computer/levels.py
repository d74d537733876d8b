"""The computer's levels, and the scores from which each plays to win rather than for
points (the levels themselves: ``engine.computer.player``)."""

from __future__ import annotations

from typing import Final

from engine.rules.errors import IllegalActionError

LEVELS: Final = ("easy", "normal", "expert", "master")
# From this score on (either side) choices weigh the chance to win, not points.
ENDGAME_FROM: Final = 81
# The master weighs the chance to win in the play from this score on (either side).
MASTER_PLAY_FROM: Final = 61
# With two players the master searches the play to its end over hands the opponent may hold
# (engine.computer.sampled_play) once the two hands hold this many cards or fewer, in place
# of its six-ply search there: as strong (in the play +0.020 points a deal, about -0.005
# to +0.045, over 7,500 paired deals, bench/play_paired.py; against the expert, paired,
# +0.19 % over 7,000 games, bench/master_strength.py) and a play at six cards 1.2 ms at
# the median where the six-ply search took 17 (p99 4.8 ms over every play where 33).
# With the draws through the expert's discard (below) it starts at seven cards, once the first
# card is laid: paired on main's kept deals +0.96 % (+0.25 to +1.67) over 5,000 games (seeds
# 51-53, bench/master_strength.py --sampled-from 7), a play's p99 26 ms of process time where
# 23 (its median 1.2 ms, as at six). From eight cards (the lead searched too) +0.50 % (-1.43
# to +2.43) over 1,000; with 256 draws in place of 64, +0.40 % at six, +1.05 % at seven.
MASTER_SAMPLED_FROM: Final = 7
# The master's full search of the play (two players) draws the opponent's hand through the
# expert's discard (engine.computer.discard_draws: the six they were dealt, the cards they
# laid forced in, kept as the expert keeps them) in place of card by card by the keep
# model's weights: paired on main's kept deals +1.06 % (+0.36 to +1.76) over 5,000 games,
# 54.40 % against 53.34 % (bench/master_strength.py); a play's p99 as main's (22-25 ms of
# process time), its median 1.2 ms where 0.7. Off, the keep model's draws.
MASTER_DRAWS_THROUGH_DISCARD: Final = True
# Those draws also read the opponent's first card this hand (their lead, or their answer to
# ours): a draw is kept as often as the expert holding its four cards lays that card first
# (engine.computer.discard_draws.first_play_chance, from engine/data/expert_first_plays.bin),
# while both sides are short of ENDGAME_FROM (the table is the expert's play for points).
# Paired on the kept deals of seeds 52 and 53 (2,000 games each) 55.55 % both, where the
# draws without it won 54.45 % and 54.70 % (bench/master_strength.py); a play's p99 as
# without it (27-28 ms of process time), its median 1.6 ms where 1.3.
MASTER_READS_FIRST_PLAY: Final = True
# When we deal, the pone's second card (laid on their lead and our answer) is read the same
# way (second_play_chance, from engine/data/expert_second_plays.bin), and the draws are
# weighed by both reads and drawn again by weight rather than accepted by chance (where
# every hand makes a play rare, rejection left too few to use). Paired on the first 4,000
# games of seed 55 against the first card read alone: 55.07 % where 54.73 %, +0.35 (-0.44
# to +1.14; 248 of 2,000 deals won differently); a play's p99 as before (31 ms of process
# time on the loaded machine where 34), its median 2.3 ms where 2.1. Over 20,000 games of
# a seed never used (56), 55.54 % (Wilson 54.85-56.23 %; bench/master_strength.py).
MASTER_READS_SECOND_PLAY: Final = True
# With three or four players the master searches the play to its end over hands the other
# seats may hold (engine.computer.table_sampled) once every hand together holds this many
# cards or fewer, by the number of players (not listed: never): at least as strong as the
# table search alone, paired on main's kept deals +1.36 % (+0.16 to +2.56) over 3,600 games
# at three and +0.46 % (-0.74 to +1.67) over 3,900 at four (bench/master_strength.py), and
# a play's median cheaper. In C a play's 99th percentile (process time) is 19 ms at eleven
# cards at three, 28 ms at twelve over half the draws (52 ms over all), and 24 ms at
# fourteen at four (fifteen, 50 ms).
MASTER_TABLE_SAMPLED_FROM: Final[dict[int, int]] = {3: 12, 4: 14}
# From this many cards on, half the draws (engine.computer.table_sampled.SAMPLES): the
# lead's twelve cards at three take four times the eleven's search; searching the lead so
# screened +0.85 % (-0.39 to +2.09) over 2,700 games against eleven cards. Fifteen cards at
# four so screened -1.11 % (-3.22 to +1.00): not searched (bench/master_strength.py).
MASTER_TABLE_HALF_DRAWS_FROM: Final[dict[int, int]] = {3: 12}
# By the number of players: the full search's draws weigh each seat's cards by what it did
# this hand (engine.computer.table_sampled.seat_weights: the keep model beside the cards it
# laid, the ranks it passed up points with at 1/16), as the two-player master's draws do.
# At four, paired on the shipped master's kept deals, +0.72 % (-0.38 to +1.81) over 3,900
# games (bench/master_strength.py), a play's p99 34 ms; not screened at three (off there).
MASTER_TABLE_WEIGHTED_DRAWS: Final[frozenset[int]] = frozenset({4})
# By the number of players: the table's discard moves each throw's chance by what the four
# cards kept are measured to peg for each side (engine.computer.table_keep_pegging), at the
# board's value of a point to each, as the two-player master's discard does. At four,
# paired on main's kept deals, +2.50 % (+1.18 to +3.82) over 3,000 games, 54.97 % against
# 52.47 % (bench/master_strength.py); a discard's p99 2.8 ms of process time where 2.4.
# Not measured at three (no fit there).
MASTER_TABLE_KEEP_PEGGING: Final[frozenset[int]] = frozenset({4})
# Where only the Python twin runs, a hundred times slower, fewer cards: a play's p99 30 ms at
# eight cards at three (nine, 49), 21 ms at nine at four (ten, 62). A seat plays otherwise
# there than over the C, the same game from the same seeds.
MASTER_TABLE_SAMPLED_FROM_IN_PYTHON: Final[dict[int, int]] = {3: 8, 4: 9}


def check_level(level: str) -> None:
    """Raises IllegalActionError unless ``level`` is one of ``LEVELS``."""
    if level not in LEVELS:
        raise IllegalActionError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
