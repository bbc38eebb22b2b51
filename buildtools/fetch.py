"""The build's inputs from the package registries: the Pyodide runtime (npm, pinned in
package-lock.json) and wheels from PyPI (checked against their sha256, cached in .cache/wheels)."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

from .config import (
    CACHE,
    MICROPIP_SHA256,
    MICROPIP_VERSION,
    MICROPIP_WHEEL,
    NODE_PYODIDE,
    PYODIDE_FILES,
    BuildError,
    log,
    pyodide_version,
    run,
)


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

