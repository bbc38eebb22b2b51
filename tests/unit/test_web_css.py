"""The stylesheets are one file per component or screen (web/css/), each linked from
index.html (their length is a hint for review: tests/conftest.py, LONG_FILES)."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"


def linked_stylesheets() -> list[str]:
    head = (WEB / "index.html").read_text(encoding="utf-8").split("</head>")[0]
    return re.findall(r'<link rel="stylesheet" href="([^"]+)">', head)


def test_every_css_file_is_linked_once_from_index_html() -> None:
    files = sorted(f"css/{p.name}" for p in (WEB / "css").glob("*.css"))
    linked = linked_stylesheets()
    assert files, "no stylesheet in web/css"
    assert len(linked) == len(set(linked)), f"linked twice: {linked}"
    assert sorted(linked) == files
    # The cascade runs in link order: the base (custom properties, reset) comes first.
    assert linked[0] == "css/base.css"
