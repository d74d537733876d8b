"""Win chances for 2, 3 and 4 players from one deal's scoring distributions.

A position is the scores by *role*: role 0 is the dealer's side, role 1 the side on the
dealer's left, and so on (two sides with 2 players or two partnerships of 4, three with
3 players). One deal brings points in counting order:

1. the play (his heels with it): a joint distribution for two sides, one per role for
   three (independent, the earlier player to the dealer's left winning a tie at 121);
2. the shows, hand by hand from the dealer's left, the dealer's hand and crib last;
   a side wins the moment it reaches 121;
3. the deal passes left: role 1 deals next.

``solve_start_table`` (engine/odds/start_table.py) finds, for every position at the
start of a deal, each role's chance to win, working backward over the whole table.
``chances_through`` here runs the same arithmetic forward from one position through the
stages left of a deal, with whatever is known of the hands in place of the averages: the
mid-hand win bar and the coach use it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from compiled_parts import Twin
from engine.odds.kept import KeptForTables, read_only

FloatArray = npt.NDArray[np.float64]

GOAL: Final = 121
TAIL: Final = 1e-6  # forward runs drop a distribution's tail of this much, renormalised


def sides_for(players: int) -> int:
    """Sides in a game: 2 with two players or two partnerships, 3 with three players."""
    return 3 if players == 3 else 2


@dataclass(frozen=True)
class DealModel:
    """One deal's points. ``pegging`` is a joint [role 0, role 1] table for two sides
    and a [3, points] table of per-role distributions for three; ``shows`` lists
    (role, distribution) in counting order (the dealer's hand with the crib last)."""

    players: int
    pegging: FloatArray
    shows: tuple[tuple[int, FloatArray], ...]

    @property
    def sides(self) -> int:
        return sides_for(self.players)


# --- stages: the same steps backward (whole table) and forward (one position) ----------

Stage = tuple[str, int, FloatArray]
"""("joint", -1, table) for two sides' play, ("add", role, distribution) otherwise."""


def deal_stages(model: DealModel) -> list[Stage]:
    """The model's stages in the order points arrive."""
    stages: list[Stage] = []
    if model.sides == 2:
        stages.append(("joint", -1, model.pegging))
    else:
        for role in (1, 2, 0):  # the first to play takes a tie at 121
            stages.append(("add", role, model.pegging[role]))
    stages.extend(("add", role, dist) for role, dist in model.shows)
    return stages


def onehot(sides: int, role: int) -> FloatArray:
    """The chances when ``role`` has won: 1 for it, 0 for the others."""
    vector = np.zeros(sides)
    vector[role] = 1.0
    return vector


def rotate(table: FloatArray) -> FloatArray:
    """A start-of-deal table seen from the deal before: ``out[s0, s1, ...][role]`` is the
    chance of that role of the *previous* deal when role 1 of it deals next."""
    sides = table.ndim - 1
    moved = np.moveaxis(table, sides - 1, 0)
    return np.roll(moved, 1, axis=-1)


# --- one position forward ---------------------------------------------------------------


def _tail_end(dist: FloatArray) -> int:
    """How many leading points to keep so that at most ``TAIL`` is dropped past them.

    The mass at each point or more, summed from the last point down as numpy's cumsum of
    the reversed array sums it (the same floats), until it passes ``TAIL``: a
    distribution of 30 points in a fifth of the time of that cumsum and its search,
    as most of its tail is passed within a few points."""
    tail = 0.0
    values = dist.tolist()
    for point in range(len(values) - 1, 0, -1):
        tail += values[point]
        if tail > TAIL:
            return point + 1
    return 1


def _trim(dist: FloatArray) -> FloatArray:
    """The distribution without its negligible tail."""
    kept = dist[: _tail_end(dist)]
    result: FloatArray = kept / kept.sum()
    return result


def chances_through(
    scores: Sequence[int],
    stages: Sequence[Stage],
    start_table: FloatArray,
    goal: int = GOAL,
) -> FloatArray:
    """Each role's chance to win from ``scores`` (by role) through ``stages``, the rest of
    this deal, then ``start_table`` (by role, from ``solve_start_table``) for the next.

    Worked backward from the next deal's table, as ``solve_start_table`` does, but each
    stage only over the scores that can stand when it begins: one point at the first
    stage, more by what the stages before it may bring. A step is one matrix product (a
    band of the stage's distribution against the values after it), a fraction of the
    cost of pushing the whole box of scores forward stage by stage."""
    sides = len(scores)
    if any(score >= goal for score in scores):
        winner = next(role for role, score in enumerate(scores) if score >= goal)
        return onehot(sides, winner)
    if sides == 2:
        first_role = first_role_chance((scores[0], scores[1]), stages, start_table, goal)
        return np.array([first_role, 1.0 - first_role])
    # Three sides from here.
    trimmed = _merged(_trimmed(stages))
    before, reach, adds = _reach(trimmed, sides)
    reaching = sum(score + extra >= goal for score, extra in zip(scores, reach, strict=True))
    if reaching < 2:  # every role's points may come at any moment of the deal
        return _through_by_role(scores, trimmed, start_table, goal)
    if adds > reaching:  # some are a role's before its last, or of a role that cannot
        trimmed = _postponed(trimmed, scores, goal)
        before, reach, _ = _reach(trimmed, sides)
    region = tuple(min(goal - score, extra + 1) for score, extra in zip(scores, reach, strict=True))
    value = rotate_region(start_table, scores, region)
    for (_, role, dist), reached in zip(reversed(trimmed), reversed(before), strict=True):
        value = _pull_add(value, role, dist, min(reached[role] + 1, region[role]))
    result: FloatArray = value[(0,) * sides].copy()
    return result


def first_role_chance(
    scores: tuple[int, int], stages: Sequence[Stage], start_table: FloatArray, goal: int = GOAL
) -> float:
    """Role 0's chance to win, two sides, as ``chances_through`` works it out (role 1's is
    the rest): the win bar's, which takes this figure alone rather than an array made
    for it and read back (a play's bar, 24 us, spent 2 of them so)."""
    first, second = scores
    if first >= goal or second >= goal:
        return 1.0 if first >= goal else 0.0
    trimmed = trimmed_stages(stages)
    before, reach, adds = _reach(trimmed, 2)
    if adds > 2:  # some role has more than one add
        reaching = (first + reach[0] >= goal) + (second + reach[1] >= goal)
        if reaching < 2:  # every role's points may come at any moment of the deal
            trimmed = _by_role(trimmed)
        elif adds > reaching:  # some are a role's before its last, or of a role that cannot
            trimmed = _postponed(trimmed, scores, goal)
        before, reach, adds = _reach(trimmed, 2)
    region = (min(goal - first, reach[0] + 1), min(goal - second, reach[1] + 1))
    return FORWARD.chosen(scores, trimmed, before, region, start_table)


def trimmed_stages(stages: Sequence[Stage]) -> list[Stage]:
    """The stages as the forward runs take them: without their negligible tails, and
    consecutive ones of one role as one."""
    return _merged(_trimmed(stages))


def trimmed_distribution(dist: FloatArray) -> FloatArray:
    """One role's distribution as ``trimmed_stages`` trims it alone (kept for a read-only
    one)."""
    return _trimmed_dist("add", dist)


_TRIMMED = KeptForTables()
"""Distributions trimmed (trimming was a sixth of a win bar's time)."""


def clear_kept() -> None:
    """Forget the work kept for read-only distributions (trimmed forms, tails)."""
    _TRIMMED.clear()
    _TAILS.clear()
    _SUMS.clear()


def _trimmed(stages: Sequence[Stage]) -> list[Stage]:
    """The stages without their negligible tails."""
    return [(kind, role, _trimmed_dist(kind, dist)) for kind, role, dist in stages]


def _trimmed_dist(kind: str, dist: FloatArray) -> FloatArray:
    return _TRIMMED(dist, _trim_joint if kind == "joint" else _trim)


def _trim_joint(dist: FloatArray) -> FloatArray:
    """A two-sided distribution without its negligible tails."""
    kept = dist[: _tail_end(dist.sum(axis=1)), : _tail_end(dist.sum(axis=0))]
    trimmed: FloatArray = kept / kept.sum()
    return trimmed


def _merged(stages: list[Stage]) -> list[Stage]:
    """Consecutive stages of one role as one (the dealer's hand and crib): nobody scores
    between them, so reaching 121 in either is reaching it in their sum."""
    merged: list[Stage] = []
    for kind, role, dist in stages:
        if merged and kind == "add" and merged[-1][0] == "add" and merged[-1][1] == role:
            merged[-1] = ("add", role, _sum_of(merged[-1][2], dist))
        else:
            merged.append((kind, role, dist))
    return merged


_SUMS: dict[tuple[int, int], tuple[FloatArray, FloatArray, FloatArray]] = {}
"""The sums of two read-only distributions (the dealer's hand and the crib, trimmed), by
the two arrays' ids, with the arrays themselves, so that neither id can be reused while
it is kept: the same two are summed at every moment of a deal's play and show."""
_SUMS_KEPT: Final = 2048


def _sum_of(first: FloatArray, second: FloatArray) -> FloatArray:
    """The distribution of the sum of two independent scores."""
    if first.flags.writeable or second.flags.writeable:
        summed: FloatArray = np.convolve(first, second)
        return summed
    key = (id(first), id(second))
    known = _SUMS.get(key)
    if known is not None:
        return known[2]
    if len(_SUMS) >= _SUMS_KEPT:  # a thousand tables' deals: the oldest go
        for old in list(_SUMS)[: _SUMS_KEPT // 4]:
            del _SUMS[old]
    summed = read_only(np.convolve(first, second))
    _SUMS[key] = (first, second, summed)
    return summed


def _reach(stages: Sequence[Stage], sides: int) -> tuple[list[tuple[int, ...]], list[int], int]:
    """How many points each role may have scored at most when each stage begins, and
    through all of them; and how many of the stages are adds."""
    reach = [0] * sides
    before: list[tuple[int, ...]] = []
    adds = 0
    for kind, role, dist in stages:
        before.append(tuple(reach))
        if kind == "joint":
            reach[0] += dist.shape[0] - 1
            reach[1] += dist.shape[1] - 1
        else:
            reach[role] += len(dist) - 1
            adds += 1
    return before, reach, adds


def _by_role(stages: list[Stage]) -> list[Stage]:
    """The stages with each role's adds as one, after the play's joint stage (the
    dealer's last), when at most one role can reach the goal in them: each role's points
    may then come at any moment of the deal (the one that can reaches it by its own
    points whenever they come, the others' only move the next deal's start), and fewer
    and smaller steps do the same work, equal to the stages in order but for the
    rounding of the sums (a few parts in 10^16)."""
    joint = [stage for stage in stages if stage[0] == "joint"]
    adds: dict[int, FloatArray] = {}
    for kind, role, dist in stages:
        if kind == "add":
            adds[role] = np.convolve(adds[role], dist) if role in adds else dist
    return joint + [("add", role, adds[role]) for role in sorted(adds, key=lambda r: r == 0)]


def _postponed(stages: list[Stage], scores: Sequence[int], goal: int) -> list[Stage]:
    """The stages with each add that cannot take its role to the goal (whatever came
    before it) put off to the role's next add, or to the end: its points then change
    nothing until that next add, where the role reaches the goal or not by the same sum
    as before, and the others reach it or not by their own. (Equal to the stages in
    order but for the rounding of the sums, a few parts in 10^16.)"""
    reach = list(scores)
    kept: list[Stage] = []
    put_off: dict[int, FloatArray] = {}
    for kind, role, dist in stages:
        if kind == "joint":
            kept.extend(("add", late, put_off.pop(late)) for late in sorted(put_off))
            kept.append((kind, role, dist))
            reach[0] += dist.shape[0] - 1
            reach[1] += dist.shape[1] - 1
            continue
        reach[role] += len(dist) - 1
        if role in put_off:
            dist = np.convolve(put_off.pop(role), dist)
        if reach[role] < goal:
            put_off[role] = dist
        else:
            kept.append((kind, role, dist))
    kept.extend(("add", late, put_off[late]) for late in sorted(put_off))
    merged = _merged(kept)
    if len(merged) == len(stages):
        return stages  # nothing put off: the same stages
    return merged


def _through_by_role(
    scores: Sequence[int], stages: list[Stage], start_table: FloatArray, goal: int
) -> FloatArray:
    """``chances_through`` for three sides when at most one role can reach the goal in
    ``stages`` (adds only): each role's points taken together (see ``_by_role``), the
    values of the next deal's start weighed by each role's in turn, straight from the
    unrotated start table (its axes are roles 1, 2, 0; each role's chance is the one on
    its right), from a box of it as big as the points each role may score."""
    sides = len(scores)
    dists = dict.fromkeys(range(sides), _NOTHING)
    for _, role, dist in _by_role(stages):
        dists[role] = dist
    order = [*range(1, sides), 0]
    sizes = [min(goal - scores[role], len(dists[role])) for role in order]
    firsts = tuple(scores[role] for role in order)
    weights = tuple(dists[role][:size] for role, size in zip(order, sizes, strict=True))
    # Past the goal a role wins: its chance of scoring that many, or nothing.
    past = tuple(
        float(_tails(dists[role])[size]) if size < len(dists[role]) else 0.0
        for role, size in zip(order, sizes, strict=True)
    )
    return BY_ROLE.chosen(start_table, firsts, weights, past)


def _by_role_python(
    start_table: FloatArray,
    firsts: tuple[int, ...],
    weights: tuple[FloatArray, ...],
    past: tuple[float, ...],
) -> FloatArray:
    """The box of ``start_table`` from ``firsts`` (roles 1, 2, 0), weighed by each role's
    ``weights`` in turn, outermost first, each role's chance of passing the goal
    (``past``) added to the chance on its left as it is weighed; rolled to roles 0, 1,
    2. The outermost axis in slices cast to float64 that stay in the processor's cache;
    the box is not copied whole, nor rotated."""
    sides = len(firsts)
    index = tuple(
        slice(first, first + len(weight)) for first, weight in zip(firsts, weights, strict=True)
    )
    box = start_table[index]
    value: FloatArray | None = None
    for axis, weight in enumerate(weights):
        size = len(weight)
        if value is None:  # in slices that fit a processor cache, as float64
            rest = box[0].size
            value = np.zeros(rest)
            step = max(1, _SLICE // rest)
            for first in range(0, size, step):
                part = box[first : first + step].astype(np.float64).reshape(-1, rest)
                value += weight[first : first + step] @ part
            value = value.reshape(box.shape[1:])
        else:
            value = (weight @ value.reshape(size, -1)).reshape(value.shape[1:])
        value[..., axis] += past[axis]  # role 1, 2, 0's chance sits on the axis before
    assert value is not None
    result: FloatArray = np.roll(value.reshape(sides), 1)
    return result


def _by_role_in_c(box_sum: Callable[..., tuple[float, float, float]]) -> Callable[..., FloatArray]:
    """``_by_role_python`` with engine/odds/_by_role.c's ``box_sum``: the box read once,
    and what passing the goal adds put in after, weighed by the weights still to come."""

    def by_role_in_c(
        start_table: FloatArray,
        firsts: tuple[int, ...],
        weights: tuple[FloatArray, ...],
        past: tuple[float, ...],
    ) -> FloatArray:
        if not start_table.flags.c_contiguous:  # (a table solved on the fly, in tests)
            return _by_role_python(start_table, firsts, weights, past)
        first, second, third = (np.ascontiguousarray(weight) for weight in weights)
        a, b, c = box_sum(start_table, *firsts, first, second, third)
        later = float(third.sum())
        a += past[0] * float(second.sum()) * later
        b += past[1] * later
        c += past[2]
        return np.array([c, a, b])

    return by_role_in_c


BY_ROLE: Final = Twin[Callable[..., FloatArray]](
    "engine.odds._by_role",
    python=_by_role_python,
    compiled=lambda c: _by_role_in_c(c.box_sum),
)
"""Three sides' run through a deal by role, in C where engine/odds/_by_role.c was built."""


_NOTHING: Final = read_only(np.ones(1))
"""No points: a role with nothing left to score this deal."""

_SLICE: Final = 1 << 15
"""Values of the start table cast to float64 at a time (a quarter of a megabyte)."""


def _pull_add(value: FloatArray, role: int, dist: FloatArray, need: int) -> FloatArray:
    """The value before ``role`` scores ``dist``, at its first ``need`` scores, from
    ``value`` after it (scoring past the box reaches the goal: that role wins); three
    sides (two: ``_through_two_sides``)."""
    size = value.shape[role]
    pulled = np.moveaxis(np.tensordot(_band(dist, need, size), value, axes=([1], [role])), 0, role)
    # From score i the role passes the goal with size - i points or more: tail[size - i],
    # for the scores close enough for that to be possible (i from ``first``), none before.
    first = max(0, size - len(dist) + 1)
    if first < need:
        past = _tails(dist)[size - need + 1 : size - first + 1][::-1]
        shape = [1] * (value.ndim - 1)
        shape[role] = need - first
        index: list[slice | int] = [slice(None)] * value.ndim
        index[role], index[-1] = slice(first, need), role
        pulled[tuple(index)] += past.reshape(shape)
    result: FloatArray = pulled
    return result


_TAILS = KeptForTables()
"""What ``_tails`` worked out: every win bar pulls the same few through the same stages."""


def _tails(dist: FloatArray) -> FloatArray:
    """``tails[i]``: the chance of ``i`` points or more (``a, b`` or more each, for a
    two-sided table, with a row and a column of zeros past its end)."""
    return _TAILS(dist, _tails_of)


def _tails_of(dist: FloatArray) -> FloatArray:
    tails: FloatArray
    if dist.ndim == 2:
        rows, cols = dist.shape
        tails = np.zeros((rows + 1, cols + 1))
        tails[:rows, :cols] = dist[::-1, ::-1].cumsum(axis=0).cumsum(axis=1)[::-1, ::-1]
    else:
        tails = np.cumsum(dist[::-1])[::-1]
    return tails


def _through_two_sides(
    scores: Sequence[int],
    stages: list[Stage],
    before: list[tuple[int, ...]],
    region: tuple[int, ...],
    start_table: FloatArray,
) -> float:
    """``chances_through`` for two sides, role 0's chance alone: role 1's is the rest
    (the two make one, and each step keeps their sum), which halves the products and
    makes each a plain one (role 1's points a product on the right, not a stack of
    small ones). Each step is ``_pull_add``'s: a band of the distribution against the
    values after it, and the chance of passing the goal from the scores near it."""
    value = first_role_table(start_table)[
        scores[0] : scores[0] + region[0], scores[1] : scores[1] + region[1]
    ]
    for (kind, role, dist), reached in zip(reversed(stages), reversed(before), strict=True):
        need0, need1 = min(reached[0] + 1, region[0]), min(reached[1] + 1, region[1])
        if kind == "joint":
            value = _pull_joint(value, dist, (need0, need1))
        elif role == 0:
            size = value.shape[0]
            value = _band(dist, need0, size) @ value
            first = max(0, size - len(dist) + 1)  # from here role 0 may pass the goal
            if first < need0:
                value[first:need0] += _tails(dist)[size - need0 + 1 : size - first + 1][::-1, None]
        else:  # passing the goal, role 1 wins: nothing for role 0
            value = value @ _band(dist, need1, value.shape[1]).T
    return float(value[0, 0])


def _forward_in_c(forward: Callable[..., float]) -> Callable[..., float]:
    """``_through_two_sides`` with engine/odds/_forward.c's ``through_two_sides``: the same
    steps, each one loop over its band's non-zero part rather than a few numpy calls over
    the whole band."""

    def through_two_sides_in_c(
        scores: Sequence[int],
        stages: list[Stage],
        before: list[tuple[int, ...]],
        region: tuple[int, ...],
        start_table: FloatArray,
    ) -> float:
        return forward(scores, stages, before, region, first_role_table(start_table))

    return through_two_sides_in_c


FORWARD: Final = Twin[Callable[..., float]](
    "engine.odds._forward",
    python=_through_two_sides,
    compiled=lambda c: _forward_in_c(c.through_two_sides),
)
"""The win bar's two-sided run, in C where engine/odds/_forward.c was built."""


def _band(dist: FloatArray, need: int, size: int) -> FloatArray:
    """``band[i, j] = dist[j - i]`` (zero outside it), ``need`` rows of ``size``: row
    ``i`` weighs the values ``j - i`` points on (a view of one padded copy of the
    distribution, made in C: as_strided is four times dearer)."""
    length = min(len(dist), size)
    padded = np.zeros(need - 1 + size)
    padded[need - 1 : need - 1 + length] = dist[:length]
    step = padded.itemsize
    band: FloatArray = np.ndarray(
        (need, size), padded.dtype, buffer=padded, offset=(need - 1) * step, strides=(-step, step)
    )
    return band


def _pull_joint(value: FloatArray, pegging: FloatArray, need: tuple[int, int]) -> FloatArray:
    """Role 0's chance before two sides peg ``pegging`` jointly, at the first ``need``
    scores, from ``value`` after it (the first past the goal wins; both past it: even,
    as the play cannot say). The play comes first in a deal, so ``need`` is one point
    but for a caller's own stages."""
    size0, size1 = value.shape
    rows, cols = pegging.shape
    pulled = np.empty(need)
    tails = _tails(pegging)
    for i in range(need[0]):
        for j in range(need[1]):
            in0, in1 = min(rows, size0 - i), min(cols, size1 - j)
            here = float(
                pegging[:in0, :in1].reshape(-1) @ value[i : i + in0, j : j + in1].reshape(-1)
            )
            both = tails[in0, in1]
            pulled[i, j] = here + (tails[in0, 0] - both + both / 2)
    return pulled


def chance_through_play(value: FloatArray, pegging: FloatArray) -> float:
    """Role 0's chance before two sides peg ``pegging`` jointly, from ``value`` after it
    (from the scores now; its edges are the goal's where they reach it)."""
    return float(_pull_joint(value, pegging, (1, 1))[0, 0])


def _rolled(box: FloatArray) -> FloatArray:
    """``np.roll(np.moveaxis(box, -2, 0), 1, axis=-1)``, laid out in memory as np.roll
    lays it (as the box, whose last axis is contiguous), in a fifth of the time: each
    row of the box is copied one value on, then each row's first value of every point
    put right. np.roll copies the strided box value by value (a box can be megabytes)."""
    *outer, last, roles = box.shape
    out = np.empty(box.shape, box.dtype)
    rows, out_rows = box.reshape(*outer, last * roles), out.reshape(*outer, last * roles)
    out_rows[..., 1:] = rows[..., :-1]
    out_rows[..., 0::roles] = rows[..., roles - 1 :: roles]
    moved: FloatArray = np.moveaxis(out, -2, 0)
    return moved


_ROTATED: dict[int, tuple[FloatArray, FloatArray]] = {}
"""Role 0's chance in two-sided start tables seen from the deal before (``rotate``), by
the table's id, with the table itself kept so that the id cannot be reused: the shipped
tables are rotated once."""


def rotate_region(start_table: FloatArray, scores: Sequence[int], box: Sequence[int]) -> FloatArray:
    """``rotate(start_table)`` over the box of scores from ``scores``. For three sides,
    whose table is 42 MB, the box is rotated alone."""
    sides = len(scores)
    order = list(range(1, sides)) + [0]
    index = tuple(slice(scores[role], scores[role] + box[role]) for role in order)
    return _rolled(start_table[index])


def prepare_start_table(start_table: FloatArray) -> None:
    """Do now what the first forward run from ``start_table`` would: for two sides,
    turn the table (see ``first_role_table``)."""
    if start_table.ndim == 3:
        first_role_table(start_table)


def first_role_table(start_table: FloatArray) -> FloatArray:
    """Role 0's chance in a two-sided start table rotated (``rotate``), where the two-sided
    run starts from (the Python's and engine/odds/_forward.c's): made once per table and
    kept with it (a little over 100 kB)."""
    kept = _ROTATED.get(id(start_table))
    if kept is None or kept[0] is not start_table:
        if len(_ROTATED) > 8:
            _ROTATED.clear()  # tables made on the fly (tests, the bench that makes them)
        first = np.ascontiguousarray(rotate(start_table)[..., 0])
        kept = _ROTATED[id(start_table)] = (start_table, first)
    return kept[1]
