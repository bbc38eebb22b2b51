"""What the page shows comes from the engine: the Flame-die placement controls follow the
answer's `placement_moves` (on a die that rolled 1, on a die showing 2, after a move); the
DIFF steps are named from the registry, in French and English; the combat tracker shows the
engine's `fight` answer (who is out, where the next turn goes, which entry fights, no next
turn once everyone is down)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import App, first_seed, local_handle
from .helpers import flame_cells, reset_values, wait_luck


@pytest.fixture(autouse=True)
def fresh_form(app: App) -> Iterator[None]:
    page = app.page
    page.evaluate("() => localStorage.removeItem('pyrules:state')")
    if page.is_checked("#mode-oppose"):
        app.set_mode("single")
    app.set_physical(False)
    yield


PARAMS = {"pot": 4, "flame": 2, "augmentations": 1, "diminutions": 1}


def controls(app: App) -> list[dict[str, bool]]:
    return [{"plus": c["plus"], "minus": c["minus"]} for c in flame_cells(app)]


def test_placement_controls_match_the_engine_on_a_one_and_on_a_two(app: App) -> None:
    page = app.page
    request: dict[str, Any] = {"op": "roll", "system": "pool", "params": PARAMS}
    # A roll whose Flame dice show a 1 and a 2.
    seed = first_seed(request, lambda r: sorted(d["rolled"] for d in r["dice"]
                                                if d["kind"] == "flame") == [1, 2], 2000)
    expected = local_handle({**request, "seed": seed})["result"]
    # What the document allows, worked out by hand: a 1 takes nothing; a 2 can take the
    # augmentation (-> 3) but no diminution (a Flame die stays at 2 or more).
    by_face = {d["rolled"]: m for d, m in zip(
        [d for d in expected["dice"] if d["kind"] == "flame"], expected["placement_moves"],
        strict=True)}
    assert by_face == {1: {"plus": False, "minus": False}, 2: {"plus": True, "minus": False}}

    reset_values(app, "pool")
    for name, value in PARAMS.items():
        page.fill(app.field("actor", "pool", name), str(value))
    app.set_seed(seed)
    app.roll()
    cells = flame_cells(app)
    assert [c["rolled"] for c in cells] == [d["rolled"] for d in expected["dice"]
                                            if d["kind"] == "flame"]
    assert controls(app) == expected["placement_moves"]

    # Put the augmentation on the 2: the page sends the move, and the controls are again
    # the engine's (the 3 can be stepped back, nothing is left to add).
    two = next(i for i, c in enumerate(cells) if c["rolled"] == 2)
    before = app.shown()
    page.click(f"#result .die-cell.placeable >> nth={two} >> .place--plus")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=before
    )
    placement = [1 if i == two else 0 for i in range(2)]
    normal = [d["rolled"] for d in expected["dice"] if d["kind"] == "normal"]
    flame = [c["rolled"] for c in cells]
    moved = local_handle({"op": "roll", "system": "pool", "params": {
        **PARAMS, "dice": normal, "flame_dice": flame, "placement": placement}})["result"]
    assert moved["placement_moves"][two] == {"plus": False, "minus": True}
    assert [c["face"] for c in flame_cells(app)] == [d["final"] for d in moved["dice"]
                                                     if d["kind"] == "flame"]
    assert controls(app) == moved["placement_moves"]


def test_the_diff_field_names_its_step_in_both_languages(app: App) -> None:
    page = app.page
    pool = next(s for s in local_handle({"op": "systems"})["result"]["systems"]
                if s["id"] == "pool")
    steps = {s["value"]: s["label"] for s in next(
        f for f in pool["fields"] if f["name"] == "diff")["steps"]}
    reset_values(app, "pool")
    field = app.field("actor", "pool", "diff")
    shown = ".side-form[data-side=actor][data-system=pool] .field[data-field=diff] .step-name"
    out = page.locator(shown)
    assert out.text_content() == steps[4]["fr"] == "Normal"
    # Only fields that name their values get a name line (none reads "undefined").
    assert page.locator(".side-form .step-name").count() == 2  # the DIFF of each side
    assert "undefined" not in page.text_content(".side-form[data-side=actor][data-system=pool]")
    page.click(f"{field} ~ button")  # DIFF + 1 -> 5
    assert page.input_value(field) == "5"
    assert out.text_content() == steps[5]["fr"] == "Malaisé"
    page.fill(field, "9")
    assert out.text_content() == "Chimérique"
    page.fill(field, "1")
    assert out.text_content() == "Évident"
    page.click("button[data-lang=en]")
    try:
        out = page.locator(shown)
        page.wait_for_function("([sel, t]) => document.querySelector(sel).textContent === t",
                               arg=[shown, steps[1]["en"]])
        assert out.text_content() == "Obvious"
    finally:
        page.click("button[data-lang=fr]")


# -- nothing the engine computed is sent back down; a bad field gets the engine's error -------


def sent(app: App) -> list[dict[str, Any]]:
    texts = app.page.evaluate("() => window.pyrules.debug.sent")
    return [json.loads(text) for text in texts]


def trace(app: App) -> None:
    app.page.evaluate("() => window.pyrules.debug.trace(true)")


def test_an_opposed_roll_is_one_call_and_its_luck_comes_with_it(app: App) -> None:
    page = app.page
    app.pick_system("d6")
    app.set_mode("oppose")
    reset_values(app, "d6", ("actor", "opponent"))
    app.settle()
    trace(app)
    app.set_seed(11)
    app.roll()
    app.settle()
    wait_luck(app)
    try:
        ops = [r["op"] for r in sent(app)]
        # One oppose call: no luck, dice or roll call to judge each side afterwards.
        assert ops.count("oppose") == 1
        assert not {"luck", "dice", "roll"} & set(ops), ops
        for request in sent(app):
            for key in ("params", "actor", "opponent"):
                assert "dice" not in (request.get(key) or {}), request
        answer = local_handle({"op": "oppose", "system": "d6", "actor": {}, "opponent": {},
                               "seed": 11})["result"]
        entry = page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history'))[0]")
        assert entry["actorLuck"] == answer["actor"]["own"]["luck"]
        assert entry["opponentLuck"] == answer["opponent"]["own"]["luck"]
    finally:
        page.evaluate("() => window.pyrules.debug.trace(false)")
        app.set_mode("single")


def test_a_placement_replays_the_seed_and_sends_no_dice(app: App) -> None:
    page = app.page
    request: dict[str, Any] = {"op": "roll", "system": "pool", "params": PARAMS}
    seed = first_seed(request, lambda r: sorted(d["rolled"] for d in r["dice"]
                                                if d["kind"] == "flame") == [1, 2], 2000)
    reset_values(app, "pool")
    for name, value in PARAMS.items():
        page.fill(app.field("actor", "pool", name), str(value))
    app.set_seed(seed)
    app.roll()
    app.settle()
    trace(app)
    try:
        two = next(i for i, c in enumerate(flame_cells(app)) if c["rolled"] == 2)
        before = app.shown()
        page.click(f"#result .die-cell.placeable >> nth={two} >> .place--plus")
        page.wait_for_function(
            "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=before
        )
        rolls = [r for r in sent(app) if r["op"] in ("roll", "dice")]
        assert [r["op"] for r in rolls] == ["roll"]
        placed = rolls[0]
        assert placed["seed"] == seed
        assert "dice" not in placed["params"] and "flame_dice" not in placed["params"]
        assert placed["params"]["placement"] == [1 if i == two else 0 for i in range(2)]
        expected = local_handle(placed)["result"]
        assert [c["face"] for c in flame_cells(app)] == [d["final"] for d in expected["dice"]
                                                         if d["kind"] == "flame"]
    finally:
        page.evaluate("() => window.pyrules.debug.trace(false)")


def test_a_bad_number_is_refused_by_the_engine_naming_the_field(app: App) -> None:
    page = app.page
    reset_values(app, "pool")
    pot = app.field("actor", "pool", "pot")
    page.fill(pot, "2.5")  # a number for the browser, not a whole one for the engine
    before = app.shown()
    page.click("#roll-button")
    refused = local_handle({"op": "roll", "system": "pool", "params": {"pot": "2.5"},
                            "seed": 1})["error"]
    assert refused["field"] == "pot"
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel + '-error').textContent === text",
        arg=[pot, refused["message"]],
    )
    assert page.get_attribute(pot, "aria-invalid") == "true"
    app.settle()
    assert app.shown() == before
    page.fill(pot, "4")
    app.settle()


# -- the combat tracker shows the engine's judgement (last: it leaves the combat tab open) --

BARE: dict[str, Any] = {"label": "", "params": {}}
# A fight as the combat tracker stores it: Sbire is out, Aldric fights with a bow or a sword.
FIGHT = {"round": 1, "turn": 0, "log": [], "participants": [
    {"id": "pa", "name": "Aldric", "ardeur": 2, "start": 3, "unarmed": False,
     "skills": [{"label": "Tir à l'arc", "params": {"die": 10}},
                {"label": "Épée", "params": {"die": 8}}]},
    {"id": "pb", "name": "Sbire", "ardeur": 0, "start": 3, "skills": [BARE]},
    {"id": "pc", "name": "Bandit", "ardeur": 1, "start": 2, "skills": [BARE]},
]}


def judged(app: App) -> Any:
    """The engine's `fight` answer for the fight the page holds now."""
    stored = app.page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:fight'))")
    state = {"round": stored["round"], "turn": stored["turn"], "acted": [], "participants": [
        {"id": p["id"], "ardeur": p["ardeur"], "unarmed": bool(p.get("unarmed")),
         "skills": [s["label"] for s in p["skills"]]} for p in stored["participants"]]}
    return local_handle({"op": "fight", "fight": state})["result"]


def settled(app: App) -> None:
    app.page.wait_for_selector("#view-combat:not([aria-busy=true]) .combat-layout")


def test_the_combat_tracker_shows_the_engines_judgement(app: App) -> None:
    page = app.page
    page.evaluate("(f) => { localStorage.setItem('pyrules:fight', JSON.stringify(f));"
                  " localStorage.removeItem('pyrules:fight-undo'); }", FIGHT)
    app.reload()
    try:
        page.click("#tab-combat")
        page.wait_for_selector("#view-combat:not([hidden]) #combat-order .fighter")
        settled(app)
        answer = judged(app)
        out = dict(page.eval_on_selector_all(
            "#combat-order .fighter", "fs => fs.map(f => [f.dataset.id, f.dataset.out])"))
        assert out == {k: str(not v["can_act"]).lower() for k, v in answer["participants"].items()}
        assert out["pb"] == "true"  # Sbire, at 0 Ardeur, is out
        # The entry that fights is the engine's: the sword in melee, the bow for a shot.
        skills = [s["label"] for s in FIGHT["participants"][0]["skills"]]
        auto = "#combat-actor-skill option[value=auto]"
        assert skills[answer["participants"]["pa"]["skills"]["melee"]] in page.text_content(auto)
        page.click("label[for=combat-kind-ranged]")
        assert skills[answer["participants"]["pa"]["skills"]["ranged"]] in page.text_content(auto)
        page.click("label[for=combat-kind-melee]")
        # "Tour suivant" goes where the engine says: Sbire (out) is skipped.
        nxt = answer["next"]
        page.click("#combat-next")
        settled(app)
        current = FIGHT["participants"][nxt["turn"]]["id"]
        assert current == "pc"
        assert page.get_attribute(f"#combat-order .fighter[data-id={current}]",
                                  "aria-current") == "step"
        # Everyone down: the engine has no next turn and no possible action.
        for who, times in (("pc", 1), ("pa", 2)):
            for _ in range(times):
                page.click(f"#combat-order .fighter[data-id={who}] .fighter-minus")
                settled(app)
        answer = judged(app)
        assert answer["next"] is None and answer["over"] and answer["standing"] == []
        assert page.is_disabled("#combat-next")
        assert page.locator("#combat-order .fighter[data-out=true]").count() == 3
        assert page.locator("#combat-order .fighter[aria-current]").count() == 0
    finally:
        page.evaluate("() => { localStorage.removeItem('pyrules:fight');"
                      " localStorage.removeItem('pyrules:fight-undo'); }")
        app.reload()
