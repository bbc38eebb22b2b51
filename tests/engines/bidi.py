"""A small WebDriver BiDi client for Firefox, over one websocket (websocket-client, pinned in
pyproject's [test] extra). No geckodriver: Firefox started with --remote-debugging-port=0
serves BiDi itself and prints the websocket's address on stderr.

Only what the engine tests need: a session, one browsing context, navigate / reload, evaluate a
script (its value comes back as JSON text), and a real pointer click at a point of the page.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import subprocess
import threading
from pathlib import Path
from typing import Any

import websocket  # websocket-client

LISTENING = re.compile(r"WebDriver BiDi listening on (ws://\S+)")
#: A fresh profile for each launch: no first-run pages, no updates, nothing asked of the network.
PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "extensions.update.enabled": False,
}


class BiDiError(Exception):
    """An error answer to a BiDi command, or a script that threw."""


def write_profile(profile: Path) -> None:
    profile.mkdir(parents=True, exist_ok=True)
    lines = [f"user_pref({json.dumps(k)}, {json.dumps(v)});" for k, v in PREFS.items()]
    (profile / "user.js").write_text("\n".join(lines) + "\n", encoding="utf-8")


class Firefox:
    """One Firefox process (headless) and one BiDi session on its first tab."""

    def __init__(self, binary: str, profile: Path, timeout: float = 120) -> None:
        self.timeout = timeout
        self.log: list[str] = []
        self.process = subprocess.Popen(
            [
                binary,
                "--headless",
                "--remote-debugging-port=0",
                "--no-remote",
                "--profile",
                str(profile),
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        address = self._address()
        self.ws = websocket.create_connection(
            address + "/session", timeout=timeout, suppress_origin=True
        )
        self._ids = itertools.count(1)
        self.send("session.new", {"capabilities": {}})
        tree = self.send("browsingContext.getTree", {})
        self.context = tree["contexts"][0]["context"]

    def _address(self) -> str:
        assert self.process.stderr is not None
        found: list[str] = []
        ready = threading.Event()

        def drain() -> None:  # keeps reading, so Firefox never blocks on a full pipe
            assert self.process.stderr is not None
            for line in self.process.stderr:
                self.log.append(line.rstrip("\n"))
                match = LISTENING.search(line)
                if match and not found:
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        threading.Thread(target=drain, name="firefox-stderr", daemon=True).start()
        ready.wait(self.timeout)
        if not found:
            self.close()
            raise BiDiError("Firefox did not start its BiDi server:\n" + "\n".join(self.log[-20:]))
        return found[0]

    def send(self, method: str, params: dict[str, Any]) -> Any:
        """One command; its result (events that come in between are dropped)."""
        number = next(self._ids)
        self.ws.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") != number:
                continue
            if message.get("type") == "error":
                raise BiDiError(f"{method}: {message.get('error')}: {message.get('message')}")
            return message["result"]

    def navigate(self, url: str) -> None:
        self.send(
            "browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"}
        )

    def reload(self) -> None:
        self.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def js(self, body: str, *args: Any) -> Any:
        """Run `body` as an async function of `args` in the page; its JSON-able value."""
        expression = (
            f"(async (...args) => {{ {body} }})(...{json.dumps(list(args))})"
            ".then((value) => JSON.stringify(value === undefined ? null : value))"
        )
        answer = self.send(
            "script.evaluate",
            {
                "expression": expression,
                "target": {"context": self.context},
                "awaitPromise": True,
                "resultOwnership": "none",
            },
        )
        if answer["type"] == "exception":
            details = answer["exceptionDetails"]
            raise BiDiError(f"script threw: {details.get('text')}")
        return json.loads(answer["result"]["value"])

    def click_at(self, x: int, y: int) -> None:
        """A real mouse click (pointer down and up) at (x, y) of the viewport."""
        self.send(
            "input.performActions",
            {
                "context": self.context,
                "actions": [
                    {
                        "type": "pointer",
                        "id": "mouse",
                        "parameters": {"pointerType": "mouse"},
                        "actions": [
                            {"type": "pointerMove", "x": x, "y": y},
                            {"type": "pointerDown", "button": 0},
                            {"type": "pointerUp", "button": 0},
                        ],
                    }
                ],
            },
        )

    def close(self) -> None:
        """End the session and the process (so its profile can be opened again)."""
        try:
            if getattr(self, "ws", None) is not None:
                with contextlib.suppress(BiDiError, OSError, websocket.WebSocketException):
                    self.send("browser.close", {})
                self.ws.close()
        finally:
            try:
                self.process.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
