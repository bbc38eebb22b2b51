"""What survives a reload (history, language, forms from the cached systems) and a boot
failure with its Retry button.

One page for the module (one boot), but every test starts from a first visit (`App.reset`)
and makes the rolls it reads itself: any test runs alone, in any order."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

import build

from .conftest import App, local_handle

# Each test starts from a reset page: empty history, default forms, French: nothing left by another
# test.
pytestmark = pytest.mark.usefixtures("fresh_app")


def three_rolls(app: App) -> None:
    """Pool (seed 31), d100 (32), pool again (33): the three rolls the export, language and
    clear tests read (newest first: pool 33, d100 32, pool 31); the card shows a pool roll."""
    for system, seed in (("pool", 31), ("d100", 32), ("pool", 33)):
        app.pick_system(system)
        app.set_seed(seed)
        app.roll()
    app.page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('pyrules:history') || '[]').length === 3"
    )


def entries(app: App) -> list[dict[str, Any]]:
    return app.page.eval_on_selector_all(
        "#history .history-entry",
        """(items) => items.map((li) => ({system: li.dataset.system, outcome: li.dataset.outcome,
            seed: li.dataset.seed, summary: li.querySelector('.history-summary').textContent,
            badge: li.querySelector('.tier-badge').textContent}))""",
    )


def test_history_survives_a_reload_and_replays(app: App) -> None:
    page = app.page
    assert page.locator("#history .history-entry").count() == 0
    assert page.text_content("#history .history-empty") == "Aucun jet pour l’instant."
    app.pick_system("pool")
    app.set_seed(31)
    app.roll()
    app.pick_system("d100")
    app.set_seed(32)
    app.roll()
    expected = [
        local_handle({"op": "roll", "system": "d100", "params": {}, "seed": 32})["result"],
        local_handle({"op": "roll", "system": "pool", "params": {}, "seed": 31})["result"],
    ]
    before = entries(app)
    assert [(e["system"], e["outcome"], e["seed"]) for e in before] == [
        (r["system"], r["outcome"], str(r["seed"])) for r in expected
    ]
    assert before[1]["summary"] == "POT 6 · DIFF 4"
    app.reload()
    # Read back from storage, each line is worded by the engine again (one `briefs` call).
    app.page.wait_for_function(
        "() => [...document.querySelectorAll('#history .history-summary')]"
        ".every((p) => p.textContent)"
    )
    assert entries(app) == before
    assert page.text_content("#history-count") == "2 jets"
    # The selected system and the mode were remembered too.
    assert page.is_checked("#system-d100")
    # "Revoir" shows the pool roll again: same seed, same outcome, not recorded twice.
    shown = app.shown()
    page.click("#history .history-entry >> nth=1 >> .history-replay")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=shown
    )
    assert page.is_checked("#system-pool")
    assert page.get_attribute("#result .result-card", "data-outcome") == expected[1]["outcome"]
    assert page.is_hidden("#replay-add")
    assert len(entries(app)) == 2
    # "Relancer" is a new roll with the same settings: a third entry, with its own seed.
    app.set_seed(33)
    page.click("#history .history-entry >> nth=1 >> .history-again")
    page.wait_for_function("() => document.querySelectorAll('#history .history-entry').length == 3")
    assert page.is_checked("#system-pool")
    assert entries(app)[0]["seed"] == "33"
    assert entries(app)[0]["summary"] == "POT 6 · DIFF 4"


def test_history_exports_json_and_csv(app: App) -> None:
    page = app.page
    three_rolls(app)
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history'))")
    assert len(stored) == 3
    with page.expect_download() as info:
        page.click("#export-json")
    download = info.value
    assert download.suggested_filename.startswith("pyrules-")
    assert download.suggested_filename.endswith(".json")
    with open(download.path(), encoding="utf-8") as f:
        assert json.load(f) == stored
    with page.expect_download() as info:
        page.click("#export-csv")
    download = info.value
    assert download.suggested_filename.endswith(".csv")
    with open(download.path(), encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(io.StringIO(f.read())))
    assert rows[0] == [
        "heure",
        "systeme",
        "mode",
        "parametres",
        "resultat",
        "marge",
        "graine",
        "des_physiques",
    ]
    assert len(rows) == 4
    assert [row[6] for row in rows[1:]] == [str(e["seed"]) for e in stored]
    assert [row[1] for row in rows[1:]] == [e["system"] for e in stored]
    assert rows[3][3] == "POT 6 · DIFF 4"


def test_language_switch_is_applied_and_remembered(app: App) -> None:
    page = app.page
    three_rolls(app)
    assert page.get_attribute("html", "lang") == "fr"
    assert page.text_content("#roll-button") == "Lancer"
    page.click("button[data-lang=en]")
    assert page.get_attribute("html", "lang") == "en"
    assert page.get_attribute("button[data-lang=en]", "aria-pressed") == "true"
    assert page.text_content("#roll-button") == "Roll"
    systems = local_handle({"op": "systems"})["result"]["systems"]
    pool = next(s for s in systems if s["id"] == "pool")
    assert page.text_content("label[data-system=pool]") == pool["name"]["en"]
    assert page.text_content("label[for=f-actor-pool-pot]") == pool["fields"][0]["label"]["en"]
    # The result card and the history are redrawn in English without a new roll.
    outcome = page.get_attribute("#result .result-card", "data-outcome")
    label = next(o["label"]["en"] for o in pool["outcomes"] if o["id"] == outcome)
    assert page.text_content("#result .tier-badge--big .tier-label") == label
    assert page.text_content("#history-count") == "3 rolls"
    app.reload()
    assert page.get_attribute("html", "lang") == "en"
    assert page.text_content("#roll-button") == "Roll"
    assert page.text_content(".odds-success span") == "Chance of success"
    page.click("button[data-lang=fr]")
    assert page.get_attribute("html", "lang") == "fr"
    assert page.text_content("#roll-button") == "Lancer"


def test_clear_history_asks_first(app: App) -> None:
    page = app.page
    three_rolls(app)
    page.click("#clear-history")
    assert page.is_visible("#confirm-clear")
    page.click("#confirm-clear button[value=cancel]")
    page.wait_for_selector("#confirm-clear", state="hidden")
    app.settle()
    assert page.locator("#history .history-entry").count() == 3
    page.click("#clear-history")
    page.click("#confirm-clear-button")
    page.wait_for_selector("#history .history-empty")
    assert page.locator("#history .history-entry").count() == 0
    assert page.text_content("#history-count") == ""
    app.reload()
    assert page.locator("#history .history-entry").count() == 0
    assert page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history'))") == []


@pytest.mark.parametrize(
    ("field", "missing", "step", "step_name"),
    [
        ("String(w.url)", "missing-pyrules.whl", "pyrules", "Installation des règles du jeu"),
        ("info.micropip", "missing-micropip.whl", "micropip", "Préparation de l’installation"),
    ],
)
def test_boot_failure_says_which_step_and_retry_recovers(
    new_app: Any, site: str, field: str, missing: str, step: str, step_name: str
) -> None:
    """A wheel cannot be had: the panel names the step; Retry boots again.

    A fresh context (no service worker yet, so page.route sees the worker script), with the
    systems description a previous visit would have left in localStorage. The build's
    snapshot is not there either (404): only the fallback start installs wheels.
    """
    app = new_app(site)
    systems = local_handle({"op": "systems"})["result"]
    app.context.add_init_script(
        "localStorage.getItem('pyrules:systems') || localStorage.setItem('pyrules:systems', "
        + json.dumps(json.dumps(systems))
        + ")"
    )
    page = app.page
    app.expected_errors.append(missing)

    def broken_worker(route: Any) -> None:
        # The worker script as served, but pointing at a wheel that is not there.
        response = route.fetch()
        body = response.text().replace(field, f'"wheels/{missing}"')
        assert body != response.text()
        route.fulfill(response=response, body=body)

    def no_snapshot(route: Any) -> None:
        route.fulfill(status=404, body="not found")

    app.expected_errors.append("status of 404")
    page.route("**/js/engine/worker.js", broken_worker)
    page.route("**/" + build.SNAPSHOT_FILE, no_snapshot)
    app.open(wait=False)
    page.wait_for_selector("#boot[data-state=error]", timeout=90_000)
    # Forms come from the systems cached at the previous visit, usable while booting.
    assert page.locator(".side-form[data-system] input").count() > 0
    app.pick_system("d100")
    page.fill("#f-actor-d100-value", "60")
    assert page.is_disabled("#roll-button")
    assert page.text_content("#roll-hint") == "moteur en chargement…"
    assert page.get_attribute("#boot", "data-failed-step") == step
    assert page.text_content("#boot-error-step") == f"Étape en échec\u00a0: {step_name}."
    assert missing in (page.text_content("#boot-error-message") or "")
    assert page.evaluate("() => performance.getEntriesByName('pyrules:ready').length") == 0
    page.unroute("**/js/engine/worker.js", broken_worker)
    page.unroute("**/" + build.SNAPSHOT_FILE, no_snapshot)
    page.click("#retry")
    app.wait_ready()
    assert page.get_attribute("#boot", "data-state") == "ready"
    assert page.is_enabled("#roll-button")
    assert page.input_value("#f-actor-d100-value") == "60"
    app.roll_matches("d100", {"value": 60}, seed=5)
    app.check_clean()
    app.context.close()
