#!/usr/bin/env python3
"""Build, serve and test pyrules (standard library only).

    python build.py [build]                  build the static site into dist/
    python build.py serve [--port N] [--host H] [--prefix /sub/]
                                             build, then serve dist/ over HTTP
    python build.py test [PYTEST ARGS...]    install what the tests need, build, lint,
                                             type-check, test
    python build.py setup [--dry-run]        only install (or list) what the tests need

dist/ is a complete static site: the front end from web/, the Pyodide runtime from
node_modules/pyodide (npm, pinned in package-lock.json), the micropip wheel and any
EXTRA_WHEELS (PyPI, cached in .cache/wheels), the pyrules wheel built from pyproject.toml by
its pinned PEP 517 backend (flit_core from PyPI, the same wheel `pip wheel .` builds), and
engine/snapshot.bin.gz, the Pyodide memory snapshot with those wheels installed
and imported (made under Node by tools/snapshot.mjs, cached in .cache/snapshots). Every URL in it is
relative, so the folder works under any sub-path (GitHub Pages serves it at /<repo>/).

Once every other file is in place, the build hashes dist/ and writes version.json, the
precache manifest precache.json and the service worker sw.js (web/sw.js with the build hash
and the list of files to cache filled in), so each build is its own offline version.
"""

from __future__ import annotations

import argparse
import ast
import base64
import contextlib
import functools
import gzip
import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from socket import AF_INET6
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
PACKAGE = ROOT / "pyrules"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
NODE_PYODIDE = ROOT / "node_modules" / "pyodide"

#: Files of the npm package that make up the runtime served in dist/pyodide/.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: Browser libraries vendored from npm (pinned in package-lock.json) into dist/vendor/: the 3D
#: dice (three.js draws, cannon-es throws). Loaded by web/js/stage/dice3d.js with a dynamic import
#: once the engine is ready, precached like every other file. dist name -> node_modules path.
VENDOR_FILES = {
    "vendor/three.module.js": "three/build/three.module.js",
    "vendor/three.core.js": "three/build/three.core.js",
    "vendor/three.LICENSE.txt": "three/LICENSE",
    "vendor/cannon-es.js": "cannon-es/dist/cannon-es.js",
    "vendor/cannon-es.LICENSE.txt": "cannon-es/LICENSE",
    "vendor/jsQR.js": "jsqr/dist/jsQR.js",  # the host's QR reader where BarcodeDetector lacks
}

MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
#: sha256 of the PyPI wheel (Pyodide's own build of it, in pyodide-lock.json, differs).
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"


@dataclass(frozen=True)
class Wheel:
    """A pure-Python wheel from PyPI that the engine needs, installed with pyrules.

    The build downloads it once into .cache/wheels/ (its sha256 checked) and ships it in
    dist/wheels/; micropip installs it (deps=False: no index is ever asked), both at build
    time for the memory snapshot (tools/snapshot.mjs) and in the page when the snapshot
    cannot be used (web/js/engine/worker.js). `imports` are the modules imported right after the
    install, so that the snapshot holds them: a name ending with ".*" imports every module
    of that package (except __main__ and cli modules). A module imported later, lazily,
    would fail after a restore: installed files are not part of a memory snapshot.
    """

    name: str
    version: str
    file: str
    sha256: str
    imports: tuple[str, ...]


#: The wheels installed before pyrules, in this order. To add one, add an entry: the build,
#: the snapshot, the page's fallback install and the offline precache all follow this list.
#: lark parses the free dice notation, icepool gives its exact odds, segno draws the QR codes
#: of replay links (README.md, "Libraries", says why each). Not imported at install: with them
#: the snapshot would not fit Pyodide's start heap. pyrules imports them at their first use;
#: after a restore the worker puts these wheels on sys.path (worker.js, putWheelsOnPath).
EXTRA_WHEELS: tuple[Wheel, ...] = (
    Wheel("lark", "1.3.1", "lark-1.3.1-py3-none-any.whl",
          "c629b661023a014c37da873b4ff58a817398d12635d3bbb2c5a03be7fe5d1e12", ()),
    Wheel("icepool", "2.1.3", "icepool-2.1.3-py3-none-any.whl",
          "fe9e662dff4c015019e5698c6a2760bdb09db99a7522ee4c96c581ffc565fd78", ()),
    Wheel("segno", "1.6.6", "segno-1.6.6-py3-none-any.whl",
          "28c7d081ed0cf935e0411293a465efd4d500704072cdb039778a2ab8736190c7", ()),
)
#: What the worker imports of pyrules itself: every module.
PYRULES_IMPORTS = ("pyrules.*",)

#: The memory snapshot the page restores at every start (tools/snapshot.mjs makes it),
#: gzip-compressed: GitHub Pages does not compress binary files; the page decompresses it.
SNAPSHOT_FILE = "engine/snapshot.bin.gz"
SNAPSHOT_TOOL = ROOT / "tools" / "snapshot.mjs"
#: The install code shared by the snapshot tool and the worker's fallback.
INSTALL_MODULE = WEB / "js" / "engine" / "install.js"
#: How many snapshots .cache/snapshots/ keeps (each about 5 MB).
SNAPSHOT_CACHE_KEEP = 4

#: The PEP 517 backend that builds the pyrules wheel: pyproject.toml's [build-system] requires
#: exactly this version, and build.py runs its build_wheel hook from this wheel, downloaded
#: from PyPI once into .cache/wheels/ and checked against its sha256 (README.md, "One wheel",
#: says why flit_core).
BACKEND_NAME = "flit_core"
BACKEND_VERSION = "4.2.0"
BACKEND_WHEEL = f"flit_core-{BACKEND_VERSION}-py3-none-any.whl"
BACKEND_SHA256 = "2bee22dc8ba89c2e35b4e1ad575e596aac945c85672dd8f3cad21b629036e044"
#: The date written for every member of the wheel (1980-01-01 00:00 UTC, the earliest a zip
#: file can hold), given to the backend as SOURCE_DATE_EPOCH: same source, same wheel bytes.
SOURCE_DATE_EPOCH = 315532800

#: The browsers and tools the suite drives, as (what, programs that provide it, Debian package).
#: `build.py test` installs the missing ones with apt-get as root on Debian, and says what to
#: install anywhere else. The Python test tools are the pinned `[test]` extra of pyproject.toml.
SYSTEM_TOOLS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("Chromium", ("chromium", "chromium-browser", "google-chrome"), "chromium"),
    ("Firefox", ("firefox-esr", "firefox"), "firefox-esr"),
    ("WebKitWebDriver", ("WebKitWebDriver",), "webkit2gtk-driver"),
    ("Xvfb", ("Xvfb",), "xvfb"),
)
#: pytest's closing line, e.g. "==== 3 passed, 1 skipped in 4.20s ====" (or without "=" with -q).
PYTEST_CLOSING = re.compile(
    r"\b(passed|failed|errors?|skipped|deselected|xfailed|xpassed|no tests ran)\b.* in [0-9.]+s\b"
)
LINT_PATHS = ("pyrules", "tests", "bench", "tools", "build.py")

#: Written into dist/ after the rest is hashed: not part of the build hash.
GENERATED = ("version.json", "precache.json", "sw.js")
#: Files of dist/ the service worker does not cache: itself, its manifest, GitHub's marker.
NOT_PRECACHED = ("sw.js", "precache.json", ".nojekyll")
#: The service worker template in web/ and the two JSON strings build.py replaces in it.
SW_TEMPLATE = "sw.js"
SW_BUILD = '"__BUILD__"'
SW_PRECACHE = '"__PRECACHE__"'
SW_BYTES = '"__BYTES__"'

#: How tests and benchmarks start Chromium here: no sandbox as root, no GPU, and none of the
#: background requests a closed network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/octet-stream",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".html": "text/html",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain",
}


class BuildError(Exception):
    """A build step failed; the message says what to do."""


def log(message: str) -> None:
    print(f"[build] {message}", flush=True)


def run(cmd: list[str]) -> subprocess.CompletedProcess[bytes]:
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT, check=False)


# --------------------------------------------------------------------------- versions


def read_version(package_dir: Path = PACKAGE) -> str:
    """The `__version__ = "..."` of package_dir/__init__.py, read without importing it."""
    init = package_dir / "__init__.py"
    tree = ast.parse(init.read_text(encoding="utf-8"), filename=str(init))
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if "__version__" in names and isinstance(node.value, ast.Constant):
                value = node.value.value
                if isinstance(value, str) and value:
                    return value
    raise BuildError(f"no __version__ = '...' string in {init}")


def pyodide_version() -> str:
    """The pyodide version pinned in package-lock.json."""
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    try:
        return str(lock["packages"]["node_modules/pyodide"]["version"])
    except KeyError:
        raise BuildError("package-lock.json does not pin pyodide") from None


def _project_table() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        project: dict[str, Any] = tomllib.load(f).get("project", {})
    return project


# --------------------------------------------------------------------------- dependencies


def ensure_pyodide() -> Path:
    """node_modules/pyodide at the locked version (runs `npm ci` when missing or stale)."""
    wanted = pyodide_version()

    def installed() -> str | None:
        meta = NODE_PYODIDE / "package.json"
        if not meta.is_file() or not all((NODE_PYODIDE / f).is_file() for f in PYODIDE_FILES):
            return None
        return str(json.loads(meta.read_text(encoding="utf-8")).get("version"))

    have = installed()
    if have != wanted:
        log(f"node_modules/pyodide is {have or 'missing'}, want {wanted}: npm ci")
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm not found: install Node.js (Debian: apt-get install npm)")
        if run([npm, "ci", "--no-audit", "--no-fund"]).returncode != 0:
            raise BuildError("npm ci failed")
        have = installed()
        if have != wanted:
            raise BuildError(f"npm ci left pyodide {have}, want {wanted}")
    return NODE_PYODIDE


def ensure_pypi_wheel(name: str, version: str, file: str, sha256: str) -> Path:
    """A wheel from PyPI, downloaded once into .cache/wheels/ and checked against its sha256."""
    wheels = CACHE / "wheels"
    wheel = wheels / file
    if not wheel.is_file():
        wheels.mkdir(parents=True, exist_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--python-version",
            "3.14",
            "--only-binary=:all:",
            f"{name}=={version}",
            "-d",
            str(wheels),
        ]
        if run(cmd).returncode != 0 or not wheel.is_file():
            raise BuildError(f"could not download {file} from PyPI")
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != sha256:
        wheel.unlink()
        raise BuildError(f"{file} has sha256 {digest}, want {sha256}")
    return wheel


def ensure_micropip() -> Path:
    """The micropip wheel from PyPI, downloaded once into .cache/wheels/."""
    return ensure_pypi_wheel("micropip", MICROPIP_VERSION, MICROPIP_WHEEL, MICROPIP_SHA256)


# --------------------------------------------------------------------------- the wheel


def _build_system() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        table: dict[str, Any] = tomllib.load(f).get("build-system", {})
    return table


def ensure_backend() -> tuple[Path, str]:
    """The PEP 517 backend of pyproject.toml: (its checked wheel from PyPI, its module).

    pyproject.toml's [build-system] must require exactly BACKEND_NAME==BACKEND_VERSION, the
    wheel build.py checks against BACKEND_SHA256: `pip wheel .` and the site use one backend.
    """
    table = _build_system()
    pin = f"{BACKEND_NAME}=={BACKEND_VERSION}"
    if table.get("requires") != [pin] or not table.get("build-backend"):
        raise BuildError(
            f"pyproject.toml's [build-system] must require exactly {pin!r} and name its "
            f"build-backend (it has requires={table.get('requires')!r}); to change the "
            "backend, change BACKEND_* in build.py with it"
        )
    wheel = ensure_pypi_wheel(BACKEND_NAME, BACKEND_VERSION, BACKEND_WHEEL, BACKEND_SHA256)
    return wheel, str(table["build-backend"])


#: Runs the backend's PEP 517 build_wheel hook in a fresh Python, as a build frontend does:
#: argv = backend wheel (put first on sys.path: a pure-Python wheel imports as a zip file),
#: backend module, output folder; prints the wheel's file name.
_BUILD_HOOK = (
    "import importlib, sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "print(importlib.import_module(sys.argv[2]).build_wheel(sys.argv[3]))\n"
)


def build_wheel(project: Path = ROOT) -> tuple[str, bytes]:
    """The pyrules wheel, built from pyproject.toml by its PEP 517 backend: (file name, bytes).

    The one wheel definition: `pip wheel .` runs the same backend on the same pyproject.toml.
    The hook runs in `project` (PEP 517: the working directory is the source tree), in
    isolated mode (-I: no user site, no PYTHONPATH, not the source tree on sys.path), with
    SOURCE_DATE_EPOCH fixed: same source, same wheel bytes.
    """
    backend, module = ensure_backend()
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(SOURCE_DATE_EPOCH)}
    with tempfile.TemporaryDirectory(prefix="pyrules-wheel-") as tmp:
        out = Path(tmp)
        done = subprocess.run(
            [sys.executable, "-I", "-c", _BUILD_HOOK, str(backend), module, str(out)],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            check=False,
        )
        lines = done.stdout.split()
        name = lines[-1] if lines else ""
        built = [p.name for p in out.iterdir()]
        if done.returncode != 0 or built != [name] or not name.endswith(".whl"):
            raise BuildError(
                f"{module}.build_wheel failed (exit {done.returncode}, made {built}): "
                "see its error above"
            )
        return name, (out / name).read_bytes()


# --------------------------------------------------------------------------- dist/


def _same_file(src: Path, dst: Path) -> bool:
    try:
        a, b = src.stat(), dst.stat()
    except FileNotFoundError:
        return False
    return a.st_size == b.st_size and a.st_mtime_ns == b.st_mtime_ns


def _replace(dst: Path, write: Any) -> None:
    if dst.is_dir():
        shutil.rmtree(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(dst.name + ".tmp-build")
    write(tmp)
    os.replace(tmp, dst)


def _sync(dist: Path, plan: dict[str, Path | bytes], keep: tuple[str, ...] = ()) -> int:
    """Make dist/ hold exactly `plan` (relative posix path -> source file or content).

    Files are copied only when size or mtime differ, content is written only when it
    changed, and whatever is neither in the plan nor in `keep` is deleted. Returns how many
    files changed.
    """
    changed = 0
    dist.mkdir(parents=True, exist_ok=True)
    for dirpath, dirnames, filenames in os.walk(dist, topdown=False):
        here = Path(dirpath)
        for name in filenames:
            path = here / name
            rel = path.relative_to(dist).as_posix()
            if rel not in plan and rel not in keep:
                path.unlink()
                changed += 1
        for name in dirnames:
            sub = here / name
            if sub.is_symlink():
                sub.unlink()
            elif not any(sub.iterdir()):
                sub.rmdir()
    for rel, source in sorted(plan.items()):
        dst = dist / rel
        if isinstance(source, Path):
            if not _same_file(source, dst):
                _replace(dst, functools.partial(shutil.copy2, source))
                changed += 1
        elif not dst.is_file() or dst.read_bytes() != source:
            _replace(dst, lambda tmp, data=source: tmp.write_bytes(data))
            changed += 1
    return changed


def _web_files(web: Path) -> dict[str, Path]:
    files: dict[str, Path] = {}
    if not web.is_dir():
        return files
    for dirpath, dirnames, filenames in os.walk(web, followlinks=True):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in filenames:
            path = Path(dirpath) / name
            files[path.relative_to(web).as_posix()] = path
    return files


def tree_hash(dist: Path, exclude: tuple[str, ...] = GENERATED) -> str:
    """sha256 over the relative path and content of every file of dist/ (16 hex digits).

    The generated files (version.json, precache.json, sw.js) are left out: they are written
    from this hash.
    """
    total = hashlib.sha256()
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        rel = path.relative_to(dist).as_posix()
        if rel in exclude:
            continue
        content = hashlib.sha256(path.read_bytes()).hexdigest()
        total.update(f"{rel}\0{content}\n".encode())
    return total.hexdigest()[:16]


def _write(path: Path, data: bytes) -> int:
    """Write data to path unless it already holds it; 1 when the file changed."""
    if path.is_file() and path.read_bytes() == data:
        return 0
    _replace(path, lambda tmp: tmp.write_bytes(data))
    return 1


def _integrity(path: Path) -> str:
    """Subresource-integrity value of a file: "sha256-<base64 digest>"."""
    digest = hashlib.sha256(path.read_bytes()).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


def service_worker(
    template: str, build_hash: str, precache: dict[str, str], total_bytes: int = 0
) -> str:
    """web/sw.js with the build hash, the {path: integrity} precache map and the total size
    of the precached files filled in."""
    for placeholder in (SW_BUILD, SW_PRECACHE, SW_BYTES):
        if template.count(placeholder) != 1:
            raise BuildError(f"web/{SW_TEMPLATE} must hold {placeholder} exactly once")
    files = json.dumps(precache, indent=2, sort_keys=True)
    return (
        template.replace(SW_BUILD, json.dumps(build_hash))
        .replace(SW_PRECACHE, files)
        .replace(SW_BYTES, str(int(total_bytes)))
    )


def finish_site(dist: Path, info: dict[str, Any], template: Path = WEB / SW_TEMPLATE) -> int:
    """Hash dist/, then write version.json, precache.json and sw.js from that hash.

    info is version.json's content; its "build" is set here. Call it again after changing a
    file of dist/ and the site becomes a new build. Returns how many files changed.
    """
    if not template.is_file():
        raise BuildError(f"{template} is missing: it is the service worker template")
    info["build"] = tree_hash(dist)
    changed = _write(dist / "version.json", (json.dumps(info, indent=2) + "\n").encode())
    files = sorted(
        rel
        for rel in (p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())
        if rel not in NOT_PRECACHED
    )
    integrity = {rel: _integrity(dist / rel) for rel in files}
    manifest = {
        "build": info["build"],
        "files": files,
        "integrity": integrity,
        "bytes": sum((dist / rel).stat().st_size for rel in files),
    }
    changed += _write(dist / "precache.json", (json.dumps(manifest, indent=2) + "\n").encode())
    sw = service_worker(
        template.read_text(encoding="utf-8"), info["build"], integrity, manifest["bytes"]
    )
    changed += _write(dist / "sw.js", sw.encode("utf-8"))
    return changed


def systems_description(package_dir: Path = PACKAGE) -> bytes:
    """The engine's own answer to {"op": "systems"} (fields, bounds, defaults, labels), from
    the source tree in a fresh interpreter. The page builds its forms from it on a first
    visit while the engine starts; the engine's answer replaces it once ready."""
    code = (
        "import json, sys, pyrules.api\n"
        "answer = json.loads(pyrules.api.handle(json.dumps({'op': 'systems'})))\n"
        "assert answer['ok'], answer\n"
        "sys.stdout.write(json.dumps(answer['result']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=package_dir.parent, capture_output=True, check=False
    )
    if done.returncode != 0:
        raise BuildError(f"the engine could not describe its systems: {done.stderr.decode()}")
    return done.stdout


def vendor_files() -> dict[str, Path | bytes]:
    """The npm libraries copied into dist/vendor/ (see VENDOR_FILES)."""
    missing = [s for s in VENDOR_FILES.values() if not (ROOT / "node_modules" / s).is_file()]
    if missing:
        log(f"node_modules lacks {', '.join(missing)}: npm ci")
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm not found: install Node.js (Debian: apt-get install npm)")
        if run([npm, "ci", "--no-audit", "--no-fund"]).returncode != 0:
            raise BuildError("npm ci failed")
    files: dict[str, Path | bytes] = {}
    for rel, source in VENDOR_FILES.items():
        path = ROOT / "node_modules" / source
        if not path.is_file():
            raise BuildError(f"node_modules/{source} is missing after npm ci")
        files[rel] = path
    return files


EngineWheels = list[tuple[str, bytes, tuple[str, ...]]]


def _snapshot_key(pyodide_dir: Path, micropip: Path, wheels: EngineWheels) -> str:
    """What the snapshot depends on: the runtime, micropip, every wheel (bytes and imports),
    the install code and the tool that makes it. Same key, same snapshot (up to Python's
    random hash seed, which is why it is cached rather than rebuilt)."""
    total = hashlib.sha256()
    total.update(f"pyodide {pyodide_version()}\n".encode())
    for path in (
        *(pyodide_dir / f for f in PYODIDE_FILES),
        micropip,
        INSTALL_MODULE,
        SNAPSHOT_TOOL,
    ):
        total.update(f"{path.name}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode())
    for name, data, imports in wheels:
        digest = hashlib.sha256(data).hexdigest()
        total.update(f"{name}\0{digest}\0{','.join(imports)}\n".encode())
    return total.hexdigest()[:24]


def make_snapshot(pyodide_dir: Path, micropip: Path, wheels: EngineWheels) -> tuple[bytes, int]:
    """The gzip-compressed memory snapshot of the engine, and its size uncompressed.

    tools/snapshot.mjs boots the pinned Pyodide under Node, has micropip install `wheels`
    (file name, bytes, modules to import) and makes the snapshot. Cached in
    .cache/snapshots/ by _snapshot_key(): an unchanged engine rebuilds in no time.
    """
    key = _snapshot_key(pyodide_dir, micropip, wheels)
    folder = CACHE / "snapshots"
    cached = folder / f"{key}.bin.gz"
    if cached.is_file():
        data = cached.read_bytes()
        size = int.from_bytes(data[-4:], "little")  # gzip's ISIZE (the snapshot is < 4 GiB)
        os.utime(cached)
        return data, size
    node = shutil.which("node")
    if node is None:
        raise BuildError("node not found: it makes the engine's snapshot (apt-get install nodejs)")
    folder.mkdir(parents=True, exist_ok=True)
    work = folder / f"{key}.tmp"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        manifest = []
        for name, data, imports in wheels:
            (work / name).write_bytes(data)
            manifest.append({"path": str(work / name), "imports": list(imports)})
        (work / "wheels.json").write_text(json.dumps(manifest), encoding="utf-8")
        raw = work / "snapshot.bin"
        cmd = [
            node,
            str(SNAPSHOT_TOOL),
            "--pyodide",
            str(pyodide_dir),
            "--micropip",
            str(micropip),
            "--wheels",
            str(work / "wheels.json"),
            "--out",
            str(raw),
        ]
        log("making the engine's memory snapshot under Node")
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not raw.is_file():
            raise BuildError(f"tools/snapshot.mjs failed: {done.stderr.strip()[-2000:]}")
        log(f"snapshot: {done.stdout.strip()}")
        snapshot = raw.read_bytes()
        data = gzip.compress(snapshot, compresslevel=6, mtime=0)
        _replace(cached, lambda tmp: tmp.write_bytes(data))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    old = sorted(folder.glob("*.bin.gz"), key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in old[SNAPSHOT_CACHE_KEEP:]:
        stale.unlink(missing_ok=True)
    return data, len(snapshot)


def build(dist: Path = DIST) -> dict[str, Any]:
    """Build (or bring up to date) the static site in dist/. Returns version.json's content."""
    pyodide_dir = ensure_pyodide()
    micropip = ensure_micropip()
    name, wheel = build_wheel()
    version = read_version()

    plan: dict[str, Path | bytes] = dict(_web_files(WEB))
    template = plan.pop(SW_TEMPLATE, None)
    if not isinstance(template, Path):
        raise BuildError(f"web/{SW_TEMPLATE} is missing: it is the service worker template")
    generated: dict[str, Path | bytes] = {f"pyodide/{f}": pyodide_dir / f for f in PYODIDE_FILES}
    generated[f"wheels/{MICROPIP_WHEEL}"] = micropip
    engine_wheels: EngineWheels = []
    for extra in EXTRA_WHEELS:
        path = ensure_pypi_wheel(extra.name, extra.version, extra.file, extra.sha256)
        generated[f"wheels/{extra.file}"] = path
        engine_wheels.append((extra.file, path.read_bytes(), extra.imports))
    generated[f"wheels/{name}"] = wheel
    generated.update(vendor_files())
    engine_wheels.append((name, wheel, PYRULES_IMPORTS))
    snapshot, snapshot_bytes = make_snapshot(pyodide_dir, micropip, engine_wheels)
    generated[SNAPSHOT_FILE] = snapshot
    generated["systems.json"] = systems_description()
    generated[".nojekyll"] = b""
    clashes = sorted(
        rel
        for rel in plan
        if rel in generated
        or rel in GENERATED
        or rel.startswith(("pyodide/", "wheels/", "engine/", "vendor/"))
    )
    if clashes:
        raise BuildError(f"web/ must not hold files that the build makes: {', '.join(clashes)}")
    plan.update(generated)

    info: dict[str, Any] = {
        "version": version,
        "pyodide": pyodide_version(),
        "wheel": f"wheels/{name}",
        "micropip": f"wheels/{MICROPIP_WHEEL}",
        # Installed in this order, each followed by the import of its modules.
        "wheels": [
            {"url": f"wheels/{file}", "imports": list(imports)}
            for file, _, imports in engine_wheels
        ],
        "snapshot": {
            "url": SNAPSHOT_FILE,
            "bytes": snapshot_bytes,
            "gzip": len(snapshot),
            "integrity": "sha256-"
            + base64.b64encode(hashlib.sha256(snapshot).digest()).decode("ascii"),
        },
        "build": "",
    }
    changed = _sync(dist, plan, keep=GENERATED)
    changed += finish_site(dist, info, template)
    log(
        f"dist/ ready: pyrules {version}, pyodide {info['pyodide']}, build {info['build']}"
        f" ({changed} file(s) changed)"
    )
    return info


# --------------------------------------------------------------------------- serving


def _normalize_prefix(prefix: str) -> str:
    prefix = "/" + prefix.strip("/")
    return "/" if prefix == "/" else prefix + "/"


# The Content-Security-Policy of web/index.html's meta tag, also sent as an HTTP header by the
# local server: a header covers the worker scripts too (a meta tag only covers the page), so the
# tests run the engine under it. GitHub Pages cannot send headers: there only the meta tag acts.
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; "
    "base-uri 'self'"
)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a directory with the MIME types Pyodide needs, optionally under a sub-path."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **MIME_TYPES,
    }
    prefix = "/"
    quiet = False

    def _outside_prefix(self) -> bool:
        if self.prefix == "/":
            return False
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path == self.prefix.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return True
        if not path.startswith(self.prefix):
            self.send_error(404, "Not under " + self.prefix)
            return True
        return False

    def do_GET(self) -> None:
        if not self._outside_prefix():
            super().do_GET()

    def do_HEAD(self) -> None:
        if not self._outside_prefix():
            super().do_HEAD()

    def translate_path(self, path: str) -> str:
        if self.prefix != "/" and path.startswith(self.prefix):
            path = path[len(self.prefix) - 1 :]
        return super().translate_path(path)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(
    directory: Path | str = DIST,
    host: str = "127.0.0.1",
    port: int = 0,
    prefix: str = "",
    quiet: bool = False,
) -> http.server.ThreadingHTTPServer:
    """An HTTP server for `directory` (not started). Port 0 picks a free port.

    With a prefix such as "/pyrules/", the site is served under that sub-path (as GitHub
    Pages does) and every other path answers 404.
    """
    handler = type(
        "BoundSiteHandler",
        (SiteHandler,),
        {"prefix": _normalize_prefix(prefix), "quiet": quiet},
    )
    bound = functools.partial(handler, directory=str(directory))
    server_class = http.server.ThreadingHTTPServer
    if ":" in host:  # an IPv6 address such as ::1
        server_class = type("ThreadingHTTPServer6", (server_class,), {"address_family": AF_INET6})
    return server_class((host, port), bound)


def server_url(server: http.server.ThreadingHTTPServer, prefix: str = "") -> str:
    host, port = server.server_address[:2]
    if isinstance(host, bytes):
        host = host.decode()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}{_normalize_prefix(prefix)}"


@contextlib.contextmanager
def serving(
    directory: Path | str = DIST, prefix: str = "", host: str = "127.0.0.1"
) -> Iterator[str]:
    """Serve `directory` in a background thread; yields the site's base URL (ends with /)."""
    server = make_server(directory, host, 0, prefix, quiet=True)
    thread = threading.Thread(
        target=server.serve_forever, args=(0.05,), name="pyrules-http", daemon=True
    )
    thread.start()
    try:
        yield server_url(server, prefix)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def serve(host: str, port: int, prefix: str) -> int:
    build()
    try:
        server = make_server(DIST, host, port, prefix)
    except OSError as error:
        raise BuildError(
            f"cannot serve on {host}:{port}: {error.strerror} (try --port 0)"
        ) from None
    print(f"Serving dist/ at {server_url(server, prefix)}  (Ctrl-C to stop)", flush=True)
    signal.signal(signal.SIGTERM, _interrupt)
    # Ctrl-C stops it even when started as a background job, which inherits SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nStopped.", flush=True)
    finally:
        server.server_close()
    return 0


# --------------------------------------------------------------------------- testing


def test_requirements() -> list[str]:
    """The pinned `[test]` extra of pyproject.toml ("name==version" each)."""
    extras = _project_table().get("optional-dependencies", {})
    requirements = [str(r) for r in extras.get("test", [])]
    unpinned = [r for r in requirements if "==" not in r]
    if not requirements or unpinned:
        raise BuildError(f"pyproject.toml's [test] extra must pin every tool: {unpinned}")
    return requirements


def missing_requirements(requirements: list[str]) -> list[str]:
    """The requirements whose installed version is not the pinned one."""
    from importlib import metadata

    missing = []
    for requirement in requirements:
        name, version = (part.strip() for part in requirement.split("==", 1))
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            missing.append(requirement)
    return missing


def ensure_test_tools() -> None:
    """pip-install the `[test]` extra's pinned tools that are missing or at another version;
    fetch the engine's wheels and the wheel's build backend into .cache/wheels/."""
    missing = missing_requirements(test_requirements())
    if missing:
        cmd = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        if run([*cmd, *missing]).returncode != 0:
            raise BuildError(f"could not install {' '.join(missing)} with pip")
    ensure_engine_deps()
    ensure_backend()  # the wheel's build backend, for the build and tests/pyodide/test_build.py


def missing_system_tools(which: Any = shutil.which) -> list[tuple[str, str]]:
    """(what, Debian package) of each SYSTEM_TOOLS entry with none of its programs found."""
    missing = []
    for what, programs, package in SYSTEM_TOOLS:
        preset = os.environ.get("PYRULES_CHROMIUM")
        if what == "Chromium" and preset and os.access(preset, os.X_OK):
            continue
        if not any(which(program) for program in programs):
            missing.append((what, package))
    return missing


def is_debian() -> bool:
    return Path("/etc/debian_version").is_file() and shutil.which("apt-get") is not None


def install_plan(packages: list[str], debian: bool, root: bool) -> list[list[str]] | str:
    """The apt-get commands that install `packages` here, or, when this machine cannot do it
    by itself (not Debian, or not root), the sentence saying what to install."""
    if not packages:
        return []
    if debian and root:
        return [
            ["apt-get", "update", "-q"],
            ["apt-get", "install", "-y", "-q", *packages],
        ]
    if debian:
        return f"as root, run: apt-get update && apt-get install -y {' '.join(packages)}"
    return (
        "install these (Debian names; other systems have their own packages): "
        + ", ".join(packages)
        + "; a Chromium can also be named with PYRULES_CHROMIUM=/path/to/chrome"
    )


def ensure_system_tools(dry_run: bool = False) -> None:
    """Install the browsers and tools the suite drives (see SYSTEM_TOOLS) when missing.

    As root on Debian: apt-get update + install, non-interactive. Elsewhere: say what to install;
    only a missing Chromium is an error then (the WebKit and Firefox tests skip without theirs).
    """
    missing = missing_system_tools()
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    plan = install_plan([package for _, package in missing], is_debian(), root)
    if not missing:
        log("browsers and tools: all found")
        return
    log("missing: " + ", ".join(f"{what} (Debian: {package})" for what, package in missing))
    if isinstance(plan, str):
        message = f"cannot install them here: {plan}"
        if any(what == "Chromium" for what, _ in missing):
            raise BuildError(f"no Chromium for the browser tests; {message}")
        log(message)
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in plan:
        if dry_run:
            log("would run: " + " ".join(cmd))
            continue
        log("$ " + " ".join(cmd))
        done = subprocess.run(cmd, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, check=False)
        if done.returncode != 0:
            raise BuildError(f"{' '.join(cmd[:2])} failed (exit {done.returncode})")
    if not dry_run and missing_system_tools():
        raise BuildError(f"still missing after apt-get: {missing_system_tools()}")


def ensure_engine_deps() -> None:
    """Install the engine's pinned wheels (EXTRA_WHEELS) into this Python (the unit tests and
    the CLI import them), from the checked copies in .cache/wheels."""
    from importlib.metadata import PackageNotFoundError, version

    stale = []
    for extra in EXTRA_WHEELS:
        path = ensure_pypi_wheel(extra.name, extra.version, extra.file, extra.sha256)
        try:
            have = version(extra.name)
        except PackageNotFoundError:
            have = None
        if have != extra.version:
            stale.append(str(path))
    if stale:
        cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", *stale]
        if run(cmd).returncode != 0:
            raise BuildError(f"could not install {' '.join(stale)}")


def _playwright_browsers() -> list[Path]:
    roots = []
    if os.environ.get("PLAYWRIGHT_BROWSERS_PATH", "0") != "0":
        roots.append(Path(os.environ["PLAYWRIGHT_BROWSERS_PATH"]))
    roots.append(Path.home() / ".cache" / "ms-playwright")
    patterns = (
        "chromium-*/chrome-linux*/chrome",
        "chromium_headless_shell-*/chrome-linux*/headless_shell",
        "chromium_headless_shell-*/chrome-headless-shell-linux64/chrome-headless-shell",
    )
    found: list[Path] = []
    for root in roots:
        for pattern in patterns:
            found += sorted(root.glob(pattern), reverse=True)
    return found


def find_chromium() -> str | None:
    """A Chromium for the browser tests: $PYRULES_CHROMIUM, PATH, then Playwright's own."""
    preset = os.environ.get("PYRULES_CHROMIUM")
    if preset and os.access(preset, os.X_OK):
        return preset
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    for path in _playwright_browsers():
        if os.access(path, os.X_OK):
            return str(path)
    return None


def _export_chromium() -> None:
    chromium = find_chromium()
    if chromium is None:
        raise BuildError(
            "no Chromium found for the browser tests: install one "
            "(Debian: apt-get install chromium) or set PYRULES_CHROMIUM to its path"
        )
    os.environ["PYRULES_CHROMIUM"] = chromium
    log(f"Chromium: {chromium}")


def test(pytest_args: list[str]) -> int:
    results: list[tuple[str, int]] = []

    def stage(name: str, code: int) -> None:
        results.append((name, code))
        if code:
            log(f"stage '{name}' failed (exit {code})")

    for name, step in SETUP_STAGES:
        try:
            step()
        except BuildError as error:
            log(f"error: {error}")
            stage(name, 1)
            return _summary(results)
        stage(name, 0)

    closing = ""
    for name, check in CHECK_STAGES:
        code, line = check(pytest_args)
        stage(name, code)
        closing = line or closing
    return _summary(results, closing)


def _ruff(_: list[str]) -> tuple[int, str]:
    lint = [p for p in LINT_PATHS if (ROOT / p).exists()]
    return run([sys.executable, "-m", "ruff", "check", *lint]).returncode, ""


def _mypy(_: list[str]) -> tuple[int, str]:
    return run([sys.executable, "-m", "mypy"]).returncode, ""


def _node_tests(_: list[str]) -> tuple[int, str]:
    """The JavaScript that needs no browser (tests/js/*.test.js, node's own test runner)."""
    log("$ node --test tests/js/")
    node = subprocess.run(
        ["node", "--test", "tests/js/"],
        cwd=ROOT,
        check=False,
        env={**os.environ, "PYTHON": sys.executable},
    )
    return node.returncode, ""


#: What `build.py test` does, in order. A setup stage raises BuildError to stop the run; a check
#: stage gets the extra command-line arguments and returns (exit code, closing line), and every
#: check runs even when an earlier one failed. Add a stage by adding a line here.
SETUP_STAGES: tuple[tuple[str, Any], ...] = (
    ("test tools (pip, pyproject [test])", ensure_test_tools),
    ("browsers and tools (apt)", ensure_system_tools),
    ("pyodide runtime (npm)", ensure_pyodide),
    ("chromium", _export_chromium),
    ("build dist/", build),
)
CHECK_STAGES: tuple[tuple[str, Any], ...] = (
    ("ruff check", _ruff),
    ("mypy", _mypy),
    ("node --test", _node_tests),
    ("pytest", lambda args: run_pytest(args)),
)


def run_pytest(args: list[str]) -> tuple[int, str]:
    """Run pytest, echoing its output; returns its exit code and its closing summary line."""
    cmd = [sys.executable, "-m", "pytest", *args]
    if sys.stdout.isatty() and not any(a.startswith("--color") for a in args):
        cmd.insert(3, "--color=yes")
    log("$ " + " ".join(cmd))
    closing = ""
    with subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    ) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            if PYTEST_CLOSING.search(line):
                closing = line.rstrip("\n")
    return proc.returncode, closing


def _summary(results: list[tuple[str, int]], closing: str = "") -> int:
    print("\n== build.py test summary ==", flush=True)
    for name, code in results:
        print(
            f"  {'ok    ' if code == 0 else 'FAILED'}  {name}" + (f" (exit {code})" if code else "")
        )
    failed = [(name, code) for name, code in results if code]
    if failed:
        print(f"FAILED at stage: {failed[0][0]}", flush=True)
    else:
        print("all stages passed", flush=True)
    if closing:
        print(closing, flush=True)  # pytest's own closing line stays the last one
    return failed[0][1] if failed else 0


# --------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="build.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="build dist/ (the default)")
    serve_p = commands.add_parser("serve", help="build, then serve dist/ over HTTP")
    serve_p.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    serve_p.add_argument("--host", default="127.0.0.1")
    serve_p.add_argument("--prefix", default="", help="serve under a sub-path, e.g. /pyrules/")
    commands.add_parser("test", help="lint, type-check and run every test; extra args go to pytest")
    setup_p = commands.add_parser("setup", help="install what the tests need (done by test)")
    setup_p.add_argument(
        "--dry-run", action="store_true", help="only say what is missing and what would run"
    )
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "test":
        parser.error("unrecognized arguments: " + " ".join(extra))
    try:
        if args.command == "serve":
            return serve(args.host, args.port, args.prefix)
        if args.command == "test":
            return test(extra)
        if args.command == "setup":
            if not args.dry_run:
                ensure_test_tools()
            else:
                log("test tools to install: " + (
                    " ".join(missing_requirements(test_requirements())) or "none"))
            ensure_system_tools(dry_run=args.dry_run)
            return 0
        build()
        return 0
    except BuildError as error:
        print(f"build.py: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
