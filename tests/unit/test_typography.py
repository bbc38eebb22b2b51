"""Issue 39: French typography in every French text the engine answers: a no-break space
inside guillemets and before « : ; ! ? », so « gardés » never wraps apart from its marks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from pyrules.i18n import ERRORS, typeset
from pyrules.registry import SYSTEMS

from .helpers import call, ok

#: A plain (breaking) space where French wants a no-break one.
BREAKING = re.compile(r" [:;!?»]|« ")


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "en":
                yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def breaking(value: Any) -> list[str]:
    return [s for s in strings(value) if BREAKING.search(s)]


def test_typeset_puts_the_no_break_spaces_in_french_only() -> None:
    text = "Gardés : « 3 » ; encore ! vraiment ?"
    assert typeset(text, "fr") == (
        "Gardés\u00a0: «\u00a03\u00a0»\u00a0; encore\u00a0! vraiment\u00a0?")
    assert typeset(text, "en") == text
    assert typeset("12:30 https://x", "fr") == "12:30 https://x"


def test_the_description_of_every_system_is_typeset() -> None:
    assert breaking(ok({"op": "systems", "lang": "fr"})) == []


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_explanations_and_headlines_are_typeset(system: str) -> None:
    params = {"notation": {"expression": "4d6kh3+5d10>=8"}}.get(system, {})
    for seed in range(12):
        result = ok({"op": "roll", "system": system, "params": params, "seed": seed,
                     "lang": "fr"})
        assert breaking(result) == [], result
        odds = ok({"op": "odds", "system": system, "params": params, "lang": "fr"})
        assert breaking(odds) == []


def test_every_error_message_is_typeset() -> None:
    for key, text in ERRORS.items():
        message = re.sub(r"\{[^{}]*\}", "x", text.get("fr"))  # its placeholders filled
        assert not BREAKING.search(message), (key, message)
    refusal = call({"op": "roll", "system": "pool", "params": {"pot": 99}, "lang": "fr"})
    assert not refusal["ok"] and breaking(refusal) == []
