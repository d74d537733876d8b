"""bench/master_strength.py's kept runs: A's wins deal by deal saved with --save-deals and
paired with a later run by --against-file, only on the same deals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from master_strength import read_kept_deals  # noqa: E402


def strength(*args: str) -> subprocess.CompletedProcess[str]:
    # Easy against easy: a game takes milliseconds, and the pairing is what is tested.
    command = [sys.executable, str(BENCH / "master_strength.py"), "--a", "easy", "--b", "easy"]
    return subprocess.run(
        [*command, "--games", "4", "--jobs", "1", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_kept_run_pairs_with_the_same_deals(tmp_path: Path) -> None:
    kept = tmp_path / "easy.json"
    first = strength("--seed", "5", "--save-deals", str(kept))
    assert first.returncode == 0, first.stderr
    saved = json.loads(kept.read_text())
    assert saved["players"] == 2 and saved["seed"] == 5 and saved["games"] == 4
    assert len(saved["by_deal"]) == 2  # two games to a deal, A dealing first in one
    assert all(0 <= wins <= 2 for wins in saved["by_deal"])
    # The same level on the same seeds plays the same games: no gain, no deal changed.
    again = strength("--seed", "5", "--against-file", str(kept))
    assert again.returncode == 0, again.stderr
    assert "easy +0.00% (95% paired interval +0.00% to +0.00%; 0 of 2 deals" in again.stdout


def test_a_kept_run_of_other_deals_is_refused(tmp_path: Path) -> None:
    kept = tmp_path / "easy.json"
    kept.write_text(
        json.dumps({"players": 2, "seed": 5, "games": 4, "a": "easy", "by_deal": [1, 1]})
    )
    refused = strength("--seed", "6", "--against-file", str(kept))
    assert refused.returncode == 2
    assert "kept with seed 5, this run has 6" in refused.stderr
    with pytest.raises(ValueError, match="games 4, this run has 8"):
        read_kept_deals(kept, {"players": 2, "seed": 5, "games": 8})


def test_a_file_that_is_not_a_kept_run_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text("[1, 2]")
    with pytest.raises(ValueError, match="not a run kept with --save-deals"):
        read_kept_deals(other, {"players": 2, "seed": 1, "games": 4})
