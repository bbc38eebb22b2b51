"""The shared table (issue 24) across engines: the GM's device in Chromium, a player in
Firefox (WebDriver BiDi) or WebKitGTK, on loopback with no ICE server. The player joins
through the invite and answer texts, its roll reaches the host verified, and the GM's roll
reaches the player."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import build

from .conftest import TIMEOUT_S, Engine


@pytest.fixture
def chromium_host(playwright_instance: Any) -> Iterator[Any]:
    """A Chromium page (Playwright, the session's one: tests/conftest.py), for the GM's
    device."""
    path = build.find_chromium()
    if path is None:
        pytest.skip("no Chromium for the host")
    browser = playwright_instance.chromium.launch(
        executable_path=path, args=build.CHROMIUM_ARGS, headless=True
    )
    page = browser.new_page(viewport={"width": 1024, "height": 768}, locale="fr-FR")
    page.set_default_timeout(TIMEOUT_S * 1000)
    yield page
    browser.close()


def test_a_player_in_another_engine_joins_and_rolls_verified(
    launch: Callable[[], Engine], chromium_host: Any, dist_dir: Any
) -> None:
    host = chromium_host
    player = launch()
    # Asked of the browser before either app boots: a build without WebRTC skips at once.
    if not player.js("return typeof RTCPeerConnection === 'function';"):
        pytest.skip(f"{player.name}: no WebRTC in this build of the browser")
    with build.serving(dist_dir) as url:
        host.goto(url)
        host.wait_for_function("() => performance.getEntriesByName('pyrules:ready').length > 0")
        # Through the screens: the GM's invite, the player's Rejoindre, the answer pasted.
        host.click("#tab-table")
        host.click("#table-host-button")
        host.wait_for_selector("#table-invite:not([hidden]) #table-invite-qr svg")
        link = host.input_value("#table-invite-link")
        player.open(link)
        player.wait_ready()
        player.wait("!document.getElementById('table-join').hidden")
        player.click("#table-join-button")
        answer = player.wait(
            "!document.getElementById('table-answer').hidden"
            " && document.querySelector('#table-answer-qr svg')"
            " && document.getElementById('table-answer-out').value"
        )
        host.fill("#table-answer-in", answer)
        host.click("#table-accept")
        player.wait("window.pyrules.table.peers().length === 2")
        host.wait_for_selector("#table-peers .table-peer[data-connected=true]")
        player.click("#tab-roll")
        player.wait("!document.getElementById('roll-button').disabled")
        player.click("#roll-button")
        got = host.wait_for_function(
            "() => window.pyrules.table.log().find((e) => e.from === 'p1')"
        ).json_value()
        assert got["verified"] is True, got
        mine = player.wait("window.pyrules.table.mine().find((e) => e.status === 'sent')")
        assert mine["seed"] == got["seed"]
        # The GM's roll reaches the player.
        host.click("#tab-roll")
        host.click("#roll-button")
        seen = player.wait("window.pyrules.table.log().find((e) => e.from === 'gm')")
        assert seen["hidden"] is False and seen["outcome"] is not None
