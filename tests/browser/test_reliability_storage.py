"""Reliability, data safety: damaged storage is set aside (never dropped) and the player is
told; a full storage is reported and loses nothing; exports work whatever the storage.

A browser profile of its own for each test (nothing is carried from one test to the next):
  1. every localStorage key the app reads holds invalid JSON, and IndexedDB has a
     "characters" store with the wrong key path (one character, one record of junk);
  2. the same keys hold JSON of the wrong shape, and a junk record sits among the characters;
  3. the "characters" object store is gone;
  4. storage full while rolling and saving a character;
  5. a damaged key when even the copy aside cannot be written (storage full).
Storage-full errors come from an init script that makes localStorage.setItem and
IDBObjectStore.put throw QuotaExceededError while sessionStorage["__full"] is "1".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import App
from .helpers import (
    GOOD,
    GOOD_ENTRY,
    OPEN_DB,
    QUOTA,
    SMALL_TARGETS,
    local,
    notice_text,
    put_record,
    quarantined,
)

KEYS = [
    "pyrules:history",
    "pyrules:state",
    "pyrules:systems",
    "pyrules:lang",
    "pyrules:session",
    "pyrules:fight",
    "pyrules:fight-undo",
]


JUNK_RECORD = {"name": "Broken", "id": 7, "entries": "nope"}


def seed_js(values: dict[str, str]) -> str:
    return f"Object.entries({json.dumps(values)}).forEach(([k, v]) => localStorage.setItem(k, v))"


def read_db(app: App) -> dict[str, Any]:
    """{characters, quarantine, keyPath, version} of the pyrules database."""
    found: dict[str, Any] = app.page.evaluate(
        "async () => {"
        + OPEN_DB
        + """
        const db = await openDB();
        const read = (name) => new Promise((resolve, reject) => {
          if (!db.objectStoreNames.contains(name)) return resolve(null);
          const req = db.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        const has = db.objectStoreNames.contains("characters");
        const out = {
          characters: await read("characters"),
          quarantine: await read("quarantine"),
          keyPath: has ? db.transaction("characters").objectStore("characters").keyPath : null,
          version: db.version,
        };
        db.close();
        return out;
        }"""
    )
    return found


def page_is_usable(app: App) -> None:
    """Not blank: the forms are there, a roll works, every screen opens."""
    page = app.page
    assert page.is_enabled("#roll-button")
    assert page.locator("#forms .side-form input").count() > 0
    assert len(page.inner_text("body")) > 300
    for view in ("characters", "combat", "stats", "history", "roll"):
        page.click(f"#tab-{view}")
        page.wait_for_selector(f"#view-{view}:not([hidden])")
        assert page.locator(f"#view-{view} .view-loading").count() == 0


def history_count(app: App) -> int:
    return app.page.locator("#history .history-entry").count()


@pytest.fixture
def app(new_app: Any, site: str) -> Iterator[App]:
    """A fresh profile, not opened yet (the first tests seed storage before the app runs)."""
    app = new_app(site)
    app.context.add_init_script(QUOTA)
    # The seeding page (version.json) makes the browser ask for a favicon the site has not.
    app.page.route("**/favicon.ico", lambda route: route.fulfill(status=204, body=""))
    yield app
    app.context.close()


def test_invalid_json_everywhere_is_set_aside_and_told(app: App, site: str) -> None:
    page = app.page
    # Seed from another page of the same origin, before the app ever runs.
    page.goto(site + "version.json")
    bad = {key: "{oops" if key != "pyrules:lang" else "fr" for key in KEYS}
    page.evaluate(seed_js(bad))
    page.evaluate(
        """([good, junk]) => new Promise((resolve, reject) => {
            const open = indexedDB.open("pyrules", 1);
            open.onupgradeneeded = () => {
              const store = open.result.createObjectStore("characters", { keyPath: "name" });
              store.put(good);
              store.put(junk);
            };
            open.onsuccess = () => { open.result.close(); resolve(); };
            open.onerror = () => reject(open.error);
        })""",
        [GOOD, JUNK_RECORD],
    )
    app.open()
    page.click("#tab-stats")  # the session start is read when the statistics are drawn
    page.click("#tab-roll")
    # Each value was copied aside as it was, then cleared.
    for key, raw in bad.items():
        assert quarantined(app, key) == [raw], key
    stored = local(app)
    assert "pyrules:history" not in stored or json.loads(stored["pyrules:history"]) == []
    # The wrong store was rebuilt: the character kept, the junk record set aside.
    db = read_db(app)
    assert db["keyPath"] == "id"
    assert db["characters"] == [GOOD]
    assert [q["record"] for q in db["quarantine"]] == [JUNK_RECORD]
    # The player is told, in French, with what was set aside.
    text = notice_text(app, "corrupt")
    assert page.get_attribute("#notice-corrupt", "role") == "alert"
    assert "Des données abîmées ont été mises de côté" in text
    for what in (
        "l’historique des jets",
        "les réglages du formulaire",
        "la langue choisie",
        "le combat en cours",
        "les personnages",
        "le début de la session",
    ):
        assert what in text, what
    page_is_usable(app)
    assert page.evaluate(SMALL_TARGETS) == []
    app.screenshot("notice-corrupt")
    page.click("#tab-characters")
    page.wait_for_selector("#char-list .char-card-name:text-is('Gardée')")
    page.click("#tab-roll")
    # The download holds every raw value, as it was.
    with page.expect_download() as info:
        page.click("#notice-corrupt [data-action=download]")
    data = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert info.value.suggested_filename.startswith("pyrules-quarantine-")
    assert data["format"] == "pyrules-quarantine"
    raws = {item["key"]: item["raw"] for item in data["items"] if item["store"] == "localStorage"}
    assert raws == bad
    junk = [item for item in data["items"] if item["store"] == "indexedDB"]
    assert [json.loads(item["raw"]) for item in junk] == [JUNK_RECORD]
    page.wait_for_selector("#notice-corrupt .notice-status:has-text('Téléchargé')")
    # English too; then closing it gives the focus back to the screen's tab.
    page.click("button[data-lang=en]")
    assert "Damaged data was set aside" in notice_text(app, "corrupt")
    assert "the roll history" in notice_text(app, "corrupt")
    page.click("#notice-corrupt [data-action=close]")
    page.wait_for_selector("#notice-corrupt", state="detached")
    assert page.evaluate("() => document.activeElement.id") == "tab-roll"
    assert page.is_hidden("#notices")
    page.click("button[data-lang=fr]")
    # Nothing is told again at the next visit: the app wrote clean values meanwhile.
    app.set_seed(3)
    app.roll()
    app.reload()
    assert page.locator("#notice-corrupt").count() == 0
    assert history_count(app) == 1


def test_wrong_shapes_keep_what_is_good(app: App) -> None:
    page = app.page
    history = [GOOD_ENTRY, {"id": 5}, {**GOOD_ENTRY, "id": "h-bad-time", "time": "hier"}, "x"]
    state = {"system": "pool", "values": {"pool": "oops", "d100": {"actor": {"value": "61"}}}}
    fight = {"round": 1, "turn": 0, "participants": [{"name": "X"}], "log": []}
    values = {
        "pyrules:history": json.dumps(history),
        "pyrules:state": json.dumps(state),
        "pyrules:lang": json.dumps("de"),
        "pyrules:session": json.dumps({"start": 12}),
        "pyrules:fight": json.dumps(fight),
    }
    app.open()  # an earlier visit: the database and its stores exist
    # From another page: the app saves its form state when it is left (pagehide).
    page.goto(app.base_url + "version.json")
    page.evaluate(seed_js(values))
    put_record(app, GOOD)
    put_record(app, {"id": "c-junk", "name": 42, "system": "pool"})
    app.open()
    page.click("#tab-stats")
    page.click("#tab-roll")
    # The good history entry is kept (and written back); the rest is set aside.
    assert history_count(app) == 1
    assert json.loads(local(app)["pyrules:history"]) == [GOOD_ENTRY]
    assert quarantined(app, "pyrules:history")[-1] == values["pyrules:history"]
    # The form keeps the well-formed part of its saved state.
    app.pick_system("d100")
    assert page.input_value("#f-actor-d100-value") == "61"
    for key in ("pyrules:state", "pyrules:lang", "pyrules:session", "pyrules:fight"):
        assert quarantined(app, key)[-1] == values[key], key
    db = read_db(app)
    assert [c["id"] for c in db["characters"]] == ["c-good"]
    assert db["quarantine"][-1]["record"] == {"id": "c-junk", "name": 42, "system": "pool"}
    text = notice_text(app, "corrupt")
    assert "l’historique des jets" in text and "les personnages" in text
    assert page.get_attribute("html", "lang") == "fr"
    page_is_usable(app)
    page.click("#notice-corrupt [data-action=close]")


def test_a_missing_object_store_is_rebuilt(app: App) -> None:
    page = app.page
    app.open()
    version = read_db(app)["version"]
    page.evaluate(
        """(version) => new Promise((resolve, reject) => {
            const open = indexedDB.open("pyrules", version + 1);
            open.onupgradeneeded = () => open.result.deleteObjectStore("characters");
            open.onsuccess = () => { open.result.close(); resolve(); };
            open.onerror = () => reject(open.error);
            open.onblocked = () => reject(new Error("blocked"));
        })""",
        version,
    )
    app.reload()
    assert "la liste des personnages (recréée vide)" in notice_text(app, "corrupt")
    page_is_usable(app)
    # The store works again: a new character is saved.
    page.click("#tab-characters")
    page.click("#char-new")
    page.fill("#char-name", "Nouvelle")
    page.click("#char-save")
    page.wait_for_selector("#char-detail .sheet-name:text-is('Nouvelle')")
    db = read_db(app)
    assert [c["name"] for c in db["characters"]] == ["Nouvelle"]
    page.click("#notice-corrupt [data-action=close]")
    page.click("#tab-roll")


def test_storage_full_is_told_and_loses_nothing(app: App) -> None:
    page = app.page
    app.open()
    app.set_seed(1)
    app.roll()
    page.evaluate("() => sessionStorage.setItem('__full', '1')")
    before = json.loads(local(app)["pyrules:history"])
    ids = [entry["id"] for entry in before]
    characters_before = read_db(app)["characters"]
    app.set_seed(2)
    app.roll()
    # Told at once (role=alert), in the player's language; the roll is on screen.
    text = notice_text(app, "write")
    assert page.get_attribute("#notice-write", "role") == "alert"
    assert "Enregistrement impossible sur cet appareil" in text
    assert "l’historique des jets" in text and "(stockage plein)" in text
    assert history_count(app) == len(before) + 1
    app.screenshot("notice-storage-full")
    # What was stored before is intact.
    assert json.loads(local(app)["pyrules:history"]) == before
    # The exports still work, with the roll the storage refused.
    with page.expect_download() as info:
        page.click("#notice-write [data-action=export-history]")
    exported = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert [entry["id"] for entry in exported[1:]] == ids
    with page.expect_download() as info:
        page.click("#export-csv")
    rows = Path(info.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert len(rows) == len(before) + 2
    # A character that cannot be stored: said next to the form, nothing changes in storage.
    page.click("#tab-characters")
    page.click("#char-new")
    page.fill("#char-name", "Trop tard")
    page.click("#char-save")
    page.wait_for_selector("#editor-error:not([hidden])")
    error = page.text_content("#editor-error") or ""
    assert error.startswith("Enregistrement impossible sur cet appareil")
    assert "les personnages" in notice_text(app, "write")
    assert read_db(app)["characters"] == characters_before
    with page.expect_download() as info:
        page.click("#notice-write [data-action=export-characters]")
    saved = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert [c["id"] for c in saved["characters"]] == [c["id"] for c in characters_before]
    # Room again: the next save writes everything kept in memory, and the notice goes away.
    page.evaluate("() => sessionStorage.removeItem('__full')")
    page.click("#char-save")
    page.wait_for_selector("#char-detail .sheet-name:text-is('Trop tard')")
    page.click("#tab-roll")
    app.set_seed(3)
    app.roll()
    stored = json.loads(local(app)["pyrules:history"])
    assert len(stored) == len(before) + 2 and [entry["id"] for entry in stored[2:]] == ids
    page.wait_for_selector("#notice-write", state="detached")


def test_damage_with_no_room_to_copy_it_stays_in_place_until_downloaded(app: App) -> None:
    page = app.page
    app.open()
    page.evaluate("() => localStorage.setItem('pyrules:session', '{half')")
    page.evaluate("() => sessionStorage.setItem('__full', '1')")
    app.reload()
    page.click("#tab-stats")
    text = notice_text(app, "corrupt")
    assert "Faute de place" in text
    # Not copied (no room), so not cleared either: the raw value is still there.
    assert local(app)["pyrules:session"] == "{half"
    page.click("#session-new")  # would overwrite it: held back until the download
    assert local(app)["pyrules:session"] == "{half"
    with page.expect_download() as info:
        page.click("#notice-corrupt [data-action=download]")
    data = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert [item["raw"] for item in data["items"]] == ["{half"]
    page.evaluate("() => sessionStorage.removeItem('__full')")
    page.click("#session-new")
    assert json.loads(local(app)["pyrules:session"])["start"]
