"""The free dice roller (system "notation") in the page: roll, exact odds, history, replay and
the replay link as a QR code (decoded here with zxing-cpp), at tablet and phone sizes, in
French and English."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import App, local_handle

SIZES = {"tablet-portrait": (768, 1024), "tablet-landscape": (1024, 768), "phone": (360, 740)}
CASES = [
    ("tablet-portrait", "fr", "4d6kh3+2"),
    ("tablet-landscape", "en", "2d20kl1"),
    ("phone", "fr", "4dF"),
    ("phone", "en", "5d10>=8"),
    ("tablet-portrait", "en", "3d6!"),
    ("tablet-landscape", "fr", "2d10+3"),
]
ROLL_WORD = {"fr": "Total", "en": "Total"}


@pytest.fixture(scope="module")
def app(new_app: Any, site: str) -> Iterator[App]:
    app = new_app(site)
    app.open()
    yield app
    app.context.close()


@pytest.fixture(autouse=True)
def _no_dialog_left(app: App) -> Iterator[None]:
    """The tests share one page: a test that fails with the share dialog open must not make
    every later one fail on a click the dialog intercepts."""
    yield
    if not app.page.is_closed():
        app.page.evaluate(
            "() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())"
        )


def history(app: App) -> list[dict[str, Any]]:
    return app.page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history') || '[]')")


def set_lang(app: App, lang: str) -> None:
    app.page.click(f".lang-switch button[data-lang={lang}]")
    app.page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)


def shown_card(app: App) -> dict[str, Any]:
    return app.page.eval_on_selector(
        "#result",
        """(area) => ({
            total: area.querySelector('.number[data-key=total] dd')?.textContent,
            faces: [...area.querySelectorAll('.die-cell')].map((d) => Number(d.dataset.face)),
            tags: [...area.querySelectorAll('.die-cell')].map((d) => d.dataset.tags),
            badge: area.querySelector('.replay-badge')?.textContent ?? null,
            explanation: [...area.querySelectorAll('.explanation li, ol li')].map(
                (li) => li.textContent),
        })""",
    )


def decode_qr(app: App) -> str:
    """Screenshot the QR code as drawn in the share dialog and decode it with zxing-cpp, as
    a pure symbol (the whole picture is one code in its quiet zone) and as a QR code only: read
    for every format, one link in about seventy also gave a false ITF bar code among the
    modules (tried on 400 ports of the test server)."""
    zxingcpp = pytest.importorskip("zxingcpp")
    image = pytest.importorskip("PIL.Image")
    png = app.page.locator("#share-qr .qr-svg").screenshot()
    results = zxingcpp.read_barcodes(
        image.open(io.BytesIO(png)).convert("L"),
        formats=zxingcpp.BarcodeFormat.QRCode,
        is_pure=True,
    )
    assert len(results) == 1, results
    assert results[0].format == zxingcpp.BarcodeFormat.QRCode
    return str(results[0].text)


@pytest.mark.parametrize(("size", "lang", "expression"), CASES)
def test_free_dice_roll_odds_history_replay_and_qr(
    app: App, size: str, lang: str, expression: str
) -> None:
    page = app.page
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    set_lang(app, lang)
    app.pick_system("notation")
    field = app.field("actor", "notation", "expression")
    page.fill(field, expression)
    # The odds: one bar per total, each with the engine's exact fraction.
    odds = local_handle({"op": "odds", "system": "notation", "params": {"expression": expression}})
    want = odds["result"]["distribution"]
    page.wait_for_function(
        "(n) => document.querySelectorAll('#odds .totals-bar').length === n "
        "&& !document.getElementById('odds').classList.contains('is-stale')",
        arg=len(want),
    )
    bars = page.eval_on_selector_all(
        "#odds .totals-bar", "(bars) => bars.map((b) => [b.dataset.total, b.dataset.exact])"
    )
    assert dict(bars) == want
    assert page.get_attribute("#odds .totals-mean", "data-exact") == odds["result"]["mean"]
    # The explosion cap is said where the odds are shown, only for exploding dice.
    cap = page.locator("#odds .totals-cap")
    if odds["result"]["explodes"]:
        assert cap.get_attribute("data-cap") == str(odds["result"]["explode_cap"]) == "3"
        assert "3" in (cap.text_content() or "")
    else:
        assert cap.count() == 0
    # The roll bar: a sum's mean; a count's chance of at least one success (never a
    # « chance of success » of 100 % for a sum).
    bar = page.locator("#roll-chance")
    if odds["result"]["kind"] == "sum":
        assert odds["result"]["success_probability"] is None
        page.wait_for_function(
            "(m) => document.getElementById('roll-chance').dataset.mean === String(m)",
            arg=odds["result"]["mean_value"],
        )
        assert bar.get_attribute("data-p") is None
    else:
        page.wait_for_function(
            "(p) => document.getElementById('roll-chance').dataset.p === String(p)",
            arg=odds["result"]["success_probability"],
        )
        assert bar.get_attribute("data-mean") is None

    # The roll: same total and dice as the engine gives for this seed.
    seed = 4242 + len(history(app))
    count = len(history(app))
    app.set_seed(seed)
    app.roll()
    page.wait_for_function(
        "(n) => JSON.parse(localStorage.getItem('pyrules:history') || '[]').length === n",
        arg=count + 1,
    )
    expected = local_handle({"op": "roll", "system": "notation", "lang": lang,
                             "params": {"expression": expression}, "seed": seed})["result"]
    card = shown_card(app)
    assert card["total"] == str(expected["total"])
    assert card["faces"] == [d["final"] for d in expected["dice"]]
    assert card["tags"] == [" ".join(d["tags"]) for d in expected["dice"]]
    assert expected["explanation"][-1] in card["explanation"]
    assert str(expected["total"]) in str(want)  # a total the odds say can happen
    # No margin anywhere; a sum has no tier either, a count its « at least one » tier.
    assert page.locator("#result .number--margin").count() == 0
    headline = page.text_content("#result .result-card [data-headline]")
    assert headline == str(expected["headline"])
    if expected["kind"] == "sum":
        assert page.get_attribute("#result .result-card", "data-outcome") is None
    else:
        assert page.get_attribute("#result .result-card", "data-outcome") == expected["outcome"]
    entry = history(app)[0]
    assert (entry["kind"], entry["headline"]) == (expected["kind"], expected["headline"])
    sum_entry = page.locator("#history .history-entry >> nth=0")
    assert sum_entry.locator(".history-success").count() == (0 if expected["kind"] == "sum" else 1)
    assert (entry["system"], entry["seed"]) == ("notation", seed)
    assert entry["params"]["expression"] == expression
    app.screenshot(f"notation-{size}-{lang}", full_page=True)

    # "Revoir" from the history: the same seed shown again gives the same dice, and the
    # roll is not recorded a second time.
    page.fill(field, "1d4")  # showing it again puts the entry's expression back
    shown = app.shown()
    page.click("#history .history-entry >> nth=0 >> .history-replay")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=shown
    )
    assert page.input_value(field) == expression
    assert len(history(app)) == count + 1
    assert history(app)[0]["seed"] == seed
    again = shown_card(app)
    assert (again["total"], again["faces"]) == (card["total"], card["faces"])

    # The replay link as a QR code, big enough to scan, carrying exactly the link.
    page.click("#history .history-entry >> nth=0 >> .history-share")
    page.wait_for_selector("#share-dialog[open] #share-qr[data-state=ready] .qr-svg")
    box = page.locator("#share-qr .qr-svg").bounding_box()
    assert box is not None and box["width"] >= min(280, width - 80)
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    url = page.input_value("#share-url")
    assert "#replay=" in url
    assert decode_qr(app) == url
    app.screenshot(f"notation-qr-{size}-{lang}")
    page.click("#share-close")
    page.wait_for_selector("#share-dialog", state="hidden")


def test_the_scanned_link_opens_the_same_roll(app: App) -> None:
    """What the other device's camera app opens: the QR's text, in a fresh page."""
    page = app.page
    page.set_viewport_size({"width": 768, "height": 1024})
    set_lang(app, "fr")
    app.pick_system("notation")
    page.fill(app.field("actor", "notation", "expression"), "2d20kl1+1d4")
    app.set_seed(99)
    app.roll()
    card = shown_card(app)
    page.click("#history .history-entry >> nth=0 >> .history-share")
    page.wait_for_selector("#share-qr[data-state=ready] .qr-svg")
    scanned = decode_qr(app)
    page.click("#share-close")
    other = App(app.context, app.base_url)
    try:
        other.page.goto(scanned)
        other.wait_ready()
        other.page.wait_for_selector("#result .replay-badge")
        shown = shown_card(other)
        assert (shown["total"], shown["faces"]) == (card["total"], card["faces"])
        assert other.page.input_value(app.field("actor", "notation", "expression")) == (
            "2d20kl1+1d4")
        other.check_clean()
    finally:
        other.page.close()
        page.bring_to_front()  # a tab in the background draws no frame for the next clicks


def test_physical_dice_every_die_thrown_in_order(app: App) -> None:
    """Physical dice: the player types every face thrown, the reroll and explosions too."""
    page = app.page
    page.set_viewport_size({"width": 360, "height": 740})
    set_lang(app, "fr")
    app.pick_system("notation")
    page.fill(app.field("actor", "notation", "expression"), "1d6ro1!!+1dF+1")  # !! compounds
    app.set_physical(True)
    faces = app.field("actor", "notation", "dice")
    page.wait_for_selector(faces)
    page.fill(faces, "1, 6, 6, 2, -1")
    count = len(history(app))
    app.roll()
    page.wait_for_function(
        "(n) => JSON.parse(localStorage.getItem('pyrules:history') || '[]').length === n",
        arg=count + 1,
    )
    card = shown_card(app)
    assert card["total"] == str(6 + 6 + 2 - 1 + 1)
    assert card["faces"] == [14, -1]  # the exploded chain counts as its total
    fudge = page.text_content("#result .die-cell[data-kind=fudge] .visually-hidden")
    assert fudge == "dé Fudge\u00a0: \u22121"  # as its face is marked: −1 (issue 39)
    assert history(app)[0]["physical"] is True
    # A face missing: an error on the faces field, no roll.
    page.fill(faces, "1, 6")
    page.click("#roll-button")
    page.wait_for_function(
        "(sel) => { const e = document.querySelector(sel); return e && !e.hidden"
        " && e.textContent.includes('il manque des dés'); }",
        arg=f"{faces}-error",
    )
    app.set_physical(False)


def test_bad_expression_is_shown_on_the_field(app: App) -> None:
    page = app.page
    set_lang(app, "en")
    app.pick_system("notation")
    field = app.field("actor", "notation", "expression")
    refused = (("2d6+", "incomplete"), ("2d0", "d0"), ("1d6/(1d2-1)", "divisor can be 0"))
    for expression, words in refused:
        page.fill(field, expression)
        error = f"{field}-error"
        page.wait_for_function(
            "([sel, words]) => { const e = document.querySelector(sel);"
            " return e && !e.hidden && e.textContent.includes(words); }",
            arg=[error, words],
        )
    page.fill(field, "3d6")
    page.wait_for_selector(f"{field}-error", state="hidden")


def free_dice_field(app: App) -> str:
    """The free-dice screen in French: its expression field."""
    set_lang(app, "fr")
    app.pick_system("notation")
    return app.field("actor", "notation", "expression")


def test_an_expression_past_the_exact_budget_rolls_and_its_odds_say_about(app: App) -> None:
    """Issue 41: `100d1000` rolls from the Roll button, its number on the stage; its odds are
    an estimate the panel and the roll bar say « environ », never shown as exact, never held
    against the field."""
    page = app.page
    field = free_dice_field(app)
    page.fill(field, "100d1000")
    page.wait_for_selector("#odds .totals-chart.is-estimate .totals-estimate")
    odds = local_handle({"op": "odds", "system": "notation",
                         "params": {"expression": "100d1000"}})["result"]
    note = page.inner_text("#odds .totals-estimate")
    assert note.startswith("Environ") and "loi normale" in note
    bound = format(odds["estimate"]["bound"] * 100, ".2f").rstrip("0").rstrip(".")
    assert bound.replace(".", ",") in note
    assert "environ" in page.inner_text("#odds .totals-mean")
    # no fraction shown as exact: neither on the bars nor in the table
    assert page.locator("#odds [data-exact]").count() == 0
    bars = page.locator("#odds .totals-bar").count()
    assert 0 < bars <= 120 < len(odds["distribution"])  # totals share bars
    assert "De 100 à 100000" in page.inner_text("#odds .totals-summary")
    page.wait_for_function(
        "() => document.getElementById('roll-chance').textContent.includes('environ')")
    assert page.is_hidden(f"{field}-error")
    app.set_seed(12)
    app.roll()
    expected = local_handle({"op": "roll", "system": "notation", "seed": 12,
                             "params": {"expression": "100d1000"}})["result"]
    assert len(expected["dice"]) == 100
    headline = page.text_content("[data-roll-stage] [data-headline]")
    assert headline == f"Total {expected['total']}", (headline, expected["total"])
    page.keyboard.press("Escape")  # the stage closes, as a player leaves it
    page.wait_for_selector("[data-roll-stage]", state="hidden")
    page.fill(field, "3d6")
    page.wait_for_selector("#odds .totals-chart.is-estimate", state="detached")
    assert page.locator("#odds .totals-bar[data-exact]").count() == 16


def test_an_unreadable_expression_clears_its_odds_and_says_why(app: App) -> None:
    """Issue 39: the previous expression's odds say nothing of an unreadable one: the panel
    shows the engine's refusal instead of a dimmed old chart."""
    page = app.page
    field = free_dice_field(app)
    page.fill(field, "3d6")
    page.wait_for_selector("#odds .totals-chart")
    page.fill(field, "3d6+")
    refusal = local_handle({"op": "odds", "system": "notation", "lang": "fr",
                            "params": {"expression": "3d6+"}})["error"]["message"]
    page.wait_for_selector("#odds .odds-invalid")
    assert page.inner_text("#odds .odds-invalid") == refusal
    assert page.locator("#odds .totals-chart").count() == 0
    assert page.is_hidden("#roll-chance") or "Total" not in page.inner_text("#roll-chance")
    page.fill(field, "3d6")
    page.wait_for_selector("#odds .totals-chart")
    assert page.locator("#odds .odds-invalid").count() == 0


def roll_free_dice(app: App, expression: str, seed: int) -> dict[str, Any]:
    """Roll `expression` from the form with this seed (French); the engine's answer."""
    app.page.fill(free_dice_field(app), expression)
    app.settle()
    app.set_seed(seed)
    app.roll()
    return dict(local_handle({"op": "roll", "system": "notation", "seed": seed,
                              "params": {"expression": expression}})["result"])


def test_a_rerolled_die_shows_the_face_that_counts_and_the_discarded_one(app: App) -> None:
    """Issue 39: `4d6ro<3` counts each rerolled die's new face: the card shows it, with the
    face thrown first beside it, struck through; the 3D die is not dimmed like a dropped one."""
    page = app.page
    expected = roll_free_dice(app, "4d6ro<3", 1)
    rerolled = [d for d in expected["dice"] if "rerolled" in d["tags"]]
    assert len(rerolled) >= 2
    cells = page.eval_on_selector_all(
        "#result .die-cell",
        """(cells) => cells.map((c) => ({face: Number(c.dataset.face),
             discarded: c.querySelector('s.die-discarded')?.textContent ?? null}))""")
    assert cells == [{"face": d["final"],
                      "discarded": str(d["rolled"]) if "rerolled" in d["tags"] else None}
                     for d in expected["dice"]]
    page.wait_for_selector("[data-roll-stage][data-state=landed]")
    if page.get_attribute("[data-roll-stage]", "data-mode") == "3d":
        looks = page.evaluate("() => window.pyrules.modules.stage.scene3d().scene.meshes"
                              ".map((m) => m.userData.look)")
        assert set(looks) == {"plain"}, looks  # rerolled dice count: none dimmed
    page.keyboard.press("Escape")


def test_compounded_parts_and_added_dice_are_linked_to_their_die(app: App) -> None:
    """Issue 39: a compounded die (`!!`) shows its parts (6 + 3), and a die an explosion
    added (`!`) names the die it came from."""
    page = app.page
    expected = roll_free_dice(app, "3d6!!+2d6!", 5)
    report = [d for g in expected["groups"] for d in g["dice"]]
    cells = page.eval_on_selector_all(
        "#result .die-cell",
        """(cells) => cells.map((c) => ({parts: c.querySelector('.die-parts')?.textContent ?? null,
             from: c.querySelector('.die-from')?.dataset.from ?? null}))""")
    origin = None
    want = []
    for d in report:
        if not d["extra"]:
            origin = len(want)
        want.append({"parts": " + ".join(map(str, d["parts"])) if d["parts"] else None,
                     "from": str(origin) if d["extra"] else None})
    assert cells == want
    assert any(c["parts"] for c in cells) and any(c["from"] for c in cells)  # this seed shows both
    page.keyboard.press("Escape")


def test_the_successes_of_a_count_are_marked_once_landed(app: App) -> None:
    """Issue 39: `5d10>=8` marks its successes on the dice (green ring in 3D, on the card),
    and nothing while they roll."""
    page = app.page
    expected = roll_free_dice(app, "5d10>=8", 1)
    page.wait_for_selector("[data-roll-stage][data-state=landed]")
    hits = ["success" in d["tags"] for d in expected["dice"]]
    assert any(hits) and not all(hits)
    marked = page.eval_on_selector_all(
        "#result .die-cell", "(cells) => cells.map((c) => c.classList.contains('tag--success'))")
    assert marked == hits
    if page.get_attribute("[data-roll-stage]", "data-mode") == "3d":
        looks = page.evaluate("() => window.pyrules.modules.stage.scene3d().scene.meshes"
                              ".map((m) => m.userData.look)")
        assert looks == ["hit" if hit else "plain" for hit in hits], looks
    page.keyboard.press("Escape")


def test_a_space_after_an_explosion_is_warned_of_in_the_odds(app: App) -> None:
    """`5d10! >=8` counts successes, `5d10!>=8` explodes on 8+: the odds panel says so while
    the player types (docs/rules.md §5)."""
    page = app.page
    field = free_dice_field(app)
    page.fill(field, "5d10! >=8")
    page.wait_for_selector("#odds .totals-warning[data-code=notation_spaced_explosion]")
    text = page.inner_text("#odds .totals-warning")
    assert "compte les réussites" in text and "fait exploser" in text
    page.fill(field, "5d10!>=8")
    page.wait_for_selector("#odds .totals-warning", state="detached")


def test_an_old_link_without_grammar_replays_under_the_former_reading(
    new_app: Any, site: str
) -> None:
    """A #replay= link made before `grammar` existed is sent with grammar 1 (docs/api.md):
    the same dice and total as the former reading gives for its seed."""
    expression, seed = "3d6!", 5
    payload = {"v": 1, "system": "notation", "mode": "roll", "seed": seed,
               "params": {"expression": expression}}
    text = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    other: App = new_app(site)
    other.page.goto(f"{site}#replay={text}")
    other.wait_ready()
    other.page.wait_for_selector("#result .replay-badge")
    old = local_handle({"op": "roll", "system": "notation", "seed": seed,
                        "params": {"expression": expression, "grammar": 1}})["result"]
    new = local_handle({"op": "roll", "system": "notation", "seed": seed,
                        "params": {"expression": expression, "grammar": 2}})["result"]
    faces = other.page.eval_on_selector_all(
        "#result .die-cell", "(cells) => cells.map((c) => Number(c.dataset.face))"
    )
    assert faces == [d["final"] for d in old["dice"]]
    assert other.page.text_content("#result .result-card [data-headline]") == str(old["total"])
    assert old["params"]["grammar"] == 1
    # This seed's dice differ between the two readings (a 6 explodes): a grammar 2 roll
    # would show four dice here, not three.
    assert [d["final"] for d in new["dice"]] != faces
