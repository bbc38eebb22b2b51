"""Throws that feel instant and dice that are mine (issue 22, items 4 to 6): the 3D renderer is
warmed up once the engine is ready (the first throw compiles no shader); the 3D view follows
the stage's size when the screen turns in the middle of a throw (never stretched, the dice
still land on the engine's faces); this device's dice colour and the opponent's distinct one;
the screen kept awake while the app is open, as the setting says."""

from __future__ import annotations

from typing import Any

from .conftest import App, local_handle

LANDED = "[data-roll-stage][data-state=landed]"
HOOKS = "window.__stage"


def hooks(app: App) -> None:
    """window.__stage: stage.js's test hooks (the page's own module instance)."""
    app.page.evaluate(
        "async () => { window.__stage = window.pyrules.modules.stage; }"
    )


# The drawing buffer and the camera against the canvas's laid-out shape (null: no 3D scene).
VIEW = f"""
() => {{
  const {{ scene }} = {HOOKS}.scene3d();
  if (!scene || !scene.canvas.isConnected) return null;
  const c = scene.canvas;
  return {{ client: c.clientWidth / c.clientHeight, buffer: c.width / c.height,
            camera: scene.camera.aspect, cw: c.clientWidth, ch: c.clientHeight }};
}}
"""

# A fake Screen Wake Lock recording what the page asks (headless Chromium may refuse one).
FAKE_WAKE_LOCK = """
window.__wake = { requested: 0, released: 0 };
Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: {
  request: async (type) => {
    window.__wake.requested += 1;
    const target = new EventTarget();
    target.type = type;
    target.release = async () => { window.__wake.released += 1;
      target.dispatchEvent(new Event('release')); };
    return target;
  },
}});
"""


def pool(app: App, pot: int) -> None:
    app.pick_system("pool")
    app.page.fill(app.field("actor", "pool", "pot"), str(pot))
    app.page.fill(app.field("actor", "pool", "flame"), "0")
    app.page.fill(app.field("actor", "pool", "diff"), "4")


def expected_faces(seed: int, pot: int) -> list[int]:
    request = {"op": "roll", "system": "pool", "params": {"pot": pot, "flame": 0, "diff": 4}}
    return [d["final"] for d in local_handle({**request, "seed": seed})["result"]["dice"]]


def test_warm_up_then_the_first_throw_compiles_nothing(new_app: Any, site: str) -> None:
    app = new_app(site, reduced_motion="no-preference")
    app.open()
    hooks(app)
    page = app.page
    page.wait_for_function(f"() => {HOOKS}.scene3d().warmed")
    before = page.evaluate(f"() => {HOOKS}.scene3d().scene.renderer.info.programs.length")
    assert before > 0
    pool(app, 6)
    app.set_seed(21)
    page.click("#roll-button")
    page.wait_for_selector(LANDED)
    assert page.get_attribute("[data-roll-stage]", "data-mode") == "3d"
    after = page.evaluate(f"() => {HOOKS}.scene3d().scene.renderer.info.programs.length")
    assert after == before, "the first throw compiled shaders the warm-up had not"


def test_the_view_follows_a_turn_in_the_middle_of_a_throw(new_app: Any, site: str) -> None:
    app = new_app(
        site,
        viewport={"width": 1024, "height": 768},
        reduced_motion="no-preference",
        has_touch=True,
        is_mobile=True,
    )
    app.open()
    hooks(app)
    page = app.page
    pool(app, 12)
    page.evaluate("() => window.pyrules.debug.delay(0)")
    app.set_seed(5)
    page.click("#roll-button")
    page.wait_for_selector("[data-roll-stage][data-state=rolling] canvas.stage-canvas")
    wide = page.evaluate(VIEW)
    page.set_viewport_size({"width": 768, "height": 1024})
    # The canvas takes the stage's new shape; the buffer and the camera follow it.
    page.wait_for_function(
        f"""(old) => {{ const v = ({VIEW})();
              return v && Math.abs(v.client - old) > 0.05
                && Math.abs(v.buffer - v.client) < 0.02
                && Math.abs(v.camera - v.client) < 0.02; }}""",
        arg=wide["client"],
    )
    page.wait_for_selector(LANDED)
    view = page.evaluate(VIEW)
    assert (
        abs(view["buffer"] - view["client"]) < 0.02 and abs(view["camera"] - view["client"]) < 0.02
    )
    assert page.evaluate("() => window.pyrules.shownFaces()") == expected_faces(5, 12)
    # Every die is drawn inside the canvas (projected centres within the view).
    inside = page.evaluate(
        f"""() => {{
          const {{ scene }} = {HOOKS}.scene3d();
          return scene.meshes.every((m) => {{
            const p = m.position.clone().project(scene.camera);
            return Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1;
          }});
        }}"""
    )
    assert inside


def test_my_dice_colour_and_the_opponent_s(new_app: Any, site: str) -> None:
    app = new_app(site, reduced_motion="no-preference")
    app.open()
    hooks(app)
    page = app.page
    colours = f"""() => {HOOKS}.scene3d().scene.meshes.map((m) => m.userData.colour)"""
    app.set_mode("oppose")
    app.pick_system("d6")
    for own, other in (("blue", "red"), ("ivory", "blue")):
        page.click(f"label[for=dice-colour-{own}]")
        stored = page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:dice')).colour")
        assert stored == own
        app.set_seed(3)
        page.click("#roll-button")
        page.wait_for_selector(LANDED)
        request = {"op": "oppose", "system": "d6", "actor": {}, "opponent": {}, "seed": 3}
        answer = local_handle(request)["result"]
        count = [len(answer["actor"]["dice"]), len(answer["opponent"]["dice"])]
        seen = page.evaluate(colours)
        assert seen == [own] * count[0] + [other] * count[1], (own, seen)
        page.keyboard.press("Escape")
    # Kept across a reload.
    page.click("label[for=dice-colour-green]")
    app.reload()
    assert page.is_checked("#dice-colour-green")


def test_the_screen_stays_awake_as_the_setting_says(new_app: Any, site: str) -> None:
    app = new_app(site)
    app.context.add_init_script(FAKE_WAKE_LOCK)
    app.open()
    hooks(app)
    page = app.page
    page.wait_for_function(f"() => {HOOKS}.awake()")
    assert page.evaluate("() => window.__wake.requested") == 1
    assert page.is_checked("#screen-awake")
    page.click("label[for=screen-awake]")
    page.wait_for_function(f"() => !{HOOKS}.awake()")
    assert page.evaluate("() => window.__wake.released") == 1
    assert page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:dice')).awake") is False
    # Off stays off after a reload: nothing asked.
    app.reload()
    hooks(app)
    app.settle()
    assert page.evaluate("() => window.__wake.requested") == 0
    assert not page.is_checked("#screen-awake")


def test_reduced_motion_loads_no_3d_dice_until_motion_is_allowed(new_app: Any, site: str) -> None:
    """With reduced motion the stage throws no dice, so a tap neither imports three.js nor
    compiles the looks; allowing motion again (a system setting) warms them up then."""
    app = new_app(site, reduced_motion="reduce")
    page = app.page
    asked: list[str] = []  # the page's own requests (the offline copy's are the worker's)
    page.on("request", lambda request: asked.append(request.url))
    app.open()
    hooks(app)
    pool(app, 3)
    app.roll()  # the first touch, which would start the warm-up
    page.wait_for_function("() => performance.getEntriesByName('pyrules:3d:held').length > 0")
    assert page.get_attribute("[data-roll-stage]", "data-mode") == "none"
    assert page.evaluate(f"() => {HOOKS}.scene3d().scene") is None
    assert not [url for url in asked if "three" in url], "three.js loaded for nothing"
    page.emulate_media(reduced_motion="no-preference")
    page.wait_for_function(f"() => {HOOKS}.scene3d().warmed")
    assert [url for url in asked if "three" in url]
