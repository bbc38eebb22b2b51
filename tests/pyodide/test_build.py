"""build.py: the wheel, the dist/ layout, incremental rebuilds and the static server."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tomllib
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

import build
import buildtools.wheel
from pyrules.api import handle


def _wheel(name: str, data: bytes) -> zipfile.ZipFile:
    assert re.fullmatch(r"pyrules-[^-]+-py3-none-any\.whl", name), name
    return zipfile.ZipFile(io.BytesIO(data))


def _members(data: bytes) -> dict[str, bytes]:
    zf = zipfile.ZipFile(io.BytesIO(data))
    return {name: zf.read(name) for name in zf.namelist()}


def test_wheel_is_reproducible_and_complete(tmp_path: Path) -> None:
    name, data = build.build_wheel()
    assert build.build_wheel() == (name, data)
    version = build.read_version()
    assert name == f"pyrules-{version}-py3-none-any.whl"
    zf = _wheel(name, data)
    names = zf.namelist()
    sources = sorted(
        "pyrules/" + p.relative_to(build.PACKAGE).as_posix()
        for p in build.PACKAGE.rglob("*.py")
        if "__pycache__" not in p.parts
    )
    assert "pyrules/systems/pool/__init__.py" in sources  # every subpackage, systems/* too
    info = f"pyrules-{version}.dist-info"
    # Every module and the typing marker, the metadata, nothing else (no cache, no stray file).
    assert sorted(names) == sorted(
        [*sources, "pyrules/py.typed"]
        + [f"{info}/{f}" for f in ("METADATA", "WHEEL", "RECORD", "entry_points.txt")]
    )
    for source in [*sources, "pyrules/py.typed"]:
        assert zf.read(source) == (build.ROOT / source).read_bytes(), source
    assert {i.date_time for i in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    assert {i.external_attr >> 16 for i in zf.infolist()} == {0o100644}
    assert zf.testzip() is None
    # The same bytes from a copy of the source whose files have other dates and modes: the
    # backend writes SOURCE_DATE_EPOCH and normalised modes, not the checkout's.
    copy = tmp_path / "project"
    shutil.copytree(build.PACKAGE, copy / "pyrules", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(build.ROOT / "pyproject.toml", copy / "pyproject.toml")
    for path in copy.rglob("*"):
        if path.is_file():
            path.chmod(0o600)
            os.utime(path, (2_000_000_000, 2_000_000_000))
    assert build.build_wheel(copy) == (name, data)


def test_the_wheel_is_the_one_pyproject_defines() -> None:
    with (build.ROOT / "pyproject.toml").open("rb") as f:
        pyproject = tomllib.load(f)
    assert pyproject["build-system"] == {
        "requires": [f"{build.BACKEND_NAME}=={build.BACKEND_VERSION}"],
        "build-backend": "flit_core.buildapi",
    }
    wheel, module = build.ensure_backend()
    assert wheel.name == build.BACKEND_WHEEL and module == "flit_core.buildapi"
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == build.BACKEND_SHA256


def test_a_backend_other_than_the_pinned_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    for requires in (["flit_core>=3"], ["flit_core==3.12.0"], ["setuptools>=61"], []):
        table = {"requires": requires, "build-backend": "flit_core.buildapi"}
        monkeypatch.setattr(buildtools.wheel, "_build_system", lambda table=table: table)
        with pytest.raises(build.BuildError, match="must require exactly"):
            build.build_wheel()


@pytest.mark.parametrize("epoch", [None, str(build.SOURCE_DATE_EPOCH)])
def test_pip_wheel_builds_the_same_wheel(tmp_path: Path, epoch: str | None) -> None:
    """`pip wheel . --no-deps` (no index, the pinned backend on PYTHONPATH instead of a
    download) gives the site's wheel: the same members with the same bytes, and with the same
    SOURCE_DATE_EPOCH the same file."""
    name, data = build.build_wheel()
    backend, _ = build.ensure_backend()
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env["PYTHONPATH"] = str(backend)
    if epoch:
        env["SOURCE_DATE_EPOCH"] = epoch
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation",
         "--no-index", "--disable-pip-version-check", "-q", "-w", str(tmp_path)],
        cwd=build.ROOT, env=env, check=True,
    )
    assert [p.name for p in tmp_path.iterdir()] == [name]
    pip_wheel = (tmp_path / name).read_bytes()
    assert _members(pip_wheel) == _members(data)
    if epoch:
        assert pip_wheel == data


def test_wheel_metadata_and_record() -> None:
    name, data = build.build_wheel()
    version = build.read_version()
    zf = _wheel(name, data)
    info = f"pyrules-{version}.dist-info"
    metadata = zf.read(f"{info}/METADATA").decode().splitlines()
    project = build._project_table()
    for line in (
        "Name: pyrules",
        f"Version: {version}",
        f"Summary: {project['description']}",
        "Requires-Python: >=3.11",
        "License-Expression: MIT",
        # The engine's libraries, as build.EXTRA_WHEELS pins them (micropip installs them
        # itself from dist/wheels/, deps=False).
        *(f"Requires-Dist: {w.name}=={w.version}" for w in build.EXTRA_WHEELS),
    ):
        assert line in metadata
    assert metadata[0].startswith("Metadata-Version: 2.")
    assert not [line for line in metadata if line.startswith("Description")], "no README"
    wheel = zf.read(f"{info}/WHEEL").decode().splitlines()
    for line in ("Wheel-Version: 1.0", "Root-Is-Purelib: true", "Tag: py3-none-any"):
        assert line in wheel
    assert f"Generator: flit {build.BACKEND_VERSION}" in wheel
    scripts = zf.read(f"{info}/entry_points.txt").decode().split()
    assert scripts == ["[console_scripts]", "pyrules=pyrules.cli:main"]
    assert project["scripts"] == {"pyrules": "pyrules.cli:main"}
    rows = list(csv.reader(io.StringIO(zf.read(f"{info}/RECORD").decode())))
    assert sorted(r[0] for r in rows) == sorted(zf.namelist())
    for path, digest, size in rows:
        if path == f"{info}/RECORD":
            assert (digest, size) == ("", "")
            continue
        content = zf.read(path)
        expected = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=")
        assert digest == "sha256=" + expected.decode()
        assert int(size) == len(content)


def test_version_is_read_without_importing(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text(
        '"""Doc."""\n\nimport nothing_here\n__version__ = "9.8.7"\n'
    )
    assert build.read_version(tmp_path) == "9.8.7"


def local_systems() -> object:
    return json.loads(handle(json.dumps({"op": "systems"})))["result"]


def test_dist_layout(dist_dir: Path) -> None:
    info = json.loads((dist_dir / "version.json").read_text())
    assert list(info) == ["version", "pyodide", "wheel", "micropip", "wheels", "snapshot", "build"]
    # The engine's libraries: build.EXTRA_WHEELS, shipped with their pinned sha256, declared
    # by pyproject.toml.
    for extra in build.EXTRA_WHEELS:
        assert f"wheels/{extra.file}" in [w["url"] for w in info["wheels"]]
        assert hashlib.sha256((dist_dir / "wheels" / extra.file).read_bytes()).hexdigest() == (
            extra.sha256)
        assert f"{extra.name}=={extra.version}" in build._project_table()["dependencies"]
    assert info["version"] == build.read_version()
    assert info["pyodide"] == "314.0.7"
    assert info["wheel"] == f"wheels/pyrules-{info['version']}-py3-none-any.whl"
    assert info["micropip"] == "wheels/micropip-0.11.1-py3-none-any.whl"
    assert re.fullmatch(r"[0-9a-f]{16}", info["build"])
    assert info["build"] == build.tree_hash(dist_dir)
    assert (dist_dir / ".nojekyll").read_bytes() == b""
    assert (dist_dir / info["wheel"]).read_bytes() == build.build_wheel()[1]
    assert (dist_dir / info["micropip"]).is_file()
    # The engine's own description of its systems, for the forms of a first visit.
    assert json.loads((dist_dir / "systems.json").read_text()) == local_systems()
    # The runtime: Pyodide's files, the standard library and the lock file trimmed
    # (test_the_runtime_leaves_out_what_the_site_never_loads).
    site_pyodide = build.site_pyodide(build.NODE_PYODIDE)
    for name in build.PYODIDE_FILES:
        src = site_pyodide / name
        assert (dist_dir / "pyodide" / name).read_bytes() == src.read_bytes()
        if name not in ("python_stdlib.zip", "pyodide-lock.json", "pyodide.asm.mjs"):
            assert src.read_bytes() == (build.NODE_PYODIDE / name).read_bytes(), name
    web = build._web_files(build.WEB)
    web.pop(build.SW_TEMPLATE)
    # The page's modules and stylesheets are bundled (test_the_page_is_bundled), index.html
    # with them (one stylesheet, its static text written in: test_the_static_text_is_built_in);
    # early.js is a classic script of its own (test_early_js_is_a_classic_script); the rest
    # of web/ is minified one by one (stylesheets or scripts left) or copied as it is; the
    # worker is bundled with its imports and version.json baked in
    # (test_the_worker_is_one_baked_bundle).
    own = {rel: src for rel, src in web.items() if not build.bundled_by_page(rel)}
    minified = build.minify_web(own)
    bundle = build.page_bundle(build.systems_description())
    assert "index.html" in bundle
    assert (dist_dir / build.EARLY_FILE).read_bytes() == build.early_bundle()
    for rel, src in own.items():
        if rel in bundle:
            continue
        if rel in minified:
            assert (dist_dir / rel).read_bytes() == minified[rel], rel
            assert len(minified[rel]) < src.stat().st_size, rel
        else:
            assert (dist_dir / rel).read_bytes() == src.read_bytes(), rel
    for rel, data in bundle.items():
        assert (dist_dir / rel).read_bytes() == data, rel
    expected = (
        set(own)
        | set(bundle)
        | {build.WORKER_FILE, build.EARLY_FILE}
        | {f"pyodide/{n}" for n in build.PYODIDE_FILES}
        | {info["wheel"], info["micropip"], "systems.json", ".nojekyll", *build.GENERATED}
        | {w["url"] for w in info["wheels"]}
        | {info["snapshot"]["url"]}
        | set(build.VENDOR_FILES)  # the 3D dice libraries' licenses, from node_modules
        | set(build.VENDOR_BUNDLES)  # and the libraries, bundled by esbuild
        | set(build.VENDOR_MINIFIED)  # or minified as they are
    )
    assert {p.relative_to(dist_dir).as_posix() for p in dist_dir.rglob("*") if p.is_file()} == (
        expected
    )


def test_wheel_list_is_one_manifest_for_the_snapshot_and_the_fallback(dist_dir: Path) -> None:
    info = json.loads((dist_dir / "version.json").read_text())
    expected = [
        {"url": f"wheels/{w.file}", "imports": list(w.imports)} for w in build.EXTRA_WHEELS
    ] + [{"url": info["wheel"], "imports": list(build.PYRULES_IMPORTS)}]
    assert info["wheels"] == expected
    for wheel in info["wheels"]:
        assert (dist_dir / wheel["url"]).is_file()


def test_the_snapshot_step_is_cached_by_its_inputs() -> None:
    pyodide_dir, micropip = build.ensure_pyodide(), build.ensure_micropip()
    name, wheel = build.build_wheel()
    wheels = [(name, wheel, build.PYRULES_IMPORTS)]
    key = build._snapshot_key(pyodide_dir, micropip, wheels)
    cached = build.CACHE / "snapshots" / f"{key}.bin.gz"
    first = build.make_snapshot(pyodide_dir, micropip, wheels)
    assert cached.read_bytes() == first[0]
    assert build.make_snapshot(pyodide_dir, micropip, wheels) == first  # from the cache
    # Any change of the engine's bytes or of what is imported is another snapshot.
    assert build._snapshot_key(pyodide_dir, micropip, [(name, wheel + b" ", ())]) != key
    assert build._snapshot_key(pyodide_dir, micropip, [(name, wheel, ("pyrules",))]) != key


def test_rebuild_is_incremental_and_drops_stale_files(dist_dir: Path, tmp_path: Path) -> None:
    # On a copy (times kept): the browser tests of the other test process serve dist/ itself.
    dist = tmp_path / "dist"
    shutil.copytree(dist_dir, dist)
    # The engine worker too: it has version.json baked in, and a rebuild of the same site
    # once wrote it unbaked, then baked, while the other test process served it.
    watched = [dist / "pyodide" / "pyodide.asm.wasm", dist / "version.json",
               dist / "js" / "engine" / "worker.js"]
    before = [p.stat().st_mtime_ns for p in watched]
    stale = dist / "app" / "gone.js"
    stale.parent.mkdir(exist_ok=True)
    stale.write_text("old")
    old_wheel = dist / "wheels" / "pyrules-0.0.0.dev0-py3-none-any.whl"
    old_wheel.write_bytes(b"old")
    build.build(dist)
    assert not stale.exists() and not old_wheel.exists()
    assert [p.stat().st_mtime_ns for p in watched] == before
    assert build.tree_hash(dist) == build.tree_hash(dist_dir)


def _get(url: str, method: str = "GET") -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


@pytest.mark.parametrize("prefix", ["", "/pyrules/"])
def test_server_mime_types_and_prefix(dist_dir: Path, prefix: str) -> None:
    info = json.loads((dist_dir / "version.json").read_text())
    with build.serving(dist_dir, prefix=prefix) as base:
        assert base.endswith(prefix or "/")
        expected = {
            "pyodide/pyodide.asm.wasm": "application/wasm",
            "pyodide/pyodide.mjs": "text/javascript",
            "pyodide/pyodide-lock.json": "application/json",
            "pyodide/python_stdlib.zip": "application/zip",
            "version.json": "application/json",
            info["wheel"]: "application/octet-stream",
        }
        for rel, mime in expected.items():
            status, ctype, body = _get(base + rel)
            assert (status, ctype) == (200, mime), rel
            assert body == (dist_dir / rel).read_bytes()
        assert _get(base + "version.json", "HEAD")[:2] == (200, "application/json")
        assert _get(base + "no-such-file")[0] == 404
        if prefix:
            root = base[: -len(prefix)]
            assert _get(root + "/version.json")[0] == 404
            assert _get(root + "/pyrulesx/version.json")[0] == 404
            assert _get(root + prefix.rstrip("/"))[0] == 200  # redirected to the prefix


def test_serve_command_prints_url_and_stops_on_ctrl_c() -> None:
    proc = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", "0"],
        cwd=build.ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = None
        for line in proc.stdout:
            match = re.search(r"http://127\.0\.0\.1:\d+/", line)
            if match:
                url = match.group(0)
                break
        assert url, "no URL printed"
        assert _get(url + "version.json")[0] == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_package_lock_pins_pyodide() -> None:
    package = json.loads((build.ROOT / "package.json").read_text())
    assert package["dependencies"]["pyodide"] == "314.0.7"
    assert build.pyodide_version() == "314.0.7"
    assert os.path.isfile(build.NODE_PYODIDE / "pyodide.asm.wasm")


def test_the_page_is_bundled(dist_dir: Path) -> None:
    """dist's page asks for a handful of files: early.js first (a classic script that starts
    the worker while the page is parsed), one stylesheet, main.js and pwa.js with their
    chunks; the engine's description of its systems written into the bundle; every import
    of the bundle names a file of dist/."""
    scripts = sorted(p.relative_to(dist_dir).as_posix() for p in (dist_dir / "js").rglob("*.js"))
    others = [s for s in scripts if not s.startswith("js/chunks/")]
    entries = [
        build.EARLY_FILE, build.WORKER_FILE, build.START_FILE, "js/app/main.js", "js/pwa/pwa.js"
    ]
    assert others == sorted(entries)
    assert 1 <= len(scripts) - len(others) <= 6, scripts
    assert sorted(p.name for p in (dist_dir / "css").iterdir()) == ["app.css"]
    head = (dist_dir / "index.html").read_text(encoding="utf-8").split("</head>")[0]
    tags = re.findall(r"<(?:script|link)\b[^>]*>", head)
    loads = [t for t in tags if "<script" in t or 'rel="stylesheet"' in t or "modulepreload" in t]
    # start.js is the page's one module script; main.js and its static imports are preloaded
    # (asked for while the head is parsed); the 3D dice's chunk, imported once ready, is not.
    main = (dist_dir / "js/app/main.js").read_text(encoding="utf-8")
    imported = sorted(
        "js/" + m.removeprefix("../") for m in re.findall(r'\bfrom\s*"(\.\./chunks/[^"]+)"', main)
    )
    assert imported and all("/chunk-" in rel for rel in imported), imported
    # (The chunks in main.js's own order; their names are hashes, so not sorted.)
    preloads = loads[3:-1]
    assert loads[:3] + loads[-1:] == [
        f'<script src="{build.EARLY_FILE}">',
        f'<link rel="stylesheet" href="{build.PAGE_STYLESHEET}">',
        '<link rel="modulepreload" href="js/app/main.js">',
        f'<script type="module" src="{build.START_FILE}">',
    ]
    assert sorted(preloads) == [f'<link rel="modulepreload" href="{rel}">' for rel in imported]
    start = (dist_dir / build.START_FILE).read_text(encoding="utf-8")
    assert 'import("./main.js")' in start and 'import("../pwa/pwa.js")' in start
    css = (dist_dir / build.PAGE_STYLESHEET).read_text(encoding="utf-8")
    for sheet in (build.WEB / "css").glob("*.css"):  # every class each stylesheet styles
        source = re.sub(r"/\*.*?\*/", "", sheet.read_text(encoding="utf-8"), flags=re.S)
        for name in set(re.findall(r"\.([a-z][\w-]*)\b", source)):
            assert f".{name}" in css, f"{sheet.name}: .{name}"
    bundle = "".join((dist_dir / s).read_text(encoding="utf-8") for s in scripts)
    for system in local_systems()["systems"]:
        assert json.dumps(system["name"]["fr"], ensure_ascii=False)[1:-1] in bundle, system["id"]
    spec = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)["'](\.{1,2}/[^"']+)["']""")
    for rel in scripts:
        text = (dist_dir / rel).read_text(encoding="utf-8")
        for target in spec.findall(text):
            path = (dist_dir / rel).parent / target
            assert path.resolve().is_file(), f"{rel} imports {target}"
        for word in build.FORBIDDEN:
            assert word not in text.encode(), rel


def test_the_static_text_is_built_in(dist_dir: Path) -> None:
    """Every data-i18n element of dist's index.html holds its French text, and every
    data-i18n-<attr> sets that attribute, as main.js would write them (the texts come from
    the page's own catalogues: tests/browser/test_language.py checks the page changes nothing
    for a French reader); fill_static escapes what it writes and refuses what it cannot."""
    page = (dist_dir / "index.html").read_text(encoding="utf-8")
    source = (build.WEB / "index.html").read_text(encoding="utf-8")
    keys = re.findall(r'\sdata-i18n="([^"]+)"', source)
    assert len(keys) > 40
    for match in re.finditer(r'<(\w+)\b[^>]*\sdata-i18n="([^"]+)"[^>]*>([^<]*)</\1>', page):
        assert match.group(3).strip(), f"{match.group(2)} is empty in dist/index.html"
    assert len(re.findall(r'\sdata-i18n="', page)) == len(keys)
    assert "Historique</span>" in page and ">Probabilités</h2>" in page
    assert 'title="Le moteur répond aux demandes de jets"' in page
    texts = {"a": "x < y & «\u00a0z\u00a0»", "b": 'dit "oui"'}
    html = '<p class="k" data-i18n="a" hidden></p><b data-i18n-title="b" title="old">t</b>'
    assert build.fill_static(html, texts) == (
        '<p class="k" data-i18n="a" hidden>x &lt; y &amp; «\u00a0z\u00a0»</p>'
        '<b data-i18n-title="b" title="dit &quot;oui&quot;">t</b>'
    )
    with pytest.raises(build.BuildError, match="no text"):
        build.fill_static('<p data-i18n="missing"></p>', texts)
    with pytest.raises(build.BuildError, match="text only"):
        build.fill_static('<p data-i18n="a"><b>no</b></p>', texts)


def test_early_js_is_a_classic_script(dist_dir: Path) -> None:
    """early.js runs as index.html's first classic script: no module syntax left, its import
    (lib/lang-choice.js, the language rule i18n.js follows) inlined."""
    text = (dist_dir / build.EARLY_FILE).read_text(encoding="utf-8")
    assert text.startswith("(()=>{") and text.rstrip().endswith("})();")
    assert not re.search(r"\bimport\b|\bexport\b", text)
    assert "pyrules:lang" in text and "worker.js" in text


def test_the_server_can_gzip_what_github_pages_gzips(dist_dir: Path) -> None:
    """serving(gzip=True), for the benches: text and wasm go gzipped to a browser that asks
    for it, other binaries (the gzipped snapshot, wheels) as they are; without it, nothing is."""
    import gzip
    import urllib.request

    def get(base: str, rel: str, accept: str) -> tuple[str | None, bytes]:
        request = urllib.request.Request(base + rel, headers={"Accept-Encoding": accept})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.headers.get("Content-Encoding"), response.read()

    info = json.loads((dist_dir / "version.json").read_text())
    with build.serving(dist_dir, gzip=True) as base:
        for rel in ("", "js/app/main.js", "css/app.css", "pyodide/pyodide.asm.wasm"):
            encoding, body = get(base, rel, "gzip, deflate")
            assert encoding == "gzip", rel
            assert gzip.decompress(body) == (dist_dir / (rel or "index.html")).read_bytes()
        for rel in (info["snapshot"]["url"], info["wheel"]):
            assert get(base, rel, "gzip") == (None, (dist_dir / rel).read_bytes()), rel
        assert get(base, "js/app/main.js", "identity")[0] is None
    with build.serving(dist_dir) as base:
        assert get(base, "js/app/main.js", "gzip")[0] is None


def test_a_client_that_hangs_up_mid_file_is_no_error(
    dist_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A browser that closes its page while the runtime downloads hangs up in the middle of
    a file: the server says nothing of it (no traceback in the suite's output) and serves on."""
    import socket
    from urllib.parse import urlsplit

    with build.serving(dist_dir) as base:
        url = urlsplit(base)
        for _ in range(3):
            with socket.create_connection((url.hostname, url.port), timeout=10) as client:
                client.sendall(f"GET {url.path}pyodide/pyodide.asm.wasm HTTP/1.1\r\n"
                               f"Host: {url.netloc}\r\n\r\n".encode())
                client.recv(1024)  # the file has started: hang up, unread bytes left
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
        with urllib.request.urlopen(base + "version.json", timeout=10) as response:
            assert json.loads(response.read())["version"]
    assert "Traceback" not in capsys.readouterr().err


def test_the_worker_is_one_baked_bundle(dist_dir: Path) -> None:
    """dist's worker imports nothing statically (esbuild bundled ./snapshot.js into it) and
    holds version.json's content: starting, it asks for nothing before the runtime and the
    snapshot. Unbaked, it is the bundle the build hashed."""
    info = json.loads((dist_dir / "version.json").read_text())
    text = (dist_dir / build.WORKER_FILE).read_text()
    static = r"^\s*(import\s[^;(]*?from\s*|import\s*)[\"'][^\"']+[\"']\s*;"
    assert not re.search(static, text, re.M), "a static import is left"
    assert "./snapshot.js" not in text
    start = text.index(build.BAKE_OPEN) + len(build.BAKE_OPEN)
    assert json.loads(text[start : text.index(build.BAKE_CLOSE, start)]) == info
    assert build.unbake(text).count(build.BAKE_PLACEHOLDER) == 1
    assert build.unbake(text).encode() == build.worker_bundle()
    for word in build.FORBIDDEN:
        assert word not in text.encode()


def test_the_runtime_leaves_out_what_the_site_never_loads(dist_dir: Path) -> None:
    """dist/pyodide's standard library lacks exactly STDLIB_DROPPED's modules, the rest
    byte for byte; its lock file keeps Pyodide's info (checked by loadPyodide) and lists no
    package (the site loads none of them)."""
    with (
        zipfile.ZipFile(build.NODE_PYODIDE / "python_stdlib.zip") as full,
        zipfile.ZipFile(dist_dir / "pyodide/python_stdlib.zip") as site,
    ):
        dropped = {n for n in full.namelist() if n.startswith(build.STDLIB_DROPPED)}
        assert set(site.namelist()) == set(full.namelist()) - dropped
        for prefix in build.STDLIB_DROPPED:  # (each prefix names something of the zip)
            assert any(n.startswith(prefix) for n in dropped), prefix
        for name in site.namelist():
            assert site.read(name) == full.read(name), name
    lock = json.loads((dist_dir / "pyodide/pyodide-lock.json").read_text())
    full_lock = json.loads((build.NODE_PYODIDE / "pyodide-lock.json").read_text())
    assert lock == {**full_lock, "packages": {}}
    # The linker: Pyodide's own, with the one edit of PYODIDE_TABLE_GROWTH.
    old, new = build.PYODIDE_TABLE_GROWTH
    original = (build.NODE_PYODIDE / "pyodide.asm.mjs").read_text(encoding="utf-8")
    linker = (dist_dir / "pyodide/pyodide.asm.mjs").read_text(encoding="utf-8")
    assert original.count(old) == 1
    assert linker == original.replace(old, new)


def test_vendor_exports_are_what_the_modules_take(tmp_path: Path) -> None:
    """A vendor bundle keeps the names the modules use (a namespace's members, named
    imports) and everything when a module takes the library whole."""
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor/lib.js").write_text("")
    (tmp_path / "js/a").mkdir(parents=True)
    (tmp_path / "js/a/one.js").write_text(
        'import * as LIB from "../../vendor/lib.js";\nnew LIB.Scene(LIB.  Two);\n'
    )
    (tmp_path / "js/two.js").write_text('import { Three, Four as F } from "../vendor/lib.js";\n')
    (tmp_path / "js/other.js").write_text('import * as LIB from "./lib.js";\nLIB.Five;\n')
    assert build.vendor_exports("vendor/lib.js", tmp_path) == ["Four", "Scene", "Three", "Two"]
    (tmp_path / "js/three.js").write_text('import * as L from "../vendor/lib.js";\nuse(L);\n')
    assert build.vendor_exports("vendor/lib.js", tmp_path) is None
    (tmp_path / "js/three.js").write_text('const m = await import("../vendor/lib.js");\n')
    assert build.vendor_exports("vendor/lib.js", tmp_path) is None


def test_vendor_bundles_are_minified_without_eval(dist_dir: Path) -> None:
    for rel, package in build.VENDOR_BUNDLES.items():
        data = (dist_dir / rel).read_bytes()
        assert not any(word in data for word in build.FORBIDDEN), rel
        assert b"\nimport " not in data and not data.startswith(b"import "), rel
        source = build.NODE_PYODIDE.parent / package / "package.json"
        assert source.is_file(), package
    three = (dist_dir / "vendor/three.module.js").stat().st_size
    assert three < 600_000, f"three.js is {three} bytes: not minified, or all of it?"
    # Only what web/js takes from it (every name the 3D dice use, and no other).
    tail = (dist_dir / "vendor/three.module.js").read_text()
    exported = re.findall(r"as ([\w$]+)", tail[tail.rindex("export{") :])
    assert sorted(exported) == build.vendor_exports("vendor/three.module.js") and exported
    assert "WebGLRenderer" in exported
    for rel in build.VENDOR_MINIFIED:
        data = (dist_dir / rel).read_bytes()
        assert not any(word in data for word in build.FORBIDDEN), rel
        assert len(data) < (build.NODE_PYODIDE.parent / build.VENDOR_MINIFIED[rel]).stat().st_size


def test_the_offline_copy_fits_in_15_mb(dist_dir: Path) -> None:
    """Issue 25: the service worker's precache (the offline copy) is at most 15 MB."""
    precache = json.loads((dist_dir / "precache.json").read_text())
    assert precache["bytes"] == sum((dist_dir / f).stat().st_size for f in precache["files"])
    assert precache["bytes"] <= 15_000_000, precache["bytes"]


def test_the_test_command_runs_two_test_processes_unless_told() -> None:
    from buildtools.checks import pytest_processes

    pytest.importorskip("xdist")
    two = {"PYRULES_TEST_PROCESSES": "2"}
    variable = "PYRULES_TEST_PROCESSES"
    assert pytest_processes([], {}) == ["-n", "2", "--dist", "loadfile"]
    assert pytest_processes([], {variable: "1"}) == []
    assert pytest_processes([], {variable: "0"}) == []
    assert pytest_processes([], {variable: "two"}) == ["-n", "2", "--dist", "loadfile"]
    assert pytest_processes([], {variable: "3"}) == ["-n", "3", "--dist", "loadfile"]
    assert pytest_processes(["-k", "pool"], two) == ["-n", "2", "--dist", "loadfile"]
    for own in (["-n", "0"], ["-n1"], ["--numprocesses=3"], ["-p", "no:xdist"], ["--dist=load"]):
        assert pytest_processes(own, two) == [], own
