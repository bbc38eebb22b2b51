"""Issue 39, item 3: words agree with their numbers (no lazy « (s) »), French 0 and 1 singular,
English 1 alone, in every message and explanation the engine writes."""

from __future__ import annotations

import re
from pathlib import Path

from pyrules.i18n import Text, render

from .helpers import call, ok

ROOT = Path(__file__).resolve().parents[2]


def test_no_lazy_plural_in_the_engines_strings() -> None:
    lazy = re.compile(r"""["'][^"'\n]*\w\((?:s|es|x)\)[^"'\n]*["']""")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "pyrules").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if lazy.search(line) and not line.strip().startswith("#")]
    assert not found, found


def test_a_word_agrees_with_its_number() -> None:
    text = Text("{n} {n|jet|jets}", "{n} {n|roll|rolls}")
    assert [render(text, "fr", n=n) for n in (0, 1, 2, 12)] == ["0 jet", "1 jet", "2 jets",
                                                                 "12 jets"]
    assert [render(text, "en", n=n) for n in (0, 1, 2)] == ["0 rolls", "1 roll", "2 rolls"]


def test_explanations_and_errors_agree_with_their_numbers() -> None:
    # a notation count of one success, and of two
    one = ok({"op": "roll", "system": "notation", "params": {"expression": "1d6>=1"},
              "seed": 1, "lang": "fr"})
    assert one["explanation"][-1].endswith(": 1 réussite.")
    two = ok({"op": "roll", "system": "notation", "params": {"expression": "2d6>=1"},
              "seed": 1, "lang": "en"})
    assert two["explanation"][-1].endswith(": 2 successes.")
    # wrong faces for a d6 roll: « 1 dé … 2 donnés »
    wrong = call({"op": "roll", "system": "d6", "params": {"dice": [1, 2]}, "lang": "fr"})
    assert wrong["ok"] is False
    assert "(s)" not in wrong["error"]["message"]
