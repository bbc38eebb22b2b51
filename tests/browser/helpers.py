"""Helpers shared by the browser tests (issue 42: one module, not test modules importing
each other): reading what the page stored, the characters and fights the tests make
through the screens, the roll form's defaults, the boot's requests, the small targets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import App, local_handle

# -- what the page stored, damaged storage
QUARANTINE = "pyrules:quarantine:"


# Storage "full" on demand (kept across reloads in sessionStorage, which it never blocks).
QUOTA = """
(() => {
  const full = () => {
    try {
      return sessionStorage.getItem("__full") === "1";
    } catch {
      return false;
    }
  };
  const quota = () => new DOMException("The quota has been exceeded.", "QuotaExceededError");
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (this === window.localStorage && full()) throw quota();
    return setItem.call(this, key, value);
  };
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...args) {
    if (full()) throw quota();
    return put.apply(this, args);
  };
})();
"""


GOOD = {
    "id": "c-good",
    "system": "d100",
    "name": "Gardée",
    "note": "",
    "pc": True,
    "stats": {},
    "entries": [{"id": "e-1", "label": "Tir", "params": {"value": 55}}],
    "created": "2026-01-01T10:00:00.000Z",
    "updated": "2026-01-01T10:00:00.000Z",
}


ROLL = local_handle({"op": "roll", "system": "d100", "params": {"value": 50}, "seed": 5})["result"]


GOOD_ENTRY = {
    "id": "h-good",
    "time": "2026-01-01T10:00:00.000Z",
    "system": "d100",
    "mode": "roll",
    "params": ROLL["params"],
    "outcome": ROLL["outcome"],
    "margin": ROLL["margin"],
    "seed": 5,
    "physical": False,
}


def local(app: App) -> dict[str, str]:
    stored: dict[str, str] = app.page.evaluate("() => ({...localStorage})")
    return stored


def quarantined(app: App, key: str) -> list[str]:
    """Raw texts set aside for `key`, oldest first."""
    stored = local(app)
    prefix = f"{QUARANTINE}{key}:"
    return [stored[name] for name in sorted(stored) if name.startswith(prefix)]


OPEN_DB = """
const openDB = () => new Promise((resolve, reject) => {
  const open = indexedDB.open("pyrules");
  open.onsuccess = () => resolve(open.result);
  open.onerror = () => reject(open.error);
});
"""


def put_record(app: App, record: dict[str, Any]) -> None:
    app.page.evaluate(
        "async (record) => {"
        + OPEN_DB
        + """
        const db = await openDB();
        await new Promise((resolve, reject) => {
          const tx = db.transaction("characters", "readwrite");
          tx.objectStore("characters").put(record);
          tx.oncomplete = resolve;
          tx.onerror = () => reject(tx.error);
        });
        db.close();
        }""",
        record,
    )


def notice_text(app: App, kind: str) -> str:
    app.page.wait_for_selector(f"#notice-{kind}")
    return app.page.inner_text(f"#notice-{kind}")


def set_aside_items(app: App, record_id: str) -> list[dict[str, Any]]:
    """The damaged-data notice's download: the items set aside for the record `record_id`."""
    with app.page.expect_download() as info:
        app.page.click("#notice-corrupt [data-action=download]")
    items = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))["items"]
    return [item for item in items if json.loads(item["raw"]).get("id") == record_id]


# -- the roll form
SYSTEMS = local_handle({"op": "systems"})["result"]["systems"]


BY_ID = {s["id"]: s for s in SYSTEMS}


def reset_values(app: App, system_id: str, sides: tuple[str, ...] = ("actor",)) -> None:
    """Pick a system and put every field of the given sides back to its default."""
    page = app.page
    app.pick_system(system_id)
    page.evaluate("() => document.querySelectorAll('details.advanced').forEach(d => d.open = true)")
    for side in sides:
        for field in BY_ID[system_id]["fields"]:
            selector = app.field(side, system_id, field["name"])
            default = field["default"]
            if field["type"] == "int":
                page.fill(selector, "" if default is None else str(default))
            elif field["type"] == "text":
                page.fill(selector, default or "")
            elif field["type"] == "bool":
                page.set_checked(selector, bool(default), force=True)
            elif field["type"] == "choice":
                if page.locator(f"select{selector}").count():
                    page.select_option(selector, "" if default is None else str(default))
                else:
                    page.click(f"label[for={selector[1:]}-{default}]")
    app.settle()


def flame_cells(app: App) -> list[dict[str, Any]]:
    return app.page.eval_on_selector_all(
        "#result .die-cell.placeable",
        """(cells) => cells.map((c) => ({face: Number(c.dataset.face),
            rolled: Number(c.dataset.rolled),
            minus: !c.querySelector('.place--minus').disabled,
            plus: !c.querySelector('.place--plus').disabled}))""",
    )


# -- luck statistics
def wait_luck(app: App) -> None:
    app.page.wait_for_function(
        """() => JSON.parse(localStorage.getItem('pyrules:history') || '[]').every(
            (e) => !Number.isInteger(e.seed) || e.physical
                || (e.mode === 'oppose'
                    ? typeof e.actorLuck === 'number' && typeof e.opponentLuck === 'number'
                    : typeof e.luck === 'number'))"""
    )


# -- characters made through the screens, the history
def show(app: App, view: str) -> None:
    """A tap on a screen's tab (the bar is at the bottom on phones)."""
    app.page.click(f"#tab-{view}")
    app.page.wait_for_selector(f"#view-{view}:not([hidden])")


def check_screen(app: App, label: str) -> None:
    """No horizontal scroll, and no touch target under 44 px, on the screen shown now."""
    page = app.page
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{label}: horizontal scroll of {overflow}px"
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], f"{label}: touch targets under 44 px: {small}"


# -- the shared table, through its screens
def invite(gm: App) -> str:
    """The GM taps « Héberger : nouvelle invitation »: the link, once its QR code is drawn."""
    show(gm, "table")
    gm.page.click("#table-host-button")
    gm.page.wait_for_selector("#table-invite:not([hidden]) #table-invite-qr svg")
    link = gm.page.input_value("#table-invite-link")
    assert "#table=" in link
    return link


def answer_of(player: App, link: str, name: str) -> str:
    """The player opens the invite, types a name and taps Rejoindre: its answer's text, once
    its QR code is drawn."""
    player.page.goto(link)
    player.wait_ready()
    player.page.wait_for_selector("#table-join:not([hidden])")
    assert player.page.is_hidden(".table-host"), (
        "a player opened from an invite sees only Rejoindre"
    )
    player.page.fill("#table-name", name)
    player.page.click("#table-join-button")
    player.page.wait_for_selector("#table-answer:not([hidden]) #table-answer-qr svg")
    return player.page.input_value("#table-answer-out")


def accept(gm: App, answer: str) -> None:
    """The answer pasted into the GM's box, then Accepter."""
    show(gm, "table")
    gm.page.fill("#table-answer-in", answer)
    gm.page.click("#table-accept")


def join(gm: App, player: App, name: str) -> None:
    """Invite -> the player opens the link, types a name, taps Rejoindre -> its answer text
    -> pasted into the GM's box, Accepter -> both screens say so."""
    accept(gm, answer_of(player, invite(gm), name))
    player.page.wait_for_selector("#table-player-state[data-state=connected]")
    gm.page.wait_for_selector(f"#table-peers .table-peer[data-connected=true]:has-text('{name}')")
    # A used invite leaves the GM's screen at once.
    assert gm.page.is_hidden("#table-invite")


def pick_character(app: App, name: str) -> None:
    app.page.click(f"#char-list .char-card:has(.char-card-name:text-is('{name}'))")
    app.page.wait_for_selector(f"#char-detail .sheet-name:text-is('{name}')")


def history_entries(app: App) -> list[dict[str, Any]]:
    return app.page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:history') || '[]')")


def stored_characters(app: App) -> list[dict[str, Any]]:
    return app.page.evaluate(
        """() => new Promise((resolve, reject) => {
            const open = indexedDB.open('pyrules');
            open.onsuccess = () => {
              const req = open.result.transaction('characters').objectStore('characters').getAll();
              req.onsuccess = () => { resolve(req.result); open.result.close(); };
              req.onerror = () => reject(req.error);
            };
            open.onerror = () => reject(open.error);
        })"""
    )


def wait_history(app: App, count: int) -> None:
    app.page.wait_for_function(
        "(n) => document.querySelectorAll('#history .history-entry').length === n", arg=count
    )


def create_d6(
    app: App, name: str, *, pc: bool, flame: int, entries: list[tuple[str, int, int]]
) -> None:
    page = app.page
    page.click("#char-new")
    page.fill("#char-name", name)
    page.click("label[for=char-system-d6]")
    if not pc:
        page.click("label[for=char-pc]")
    page.fill("#f-stats-d6-flame", str(flame))
    for index, (label, attribute, skill) in enumerate(entries):
        page.click("#entry-add")
        page.fill(f"#entry-label-{index}", label)
        page.fill(f"#f-e{index}-d6-attribute", str(attribute))
        page.fill(f"#f-e{index}-d6-skill", str(skill))
    page.click("#char-save")
    page.wait_for_selector(f"#char-detail .sheet-name:text-is('{name}')")


def make_darate(app: App) -> None:
    """The d6 player character most tests use: Épée 5 + 3, Perception 2 + 1, Flamme 2."""
    show(app, "characters")
    create_d6(app, "Darate", pc=True, flame=2, entries=[("Épée", 5, 3), ("Perception", 2, 1)])


def open_situation(app: App) -> None:
    app.page.evaluate("() => { document.getElementById('situation').open = true; }")


# -- a fight
ALDRIC = {
    "id": "aldric",
    "system": "steps",
    "name": "Aldric",
    "note": "Chevalier errant",
    "pc": True,
    "stats": {"ardeur": 12, "accessories": 1},
    "entries": [
        {"label": "Combat", "params": {"die": 8, "threshold": 5, "bonus": 1}},
        {"label": "Bagarre", "params": {"die": 6, "threshold": 5, "bonus": 0}},
        {"label": "Tir", "params": {"die": 10, "threshold": 6, "bonus": 0}},
    ],
}


def log_count(app: App) -> int:
    return app.page.locator("#combat-log .combat-log-entry").count()


def fighter(name: str) -> str:
    return f"#combat-order .fighter:has(.fighter-label:text-is('{name}'))"


def act(app: App, actor: str, target: str, kind: str, seed: int) -> None:
    page = app.page
    page.click(f"label[for=combat-kind-{kind}]")
    page.select_option("#combat-actor", label=actor)
    page.select_option("#combat-target", label=target)
    before = log_count(app)
    app.set_seed(seed)
    page.click("#combat-resolve")
    page.wait_for_function(
        "(n) => document.querySelectorAll('#combat-log .combat-log-entry').length === n",
        arg=before + 1,
    )


def add_quick(app: App, name: str, ardeur_points: int, extra: bool) -> None:
    page = app.page
    page.fill("#combat-quick-name", name)
    page.fill("#f-quick-steps-ardeur", str(ardeur_points))
    page.select_option("#f-quick-steps-die", "6")
    page.fill("#f-quick-steps-threshold", "5")
    page.fill("#f-quick-steps-bonus", "0")
    if page.is_checked("#combat-quick-extra") != extra:
        page.click("label[for=combat-quick-extra]")
    page.click("#combat-add-quick")
    page.wait_for_selector(fighter(name))


def import_characters(app: App, path: Path, characters: list[dict[str, Any]]) -> None:
    """Characters arrive by import on the characters screen (the export format, written to
    `path`); the first one's sheet is shown."""
    page = app.page
    path.write_text(
        json.dumps({"format": "pyrules-characters", "version": 1, "characters": characters}),
        encoding="utf-8",
    )
    page.click("#tab-characters")
    page.set_input_files("#chars-import-file", str(path))
    page.wait_for_selector(f"#char-detail .sheet-name:text-is('{characters[0]['name']}')")


def import_aldric(app: App, folder: Path) -> None:
    """The step-dice character arrives by import (the export format)."""
    import_characters(app, folder / "aldric.json", [ALDRIC])


def pick_aldric(app: App, folder: Path) -> None:
    """Aldric imported, the combat screen open with him picked to join (not yet added)."""
    page = app.page
    import_aldric(app, folder)
    page.click("#tab-combat")
    page.wait_for_selector("#view-combat:not([hidden]) #combat-order")
    page.select_option("#combat-add-char", label="Aldric")


# -- sizes
# Visible controls smaller than 44 × 44 CSS pixels (radios and checkboxes are drawn by
# their labels, so the labels are measured instead).
SMALL_TARGETS = """
() => {
  const out = [];
  const seen = (el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return r.width > 2 && r.height > 2 && style.visibility !== 'hidden' && el.offsetParent !== null;
  };
  const controls = [...document.querySelectorAll('button, select, summary, input, label[for]')];
  for (const el of controls) {
    if (el.matches('input[type=radio], input[type=checkbox]')) continue;
    if (!seen(el)) continue;
    if (el.matches('label[for]')) {
      const target = document.getElementById(el.htmlFor);
      if (!target || !target.matches('input[type=radio], input[type=checkbox]')) continue;
    }
    const r = el.getBoundingClientRect();
    if (r.height < 44 || (r.width < 44 && !el.matches('summary'))) {
      const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
      out.push(`${el.tagName.toLowerCase()}#${el.id || ''}.${el.className} ${size}`);
    }
  }
  return out;
}
"""


# -- the boot's requests
def engine_requests() -> list[Any]:
    systems = local_handle({"op": "systems"})["result"]["systems"]
    requests: list[Any] = [
        {"op": "systems"},
        {"op": "systems", "lang": "en"},
        {"op": "version"},
        {"op": "nope"},
        {"op": "roll", "system": "nope", "params": {}},
        {"op": "roll", "system": "pool", "params": {"pot": 99}},
        {"op": "roll", "system": "pool", "params": {"bogus": 1}, "lang": "en"},
        {"op": "roll", "system": "pool", "params": {"pot": 6, "diff": 4, "dice": "1,4,1,1,6,3"}},
        {"op": "roll", "system": "pool", "params": {"flame": 2, "augmentations": 1}, "seed": 0},
        # The engine's libraries (lark, icepool, segno), imported at their first use: after a
        # snapshot restore, from the wheels the worker puts back on sys.path.
        {"op": "odds", "system": "notation", "params": {"expression": "4d6kh3!+1dF-2d4ro1"}},
        {"op": "roll", "system": "notation", "params": {"expression": "5d10>=8"}, "seed": 5},
        {"op": "qr", "text": "https://example.org/pyrules/#replay=eyJ2IjoxfQ"},
        {
            "op": "oppose",
            "system": "d6",
            "actor": {"pc": False},
            "opponent": {"pc": False},
            "seed": 0,
        },
        {
            "op": "oppose",
            "system": "pool",
            "actor": {"pot": 5},
            "opponent": {"pot": 7},
            "seed": 2**53 - 1,
        },
        {"op": "dice", "system": "pool", "params": {"pot": 6, "flame": -2}},
        "{not json",
    ]
    for i, system in enumerate(systems):
        requests.append({"op": "roll", "system": system["id"], "params": {}, "seed": 1000 + i})
        requests.append({"op": "odds", "system": system["id"], "params": {}})
        requests.append(
            {"op": "oppose", "system": system["id"], "actor": {}, "opponent": {}, "seed": 77}
        )
    return requests

