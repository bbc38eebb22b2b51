"""One tap is one engine call (issue 21): with the engine's request trace on, a tap on
« Lancer » in each of the five systems, a quick roll from a sheet (with and without an
exceptional effort), an opposition between characters and a combat action each send exactly
one request, and what the page keeps of it (luck, chance) comes from that one answer. A second
tap while the dice of the first are still rolling does nothing (issue 22)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .conftest import App, local_handle
from .helpers import (
    act,
    add_quick,
    create_d6,
    fighter,
    history_entries,
    make_darate,
    open_situation,
    pick_aldric,
    pick_character,
    reset_values,
    stored_characters,
    wait_history,
)


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


@contextmanager
def one_tap(app: App) -> Iterator[list[dict[str, Any]]]:
    """The requests sent by what the block does (a tap and the waits for what it shows): the
    trace emptied before, the page settled after, then the list filled."""
    app.page.evaluate("() => { window.pyrules.debug.sent.length = 0; }")
    requests: list[dict[str, Any]] = []
    yield requests
    app.settle()
    requests += sent(app)


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
        with one_tap(app) as requests:
            app.set_seed(6)
            page.click("#char-detail .entry-roll:has-text('Perception')")
            page.wait_for_selector("#efforts[data-available='1']")
            wait_history(app, 2)
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
        # Physical dice: the switch asks both sides' dice in one call; the faces typed go
        # beside each side's sheet, in the one `oppose` call.
        with one_tap(app) as requests:
            page.click("label[for=oppc-physical]")
            page.wait_for_selector("#f-oppc-opponent-d6-dice[data-count]")
        assert [r["op"] for r in requests] == ["dice"], requests
        assert {"actor", "opponent"} <= set(requests[0])
        counts = {side: int(page.get_attribute(f"#f-oppc-{side}-d6-dice", "data-count") or 0)
                  for side in ("actor", "opponent")}
        for side, count in counts.items():
            page.fill(f"#f-oppc-{side}-d6-dice", " ".join(["4"] * count))
        with one_tap(app) as requests:
            page.click("#oppc-roll")
            wait_history(app, 2)
        assert [r["op"] for r in requests] == ["oppose"], requests
        assert "sheet" in requests[0]["actor"] and "seed" not in requests[0]
        answer = local_handle(without_lang(requests[0]))["result"]
        assert answer["physical"] and history_entries(app)[0]["physical"]
        page.click("label[for=oppc-physical]")
    finally:
        page.evaluate("() => window.pyrules.debug.trace(false)")


def test_a_combat_action_is_one_call(app: App, tmp_path: Path) -> None:
    page = app.page
    pick_aldric(app, tmp_path)
    app.settle()
    page.evaluate("() => window.pyrules.debug.trace(true)")
    try:
        # A character joins: one `fight` call, the newcomer given as its sheet; the engine
        # answers their Ardeur and skills (params built from the sheet) with its judgement.
        page.click("#combat-add-char-button")
        page.wait_for_selector(fighter("Aldric"))
        app.settle()
        requests = sent(app)
        assert [r["op"] for r in requests] == ["fight"], requests
        joining = requests[0]["fight"]["participants"][-1]
        assert joining["sheet"]["character"]["name"] == "Aldric"
        answer = local_handle(without_lang(requests[0]))["result"]
        kept = page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:fight'))")
        aldric = kept["participants"][-1]
        assert {"ardeur": aldric["ardeur"], "skills": aldric["skills"]} == \
            answer["joined"][joining["id"]]
        # A participant made on the spot: one `fight` call too, its numbers checked there.
        with one_tap(app) as requests:
            add_quick(app, "Brute", 6, extra=False)
        assert [r["op"] for r in requests] == ["fight"], requests
        assert requests[0]["fight"]["participants"][-1]["quick"]["ardeur"] == 6
        add_quick(app, "Sbire", 3, extra=True)
        app.settle()
        # An action: one `combat` call with the fight and the sides' ids; its answer carries
        # the roll and the fight judged after it, so nothing is asked before nor after.
        seed = next(s for s in range(200) if local_handle(
            {"op": "combat", "params": {"kind": "skirmish"}, "fight": fight_of(kept, app),
             "actor": {"id": aldric["id"]}, "opponent": {"id": quick_id(app, "Sbire")},
             "seed": s})["result"]["winner"] == "actor")
        with one_tap(app) as requests:
            act(app, "Aldric", "Sbire", "skirmish", seed)
            wait_stored(app, 1)
            page.wait_for_selector(f"{fighter('Sbire')}[data-out=true]")
        assert [r["op"] for r in requests] == ["combat"], requests
        combat = requests[0]
        assert (combat["actor"], combat["opponent"]) == \
            ({"id": aldric["id"]}, {"id": quick_id(app, "Sbire")})
        answer = local_handle(without_lang(combat))["result"]
        entry = stored_history(app)[0]
        assert entry["actorLuck"] == answer["rolls"][0]["luck"]
        assert entry["opponentLuck"] == answer["rolls"][1]["luck"]
        # The tracker shows the answer's judgement: who is out, whose turn it is.
        shown = dict(page.eval_on_selector_all(
            "#combat-order .fighter", "(rows) => rows.map((r) => [r.dataset.id, r.dataset.out])"))
        assert shown == {i: str(not p["can_act"]).lower()
                         for i, p in answer["fight"]["participants"].items()}
        assert answer["fight"]["participants"][aldric["id"]]["warning"] == "acted"
    finally:
        page.evaluate("() => window.pyrules.debug.trace(false)")


def fight_of(kept: dict[str, Any], app: App) -> dict[str, Any]:
    """The fight as the tracker now keeps it, as the `combat` op takes it."""
    fight = app.page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:fight'))")
    return {"round": fight["round"], "turn": fight["turn"], "acted": [],
            "participants": [{"id": p["id"], "ardeur": p["ardeur"], "unarmed": p["unarmed"],
                              "skills": p["skills"]} for p in fight["participants"]]}


def quick_id(app: App, name: str) -> str:
    return str(app.page.get_attribute(fighter(name), "data-id"))


def test_physical_dice_on_a_sheet_with_an_effort_is_one_call(app: App) -> None:
    page = app.page
    make_darate(app)
    pick_character(app, "Darate")
    open_situation(app)
    page.click("label[for=f-sit-d6-effort]")
    page.click("label[for=quick-physical]")
    page.click("#char-detail .entry-roll:has-text('Perception')")
    page.wait_for_selector("#quick-faces")
    app.settle()
    count = int(page.get_attribute("#f-quick-d6-dice", "data-count") or 0)
    page.evaluate("() => window.pyrules.debug.trace(true)")
    try:
        # A bad face: refused by the engine on the face's box, nothing spent, one call.
        page.fill("#f-quick-d6-dice", " ".join(["7"] * count))
        page.click("#quick-faces-roll")
        page.wait_for_selector("#f-quick-d6-dice-error:not([hidden])")
        app.settle()
        assert [r["op"] for r in sent(app)] == ["roll"]
        assert page.get_attribute("#efforts", "data-available") == "2"
        faces = " ".join(["6"] + ["2"] * (count - 1))
        page.fill("#f-quick-d6-dice", faces)
        with one_tap(app) as requests:
            page.click("#quick-faces-roll")
            page.wait_for_selector("#efforts[data-available='1']")
            wait_history(app, 1)
        assert [r["op"] for r in requests] == ["roll"], requests
        params = requests[0]["params"]
        assert params["sheet"]["situation"]["effort"] is True
        assert "seed" not in requests[0]
        answer = local_handle(without_lang(requests[0]))["result"]
        assert [d["final"] for d in answer["dice"]] == [int(f) for f in faces.split()]
        # What the efforts box shows is the answer's count; the stored sheet is the answer's.
        efforts = answer["efforts"]
        plural = "s" if efforts["available"] > 1 else ""  # French: 0 and 1 singular
        assert page.text_content("#efforts-count") == (
            f"{efforts['available']} disponible{plural} sur {efforts['per_day']} aujourd’hui")
        stored = next(c for c in stored_characters(app) if c["name"] == "Darate")
        assert stored["stats"] == answer["character"]["stats"]
        # A night's rest: one `effort` call, the box redrawn from its answer.
        with one_tap(app) as requests:
            page.click("#efforts-rest")
            page.wait_for_selector("#efforts[data-available='2']")
        assert [r["op"] for r in requests] == ["effort"]
    finally:
        page.evaluate("() => window.pyrules.debug.trace(false)")


# The second tap, given the moment the stage starts rolling (a MutationObserver callback runs
# before the page can paint or land anything): what lies under the button's centre then, and
# the stage's state, are recorded, then the button is clicked where a finger would be.
SECOND_TAP = """() => {
  window.taps = [];
  // The stage is made at the first roll: the whole page is watched.
  const watch = new MutationObserver(() => {
    const stage = document.querySelector("[data-roll-stage]");
    if (!stage || stage.dataset.state !== "rolling") return;
    watch.disconnect();
    const button = document.getElementById("roll-button");
    const box = button.getBoundingClientRect();
    const under = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    const onButton = Boolean(under && under.closest("#roll-button"));
    window.taps.push({ state: stage.dataset.state, onButton });
    under.click();
  });
  watch.observe(document.body,
    { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });
}"""


def test_a_second_tap_while_the_dice_roll_does_nothing(new_app: Any, site: str) -> None:
    app = new_app(site, reduced_motion="no-preference")
    app.open()
    page = app.page
    app.pick_system("d100")
    app.settle()
    page.evaluate("() => window.pyrules.debug.trace(true)")
    app.set_seed(8)
    page.evaluate(SECOND_TAP)  # the second tap lands as soon as the dice are rolling
    app.roll()
    page.wait_for_function("() => window.taps.length === 1")
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
