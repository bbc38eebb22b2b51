"""The front end's layers run one way (design principle 7, issue 21): lib/ -> widgets ->
screens -> the app shell (app/, where main.js wires the page). A module imports only from its
own layer or a lower one, no module sits at the top of web/js outside a folder, no screen
imports another (issue 42: what two screens share lives in lib/ or widgets/), and the
folders import each other without a cycle.

The checker reads every relative specifier of web/js (static `import … from`, `export … from`,
`import "…"` and a literal dynamic `import("…")`); the tests at the end plant an upward import
and a folder cycle in a temporary tree and see the checker catch each."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "web" / "js"

#: The layer of each folder of web/js, lowest first. A new folder must be given its layer here.
LAYERS: dict[str, int] = {
    "lib": 0,
    "engine": 0,
    "ui": 1,
    "stage": 1,
    "widgets": 1,
    "roll": 2,
    "history": 2,
    "characters": 2,
    "combat": 2,
    "gm": 2,
    "pwa": 2,
    "sharing": 2,
    # the app shell: main.js (the composition root), boot, safe start, the boot panel, the hooks
    "app": 3,
}
LAYER_NAMES = ["lib", "widgets", "screens", "app shell"]

COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)
SPECIFIER = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*(["'])(\.{1,2}/[^"']+)\1""")


def specifiers(text: str) -> list[str]:
    """The relative module specifiers a JavaScript module imports (comments left out)."""
    return [m.group(2) for m in SPECIFIER.finditer(COMMENT.sub("", text))]


def folder_of(root: Path, path: Path) -> str | None:
    """The top folder of web/js a file belongs to ("." for a module outside any folder, which
    has no layer), None when outside web/js."""
    try:
        rel = path.resolve().relative_to(root.resolve())
    except ValueError:
        return None  # vendor/ and the like: below everything
    return rel.parts[0] if len(rel.parts) > 1 else "."


def import_edges(root: Path) -> list[tuple[str, str, str, str]]:
    """(importing module, imported module, its folder, the imported one's folder), all of root."""
    edges = []
    for path in sorted(root.rglob("*.js")):
        for spec in specifiers(path.read_text(encoding="utf-8")):
            target = (path.parent / spec).resolve()
            to = folder_of(root, target)
            if to is None:
                continue
            module = path.relative_to(root).as_posix()
            edges.append((module, spec, folder_of(root, path) or "?", to))
    return edges


def upward_imports(root: Path, layers: dict[str, int] = LAYERS) -> list[str]:
    """Every import from a lower layer to a higher one, and every folder without a layer."""
    problems = []
    for module, spec, source, target in import_edges(root):
        for folder in (source, target):
            if folder not in layers:
                problems.append(f"{module}: folder {folder!r} has no layer (test_js_layers.LAYERS)")
        if source in layers and target in layers and layers[target] > layers[source]:
            above, below = LAYER_NAMES[layers[source]], LAYER_NAMES[layers[target]]
            problems.append(f"{module} ({above}) imports {spec} ({below})")
    return problems


def screen_imports(root: Path, layers: dict[str, int] = LAYERS) -> list[str]:
    """Every import of a screen by another screen (issue 42): screens talk through the store
    and events; what two of them share lives below them, in lib/ or widgets/."""
    screen = LAYER_NAMES.index("screens")
    return [f"{module} ({source}) imports {spec} ({target})"
            for module, spec, source, target in import_edges(root)
            if source != target and layers.get(source) == screen == layers.get(target)]


def folder_cycle(root: Path) -> list[str] | None:
    """A cycle of folders importing each other (["a", "b", "a"]), or None."""
    graph: dict[str, set[str]] = {}
    for _, _, source, target in import_edges(root):
        if source != target:
            graph.setdefault(source, set()).add(target)
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


# ------------------------------------------------------------------------------ the real tree


def test_the_specifiers_are_read() -> None:
    text = 'import { a } from "./a.js";\nexport { b } from "../lib/b.js";\nimport "./strings.js";\n'
    text += 'import {\n  c,\n  d,\n} from "../ui/c.js";\nconst m = import("./dice3d.js");\n'
    text += '// import { x } from "./comment.js";\n'
    text += 'const url = "https://example.org"; import { e } from "./e.js";\n'
    expected = ["./a.js", "../lib/b.js", "./strings.js", "../ui/c.js", "./dice3d.js", "./e.js"]
    assert specifiers(text) == expected


def test_every_folder_of_web_js_has_a_layer() -> None:
    folders = {p.name for p in JS.iterdir() if p.is_dir()}
    assert folders <= set(LAYERS), folders - set(LAYERS)


def test_every_module_of_web_js_lives_in_a_folder() -> None:
    """The composition root is the app shell's (app/main.js, issue 42): the top of web/js holds
    folders only, so a module's folder always says its layer."""
    assert [p.name for p in JS.glob("*.js")] == []


def test_nothing_in_web_js_imports_upward() -> None:
    assert upward_imports(JS) == []


def test_no_screen_imports_another_screen() -> None:
    assert screen_imports(JS) == []


def test_the_folders_of_web_js_import_each_other_without_a_cycle() -> None:
    assert folder_cycle(JS) is None


# ------------------------------------------------------------------------------ planted faults


def plant(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


CLEAN = {
    "app/main.js": 'import { Roll } from "../roll/roll.js";\n',
    "roll/roll.js": (
        'import { card } from "../widgets/card.js";\nimport { h } from "../lib/dom.js";\n'
        "export class Roll {}\n"
    ),
    "widgets/card.js": 'import { h } from "../lib/dom.js";\nexport const card = h;\n',
    "lib/dom.js": "export const h = 1;\n",
}


def test_a_clean_tree_passes(tmp_path: Path) -> None:
    root = plant(tmp_path, CLEAN)
    assert upward_imports(root) == []
    assert screen_imports(root) == []
    assert folder_cycle(root) is None


def test_a_planted_screen_to_screen_import_fails(tmp_path: Path) -> None:
    planted = {"gm/gm.js": 'import { Roll } from "../roll/roll.js";\n'}
    root = plant(tmp_path, {**CLEAN, **planted})
    assert upward_imports(root) == []
    assert screen_imports(root) == ['gm/gm.js (gm) imports ../roll/roll.js (roll)']


@pytest.mark.parametrize(
    ("module", "line"),
    [
        ("widgets/card.js", 'import { Roll } from "../roll/roll.js";\n'),  # widget -> screen
        ("lib/dom.js", 'export { card } from "../widgets/card.js";\n'),  # lib -> widget
        ("lib/dom.js", 'import "../app/main.js";\n'),  # lib -> the app shell
        ("widgets/card.js", 'const later = import("../roll/roll.js");\n'),  # a dynamic one too
    ],
)
def test_a_planted_upward_import_fails(tmp_path: Path, module: str, line: str) -> None:
    root = plant(tmp_path, {**CLEAN, module: line + CLEAN[module]})
    problems = upward_imports(root)
    assert len(problems) == 1 and problems[0].startswith(module), problems


def test_a_planted_folder_cycle_fails(tmp_path: Path) -> None:
    # Two screens importing each other: no layer is crossed upward, but the folders loop.
    looped = {
        "gm/chart.js": 'import { Roll } from "../roll/roll.js";\n',
        "roll/roll.js": 'import "../gm/chart.js";\n' + CLEAN["roll/roll.js"],
    }
    root = plant(tmp_path, {**CLEAN, **looped})
    assert upward_imports(root) == []
    cycle = folder_cycle(root)
    assert cycle is not None and cycle[0] == cycle[-1] and set(cycle) == {"gm", "roll"}, cycle


def test_a_folder_without_a_layer_fails(tmp_path: Path) -> None:
    root = plant(tmp_path, {**CLEAN, "extra/x.js": 'import { h } from "../lib/dom.js";\n'})
    expected = "extra/x.js: folder 'extra' has no layer (test_js_layers.LAYERS)"
    assert upward_imports(root) == [expected]
