import pytest

from door.cli import main
from engine.computer.selfplay import run_selfplay, wilson_interval


@pytest.mark.parametrize(
    ("players", "runs", "counting"),
    [(2, "free", "auto"), (2, "exact", "manual"), (3, "free", "manual"), (4, "exact", "auto")],
)
def test_whole_games_finish_without_an_illegal_state(
    players: int, runs: str, counting: str
) -> None:
    totals = run_selfplay(150, seed=players, players=players, runs=runs, counting=counting)  # type: ignore[arg-type]
    assert totals.games == 150
    assert sum(totals.wins_by_seat) == 150
    assert totals.hands >= 150 * 5  # a game takes more than five deals
    # random throwing: the crib averages near the 4.73 of a random crib
    assert 3.5 < totals.average("dealer", "crib") < 6.0


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson_interval(5600, 10_000)
    assert low < 0.56 < high
    assert 0.008 < high - low < 0.022
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_selfplay_command_prints_totals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "20", "--seed", "4", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "Games: 20 " in out and "no illegal state" in out
    assert "dealer" in out and "dealer+1" in out
    assert "Wins by seat: seat 1" in out
