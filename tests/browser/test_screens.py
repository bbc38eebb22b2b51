"""Screens that tell the same truth (issue 15): the opposed-roll detail, d100's level and
value, French elision, faces typed without separators, the odds with an empty field,
"Dégâts 0", focus after a roll, the boot steps in player words, the phone header, the
step-dice name on a phone in English, and the history entry at iPad portrait size."""

from __future__ import annotations

from typing import Any

from .conftest import App, local_handle

PHONE = {"width": 360, "height": 740}
PORTRAIT = {"width": 768, "height": 1024}


def history(app: App) -> list[dict[str, Any]]:
    return app.page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history') || '[]')")


def test_opposed_roll_puts_what_decided_first(app: App) -> None:
    page = app.page
    app.pick_system("pool")
    app.set_mode("oppose")
    try:
        page.fill(app.field("actor", "pool", "pot"), "4")
        page.fill(app.field("opponent", "pool", "pot"), "6")
        app.set_seed(5)
        app.roll()
        answer = local_handle(
            {
                "op": "oppose",
                "system": "pool",
                "actor": {"pot": 4},
                "opponent": {"pot": 6},
                "seed": 5,
            }
        )["result"]
        card = "#result .result-card--oppose"
        # The engine's comparison, in the system's terms, right under the winner.
        assert page.text_content(f"{card} .oppose-decides") == answer["explanation"][0]
        # ... and not said a second time at the bottom when it is the whole explanation.
        assert len(answer["explanation"]) == 1
        assert page.locator(f"{card} > details.explanation").count() == 0
        # One margin on the card: the gap of the opposition, under its own name.
        labels = page.eval_on_selector_all(
            f"{card} .number--margin dt", "ns => ns.map(n => n.textContent)"
        )
        assert labels == ["Écart"]
        # Each side's total comes with its parts: the side's detail is open.
        assert page.eval_on_selector_all(
            f"{card} .oppose-side details.explanation", "ds => ds.map(d => d.open)"
        ) == [True, True]
        # And a folded section shows a marker.
        marker = page.eval_on_selector(
            f"{card} .oppose-side .explanation > summary",
            "s => getComputedStyle(s, '::before').borderRightWidth",
        )
        assert marker == "2px"
    finally:
        app.set_mode("single")


def test_d100_level_replaces_the_value_on_screen_and_in_the_history(app: App) -> None:
    page = app.page
    app.pick_system("d100")
    value = app.field("actor", "d100", "value")
    assert page.is_enabled(value)
    page.select_option(app.field("actor", "d100", "level"), "master")
    assert page.is_disabled(value)
    count = len(history(app))  # rolls other tests left on this page are not this one
    app.set_seed(8)
    app.roll()
    page.wait_for_function(
        "(n) => JSON.parse(localStorage.getItem('pyrules:history') || '[]').length === n",
        arg=count + 1,
    )
    summary = page.text_content("#history .history-entry >> nth=0 >> .history-summary")
    assert summary == "Niveau\u00a0: Maître (75)"
    page.select_option(app.field("actor", "d100", "level"), "")
    assert page.is_enabled(value)


def test_french_elision_before_a_vowel(app: App) -> None:
    page = app.page
    said = page.evaluate(
        """async () => {
            const i18n = window.pyrules.modules.i18n;
            return [i18n.t('combat.turnOf', {name: 'Aëlys', round: 1}),
                    i18n.t('combat.turnOf', {name: 'Brute', round: 1}),
                    i18n.t('replay.textWho', {who: 'Ombre'}).split(' rejoué')[0]];
        }"""
    )
    assert said == ["Round 1\u00a0: au tour d’Aëlys.", "Round 1\u00a0: au tour de Brute.",
                    "Jet d’Ombre"]


def test_faces_typed_one_after_another_and_no_damage_zero(app: App) -> None:
    page = app.page
    app.pick_system("pool")
    page.fill(app.field("actor", "pool", "pot"), "3")
    page.fill(app.field("actor", "pool", "diff"), "2")
    page.fill(app.field("actor", "pool", "flame"), "0")
    app.set_physical(True)
    try:
        faces = app.field("actor", "pool", "dice")
        page.wait_for_selector(f"{faces}[data-count='3']")
        page.fill(faces, "163")  # a keypad with no comma nor space
        app.roll()
        shown = page.eval_on_selector_all(
            "#result .die", "ds => ds.map(d => Number(d.dataset.face))"
        )
        assert shown == [1, 6, 3]
        assert history(app)[0]["faces"] == [1, 6, 3]
        assert (
            page.text_content("#history .history-entry >> nth=0 >> .history-faces")
            == "Dés\u00a0: 1 · 6 · 3"
        )
    finally:
        app.set_physical(False)
    # A step-dice roll that misses deals nothing: no "Dégâts 0" on the card.
    app.pick_system("steps")
    params = {"die": 4, "threshold": 12}
    seed = next(
        s
        for s in range(50)
        if not local_handle({"op": "roll", "system": "steps", "params": params, "seed": s})[
            "result"
        ]["success"]
    )
    page.select_option(app.field("actor", "steps", "die"), "4")
    page.fill(app.field("actor", "steps", "threshold"), "12")
    app.set_seed(seed)
    app.roll()
    assert page.locator("#result .number[data-key=damage]").count() == 0
    # A setting left at "none" says nothing: no "Avantage ou handicap : Aucun" in the line.
    page.wait_for_function(
        "(s) => JSON.parse(localStorage.getItem('pyrules:history'))[0].seed === s", arg=seed
    )
    summary = page.text_content("#history .history-entry >> nth=0 >> .history-summary")
    assert "Seuil de l'aptitude 12" in summary
    assert "Avantage" not in summary and "Aucun" not in summary


def test_empty_pot_drops_the_old_odds_and_focus_stays_after_a_roll(app: App) -> None:
    page = app.page
    app.pick_system("pool")
    pot = app.field("actor", "pool", "pot")
    page.fill(pot, "6")
    page.wait_for_selector("#odds .odds-chart[data-side=actor]")
    page.fill(pot, "")
    page.wait_for_selector("#odds-incomplete")
    assert page.locator("#odds .odds-chart").count() == 0
    assert (
        page.text_content("#odds-incomplete") == "Remplissez les champs pour voir les probabilités."
    )
    page.fill(pot, "6")
    page.wait_for_selector("#odds .odds-chart[data-side=actor]")
    # Keyboard: roll, then Escape: the focus is not dropped to the page.
    page.focus("#roll-button")
    before = app.shown()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=before
    )
    page.wait_for_function("() => document.getElementById('roll-button').dataset.busy === 'false'")
    page.keyboard.press("Escape")
    assert (
        page.evaluate("() => document.activeElement && document.activeElement.id") == "roll-button"
    )


def test_boot_steps_in_player_words_details_in_a_tooltip(app: App) -> None:
    page = app.page
    steps = page.eval_on_selector_all(
        "#boot-steps li", "ls => ls.map(l => [l.textContent, l.title])"
    )
    texts = " ".join(text for text, _ in steps)
    assert "Python" not in texts and "micropip" not in texts
    assert any("micropip" in title for _, title in steps)
    assert any("Pyodide" in title for _, title in steps)
    page.click("button[data-lang=en]")
    try:
        steps = page.eval_on_selector_all("#boot-steps li", "ls => ls.map(l => l.textContent)")
        assert "Starting the rules engine" in steps and not any("micropip" in s for s in steps)
    finally:
        page.click("button[data-lang=fr]")


def test_phone_header_labels_and_step_dice_name(new_app: Any, site: str) -> None:
    app = new_app(site, viewport=PHONE, has_touch=True, service_workers="allow")
    app.open()
    page = app.page
    try:
        # Both statuses keep visible words next to their dots.
        for selector in ("#engine-status-text", "#pwa-status .pwa-status-text"):
            box = page.locator(selector).bounding_box()
            assert box is not None and box["width"] > 20, selector
        assert page.text_content("#engine-status-text") == "Moteur prêt"
        # No overlap between the statuses and the language switch.
        status = page.locator("#engine-status").bounding_box()
        switch = page.locator(".lang-switch").bounding_box()
        assert status["x"] + status["width"] <= switch["x"]
        page.click("button[data-lang=en]")
        name = page.locator("label[data-system=steps] .system-name")
        assert "D4\u2060–\u2060D12" in name.text_content()
        # "D4–D12" sits on one line: its two ends have the same top.
        tops = name.evaluate(
            """n => { const text = n.firstChild; const at = text.data.indexOf('D4');
                const r = document.createRange();
                r.setStart(text, at); r.setEnd(text, at + 1);
                const a = r.getBoundingClientRect().top;
                r.setStart(text, text.data.length - 1); r.setEnd(text, text.data.length);
                return [a, r.getBoundingClientRect().top]; }"""
        )
        assert tops[0] == tops[1]
        app.screenshot("screens-phone-en")
    finally:
        page.click("button[data-lang=fr]")
        app.context.close()


def test_history_entry_text_has_room_on_ipad_portrait(new_app: Any, site: str) -> None:
    app = new_app(site, viewport=PORTRAIT, has_touch=True)
    app.open()
    page = app.page
    try:
        page.click("label[for=mode-single]")
        page.fill(app.field("actor", "pool", "augmentations"), "2")
        app.set_seed(3)
        app.roll()
        page.wait_for_selector("#history .history-entry")
        entry = page.locator("#history .history-entry >> nth=0")
        main = entry.locator(".history-main").bounding_box()
        whole = entry.bounding_box()
        assert main["width"] > whole["width"] * 0.8
        assert entry.locator(".history-faces").text_content().startswith("Dés\u00a0: ")
        # Relancer / Revoir / Partager, each labelled.
        labels = entry.locator(".history-buttons button").all_text_contents()
        assert labels == ["Relancer", "Revoir", "Partager"]
        app.screenshot("screens-history-portrait")
    finally:
        app.context.close()


def test_english_words_for_the_same_screens(app: App) -> None:
    page = app.page
    app.pick_system("pool")
    page.fill(app.field("actor", "pool", "pot"), "5")
    count = len(history(app))  # rolls other tests left on this page are not this one
    app.set_seed(21)
    app.roll()
    page.wait_for_function(
        """(n) => { const h = JSON.parse(localStorage.getItem('pyrules:history') || '[]');
                   return h.length === n && typeof h[0].luck === 'number'; }""",
        arg=count + 1,
    )
    page.click("button[data-lang=en]")
    try:
        entry = "#history .history-entry >> nth=0"
        labels = page.locator(f"{entry} >> .history-buttons button").all_text_contents()
        assert labels == ["Roll again", "Show again", "Share"]
        assert page.text_content(f"{entry} >> .history-luck").startswith("luck rank ")
        assert page.text_content(f"{entry} >> .history-success").startswith("success ")
        assert page.text_content(f"{entry} >> .history-faces").startswith("Dice: ")
        said = page.evaluate(
            """async () => (window.pyrules.modules.i18n).t('combat.turnOf',
                {name: 'Aëlys', round: 1})"""
        )
        assert said == "Round 1: Aëlys’s turn."
        page.fill(app.field("actor", "pool", "pot"), "")
        page.wait_for_selector("#odds-incomplete")
        assert page.text_content("#odds-incomplete") == "Fill in the fields to see the odds."
        page.fill(app.field("actor", "pool", "pot"), "5")
    finally:
        page.click("button[data-lang=fr]")


# A string shown before its strings file was imported comes out as its key ("odds.title"),
# and one given too few values keeps a "{name}": neither may reach the page.
RAW_TEXT = """() => {
  const raw = /^[a-z][A-Za-z]*(\\.[\\w:-]+)+$/;
  const hole = /\\{\\w+\\}/;
  const bad = (text) => raw.test(text) || hole.test(text);
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (!["SCRIPT", "STYLE"].includes(node.parentElement.tagName) && bad(text)) found.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const attr of ["aria-label", "title", "placeholder", "alt"]) {
      const text = (el.getAttribute(attr) || "").trim();
      if (bad(text)) found.push(`${attr}=${text}`);
    }
  }
  if (bad(document.title)) found.push(`document.title=${document.title}`);
  return found;
}"""


def test_no_screen_shows_a_raw_key_or_a_placeholder(app: App) -> None:
    """Every string is registered before it is shown (web/js/<screen>/strings.js): on each
    screen, in French and in English, after a roll, no text or label is a bare key."""
    page = app.page
    app.pick_system("pool")
    page.fill(app.field("actor", "pool", "pot"), "5")
    app.set_seed(21)
    app.roll()
    page.wait_for_selector("#history .history-entry")
    try:
        for code in ("en", "fr"):
            page.click(f"button[data-lang={code}]")
            page.wait_for_function(f"() => document.documentElement.lang === '{code}'")
            for view in ("roll", "characters", "combat", "stats", "history"):
                page.click(f"#tab-{view}")
                page.wait_for_selector(f"#view-{view}:not([hidden])")
                assert page.evaluate(RAW_TEXT) == [], (code, view)
    finally:
        page.click("button[data-lang=fr]")
        page.click("#tab-roll")
