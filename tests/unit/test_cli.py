"""``python -m pyrules``: roll, odds, oppose and systems, in French by default."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pyrules.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_roll_with_physical_dice_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "pool", "pot=6", "diff=2", "--dice", "1,6,3,6,3,4")
    assert code == 0
    assert out.startswith("Réussite critique — marge +3")
    assert "5 réussites" in out


def test_roll_in_english_with_a_seed_replays(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "roll", "d100", "level=master", "--seed", "99", "--lang", "en")
    _, again, _ = run(capsys, "roll", "d100", "level=master", "--seed", "99", "--lang", "en")
    assert first == again
    assert "margin" in first and "(seed 99)" in first


def test_json_output_is_the_api_answer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "steps", "die=6", "threshold=4", "--dice", "4", "--json")
    answer = json.loads(out)
    assert code == 0
    assert answer["ok"] and answer["result"]["outcome"] == "success"


def test_odds_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "steps", "die=8", "threshold=5")
    assert code == 0
    assert "50.00 %" in out and "(1/2)" in out


def test_oppose_with_bool_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "oppose", "d6", "--actor", "pc=oui", "dice=3",
                       "--opponent", "pc=non", "dice=3")
    assert code == 0
    assert out.startswith("Vainqueur : acteur (marge 0)")


def test_systems_lists_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "systems", "--lang", "en")
    assert code == 0
    for system_id in ("pool:", "d6:", "d100:", "steps:"):
        assert system_id in out
    assert "pot=6 [1..40]" in out


def test_errors_name_the_field_and_exit_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "roll", "pool", "pot=99")
    assert code == 1
    assert "invalid_param [pot]" in err
    code, _, err = run(capsys, "roll", "pool", "pot")
    assert code == 2
    assert "key=value" in err


def test_module_entry_point() -> None:
    out = subprocess.run([sys.executable, "-m", "pyrules", "roll", "d6", "--dice", "6"],
                         capture_output=True, text=True, check=True)
    assert "Total\u00a0: attribut 3 + compétence 2 + dés 6 = 11." in out.stdout
