"""The shared table (issues 24 and 38) where only a browser shows it: a host and two
players, three contexts of one Chromium, on loopback with no ICE server, joined through the
screens. Every roll reaches the host, checked by its own engine, and is relayed to the other
player, whose own engine checks it again; the history shows who rolled, in their colour, and
each verdict. The protocol itself (the exchange, junk, floods, sheets, cut-offs) is tested
below the browser: tests/js/table-flow.test.js."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import App, local_handle
from .helpers import accept, check_screen, invite, make_darate, pick_character, show
from .helpers import join as join_by_screens

LOG = "() => window.pyrules.table.log()"


def log_has(app: App, predicate: str, arg: Any = None) -> Any:
    """Wait until some entry of the table log satisfies predicate (a JS arrow on an entry)."""
    handle = app.page.wait_for_function(
        f"(arg) => window.pyrules.table.log().find({predicate})", arg=arg
    )
    return handle.json_value()


def join(host: App, player: App, name: str) -> None:
    """Through the screens: invite, the link opened, Rejoindre, the answer pasted, Accepter."""
    join_by_screens(host, player, name)
    show(host, "roll")


def peers(app: App) -> list[dict[str, Any]]:
    return app.page.evaluate("() => window.pyrules.table.peers()")


def to_roll(app: App) -> None:
    show(app, "roll")


GREEN_DICE = """localStorage.getItem('pyrules:dice') === null
  && localStorage.setItem('pyrules:dice', JSON.stringify({colour: 'green'}));"""


def history_item(app: App, from_: str) -> Any:
    """The newest history entry of a roll that came from `from_` at the table (waited for)."""
    app.page.wait_for_selector(f"#history .history-entry[data-from={from_}]", state="attached")
    return app.page.locator(f"#history .history-entry[data-from={from_}]").first


@pytest.fixture(scope="module")
def table(new_app: Any, site: str) -> Iterator[tuple[App, App, App]]:
    host = new_app(site)
    one = new_app(site)
    two = new_app(site)
    for app in (host, one, two):
        # Three pages on a shared two-core machine: the waits end when their condition holds,
        # this is only how long a failing one takes to say so.
        app.page.set_default_timeout(120_000)
    # Aïcha's dice are green (her dice setting): the others see her rolls in that colour.
    one.context.add_init_script(GREEN_DICE)
    host.open()
    join(host, one, "Aïcha")
    join(host, two, "Bruno")
    yield host, one, two


def test_players_join_through_the_invite_and_answer_texts(table: tuple[App, App, App]) -> None:
    host, _one, two = table
    host.page.wait_for_function(
        "() => window.pyrules.table.peers().filter((p) => p.connected).length === 2"
    )
    assert [(p["id"], p["name"]) for p in peers(host)] == [("p1", "Aïcha"), ("p2", "Bruno")]
    # Each player sees the whole table, the GM first.
    two.page.wait_for_function("() => window.pyrules.table.peers().length === 3")
    assert [p["name"] for p in peers(two)][1:] == ["Aïcha", "Bruno"]
    # The table is a slice of each page's one store: its subscribers heard the players come.
    two.page.wait_for_function("() => window.pyrules.store.sizes().players === 3")
    host.page.wait_for_function("() => window.pyrules.store.sizes().players === 2")
    assert host.page.evaluate("() => window.pyrules.store.heard().table") >= 2


def test_a_players_roll_reaches_the_host_verified_and_the_other_player(
    table: tuple[App, App, App],
) -> None:
    host, one, two = table
    to_roll(one)
    one.roll()
    got = log_has(host, "(e) => e.from === 'p1'")
    assert got["verified"] is True, got
    assert got["status"] == "yes"
    relayed = log_has(two, "(e) => e.from === 'p1'")
    assert relayed["verified"] is True
    assert relayed["seed"] == got["seed"]
    assert relayed["outcome"] == got["outcome"]
    # The other player's history shows it, with who rolled, in her dice colour (the colour
    # travels with each roll), and the GM's verdict; the GM's history too. What was rolled
    # is in each device's own engine's words, never the sender's.
    mine = one.page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history'))[0]")
    rolled = {"system": mine["system"], "params": mine["params"]}
    words = local_handle({"op": "briefs", "rolls": [rolled]})["result"]["briefs"][0]["fr"]
    for app in (two, host):
        app.page.wait_for_function(
            "([text]) => document.querySelector("
            "'#history .history-entry[data-from=p1] .history-summary')?.textContent === text",
            arg=[words],
        )
        item = history_item(app, "p1")
        who = item.locator(".history-who--table")
        assert who.inner_text().strip() == "Aïcha"
        assert who.get_attribute("data-colour") == "green"
        assert item.locator(".history-dot circle").get_attribute("fill") == "#1e7a46"
        assert item.locator(".history-verdict").inner_text() == "«\u00a0vérifié\u00a0»"
    assert log_has(two, "(e) => e.from === 'p1'")["colour"] == "green"
    # The seed is the one the player's own device used.
    assert one.page.evaluate("() => window.pyrules.table.mine().at(-1).seed") == got["seed"]


def count(app: App) -> int:
    return int(app.page.evaluate("() => window.pyrules.table.log().length"))


def next_entry(app: App, before: int, who: str) -> Any:
    """The first entry from `who` after the first `before` entries of app's table log."""
    handle = app.page.wait_for_function(
        "([n, who]) => window.pyrules.table.log().slice(n).find((e) => e.from === who)",
        arg=[before, who],
    )
    return handle.json_value()


def test_a_tampered_roll_is_shown_not_verified_with_what_differed(
    table: tuple[App, App, App],
) -> None:
    host, one, two = table
    before, before_two = count(host), count(two)
    to_roll(one)
    one.page.evaluate("() => window.pyrules.debug.tamperNextTableRoll()")
    one.roll()
    got = next_entry(host, before, "p1")
    assert got["verified"] is False and got["status"] == "no", got
    assert any(d.startswith("result.margin") for d in got["diff"]), got["diff"]
    verdict = host.page.locator("#table-log .table-verdict--no").first
    assert "non vérifié" in verdict.inner_text()
    # The GM's history says it too, in red, with what differed.
    host.page.wait_for_selector("#history .history-entry[data-from=p1] .history-verdict--no")
    item = host.page.locator(
        "#history .history-entry[data-from=p1]:has(.history-verdict--no)"
    ).first
    assert item.locator(".history-verdict").inner_text() == "«\u00a0non vérifié\u00a0»"
    red = item.locator(".history-verdict").evaluate("(el) => getComputedStyle(el).color")
    assert red == "rgb(180, 35, 24)", red  # --danger
    differed = item.locator(".history-diff li").all_inner_texts()
    assert any(d.startswith("result.margin") for d in differed), differed
    assert next_entry(two, before_two, "p1")["verified"] is False
    # The next roll, untouched, is verified again, by the GM and by the other player (whose
    # check ends after the GM's: its entry is waited for before the next count is taken).
    before, before_two = count(host), count(two)
    one.roll()
    assert next_entry(host, before, "p1")["verified"] is True
    assert next_entry(two, before_two, "p1")["verified"] is True
    # An honest roll the GM's device alters on its way: the other player's own engine says so.
    before, before_two = count(host), count(two)
    host.page.evaluate("() => window.pyrules.debug.tamperNextRelay()")
    one.roll()
    assert next_entry(host, before, "p1")["verified"] is True
    relayed = next_entry(two, before_two, "p1")
    assert relayed["status"] == "no", relayed
    assert any(d.startswith("result.margin") for d in relayed["diff"]), relayed["diff"]
    verdict = "#history .history-entry[data-from=p1] .history-verdict--no"
    two.page.wait_for_selector(verdict, state="attached")


def test_a_seed_the_player_imposes_is_not_the_seed_used(table: tuple[App, App, App]) -> None:
    host, one, _two = table
    before = count(host)
    to_roll(one)
    one.set_seed(4242)
    one.roll()
    got = next_entry(host, before, "p1")
    assert got["verified"] is True, got
    assert got["seed"] != 4242
    shown = one.page.evaluate("() => window.pyrules.table.mine().at(-1).seed")
    assert shown == got["seed"]


def test_hidden_gm_rolls_stay_hidden(table: tuple[App, App, App]) -> None:
    host, one, two = table
    before_one, before_two = count(one), count(two)
    show(host, "table")
    host.page.check("#table-hidden")
    show(host, "roll")
    host.roll()
    for app, before in ((one, before_one), (two, before_two)):
        got = next_entry(app, before, "gm")
        assert got["hidden"] is True
        assert got["outcome"] is None and got["seed"] is None
    # Revealed later from the GM's Table screen: each player's own engine checks it then.
    show(host, "table")
    host.page.click("#table-log .table-reveal")
    for app in (one, two):
        shown = log_has(app, "(e) => e.revealed")
        assert shown["hidden"] is False and shown["status"] == "yes", shown
    host.page.wait_for_selector("#table-log .table-roll:has(.table-mark) >> text=révélé")
    assert host.page.locator("#table-log .table-reveal").count() == 0
    show(host, "table")
    host.page.uncheck("#table-hidden")
    show(host, "roll")
    before_one = count(one)
    host.roll()
    shown = next_entry(one, before_one, "gm")
    assert shown["hidden"] is False and shown["outcome"] is not None


def test_physical_dice_rolls_are_marked(table: tuple[App, App, App]) -> None:
    host, one, two = table
    before, before_two = count(host), count(two)
    to_roll(one)
    one.pick_system("pool")
    one.set_physical(True)
    faces = one.field("actor", "pool", "dice")
    one.page.wait_for_selector(faces)
    one.page.fill(faces, "1, 4, 1, 1, 6, 3")
    try:
        one.roll()
        got = next_entry(host, before, "p1")
        assert got["status"] == "physical" and got["verified"] is False, got
        assert got["seed"] is None
        assert next_entry(two, before_two, "p1")["status"] == "physical"
        show(host, "table")
        assert "dés physiques" in host.page.inner_text("#table-log")
    finally:
        one.set_physical(False)


def test_devices_that_cannot_reach_each_other_are_told_so(table: tuple[App, App, App]) -> None:
    host, _one, _two = table
    link = invite(host)
    number = link.split("#table=")[1].split(".")[0]
    # A well-formed answer whose only address nobody answers (TEST-NET-1, RFC 5737). The wait
    # for a channel is cut from 15 s to 2 s here: the same timer, not the same patience.
    answer = f"{number}.1~c~abcd~{'p' * 24}~{'A' * 43}~192.0.2.1_9"
    limits = host.page.evaluate("() => window.pyrules.debug.tableLimits({connect: 2000})")
    assert limits["connect"] == 15_000
    try:
        accept(host, answer)  # pasted into the GM's box, then Accepter
        host.page.wait_for_function(
            "() => document.getElementById('table-notice').innerText"
            ".includes('n’arrivent pas à se joindre')"
        )
    finally:  # the module's later joins keep the page's own patience
        host.page.evaluate("(limits) => window.pyrules.debug.tableLimits(limits)", limits)
    assert len(peers(host)) == 2
    # The GM's screen offers « Réessayer »: a fresh invite in one tap.
    assert host.page.is_visible("#table-failed")
    host.page.click("#table-retry")
    host.page.wait_for_selector("#table-invite:not([hidden]) #table-invite-qr svg")
    assert host.page.input_value("#table-invite-link") != link
    assert host.page.is_hidden("#table-failed")
    show(host, "roll")


def test_a_quick_roll_from_a_character_sheet_reaches_the_table(
    table: tuple[App, App, App],
) -> None:
    host, one, two = table
    before, before_two = count(host), count(two)
    make_darate(one)
    pick_character(one, "Darate")
    one.set_seed(77)  # imposed: a table roll does not use it
    one.page.click("#char-detail .entry-roll:has-text('Perception')")
    got = next_entry(host, before, "p1")
    assert got["verified"] is True, got
    assert got["system"] == "d6" and got["seed"] != 77
    assert next_entry(two, before_two, "p1")["seed"] == got["seed"]


def test_a_closed_player_is_shown_gone(table: tuple[App, App, App]) -> None:
    host, _one, two = table
    two.page.close()
    host.page.wait_for_function(
        "() => window.pyrules.table.peers().find((p) => p.id === 'p2').connected === false"
    )
    show(host, "table")
    assert host.page.get_attribute("#table-peers [data-id=p2]", "data-connected") == "false"


RAW_KEY = r"""() => [...document.querySelectorAll('#view-table *')]
    .flatMap((el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent)
      .concat(['aria-label', 'placeholder', 'title'].map((a) => el.getAttribute(a) || '')))
    .filter((text) => /\btable\.[a-z]/i.test(text))"""


def test_the_table_screen_fits_and_speaks_both_languages(table: tuple[App, App, App]) -> None:
    host, one, _two = table
    page = host.page
    show(host, "table")
    page.click("#table-host-button")  # an invite on screen, kept through the switches
    page.wait_for_selector("#table-invite:not([hidden]) #table-invite-qr svg")
    try:
        for code, title in (("en", "Shared table"), ("fr", "Table partagée")):
            page.click(f"button[data-lang={code}]")
            page.wait_for_function(
                "(t) => document.getElementById('table-title')?.textContent === t", arg=title
            )
            assert page.evaluate(RAW_KEY) == [], code
            # What was shown before the switch is still there (the last invite, one QR code).
            assert "#table=" in page.input_value("#table-invite-link")
            page.wait_for_selector("#table-invite-qr svg")
            assert page.locator("#table-invite-qr svg").count() == 1
        # The « moi / table » filter of the table's rolls.
        before = count(host)
        to_roll(one)
        one.roll()
        next_entry(host, before, "p1")
        show(host, "roll")
        host.roll()
        show(host, "table")
        froms = """() => [...document.querySelectorAll('#table-log .table-roll')]
            .map((li) => li.dataset.from)"""
        page.click(".table-filter[data-filter=mine]")
        mine = page.evaluate(froms)
        assert mine and set(mine) == {"me"}, mine
        page.click(".table-filter[data-filter=table]")
        others = page.evaluate(froms)
        assert "p1" in others and "me" not in others, others
        page.click(".table-filter[data-filter=all]")
        assert len(page.evaluate(froms)) == len(mine) + len(others)
        for width, height in ((360, 740), (768, 1024), (1024, 768)):
            page.set_viewport_size({"width": width, "height": height})
            check_screen(host, f"table {width}x{height}")  # no overflow, 44 px touch targets
    finally:
        page.click("button[data-lang=fr]")
        page.set_viewport_size({"width": 1024, "height": 768})
        show(host, "roll")


MARKS = """() => [...document.querySelectorAll('#history .history-entry')]
    .map((li) => li.dataset.from)"""


def test_the_history_filters_me_table_all_and_fits(table: tuple[App, App, App]) -> None:
    """The history's « Tout / Moi / Table » filter (a segmented control of radio buttons),
    remembered; the table's marks at the three sizes, in both languages."""
    host, _one, _two = table
    page = host.page
    show(host, "history")
    try:
        assert page.is_checked("#history-filter-all")
        everything = page.evaluate(MARKS)
        assert "" in everything and "p1" in everything, everything
        page.click("label[for=history-filter-table]")
        others = page.evaluate(MARKS)
        assert others and "" not in others, others
        # Remembered (the reload test checks it comes back).
        assert page.evaluate("() => localStorage.getItem('pyrules:history-filter')") == '"table"'
        page.keyboard.press("ArrowRight")  # a radio group: the arrow keys move the choice
        assert page.is_checked("#history-filter-all") or page.is_checked("#history-filter-mine")
        page.click("label[for=history-filter-mine]")
        mine = page.evaluate(MARKS)
        assert mine and set(mine) == {""}, mine
        assert len(mine) + len(others) == len(everything)
        count = page.inner_text("#history-count")
        rolls = "jet" if len(mine) < 2 else "jets"  # French: 0 and 1 singular
        assert f"{len(mine)} {rolls} sur {len(everything)}" == count, count
        page.click("label[for=history-filter-table]")
        page.click("button[data-lang=en]")
        page.wait_for_function(
            "() => document.querySelector('label[for=history-filter-mine]').textContent === 'Me'"
        )
        # English quotes its own way.
        assert page.locator(".history-verdict").first.inner_text().startswith("“")
        for width, height in ((360, 740), (768, 1024), (1024, 768)):
            page.set_viewport_size({"width": width, "height": height})
            check_screen(host, f"history {width}x{height}")  # no overflow, 44 px targets
    finally:
        page.click("button[data-lang=fr]")
        page.set_viewport_size({"width": 1024, "height": 768})
        show(host, "roll")


def test_the_gm_reloads_and_gets_the_table_back(table: tuple[App, App, App]) -> None:
    """The GM's page reloads: its table comes back (roster, log), every player gone; a player
    re-invited keeps its id, and what it rolled while cut off arrives « hors table »."""
    host, one, _two = table
    logged = count(host)
    show(host, "history")
    host.page.click("label[for=history-filter-mine]")
    host.reload()
    assert [(p["id"], p["name"], p["connected"]) for p in peers(host)] == [
        ("p1", "Aïcha", False),
        ("p2", "Bruno", False),
    ]
    assert count(host) == logged  # the table's rolls are still listed
    assert host.page.is_checked("#history-filter-mine")  # the history's filter was remembered
    host.page.click("label[for=history-filter-all]")
    show(host, "table")
    assert "Page rechargée" in host.page.inner_text("#table-notice")
    assert "rechargement" in host.page.inner_text("#table-host-state")
    # The player has lost the table; it keeps rolling.
    one.page.wait_for_selector("#table-player-state:not([data-state=connected])", state="attached")
    to_roll(one)
    one.roll()
    one.page.wait_for_function("() => window.pyrules.table.mine().at(-1).status === 'kept'")
    join(host, one, "Aïcha")
    late = next_entry(host, logged, "p1")
    assert late["status"] == "offline", late
    assert [(p["id"], p["connected"]) for p in peers(host)] == [("p1", True), ("p2", False)]
    item = history_item(host, "p1")
    assert item.locator(".history-verdict").inner_text() == "«\u00a0hors table\u00a0»"
    before = count(host)
    to_roll(one)
    one.roll()
    assert next_entry(host, before, "p1")["verified"] is True
    show(host, "table")
    host.page.click("#table-close")
    host.page.wait_for_function("() => localStorage.getItem('pyrules:table-host') === 'null'")
