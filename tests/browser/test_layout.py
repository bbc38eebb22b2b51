"""Dice animation, keyboard use and layout at tablet and phone sizes (screenshots in
test-output/screenshots/). How smooth a roll is (main-thread tasks) is measured by
bench/boot.py, not asserted here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import App, local_handle, outcome_label, signed, wait_announced
from .helpers import SMALL_TARGETS

SIZES = [("tablet-landscape", 1024, 768), ("tablet-portrait", 768, 1024), ("phone", 360, 740)]


@pytest.fixture(scope="module")
def app(new_app: Any, site: str) -> Iterator[App]:
    app = new_app(site, reduced_motion="no-preference")
    # These tests watch the page's 2D dice: the 3D stage (test_stage.py) is set aside, so that
    # the software WebGL of a headless Chromium does not slow the sampling below down.
    app.context.add_init_script(
        "localStorage.setItem('pyrules:dice', JSON.stringify({mode: '2d', sound: false}))"
    )
    app.open()
    yield app
    app.context.close()


def faces(app: App) -> list[int]:
    return app.page.eval_on_selector_all(
        "#result .die", "dice => dice.map(d => Number(d.dataset.face))"
    )


def set_pool(app: App, **values: int) -> None:
    app.pick_system("pool")
    for name, value in values.items():
        app.page.fill(app.field("actor", "pool", name), str(value))
    app.settle()


# Watches the page from before a roll: at the first change that shows tumbling dice on the
# roll stage (2D here) it notes what the page shows then (in the same task as the roll's
# drawing, before any animation frame), then every set of the stage's faces until the card
# lands, and whether the card's own dice ever tumbled (they must not: the stage plays the
# roll, the card waits under it). `skip` ("key" | "tap") sends that input right at that
# first moment and notes whether the card landed at once.
# Read the record with RECORD once `done` is true: nothing here depends on how fast frames come.
WATCH_ROLL = """
(skip) => {
  const area = document.getElementById('result');
  const stageDice = () => document.querySelectorAll('[data-roll-stage] .die');
  const faces = () => [...stageDice()].map((d) => d.dataset.face).join(',');
  const record = { first: null, samples: [], done: false, landedAtOnce: null, cardTumbled: false };
  window.__roll = record;
  const observer = new MutationObserver(() => {
    const tumbling = document.querySelectorAll('[data-roll-stage] .die.tumbling');
    if (area.querySelector('.die.tumbling')) record.cardTumbled = true;
    if (record.first === null && tumbling.length) {
      const badge = area.querySelector('.tier-badge--big');
      record.first = {
        tumbling: tumbling.length,
        durations: [...tumbling].map((d) => d.style.animationDuration),
        skipHint: !document.getElementById('skip-hint').hidden,
        badge: badge ? getComputedStyle(badge).visibility : null,
      };
      if (skip === 'key') {
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      } else if (skip === 'tap') {
        document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      }
      if (skip) record.landedAtOnce = !!area.querySelector('.result-card.is-landed');
    }
    if (record.first === null) return; // (the last roll's card is still landed until then)
    record.samples.push(faces());
    if (area.querySelector('.result-card.is-landed')) {
      record.done = true;
      observer.disconnect();
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
}
"""
RECORD = "() => window.__roll"


def watched_roll(app: App, skip: str | None = None) -> dict[str, Any]:
    """Roll (seed already set) while WATCH_ROLL records; returns its record once landed."""
    app.page.evaluate(WATCH_ROLL, skip)
    app.roll()
    app.page.wait_for_function("() => window.__roll.done")
    record: dict[str, Any] = app.page.evaluate(RECORD)
    return record


def test_dice_tumble_then_land_on_the_engine_faces(app: App) -> None:
    """How long the main thread is busy during this roll is measured by bench/boot.py (a
    timing goal, not a test assert)."""
    page = app.page
    set_pool(app, pot=40, diff=9, flame=3)
    expected = local_handle(
        {"op": "roll", "system": "pool", "params": {"pot": 40, "diff": 9, "flame": 3}, "seed": 99}
    )["result"]
    app.set_seed(99)
    record = watched_roll(app)
    first = record["first"]
    assert first["tumbling"] == 40
    assert first["skipHint"] is True
    # About a second of tumbling: each die is given 0.75-1.1 s, so that the landing ripples.
    durations = first["durations"]
    assert all(d.endswith("ms") and 750 <= int(d[:-2]) <= 1100 for d in durations), durations
    # The tier stays hidden while the dice roll.
    assert first["badge"] == "hidden"
    assert len(set(record["samples"])) >= 3, "faces should cycle while the dice tumble"
    assert record["cardTumbled"] is False, "the card's dice tumbled under the stage"
    assert page.locator("#result .result-card.is-landed").count() == 1
    assert faces(app) == [d["final"] for d in expected["dice"]]
    assert page.locator("#result .die.tumbling").count() == 0
    assert page.is_hidden("#skip-hint")
    label = outcome_label("pool", expected["outcome"])
    # the number first (issue 39), then the tier and the margin
    spoken = expected["headline_spoken"]["fr"]
    wait_announced(page, f"{spoken}. {label}, marge {signed(expected['margin'])}.")


@pytest.mark.parametrize("how", ["key", "tap"])
def test_animation_can_be_skipped(app: App, how: str) -> None:
    page = app.page
    set_pool(app, pot=8, diff=4, flame=0)
    app.set_seed(5)
    record = watched_roll(app, skip=how)
    assert record["first"]["tumbling"] == 8
    # Landed in the very task of the key or the tap, before any animation frame.
    assert record["landedAtOnce"] is True
    assert page.locator("#result .die.tumbling").count() == 0
    expected = local_handle({"op": "roll", "system": "pool", "params": {"pot": 8}, "seed": 5})
    assert faces(app) == [d["final"] for d in expected["result"]["dice"]]


def test_reduced_motion_shows_the_faces_at_once(app: App) -> None:
    page = app.page
    set_pool(app, pot=8, diff=4, flame=0)
    page.emulate_media(reduced_motion="reduce")
    try:
        app.set_seed(6)
        app.roll()
        # Landed in the same task as the answer: no tumbling frame ever.
        assert page.locator("#result .result-card.is-landed").count() == 1
        assert page.locator("#result .die.tumbling").count() == 0
    finally:
        page.emulate_media(reduced_motion="no-preference")


def test_keyboard_only_roll_with_visible_focus(app: App) -> None:
    page = app.page
    set_pool(app, pot=6, diff=4, flame=0)
    page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "roll-button":
            break
    else:
        pytest.fail("Tab never reached the roll button")
    outline = page.eval_on_selector("#roll-button", "b => getComputedStyle(b).outlineStyle")
    assert outline != "none"
    before = app.shown()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(n) => Number(document.getElementById('result').dataset.shown) > n", arg=before
    )
    # Arrow keys move between systems (native radio group).
    page.focus("#system-pool")
    page.keyboard.press("ArrowRight")
    assert page.is_checked("#system-d6")
    page.wait_for_selector(".side-form[data-system=d6]")


@pytest.mark.parametrize(("name", "width", "height"), SIZES)
def test_layout_and_screenshots(app: App, name: str, width: int, height: int) -> None:
    page = app.page
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(reduced_motion="reduce")
    try:
        app.set_mode("single")
        set_pool(app, pot=7, diff=3, flame=2, augmentations=1)
        app.set_seed(0)
        app.roll()
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"horizontal scroll of {overflow}px at {width}px"
        small = page.evaluate(SMALL_TARGETS)
        assert small == [], f"touch targets under 44 px at {width}px: {small}"
        page.evaluate("() => window.scrollTo(0, 0)")
        app.screenshot(f"{name}-{width}x{height}")
        page.locator(".result-panel").scroll_into_view_if_needed()
        app.screenshot(f"{name}-{width}x{height}-result")
        app.screenshot(f"{name}-{width}x{height}-full", full_page=True)
        # Opposed roll: forms side by side on tablets, stacked on phones.
        app.set_mode("oppose")
        app.set_seed(3)
        app.roll()
        actor = page.locator(".side--actor").bounding_box()
        opponent = page.locator(".side--opponent").bounding_box()
        assert actor and opponent
        if width >= 700:
            assert abs(actor["y"] - opponent["y"]) < 2 and opponent["x"] > actor["x"]
        else:
            assert opponent["y"] >= actor["y"] + actor["height"]
        assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
        assert page.evaluate(SMALL_TARGETS) == []
        page.locator(".result-panel").scroll_into_view_if_needed()
        app.screenshot(f"{name}-{width}x{height}-oppose")
    finally:
        app.set_mode("single")
        page.emulate_media(reduced_motion="no-preference")
        page.set_viewport_size({"width": 1024, "height": 768})


@pytest.mark.parametrize(
    ("width", "height", "columns"), [(1024, 768, 2), (768, 1024, 1), (360, 740, 1)]
)
def test_characters_and_combat_screens_take_two_columns_on_a_landscape_tablet(
    app: App, width: int, height: int, columns: int
) -> None:
    """The characters list beside its sheet, the fighters beside the action, from 960 px; one
    column below. (A selector list ending in "@media" once made browsers drop the grid.)"""
    page = app.page
    page.set_viewport_size({"width": width, "height": height})
    try:
        for view, layout in (("characters", ".chars-layout"), ("combat", ".combat-layout")):
            page.click(f"#tab-{view}")
            page.wait_for_selector(f"{layout} > :nth-child(2)")
            boxes = page.evaluate(
                """(sel) => [...document.querySelector(sel).children]
                    .map((el) => el.getBoundingClientRect()).map((r) => [r.x, r.y, r.width])""",
                layout,
            )
            assert page.eval_on_selector(layout, "el => getComputedStyle(el).display") == "grid"
            (x1, y1, w1), (x2, y2, _) = boxes[0], boxes[1]
            if columns == 2:
                assert x2 >= x1 + w1 and abs(y2 - y1) < 2, (view, boxes)
            else:
                assert x2 == x1 and y2 > y1, (view, boxes)
            overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0, (view, overflow)
    finally:
        page.click("#tab-roll")
        page.set_viewport_size({"width": 1024, "height": 768})


# Every tab label whose text is cut (ellipsis): with the tabs as they are, then with a seventh
# tab (a copy of the widest one) as the bar may soon hold.
CUT_TAB_LABELS = """
() => {
  const cut = () => [...document.querySelectorAll('#view-tabs .tab-label')]
    .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 0.5)
    .map((el) => `${el.textContent} ${el.scrollWidth}>${el.clientWidth}`);
  const now = cut();
  const list = document.querySelector('#view-tabs .view-tablist');
  const widest = [...list.children].sort((a, b) => b.scrollWidth - a.scrollWidth)[0];
  const extra = widest.cloneNode(true);
  extra.removeAttribute('id');
  list.append(extra);
  const seven = cut();
  extra.remove();
  return {now, seven, tabs: list.children.length};
}
"""


@pytest.mark.parametrize(("name", "width", "height"), SIZES)
def test_every_tab_label_fits_whole(app: App, name: str, width: int, height: int) -> None:
    """Issue 22: « Personnag… » at 1024×768. Every label whole, in French and English."""
    page = app.page
    page.set_viewport_size({"width": width, "height": height})
    try:
        for language in ("en", "fr"):
            page.click(f"[data-lang={language}]")
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=language)
            cut = page.evaluate(CUT_TAB_LABELS)
            assert cut["now"] == [] and cut["seven"] == [], (name, language, cut)
    finally:
        page.set_viewport_size({"width": 1024, "height": 768})


@pytest.mark.parametrize(("name", "width", "height"), SIZES)
def test_the_first_field_shows_on_the_first_screen(
    app: App, name: str, width: int, height: int
) -> None:
    """Issue 39: at every size, a phone included, the roll form's first field is in view when
    the app opens, above the roll bar (a phone's system picker is one row that scrolls)."""
    page = app.page
    page.set_viewport_size({"width": width, "height": height})
    try:
        app.pick_system("pool")
        page.evaluate("() => window.scrollTo(0, 0)")
        facts = page.evaluate(
            """() => {
              const input = document.querySelector('.side-form input');
              const bar = document.querySelector('.roll-row').getBoundingClientRect();
              const box = input.getBoundingClientRect();
              return {top: box.top, bottom: box.bottom, bar: bar.top};
            }"""
        )
        assert facts["top"] >= 0 and facts["bottom"] <= facts["bar"], (name, facts)
        if width < 480:  # a phone: the picker is one row
            rows = page.evaluate("() => document.getElementById('systems').offsetHeight")
            assert rows <= 72, rows
        # every system can still be chosen: the last one, once scrolled to
        app.pick_system("notation")
        app.pick_system("pool")
    finally:
        page.set_viewport_size({"width": 1024, "height": 768})


# The chosen system's label lies inside the picker's box, and the picker does scroll (its
# row is wider than the box), so a picker left at its start would not show it.
CHOSEN_IN_VIEW = """() => {
  const box = document.getElementById('systems');
  const label = box.querySelector('input:checked + label');
  if (!label || box.scrollWidth <= box.clientWidth) return false;
  const inner = box.getBoundingClientRect();
  const rect = label.getBoundingClientRect();
  return rect.left >= inner.left - 1 && rect.right <= inner.right + 1;
}"""


def test_a_phone_opens_with_the_chosen_system_in_view(app: App) -> None:
    """Issue 39: a phone's picker is one row that scrolls sideways; the system chosen last is
    in view when the app opens again (measured at the first frame, not while the page starts:
    docs/performance.md, tenth session)."""
    page = app.page
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        last = page.eval_on_selector_all("#systems input", "radios => radios.at(-1).value")
        app.pick_system(last)
        app.settle()  # the choice is kept
        app.reload()
        assert page.is_checked(f"#system-{last}")
        page.wait_for_function(CHOSEN_IN_VIEW)
        assert page.evaluate("() => document.getElementById('systems').scrollLeft") > 0
    finally:
        app.pick_system("pool")
        page.set_viewport_size({"width": 1024, "height": 768})


def test_on_a_landscape_tablet_the_roll_bar_leaves_the_result_uncovered(app: App) -> None:
    """Issue 39: two columns, the bar sits under the form's: the result's dice beside it are
    never under the bar once the stage closes."""
    page = app.page
    page.set_viewport_size({"width": 1024, "height": 768})
    app.set_mode("single")
    set_pool(app, pot=6, diff=4, flame=0)
    app.set_seed(3)
    app.roll()
    page.wait_for_selector("[data-roll-stage][data-state=landed]")
    page.keyboard.press("Escape")
    facts = page.evaluate(
        """() => {
          const bar = document.querySelector('.roll-row').getBoundingClientRect();
          const result = document.querySelector('.result-panel').getBoundingClientRect();
          const form = document.querySelector('.forms-panel').getBoundingClientRect();
          return {bar: [bar.left, bar.right], result: result.left, form: [form.left, form.right]};
        }"""
    )
    assert facts["bar"][1] <= facts["result"], facts
    assert facts["bar"][0] >= facts["form"][0] - 1 and facts["bar"][1] <= facts["form"][1] + 1
