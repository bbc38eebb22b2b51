"""The roll stage: every roll, from every screen, plays in a panel in view at tablet and phone
sizes (with touch), shows dice that land on the engine's faces (3D under SwiftShader, 2D with
WebGL off), keeps the verdict hidden until they land, and closes back to where focus was.
Also the roll bar (always reachable, with the engine's chance of success), the dice settings,
skipping, reduced motion and the sound switch. Screenshots in test-output/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import App, first_seed, local_handle
from .helpers import import_characters

SIZES = [("tablet-portrait", 768, 1024), ("tablet-landscape", 1024, 768), ("phone", 360, 740)]
STAGE = "[data-roll-stage]"
LANDED = "[data-roll-stage][data-state=landed]"

ALDRIC = {
    "id": "aldric",
    "system": "steps",
    "name": "Aldric",
    "pc": True,
    "stats": {"ardeur": 12, "accessories": 1},
    "entries": [{"label": "Combat", "params": {"die": 8, "threshold": 5, "bonus": 1}}],
}

# Whether the verdict and the stage are inside the viewport and on top at their centres.
IN_VIEW = """
() => Object.fromEntries(['[data-roll-stage]', '[data-verdict]'].map((sel) => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const inside = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight && r.right <= innerWidth;
  return [sel, {inside, onTop: Boolean(hit && el.contains(hit))}];
}))
"""

# While the stage rolls (null otherwise): how the verdict and the page's dice look.
ROLLING_LOOK = """
() => {
  const stage = document.querySelector('[data-roll-stage]');
  if (!stage || stage.dataset.state !== 'rolling') return null;
  if (!stage.querySelector('.die.tumbling, canvas')) return null;
  const look = (s) => getComputedStyle(s).stroke + ' ' + getComputedStyle(s).strokeWidth;
  const all = (sel) => [...document.querySelectorAll(sel)].map(look);
  return {
    badge: getComputedStyle(stage.querySelector('[data-verdict] .tier-badge')).visibility,
    ariaHidden: stage.querySelector('[data-verdict]').getAttribute('aria-hidden'),
    ones: all('#result .tag--one .die--normal .die-shape'),
    plain: all('#result .die-cell:not(.tag--one) .die--normal .die-shape'),
    // 2D dice moving outside the stage while it throws in 3D (issue 22: none).
    pageTumbling: [...document.querySelectorAll('.die.tumbling')]
      .filter((d) => !stage.contains(d)).length
      + document.getAnimations().filter((a) => a.effect?.target?.closest?.('.die')
        && !stage.contains(a.effect.target)).length,
  };
}
"""

NO_WEBGL = """
(() => {
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    if (String(kind).startsWith('webgl')) return null;
    return original.call(this, kind, ...rest);
  };
})();
"""


def stage_seen(app: App) -> None:
    """Wait for the dice to land, then: stage and verdict in view and not covered."""
    app.page.wait_for_selector(LANDED)
    seen = app.page.evaluate(IN_VIEW)
    for sel, facts in seen.items():
        assert facts == {"inside": True, "onTop": True}, (sel, facts)


def two_quick_fighters(app: App) -> None:
    """On the combat screen: two quick participants, Sbire acting against Garde."""
    page = app.page
    page.click("#tab-combat")
    for who in ("Sbire", "Garde"):
        page.fill("#combat-quick-name", who)
        page.fill("#f-quick-steps-ardeur", "6")
        page.click("#combat-add-quick")
        page.wait_for_selector(f"#combat-order .fighter-label:text-is('{who}')")
    page.select_option("#combat-actor", label="Sbire")
    page.select_option("#combat-target", label="Garde")


def shown_faces(app: App) -> list[int]:
    return app.page.evaluate("() => window.pyrules.shownFaces()")


def card_faces(app: App, area: str) -> list[int]:
    return app.page.eval_on_selector_all(
        f"{area} .die-cell", "cells => cells.map((c) => Number(c.dataset.face))"
    )


def close_stage(app: App) -> None:
    app.page.keyboard.press("Escape")
    app.page.wait_for_selector(STAGE, state="hidden")


def set_pool(app: App, pot: int, flame: int) -> None:
    app.pick_system("pool")
    app.page.fill(app.field("actor", "pool", "pot"), str(pot))
    app.page.fill(app.field("actor", "pool", "flame"), str(flame))
    app.page.fill(app.field("actor", "pool", "diff"), "4")


@pytest.fixture(scope="module")
def stage_apps(new_app: Any, site: str) -> Iterator[dict[str, App]]:
    apps: dict[str, App] = {}
    for name, width, height in SIZES:
        touch = width >= 700
        app = new_app(
            site,
            viewport={"width": width, "height": height},
            has_touch=touch,
            is_mobile=touch,
            reduced_motion="no-preference",
        )
        apps[name] = app
    yield apps


@pytest.mark.parametrize(("name", "width", "height"), SIZES)
def test_every_entry_point_plays_on_the_stage_in_view(
    stage_apps: dict[str, App], name: str, width: int, height: int, tmp_path: Path
) -> None:
    app = stage_apps[name]
    page = app.page
    app.open()
    # 1. The roll screen, scrolled down to the bottom: the roll bar is still in reach.
    set_pool(app, pot=7, flame=2)
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    button = page.locator("#roll-button").bounding_box()
    assert button and button["y"] >= 0 and button["y"] + button["height"] <= height
    app.set_seed(11)
    if width >= 700:
        page.locator("#roll-button").tap()
    else:
        page.click("#roll-button")
    stage_seen(app)
    assert page.get_attribute(STAGE, "data-mode") == "3d"
    expected = local_handle(
        {"op": "roll", "system": "pool", "params": {"pot": 7, "flame": 2, "diff": 4}, "seed": 11}
    )["result"]
    assert shown_faces(app) == [d["final"] for d in expected["dice"]]
    assert page.get_attribute("[data-verdict] .tier-badge", "data-outcome") == expected["outcome"]
    app.screenshot(f"stage-roll-{name}-{width}x{height}")
    close_stage(app)

    # 2. Replay from the history.
    page.locator("#history .history-replay").first.scroll_into_view_if_needed()
    page.click("#history .history-replay >> nth=0")
    stage_seen(app)
    assert shown_faces(app) == [d["final"] for d in expected["dice"]]
    close_stage(app)

    # 3. A replay link.
    link = page.evaluate(
        """async () => window.pyrules.modules.replay
             .linkOf(JSON.parse(localStorage.getItem('pyrules:history'))[0])"""
    )
    page.evaluate("(hash) => { location.hash = hash; }", link)
    page.wait_for_selector("#result .replay-badge")
    stage_seen(app)
    assert shown_faces(app) == [d["final"] for d in expected["dice"]]
    close_stage(app)

    # 4. A character's quick roll.
    import_characters(app, tmp_path / "aldric.json", [ALDRIC])
    app.set_seed(5)
    page.click("#char-detail .entry-roll >> nth=0")
    stage_seen(app)
    assert shown_faces(app) == card_faces(app, "#quick-result")
    app.screenshot(f"stage-quick-{name}-{width}x{height}")
    close_stage(app)

    # 5. An opposed roll between characters (against an NPC).
    page.click("#char-oppose")
    page.wait_for_selector("#oppc-roll")
    app.set_seed(8)
    page.click("#oppc-roll")
    stage_seen(app)
    faces = shown_faces(app)
    assert faces == card_faces(app, "#oppc-result .oppose-side--actor") + card_faces(
        app, "#oppc-result .oppose-side--opponent"
    )
    assert page.locator("[data-verdict] .verdict-winner").count() == 1
    app.screenshot(f"stage-oppose-{name}-{width}x{height}")
    close_stage(app)

    # 6. A combat action between two quick participants.
    two_quick_fighters(app)
    app.set_seed(3)
    page.click("#combat-resolve")
    stage_seen(app)
    rolls = page.eval_on_selector_all(
        "#combat-last .combat-roll", "rs => rs.map((r) => r.dataset.faces.split(',').map(Number))"
    )
    assert shown_faces(app) == [face for roll in rolls for face in roll]
    close_stage(app)


def test_2d_dice_when_webgl_is_missing(new_app: Any, site: str) -> None:
    app = new_app(site, reduced_motion="no-preference", has_touch=True, is_mobile=True)
    app.context.add_init_script(NO_WEBGL)
    app.open()
    page = app.page
    set_pool(app, pot=9, flame=-2)
    request = {"op": "roll", "system": "pool", "params": {"pot": 9, "flame": -2, "diff": 4}}
    # A roll with a normal die on 1 and one that is not: the "1" outline must not show early.
    seed = first_seed(
        request,
        lambda r: {d["final"] == 1 for d in r["dice"] if d["kind"] == "normal"} == {True, False},
        200,
    )
    app.set_seed(seed)
    page.click("#roll-button")
    # No spoiler while they roll: no verdict, no "1" outline (seen in the same frame).
    seen = page.wait_for_function(ROLLING_LOOK).json_value()
    assert seen["badge"] == "hidden"
    assert seen["ones"] and seen["plain"] and set(seen["ones"]) == {seen["plain"][0]}
    stage_seen(app)
    assert page.get_attribute(STAGE, "data-mode") == "2d"
    expected = local_handle({**request, "seed": seed})["result"]
    assert shown_faces(app) == [d["final"] for d in expected["dice"]]
    # Black Flame dice are drawn as such on the stage.
    kinds = page.eval_on_selector_all(
        "[data-roll-stage] .die", "ds => ds.map((d) => d.classList.contains('die--black_flame'))"
    )
    assert kinds == [d["kind"] == "black_flame" for d in expected["dice"]]


# Whenever the page changes while the stage rolls: is the combat outcome card visible, and
# has anything been announced? Observed after each change (a MutationObserver), so the check
# sees the page as it will be painted.
COMBAT_WATCH = """
() => {
  window.__combatSeen = [];
  new MutationObserver(() => {
    const stage = document.querySelector('[data-roll-stage]');
    const last = document.getElementById('combat-last');
    if (!stage || stage.dataset.state !== 'rolling' || !last || !last.textContent.trim()) return;
    window.__combatSeen.push({
      visibility: getComputedStyle(last).visibility,
      announced: document.getElementById('announcer').textContent,
    });
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}
"""


def test_combat_outcome_waits_for_the_dice(new_app: Any, site: str) -> None:
    app = new_app(site, reduced_motion="no-preference")
    app.open()
    page = app.page
    two_quick_fighters(app)
    page.evaluate("() => { document.getElementById('announcer').textContent = ''; }")
    page.evaluate(COMBAT_WATCH)
    app.set_seed(3)
    page.click("#combat-resolve")
    page.wait_for_selector(LANDED)
    seen = page.evaluate("() => window.__combatSeen")
    assert seen, "the outcome card was never drawn while the dice rolled"
    assert {s["visibility"] for s in seen} == {"hidden"}
    assert {s["announced"] for s in seen} == {""}
    # Once landed: the card shows and the outcome is announced.
    page.wait_for_function(
        "() => getComputedStyle(document.getElementById('combat-last')).visibility === 'visible'"
    )
    page.wait_for_function("() => document.getElementById('announcer').textContent !== ''")


def test_3d_throw_hides_the_verdict_until_it_lands_and_skips(new_app: Any, site: str) -> None:
    app = new_app(site, reduced_motion="no-preference")
    app.open()
    page = app.page
    set_pool(app, pot=40, flame=3)
    app.set_seed(99)
    page.focus("#roll-button")
    page.keyboard.press("Enter")
    seen = page.wait_for_function(ROLLING_LOOK).json_value()
    assert seen["badge"] == "hidden" and seen["ariaHidden"] == "true"
    page.wait_for_selector("[data-roll-stage] canvas.stage-canvas")
    # Landscape (1024×768): no 2D die tumbles in the result card under the 3D throw.
    assert seen["pageTumbling"] == 0
    page.keyboard.press(" ")  # skip: the dice land at once
    page.wait_for_selector(LANDED)
    expected = local_handle(
        {"op": "roll", "system": "pool", "params": {"pot": 40, "flame": 3, "diff": 4}, "seed": 99}
    )["result"]
    assert shown_faces(app) == [d["final"] for d in expected["dice"]]
    page.wait_for_function("() => document.getElementById('announcer').textContent !== ''")
    # Escape closes the stage; focus is back on the roll button.
    close_stage(app)
    assert page.evaluate("() => document.activeElement.id") == "roll-button"
    # The other dice, read back from their orientation: d100 (two d10), d4, d10, d12.
    others = (("d100", {}), ("steps", {"die": 4}), ("steps", {"die": 10}), ("steps", {"die": 12}))
    for system, params in others:
        app.pick_system(system)
        for name, value in params.items():
            page.select_option(app.field("actor", system, name), str(value))
        for seed in (31, 32, 33) if system == "d100" else (31,):
            app.set_seed(seed)
            page.click("#roll-button")
            page.wait_for_selector(LANDED)
            assert page.get_attribute(STAGE, "data-mode") == "3d"
            request = {"op": "roll", "system": system, "params": params, "seed": seed}
            expected = local_handle(request)["result"]
            assert shown_faces(app) == [d["final"] for d in expected["dice"]], (system, params)
            if system == "d100":  # read like real dice: the tens die on the left (issue 39)
                layout = page.evaluate("() => window.pyrules.shownLayout()")
                x = {d["role"]: d["x"] for d in layout}
                assert set(x) == {"tens", "units"} and x["tens"] < x["units"], layout
            close_stage(app)
    # Fudge dice in 3D too (issue 39): a d6 marked +, +, blank, blank, −, −, read back.
    app.pick_system("notation")
    page.fill(app.field("actor", "notation", "expression"), "4dF")
    app.settle()
    app.set_seed(31)
    page.click("#roll-button")
    page.wait_for_selector(LANDED)
    assert page.get_attribute(STAGE, "data-mode") == "3d"
    request = {"op": "roll", "system": "notation", "params": {"expression": "4dF"}, "seed": 31}
    expected = local_handle(request)["result"]
    assert shown_faces(app) == [d["final"] for d in expected["dice"]]
    close_stage(app)


def test_tap_closes_and_returns_focus_reduced_motion_lands_at_once(new_app: Any, site: str) -> None:
    app = new_app(site, reduced_motion="reduce", has_touch=True, is_mobile=True)
    app.open()
    page = app.page
    set_pool(app, pot=5, flame=0)
    page.focus("#roll-button")
    app.set_seed(4)
    app.roll()
    # Reduced motion: landed in the same task as the answer.
    assert page.get_attribute(STAGE, "data-state") == "landed"
    assert page.get_attribute(STAGE, "data-mode") == "none"
    assert page.locator("[data-roll-stage] .die.tumbling").count() == 0
    stage_seen(app)
    # "Détails" brings the result card into view, focused.
    page.click("[data-roll-stage] .stage-details")
    page.wait_for_selector(STAGE, state="hidden")
    assert page.evaluate("() => document.activeElement.classList.contains('result-card')")
    # A tap on the stage closes it and gives focus back.
    page.focus("#roll-button")
    app.roll()
    box = page.locator("[data-roll-stage] .stage-dice").bounding_box()
    assert box
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector(STAGE, state="hidden")
    assert page.evaluate("() => document.activeElement.id") == "roll-button"


def test_roll_bar_shows_the_engine_chance(app: App) -> None:
    page = app.page
    set_pool(app, pot=6, flame=0)
    odds = local_handle(
        {"op": "odds", "system": "pool", "params": {"pot": 6, "flame": 0, "diff": 4}}
    )
    p = odds["result"]["success_probability"]
    page.wait_for_function(
        "(p) => document.getElementById('roll-chance').dataset.p == String(p)", arg=p
    )
    assert "%" in (page.text_content("#roll-chance") or "")


def test_dice_settings_and_sound_switch(new_app: Any, site: str) -> None:
    app = new_app(site, reduced_motion="no-preference")
    app.open()
    page = app.page
    set_pool(app, pot=4, flame=0)
    # Sound is off by default: a throw plays no click.
    assert not page.is_checked("#dice-sound")
    page.select_option("#dice-mode", "2d")
    played = "async () => window.pyrules.modules.stage.soundLog.played"
    app.roll()
    page.wait_for_selector(LANDED)
    assert page.evaluate(played) == 0
    # The stage's switch turns it on (kept in the settings), the next throw clicks.
    page.click("#stage-sound")
    assert page.get_attribute("#stage-sound", "aria-pressed") == "true"
    assert page.is_checked("#dice-sound")
    app.roll()
    page.wait_for_selector(LANDED)
    assert page.evaluate(played) > 0
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:dice'))")
    assert (stored["mode"], stored["sound"]) == ("2d", True)
    # Muted again: no more clicks.
    page.click("#stage-sound")
    before = page.evaluate(played)
    app.roll()
    page.wait_for_selector(LANDED)
    assert page.evaluate(played) == before
    # "No animation": the result at once, even with motion allowed.
    page.select_option("#dice-mode", "none")
    app.roll()
    assert page.get_attribute(STAGE, "data-state") == "landed"
    assert page.get_attribute(STAGE, "data-mode") == "none"
