"""Rolling through the interface: each system, physical dice, opposed rolls, Flame dice
placement, inline field errors and the odds panel."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from .conftest import App, local_handle, outcome_label, percent_value, signed, wait_announced
from .helpers import BY_ID, SYSTEMS, flame_cells, reset_values


@pytest.fixture(autouse=True)
def fresh_form(app: App) -> Iterator[None]:
    """Each test starts from the default forms, a single roll and no physical dice."""
    page = app.page
    page.evaluate("() => localStorage.removeItem('pyrules:state')")
    if page.is_checked("#mode-oppose"):
        app.set_mode("single")
    app.set_physical(False)
    yield


def switch_language(app: App, language: str) -> None:
    app.page.click(f"[data-lang={language}]")
    app.page.wait_for_function("(l) => document.documentElement.lang === l", arg=language)


def card(app: App) -> dict[str, Any]:
    return app.page.eval_on_selector(
        "#result .result-card",
        """(card) => ({
            outcome: card.dataset.outcome ?? null,
            label: card.querySelector(
                '.tier-badge--big:not(.tier-badge--total) .tier-label')?.textContent ?? null,
            margin: card.querySelector('.number--margin dd')?.textContent ?? null,
            headline: card.querySelector('.tier-badge--big [data-headline]')?.textContent ?? null,
            numbers: Object.fromEntries([...card.querySelectorAll('.number')].map(
                (n) => [n.dataset.key, n.querySelector('dd').textContent])),
            faces: [...card.querySelectorAll('.die-cell')].map((d) => Number(d.dataset.face)),
            kinds: [...card.querySelectorAll('.die-cell')].map((d) => d.dataset.kind),
            values: [...card.querySelectorAll('.die-cell')].map((d) => Number(d.dataset.value)),
            explanation: [...card.querySelectorAll('.explanation li')].map((li) => li.textContent),
            meta: card.querySelector('.result-meta').textContent,
        })""",
    )


@pytest.mark.parametrize("system_id", [s["id"] for s in SYSTEMS])
def test_each_system_rolls_through_the_interface(app: App, system_id: str) -> None:
    reset_values(app, system_id)
    seed = 4242 + len(system_id)
    app.set_seed(seed)
    app.roll()
    shown = card(app)
    expected = app.call({"op": "roll", "system": system_id, "params": {}, "seed": seed})
    assert expected == local_handle({"op": "roll", "system": system_id, "params": {}, "seed": seed})
    result = expected["result"]
    if result.get("kind") == "sum":
        # Free dice are no success test (issue 22): the total is the headline, no tier, no margin.
        assert result["outcome"] is None and result["margin"] is None
        assert shown["headline"] == str(result["headline"]) == str(result["total"])
        assert shown["margin"] is None and shown["label"] is None and shown["outcome"] is None
        stage = app.page.text_content("[data-roll-stage] [data-headline]")
        assert stage == result["headline_texts"]["fr"] == f"Total {result['total']}"
        assert app.page.locator("[data-roll-stage] .verdict-margin").count() == 0
        assert shown["faces"] == [d["final"] for d in result["dice"]]
        wait_announced(app.page, f"{result['total']} au total.")  # the number first
        return
    assert shown["outcome"] == result["outcome"]
    assert shown["label"] == outcome_label(system_id, result["outcome"])
    assert shown["margin"] == signed(result["margin"])
    assert shown["faces"] == [d["final"] for d in result["dice"]]
    assert shown["kinds"] == [d["kind"] for d in result["dice"]]
    assert shown["values"] == [d["value"] for d in result["dice"]]
    assert shown["explanation"] == result["explanations"]["fr"]
    assert str(seed) in shown["meta"]
    for key in ("successes", "total"):
        if key in result:
            assert shown["numbers"][key] == str(result[key])
    # The live region says the number first (issue 39), then the tier and the margin.
    first = result["headline_spoken"]["fr"]
    assert first.startswith(str(result["headline"]))
    wait_announced(app.page, f"{first}. {shown['label']}, marge {signed(result['margin'])}.")


def test_d100_draws_two_d10_tens_and_units(app: App) -> None:
    reset_values(app, "d100")
    for seed in range(200):
        face = local_handle({"op": "roll", "system": "d100", "params": {}, "seed": seed})
        if face["result"]["dice"][0]["final"] >= 10:
            break
    final = face["result"]["dice"][0]["final"]
    app.set_seed(seed)
    app.roll()
    texts = app.page.eval_on_selector_all(
        "#result .die--d100 .die-text", "nodes => nodes.map(n => n.textContent)"
    )
    assert texts == [f"{(final % 100) // 10}0", str(final % 10)]


def test_physical_dice_give_the_expected_verdict(app: App) -> None:
    page = app.page
    reset_values(app, "pool")
    page.fill(app.field("actor", "pool", "pot"), "6")
    page.fill(app.field("actor", "pool", "diff"), "4")
    app.set_physical(True)
    faces = app.field("actor", "pool", "dice")
    page.wait_for_selector(f"label[for={faces[1:]}]:has-text('6 × d6')")
    # With no Flame die, the Flame dice box is not asked for.
    assert page.locator(app.field("actor", "pool", "flame_dice")).count() == 0
    page.fill(faces, "1, 4, 1, 1, 6, 3")
    app.roll()
    shown = card(app)
    assert shown["outcome"] == "failure"
    assert shown["label"] == "Échec"
    assert shown["numbers"]["successes"] == "3"
    assert shown["faces"] == [1, 4, 1, 1, 6, 3]
    assert "dés physiques" in shown["meta"]
    # The live announcement of the result on screen follows the language switch (issue 22).
    # (DIFF 4, 3 successes: margin −1, the card's own numbers.)
    said = {"fr": f"3 réussites. Échec, marge {shown['margin']}.",
            "en": f"3 successes. Failure, margin {shown['margin']}."}
    assert shown["margin"] == signed(-1)
    wait_announced(page, said["fr"])
    switch_language(app, "en")
    wait_announced(page, said["en"])
    # The history keeps the typed faces: replaying gives the same dice (and says it in English).
    entry = "#history .history-entry >> nth=0"
    assert page.get_attribute(entry, "data-seed") == ""
    before = app.shown()
    page.evaluate("() => { document.getElementById('announcer').textContent = ''; }")
    page.click(f"{entry} >> .history-replay")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=before
    )
    wait_announced(page, said["en"])
    switch_language(app, "fr")
    wait_announced(page, said["fr"])
    assert card(app)["faces"] == [1, 4, 1, 1, 6, 3]
    assert card(app)["outcome"] == "failure"


def test_physical_dice_groups_follow_the_params(app: App) -> None:
    page = app.page
    reset_values(app, "pool")
    app.set_physical(True)
    page.fill(app.field("actor", "pool", "flame"), "2")
    flame = app.field("actor", "pool", "flame_dice")
    page.wait_for_selector(f"label[for={flame[1:]}]:has-text('2 × d6')")
    assert "4 × d6" in page.text_content(f"label[for={app.field('actor', 'pool', 'dice')[1:]}]")
    page.fill(app.field("actor", "pool", "dice"), "6 6 2 1")
    page.fill(flame, "5 4")
    app.roll()
    shown = card(app)
    assert shown["kinds"] == ["normal"] * 4 + ["flame"] * 2
    expected = local_handle(
        {
            "op": "roll",
            "system": "pool",
            "params": {"flame": 2, "dice": [6, 6, 2, 1], "flame_dice": [5, 4]},
        }
    )["result"]
    assert shown["outcome"] == expected["outcome"]
    assert shown["faces"] == [d["final"] for d in expected["dice"]]


def test_wrong_faces_show_an_inline_error_and_keep_the_text(app: App) -> None:
    page = app.page
    reset_values(app, "pool")
    app.set_physical(True)
    faces = app.field("actor", "pool", "dice")
    page.wait_for_selector(faces)
    page.fill(faces, "1, 4, 1")
    before = app.shown()
    page.click("#roll-button")
    error = page.locator(f"{faces}-error")
    error.wait_for(state="visible")
    expected = local_handle({"op": "roll", "system": "pool", "params": {"dice": "1, 4, 1"}})
    assert error.text_content() == expected["error"]["message"]
    assert page.get_attribute(faces, "aria-invalid") == "true"
    assert f"{faces[1:]}-error" in (page.get_attribute(faces, "aria-describedby") or "")
    assert page.input_value(faces) == "1, 4, 1"
    assert app.shown() == before
    # Typing again clears the error.
    page.fill(faces, "1, 4, 1, 1, 6, 3")
    assert page.get_attribute(faces, "aria-invalid") is None
    assert error.is_hidden()


def test_out_of_range_value_is_flagged_next_to_its_field(app: App) -> None:
    page = app.page
    reset_values(app, "pool")
    pot = app.field("actor", "pool", "pot")
    page.fill(pot, "99")
    message = local_handle({"op": "odds", "system": "pool", "params": {"pot": 99}})["error"]
    # Live: the odds request answers invalid_param for "pot" and the field shows it.
    page.locator(f"{pot}-error").wait_for(state="visible")
    assert page.text_content(f"{pot}-error") == message["message"]
    # The odds keep the last valid chart, dimmed.
    assert "is-stale" in (page.get_attribute("#odds", "class") or "")
    assert page.locator("#odds .odds-chart[data-side=actor]").count() == 1
    before = app.shown()
    page.click("#roll-button")
    page.wait_for_function("(id) => document.activeElement.id === id", arg=pot[1:])
    app.settle()  # the refused roll has had every chance to draw a card
    assert app.shown() == before
    assert page.get_attribute(pot, "aria-invalid") == "true"
    assert page.input_value(pot) == "99"
    assert page.evaluate("() => document.activeElement.id") == pot[1:]
    # An empty required field is caught before asking the engine.
    page.fill(pot, "")
    page.click("#roll-button")
    assert page.text_content(f"{pot}-error") == "Valeur requise."
    page.fill(pot, "6")
    app.settle()
    assert page.get_attribute(pot, "aria-invalid") is None
    assert "is-stale" not in (page.get_attribute("#odds", "class") or "")


def chart(app: App, side: str = "actor") -> dict[str, Any]:
    return app.page.eval_on_selector(
        f"#odds .odds-chart[data-side={side}]",
        """(chart) => ({
            rows: [...chart.querySelectorAll('.odds-row')].map((row) => ({
                outcome: row.dataset.outcome, exact: row.dataset.exact, title: row.title,
                percent: row.querySelector('.odds-percent').textContent,
                width: parseFloat(row.querySelector('.odds-bar').style.width),
            })),
            success: chart.querySelector('.odds-success')?.dataset.exact,
        })""",
    )


def assert_chart_matches(shown: dict[str, Any], odds: dict[str, Any], system_id: str) -> None:
    outcomes = [o["id"] for o in BY_ID[system_id]["outcomes"]]
    assert [row["outcome"] for row in shown["rows"]] == outcomes
    for row in shown["rows"]:
        exact = odds["exact"][row["outcome"]]
        assert row["exact"] == exact
        assert exact in row["title"]
        value = float(Fraction(exact)) * 100
        relation, number = percent_value(row["percent"])
        if relation == "=":
            assert abs(number - value) <= 0.05 + 1e-9, row
        elif relation == "<":
            assert 0 < value < number
        else:
            assert number < value < 100
        assert abs(row["width"] - value) < 0.01
    assert shown["success"] == odds["success"]


@pytest.mark.parametrize("system_id", [s["id"] for s in SYSTEMS])
def test_odds_panel_shows_the_odds_op(app: App, system_id: str) -> None:
    reset_values(app, system_id)
    app.settle()
    odds = app.call({"op": "odds", "system": system_id, "params": {}})["result"]
    if "distribution" in odds:  # free dice: one bar per total (tests/browser/test_notation.py)
        bars = app.page.eval_on_selector_all(
            "#odds .odds-chart[data-side=actor] .totals-bar",
            "(bars) => bars.map((b) => [b.dataset.total, b.dataset.exact])",
        )
        assert dict(bars) == odds["distribution"]
        return
    assert_chart_matches(chart(app), odds, system_id)


def test_odds_follow_the_inputs(app: App) -> None:
    page = app.page
    reset_values(app, "pool")
    app.settle()
    before = chart(app)
    # Several quick changes: only the latest values count.
    for value in ("7", "8", "9"):
        page.fill(app.field("actor", "pool", "pot"), value)
    page.click(f"{app.field('actor', 'pool', 'diff')} ~ button")  # DIFF + 1 -> 5
    app.settle()
    assert page.input_value(app.field("actor", "pool", "diff")) == "5"
    odds = app.call({"op": "odds", "system": "pool", "params": {"pot": 9, "diff": 5}})["result"]
    after = chart(app)
    assert after != before
    assert_chart_matches(after, odds, "pool")


def test_opposed_roll_shows_both_sides_winner_margin_and_rerolls(app: App) -> None:
    page = app.page
    app.set_mode("oppose")
    reset_values(app, "d6", ("actor", "opponent"))
    assert page.is_visible(".side--opponent")
    assert page.text_content("#roll-button") == "Lancer l’opposition"
    for side in ("actor", "opponent"):
        page.click(f"label[for={app.field(side, 'd6', 'pc')[1:]}]")
        assert not page.is_checked(app.field(side, "d6", "pc"))
    request = {
        "op": "oppose",
        "system": "d6",
        "actor": {"pc": False},
        "opponent": {"pc": False},
        "seed": 0,
    }
    expected = local_handle(request)["result"]
    assert expected["rerolls"], "seed 0 should give a tie and a reroll"
    app.set_seed(0)
    app.roll()
    shown = page.eval_on_selector(
        "#result .result-card--oppose",
        """(card) => ({
            winner: card.dataset.winner,
            text: card.querySelector('.winner').textContent,
            margin: card.querySelector('.oppose-head .number--margin dd').textContent,
            sides: [...card.querySelectorAll('.oppose-side')].map((s) => ({
                side: s.dataset.side, outcome: s.dataset.outcome,
                winner: s.classList.contains('is-winner'),
                faces: [...s.querySelectorAll('.die-cell')].map((d) => Number(d.dataset.face)),
            })),
            rerolls: card.querySelectorAll('.rerolls li').length,
        })""",
    )
    assert shown["winner"] == expected["winner"]
    assert (
        shown["text"]
        == {"actor": "L’acteur l’emporte", "opponent": "L’adversaire l’emporte", "tie": "Égalité"}[
            expected["winner"]
        ]
    )
    assert shown["margin"] == str(expected["margin"])
    assert [s["side"] for s in shown["sides"]] == ["actor", "opponent"]
    for side in shown["sides"]:
        roll = expected[side["side"]]
        assert side["outcome"] == roll["outcome"]
        assert side["faces"] == [d["final"] for d in roll["dice"]]
        assert side["winner"] == (expected["winner"] == side["side"])
    assert shown["rerolls"] == len(expected["rerolls"])
    # The odds panel shows who wins, then one chart per side.
    app.settle()
    assert page.locator("#odds .odds-chart[data-side]").count() == 2
    npc = {"pc": False}
    request = {"op": "oppose_odds", "system": "d6", "actor": npc, "opponent": npc}
    assert_versus(app, request)
    assert "(jusqu’à 100 fois)" in (page.text_content("#odds .odds-versus-note") or "")
    # A PC against an NPC wins the ties: no tie left, no reroll note.
    page.click(f"label[for={app.field('actor', 'd6', 'pc')[1:]}]")
    app.settle()
    request["actor"] = {"pc": True}
    shown = assert_versus(app, request)
    assert shown["tie"][0] == "0" and page.locator("#odds .odds-versus-note").count() == 0


def versus_shown(app: App) -> dict[str, tuple[str, str]]:
    """Who-wins rows of the odds panel: {who: (exact fraction, percent text)}."""
    rows = app.page.eval_on_selector_all(
        "#odds .odds-versus .odds-row",
        "rows => rows.map((r) => [r.dataset.who, r.dataset.exact,"
        " r.querySelector('.odds-percent').textContent])",
    )
    return {who: (exact, percent) for who, exact, percent in rows}


def assert_versus(app: App, request: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The who-wins rows show the engine's exact chances, as fractions and percentages."""
    exact = local_handle(request)["result"]["exact"]
    shown = versus_shown(app)
    assert list(shown) == ["actor", "opponent", "tie"]
    for who, (fraction, percent) in shown.items():
        assert fraction == exact[who], who
        value = float(Fraction(fraction)) * 100
        relation, number = percent_value(percent)
        if relation == "=":
            assert abs(number - value) <= 0.05 + 1e-9, (who, percent)
        elif relation == "<":
            assert 0 < value < number
        else:
            assert number < value < 100
    return shown


def test_opposed_error_names_the_side(app: App) -> None:
    page = app.page
    app.set_mode("oppose")
    reset_values(app, "pool", ("actor", "opponent"))
    field = app.field("opponent", "pool", "diff")
    page.fill(field, "12")
    page.locator(f"{field}-error").wait_for(state="visible")
    assert page.get_attribute(field, "aria-invalid") == "true"
    assert page.get_attribute(app.field("actor", "pool", "diff"), "aria-invalid") is None
    page.fill(field, "4")


def test_flame_dice_placement_can_be_changed_and_reset(app: App) -> None:
    page = app.page
    reset_values(app, "pool")
    page.fill(app.field("actor", "pool", "flame"), "2")
    page.fill(app.field("actor", "pool", "augmentations"), "1")
    app.settle()
    params = {"flame": 2, "augmentations": 1}
    optimal = local_handle({"op": "roll", "system": "pool", "params": params, "seed": 0})["result"]
    assert optimal["placement"] == [1, 0]
    app.set_seed(0)
    app.roll()
    cells = flame_cells(app)
    assert [c["face"] for c in cells] == [d["final"] for d in optimal["dice"][-2:]]
    assert cells[0]["minus"] and not cells[1]["minus"]
    # Move the augmentation from the first Flame die to the second.
    before = app.shown()
    page.click("#result .die-cell.placeable >> nth=0 >> .place--minus")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=before
    )
    before = app.shown()
    page.click("#result .die-cell.placeable >> nth=1 >> .place--plus")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=before
    )
    normal = [d["rolled"] for d in optimal["dice"] if d["kind"] == "normal"]
    flame = [d["rolled"] for d in optimal["dice"] if d["kind"] == "flame"]
    moved = local_handle(
        {
            "op": "roll",
            "system": "pool",
            "params": {**params, "dice": normal, "flame_dice": flame, "placement": [0, 1]},
        }
    )["result"]
    shown = card(app)
    assert shown["faces"] == [d["final"] for d in moved["dice"]]
    assert shown["outcome"] == moved["outcome"]
    assert shown["numbers"]["successes"] == str(moved["successes"])
    assert "Graine 0" in shown["meta"]
    history = page.get_attribute("#history .history-entry >> nth=0", "data-outcome")
    assert history == moved["outcome"]
    # Back to the engine's optimal placement.
    before = app.shown()
    page.click("#result .placement-reset")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=before
    )
    shown = card(app)
    assert shown["faces"] == [d["final"] for d in optimal["dice"]]
    assert shown["outcome"] == optimal["outcome"]
