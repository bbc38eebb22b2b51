"""dist/: the static site made from web/, the runtime, the wheels and the snapshot."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .bundle import (
    EARLY_FILE,
    WORKER_FILE,
    bundled_by_page,
    early_bundle,
    minify_file,
    minify_web,
    page_bundle,
    vendor_bundles,
    worker_bundle,
)
from .config import (
    BAKED,
    DIST,
    EXTRA_WHEELS,
    GENERATED,
    MICROPIP_WHEEL,
    NOT_PRECACHED,
    NOT_PRECACHED_BUILD,
    PACKAGE,
    PYODIDE_FILES,
    PYRULES_IMPORTS,
    ROOT,
    SNAPSHOT_FILE,
    SW_BUILD,
    SW_BYTES,
    SW_PRECACHE,
    SW_TEMPLATE,
    VENDOR_FILES,
    VENDOR_MINIFIED,
    WEB,
    BuildError,
    log,
    pyodide_version,
    read_version,
    run,
)
from .fetch import ensure_micropip, ensure_pyodide, ensure_pypi_wheel, site_pyodide
from .files import (
    _integrity,
    _sync,
    _web_files,
    _write,
    bake,
    tree_hash,
)
from .snapshot import EngineWheels, make_snapshot
from .wheel import build_wheel


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
    for rel in BAKED:  # before the precache's integrity is taken
        if (dist / rel).is_file():
            text = bake((dist / rel).read_text(encoding="utf-8"), info)
            changed += _write(dist / rel, text.encode("utf-8"))
    files = sorted(
        rel
        for rel in (p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())
        if rel not in NOT_PRECACHED and rel not in NOT_PRECACHED_BUILD
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
    sources = [*VENDOR_FILES.values(), *VENDOR_MINIFIED.values()]
    missing = [s for s in sources if not (ROOT / "node_modules" / s).is_file()]
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
    for rel, source in VENDOR_MINIFIED.items():
        path = ROOT / "node_modules" / source
        if not path.is_file():
            raise BuildError(f"node_modules/{source} is missing after npm ci")
        files[rel] = minify_file(path)
    return files



def build(dist: Path = DIST) -> dict[str, Any]:
    """Build (or bring up to date) the static site in dist/. Returns version.json's content."""
    pyodide_dir = site_pyodide(ensure_pyodide())  # (a trimmed stdlib and lock file)
    micropip = ensure_micropip()
    name, wheel = build_wheel()
    version = read_version()

    web_files = _web_files(WEB)
    template = web_files.pop(SW_TEMPLATE, None)
    if not isinstance(template, Path):
        raise BuildError(f"web/{SW_TEMPLATE} is missing: it is the service worker template")
    # The page's modules and stylesheets bundled (a handful of files, index.html linking the
    # one stylesheet), early.js (the worker's early start) a classic script of its own; the
    # rest of web/ as it is, or minified.
    own = {rel: path for rel, path in web_files.items() if not bundled_by_page(rel)}
    plan: dict[str, Path | bytes] = dict(own)
    plan.update(minify_web(own))
    plan[EARLY_FILE] = early_bundle(WEB)
    systems = systems_description()
    plan.update(page_bundle(systems, WEB))  # index.html too: one stylesheet, its text written in
    generated: dict[str, Path | bytes] = {f"pyodide/{f}": pyodide_dir / f for f in PYODIDE_FILES}
    generated[f"wheels/{MICROPIP_WHEEL}"] = micropip
    engine_wheels: EngineWheels = []
    for extra in EXTRA_WHEELS:
        path = ensure_pypi_wheel(extra.name, extra.version, extra.file, extra.sha256)
        generated[f"wheels/{extra.file}"] = path
        engine_wheels.append((extra.file, path.read_bytes(), extra.imports))
    generated[f"wheels/{name}"] = wheel
    generated.update(vendor_files())
    generated.update(vendor_bundles())
    plan[WORKER_FILE] = worker_bundle()
    engine_wheels.append((name, wheel, PYRULES_IMPORTS))
    snapshot, snapshot_bytes = make_snapshot(pyodide_dir, micropip, engine_wheels)
    generated[SNAPSHOT_FILE] = snapshot
    generated["systems.json"] = systems
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
            "bytes": snapshot_bytes,  # the heap
            "packed": int.from_bytes(snapshot[-4:], "little"),  # the file, gunzipped (ISIZE)
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

