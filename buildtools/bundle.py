"""Bundling with esbuild (npm, pinned in package-lock.json), run by the build.

- The browser libraries of dist/vendor/ (VENDOR_BUNDLES): three.js and cannon-es, each one
  minified ES module with the exports of the npm package, instead of the unminified files.
- The engine worker (WORKER_ENTRY): web/js/engine/worker.js and what it imports, one file,
  so a starting worker asks for no second script before the runtime and the snapshot.

No output may hold eval or new Function (the page's CSP forbids them): the build checks.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

from .config import ROOT, VENDOR_BUNDLES, BuildError, log, run

ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
#: The worker's entry module (web/) and where its bundle goes in dist/.
WORKER_ENTRY = ROOT / "web" / "js" / "engine" / "worker.js"
WORKER_FILE = "js/engine/worker.js"
#: What the CSP forbids in a bundle.
FORBIDDEN = (b"eval(", b"new Function(")


def ensure_esbuild() -> Path:
    """node_modules/.bin/esbuild (runs `npm ci` when missing)."""
    if not ESBUILD.is_file():
        log("node_modules lacks esbuild: npm ci")
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm not found: install Node.js (Debian: apt-get install npm)")
        if run([npm, "ci", "--no-audit", "--no-fund"]).returncode != 0:
            raise BuildError("npm ci failed")
    if not ESBUILD.is_file():
        raise BuildError("node_modules/.bin/esbuild is missing after npm ci")
    return ESBUILD


def esbuild(args: list[str], stdin: str | None = None) -> bytes:
    """Run esbuild with `args` (output on stdout); its output, checked for eval."""
    done = subprocess.run(
        [str(ensure_esbuild()), "--log-level=warning", *args],
        cwd=ROOT,
        input=stdin.encode() if stdin is not None else None,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise BuildError(f"esbuild failed: {done.stderr.decode(errors='replace')[-2000:]}")
    for word in FORBIDDEN:
        if word in done.stdout:
            raise BuildError(f"esbuild's output holds {word.decode()!r}: the CSP forbids it")
    return done.stdout


def _cached(key_parts: list[bytes], make: object) -> bytes:
    """A bundle, cached in .cache/bundles/ by its inputs (esbuild's version, the sources)."""
    from .config import CACHE

    total = hashlib.sha256()
    for part in key_parts:
        total.update(hashlib.sha256(part).digest())
    path = CACHE / "bundles" / f"{total.hexdigest()[:24]}.js"
    if path.is_file():
        return path.read_bytes()
    assert callable(make)
    data: bytes = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return data


def _esbuild_id() -> bytes:
    package = ROOT / "node_modules" / "esbuild" / "package.json"
    return package.read_bytes() if package.is_file() else b""


def vendor_bundle(package: str) -> bytes:
    """`export * from "<package>"`, bundled and minified (one file, no import left)."""
    ensure_esbuild()
    folder = ROOT / "node_modules" / package
    sources = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".js", ".json"))
    key = [_esbuild_id(), package.encode(), *(p.read_bytes() for p in sources)]
    entry = f'export * from "{package}";\n'
    args = ["--bundle", "--minify", "--format=esm", "--legal-comments=none", "--target=es2020"]
    args += [f"--sourcefile={package}-entry.js"]  # resolved from ROOT (the cwd)
    return _cached(key, lambda: esbuild(args, stdin=entry))


def vendor_bundles() -> dict[str, bytes]:
    """dist path -> bundle, for each entry of VENDOR_BUNDLES."""
    return {rel: vendor_bundle(package) for rel, package in VENDOR_BUNDLES.items()}


def worker_bundle(entry: Path = WORKER_ENTRY) -> bytes:
    """The engine worker and the modules it imports, one ES module (not minified)."""
    ensure_esbuild()
    sources = sorted(p for p in entry.parent.glob("*.js"))
    key = [_esbuild_id(), b"worker", *(p.name.encode() + p.read_bytes() for p in sources)]
    args = [str(entry.relative_to(ROOT)), "--bundle", "--format=esm", "--target=es2020"]
    return _cached(key, lambda: esbuild(args))
