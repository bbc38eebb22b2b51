"""What the build knows: paths, pinned versions, the files it makes, and the helpers every
step shares (BuildError, log, run, the versions read from the source tree)."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
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

#: Modules of Pyodide's python_stdlib.zip that the site leaves out (dist/pyodide/ holds the
#: zip without them; the build's snapshot is made from that very zip, whose directory Python
#: keeps in the heap). Neither the engine, its wheels (lark, icepool, segno), micropip nor
#: Pyodide's own modules import them, except for interactive or debugging use (the REPL,
#: pdb, doctest, help(), profilers) or for what a browser worker cannot do (processes,
#: sockets for mail and FTP, servers, SQLite, which Pyodide ships apart). About 0.5 MB of
#: the offline copy. A prefix ending with "/" drops a package.
STDLIB_DROPPED = (
    "_pyrepl/", "pdb.py", "doctest.py", "pydoc.py", "unittest/", "xmlrpc/", "wsgiref/",
    "imaplib.py", "smtplib.py", "poplib.py", "ftplib.py", "mailbox.py", "multiprocessing/",
    "sqlite3/", "trace.py", "profile.py", "cProfile.py", "pstats.py", "timeit.py",
    "tabnanny.py", "zipapp.py", "pickletools.py", "_pyio.py", "http/server.py",
    "antigravity.py", "this.py",
)

#: One edit of Pyodide's pyodide.asm.mjs (Emscripten's dynamic linker), made in dist/pyodide/
#: before the snapshot is made from it: the function table grows 1,024 slots at a time
#: instead of one, the slots still handed out one by one in the same order (every function
#: gets the index it had, unless a side module grows the table meanwhile: none is loaded
#: here, and the snapshot is made by this same code anyway). Linking the runtime at start
#: adds 5,441 functions to the table, and each WebAssembly.Table grow(1) is dear in WebKit:
#: 150-270 ms of WebKitGTK's restore, about 160-240 ms less with the edit (docs/performance.md,
#: "Measured on 3 December (a third session)").
#: (old, new): the build fails if `old` is not found exactly once (another Pyodide).
PYODIDE_TABLE_GROWTH = (
    'var getEmptyTableSlot=()=>{if(freeTableIndexes.length){return freeTableIndexes.pop()}'
    'return wasmTable["grow"](1)};',
    "var spareTableSlots=0;"
    'var getEmptyTableSlot=()=>{if(freeTableIndexes.length){return freeTableIndexes.pop()}'
    'if(!spareTableSlots){wasmTable["grow"](1024);spareTableSlots=1024}'
    "return wasmTable.length-spareTableSlots--};",
)

#: Browser libraries vendored from npm (pinned in package-lock.json) into dist/vendor/: the 3D
#: dice (three.js draws, cannon-es throws). Loaded by web/js/stage/dice3d.js with a dynamic import
#: once the engine is ready. Each is bundled and minified by esbuild (buildtools/bundle.py) from
#: its npm package: dist name -> npm package. Their licenses are copied (VENDOR_FILES).
VENDOR_BUNDLES = {
    "vendor/three.module.js": "three",
    "vendor/cannon-es.js": "cannon-es",
}
#: Files copied as they are from node_modules: dist name -> node_modules path.
VENDOR_FILES = {
    "vendor/three.LICENSE.txt": "three/LICENSE",
    "vendor/cannon-es.LICENSE.txt": "cannon-es/LICENSE",
    "vendor/jsQR.LICENSE.txt": "jsqr/LICENSE",
}
#: Scripts minified as they are (esbuild, not bundled) from node_modules: dist name -> path.
VENDOR_MINIFIED = {
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
LINT_PATHS = ("pyrules", "tests", "bench", "tools", "build.py", "buildtools")

#: Written into dist/ after the rest is hashed: not part of the build hash.
GENERATED = ("version.json", "precache.json", "sw.js")
#: Scripts of dist/ that get version.json's content baked in (files.bake) once the build is
#: hashed, in place of the string BAKE_PLACEHOLDER: the engine worker, which then starts the
#: runtime and the snapshot with no request before them.
BAKED = ("js/engine/worker.js",)
BAKE_PLACEHOLDER = '"__BUILD_INFO__"'
BAKE_OPEN = "/* build.py: version.json */ "
BAKE_CLOSE = " /* end */"
#: Files of dist/ the service worker does not cache: itself, its manifest, GitHub's marker.
NOT_PRECACHED = ("sw.js", "precache.json", ".nojekyll")
#: Not in the offline copy either, though part of the build: the gzipped snapshot. The engine
#: worker keeps the raw snapshot it restored in Cache Storage itself (web/js/engine/worker.js),
#: so the offline copy does not hold it a second time; without that copy the worker starts
#: from the runtime and the wheels, which are precached.
NOT_PRECACHED_BUILD = ("engine/snapshot.bin.gz",)
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
