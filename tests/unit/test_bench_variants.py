"""bench/variants.py: the measuring copies of a built site keep a consistent offline copy."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import variants

PAGE = f"""<!doctype html><head>
  {variants.EARLY_TAG}
  {variants.STYLE_TAG}
  <link rel="modulepreload" href="js/app/main.js">
  {variants.START_TAG}
</head><body></body>"""


def built_site(root: Path) -> Path:
    """The parts of dist/ a variant touches: the page, a stylesheet, precache.json, sw.js."""
    root.mkdir()
    (root / "index.html").write_text(PAGE, encoding="utf-8")
    (root / "app.css").write_text("body{}", encoding="utf-8")
    files = {p: variants.integrity(root / p) for p in ("index.html", "app.css")}
    (root / "precache.json").write_text(json.dumps({"integrity": files}), encoding="utf-8")
    (root / "sw.js").write_text(f"const PRECACHE = {json.dumps(files)};", encoding="utf-8")
    return root


@pytest.mark.parametrize("name", sorted(variants.VARIANTS))
def test_a_variant_changes_the_page_and_keeps_its_integrity_true(tmp_path: Path, name: str) -> None:
    dist = built_site(tmp_path / "dist")
    target = variants.make_variant(dist, tmp_path / "out", name)
    html = (target / "index.html").read_text(encoding="utf-8")
    removed, helper = variants.VARIANTS[name]
    assert all(tag not in html for tag in removed)
    assert "modulepreload" not in html  # no script of the app asked for
    assert html.count(variants.PWA_TAG) == 1  # the offline copy, as start.js would load it
    assert (variants.STYLE_TAG in html) == (variants.STYLE_TAG not in removed)
    assert html.index(variants.EARLY_TAG) < html.index(variants.HELPER)
    assert (target / variants.HELPER).read_text(encoding="utf-8") == helper
    precache = json.loads((target / "precache.json").read_text(encoding="utf-8"))
    worker = (target / "sw.js").read_text(encoding="utf-8")
    for path, value in precache["integrity"].items():
        assert value == variants.integrity(target / path)
        assert value in worker
    # The site it was made from is left as it was.
    assert (dist / "index.html").read_text(encoding="utf-8") == PAGE


def test_a_page_that_is_not_a_built_site_is_refused(tmp_path: Path) -> None:
    dist = built_site(tmp_path / "dist")
    (dist / "index.html").write_text("<!doctype html>", encoding="utf-8")
    with pytest.raises(SystemExit, match="not found"):
        variants.make_variant(dist, tmp_path / "out", "static")


WORKER_CODE = "let downloads;\ndownloads.prefetch();\nlet booting;\nbooting = boot();\n"


def test_engine_late_puts_the_worker_off_and_keeps_the_page(tmp_path: Path) -> None:
    dist = built_site(tmp_path / "dist")
    (dist / "js" / "engine").mkdir(parents=True)
    (dist / variants.WORKER).write_text(WORKER_CODE, encoding="utf-8")
    files = {p: variants.integrity(dist / p) for p in ("index.html", "app.css", variants.WORKER)}
    (dist / "precache.json").write_text(json.dumps({"integrity": files}), encoding="utf-8")
    (dist / "sw.js").write_text(f"const PRECACHE = {json.dumps(files)};", encoding="utf-8")
    target = variants.make_variant(dist, tmp_path / "out", "engine-late")
    code = (target / variants.WORKER).read_text(encoding="utf-8")
    late = variants.ENGINE_LATE_S * 1000
    assert f"setTimeout(() => downloads.prefetch(), {late})" in code
    assert f"setTimeout(go, {late})).then(() => boot())" in code
    assert "\ndownloads.prefetch();" not in code and "\nbooting = boot();" not in code
    assert (target / "index.html").read_text(encoding="utf-8") == PAGE  # the page is the app's
    precache = json.loads((target / "precache.json").read_text(encoding="utf-8"))
    assert precache["integrity"][variants.WORKER] == variants.integrity(target / variants.WORKER)
    assert precache["integrity"][variants.WORKER] in (target / "sw.js").read_text(encoding="utf-8")
    # A worker without the two moves it puts off is not a built site's.
    (dist / variants.WORKER).write_text("booting = boot();\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="not found once"):
        variants.make_variant(dist, tmp_path / "out", "engine-late")
