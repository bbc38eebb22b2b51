"""The built site in the two other browser engines: WebKit (what every iPad browser runs) and
Firefox. Every test here runs in both, marked `webkit` or `firefox`:
`python build.py test -m "webkit or firefox"` runs just them.

- WebKit: Debian's WebKitWebDriver (webkit2gtk-driver) driving MiniBrowser under an Xvfb these
  fixtures start, through selenium's webdriver.WebKitGTK with the driver's path given in its
  Service, so selenium-manager never runs (a guard makes it fail the test if it did).
- Firefox: Debian's firefox-esr, headless, with --remote-debugging-port=0 and a fresh profile,
  driven over WebDriver BiDi by tests/engines/bidi.py (no geckodriver).

Both are reached through one small `Engine` interface, so the tests are written once. Each
waits for a condition, never for a duration. A missing browser skips the tests with the
reason, except on Debian, where `python build.py test` installs it: there it is a failure.
"""

from __future__ import annotations

import glob
import json
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import build

from .bidi import Firefox, write_profile

#: Long enough for a fresh Pyodide boot on a busy two-core machine; the tests end as soon as
#: the condition holds.
TIMEOUT_S = 240
#: How long a script may run in WebKit, and how long its driver may take to answer one
#: request (longer: a request may be such a script).
SCRIPT_TIMEOUT_S = TIMEOUT_S + 30
HTTP_TIMEOUT_S = SCRIPT_TIMEOUT_S + 60
TABLET = (1024, 768)


def absent(what: str, package: str) -> None:
    """Skip (not Debian) or fail (Debian: build.py test installs it) for a missing browser."""
    message = f"{what} not found (Debian package {package})"
    if build.is_debian():
        pytest.fail(f"{message}: `python build.py test` installs it (as root)")
    pytest.skip(f"{message}: the {what} tests need it")


#: The element `args[0]` is in view and what is at its centre is itself or inside it.
UNCOVERED = """(() => {
  const element = document.querySelector(args[0]);
  if (!element) return false;
  element.scrollIntoView({ block: "nearest" });
  const r = element.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return Boolean(hit && (hit === element || element.contains(hit)));
})()"""
#: What is at the centre of the element `args[0]`, as tag#id.class.
COVERING = """const r = document.querySelector(args[0]).getBoundingClientRect();
const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
return hit ? `${hit.tagName}#${hit.id}.${[...hit.classList].join(".")}` : null;"""


class Engine:
    """One browser window, whichever the engine: what the tests need of it."""

    name = ""

    def open(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def js(self, body: str, *args: Any) -> Any:
        """Run `body` as the body of an async function of `args` in the page; its value
        (JSON-able)."""
        raise NotImplementedError

    def click(self, selector: str) -> None:
        raise NotImplementedError

    def relaunch(self) -> None:
        """Open a new window on the same profile (its service worker and caches kept)."""
        raise NotImplementedError

    def quit(self) -> None:
        raise NotImplementedError

    # -- shared ---------------------------------------------------------------------------

    def wait(self, condition: str, *args: Any, timeout: float = TIMEOUT_S) -> Any:
        """Wait in the page until the JS expression `condition` (args as `args`) is truthy; its
        value. Checked again every 50 ms until it holds: a wait for a state, not for a time."""
        # The condition is part of the script's text (the page's CSP forbids eval).
        return self.js(
            """
            const [limit, ...rest] = args;
            const test = async (args) => (__CONDITION__);
            const until = performance.now() + limit;
            for (;;) {
              let value = null;
              try { value = await test(rest); } catch (error) { value = null; }
              if (value) return value;
              if (performance.now() > until) throw new Error("timed out waiting");
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            """.replace("__CONDITION__", condition),
            timeout * 1000,
            *args,
        )

    def wait_ready(self) -> None:
        """The engine is ready and the play screens (app/play.js) have read the characters."""
        self.wait(
            "performance.getEntriesByName('pyrules:ready').length > 0"
            " && window.pyrules.playScreens === 'loaded'"
        )

    def call(self, request: Any) -> Any:
        return self.js("return await window.pyrules.call(args[0]);", request)

    def marks(self) -> list[str]:
        names: list[str] = self.js(
            "return performance.getEntriesByType('mark').map((m) => m.name);"
        )
        return names


class WebKit(Engine):
    name = "webkit"

    def __init__(self, driver_path: str, browser: str | None, env: dict[str, str]) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        if browser:
            options.binary_location = browser
        options.add_argument("--automation")
        # Selenium waits for each answer of the driver as long as the socket default allows,
        # that is for ever: a driver that died (seen once beside two CPU hogs) then hung the
        # run. This driver's requests give up after HTTP_TIMEOUT_S instead, longer than any
        # script is allowed to run (selenium reads the default when the driver is made).
        previous = socket.getdefaulttimeout()
        socket.setdefaulttimeout(HTTP_TIMEOUT_S)
        try:
            self.driver = webdriver.WebKitGTK(
                options=options, service=Service(executable_path=driver_path, env=env)
            )
        finally:
            socket.setdefaulttimeout(previous)
        self.driver.set_script_timeout(SCRIPT_TIMEOUT_S)
        self.driver.set_window_rect(0, 0, *TABLET)

    def open(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def js(self, body: str, *args: Any) -> Any:
        text = self.driver.execute_async_script(
            """
            const done = arguments[arguments.length - 1];
            (async (...args) => { __BODY__ })(...arguments[0]).then(
              (value) => done(JSON.stringify({ value: value === undefined ? null : value })),
              (error) => done(JSON.stringify({ error: String((error && error.stack) || error) })),
            );
            """.replace("__BODY__", body),
            list(args),
        )
        answer = json.loads(text)
        if "error" in answer:
            raise AssertionError(f"script threw in WebKit: {answer['error']}")
        return answer["value"]

    def click(self, selector: str) -> None:
        from selenium.webdriver.common.by import By

        # WebDriver refuses a click whose point another element covers (a notice coming and
        # going, the stage closing): wait until nothing does, then click; if something stays,
        # say what.
        try:
            self.wait(UNCOVERED, selector, timeout=20)
        except AssertionError:
            covered = self.js(COVERING, selector)
            raise AssertionError(f"{selector} stays covered by {covered}") from None
        self.driver.find_element(By.CSS_SELECTOR, selector).click()

    def relaunch(self) -> None:
        # A WebKitGTK automation session keeps its website data in memory only: a new session
        # would start empty. So the "relaunch" is a new top-level window of the same session,
        # the old one closed: the page and its worker start from nothing but the storage.
        old = self.driver.current_window_handle
        self.driver.switch_to.new_window("window")
        new = self.driver.current_window_handle
        self.driver.switch_to.window(old)
        self.driver.close()
        self.driver.switch_to.window(new)

    def quit(self) -> None:
        self.driver.quit()


class FirefoxEngine(Engine):
    name = "firefox"

    def __init__(self, binary: str, profile: Path) -> None:
        self.binary = binary
        self.profile = profile
        self.browser = Firefox(binary, profile, timeout=TIMEOUT_S + 60)

    def open(self, url: str) -> None:
        self.browser.navigate(url)

    def reload(self) -> None:
        self.browser.reload()

    def js(self, body: str, *args: Any) -> Any:
        return self.browser.js(body, *args)

    def click(self, selector: str) -> None:
        # Scrolled into view, then a real pointer click at its centre.
        x, y = self.js(
            """
            const element = document.querySelector(args[0]);
            element.scrollIntoView({ block: "center" });
            const r = element.getBoundingClientRect();
            return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
            """,
            selector,
        )
        self.browser.click_at(x, y)

    def relaunch(self) -> None:
        # The whole browser quits and starts again on the same profile directory.
        self.browser.close()
        self.browser = Firefox(self.binary, self.profile, timeout=TIMEOUT_S + 60)

    def quit(self) -> None:
        self.browser.close()


# --------------------------------------------------------------------------- browsers


def webkit_tools() -> tuple[str, str | None, str]:
    driver = shutil.which("WebKitWebDriver")
    if driver is None:
        absent("WebKitWebDriver", "webkit2gtk-driver")
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        absent("Xvfb", "xvfb")
    browsers = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser"))
    assert driver and xvfb
    return driver, (browsers[0] if browsers else None), xvfb


def firefox_binary() -> str:
    binary = shutil.which("firefox-esr") or shutil.which("firefox")
    if binary is None:
        absent("Firefox", "firefox-esr")
    assert binary
    return binary


@pytest.fixture(scope="session")
def xvfb_display(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An X display of our own (Xvfb picks a free number and tells it on a pipe)."""
    _, _, xvfb = webkit_tools()
    process = subprocess.Popen(
        [xvfb, "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    number = process.stdout.readline().strip()  # blocks until the display is up
    assert number.isdigit(), f"Xvfb did not start (exit {process.poll()})"
    yield f":{number}"
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture
def no_selenium_manager(monkeypatch: pytest.MonkeyPatch) -> None:
    """selenium-manager downloads drivers: it must never run (the driver is given)."""
    from selenium.webdriver.common import selenium_manager

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("selenium-manager ran: the WebKitWebDriver path was not used")

    monkeypatch.setattr(selenium_manager.SeleniumManager, "binary_paths", refuse)


@pytest.fixture(
    params=[
        pytest.param("webkit", marks=pytest.mark.webkit),
        pytest.param("firefox", marks=pytest.mark.firefox),
    ]
)
def engine_name(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def launch(
    engine_name: str, request: pytest.FixtureRequest, no_selenium_manager: None
) -> Iterator[Callable[[], Engine]]:
    """Factory: a new browser of the test's engine on a fresh profile (closed after the test)."""
    started: list[Engine] = []
    profiles: list[str] = []

    def make() -> Engine:
        profile = Path(tempfile.mkdtemp(prefix=f"pyrules-{engine_name}-"))
        profiles.append(str(profile))
        engine: Engine
        if engine_name == "webkit":
            driver, browser, _ = webkit_tools()
            display = request.getfixturevalue("xvfb_display")
            env = {
                "PATH": "/usr/bin:/bin",
                "HOME": str(profile),
                "DISPLAY": display,
                "XDG_DATA_HOME": str(profile / "data"),
                "XDG_CACHE_HOME": str(profile / "cache"),
                "XDG_CONFIG_HOME": str(profile / "config"),
                "XDG_RUNTIME_DIR": str(profile / "run"),
                "LIBGL_ALWAYS_SOFTWARE": "1",
            }
            (profile / "run").mkdir(mode=0o700)
            engine = WebKit(driver, browser, env)
        else:
            write_profile(profile / "profile")
            engine = FirefoxEngine(firefox_binary(), profile / "profile")
        started.append(engine)
        return engine

    yield make
    for engine in started:
        engine.quit()
    for profile in profiles:
        shutil.rmtree(profile, ignore_errors=True)
