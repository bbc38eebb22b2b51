"""bench/engines.py: the page's share is paired per round, against that round's bare page."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import engines


def visit(first: float | None, later: float | None) -> dict[str, float | None]:
    return {"first": first, "later": later}


ROWS = {
    "webkit": {
        "bare": [1000.0, 2000.0, 4000.0],
        # Round by round the app adds 20 ms of 1000, 100 of 2000 and 40 of 4000 to a first
        # visit; its later visit of the second round never came.
        "app": [visit(320, 300), visit(700, None), visit(1040, 900)],
        "before": [visit(300, 310), visit(600, 500), visit(1000, 700)],
    }
}


def test_shares_pair_each_round_with_its_own_bare_page() -> None:
    assert engines.shares(ROWS["webkit"], "app", "before", "first") == [0.02, 0.05, 0.01]
    # A round where a site was not ready is left out, not counted as nothing.
    assert engines.shares(ROWS["webkit"], "app", "before", "later") == [-0.01, 0.05]


def test_the_share_report_gives_the_median_and_the_rounds_within_the_goal() -> None:
    lines = engines.share_report(ROWS).splitlines()
    first = next(line for line in lines if line.startswith("| webkit | first |"))
    later = next(line for line in lines if line.startswith("| webkit | later |"))
    assert "| +0.02× |" in first and "| 2/3 |" in first and first.endswith("pass |")
    assert "| +0.02× |" in later and "| 1/2 |" in later
    # 100-500 ms more in every round: over the goal, first and later visits.
    slow = [visit(500, 500), visit(900, 900), visit(1500, 1500)]
    report = engines.share_report({"webkit": {**ROWS["webkit"], "app": slow}})
    rows = [line for line in report.splitlines() if line.startswith("| webkit |")]
    assert len(rows) == 2 and all(row.endswith("**FAIL** |") for row in rows)
