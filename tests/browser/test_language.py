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
