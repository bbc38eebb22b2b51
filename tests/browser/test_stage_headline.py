"""The number first (issue 22, item 1): after a tap on « Lancer », the roll stage headlines the
number the engine rolled for that seed, in `[data-roll-stage] [data-headline]`, before the
tier words: each system, and an opposition as « 6 contre 3 », at tablet and phone sizes.

The expected number is the engine's own: the request the page sent (engine trace) answered by
pyrules in this CPython, whose `headline` (core.System.headline) is shown as is."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import App, local_handle

SIZES = [("tablet-portrait", 768, 1024), ("tablet-landscape", 1024, 768), ("phone", 360, 740)]
LANDED = "[data-roll-stage][data-state=landed]"
HEADLINE = "[data-roll-stage] [data-headline]"
SYSTEMS = ("pool", "d6", "d100", "steps", "notation")

# The last roll or opposition the page sent to the engine (JSON texts in debug.sent).
LAST_ROLL = """
() => window.pyrules.debug.sent.map((r) => typeof r === 'string' ? JSON.parse(r) : r)
  .filter((r) => r.op === 'roll' || r.op === 'oppose').at(-1)
"""


def minus(n: int) -> str:
    return f"\u2212{-n}" if n < 0 else str(n)


#: What each system's headline says beside its number (issue 39, item 1), in French.
WORDS = {"pool": "{n} réussites", "d6": "Total {n}", "d100": "{n}", "steps": "Total {n}",
         "notation": "Total {n}"}


def expected_headline(answer: dict[str, Any]) -> str:
    if "actor" in answer and "opponent" in answer:
        a, b = answer["actor"]["headline"], answer["opponent"]["headline"]
        assert isinstance(a, int) and isinstance(b, int), ("no headline from the engine", a, b)
        assert answer["headline_texts"]["fr"] == f"{minus(a)} contre {minus(b)}"
        return f"{minus(a)} contre {minus(b)}"
    assert isinstance(answer["headline"], int), ("no headline from the engine", answer)
    n = answer["headline"]
    words = WORDS[answer["system"]].format(n=minus(n))
    if answer["system"] == "pool" and abs(n) < 2:
        words = words.replace("réussites", "réussite")
    assert answer["headline_texts"]["fr"] == words
    return words


@pytest.fixture(scope="module")
def sized_apps(new_app: Any, site: str) -> Iterator[dict[str, App]]:
    apps = {}
    for name, width, height in SIZES:
        touch = width >= 700
        size = {"width": width, "height": height}
        app = new_app(site, viewport=size, has_touch=touch, is_mobile=touch)
        app.open()
        app.page.evaluate("() => window.pyrules.debug.trace(true)")
        apps[name] = app
    yield apps


def tap_roll(app: App, seed: int) -> dict[str, Any]:
    """Tap « Lancer » with this seed; the engine's answer to the request the page sent."""
    app.settle()
    app.page.evaluate("() => window.pyrules.debug.trace(true)")
    app.set_seed(seed)
    before = app.shown()
    app.page.locator("#roll-button").click()
    app.page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown || 0) > n", arg=before
    )
    app.page.wait_for_selector(LANDED)
    request = app.page.evaluate(LAST_ROLL)
    assert request and request.get("seed") == seed, request
    return dict(local_handle(json.dumps(request))["result"])


def headline_first(app: App) -> None:
    """The headline is drawn before the tier words and in larger type than any of them."""
    facts = app.page.evaluate(
        """() => {
          const head = document.querySelector('[data-roll-stage] [data-headline]');
          const words = [...document.querySelectorAll('[data-roll-stage] .verdict *')]
            .filter((n) => n.textContent.trim());
          const after = (w) => head.compareDocumentPosition(w) & Node.DOCUMENT_POSITION_FOLLOWING;
          const size = (n) => parseFloat(getComputedStyle(n).fontSize);
          return {
            before: words.every(after),
            largest: words.every((w) => size(head) > size(w)),
            visible: head.getBoundingClientRect().height > 0,
          };
        }"""
    )
    assert facts == {"before": True, "largest": True, "visible": True}, facts


@pytest.mark.parametrize(("name", "width", "height"), SIZES)
def test_the_stage_headlines_the_engine_number(
    sized_apps: dict[str, App], name: str, width: int, height: int
) -> None:
    app = sized_apps[name]
    page = app.page
    if page.is_checked("#mode-oppose"):
        app.set_mode("single")
    for index, system in enumerate(SYSTEMS):
        app.pick_system(system)
        answer = tap_roll(app, 40 + index)
        assert page.text_content(HEADLINE) == expected_headline(answer), system
        headline_first(app)
        page.keyboard.press("Escape")
    app.set_mode("oppose")
    app.pick_system("d6")
    answer = tap_roll(app, 7)
    assert page.text_content(HEADLINE) == expected_headline(answer)
    headline_first(app)
    app.screenshot(f"stage-headline-oppose-{name}-{width}x{height}")
    page.keyboard.press("Escape")
    app.set_mode("single")
