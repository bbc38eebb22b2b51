#!/usr/bin/python3
"""A small WebKitGTK shell that prints the console of a page and of its workers.

For debugging a WebKit failure (the iPad's engine): WebKitWebDriver's MiniBrowser does not
print the console of the windows WebDriver opens, so a failing test in tests/engines/ says
what did not happen, not why. This opens the page in a WebKitGTK web view of its own with
"write console messages to stdout" on: every console message of the page and of its
dedicated workers (the Pyodide worker) comes out of the web process, on standard error, as
`<script URL>:<line>:<column>: CONSOLE LOG|ERROR|WARN … `; the shell's own lines (`SHELL …`)
are on standard output. It runs under Debian's Python, which has PyGObject (python3-gi) and
gir1.2-webkit2-4.1, in an X server (Xvfb):

    python build.py                          # dist/ up to date
    xvfb-run -a /usr/bin/python3 tests/engines/webkit_console.py
    xvfb-run -a /usr/bin/python3 tests/engines/webkit_console.py \\
        --then "window.pyrules.call({op: 'roll', system: 'pool', params: {}})"
    xvfb-run -a /usr/bin/python3 tests/engines/webkit_console.py http://127.0.0.1:8000/

With no URL, dist/ is served on 127.0.0.1 (build.serving, the test server). The shell waits
until `--until` is true in the page (default: the app's `pyrules:ready` mark), then runs
`--then` (its value, awaited, is printed as JSON), and exits 0; 1 if `--timeout` passes first.
Not part of the test run: a tool, like bench/.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
READY = "performance.getEntriesByName('pyrules:ready').length > 0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", help="page to open (default: dist/, served here)")
    parser.add_argument("--until", default=READY, help="JS expression to wait for")
    parser.add_argument("--then", default="", help="JS expression to run once ready")
    parser.add_argument("--timeout", type=float, default=240, help="seconds")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        url = args.url
        if not url:
            sys.path.insert(0, str(ROOT))
            import build

            url = stack.enter_context(build.serving(build.DIST))
        return run(url, args.until, args.then, args.timeout)


def run(url: str, until: str, then: str, timeout: float) -> int:
    outcome = {"code": 1}
    view = WebKit2.WebView()
    settings = view.get_settings()
    settings.set_enable_write_console_messages_to_stdout(True)
    settings.set_enable_developer_extras(True)
    window = Gtk.Window()
    window.set_default_size(1024, 768)
    window.add(view)
    window.show_all()

    def say(text: str) -> None:
        print(text, flush=True)

    def finish(code: int) -> bool:
        outcome["code"] = code
        Gtk.main_quit()
        return False

    def evaluate(script: str, done: Any) -> None:
        def callback(source: Any, result: Any) -> None:
            try:
                value = source.evaluate_javascript_finish(result)
                done(json.loads(value.to_json(0)) if value and not value.is_undefined() else None)
            except GLib.Error as error:
                done(error)

        view.evaluate_javascript(script, -1, None, None, None, callback)

    def poll() -> bool:
        def checked(value: Any) -> None:
            if value is True:
                say(f"SHELL ready: {until}")
                if not then:
                    finish(0)
                    return
                wrapped = f"Promise.resolve({then}).then((v) => JSON.stringify(v ?? null))"
                view.call_async_javascript_function(
                    f"return await {wrapped};", -1, None, None, None, None, after_then)
            else:
                GLib.timeout_add(200, poll)

        evaluate(f"Boolean({until})", checked)
        return False

    def after_then(source: Any, result: Any) -> None:
        try:
            value = source.call_async_javascript_function_finish(result)
            say(f"SHELL then: {value.to_string()}")
            finish(0)
        except GLib.Error as error:
            say(f"SHELL then failed: {error.message}")
            finish(1)

    def loaded(_view: Any, event: Any) -> None:
        if event == WebKit2.LoadEvent.FINISHED:
            say(f"SHELL loaded {view.get_uri()}")
            poll()

    def crashed(_view: Any) -> bool:
        say("SHELL the web process crashed")
        return finish(1)

    def timed_out() -> bool:
        say(f"SHELL timeout: {until} still false after {timeout:.0f} s")
        return finish(1)

    view.connect("load-changed", loaded)
    view.connect("web-process-terminated", lambda v, reason: crashed(v))
    GLib.timeout_add(int(timeout * 1000), timed_out)
    view.load_uri(url)
    Gtk.main()
    return outcome["code"]


if __name__ == "__main__":
    sys.exit(main())
