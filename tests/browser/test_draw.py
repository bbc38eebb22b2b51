"""What the page draws, checked against the engine's answer: the faces the dice land on after
the Flame dice's augmentations (and after a placement change), the labels of the odds rows,
a d100 of 100, and the seed a replay link carries. Each expected value comes from pyrules in
this CPython (or from the drawing rule, applied to the engine's face), never from the page.

The page runs with animations on, so the dice really tumble and land.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from .conftest import App, first_seed, local_handle, percent_value

SYSTEMS = local_handle({"op": "systems"})["result"]["systems"]
SYSTEMS_EN = local_handle({"op": "systems", "lang": "en"})["result"]["systems"]
LANDED = "#result .result-card.is-landed"
# What each die element shows: its face (d6 faces are drawn as pips from data-face; other dice
# as text) and the text(s) on it.
DRAWN = """(area) => [...area.querySelectorAll('.die-cell .die')].map((d) => ({
    face: Number(d.dataset.face),
    pips: d.classList.contains('show-pips'),
    texts: [...d.querySelectorAll('.die-text')].map((t) => t.textContent),
}))"""


@pytest.fixture(scope="module")
def app(new_app: Any, site: str) -> Iterator[App]:
    app = new_app(site, reduced_motion="no-preference")
    app.open()
    yield app
    app.context.close()


def set_form(app: App, system: str, **values: Any) -> None:
    app.pick_system(system)
    for name, value in values.items():
        app.page.fill(app.field("actor", system, name), str(value))
    app.settle()


def roll_and_land(app: App, seed: int) -> None:
    app.set_seed(seed)
    app.roll()
    app.page.wait_for_selector(LANDED)


def drawn(app: App) -> list[dict[str, Any]]:
    dice: list[dict[str, Any]] = app.page.eval_on_selector("#result", DRAWN)
    return dice


def test_dice_land_on_the_final_faces_after_the_flame_augmentations(app: App) -> None:
    params = {"pot": 5, "diff": 3, "flame": 2, "augmentations": 2}
    request = {"op": "roll", "system": "pool", "params": params}
    # A roll where the engine's augmentations change a die (final differs from rolled).
    seed = first_seed(request, lambda r: any(d["final"] != d["rolled"] for d in r["dice"]), 500)
    expected = local_handle({**request, "seed": seed})["result"]
    set_form(app, "pool", **params)
    roll_and_land(app, seed)
    dice = drawn(app)
    assert [d["face"] for d in dice] == [d["final"] for d in expected["dice"]]
    assert all(d["pips"] for d in dice if 1 <= d["face"] <= 6)
    assert [d["face"] for d in dice] != [d["rolled"] for d in expected["dice"]]
    # Another placement of the same faces: the dice show that placement's finals.
    cells = app.page.locator("#result .die-cell.placeable")
    index = next(
        i
        for i in range(cells.count())
        if cells.nth(i).locator(".place--minus").is_enabled()
        and cells.nth(i).locator(".place--minus").is_visible()
    )
    before = app.shown()
    cells.nth(index).locator(".place--minus").click()
    app.page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=before
    )
    app.settle()
    shown_placement = app.page.eval_on_selector_all(
        "#result .die-cell.placeable", "cells => cells.map((c) => c.dataset.index)"
    )
    assert shown_placement, "no Flame die to place"
    normal = [d["rolled"] for d in expected["dice"] if d["kind"] == "normal"]
    flame = [d["rolled"] for d in expected["dice"] if d["kind"] == "flame"]
    # The placement the page now uses, read from its history entry (what it sent the engine).
    entry = app.page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history'))[0]")
    placement = entry["params"]["placement"]
    assert placement != expected["placement"]
    moved = local_handle(
        {
            "op": "roll",
            "system": "pool",
            "params": {**params, "dice": normal, "flame_dice": flame, "placement": placement},
        }
    )["result"]
    assert [d["face"] for d in drawn(app)] == [d["final"] for d in moved["dice"]]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("system", [s["id"] for s in SYSTEMS])
def test_odds_rows_are_labelled_with_their_own_outcome(app: App, system: str, lang: str) -> None:
    """Row i shows outcome i's label and outcome i's odds, in the engine's order."""
    page = app.page
    page.evaluate("() => window.pyrules.debug.trace(true)")
    page.click(f"button[data-lang={lang}]")
    try:
        # Through another system, so that this chart is asked for (and traced) afresh: the
        # page's odds cache emptied, or it would not be asked again.
        page.evaluate("() => window.pyrules.oddsCache.clear()")
        app.pick_system(next(s["id"] for s in SYSTEMS if s["id"] != system))
        app.pick_system(system)
        app.settle()
        rows = page.eval_on_selector_all(
            "#odds .odds-chart[data-side=actor] .odds-row",
            """rows => rows.map((r) => ({
                label: r.querySelector('.odds-label').textContent.trim(),
                percent: r.querySelector('.odds-percent').textContent,
            }))""",
        )
        # The engine's answer to the odds request the page sent for this chart.
        sent = [json.loads(text) for text in page.evaluate("() => window.pyrules.debug.sent")]
        request = [r for r in sent if r.get("op") == "odds" and r.get("system") == system][-1]
        assert request.get("lang") == lang
        described = next(s for s in (SYSTEMS if lang == "fr" else SYSTEMS_EN) if s["id"] == system)
        answer = local_handle(request)["result"]
        if "distribution" in answer:  # free dice: one bar per total, checked in test_roll
            pytest.skip("odds drawn as a distribution of totals, not as outcome rows")
        odds = answer["exact"]
        outcomes = described["outcomes"]
        assert len(rows) == len(outcomes)
        for row, outcome in zip(rows, outcomes, strict=True):
            assert row["label"] == outcome["label"][lang]
            value = float(Fraction(odds.get(outcome["id"], "0"))) * 100
            relation, number = percent_value(row["percent"])
            if relation == "=":
                assert abs(number - value) <= 0.051, (outcome["id"], row, value)
            elif relation == "<":
                assert 0 < value < number
            else:
                assert number < value < 100
        # Labels differ from one row to the next: a shift by one could not go unseen.
        assert len({row["label"] for row in rows}) == len(rows)
    finally:
        page.evaluate("() => window.pyrules.debug.trace(false)")
        page.click("button[data-lang=fr]")


def test_a_d100_of_100_is_drawn_as_00_and_0(app: App) -> None:
    request = {"op": "roll", "system": "d100", "params": {}}
    seed = first_seed(request, lambda r: r["dice"][0]["final"] == 100, 5000)
    final = local_handle({**request, "seed": seed})["result"]["dice"][0]["final"]
    assert final == 100
    app.pick_system("d100")
    app.settle()
    roll_and_land(app, seed)
    (die,) = drawn(app)
    # Two d10: the tens die shows (face mod 100) // 10 followed by 0, the units die face mod 10.
    assert die["face"] == final
    assert die["texts"] == [f"{(final % 100) // 10}0", str(final % 10)] == ["00", "0"]
    described = app.page.text_content("#result .die-cell .visually-hidden") or ""
    assert "dizaines 00, unités 0" in described


@pytest.mark.parametrize("seed", [2**53 - 1, 2**32 + 5])
def test_a_replay_link_keeps_a_53_bit_seed(app: App, seed: int) -> None:
    page = app.page
    set_form(app, "pool", pot=7, diff=3, flame=1)
    roll_and_land(app, seed)
    page.click("#history .history-entry >> nth=0 >> .history-share")
    page.wait_for_selector("#share-dialog[open]")
    url = page.input_value("#share-url")
    page.click("#share-close")
    encoded = url.split("#replay=")[1]
    payload = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    assert payload["seed"] == seed
    # Opened, the link shows the engine's roll for that very seed.
    page.evaluate("(url) => history.replaceState(null, '', url)", url)
    app.reload()
    page.wait_for_selector("#result .replay-badge")
    page.wait_for_selector(LANDED)
    expected = local_handle(
        {"op": "roll", "system": "pool", "params": payload["params"], "seed": seed}
    )["result"]
    assert [d["face"] for d in drawn(app)] == [d["final"] for d in expected["dice"]]
    assert page.get_attribute("#result .result-card", "data-outcome") == expected["outcome"]
    meta = page.text_content("#result .result-meta") or ""
    assert str(seed) in "".join(ch for ch in meta if ch.isdigit())
