"""The GM's tools under the odds panel: the odds as a curve (op `sweep`) and two choices
compared (op `compare`), at tablet and phone sizes, in French and English, with touch
(screenshots in test-output/screenshots/)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from .conftest import App, local_handle

SIZES = {"tablet-landscape": (1024, 768), "tablet-portrait": (768, 1024), "phone": (360, 740)}


def open_app(new_app: Any, site: str, size: str, locale: str) -> App:
    width, height = SIZES[size]
    app = new_app(site, viewport={"width": width, "height": height}, has_touch=True,
                  is_mobile=size == "phone", locale=locale)
    app.open()
    if locale.startswith("en"):
        app.page.click("[data-lang=en]")
        app.page.wait_for_function("() => document.documentElement.lang === 'en'")
        # The switch draws the forms again and asks the odds again: let that work finish
        # before the test types, so its fields are the ones the curve then reads.
        app.settle()
    return app


def set_field(app: App, system: str, name: str, value: Any) -> None:
    app.page.fill(app.field("actor", system, name), str(value))


def wait_examined(app: App, value: int) -> None:
    app.page.wait_for_function(
        "(v) => document.getElementById('curve-svg').getAttribute('aria-valuenow') === v",
        arg=str(value),
    )


def open_curve(app: App) -> None:
    if not app.page.is_visible("#curve-svg"):
        app.page.click("#curve-panel > summary")


def wait_curve(app: App, system: str, params: dict[str, Any], field: str) -> dict[str, Any]:
    """Wait until the chart shows the engine's sweep for these params; return that sweep."""
    answer = local_handle({"op": "sweep", "system": system, "params": params, "field": field})
    result: dict[str, Any] = answer["result"]
    values = [str(r["value"]) for r in result["rows"]]
    app.page.wait_for_function(
        """([values, current]) => {
          const rows = [...document.querySelectorAll('#curve-table tbody tr')];
          const line = document.getElementById('curve-current');
          return rows.map(r => r.dataset.value).join() === values.join()
            && line && line.dataset.value === current;
        }""",
        arg=[values, str(result["current"])],
    )
    return result


def check_table(app: App, sweep: dict[str, Any]) -> None:
    cells = app.page.eval_on_selector_all(
        "#curve-table tbody tr",
        "rows => rows.map(r => [r.dataset.value, r.dataset.success,"
        " [...r.querySelectorAll('td[data-exact]')].map(c => c.dataset.exact),"
        " r.getAttribute('aria-current')])",
    )
    for (value, success, exact, current), row in zip(cells, sweep["rows"], strict=True):
        assert int(value) == row["value"] and success == row["success"]
        assert exact == list(row["exact"].values())
        assert (current == "true") == (row["value"] == sweep["current"])


@pytest.mark.parametrize("size", ["tablet-landscape", "phone"])
def test_pool_curve_in_french(new_app: Any, site: str, size: str) -> None:
    app = open_app(new_app, site, size, "fr-FR")
    app.pick_system("pool")
    set_field(app, "pool", "pot", 6)
    set_field(app, "pool", "diff", 3)
    open_curve(app)
    sweep = wait_curve(app, "pool", {"pot": 6, "diff": 3}, "diff")
    check_table(app, sweep)
    # "Which DIFF gives 50 %?": the engine says between 4 and 5; the page says it in words.
    assert sweep["half"]["between"] == [[4, 5]]
    half = app.page.inner_text("#curve-half")
    assert "entre DIFF = 4" in half and "DIFF = 5" in half, half
    assert app.page.get_attribute("#curve-panel", "data-half") == str(sweep["half"]["nearest"])
    # The chart is a slider: the current value first, arrows move the examined value.
    svg = "#curve-svg"
    assert app.page.get_attribute(svg, "aria-valuenow") == "3"
    assert "(actuel)" in app.page.get_attribute(svg, "aria-valuetext")
    app.page.focus(svg)
    app.page.keyboard.press("ArrowRight")
    wait_examined(app, 4)
    row4 = next(r for r in sweep["rows"] if r["value"] == 4)
    readout = app.page.inner_text("#curve-readout")
    percent = f"{float(Fraction(row4['success'])) * 100:.1f}".replace(".", ",")
    assert "DIFF = 4" in readout and percent in readout, readout
    app.page.keyboard.press("End")
    wait_examined(app, 9)
    # A tap picks the value under the finger (the left edge: the first value).
    box = app.page.locator(svg).bounding_box()
    app.page.touchscreen.tap(box["x"] + box["width"] * 0.12, box["y"] + box["height"] / 2)
    wait_examined(app, 1)
    app.page.click(".curve-numbers > summary")
    app.page.locator("#curve-panel").scroll_into_view_if_needed()
    assert app.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    app.screenshot(f"gm-curve-pool-{size}-fr")
    # The form changes, the curve follows.
    set_field(app, "pool", "pot", 10)
    wait_curve(app, "pool", {"pot": 10, "diff": 3}, "diff")
    app.context.close()


@pytest.mark.parametrize("size", ["tablet-portrait", "phone"])
def test_curves_and_comparison_in_english(new_app: Any, site: str, size: str) -> None:
    app = open_app(new_app, site, size, "en-GB")
    # d100: the modifier swept; a storm at -15 marked.
    app.pick_system("d100")
    set_field(app, "d100", "value", 45)
    set_field(app, "d100", "modifier", -15)
    open_curve(app)
    sweep = wait_curve(app, "d100", {"value": 45, "modifier": -15}, "modifier")
    check_table(app, sweep)
    assert sweep["half"]["exact"] == [-15]  # 45 - 15 + 20 = 50 faces of 100 succeed
    assert app.page.inner_text("#curve-half") == "Exactly 50% success with Modifiers = -15."
    app.screenshot(f"gm-curve-d100-{size}-en")
    # steps: two fields may be swept (from the registry); the bonus is picked.
    app.pick_system("steps")
    described = local_handle({"op": "systems"})["result"]["systems"]
    steps = next(s for s in described if s["id"] == "steps")
    app.page.wait_for_function(
        "(fields) => [...document.querySelectorAll('#curve-field option')]"
        ".map(o => o.value).join() === fields",
        arg=",".join(spec["field"] for spec in steps["sweep"]),
    )
    assert len(steps["sweep"]) == 2
    app.page.select_option("#curve-field", "bonus")
    wait_curve(app, "steps", {}, "bonus")
    # The comparison: d6 with and without an exceptional effort (the engine's preset).
    app.pick_system("d6")
    app.page.click("#compare-panel > summary")
    expected = local_handle({"op": "compare", "system": "d6", "a": {"effort": False},
                             "b": {"effort": True}})["result"]
    app.page.wait_for_function(
        "(d) => document.getElementById('compare-panel').dataset.successDifference === d",
        arg=expected["success_difference"],
    )
    diffs = app.page.eval_on_selector_all(
        "#compare-table tbody tr[data-outcome] td.compare-diff", "c => c.map(x => x.dataset.exact)")
    assert diffs == [*expected["difference"].values(), expected["success_difference"]]
    assert app.page.inner_text("#compare-verdict").startswith("Choice B gives ")
    app.page.locator("#compare-panel").scroll_into_view_if_needed()
    assert app.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    app.screenshot(f"gm-compare-d6-{size}-en")
    app.context.close()


def test_pool_comparison_die_against_augmentation(new_app: Any, site: str) -> None:
    """Document 000's question at Flame 3: +1 die (A, the preset) or +1 augmentation (B)?"""
    app = open_app(new_app, site, "tablet-portrait", "fr-FR")
    app.pick_system("pool")
    for name, value in (("pot", 6), ("diff", 4), ("flame", 3)):
        set_field(app, "pool", name, value)
    app.page.click("#compare-panel > summary")
    base = {"pot": 6, "diff": 4, "flame": 3}
    expected = local_handle({"op": "compare", "system": "pool", "a": {**base, "pot": 7},
                             "b": {**base, "augmentations": 1}})["result"]
    app.page.wait_for_function(
        "(d) => document.getElementById('compare-panel').dataset.successDifference === d",
        arg=expected["success_difference"],
    )
    assert app.page.input_value("#compare-a-field") == "pot"
    assert app.page.input_value("#compare-b-field") == "augmentations"
    verdict = app.page.inner_text("#compare-verdict")
    assert ("de plus" if Fraction(expected["success_difference"]) > 0 else "de moins") in verdict
    # Choice B becomes +2 augmentations: the table follows.
    app.page.fill("#compare-b-value", "2")
    expected2 = local_handle({"op": "compare", "system": "pool", "a": {**base, "pot": 7},
                              "b": {**base, "augmentations": 2}})["result"]
    app.page.wait_for_function(
        "(d) => document.getElementById('compare-panel').dataset.successDifference === d",
        arg=expected2["success_difference"],
    )
    # A choice out of bounds: the engine's error, under that choice.
    app.page.fill("#compare-b-value", "40")
    app.page.wait_for_selector("#compare-b-error:not([hidden])")
    assert "Augmentations" in app.page.inner_text("#compare-b-error")
    app.screenshot("gm-compare-pool-tablet-portrait-fr")
    # Free dice (issue 22): a sum is no success test; a count is at least one success.
    app.pick_system("notation")
    for expression, kind in (("2d6+1", "sum"), ("5d10>=8", "count")):
        set_field(app, "notation", "expression", expression)
        same = {"expression": expression}
        expected = local_handle({"op": "compare", "system": "notation", "a": same,
                                 "b": same})["result"]
        app.page.wait_for_function(
            "([k, m, mean]) => { const p = document.getElementById('compare-panel');"
            " const cell = document.querySelector('#compare-table tr[data-row=mean] td');"
            " return p.dataset.kind === k && p.dataset.meanDifference === m"
            " && cell && cell.title === mean; }",
            arg=[kind, expected["mean_difference"], expected["a"]["mean"]],
        )
        rows = app.page.eval_on_selector_all("#compare-table tbody tr",
                                             "rs => rs.map(r => r.dataset.row)")
        assert ("success" in rows) == (kind == "count"), rows
        assert "Chance de réussite" not in app.page.inner_text("#compare-table")
        verdict = app.page.inner_text("#compare-verdict")
        assert ("moyenne" in verdict) == (kind == "sum"), verdict
    app.screenshot("gm-compare-notation-tablet-portrait-fr")
    app.context.close()


def test_stored_tool_settings_are_untrusted(new_app: Any, site: str) -> None:
    """Wrong shapes under pyrules:gm: what is usable is kept, the rest falls back to the
    engine's presets, and the page works."""
    app = open_app(new_app, site, "phone", "fr-FR")
    app.pick_system("pool")
    app.page.evaluate(
        """() => localStorage.setItem('pyrules:gm', JSON.stringify({
            curve: {open: true, field: {pool: 42, d6: 'difficulty'}},
            compare: {open: 'yes', choices: {pool: {a: {field: 'pot', delta: '9e99'},
                                                    b: {field: '__proto__'}}}}}))"""
    )
    app.reload()
    app.pick_system("pool")
    wait_curve(app, "pool", {}, "diff")  # open as stored; the field 42 was ignored
    assert not app.page.is_visible("#compare-table")  # "yes" is not true: closed
    app.page.click("#compare-panel > summary")
    app.page.wait_for_selector("#compare-table tbody tr")
    assert app.page.input_value("#compare-a-field") == "pot"
    assert app.page.input_value("#compare-a-value") == "1"  # the preset, not 9e99
    assert app.page.input_value("#compare-b-field") == "augmentations"
    app.context.close()


def test_unreadable_tool_settings_are_set_aside_and_told(new_app: Any, site: str) -> None:
    app = new_app(site)
    # (the browser asks version.json's origin for /favicon.ico, which the site does not have)
    app.page.route("**/favicon.ico", lambda route: route.fulfill(status=204, body=""))
    app.page.goto(site + "version.json")  # same origin, before the app ever runs
    app.page.evaluate("() => localStorage.setItem('pyrules:gm', '{oops')")
    app.open()
    stored = app.page.evaluate("() => ({...localStorage})")
    assert [v for k, v in stored.items() if k.startswith("pyrules:quarantine:pyrules:gm:")] == \
        ["{oops"]
    app.page.wait_for_selector("#notice-corrupt")
    assert "les réglages des outils du MJ" in app.page.inner_text("#notice-corrupt")
    app.pick_system("pool")
    open_curve(app)
    wait_curve(app, "pool", {}, "diff")
    app.context.close()
