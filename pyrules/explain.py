"""Explanations: turn the explanation steps a system records into French or English.

The systems only record *what* happened (:class:`pyrules.core.Line`: a key and numbers);
each system's own ``explain`` module (``pyrules/systems/<id>/explain.py``) holds its
templates, and this module gathers them from the registry and renders them. No rule is
decided here.
"""

from __future__ import annotations

from collections.abc import Iterable

from .core import Line
from .i18n import LANGS, Template, Text, fill, typeset
from .registry import SYSTEMS


def _gather() -> dict[str, Template]:
    out: dict[str, Template] = {}
    for system in SYSTEMS.values():
        for key, template in system.templates.items():
            assert key not in out, f"explanation key {key} defined twice"
            out[key] = template
    return out


TEMPLATES: dict[str, Template] = _gather()


def render_line(line: Line, lang: str) -> str:
    template = TEMPLATES[line.key]
    args = dict(line.args)
    if isinstance(template, Text):
        return fill(template.get(lang), lang, args)
    return typeset(template(lang, args), lang)


def render(lines: Iterable[Line], lang: str) -> list[str]:
    return [render_line(line, lang) for line in lines]


def both(lines: Iterable[Line]) -> dict[str, list[str]]:
    seq = tuple(lines)
    return {lang: render(seq, lang) for lang in LANGS}
