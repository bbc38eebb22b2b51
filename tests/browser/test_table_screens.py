"""The shared table as people use it (issue 38): a GM and two players on three devices that
have never met (three Chromium contexts, loopback, no ICE server), through the screens alone.
No `window.pyrules.table` call: the invite link is read from its text box, the answer from
the player's, and pasted into the GM's; rolls are made with the Roll button; what is checked is
what the screens show."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import App
from .helpers import check_screen, invite, join, show

PHONE = {"width": 360, "height": 740}


def roll(app: App) -> None:
    show(app, "roll")
    app.page.wait_for_selector("#roll-button:not([disabled])")
    app.roll()


def feed_entry(gm: App, name: str, nth: int = 0) -> Any:
    """The GM's table feed, newest first: the nth entry of `name`, waited for."""
    show(gm, "table")
    entry = gm.page.locator(f"#table-log .table-roll:has(.table-who:text-is('{name}'))").nth(nth)
    entry.wait_for()
    return entry


@pytest.fixture(scope="module")
def devices(new_app: Any, site: str) -> Iterator[tuple[App, App, App]]:
    gm = new_app(site, has_touch=True)
    one = new_app(site, has_touch=True)
    two = new_app(site, has_touch=True)
    for app in (gm, one, two):
        app.page.set_default_timeout(
            120_000
        )  # three pages on two busy cores: how long a failure takes to say so
    gm.open()
    yield gm, one, two


def test_a_fresh_gm_device_hosts_and_two_players_join_through_the_screens(
    devices: tuple[App, App, App],
) -> None:
    gm, one, two = devices
    # A fresh device: the Table screen is drawn when its tab is shown, with the GM's block.
    show(gm, "table")
    assert gm.page.is_visible("#table-host-button")
    assert gm.page.is_hidden("#table-join")
    join(gm, one, "Aïcha")
    join(gm, two, "Bruno")
    # Each player sees the whole table, the GM first.
    two.page.wait_for_selector("#table-peers .table-peer:has-text('Aïcha')")
    names = two.page.locator("#table-peers .table-peer strong").all_inner_texts()
    assert names == ["MJ", "Aïcha", "Bruno"], names


def test_a_players_roll_reaches_the_gm_with_its_number_and_is_announced(
    devices: tuple[App, App, App],
) -> None:
    gm, one, two = devices
    show(gm, "history")  # whatever screen the GM has open
    roll(one)
    shown = one.page.text_content("[data-roll-stage] [data-headline]") or ""
    toast = gm.page.locator("#table-toasts .table-toast[data-from=p1]").first
    toast.wait_for()
    assert "Aïcha" in toast.inner_text() and shown in toast.inner_text(), toast.inner_text()
    assert "vérifié" in toast.inner_text()
    entry = feed_entry(gm, "Aïcha")
    # The line leads with the number rolled and the verdict; the seed is under the details.
    assert entry.locator(".table-number").inner_text() == shown
    assert entry.locator(".table-verdict").inner_text() == "«\u00a0vérifié\u00a0»"
    line = entry.locator(".table-line").inner_text() + entry.locator(".table-by").inner_text()
    entry.locator(".table-details > summary").click()
    entry.locator(".table-details .result-card").wait_for()  # drawn at the first opening
    seed = re.search(r"Graine\s*:?\s*(\d+)", entry.locator(".table-details").inner_text())
    assert seed and seed.group(1) not in line, (seed, line)
    # Under it, the dice as the roller saw them.
    assert entry.locator(".table-details .result-card").count() == 1
    entry.scroll_into_view_if_needed()
    gm.screenshot("table-feed-1024x768")
    # The other player's own engine checked the relayed roll.
    mine = feed_entry(two, "Aïcha")
    assert mine.locator(".table-verdict").inner_text() == "«\u00a0vérifié\u00a0»"
    assert mine.locator(".table-number").inner_text() == shown


def test_unused_invites_never_fill_the_table(devices: tuple[App, App, App]) -> None:
    gm, _one, _two = devices
    links = {invite(gm) for _ in range(10)}
    assert len(links) == 10
    assert "pleine" not in gm.page.inner_text("#table-notice")


def test_a_player_who_reloads_is_told_and_its_rolls_reach_the_gm_once_back(
    devices: tuple[App, App, App],
) -> None:
    gm, one, _two = devices
    one.reload()
    show(one, "table")
    one.page.wait_for_selector("#table-player-state[data-state=away]")
    assert "Vous étiez à la table de MJ" in one.page.inner_text("#view-table")
    gm.page.wait_for_selector("#table-peers .table-peer[data-connected=false]:has-text('Aïcha')")
    before = gm.page.locator("#table-log .table-roll:has(.table-who:text-is('Aïcha'))").count()
    roll(one)
    show(one, "table")
    assert one.page.locator("#table-log .table-roll[data-status=kept]").count() >= 1
    join(gm, one, "Aïcha")
    feed_entry(gm, "Aïcha", before)  # one more of hers than before
    entry = feed_entry(gm, "Aïcha", 0)
    assert entry.locator(".table-verdict").inner_text() == "«\u00a0hors table\u00a0»"
    # At its own place again: one Aïcha on the GM's list.
    assert gm.page.locator("#table-peers .table-peer:has-text('Aïcha')").count() == 1


def test_the_table_on_a_phone(new_app: Any, site: str) -> None:
    """The same through the screens at 360×740 with touch: host, join, roll, the number on
    the GM's feed, and the player told when the GM closes the table."""
    gm = new_app(site, viewport=PHONE, has_touch=True, is_mobile=True)
    player = new_app(site, viewport=PHONE, has_touch=True, is_mobile=True)
    for app in (gm, player):
        app.page.set_default_timeout(120_000)
    gm.open()
    join(gm, player, "Chloé")
    roll(player)
    shown = player.page.text_content("[data-roll-stage] [data-headline]") or ""
    entry = feed_entry(gm, "Chloé")
    assert entry.locator(".table-number").inner_text() == shown
    check_screen(gm, "table 360x740")
    gm.screenshot("table-gm-phone")
    # Unused invites, then the player's page reloads: it is told, rolls, rejoins.
    for _ in range(3):
        invite(gm)
    player.reload()
    show(player, "table")
    player.page.wait_for_selector("#table-player-state[data-state=away]")
    check_screen(player, "table, away, 360x740")
    roll(player)
    join(gm, player, "Chloé")
    first = feed_entry(gm, "Chloé", 1)  # waits for her second roll, arrived once she was back
    assert first.locator(".table-verdict").inner_text() == "«\u00a0vérifié\u00a0»"
    offline = feed_entry(gm, "Chloé", 0).locator(".table-verdict").inner_text()
    assert offline == "«\u00a0hors table\u00a0»"
    show(gm, "table")
    gm.page.click("#table-close")
    # Told over whatever screen is open (the roller, here), and on its Table screen.
    player.page.wait_for_selector("#table-toasts .table-toast:has-text('Le MJ a fermé la table')")
    show(player, "table")
    assert "Le MJ a fermé la table" in player.page.inner_text("#table-notice")
    assert player.page.get_attribute("#table-player-state", "data-state") == "none"
    gm.context.close()
    player.context.close()


def test_the_gm_watches_a_players_dice_land_in_the_players_colour(
    new_app: Any, site: str
) -> None:
    """At 768×1024 with motion: the GM's device throws a player's roll on its own stage (its
    setting, on by default on the GM's device), with 3D dice in the player's dice colour."""
    portrait = {"width": 768, "height": 1024}
    gm = new_app(site, viewport=portrait, has_touch=True, reduced_motion="no-preference")
    player = new_app(site, viewport=portrait, has_touch=True)
    for app in (gm, player):
        app.page.set_default_timeout(120_000)
    gm.open()
    join(gm, player, "Aïcha")
    show(gm, "table")
    assert gm.page.is_checked("#table-play")  # the GM's default
    show(player, "roll")
    player.page.click("label[for=dice-colour-green]")  # her dice setting
    roll(player)
    gm.page.wait_for_selector("[data-roll-stage][data-state=landed]")
    colours = gm.page.evaluate(
        "() => window.pyrules.modules.stage.scene3d().scene.meshes.map((m) => m.userData.colour)"
    )
    assert colours and set(colours) == {"green"}, colours
    shown = player.page.text_content("[data-roll-stage] [data-headline]")
    assert gm.page.text_content("[data-roll-stage] [data-headline]") == shown
    gm.screenshot("table-gm-stage-768x1024")
    gm.context.close()
    player.context.close()
