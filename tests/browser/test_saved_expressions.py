"""Saved free-dice expressions (issue 23 item 4): a player names the expression the form
holds, the engine's `validate` accepts it, it is kept on the device, survives a reload,
rolls with one tap (one engine call, through the roll pipeline: the card shows what the
engine answers for that seed), travels in the characters' export file into a fresh
profile, and a damaged stored list is set aside without stopping the app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import App, local_handle

NAME = "Attaque du gobelin"
EXPRESSION = "1d20+4"


def sent(app: App) -> list[dict[str, Any]]:
    texts = app.page.evaluate("() => window.pyrules.debug.sent")
    return [json.loads(text) for text in texts]


def stored(app: App) -> Any:
    raw = app.page.evaluate("() => localStorage.getItem('pyrules:expressions')")
    return None if raw is None else json.loads(raw)


def free_dice(app: App) -> None:
    app.pick_system("notation")
    app.page.wait_for_selector("#saved-expressions:not([hidden])")
    app.settle()


def save(app: App, name: str, expression: str) -> None:
    page = app.page
    page.fill(app.field("actor", "notation", "expression"), expression)
    app.settle()
    page.fill("#saved-name", name)
    page.click("#saved-save")


def saved_names(app: App) -> list[str]:
    return app.page.eval_on_selector_all(
        "#saved-list .saved-roll-name", "(nodes) => nodes.map((n) => n.textContent)"
    )


def tap_and_check(app: App, seed: int) -> None:
    """One tap on the saved expression: exactly one engine call, a roll of it, shown."""
    page = app.page
    app.settle()
    page.evaluate("() => window.pyrules.debug.trace(true)")
    app.set_seed(seed)
    before = app.shown()
    page.click(f"#saved-list .saved-roll:has-text('{NAME}')")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown || 0) > n", arg=before
    )
    page.wait_for_selector("#result .result-card.is-landed")
    calls = sent(app)
    page.evaluate("() => window.pyrules.debug.trace(false)")
    assert [(c["op"], c.get("system"), c.get("params")) for c in calls] == [
        ("roll", "notation", {"expression": EXPRESSION, "grammar": 2})
    ], calls
    expected = local_handle(
        {"op": "roll", "system": "notation", "params": {"expression": EXPRESSION}, "seed": seed}
    )["result"]
    headline = page.text_content("#result .tier-badge--big [data-headline]")
    assert headline == str(expected["total"])
    faces = page.eval_on_selector_all(
        "#result .die-cell", "(cells) => cells.map((c) => Number(c.dataset.face))"
    )
    assert faces == [d["final"] for d in expected["dice"]]


def test_save_reload_roll_with_one_tap_and_export_import(
    new_app: Any, site: str, tmp_path: Path
) -> None:
    app: App = new_app(site)
    app.open()
    page = app.page
    free_dice(app)
    assert saved_names(app) == []
    assert page.is_visible("#saved-empty")

    # A name is needed; the engine judges the expression (its message, next to the field).
    page.fill("#saved-name", "")
    page.click("#saved-save")
    page.wait_for_selector("#saved-error:not([hidden])")
    assert page.text_content("#saved-error") == "Donnez un nom à l’expression."
    app.settle()
    page.evaluate("() => window.pyrules.debug.trace(true)")
    save(app, "Cassée", "1d20+")
    page.wait_for_function(
        "() => !document.getElementById('saved-error').hidden"
        " && document.getElementById('saved-error').textContent.includes('Expression')"
    )
    refusal = local_handle(
        {
            "op": "validate",
            "request": {
                "op": "roll",
                "system": "notation",
                "params": {"expression": "1d20+", "grammar": 2},
            },
        }
    )["error"]["message"]
    assert page.text_content("#saved-error") == refusal
    assert stored(app) is None

    # Saved as the engine reads it: one `validate` of the roll request, no JS rule.
    save(app, NAME, EXPRESSION)
    page.wait_for_function(
        "(n) => document.querySelectorAll('#saved-list .saved-item').length === n", arg=1
    )
    asked = [c for c in sent(app) if c["op"] == "validate"]
    page.evaluate("() => window.pyrules.debug.trace(false)")
    assert [c["request"]["params"]["expression"] for c in asked] == ["1d20+", EXPRESSION]
    assert saved_names(app) == [NAME]
    assert page.text_content("#saved-list .saved-roll-expression") == EXPRESSION
    kept = stored(app)
    assert [(e["name"], e["expression"], e["grammar"]) for e in kept] == [(NAME, EXPRESSION, 2)]

    # After a reload: still there, rolled with one tap.
    app.reload()
    free_dice(app)
    assert saved_names(app) == [NAME]
    assert page.locator("#notice-corrupt").count() == 0
    tap_and_check(app, 4321)
    # The roll is in the history, as any other.
    assert page.locator("#history .history-entry[data-system=notation]").count() >= 1

    # Export (the characters' file) and import into a fresh profile.
    page.click("#tab-characters")
    page.wait_for_selector("#view-characters:not([hidden]) #chars-export")
    with page.expect_download() as info:
        page.click("#chars-export")
    exported = Path(info.value.path())
    document = json.loads(exported.read_text(encoding="utf-8"))
    assert [(e["name"], e["expression"]) for e in document["expressions"]] == [(NAME, EXPRESSION)]
    assert document["characters"] == []

    other: App = new_app(site)
    other.open()
    other.page.click("#tab-characters")
    other.page.wait_for_selector(
        "#view-characters:not([hidden]) #chars-import-file", state="attached"
    )
    other.settle()
    other.page.set_input_files("#chars-import-file", str(exported))
    other.page.wait_for_function(
        "() => (document.getElementById('chars-message')?.textContent || '').includes('expression')"
    )
    assert (
        other.page.text_content("#chars-message")
        == "Importé\u00a0: 0 personnage et 1 expression."
    )
    other.page.click("#tab-roll")
    free_dice(other)
    assert saved_names(other) == [NAME]
    tap_and_check(other, 99)
    other.reload()
    free_dice(other)
    assert saved_names(other) == [NAME]


def test_an_older_export_without_expressions_still_imports(
    new_app: Any, site: str, tmp_path: Path
) -> None:
    app: App = new_app(site)
    app.open()
    page = app.page
    page.click("#tab-characters")
    page.wait_for_selector("#view-characters:not([hidden]) #chars-import-file", state="attached")
    app.settle()
    character = local_handle({"op": "character", "character": {"name": "Alice", "system": "d100"}})
    assert character["ok"], character
    old = tmp_path / "old.json"
    old.write_text(
        json.dumps(
            {
                "format": "pyrules-characters",
                "version": 1,
                "characters": [character["result"]["character"]],
            }
        ),
        encoding="utf-8",
    )
    page.set_input_files("#chars-import-file", str(old))
    page.wait_for_function(
        "() => (document.getElementById('chars-message')?.textContent || '').includes('importé')"
    )
    assert page.text_content("#chars-message") == "1 personnage importé."
    assert stored(app) is None


def test_a_damaged_stored_list_is_set_aside_and_the_good_items_kept(
    new_app: Any, site: str
) -> None:
    app: App = new_app(site)
    good = {"id": "x-1", "name": NAME, "expression": EXPRESSION, "grammar": 2}
    damaged = [good, {"id": "x-2", "name": {"toString": None}, "expression": 5}, "junk"]
    app.context.add_init_script(
        "if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1');"
        f" localStorage.setItem('pyrules:expressions', {json.dumps(json.dumps(damaged))}); }}"
    )
    app.open()
    free_dice(app)
    assert saved_names(app) == [NAME]
    # The unreadable text is kept aside (the notice offers it), never dropped.
    app.page.wait_for_selector("#notice-corrupt")
    aside = app.page.evaluate(
        "() => Object.keys(localStorage)"
        ".filter((k) => k.startsWith('pyrules:quarantine:pyrules:expressions'))"
    )
    assert aside, "the damaged list was not set aside"
    raw = app.page.evaluate("(k) => localStorage.getItem(k)", aside[0])
    assert json.loads(raw) == damaged
    tap_and_check(app, 7)


@pytest.mark.parametrize(
    "size", [(768, 1024), (1024, 768), (360, 740)], ids=["768x1024", "1024x768", "360x740"]
)
def test_the_saved_list_fits_the_screen(new_app: Any, site: str, size: tuple[int, int]) -> None:
    width, height = size
    app: App = new_app(site, viewport={"width": width, "height": height}, has_touch=True)
    items = [
        {
            "id": f"x-{i}",
            "name": f"{NAME} {i} avec un nom assez long",
            "expression": "4d10dh1dl1+2d6*2",
            "grammar": 2,
        }
        for i in range(4)
    ]
    app.context.add_init_script(
        f"localStorage.setItem('pyrules:expressions', {json.dumps(json.dumps(items))});"
    )
    app.open()
    free_dice(app)
    page = app.page
    page.locator("#saved-expressions").scroll_into_view_if_needed()
    overflow = page.evaluate(
        """() => [...document.querySelectorAll('#saved-expressions, #saved-expressions *')]
            .filter((n) => { const r = n.getBoundingClientRect();
              return r.width && (r.left < -1 || r.right > innerWidth + 1); })
            .map((n) => n.id || n.className)"""
    )
    assert overflow == []
    small = page.eval_on_selector_all(
        "#saved-expressions button",
        "(bs) => bs.filter((b) => b.getBoundingClientRect().height < 43).length",
    )
    assert small == 0
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1")
    app.screenshot(f"saved-expressions-{width}x{height}")
