"""The app in WebKit (the iPad's engine) and Firefox: boot, an API roll, a roll from the
button, a reload that restores the memory snapshot with fresh seeds, and an offline relaunch
with the server stopped. Each test runs once per engine (markers `webkit`, `firefox`) on a fresh
profile and a server of its own, and checks the page against pyrules in this CPython.

Both engines lack what Chromium gives the app here: no SharedArrayBuffer (no cross-origin
isolation), and WebKit has no scheduler.yield and no JSPI; the app must work without them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import build

from ..browser.conftest import local_handle, outcome_label, signed
from .conftest import Engine

READY_OFFLINE = "document.querySelector('#pwa-status[data-ready=\"true\"]')"
BOOT_MARK = (
    "(performance.getEntriesByType('mark').find((m) => m.name.startsWith('pyrules:boot:'))"
    " || {}).name"
)
# The snapshot is ready for the next start: stored by this page (pyrules:snapshot:stored), or
# this start already came from one (pyrules:boot:snapshot). Any other pyrules:snapshot:* mark
# ends the wait too, and the test then fails on it.
SNAPSHOT_SETTLED = (
    "performance.getEntriesByType('mark').some((m) => m.name.startsWith('pyrules:snapshot:')"
    " || m.name === 'pyrules:boot:snapshot')"
)
# Ask a service worker where its install or refill is: sw.js answers {type: "progress", stage,
# done, total} without touching storage; `fallback` when it does not answer within `ms`.
ASK_PROGRESS = """(worker, ms, fallback) => new Promise((resolve) => {
  const channel = new MessageChannel();
  setTimeout(() => resolve(fallback), ms);
  channel.port1.onmessage = (event) => resolve(event.data);
  worker.postMessage({ type: 'progress' }, [channel.port2]);
})"""
# The service worker's first install has begun (sw.js answers {type: "progress"} with the step
# it is on; "idle" until its install event arrives), or is over. WebKitGTK 2.50 can lose that
# event when the page reloads in the instant between the registration and the event: the
# registration then stays "installing" and blocks every later registration job of the scope
# (register, update, unregister) until the browser restarts, so no page code can recover it.
# docs/reliability.md has the details. The reloads below are about the engine's snapshot, so
# they wait for this first.
INSTALL_STARTED = f"""(async () => {{
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return false;
  if (registration.active || registration.waiting) return true;
  const worker = registration.installing;
  if (!worker) return false;
  const answer = await ({ASK_PROGRESS})(worker, 2000, null);
  return answer !== null && answer.stage !== 'idle';
}})()"""
UNSEEDED = {"op": "roll", "system": "pool", "params": {"pot": 8, "flame": 2}}
REQUESTS: list[Any] = [
    {"op": "version"},
    {"op": "roll", "system": "pool", "params": {"pot": 6, "diff": 4, "dice": "1,4,1,1,6,3"}},
    {"op": "roll", "system": "pool", "params": {"flame": 2, "augmentations": 1}, "seed": 0},
    {"op": "roll", "system": "d100", "params": {}, "seed": 2**53 - 1},
    {"op": "odds", "system": "steps", "params": {"die": 8, "threshold": 5}},
    {"op": "oppose", "system": "d6", "actor": {"pc": False}, "opponent": {"pc": False}, "seed": 7},
    {"op": "roll", "system": "pool", "params": {"pot": 99}},
]


def roll_from_the_button(engine: Engine, seed: int) -> None:
    """Roll the default pool form with this seed through the Roll button: the card lands on
    the engine's faces and outcome, and the announcer says the engine's verdict."""
    engine.js("window.pyrules.nextSeed = args[0];", seed)
    before = engine.js("return Number(document.getElementById('result').dataset.shown || 0);")
    engine.click("#roll-button")
    engine.wait(
        "Number(document.getElementById('result').dataset.shown || 0) > args[0]"
        " && document.querySelector('#result .result-card.is-landed')",
        before,
    )
    expected = local_handle({"op": "roll", "system": "pool", "params": {}, "seed": seed})["result"]
    drawn = engine.js(
        """
        const card = document.querySelector('#result .result-card');
        return {
          outcome: document.getElementById('result').dataset.outcome,
          faces: [...card.querySelectorAll('.die')].map((d) => Number(d.dataset.face)),
        };
        """
    )
    assert drawn == {
        "outcome": expected["outcome"],
        "faces": [d["final"] for d in expected["dice"]],
    }
    # The number first (issue 39), then the tier and the margin, in the page's language.
    lang = engine.js("return document.documentElement.lang;")
    margin = {"fr": "marge", "en": "margin"}[lang]
    label = outcome_label("pool", expected["outcome"], lang)
    said = f"{expected['headline_spoken'][lang]}. {label}, {margin} {signed(expected['margin'])}."
    assert engine.wait("document.getElementById('announcer').textContent === args[0]", said)


def offline_state(engine: Engine) -> Any:
    """What the page and its service worker registration say, for a failed offline wait."""
    return engine.js(
        """
        const registration = await navigator.serviceWorker.getRegistration();
        const worker = (w) => (w ? w.state : null);
        const progress = (w) => w && (__ASK__)(w, 5000, 'no answer');
        return {
          page: window.pyrulesOffline && window.pyrulesOffline.state,
          badge: (document.getElementById('pwa-status') || {}).textContent,
          controlled: navigator.serviceWorker.controller !== null,
          registration: registration ? {
            installing: worker(registration.installing),
            waiting: worker(registration.waiting),
            active: worker(registration.active),
            progress: await progress(registration.installing || registration.active),
          } : null,
          marks: performance.getEntriesByType('mark').map((m) => m.name),
        };
        """.replace("__ASK__", ASK_PROGRESS)
    )


def unseeded_rolls(engine: Engine) -> list[tuple[int, list[int]]]:
    rolls = []
    for _ in range(3):
        answer = engine.call(UNSEEDED)
        assert answer["ok"], answer
        rolls.append((answer["result"]["seed"], [d["final"] for d in answer["result"]["dice"]]))
    return rolls


def test_boots_answers_the_api_and_rolls_from_the_button(
    launch: Callable[[], Engine], dist_dir: Any
) -> None:
    with build.serving(dist_dir) as url:
        engine = launch()
        engine.open(url)
        engine.wait_ready()
        state = engine.js(
            """
            return {
              boot: document.getElementById('boot').dataset.state,
              lang: document.documentElement.lang,
              enabled: !document.getElementById('roll-button').disabled,
              preferred: [...(navigator.languages || [navigator.language])],
            };
            """
        )
        # No choice stored: the browser's first language the app speaks, else French.
        spoken = [tag.lower().split("-")[0] for tag in state.pop("preferred")]
        want = next((code for code in spoken if code in ("fr", "en")), "fr")
        assert state == {"boot": "ready", "lang": want, "enabled": True}
        answers = engine.js(
            "return await Promise.all(args[0].map((r) => window.pyrules.call(r)));", REQUESTS
        )
        for request, answer in zip(REQUESTS, answers, strict=True):
            assert answer == local_handle(request), f"{engine.name} differs for {request}"
        roll_from_the_button(engine, seed=42)
        roll_from_the_button(engine, seed=2**53 - 1)


def test_reload_restores_the_snapshot_then_boots_offline_after_a_relaunch(
    launch: Callable[[], Engine], dist_dir: Any
) -> None:
    with build.serving(dist_dir) as url:
        engine = launch()
        engine.open(url)
        engine.wait_ready()
        engine.wait(SNAPSHOT_SETTLED)
        marks = engine.marks()
        assert "pyrules:snapshot:stored" in marks or "pyrules:boot:snapshot" in marks, marks
        engine.wait(INSTALL_STARTED)
        runs = []
        for _ in range(2):
            engine.reload()
            engine.wait_ready()
            assert engine.js(f"return {BOOT_MARK};") == "pyrules:boot:snapshot", engine.marks()
            runs.append(unseeded_rolls(engine))
        seeds = [seed for run in runs for seed, _ in run]
        assert len(set(seeds)) == len(seeds), f"a seed came back after a snapshot start: {runs}"
        for seed, dice in runs[1]:
            replay = local_handle({**UNSEEDED, "seed": seed})["result"]
            assert [d["final"] for d in replay["dice"]] == dice
        # Ready for offline use: the service worker controls the page, its precache is full.
        try:
            engine.wait(READY_OFFLINE)
        except AssertionError as error:
            raise AssertionError(f"not ready offline: {offline_state(engine)}") from error
        engine.wait("navigator.serviceWorker.controller !== null")
    # The server is gone (its socket closed): the browser starts again on the same profile.
    engine.relaunch()
    engine.open(url)
    engine.wait_ready()
    assert engine.js("return document.getElementById('boot').dataset.state;") == "ready"
    roll = {"op": "roll", "system": "steps", "params": {"die": 10}, "seed": 5}
    assert engine.call(roll) == local_handle(roll)
    roll_from_the_button(engine, seed=7)
