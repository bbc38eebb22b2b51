"""Systems as plugins (issue 42): a system is one folder whose ``plugin.py`` declares it; the
registry builds every list from the folders it names. A dummy system in one folder
(tests/unit/plugins/dicebag/), put in the live registry the way a named folder is, is
described, rolled, checked and given exact odds through the API like the others."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from pyrules import explain, registry

from .helpers import call, ok

PLUGINS = Path(__file__).parent / "plugins"


@pytest.fixture
def dicebag(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.syspath_prepend(str(PLUGINS))
    (plugin,) = registry.load(["dicebag"], package=None)
    system = plugin.system
    monkeypatch.setitem(registry.SYSTEMS, system.id, system)
    monkeypatch.setitem(registry.SHEETS, system.id, plugin.sheet)
    for key, template in system.templates.items():
        monkeypatch.setitem(explain.TEMPLATES, key, template)
    yield system.id


def test_the_registry_is_built_from_the_folders_it_names() -> None:
    assert [p.system.id for p in registry.PLUGINS] == list(registry.SYSTEM_FOLDERS)
    assert list(registry.SYSTEMS) == list(registry.SYSTEM_FOLDERS)
    assert registry.PLAY["combat"]["system"] == "steps"
    assert set(registry.PLAY_SYSTEMS) == {"sources", "effort", "combat", "fight"}
    for folder in registry.SYSTEM_FOLDERS:
        home = Path(registry.__file__).parent / "systems" / folder
        assert (home / "plugin.py").is_file(), folder


def test_each_system_serves_the_table_play_ops_its_folder_declares() -> None:
    """A system's table-play ops live in its folder (``ops.py``, named by its plugin): the
    API serves exactly those, and each is the op of the system that names it."""
    import importlib

    from pyrules.ops import OPS

    for plugin in registry.PLUGINS:
        declared = importlib.import_module(plugin.ops).OPS if plugin.ops else {}
        assert set(declared) == set(plugin.system.play_ops), plugin.system.id
        for name, op in declared.items():
            assert OPS[name] is op
            assert registry.play_system(name) is plugin.system
    assert ok({"op": "effort", "params": {"flame": 2, "used": 1, "action": "check"}}) == {
        "per_day": 2, "used": 1, "available": 1}


def test_a_system_in_one_folder_is_described_rolled_and_given_exact_odds(dicebag: str) -> None:
    described = ok({"op": "systems", "lang": "en"})
    mine = next(s for s in described["systems"] if s["id"] == dicebag)
    # What the forms are built from: its fields, bounds and labels, and an empty sheet.
    assert [f["name"] for f in mine["fields"]] == ["die", "target", "dice"]
    target = mine["fields"][1]
    assert (target["min"], target["max"], target["label"]["fr"]) == (1, 6, "Cible")
    assert mine["sheet"]["stats"] == [] and [o["id"] for o in mine["outcomes"]] == [
        "success", "failure"]
    # Exact odds, checked by hand: a d6 reaching 5 is 2 chances in 6.
    odds = ok({"op": "odds", "system": dicebag, "params": {"die": 6, "target": 5}})
    assert Fraction(odds["success"]) == Fraction(1, 3)
    # A seed replays the roll; physical dice are read; a bad value names its field.
    first = ok({"op": "roll", "system": dicebag, "params": {"target": 3}, "seed": 11})
    assert ok({"op": "roll", "system": dicebag, "params": {"target": 3}, "seed": 11}) == first
    typed = ok({"op": "roll", "system": dicebag, "params": {"die": 4, "dice": [4]}, "lang": "en"})
    assert typed["outcome"] == "success" and typed["explanation"] == [
        "Die 4 against 4: margin 0."]
    refused = call({"op": "validate", "request": {"op": "roll", "system": dicebag,
                                                  "params": {"target": 9}}})
    assert refused["error"]["field"] == "target"
    # A character of it: the empty sheet (a name, entries).
    character = ok({"op": "character", "character": {
        "system": dicebag, "name": "Sac", "entries": [{"label": "Jet", "params": {"target": 2}}]}})
    assert character["entries"][0]["chance_exact"] == "5/6"
