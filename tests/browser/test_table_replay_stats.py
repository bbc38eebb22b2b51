"""Table play: replay links (share dialog, clipboard and its fallback, a link opened in a
fresh page or by a hash change shows the same dice marked "Rejeu", nothing recorded unless
asked, a broken link refused) and session statistics (luck percentiles stored with each
roll, counts of criticals and fumbles, histogram, per character, new session), with
screenshots at tablet and phone sizes.

One page for the module (one boot), but every test starts from a first visit (`App.reset`)
and makes the rolls it reads itself: any test runs alone, in any order."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import App, first_seed, local_handle
from .helpers import SMALL_TARGETS, wait_luck

SYSTEMS = {s["id"]: s for s in local_handle({"op": "systems"})["result"]["systems"]}
OPPOSE_CARD = """(c) => ({winner: c.dataset.winner,
    faces: [...c.querySelectorAll('.die-cell')].map(d => Number(d.dataset.face))})"""
FACES = {
    s: {f["name"] for f in SYSTEMS[s]["fields"] if f["type"] in ("faces", "placement")}
    for s in SYSTEMS
}


@pytest.fixture(scope="module")
def app(new_app: Any, site: str) -> Iterator[App]:
    app = new_app(site)
    app.context.grant_permissions(["clipboard-read", "clipboard-write"])
    app.open()
    yield app
    app.context.close()


@pytest.fixture(autouse=True)
def fresh(app: App) -> Iterator[None]:
    """Empty history, new session, default forms: nothing left by another test."""
    app.reset()
    yield


def history(app: App) -> list[dict[str, Any]]:
    return app.page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history') || '[]')")


def card(app: App) -> dict[str, Any]:
    return app.page.eval_on_selector(
        "#result",
        """(area) => ({
            outcome: area.querySelector('.result-card').dataset.outcome,
            faces: [...area.querySelectorAll('.die-cell')].map((d) => Number(d.dataset.face)),
            badge: area.querySelector('.replay-badge')?.textContent ?? null,
        })""",
    )


def roll_main(app: App, system: str, seed: int, **values: Any) -> None:
    page = app.page
    app.pick_system(system)
    for name, value in values.items():
        page.fill(app.field("actor", system, name), str(value))
    app.settle()
    count = len(history(app))
    app.set_seed(seed)
    app.roll()
    page.wait_for_function(
        "(n) => JSON.parse(localStorage.getItem('pyrules:history') || '[]').length === n",
        arg=count + 1,
    )


def expected_luck(system: str, params: dict[str, Any], margin: int) -> float:
    clean = {k: v for k, v in params.items() if k not in FACES[system]}
    answer = local_handle({"op": "luck", "system": system, "params": clean, "margins": [margin]})
    return float(answer["result"]["percentiles"][0])


def roll_four(app: App) -> None:
    """Four rolls without a character: a critical success (pool, easy), a critical failure
    (d100, hopeless), two plain rolls."""
    pool = {"pot": 12, "diff": 1, "flame": 0}
    crit = first_seed(
        {"op": "roll", "system": "pool", "params": pool},
        lambda r: r["outcome"] == "critical_success",
        100,
    )
    roll_main(app, "pool", crit, **pool)
    d100 = {"value": 5, "modifier": 0}
    fumble = first_seed(
        {"op": "roll", "system": "d100", "params": d100},
        lambda r: r["outcome"] == "critical_failure",
        200,
    )
    roll_main(app, "d100", fumble, **d100)
    roll_main(app, "d100", 11, value=60)
    roll_main(app, "steps", 12)


def share(app: App, index: int = 0) -> str:
    page = app.page
    page.click(f"#history .history-entry >> nth={index} >> .history-share")
    page.wait_for_selector("#share-dialog[open]")
    url = page.input_value("#share-url")
    return url


def test_share_dialog_copies_a_replay_link(app: App) -> None:
    page = app.page
    roll_main(app, "pool", 1234, pot=8, diff=3, flame=2)
    url = share(app)
    assert url.startswith(app.base_url + "#replay=")
    assert page.get_attribute("#share-url", "data-link").startswith("#replay=")  # relative
    encoded = url.split("#replay=")[1]
    payload = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    entry = history(app)[0]
    assert payload == {
        "v": 1,
        "system": "pool",
        "mode": "roll",
        "seed": 1234,
        "params": entry["params"],
    }
    page.click("#share-copy")
    page.wait_for_selector("#share-status[data-state=copied]")
    assert page.text_content("#share-status") == "Lien copié."
    assert page.evaluate("() => navigator.clipboard.readText()") == url
    # Without clipboard access, the link is selected for a manual copy.
    page.evaluate(
        "() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }"
    )
    page.click("#share-copy")
    page.wait_for_selector("#share-status[data-state=manual]")
    assert page.evaluate("() => document.activeElement.id") == "share-url"
    assert (
        page.evaluate(
            """() => { const i = document.activeElement;
                       return i.value.slice(i.selectionStart, i.selectionEnd); }"""
        )
        == url
    )
    page.click("#share-close")
    page.wait_for_selector("#share-dialog", state="hidden")
    assert page.evaluate("() => document.activeElement.classList.contains('history-share')")


def test_replay_link_in_a_fresh_page_shows_the_same_roll_marked_as_replay(app: App) -> None:
    page = app.page
    # Its own roll (not the last test's, which the history would not record twice).
    roll_main(app, "pool", 4321, pot=8, diff=3, flame=2)
    original = card(app)
    assert original["badge"] is None
    url = share(app)
    page.click("#share-close")
    count = len(history(app))
    # A fresh load of the link (as when it is opened from a message).
    page.evaluate("(url) => history.replaceState(null, '', url)", url)
    app.reload()
    page.wait_for_selector("#result .replay-badge")
    shown = card(app)
    assert shown == {**original, "badge": "Rejeu"}
    assert page.text_content("#replay-banner .replay-text") == (
        "Jet rejoué depuis un lien\u00a0: mêmes dés, même verdict."
        " Il n’est pas ajouté à l’historique."
    )
    assert page.is_checked("#system-pool")
    assert page.input_value(app.field("actor", "pool", "pot")) == "8"
    app.settle()  # the replay's work is done: nothing was added to the history
    assert len(history(app)) == count
    # This device already has that roll: asking to add it does not add it twice.
    page.click("#replay-add")
    assert page.is_disabled("#replay-add")
    assert page.text_content("#replay-add") == "Déjà dans l’historique"
    assert len(history(app)) == count
    # On a device that does not have it (here: the history cleared), only when asked.
    page.click("#clear-history")
    page.click("#confirm-clear-button")
    page.wait_for_selector("#history .history-empty")
    app.reload()
    page.wait_for_selector("#result .replay-badge")
    count = len(history(app))
    page.click("#replay-add")
    assert page.is_disabled("#replay-add")
    assert page.text_content("#replay-add") == "Ajouté à l’historique"
    assert len(history(app)) == count + 1
    assert history(app)[0]["seed"] == 4321
    # The next ordinary roll drops the fragment.
    roll_main(app, "pool", 7)
    assert "#replay=" not in page.url
    assert card(app)["badge"] is None


def test_opposed_replay_with_physical_faces_by_hash_change(app: App) -> None:
    page = app.page
    app.pick_system("d6")
    app.set_mode("oppose")
    app.set_physical(True)
    try:
        page.evaluate(
            "() => document.querySelectorAll('details.advanced').forEach(d => d.open = true)"
        )
        page.click(f"label[for={app.field('opponent', 'd6', 'pc')[1:]}]")
        page.fill(app.field("actor", "d6", "dice"), "4")
        page.fill(app.field("opponent", "d6", "dice"), "4")
        count = len(history(app))
        app.roll()
        page.wait_for_function(
            "(n) => JSON.parse(localStorage.getItem('pyrules:history')).length === n", arg=count + 1
        )
        first = page.eval_on_selector(
            "#result .result-card--oppose",
            OPPOSE_CARD,
        )
        assert first == {"winner": "actor", "faces": [4, 4]}  # tie: the PC wins
        url = share(app)
        page.click("#share-close")
        # Change the form, then follow the link in the same page.
        page.fill(app.field("actor", "d6", "dice"), "1")
        page.evaluate("(url) => { location.hash = url.split('#')[1]; }", url)
        page.wait_for_selector("#result .replay-badge")
        again = page.eval_on_selector(
            "#result .result-card--oppose",
            OPPOSE_CARD,
        )
        assert again == first
        assert page.input_value(app.field("actor", "d6", "dice")) == "4"
        assert len(history(app)) == count + 1
        # A broken link says so and rolls nothing.
        page.evaluate("() => { location.hash = 'replay=bm90IGpzb24'; }")
        page.wait_for_selector("#form-error:not([hidden])")
        assert page.text_content("#form-error") == "Ce lien de rejeu est illisible ou incomplet."
        assert len(history(app)) == count + 1
    finally:
        page.evaluate("() => history.replaceState(null, '', location.pathname)")
        app.set_physical(False)
        app.set_mode("single")


def test_luck_is_stored_with_each_roll(app: App) -> None:
    page = app.page
    # Its own rolls, oldest first: seeded single rolls, a seeded opposition, physical dice.
    roll_main(app, "pool", 1234, pot=8, diff=3, flame=2)
    roll_main(app, "d100", 11, value=60)
    app.set_mode("oppose")
    roll_main(app, "d6", 5)
    app.set_mode("single")
    app.set_physical(True)
    try:
        page.fill(app.field("actor", "d6", "dice"), "4")
        roll_main(app, "d6", 6)
    finally:
        app.set_physical(False)
    assert [e["mode"] == "oppose" for e in history(app)] == [False, True, False, False]
    assert history(app)[0]["physical"] and history(app)[0]["seed"] is None
    wait_luck(app)
    for entry in history(app):
        if entry.get("seed") is None or entry.get("physical"):
            # Luck ranks count seeded rolls only (issue 14, docs/rules.md): none for these.
            assert {entry.get(k) for k in ("luck", "actorLuck", "opponentLuck")} == {None}
        elif entry["mode"] == "oppose":
            for side in ("actor", "opponent"):
                assert 0 <= entry[f"{side}Luck"] <= 1
        else:
            assert entry["luck"] == expected_luck(entry["system"], entry["params"], entry["margin"])
    luck = history(app)[-1]["luck"]
    meta = app.page.text_content("#history .history-entry >> nth=-1 >> .history-meta")
    # Two ideas, two words: the luck rank, and the chance of success from the exact odds.
    assert meta.endswith(f"rang de chance {round(luck * 100)} %")
    entry = history(app)[-1]
    odds = local_handle({"op": "odds", "system": entry["system"], "params": entry["params"]})
    assert entry["success"] == odds["result"]["success_probability"]
    success = app.page.text_content("#history .history-entry >> nth=-1 >> .history-success")
    figure = f"{entry['success'] * 100:.1f}".replace(".", ",")
    assert success == f"réussite {figure}\u00a0%"


def test_session_statistics_counts_and_chart(app: App) -> None:
    page = app.page
    page.click("#tab-stats")
    page.wait_for_selector("#stats-totals")
    page.click("#session-new")
    assert page.text_content("#stats-totals [data-key=rolls] dd") == "0"
    assert page.text_content("#stats-empty") == "Aucun jet dans cette session."
    assert page.text_content("#session-since").startswith("Session commencée le ")
    page.click("#tab-roll")
    roll_four(app)
    wait_luck(app)
    entries = history(app)[:4]
    page.click("#tab-stats")
    page.wait_for_selector("#luck-histogram")
    totals = page.eval_on_selector_all(
        "#stats-totals .stat-tile",
        "ts => Object.fromEntries(ts.map(t => [t.dataset.key, t.querySelector('dd').textContent]))",
    )
    criticals = sum(
        1
        for e in entries
        if len(SYSTEMS[e["system"]]["outcomes"]) > 2
        and e["outcome"] == SYSTEMS[e["system"]]["outcomes"][0]["id"]
    ) + sum(1 for e in entries if e["system"] == "steps" and e.get("extreme") == "high")
    fumbles = sum(
        1
        for e in entries
        if len(SYSTEMS[e["system"]]["outcomes"]) > 2
        and e["outcome"] == SYSTEMS[e["system"]]["outcomes"][-1]["id"]
    ) + sum(1 for e in entries if e["system"] == "steps" and e.get("extreme") == "low")
    assert criticals >= 1 and fumbles >= 1
    mean = sum(e["luck"] for e in entries) / len(entries)
    assert "".join(ch for ch in totals.pop("luck") if ch.isdigit()) == str(int(mean * 100 + 0.5))
    assert totals == {"rolls": "4", "critical": str(criticals), "fumble": str(fumbles)}
    bins = page.eval_on_selector_all(
        "#luck-histogram .histo-bin", "bs => bs.map(b => Number(b.dataset.count))"
    )
    expected_bins = [0] * 10
    for e in entries:
        expected_bins[min(9, int(e["luck"] * 10))] += 1
    assert bins == expected_bins
    heights = page.eval_on_selector_all(
        "#luck-histogram .histo-bar", "bs => bs.map(b => b.getBoundingClientRect().height)"
    )
    tallest = max(range(10), key=lambda i: expected_bins[i])
    assert heights[tallest] == max(heights) > 0
    rows = page.eval_on_selector_all(
        "#stats-people .luck-row", "rs => rs.map(r => [r.dataset.who, Number(r.dataset.rolls)])"
    )
    assert rows == [["Sans personnage", 4]]
    # English labels.
    page.click("button[data-lang=en]")
    try:
        assert page.text_content("#stats-title") == "Session statistics"
        assert page.text_content("#stats-totals [data-key=fumble] dt") == "Fumbles"
        assert page.text_content("#session-new") == "New session"
    finally:
        page.click("button[data-lang=fr]")


def test_statistics_per_character(app: App, tmp_path: Any) -> None:
    page = app.page
    roll_four(app)  # the session's rolls made without a character
    path = tmp_path / "team.json"
    team = [
        {
            "system": "d100",
            "name": "Ysolde",
            "entries": [{"label": "Dague", "params": {"level": "good"}}],
        },
        {
            "system": "d100",
            "name": "Oren",
            "pc": False,
            "entries": [{"label": "Arc", "params": {"value": 40}}],
        },
    ]
    path.write_text(json.dumps(team), encoding="utf-8")
    page.click("#tab-characters")
    page.set_input_files("#chars-import-file", str(path))
    page.wait_for_selector("#chars-message:has-text('2 personnages importés.')")
    for name, entry, seed in (("Ysolde", "Dague", 1), ("Ysolde", "Dague", 2), ("Oren", "Arc", 3)):
        page.click(f"#char-list .char-card:has(.char-card-name:text-is('{name}'))")
        count = len(history(app))
        app.set_seed(seed)
        page.click(f"#char-detail .entry-roll:has-text('{entry}')")
        page.wait_for_function(
            "(n) => JSON.parse(localStorage.getItem('pyrules:history')).length === n", arg=count + 1
        )
    wait_luck(app)
    page.click("#tab-stats")
    page.wait_for_selector("#stats-people")
    rows = page.eval_on_selector_all(
        "#stats-people .luck-row",
        "rs => rs.map(r => [r.dataset.who, Number(r.dataset.rolls), Number(r.dataset.luck)])",
    )
    by_name = {e["who"]["name"]: [] for e in history(app)[:3]}
    for e in history(app)[:3]:
        by_name[e["who"]["name"]].append(e["luck"])
    # Most rolls first; the rolls made without a character come last.
    assert [r[:2] for r in rows] == [["Ysolde", 2], ["Oren", 1], ["Sans personnage", 4]]
    for name, _rolls, luck in rows:
        if name in by_name:
            assert abs(luck - sum(by_name[name]) / len(by_name[name])) < 1e-9
    assert page.text_content("#stats-totals [data-key=rolls] dd") == "7"
    for label, width, height in (
        ("tablet-landscape", 1024, 768),
        ("tablet-portrait", 768, 1024),
        ("phone", 360, 740),
    ):
        page.set_viewport_size({"width": width, "height": height})
        try:
            assert (
                page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
            )
            assert page.evaluate(SMALL_TARGETS) == []
            page.evaluate("() => window.scrollTo(0, 0)")
            app.screenshot(f"table-stats-{label}-{width}x{height}", full_page=True)
        finally:
            page.set_viewport_size({"width": 1024, "height": 768})


def test_replay_banner_screenshots(app: App) -> None:
    page = app.page
    roll_main(app, "pool", 4321, pot=8, diff=3, flame=2)
    page.click("#tab-history")
    url = share(app, 0)
    page.click("#share-close")
    for label, width, height in (("tablet-landscape", 1024, 768), ("phone", 360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        try:
            page.click("#tab-history")
            share(app, 0)
            assert (
                page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
            )
            app.screenshot(f"table-share-{label}-{width}x{height}")
            page.click("#share-close")
            page.evaluate("(url) => { location.hash = url.split('#')[1]; }", url)
            page.wait_for_selector("#result .replay-badge")
            page.locator("#result").scroll_into_view_if_needed()
            assert page.evaluate(SMALL_TARGETS) == []
            app.screenshot(f"table-replay-{label}-{width}x{height}")
            page.evaluate("() => history.replaceState(null, '', location.pathname)")
        finally:
            page.set_viewport_size({"width": 1024, "height": 768})
