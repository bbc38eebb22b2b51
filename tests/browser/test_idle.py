"""A page left alone draws nothing: once started, on every screen, the app asks the browser for
no frame while nobody touches it (a tablet's battery, a phone's heat; and the CPU of every
page this suite keeps open). In Chromium, a select disabled as it was built inside a closed
<details> (the GM's curve, under the odds) once kept the page drawing a frame every 16 ms,
idle, on about five starts out of six.

How it is measured: a Chromium trace of the page, taken while it is idle, counts the frames
its main thread began. The window is the measure itself (frames per second), not a wait for
something to happen: a busy machine draws fewer frames, never more."""

from __future__ import annotations

import json
from typing import Any

from .conftest import App

WINDOW_MS = 500
#: A frame or two can be owed to the last change; the fault drew about 60 a second (30 here).
MOST_FRAMES = 6


def frames_while_idle(app: App, browser: Any) -> int:
    app.settle()
    browser.start_tracing(page=app.page, categories=["cc"])
    try:
        app.page.wait_for_timeout(WINDOW_MS)
    finally:
        data = json.loads(browser.stop_tracing())
    events = data["traceEvents"] if isinstance(data, dict) else data
    return sum(1 for e in events if e.get("name") == "ProxyMain::BeginMainFrame")


def test_an_idle_page_draws_no_frame_on_any_screen(new_app: Any, site: str, browser: Any) -> None:
    app = new_app(site, has_touch=True)
    app.open()
    seen = {"roll": frames_while_idle(app, browser)}
    for tab in ("characters", "combat", "stats", "history", "table", "roll"):
        app.page.click(f"#tab-{tab}")
        app.page.wait_for_selector(f"#view-{tab}:not([hidden])")
        seen[f"{tab} (shown)"] = frames_while_idle(app, browser)
    # The GM's curve opened, then closed again: its select is drawn, then hidden.
    app.page.click("#curve-panel > summary")
    app.page.wait_for_selector("#curve-svg", state="visible")
    app.page.click("#curve-panel > summary")
    app.page.wait_for_selector("#curve-svg", state="hidden")
    seen["curve closed again"] = frames_while_idle(app, browser)
    busy = {screen: n for screen, n in seen.items() if n > MOST_FRAMES}
    assert not busy, f"frames drawn in {WINDOW_MS} ms by an idle page: {busy}"
    app.context.close()
