"""Issue 39, item 3: the app speaks the player's language. An English browser starts in
English (and asks the engine in English); a choice the player made is kept across visits."""

from __future__ import annotations

from typing import Any

from .conftest import App


def shown_language(app: App) -> dict[str, Any]:
    return app.page.evaluate(
        """() => ({
          lang: document.documentElement.lang,
          button: document.getElementById('roll-button').textContent,
          pressed: document.querySelector('[data-lang][aria-pressed=true]')?.dataset.lang,
        })"""
    )


def test_an_english_browser_starts_in_english_and_a_stored_choice_wins(
    new_app: Any, site: str
) -> None:
    english: App = new_app(site, locale="en-US")
    english.open()
    assert shown_language(english) == {"lang": "en", "button": "Roll", "pressed": "en"}
    # the engine's words come in English too: the roll's headline
    english.set_seed(5)
    english.roll()
    english.page.wait_for_selector("[data-roll-stage][data-state=landed]")
    headline = english.page.text_content("[data-roll-stage] [data-headline]") or ""
    assert "successes" in headline or "success" in headline, headline
    english.page.keyboard.press("Escape")
    # the player switches to French: the next visit starts in French
    english.page.click("button[data-lang=fr]")
    english.page.wait_for_function("() => document.documentElement.lang === 'fr'")
    english.open()
    assert shown_language(english) == {"lang": "fr", "button": "Lancer", "pressed": "fr"}
    english.context.close()


def test_a_french_browser_starts_in_french(new_app: Any, site: str) -> None:
    french: App = new_app(site, locale="fr-CA")
    french.open()
    assert shown_language(french) == {"lang": "fr", "button": "Lancer", "pressed": "fr"}
    french.context.close()


# Every static text of the page, as parsed: {key: text}, and <html lang>.
PARSED = """() => ({
  lang: document.documentElement.lang,
  count: document.querySelectorAll('[data-i18n]').length,
  texts: Object.fromEntries([...document.querySelectorAll('[data-i18n]')].map(
    (node) => [node.dataset.i18n, node.textContent])),
  titles: Object.fromEntries([...document.querySelectorAll('[data-i18n-title]')].map(
    (node) => [node.dataset.i18nTitle, node.getAttribute('title')])),
})"""


def parsed_without_main(app: App, site: str) -> dict[str, Any]:
    """The page as the HTML and early.js make it, main.js held back until it is read; then
    main.js let through and the app ready."""
    held: list[Any] = []
    app.page.route("**/js/app/main.js", lambda route: held.append(route))
    app.page.goto(site, wait_until="commit")  # (the load event waits for main.js)
    count = app.page.evaluate("() => fetch('index.html').then((r) => r.text())").count(
        " data-i18n=\""
    )
    app.page.wait_for_function(
        "(n) => document.querySelectorAll('[data-i18n]').length === n", arg=count
    )
    while not held:
        app.page.wait_for_event("request")
    parsed = app.page.evaluate(PARSED)
    assert not app.page.evaluate("() => Boolean(window.pyrules)"), "main.js ran"
    held[0].continue_()
    app.wait_ready()
    app.page.unroute("**/js/app/main.js")
    return parsed


def test_the_page_is_in_its_language_before_its_script_runs(new_app: Any, site: str) -> None:
    """A French reader's page is whole before main.js runs: every static text and title is the
    page's own French (the build writes them in), so the start rewrites none of them (a
    rewrite has the browser lay the page out again while the engine starts). An English
    reader's page has lang="en" from its first style (early.js), and a stored choice wins
    there too; main.js then writes the English text."""
    french: App = new_app(site, locale="fr-FR")
    parsed = parsed_without_main(french, site)
    assert parsed["lang"] == "fr"
    said = french.page.evaluate(
        "(keys) => Object.fromEntries(keys.map((k) => [k, window.pyrules.modules.i18n.t(k)]))",
        [*parsed["texts"], *parsed["titles"]],
    )
    assert parsed["count"] > 40
    assert parsed["texts"] == {key: said[key] for key in parsed["texts"]}
    assert parsed["titles"] == {key: said[key] for key in parsed["titles"]}
    # a stored English choice: lang="en" before main.js, English once it ran
    french.page.click("button[data-lang=en]")
    french.page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert parsed_without_main(french, site)["lang"] == "en"
    assert french.page.text_content("#result-title") == "Result"
    french.check_clean()
    french.context.close()

    english: App = new_app(site, locale="en-GB")
    parsed = parsed_without_main(english, site)
    assert parsed["lang"] == "en"
    assert english.page.evaluate("() => document.documentElement.lang") == "en"
    assert english.page.text_content("#odds-title") == "Odds"
    english.check_clean()
    english.context.close()
