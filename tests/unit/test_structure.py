"""The package's shape: each system has one home, no import cycles, every explanation key
speaks both languages."""

from __future__ import annotations

import ast
import random
import re
import string
from pathlib import Path

from pyrules.explain import TEMPLATES, both
from pyrules.fields import ParamError
from pyrules.i18n import LANGS, Text
from pyrules.registry import SYSTEM_LIST, SYSTEMS
from pyrules.systems.d6.play import effort
from pyrules.systems.pool.play import pool_sources
from pyrules.systems.steps.play import combat

PACKAGE = Path(__file__).resolve().parents[2] / "pyrules"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """pyrules module -> the pyrules modules it imports at module level or in a function."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                # `from . import x` may import the submodule x, or a name of the package
                targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in modules else stem
                           for a in node.names]
            for t in targets:
                while t and t not in modules:  # pyrules.a.b.name -> pyrules.a.b
                    t = t.rpartition(".")[0]
                if t and t != name:
                    graph[name].add(t)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_import_graph_is_read_correctly() -> None:
    graph = import_graph()
    assert "pyrules.registry" in graph["pyrules.ops.base"]
    assert "pyrules.plugin" in graph["pyrules.registry"]
    assert "pyrules.systems.pool.play" in graph["pyrules.systems.pool.plugin"]
    assert "pyrules.systems.steps" in graph["pyrules.systems.steps.play"]  # from . import X
    assert "pyrules.core" in graph["pyrules.systems.pool.odds"]  # from ...core import
    # and a cycle is found when there is one
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_cycles_in_pyrules() -> None:
    assert find_cycle(import_graph()) is None


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The same graph between the packages and modules right under pyrules (issue 42:
    pyrules.sheets and pyrules.registry imported each other)."""
    def top(module: str) -> str:
        return ".".join(module.split(".")[:2])

    out: dict[str, set[str]] = {top(m): set() for m in graph}
    for module, targets in graph.items():
        out[top(module)] |= {top(t) for t in targets} - {top(module)}
    return out


def test_no_import_loop_between_the_packages_of_pyrules() -> None:
    assert find_cycle(package_graph(import_graph())) is None
    planted = {"pyrules.a.x": {"pyrules.b.y"}, "pyrules.b.y": set(), "pyrules.b.z": {"pyrules.a"},
               "pyrules.a": set()}
    assert find_cycle(package_graph(planted)) == ["pyrules.a", "pyrules.b", "pyrules.a"]


def test_each_system_has_one_home() -> None:
    """A system is a package under pyrules/systems/ holding its rules and its templates."""
    for system in SYSTEM_LIST:
        home = PACKAGE / "systems" / system.id
        assert (home / "__init__.py").is_file(), system.id
        assert (home / "explain.py").is_file(), system.id
        assert type(system).__module__ == f"pyrules.systems.{system.id}"
        assert system.templates, system.id
        assert all(k.split(".")[0] in (system.id, "sources", "combat")
                   for k in system.templates), system.id
    assert list(SYSTEMS) == [s.id for s in SYSTEM_LIST]


def placeholders(text: str) -> set[str]:
    # a plural word {n|one|other} names the number it agrees with
    agreed = re.sub(r"\{(\w+)\|[^|{}]*\|[^|{}]*\}", r"{\1}", text)
    return {name for _, name, _, _ in string.Formatter().parse(agreed) if name}


def test_every_text_template_has_the_same_placeholders_in_both_languages() -> None:
    for key, template in TEMPLATES.items():
        if isinstance(template, Text):
            assert template.fr.strip() and template.en.strip(), key
            assert placeholders(template.fr) == placeholders(template.en), key


def lines_seen() -> dict[str, list[dict[str, object]]]:
    """Every explanation line the engine writes over a broad sweep of rolls."""
    seen: dict[str, list[dict[str, object]]] = {}

    def keep(lines: object) -> None:
        for line in lines:  # type: ignore[attr-defined]
            seen.setdefault(line.key, []).append(dict(line.args))

    rng = random.Random(2024)
    for system in SYSTEM_LIST:
        for _ in range(400):
            raw = {}
            for f in system.fields:
                if f.kind == "int" and f.min is not None and f.max is not None:
                    raw[f.name] = rng.randint(max(f.min, -6), min(f.max, 12))
                elif f.kind == "choice":
                    raw[f.name] = rng.choice(f.choices).value
                elif f.kind == "bool":
                    raw[f.name] = rng.random() < 0.5
                elif f.kind == "list":
                    raw[f.name] = [rng.randint(0, 3) for _ in range(rng.randint(0, 3))]
            if system.id == "pool":
                raw["pot"] = rng.randint(1, 8)
                raw["flame"] = rng.randint(-3, 3)
                raw["modifiers"] = rng.choice(["", "+1D", "-1D+1DF", "+2", "-2"])
            if system.id == "d6":
                raw["impact"] = rng.choice([None, 2])
            if system.id == "d100":
                raw.pop("score", None)
            if system.id == "notation":  # a total, or a count of successes
                raw["expression"] = rng.choice(["3d6", "5d10>=8", "4d6!kh3", "(1d4+1)*2"])
            try:
                params, _ = system.parse(raw)
            except ParamError:  # some random mixes are refused; the others are enough
                continue
            keep(system.roll(params, rng).lines)
            keep(system.oppose(params, params, None, rng).lines)
    pool, d6 = SYSTEMS["pool"], SYSTEMS["d6"]
    p, _ = pool.parse({"pot": 2, "flame": 1, "augmentations": 1, "placement": [1]})
    keep(pool.resolve(p, {"dice": (4,), "flame_dice": (3,)}).lines)
    pc, _ = d6.parse({"pc": True})
    npc, _ = d6.parse({"pc": False})
    tied = d6.oppose(pc, npc, ({"dice": (3,)}, {"dice": (3,)}), None)
    keep(tied.lines)
    keep(tied.opponent.lines)
    for raw in ({"flame": 2, "aspect": 1, "dark_aspect": 1, "specialty": True, "rewards": 1,
                 "plain_roll": True, "eclat_flame_dice": 1, "eclat_augmentations": 1},
                {"flame": -2, "aspect": 1, "dark_aspect": 1}):
        keep(s.line for s in pool_sources(raw)[0])
    for seed in range(60):
        for kind in ("melee", "ranged", "conflict", "skirmish"):
            keep(combat({"kind": kind, "concede": seed % 2 == 0}, {"die": 8},
                        {"die": 6}, random.Random(seed)).lines)
    return seen


def test_every_explanation_key_renders_in_french_and_english() -> None:
    from pyrules.core import Line

    seen = lines_seen()
    missing = sorted(set(TEMPLATES) - set(seen))
    assert not missing, f"never written by the engine in this sweep: {missing}"
    unknown = sorted(set(seen) - set(TEMPLATES))
    assert not unknown, f"written but with no template: {unknown}"
    for key, samples in seen.items():
        for args in samples[:20]:
            texts = both([Line.of(key, **args)])
            for lang in LANGS:
                assert texts[lang][0].strip(), (key, lang)
                assert "{" not in texts[lang][0], (key, lang, texts[lang][0])


def test_effort_is_the_d6_systems_table_play() -> None:
    assert effort({"flame": 2, "used": 0})["available"] == 1


def test_the_old_table_shim_is_gone() -> None:
    """Table play lives with each system (``pyrules/systems/<id>/play.py``): the old
    ``pyrules.table`` shim, kept alive only by a test, was removed (issue 42)."""
    import importlib.util

    assert importlib.util.find_spec("pyrules.table") is None


def test_no_test_module_imports_another() -> None:
    """Helpers shared by tests live in helpers modules (tests/unit/helpers.py,
    tests/browser/helpers.py), never in a test module another one imports (issue 42)."""
    tests = PACKAGE.parent / "tests"
    found = []
    for path in tests.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):  # `from . import test_x` names the module
                names = [node.module] if node.module else [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            if any(name.rsplit(".", 1)[-1].startswith("test_") for name in names):
                found.append(f"{path.relative_to(tests)}: {names}")
    assert found == [], found
