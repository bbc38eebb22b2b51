"""One tap is one engine call (issue 21): with the engine's request trace on, a tap on
« Lancer » in each of the five systems, a quick roll from a sheet (with and without an
exceptional effort), an opposition between characters and a combat action each send exactly
one request, and what the page keeps of it (luck, chance) comes from that one answer. A second
tap while the dice of the first are still rolling does nothing (issue 22)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import App, local_handle
from .test_roll import reset_values
from .test_table_characters import (
    create_d6,
    history_entries,
    make_darate,
    open_situation,
    pick_character,
    wait_history,
)
from .test_table_combat import act, start_fight


def sent(app: App) -> list[dict[str, Any]]:
    texts = app.page.evaluate("() => window.pyrules.debug.sent")
    return [json.loads(text) for text in texts]


@pytest.fixture()
def traced(app: App) -> Iterator[App]:
    """The page settled (no odds or dice answer pending), then every request recorded."""
    app.settle()
    app.page.evaluate("() => window.pyrules.debug.trace(true)")
    yield app
    app.page.evaluate("() => window.pyrules.debug.trace(false)")


def stored_history(app: App) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = app.page.evaluate(
        "() => JSON.parse(localStorage.getItem('pyrules:history') || '[]')"
    )
    return entries


def wait_stored(app: App, count: int) -> None:
    app.page.wait_for_function(
        "(n) => JSON.parse(localStorage.getItem('pyrules:history') || '[]').length === n",
        arg=count,
    )


def without_lang(request: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in request.items() if k != "lang"}


@pytest.fixture(autouse=True)
def fresh(app: App) -> Iterator[None]:
    app.reset()
    yield


@pytest.mark.parametrize("system", ["pool", "d6", "d100", "steps", "notation"])
def test_one_tap_on_lancer_is_one_call(app: App, system: str) -> None:
    reset_values(app, system)
    app.settle()
    app.page.evaluate("() => window.pyrules.debug.trace(true)")
    try:
        app.set_seed(21)
        app.roll()
        wait_stored(app, 1)
        app.settle()
        requests = sent(app)
        assert [r["op"] for r in requests] == ["roll"], requests
        assert requests[0]["seed"] == 21
        # What the history keeps of the roll's luck and chance is that one answer's.
        answer = local_handle(without_lang(requests[0]))["result"]
        entry = stored_history(app)[0]
        assert entry["luck"] == answer["luck"]
        # A free-dice sum is no success test: no chance of success kept (issue 22).
        wanted = None if answer.get("kind") == "sum" else answer["chance"]["success"]
        assert entry["success"] == wanted
    finally:
        app.page.evaluate("() => window.pyrules.debug.trace(false)")


def test_a_quick_roll_is_one_call_with_and_without_an_effort(app: App) -> None:
    page = app.page
    make_darate(app)
    pick_character(app, "Darate")
    app.settle()
    page.evaluate("() => window.pyrules.debug.trace(true)")
    try:
        app.set_seed(5)
        page.click("#char-detail .entry-roll:has-text('Perception')")
        wait_history(app, 1)
        app.settle()
        requests = sent(app)
        assert [r["op"] for r in requests] == ["roll"], requests
        sheet = requests[0]["params"]["sheet"]
        assert sheet["character"]["name"] == "Darate"
        assert not sheet.get("situation", {}).get("effort")
        # With an exceptional effort: still one call; the engine spends it (the sheet it
        # answers is the one stored).
        open_situation(app)
        page.click("label[for=f-sit-d6-effort]")
        app.settle()
        page.evaluate("() => { window.pyrules.debug.sent.length = 0; }")
        app.set_seed(6)
        page.click("#char-detail .entry-roll:has-text('Perception')")
        page.wait_for_selector("#efforts[data-available='1']")
        wait_history(app, 2)
        app.settle()
        requests = sent(app)
        assert [r["op"] for r in requests] == ["roll"], requests
        assert requests[0]["params"]["sheet"]["situation"]["effort"] is True
        answer = local_handle(without_lang(requests[0]))["result"]
        entry = history_entries(app)[0]
        assert entry["params"] == answer["params"]  # the built params, no copy of the sheet
        assert "sheet" not in entry["params"]
        assert entry["luck"] == answer["luck"]
    finally:
        page.evaluate("() => window.pyrules.debug.trace(false)")


def test_an_opposition_between_characters_is_one_call(app: App) -> None:
    page = app.page
    make_darate(app)
    create_d6(app, "Garde", pc=False, flame=1, entries=[("Hallebarde", 4, 2)])
    page.click("#char-oppose")
    page.select_option("#oppc-opponent-char", label="Darate")
    page.select_option("#oppc-opponent-entry", label="Perception")
    app.settle()
    page.evaluate("() => window.pyrules.debug.trace(true)")
    try:
        app.set_seed(3)
        page.click("#oppc-roll")
        wait_history(app, 1)
        app.settle()
        requests = sent(app)
        assert [r["op"] for r in requests] == ["oppose"], requests
        answer = local_handle(without_lang(requests[0]))["result"]
        entry = history_entries(app)[0]
        assert entry["actorLuck"] == answer["actor"]["luck"]
        assert entry["opponentLuck"] == answer["opponent"]["luck"]
    finally:
        page.evaluate("() => window.pyrules.debug.trace(false)")


def test_a_combat_action_is_one_roll_call(app: App, tmp_path: Path) -> None:
    start_fight(app, tmp_path)
    app.settle()
    app.page.evaluate("() => window.pyrules.debug.trace(true)")
    try:
        act(app, "Aldric", "Brute", "melee", 4)
        wait_stored(app, 1)
        app.settle()
        ops = [r["op"] for r in sent(app)]
        # The action is one `combat` call; the tracker then asks the engine to judge the
        # fight as it now stands (`fight`: who is out, whose turn it is), once.
        assert ops.count("combat") == 1, ops
        assert set(ops) <= {"combat", "fight"}, ops
        assert ops.count("fight") <= 1, ops
        assert not {"luck", "odds", "roll", "oppose"} & set(ops), ops
        combat = next(r for r in sent(app) if r["op"] == "combat")
        answer = local_handle(without_lang(combat))["result"]
        entry = stored_history(app)[0]
        assert entry["actorLuck"] == answer["rolls"][0]["luck"]
        assert entry["opponentLuck"] == answer["rolls"][1]["luck"]
    finally:
        app.page.evaluate("() => window.pyrules.debug.trace(false)")


TAPS = """() => {
  window.taps = [];
  window.addEventListener("pointerdown", (event) => window.taps.push({
    state: document.querySelector("[data-roll-stage]").dataset.state,
    onButton: Boolean(event.target.closest("#roll-button")),
  }), true);
}"""


def test_a_second_tap_while_the_dice_roll_does_nothing(new_app: Any, site: str) -> None:
    app = new_app(site, reduced_motion="no-preference")
    app.open()
    page = app.page
    app.pick_system("d100")
    app.settle()
    page.evaluate("() => window.pyrules.debug.trace(true)")
    app.set_seed(8)
    app.roll()  # the answer is drawn; its dice are still rolling
    page.wait_for_selector("[data-roll-stage][data-state=rolling]", state="attached")
    # Where the second tap lands, and whether the dice were still rolling then.
    page.evaluate(TAPS)
    page.click("#roll-button", force=True)  # the second tap, at once (no wait for the stage)
    taps = page.evaluate("() => window.taps")
    assert taps == [{"state": "rolling", "onButton": True}], taps
    page.wait_for_selector("[data-roll-stage][data-state=landed]", state="attached")
    wait_stored(app, 1)
    app.settle()
    assert [r["op"] for r in sent(app)] == ["roll"]
    assert len(stored_history(app)) == 1
    # Once landed, a tap is a new roll.
    app.set_seed(9)
    app.roll()
    wait_stored(app, 2)
    assert [r["seed"] for r in sent(app)] == [8, 9]
