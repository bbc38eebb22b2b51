"""The front end's size rules (design principle 6): main.js only wires (the composition
root, at most 200 lines) and no JavaScript module of web/js/ is over 400 lines."""

from __future__ import annotations

from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "web" / "js"
MAIN_LIMIT = 200
MODULE_LIMIT = 400


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def modules() -> list[Path]:
    return sorted(JS.rglob("*.js"))


def test_main_is_only_the_composition_root() -> None:
    assert lines(JS / "main.js") <= MAIN_LIMIT


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(JS).as_posix())
def test_no_module_over_400_lines(path: Path) -> None:
    assert lines(path) <= MODULE_LIMIT, f"{path.relative_to(JS)}: {lines(path)} lines"
