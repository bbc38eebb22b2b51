"""Reliability, the engine worker: a crash or a hang is noticed, the worker restarts, a
pending roll is retried once with the same seed (recorded once) or reported as failed
(recorded never); slow odds can be cancelled; the "Dés équitables ?" test runs in chunks
with fresh seeds, can be cancelled, and answers exactly what the engine answers.

One page load (and one reload, to check the randomness after a snapshot restore). The
engine's test hooks are window.pyrules.debug (see web/js/engine/engine.js)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import App, local_handle, percent_value
from .helpers import SMALL_TARGETS

BIG = {  # the heaviest settings the bounds allow: a 5 000-roll chunk keeps the worker busy
    "op": "fairness",
    "system": "pool",
    "params": {"pot": 40, "flame": 10, "augmentations": 20, "modifiers": "+10D+10DF+20"},
    "n": 5000,
    "seed": 1,
}


@pytest.fixture(scope="module")
def app(new_app: Any, site: str) -> Iterator[App]:
    app = new_app(site)
    app.open()
    yield app
    app.context.close()


# Each test starts from a reset page: a first visit for each test on the module's page: a new
# worker with the default watchdog, empty history, default forms, the roll screen.
pytestmark = pytest.mark.usefixtures("fresh_app")


def debug(app: App, expression: str) -> Any:
    return app.page.evaluate(f"() => window.pyrules.debug.{expression}")


def sent(app: App, op: str) -> list[dict[str, Any]]:
    texts = app.page.evaluate("() => window.pyrules.debug.sent")
    return [r for r in map(json.loads, texts) if r.get("op") == op]


def history_count(app: App) -> int:
    return app.page.locator("#history .history-entry").count()


def wait_history(app: App, more_than: int) -> None:
    app.page.wait_for_function(
        "(n) => document.querySelectorAll('#history .history-entry').length > n", arg=more_than
    )


def wait_shown(app: App, before: int) -> None:
    app.page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown || 0) > n",
        arg=before,
        timeout=60_000,
    )


def wait_restarts(app: App, count: int) -> None:
    app.page.wait_for_function(
        "(n) => window.pyrules.debug.info().restarts >= n && "
        "window.pyrules.debug.info().state === 'ready'",
        arg=count,
        timeout=60_000,
    )


def test_a_crash_restarts_the_worker_and_retries_the_pending_roll_once(app: App) -> None:
    page = app.page
    app.pick_system("pool")
    count = history_count(app)
    before = app.shown()
    debug(app, "trace(true)")
    # The worker is busy with a long computation; a roll waits behind it; the worker dies.
    page.evaluate("(big) => { window.__big = window.pyrules.call(big); }", BIG)
    page.click("#roll-button")
    debug(app, "kill()")
    page.wait_for_selector("#notice-restarted")
    assert page.get_attribute("#notice-restarted", "role") == "status"
    text = page.inner_text("#notice-restarted")
    assert "Le moteur a redémarré" in text and "Il s’était arrêté." in text
    wait_shown(app, before)
    wait_restarts(app, 1)
    # Sent twice, the same request (the seed chosen by the page), answered and recorded once.
    rolls = sent(app, "roll")
    assert len(rolls) == 2 and rolls[0] == rolls[1]
    seed = rolls[0]["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**53
    expected = local_handle(rolls[0])["result"]
    assert page.get_attribute("#result .result-card", "data-outcome") == expected["outcome"]
    wait_history(app, count)
    app.settle()  # every answer is in: a second record would be there by now
    assert history_count(app) == count + 1
    assert page.get_attribute("#history .history-entry >> nth=0", "data-seed") == str(seed)
    # The long computation was retried too, and came back whole.
    big = page.evaluate("() => window.__big")
    assert big == local_handle(BIG)
    page.click("#notice-restarted [data-action=close]")


def test_a_worker_that_stops_answering_is_caught_by_the_watchdog(app: App) -> None:
    page = app.page
    count = history_count(app)
    before = app.shown()
    debug(app, "timeouts({call: 1500})")
    debug(app, "stall()")  # no event at all: only the watchdog can tell
    app.set_seed(77)
    page.click("#roll-button")
    page.wait_for_selector("#notice-restarted", timeout=20_000)
    assert "ne répondait plus depuis" in page.inner_text("#notice-restarted")
    wait_shown(app, before)
    expected = local_handle({"op": "roll", "system": "pool", "params": {}, "seed": 77})["result"]
    assert page.get_attribute("#result .result-card", "data-outcome") == expected["outcome"]
    wait_history(app, count)
    assert history_count(app) == count + 1
    # A direct call never hangs either.
    assert app.call({"op": "version"})["ok"]
    debug(app, "timeouts({call: 20000})")
    page.click("#notice-restarted [data-action=close]")


def test_a_roll_caught_in_a_second_crash_fails_clearly_and_records_nothing(app: App) -> None:
    page = app.page
    count = history_count(app)
    app.set_seed(5)
    # Crash, then crash again while the new worker boots: the roll cannot be retried.
    answer = page.evaluate(
        """async () => {
          const pending = window.pyrules.call({op: "roll", system: "pool", params: {}, seed: 5});
          document.getElementById("roll-button").click();
          window.pyrules.debug.kill();
          window.pyrules.debug.kill();
          const hung = new Promise((resolve) => setTimeout(() => resolve("still pending"), 10000));
          return Promise.race([pending, hung]);
        }"""
    )
    assert answer["ok"] is False and answer["error"]["code"] == "engine_unavailable"
    page.wait_for_selector("#form-error:not([hidden])")
    message = page.text_content("#form-error") or ""
    assert message.startswith("Le jet n’a pas pu être fait\u00a0: le moteur ne répond pas")
    assert "rien n’a été enregistré" in message
    page.wait_for_selector("#boot[data-state=error]")
    assert page.is_disabled("#roll-button")
    assert history_count(app) == count
    # Retry brings it back; the next roll works and is recorded.
    page.click("#retry")
    page.wait_for_selector("#boot[data-state=ready]", state="attached", timeout=60_000)
    app.set_seed(6)
    app.roll()
    wait_history(app, count)
    assert history_count(app) == count + 1


def test_a_worker_that_keeps_crashing_becomes_a_boot_failure(new_app: Any, site: str) -> None:
    """Three restarts within a minute are allowed; the fourth crash shows the boot panel's
    failure (no endless restart loop), what was typed is kept, and Retry starts afresh."""
    app = new_app(site)
    app.open()
    page = app.page
    app.expected_errors.append("restarted 3 times in a minute")
    app.pick_system("d100")
    page.fill("#f-actor-d100-value", "47")
    for restart in range(1, 4):
        debug(app, "kill()")
        wait_restarts(app, restart)
        assert page.get_attribute("#boot", "data-state") != "error"
    debug(app, "kill()")
    page.wait_for_selector("#boot[data-state=error]")
    assert debug(app, "info()")["state"] == "error"
    assert page.get_attribute("#boot", "data-failed-step") == "worker"
    assert page.text_content("#boot-error-step") == "Étape en échec\u00a0: Lancement du moteur."
    assert "restarted 3 times in a minute" in (page.text_content("#boot-error-message") or "")
    assert page.is_disabled("#roll-button")
    answer = app.call({"op": "version"})
    assert answer["ok"] is False and answer["error"]["code"] == "engine_unavailable"
    page.click("#retry")
    page.wait_for_selector("#boot[data-state=ready]", state="attached", timeout=60_000)
    assert debug(app, "info()")["restarts"] == 0
    assert page.input_value("#f-actor-d100-value") == "47"
    app.roll_matches("d100", {"value": 47}, seed=3)
    app.context.close()


def test_slow_odds_show_computing_and_cancel_keeps_the_last_chart(app: App) -> None:
    page = app.page
    app.settle()
    pot = app.field("actor", "pool", "pot")
    page.fill(pot, "6")
    app.settle()
    exact_before = page.get_attribute("#odds .odds-row >> nth=0", "data-exact")
    debug(app, "delay(5000)")  # answers held long enough for "calcul…" to show first
    page.fill(pot, "12")
    page.wait_for_selector("#odds-cancel:visible")
    assert page.text_content("#odds-pending-text") == "calcul…"
    page.click("#odds-cancel")
    assert page.text_content("#odds-pending-text") == (
        "Calcul annulé\u00a0: les probabilités affichées sont les précédentes."
    )
    assert page.is_hidden("#odds-cancel")
    assert page.evaluate("() => document.activeElement.id") == "odds-title"
    app.settle()  # the dropped answer has come (held 5 s) and gone
    assert page.get_attribute("#odds .odds-row >> nth=0", "data-exact") == exact_before
    debug(app, "delay(0)")
    page.fill(pot, "11")
    twelve = local_handle({"op": "odds", "system": "pool", "params": {"pot": 11}})["result"]
    first = next(iter(twelve["exact"].values()))
    page.wait_for_function(
        "(x) => document.querySelector('#odds .odds-row').dataset.exact === x", arg=first
    )
    assert page.get_attribute("#odds-pending", "data-state") == "idle"
    page.fill(pot, "6")
    app.settle()


def run_fairness(app: App, size: int) -> dict[str, Any]:
    page = app.page
    if page.get_attribute("#tab-stats", "aria-selected") != "true":
        page.click("#tab-stats")  # the fair-dice test lives on the Statistics screen
    page.click(f"label[for=fair-n-{size}]")
    page.click("#fair-start")
    page.wait_for_selector(f"#fair-result[data-total='{size}']", timeout=60_000)
    data: dict[str, Any] = page.eval_on_selector("#fair-result", "n => ({...n.dataset})")
    return data


def test_fair_dice_runs_in_chunks_and_matches_the_engine(app: App) -> None:
    page = app.page
    page.click("#tab-stats")
    page.click("#fair-jump")
    assert page.evaluate("() => document.activeElement.id") == "fair-title"
    pool = local_handle({"op": "systems"})["result"]["systems"][0]
    # What the test rolls, in the engine's words (asked as the screen is drawn).
    page.wait_for_function(
        "(text) => document.getElementById('fair-setup').textContent === text",
        arg=f"Réglages testés\u00a0: {pool['name']['fr']} · POT 6 · DIFF 4",
    )
    debug(app, "trace(true)")
    result = run_fairness(app, 1000)
    chunks = sent(app, "fairness")
    assert [c["n"] for c in chunks] == [500, 500]
    seeds = [c["seed"] for c in chunks]
    assert len(set(seeds)) == 2 and all(isinstance(s, int) and 0 <= s < 2**53 for s in seeds)
    assert "previous" not in chunks[0]
    # The same chunks in this CPython give the same counts and the same test.
    first = local_handle({k: v for k, v in chunks[0].items() if k != "lang"})["result"]
    assert chunks[1]["previous"] == first["counts"]
    last = local_handle({k: v for k, v in chunks[1].items() if k != "lang"})["result"]
    assert result["seeds"] == ",".join(map(str, seeds))
    assert float(result["p"]) == pytest.approx(last["p_value"])
    assert int(result["dof"]) == last["dof"]
    observed = page.eval_on_selector_all(
        "#fair-rows .fair-row", "rows => rows.map((r) => Number(r.dataset.observed))"
    )
    assert sum(observed) == 1000 and observed == list(last["counts"].values())
    shown_p = page.text_content("#fair-result .stat-tile[data-key=p] dd") or ""
    relation, value = percent_value(shown_p + "%")
    assert relation == "<" or value == pytest.approx(last["p_value"], abs=0.0051)
    verdict = page.get_attribute("#fair-verdict", "data-verdict")
    assert verdict == ("ok" if last["p_value"] >= 0.01 else "unusual")
    assert page.text_content("#fair-verdict").startswith("p-valeur ")
    # Big enough to touch, no sideways scroll, at tablet and phone sizes.
    for width, height in ((1024, 768), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#fairness").scroll_into_view_if_needed()
        assert page.evaluate(SMALL_TARGETS) == [], width
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
        app.screenshot(f"fair-dice-{width}x{height}", full_page=True)
    page.set_viewport_size({"width": 1024, "height": 768})
    # In English.
    page.click("button[data-lang=en]")
    assert page.text_content("#fair-title") == "Fair dice?"
    assert (page.text_content("#fair-verdict") or "").startswith("p-value ")
    assert "chi-square" in (page.text_content("#fair-result") or "")
    page.click("button[data-lang=fr]")


def test_fair_dice_can_be_cancelled(app: App) -> None:
    page = app.page
    page.click("#tab-stats")  # the fair-dice test lives on the Statistics screen
    debug(app, "trace(true)")
    page.click("label[for=fair-n-50000]")
    page.click("#fair-start")
    assert page.evaluate("() => document.activeElement.id") == "fair-cancel"
    page.wait_for_function(
        "() => Number(document.getElementById('fair-progress').getAttribute('aria-valuenow')) > 0",
        timeout=30_000,
    )
    page.click("#fair-cancel")
    status = page.text_content("#fair-status") or ""
    assert status.startswith("Test annulé après ")
    assert page.evaluate("() => document.activeElement.id") == "fair-start"
    asked = len(sent(app, "fairness"))
    # The chunk in flight comes back (a next chunk would be sent in the same task), then one
    # more round trip through the worker.
    page.wait_for_function("() => window.pyrules.debug.info().pending === 0", timeout=60_000)
    assert app.call({"op": "version"})["ok"]
    assert len(sent(app, "fairness")) == asked  # no chunk after Cancel
    assert page.locator("#fair-result .fair-row").count() == 0
    assert page.is_hidden("#fair-progress")


def test_fresh_random_numbers_after_a_snapshot_restore(app: App) -> None:
    page = app.page
    debug(app, "trace(true)")
    run_fairness(app, 1000)
    before = [c["seed"] for c in sent(app, "fairness")]
    unseeded = {"op": "fairness", "system": "pool", "params": {}, "n": 200}
    engine_before = app.call(unseeded)["result"]["seed"]
    app.reload()
    boot = page.evaluate(
        "() => performance.getEntriesByType('mark')"
        ".find((m) => m.name.startsWith('pyrules:boot:')).name"
    )
    assert boot == "pyrules:boot:snapshot"
    page.click("#tab-stats")
    debug(app, "trace(true)")
    run_fairness(app, 1000)
    after = [c["seed"] for c in sent(app, "fairness")]
    assert not set(before) & set(after)
    # Without a seed, the restored engine draws its own from the OS: a new one too.
    engine_after = app.call(unseeded)["result"]["seed"]
    assert engine_after != engine_before
    page.click("#tab-roll")
