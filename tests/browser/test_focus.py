"""Issue 39, item 4: one focus style everywhere, visible at 3 px, the number steppers
included (their input drew a 1.5 px border colour only)."""

from __future__ import annotations

from .conftest import App

OUTLINE = """(sel) => { const n = document.querySelector(sel);
  const s = getComputedStyle(n); return [s.outlineStyle, s.outlineWidth]; }"""


def test_a_focused_stepper_and_its_buttons_show_the_same_3px_focus(app: App) -> None:
    page = app.page
    app.pick_system("pool")
    field = app.field("actor", "pool", "pot")
    page.focus(field)
    page.wait_for_function("(sel) => document.activeElement === document.querySelector(sel)",
                           arg=field)
    assert page.evaluate(
        "(sel) => { const s = getComputedStyle(document.querySelector(sel).closest('.stepper'));"
        " return [s.outlineStyle, s.outlineWidth]; }", field) == ["solid", "3px"]
    page.keyboard.press("Tab")  # to the stepper's next button, by keyboard
    focused = page.evaluate("() => document.activeElement.className")
    assert "step" in focused, focused
    style = page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                          " return [s.outlineStyle, s.outlineWidth]; }")
    assert style == ["solid", "3px"]
    page.focus("#roll-button")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert page.evaluate(OUTLINE, "#roll-button") == ["solid", "3px"]
