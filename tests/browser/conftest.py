"""Browser tests: the built site (dist/) in headless Chromium, driven by Playwright (sync API).

One Chromium for the whole session; each test module opens as few pages as it can, since
booting Pyodide costs a few seconds per page load. Every page records its console errors,
page errors, CSP violations and requests; after each test, `_page_guard` fails the test if
one of its pages logged an error or asked anything from another origin.

Chromium: $PYRULES_CHROMIUM, else `chromium` / `chromium-browser` / `google-chrome` on PATH
(never a downloaded one: `playwright install` is not used). Without one, the tests are skipped
(`python build.py test` installs Debian's chromium first, as root on Debian).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import build

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
# The suite's pages live for seconds: V8 compiles the engine's 10 MB of wasm at once with its
# baseline compiler (Liftoff), then again, function by function, with its optimising one
# (TurboFan) on background threads, CPU the two cores need for the next test. The tests
# check what the page does, not how fast, so they run on Liftoff alone (12–15 % less time
# for the Chromium part, docs/testing.md); the benches (bench/) keep V8's own tiers.
LAUNCH_ARGS = [*build.CHROMIUM_ARGS, "--js-flags=--liftoff-only"]
BOOT_TIMEOUT_MS = 90_000
TABLET = {"width": 1024, "height": 768}

# Recorded in the page before any of its scripts: CSP violations (a strict policy is in
# index.html, so an inline style or eval in the app would show up here).
INIT_SCRIPT = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__csp.push(event.violatedDirective + " " + (event.blockedURI || ""));
});
"""


def find_chromium() -> str | None:
    """$PYRULES_CHROMIUM, else chromium / chromium-browser / google-chrome on PATH (build.py's
    search, which `python build.py test` exports as PYRULES_CHROMIUM)."""
    return build.find_chromium()


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        pytest.skip(
            "no Chromium for the browser tests: set PYRULES_CHROMIUM or install one "
            "(Debian: apt-get install chromium)"
        )
    return path


@pytest.fixture(scope="session")
def browser(playwright_instance: Any, chromium_path: str) -> Iterator[Any]:
    browser = playwright_instance.chromium.launch(
        executable_path=chromium_path, args=LAUNCH_ARGS, headless=True
    )
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def site(dist_dir: Path) -> Iterator[str]:
    """Base URL (ends with /) of dist/ served on 127.0.0.1 from a background thread."""
    with build.serving(dist_dir) as url:
        yield url


@pytest.fixture(scope="session")
def site_under_prefix(dist_dir: Path) -> Iterator[str]:
    """The same site under a sub-path, as GitHub Pages serves it."""
    with build.serving(dist_dir, prefix="/pyrules/") as url:
        yield url


#: The page has nothing scheduled or in flight (window.pyrules.pendingWork: web/js/lib/dom.js).
SETTLED = "() => window.pyrules.pendingWork() === 0 && window.pyrules.debug.info().pending === 0"


def wait_announced(page: Any, text: str) -> None:
    """#announcer is written in the frame after a roll lands: wait for the expected text."""
    page.wait_for_function(
        "(text) => document.getElementById('announcer').textContent === text", arg=text
    )


class App:
    """One page of the app plus what it logged."""

    def __init__(self, context: Any, base_url: str) -> None:
        self.context = context
        self.base_url = base_url
        self.origin = base_url.split("/", 3)[:3]
        self.origin_prefix = "/".join(self.origin) + "/"
        self.page = context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.expected_errors: list[str] = []
        self.used = False  # a test of a fresh_app module ran on this page
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        # Context level: also sees the requests of workers and service workers.
        context.on("request", lambda request: self.requests.append(request.url))

    def _on_console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def open(self, query: str = "", wait: bool = True) -> App:
        self.page.goto(self.base_url + query)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self) -> None:
        """The start is over: the engine is ready and the play screens, loaded after it
        (app/play.js), have read the stored characters (a test that acts while they are
        read races them: a combat form filled then, a database opened)."""
        try:
            self.page.wait_for_function(
                "() => performance.getEntriesByName('pyrules:ready').length > 0"
                " && window.pyrules.playScreens === 'loaded'",
                timeout=BOOT_TIMEOUT_MS,
            )
        except Exception as error:
            raise AssertionError(f"the engine never got ready: {self.boot_state()}") from error

    def boot_state(self) -> Any:
        """What the boot panel, the marks and the console say (for a failed wait)."""
        try:
            state = self.page.evaluate(
                """() => {
                  const boot = document.getElementById('boot');
                  return {
                    url: location.href,
                    boot: boot && boot.dataset.state,
                    text: boot && boot.innerText.slice(0, 300),
                    marks: performance.getEntriesByType('mark').map((m) => m.name),
                  };
                }"""
            )
        except Exception as error:  # the page itself is gone or hung
            state = {"page": repr(error)[:300]}
        return {**state, "errors": self.errors[-5:]}

    def reload(self, wait: bool = True) -> None:
        self.page.reload()
        if wait:
            self.wait_ready()

    def reset(self, stored: dict[str, Any] | None = None) -> None:
        """Back to a first visit in this profile: empty localStorage, sessionStorage and the
        app's IndexedDB stores, no link fragment, the page loaded again (the offline copy and
        the HTTP cache are kept: they are the site, not the player's data). A test that needs
        characters, rolls or a fight makes them itself after this. `stored`: what an earlier
        visit left in localStorage (each value JSON-encoded), written before the page loads
        again, so that the test's start is that later visit with one boot, not two."""
        self.settle()  # nothing debounced left to write the form state back after the clear
        self.page.evaluate(
            """async (stored) => {
              localStorage.clear();
              sessionStorage.clear();
              for (const [key, value] of Object.entries(stored)) {
                localStorage.setItem(key, JSON.stringify(value));
              }
              await new Promise((resolve) => {
                const open = indexedDB.open("pyrules");
                open.onsuccess = () => {
                  const db = open.result;
                  const stores = [...db.objectStoreNames];
                  if (!stores.length) { db.close(); return resolve(); }
                  const done = () => { db.close(); resolve(); };
                  try {
                    const tx = db.transaction(stores, "readwrite");
                    for (const name of stores) tx.objectStore(name).clear();
                    tx.oncomplete = done;
                    tx.onerror = done;
                    tx.onabort = done;
                  } catch {
                    done(); // a database being changed meanwhile: nothing to wait for
                  }
                };
                open.onerror = () => resolve();
              });
            }""",
            stored or {},
        )
        self.page.goto(self.base_url)
        self.wait_ready()

    # -- engine --------------------------------------------------------------------

    def call(self, request: dict[str, Any] | str) -> Any:
        """window.pyrules.call(request) in the page."""
        return self.page.evaluate("(request) => window.pyrules.call(request)", request)

    def set_seed(self, seed: int) -> None:
        self.page.evaluate("(seed) => { window.pyrules.nextSeed = seed; }", seed)

    # -- interface -----------------------------------------------------------------

    def shown(self) -> int:
        return int(self.page.get_attribute("#result", "data-shown") or 0)

    def roll(self) -> None:
        """Click the roll button and wait for a new result card to be drawn."""
        before = self.shown()
        self.page.click("#roll-button")
        self.page.wait_for_function(
            "(n) => Number(document.getElementById('result').dataset.shown || 0) > n", arg=before
        )

    def roll_matches(self, system_id: str, params: dict[str, Any], seed: int) -> None:
        """Roll with this seed through the Roll button: the card shows the outcome that
        pyrules.api.handle gives for the same system, params and seed."""
        self.set_seed(seed)
        self.roll()
        request = {"op": "roll", "system": system_id, "params": params, "seed": seed}
        expected = local_handle(request)["result"]["outcome"]
        assert self.page.get_attribute("#result .result-card", "data-outcome") == expected

    def pick_system(self, system_id: str) -> None:
        self.page.click(f"label[for=system-{system_id}]")
        self.page.wait_for_selector(f".side-form[data-system={system_id}]")

    def set_mode(self, mode: str) -> None:
        self.page.click(f"label[for=mode-{mode}]")

    def set_physical(self, on: bool) -> None:
        """Switch the physical-dice mode, then wait until the faces boxes the engine asks for
        are drawn (the switch's dice-groups answer is in)."""
        if self.page.is_checked("#physical") != on:
            self.page.click("label[for=physical]")
            self.settle()

    def field(self, side: str, system: str, name: str) -> str:
        return f"#f-{side}-{system}-{name}"

    def settle(self) -> None:
        """Wait until the page's debounced work (odds, dice groups, sources, statistics, saved
        state) has run, its answers are drawn, and the engine has no call left pending."""
        try:
            self.page.wait_for_function(SETTLED)
        except Exception as error:
            state = self.page.evaluate(
                "() => ({work: window.pyrules.pendingWork(), engine: window.pyrules.debug.info()})"
            )
            raise AssertionError(f"the page never settled: {state}") from error

    def screenshot(self, name: str, full_page: bool = False) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    # -- hygiene -------------------------------------------------------------------

    def check_clean(self) -> None:
        errors = [e for e in self.errors if not any(x in e for x in self.expected_errors)]
        assert not errors, "console or page errors:\n" + "\n".join(errors)
        foreign = [url for url in self.requests if not url.startswith(self.origin_prefix)]
        assert not foreign, f"requests left the origin {self.origin_prefix}: {foreign}"
        if not self.page.is_closed():
            violations = self.page.evaluate("() => window.__csp || []")
            assert not violations, f"Content-Security-Policy violations: {violations}"


_open_apps: list[App] = []


@pytest.fixture(scope="session")
def new_app(browser: Any) -> Iterator[Callable[..., App]]:
    """Factory: new_app(base_url, **context options) -> App (a fresh context and page)."""
    contexts: list[Any] = []

    def make(base_url: str, **options: Any) -> App:
        options.setdefault("viewport", TABLET)
        options.setdefault("reduced_motion", "reduce")
        options.setdefault("locale", "fr-FR")
        # No offline copy unless the test asks for one (service_workers="allow": the boot's,
        # the snapshot's and the offline copy's own tests). Storing the whole site again costs
        # each fresh profile about half a CPU-second, on a machine the suite keeps busy.
        options.setdefault("service_workers", "block")
        context = browser.new_context(**options)
        context.add_init_script(INIT_SCRIPT)
        contexts.append(context)
        app = App(context, base_url)
        _open_apps.append(app)
        return app

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def app(new_app: Any, site: str) -> Iterator[App]:
    """One profile per test module: the app opened at the site's root, booted. A module that
    needs another start (a sub-path, an init script) defines its own `app`."""
    app = new_app(site)
    app.open()
    yield app
    app.context.close()


@pytest.fixture
def fresh_app(request: pytest.FixtureRequest) -> Iterator[None]:
    """For modules whose tests share the module's page (`pytestmark =
    pytest.mark.usefixtures("fresh_app")`): before each test, App.reset() (empty storage,
    default forms, a fresh start), so no test depends on what an earlier one left; not before
    the module's first, whose page has just been opened by its fixture and used by no test.
    Tests that open their own profile are left alone."""
    if "app" in request.fixturenames:
        app = request.getfixturevalue("app")
        if app.used:
            app.reset()
        app.used = True
    yield


@pytest.fixture(autouse=True)
def _page_guard() -> Iterator[None]:
    """After each test: no console/page error, no foreign request, no CSP violation. A page
    the test closed itself (its profile closed) is checked too, on what it logged while open."""
    yield
    for app in list(_open_apps):
        if app.page.is_closed():
            _open_apps.remove(app)
        app.check_clean()


def local_handle(request: dict[str, Any] | str) -> Any:
    """The same request answered by pyrules in this CPython."""
    from pyrules.api import handle

    text = request if isinstance(request, str) else json.dumps(request)
    return json.loads(handle(text))


def first_seed(request: dict[str, Any], wanted: Callable[[Any], Any], tries: int) -> int:
    """The first seed under `tries` whose local answer to `request` (with that seed) has
    `wanted(result)` true: a roll chosen for what it shows, found without guessing."""
    return next(
        seed
        for seed in range(tries)
        if wanted(local_handle({**request, "seed": seed})["result"])
    )


def signed(n: int) -> str:
    """A margin as the interface writes it: +3, 0, −2 (with a real minus sign)."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def outcome_label(system_id: str, outcome_id: str, lang: str = "fr") -> str:
    systems = local_handle({"op": "systems"})["result"]["systems"]
    system = next(s for s in systems if s["id"] == system_id)
    return str(next(o for o in system["outcomes"] if o["id"] == outcome_id)["label"][lang])


def percent_value(text: str) -> tuple[str, float]:
    """'55,7 %' -> ('=', 55.7); '< 0,1 %' -> ('<', 0.1)."""
    clean = "".join(ch for ch in text if not ch.isspace()).replace(",", ".").rstrip("%")
    relation = "="
    if clean[:1] in "<>":
        relation, clean = clean[0], clean[1:]
    return relation, float(clean)
