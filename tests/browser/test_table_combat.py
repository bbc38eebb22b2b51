"""Table play, the step-dice combat tracker: participants from characters (imported from
a file) and quick ones, melee (Combat, or Bagarre unarmed), ranged damage, ordinary conflict
with a conceding loser, the skirmish rule, knocked-out marking, turn order and rounds,
undo, persistence across a reload, and the screen at tablet and phone sizes.

One page for the module (one boot), but every test starts from a first visit (`App.reset`)
and sets up its own fight (`start_fight`): any test runs alone, in any order."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import App, local_handle
from .helpers import SMALL_TARGETS, act, add_quick, fighter, import_aldric, log_count, pick_aldric

# What the tracker sends for Aldric: the entry plus the accessories bonus.
COMBAT = {"die": 8, "threshold": 5, "bonus": 2}
BAGARRE = {"die": 6, "threshold": 5, "bonus": 1}
TIR = {"die": 10, "threshold": 6, "bonus": 1}
QUICK = {"die": 6, "threshold": 5, "bonus": 0}


def ardeur(app: App) -> dict[str, int]:
    return dict(
        app.page.eval_on_selector_all(
            "#combat-order .fighter",
            """fs => fs.map(f => [f.querySelector('.fighter-label').textContent,
                                  Number(f.dataset.ardeur)])""",
        )
    )


def order(app: App) -> list[str]:
    return app.page.eval_on_selector_all(
        "#combat-order .fighter-label", "ns => ns.map(n => n.textContent)"
    )


def settled(app: App) -> None:
    """The tracker shows a change once the engine has judged the new fight state (its
    `fight` answer): wait for that, not for a duration."""
    app.page.wait_for_selector("#view-combat:not([aria-busy=true]) .combat-layout")


def expected(
    kind: str, actor: dict[str, Any], opponent: dict[str, Any], seed: int, **params: Any
) -> Any:
    request = {
        "op": "combat",
        "params": {"kind": kind, "concede": False, **params},
        "actor": actor,
        "opponent": opponent,
        "seed": seed,
    }
    return local_handle(request)["result"]


def find_seed(
    kind: str,
    actor: dict[str, Any],
    opponent: dict[str, Any],
    test: Callable[[Any], bool],
    **params: Any,
) -> int:
    return next(s for s in range(500) if test(expected(kind, actor, opponent, s, **params)))


@pytest.fixture(autouse=True)
def fresh(app: App) -> Iterator[None]:
    """No character, no fight, no roll: nothing left by another test."""
    app.reset()
    yield


def start_fight(app: App, folder: Path) -> None:
    """Aldric (Ardeur 12), Brute (6), Sbire (3, an extra) and Bandit (5), round 1."""
    page = app.page
    pick_aldric(app, folder)
    page.click("#combat-add-char-button")
    page.wait_for_selector(fighter("Aldric"))
    add_quick(app, "Brute", 6, extra=False)
    add_quick(app, "Sbire", 3, extra=True)
    add_quick(app, "Bandit", 5, extra=False)


def knock_out(app: App, name: str, ardeur_points: int) -> Any:
    """Aldric wins a skirmish against this extra or quick participant: it is out."""
    aldric, other = {**COMBAT, "ardeur": ardeur(app)["Aldric"]}, {**QUICK, "ardeur": ardeur_points}
    seed = find_seed("skirmish", aldric, other, lambda r: r["opponent"]["ardeur"] <= 0)
    act(app, "Aldric", name, "skirmish", seed)
    app.page.wait_for_selector(f"{fighter(name)}[data-out=true]")


def test_participants_from_a_character_and_quick_ones(app: App, tmp_path: Path) -> None:
    page = app.page
    import_aldric(app, tmp_path)
    page.click("#tab-combat")
    page.wait_for_selector("#view-combat:not([hidden]) #combat-order")
    assert page.text_content("#combat-order .char-empty") == (
        "Aucun participant\u00a0: ajoutez des personnages ou des participants rapides."
    )
    assert page.is_disabled("#combat-resolve")
    page.select_option("#combat-add-char", label="Aldric")
    page.click("#combat-add-char-button")
    page.wait_for_selector(fighter("Aldric"))
    assert page.is_visible("#combat-quick-name")  # the "add" box is open while the fight is empty
    add_quick(app, "Brute", 6, extra=False)
    add_quick(app, "Sbire", 3, extra=True)
    add_quick(app, "Bandit", 5, extra=False)
    assert order(app) == ["Aldric", "Brute", "Sbire", "Bandit"]
    assert ardeur(app) == {"Aldric": 12, "Brute": 6, "Sbire": 3, "Bandit": 5}
    assert page.text_content("#combat-round") == "Round 1"
    assert page.get_attribute(f"{fighter('Aldric')}", "aria-current") == "step"
    assert page.locator(f"{fighter('Sbire')} .tag:text-is('Figurant')").count() == 1
    # The action defaults to the participant whose turn it is.
    assert page.input_value("#combat-actor") == page.get_attribute(fighter("Aldric"), "data-id")


def test_melee_loss_goes_to_the_loser_and_unarmed_uses_bagarre(app: App, tmp_path: Path) -> None:
    page = app.page
    start_fight(app, tmp_path)
    aldric, brute = {**COMBAT, "ardeur": 12}, {**QUICK, "ardeur": 6}
    seed = find_seed(
        "melee", aldric, brute, lambda r: r["winner"] == "opponent" and r["margin"] > 0
    )
    result = expected("melee", aldric, brute, seed)
    act(app, "Aldric", "Brute", "melee", seed)
    assert ardeur(app)["Aldric"] == result["actor"]["ardeur"] == 12 - result["margin"]
    assert ardeur(app)["Brute"] == 6
    last = page.locator("#combat-last")
    assert last.get_attribute("data-winner") == "opponent"
    faces = page.eval_on_selector_all(
        "#combat-last .combat-roll", "rs => rs.map(r => r.dataset.faces)"
    )
    assert faces == [",".join(str(d["final"]) for d in roll["dice"]) for roll in result["rolls"]]
    text = page.text_content("#combat-log .combat-log-entry >> nth=0 >> .combat-log-text")
    assert text == (
        f"Brute l’emporte de {result['margin']}. Aldric perd {result['margin']} "
        f"{'point' if result['margin'] < 2 else 'points'} "
        f"d’Ardeur (12 → {12 - result['margin']})."
    )
    head = page.text_content("#combat-log .combat-log-entry >> nth=0 >> .combat-log-head")
    assert head == "R1Corps à corps — Aldric contre Brute"
    # Unarmed: Aldric's melee uses his Bagarre entry (D6) instead of Combat (D8).
    page.click(f"{fighter('Aldric')} .fighter-unarmed")
    settled(app)
    assert page.get_attribute(f"{fighter('Aldric')} .fighter-unarmed", "aria-pressed") == "true"
    left = ardeur(app)["Aldric"]
    aldric, brute = {**BAGARRE, "ardeur": left}, {**QUICK, "ardeur": 6}
    seed = find_seed("melee", aldric, brute, lambda r: r["winner"] == "actor")
    result = expected("melee", aldric, brute, seed)
    act(app, "Aldric", "Brute", "melee", seed)
    assert [r["die_rolled"] for r in result["rolls"]] == [6, 6]
    sides = page.eval_on_selector_all(
        "#combat-last .combat-roll .die", "ds => ds.map(d => Number(d.dataset.sides))"
    )
    assert sides == [6, 6]
    assert ardeur(app) == {"Aldric": left, "Brute": 6 - result["margin"], "Sbire": 3, "Bandit": 5}
    page.click(f"{fighter('Aldric')} .fighter-unarmed")
    settled(app)


def test_ranged_damage_is_the_margin(app: App, tmp_path: Path) -> None:
    start_fight(app, tmp_path)
    aldric, bandit = {**TIR, "ardeur": ardeur(app)["Aldric"]}, {**QUICK, "ardeur": 5}
    seed = find_seed(
        "ranged", aldric, bandit, lambda r: r["winner"] == "actor" and r["margin"] >= 1
    )
    result = expected("ranged", aldric, bandit, seed)
    roll = result["rolls"][0]
    assert result["opponent"]["loss"] == roll["margin"] == result["margin"]
    before = ardeur(app)
    act(app, "Aldric", "Bandit", "ranged", seed)
    after = ardeur(app)
    assert after["Bandit"] == 5 - roll["margin"]
    assert after["Aldric"] == before["Aldric"]
    assert app.page.locator("#combat-last .combat-roll").count() == 1
    assert app.page.locator("#combat-target-skill").count() == 0  # the target does not roll
    text = app.page.text_content("#combat-log .combat-log-entry >> nth=0 >> .combat-log-text")
    points = "point" if roll["margin"] < 2 else "points"  # French: 0 and 1 singular
    assert text.startswith(f"Aldric touche Bandit\u00a0: {roll['margin']} {points} de dégâts.")


def test_a_conceding_loser_loses_nothing(app: App, tmp_path: Path) -> None:
    page = app.page
    start_fight(app, tmp_path)
    page.click("label[for=combat-kind-conflict]")
    assert page.is_visible("#combat-concede")
    page.click("label[for=combat-concede]")
    before = ardeur(app)
    aldric, brute = {**COMBAT, "ardeur": before["Aldric"]}, {**QUICK, "ardeur": before["Brute"]}
    seed = find_seed("conflict", aldric, brute, lambda r: r["winner"] != "tie", concede=True)
    result = expected("conflict", aldric, brute, seed, concede=True)
    act(app, "Aldric", "Brute", "conflict", seed)
    assert ardeur(app) == before
    assert result["actor"]["loss"] == result["opponent"]["loss"] == 0
    loser = "Brute" if result["winner"] == "actor" else "Aldric"
    text = page.text_content("#combat-log .combat-log-entry >> nth=0 >> .combat-log-text")
    assert f"{loser} s’avoue vaincu et ne perd rien." in text
    page.click("label[for=combat-concede]")
    page.click("label[for=combat-kind-melee]")
    assert page.is_hidden("#combat-concede")


def test_skirmish_hero_is_not_wounded_and_extras_are_knocked_out(app: App, tmp_path: Path) -> None:
    page = app.page
    start_fight(app, tmp_path)
    before = ardeur(app)
    aldric, sbire = {**COMBAT, "ardeur": before["Aldric"]}, {**QUICK, "ardeur": 3}
    # Even a lost skirmish roll leaves the hero unhurt (a twist to narrate).
    seed = find_seed("skirmish", aldric, sbire, lambda r: r["winner"] == "opponent")
    result = expected("skirmish", aldric, sbire, seed)
    act(app, "Aldric", "Sbire", "skirmish", seed)
    after = ardeur(app)
    assert after["Aldric"] == before["Aldric"] == result["actor"]["ardeur"]
    assert after["Sbire"] == result["opponent"]["ardeur"] <= 0
    sbire_row = page.locator(fighter("Sbire"))
    assert sbire_row.get_attribute("data-out") == "true"
    assert sbire_row.locator(".tag--out").text_content() == "Hors de combat"
    text = page.text_content("#combat-log .combat-log-entry >> nth=0 >> .combat-log-text")
    assert "Aldric n’est pas blessé." in text and "Sbire est hors de combat." in text
    # A knocked-out participant can no longer be picked, except the one just fought, who
    # stays in "Contre qui" (marked out) rather than the list jumping to someone else.
    targets = page.eval_on_selector_all("#combat-target option", "os => os.map(o => o.textContent)")
    assert "Sbire" not in targets
    assert page.input_value("#combat-target") == page.get_attribute(fighter("Sbire"), "data-id")
    assert "Sbire (hors de combat)" in targets
    # The outcome and both sides' Ardeur bars are together on the action panel.
    after_rows = page.eval_on_selector_all(
        "#combat-after li", "ls => ls.map(l => l.dataset.ardeur)"
    )
    assert after_rows == [str(after["Aldric"]), str(after["Sbire"])]
    # Each total with its parts, as the engine gives them ("D8 : 4, bonus +2, total 6.").
    for side, roll in zip(("actor", "opponent"), result["rolls"], strict=True):
        parts = page.text_content(f"#combat-last .combat-roll[data-side={side}] .combat-roll-parts")
        assert parts == roll["explanation"][0]
    # The action is in the History like any roll: who acted, the dice, the verdict.
    entry = page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history'))[0]")
    assert entry["combat"] == "skirmish" and entry["mode"] == "oppose"
    assert entry["actorWho"]["name"] == "Aldric" and entry["opponentWho"]["name"] == "Sbire"
    assert entry["outcome"] == result["winner"] and entry["seed"] == seed
    assert [entry["actorFaces"], entry["opponentFaces"]] == [
        [d["final"] for d in roll["dice"]] for roll in result["rolls"]
    ]
    # ... and in the Statistics: each side's luck rank is recorded for it.
    page.wait_for_function(
        """() => { const e = JSON.parse(localStorage.getItem('pyrules:history'))[0];
                   return [e.actorLuck, e.opponentLuck].every(l => typeof l === 'number'); }"""
    )
    shown = page.text_content("#history .history-entry >> nth=0 >> .history-kind")
    assert shown == "Combat · Escarmouche"
    # Aldric has acted this round: acting again is flagged, not refused.
    page.select_option("#combat-actor", label="Aldric")
    assert page.text_content("#combat-warning") == "Aldric a déjà agi pendant ce round."


def test_turns_rounds_reorder_and_undo(app: App, tmp_path: Path) -> None:
    page = app.page
    start_fight(app, tmp_path)
    knock_out(app, "Sbire", 3)  # the skirmish the undo steps back through at the end
    assert page.get_attribute(fighter("Aldric"), "aria-current") == "step"
    page.click("#combat-next")
    settled(app)
    assert page.get_attribute(fighter("Brute"), "aria-current") == "step"
    assert page.input_value("#combat-actor") == page.get_attribute(fighter("Brute"), "data-id")
    page.click("#combat-next")  # Sbire is out: skipped
    settled(app)
    assert page.get_attribute(fighter("Bandit"), "aria-current") == "step"
    page.click("#combat-next")
    settled(app)
    assert page.text_content("#combat-round") == "Round 2"
    assert page.get_attribute(fighter("Aldric"), "aria-current") == "step"
    # Reorder: Bandit acts before Sbire; the keyboard focus stays on the moved row's button.
    page.click(f"{fighter('Bandit')} .fighter-up")
    settled(app)
    assert order(app) == ["Aldric", "Brute", "Bandit", "Sbire"]
    assert page.evaluate("() => document.activeElement.classList.contains('fighter-up')")
    page.keyboard.press("Enter")
    settled(app)
    assert order(app) == ["Aldric", "Bandit", "Brute", "Sbire"]
    # Undo steps back through the two moves, then the three "next turn", then the skirmish.
    page.click("#combat-undo")
    settled(app)
    assert order(app) == ["Aldric", "Brute", "Bandit", "Sbire"]
    page.click("#combat-undo")
    settled(app)
    assert order(app) == ["Aldric", "Brute", "Sbire", "Bandit"]
    for _ in range(3):  # the three "next turn"
        page.click("#combat-undo")
    settled(app)
    assert page.text_content("#combat-round") == "Round 1"
    logs = log_count(app)
    page.click("#combat-undo")  # the skirmish
    settled(app)
    assert log_count(app) == logs - 1
    assert ardeur(app)["Sbire"] == 3
    assert page.get_attribute(fighter("Sbire"), "data-out") == "false"


def test_the_fight_survives_a_reload(app: App, tmp_path: Path) -> None:
    page = app.page
    start_fight(app, tmp_path)
    knock_out(app, "Sbire", 3)  # something in the log, an Ardeur changed, an undo to keep
    before = {"order": order(app), "ardeur": ardeur(app), "log": log_count(app)}
    round_text = page.text_content("#combat-round")
    app.reload()
    page.wait_for_selector("#view-combat:not([hidden]) #combat-order .fighter")
    assert {"order": order(app), "ardeur": ardeur(app), "log": log_count(app)} == before
    assert page.text_content("#combat-round") == round_text
    assert page.is_enabled("#combat-undo")


def test_combat_screen_english_and_sizes(app: App, tmp_path: Path) -> None:
    page = app.page
    start_fight(app, tmp_path)
    # The announcement of the last action follows the language switch (issue 22).
    act(app, "Aldric", "Bandit", "melee", 4)
    said = page.eval_on_selector_all("#combat-last .combat-last-text li",
                                     "ls => ls.map((l) => l.textContent).join(' ')")
    # The stage's « 12 contre 7 » is said first (issue 39), then the log's lines.
    head = page.text_content("[data-roll-stage] [data-headline]") or ""
    assert " contre " in head
    page.wait_for_function("(t) => document.getElementById('announcer').textContent === t",
                           arg=f"{head}. {said}")
    page.click("button[data-lang=en]")
    try:
        page.wait_for_function(
            """(fr) => { const t = [...document.querySelectorAll(
                  '#combat-last .combat-last-text li')].map((l) => l.textContent).join(' ');
              const said = document.getElementById('announcer').textContent;
              return t !== fr && / vs /.test(said) && said.endsWith(`. ${t}`); }""",
            arg=said,
        )
        assert page.text_content("#combat-next") == "Next turn"
        assert page.text_content("#combat-log-title") == "Fight log"
        assert page.text_content(f"{fighter('Aldric')} .fighter-ardeur-text").startswith("Ardeur ")
    finally:
        page.click("button[data-lang=fr]")
    # Knock the bandit out for the screenshots.
    knock_out(app, "Bandit", 5)
    for name, width, height in (
        ("tablet-landscape", 1024, 768),
        ("tablet-portrait", 768, 1024),
        ("phone", 360, 740),
    ):
        page.set_viewport_size({"width": width, "height": height})
        try:
            overflow = page.evaluate(
                "() => document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 0, f"{name}: horizontal scroll of {overflow}px"
            small = page.evaluate(SMALL_TARGETS)
            assert small == [], f"{name}: touch targets under 44 px: {small}"
            page.evaluate("() => window.scrollTo(0, 0)")
            app.screenshot(f"table-combat-{name}-{width}x{height}")
            app.screenshot(f"table-combat-{name}-{width}x{height}-full", full_page=True)
        finally:
            page.set_viewport_size({"width": 1024, "height": 768})


def test_ardeur_stops_at_zero_unless_the_switch_keeps_the_debt(app: App) -> None:
    """Issue 22 (« 6 → -1 »): the engine floors the loss at 0 by default; the action panel's
    switch (the engine's `ardeur_floor` field) keeps the debt."""
    page = app.page
    page.click("#tab-combat")
    page.wait_for_selector("#view-combat:not([hidden]) #combat-order")
    for name, points in (("Ava", 10), ("Bo", 1), ("Cy", 1)):
        add_quick(app, name, points, extra=False)
    settled(app)
    assert page.is_checked("#combat-ardeur-floor")
    ava = {**QUICK, "ardeur": 10}

    def big_win(r: Any) -> bool:
        return bool(r["winner"] == "actor" and r["margin"] >= 2)

    seed = find_seed("melee", ava, {**QUICK, "ardeur": 1}, big_win)
    act(app, "Ava", "Bo", "melee", seed)
    page.wait_for_selector(f"{fighter('Bo')}[data-out=true]")
    assert ardeur(app)["Bo"] == 0
    page.click("label[for=combat-ardeur-floor]")
    assert not page.is_checked("#combat-ardeur-floor")
    seed = find_seed("melee", ava, {**QUICK, "ardeur": 1}, big_win, ardeur_floor=False)
    result = expected("melee", ava, {**QUICK, "ardeur": 1}, seed, ardeur_floor=False)
    act(app, "Ava", "Cy", "melee", seed)
    page.wait_for_selector(f"{fighter('Cy')}[data-out=true]")
    assert ardeur(app)["Cy"] == result["opponent"]["ardeur"] == 1 - result["margin"] < 0


def test_each_screen_writes_its_slice_of_the_one_store(app: App, tmp_path: Path) -> None:
    """Issue 42: the characters, the fight and the rolls live in the page's one store; each
    change made on a screen is heard by the store's subscribers, and the other screens follow
    it without a reload (the combat screen offers the imported character)."""
    page = app.page

    def heard() -> dict[str, int]:
        return dict(page.evaluate("() => window.pyrules.store.heard()"))

    def sizes() -> dict[str, int]:
        return dict(page.evaluate("() => window.pyrules.store.sizes()"))

    before = heard()
    assert sizes() == {"history": 0, "characters": 0, "fighters": 0, "players": 0}
    pick_aldric(app, tmp_path)  # imported on one screen, offered by the other
    assert sizes()["characters"] == 1
    assert heard().get("characters", 0) > before.get("characters", 0)
    page.click("#combat-add-char-button")
    page.wait_for_selector(fighter("Aldric"))
    add_quick(app, "Brute", 6, extra=False)
    assert sizes()["fighters"] == 2
    assert heard().get("fight", 0) >= before.get("fight", 0) + 2
    rolls = heard().get("history", 0)
    act(app, "Aldric", "Brute", "melee", 3)
    page.wait_for_function("() => window.pyrules.store.sizes().history === 1")
    assert heard()["history"] > rolls
    # The language and the dice settings are slices too: a switch is heard once.
    langs, dice = heard().get("lang", 0), heard().get("dice", 0)
    page.click("button[data-lang=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.click("#tab-roll")
    page.select_option("#dice-mode", "2d")
    page.wait_for_function("(n) => window.pyrules.store.heard().dice === n + 1", arg=dice)
    assert heard()["lang"] == langs + 1
    page.click("button[data-lang=fr]")


def test_a_character_saved_in_another_tab_joins_the_list_without_taking_the_name_typed(
    app: App, tmp_path: Path
) -> None:
    """The characters change under the tracker (here another tab imports one): the list of
    sheets to add follows, and the name being typed on the spot keeps its text and its focus
    (the whole tracker drawn again took the focus, and a tablet's keyboard with it)."""
    page = app.page
    page.click("#tab-combat")
    page.wait_for_selector("#view-combat:not([hidden]) #combat-order")
    assert page.is_disabled("#combat-add-char-button")
    page.click("#combat-quick-name")
    page.keyboard.type("Gob")
    other = App(app.context, app.base_url)
    other.open()
    try:
        import_aldric(other, tmp_path)
        page.wait_for_selector("#combat-add-char option:text-is('Aldric')", state="attached")
        assert page.is_enabled("#combat-add-char-button")
        assert page.evaluate("() => document.activeElement.id") == "combat-quick-name"
        assert page.input_value("#combat-quick-name") == "Gob"
        page.bring_to_front()
        page.keyboard.type("elin")
        assert page.input_value("#combat-quick-name") == "Gobelin"
    finally:
        other.page.close()
