"""A step-dice sheet lists several weapons and protections; the engine counts only the best
of each (document 004), and the quick roll shows the engine's total."""

from __future__ import annotations

from .conftest import App, local_handle
from .helpers import history_entries, show, stored_characters, wait_history


def test_a_sheet_lists_several_weapons_and_only_the_best_counts(app: App) -> None:
    page = app.page
    show(app, "characters")
    page.click("#char-new")
    page.fill("#char-name", "Ysolde")
    page.click("label[for=char-system-steps]")
    page.fill("#f-stats-steps-weapons", "2 1 3")
    page.fill("#f-stats-steps-protections", "1, 0")
    page.click("#entry-add")
    page.fill("#entry-label-0", "Épée")
    page.fill("#f-e0-steps-threshold", "9")
    page.fill("#f-e0-steps-bonus", "1")
    page.click("#char-save")
    page.wait_for_selector("#char-detail .sheet-name:text-is('Ysolde')")
    stats = next(c for c in stored_characters(app) if c["name"] == "Ysolde")["stats"]
    # Stored as the engine's `character` op answers a list stat: a list of whole numbers.
    assert (stats["weapons"], stats["protections"]) == ([2, 1, 3], [1, 0])

    # The button says the whole bonus the roll adds (1 + best weapon 3 + best protection 1)
    # and its chance of success, the engine's odds of the very roll the tap sends.
    button = "#char-detail .entry-roll:has-text('Épée')"
    page.wait_for_selector(f"{button} .entry-roll-chance:not(:empty)")
    assert "Bonus +5" in page.text_content(f"{button} .entry-roll-summary")
    odds = local_handle({"op": "odds", "system": "steps",
                         "params": {"die": 8, "threshold": 9, "bonus": 5}})["result"]
    assert odds["success"] == "5/8"  # a D8 of 4 or more
    chance = page.eval_on_selector(f"{button} .entry-roll-chance",
                                   "(c) => ({text: c.textContent, exact: c.title})")
    assert chance["exact"] == odds["success"]
    assert chance["text"].startswith("63") and chance["text"].endswith("de réussite"), chance

    before = len(history_entries(app))
    app.set_seed(5)
    page.click("#char-detail .entry-roll:has-text('Épée')")
    wait_history(app, before + 1)
    entry = history_entries(app)[0]
    assert (entry["params"]["weapons"], entry["params"]["protections"]) == ([2, 1, 3], [1, 0])
    expected = local_handle({"op": "roll", "system": "steps", "params": entry["params"],
                             "seed": 5})["result"]
    face = expected["dice"][0]["final"]
    # D8 face + bonus 1 + best weapon 3 + best protection 1 (not 2 + 1 + 3 + 1 + 0).
    assert expected["total"] == face + 1 + 3 + 1
    shown = page.eval_on_selector(
        "#quick-result .result-card",
        """(c) => ({outcome: c.dataset.outcome,
                   total: c.querySelector('.number[data-key=total] dd')?.textContent})""",
    )
    assert shown == {"outcome": expected["outcome"], "total": str(expected["total"])}
    # The tiles (issue 22): a list reads "2, 1, 3"; an empty one says so instead of a blank.
    tile = "#char-detail .sheet-stat[data-stat={}] dd"
    assert page.text_content(tile.format("weapons")) == "2, 1, 3"
    page.click("#char-edit")
    page.fill("#f-stats-steps-protections", "")
    page.click("#char-save")
    page.wait_for_selector(tile.format("protections") + "[data-empty=true]")
    assert page.text_content(tile.format("protections")) == "aucune (bonus 0)"
    assert next(c for c in stored_characters(app)
                if c["name"] == "Ysolde")["stats"]["protections"] == []
