"""The build's inputs from the package registries: the Pyodide runtime (npm, pinned in
package-lock.json) and wheels from PyPI (checked against their sha256, cached in .cache/wheels)."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import zipfile
from pathlib import Path

from .config import (
    CACHE,
    MICROPIP_SHA256,
    MICROPIP_VERSION,
    MICROPIP_WHEEL,
    NODE_PYODIDE,
    PYODIDE_FILES,
    PYODIDE_TABLE_GROWTH,
    STDLIB_DROPPED,
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


def site_pyodide(pyodide_dir: Path) -> Path:
    """The runtime the site serves (dist/pyodide/) and the snapshot is made from: Pyodide's
    PYODIDE_FILES from `pyodide_dir`, but python_stdlib.zip without the modules of
    STDLIB_DROPPED, pyodide-lock.json without its package list (the site loads none of
    Pyodide's packages: micropip and the wheels come by URL; `info`, which loadPyodide
    checks, is kept) and pyodide.asm.mjs with PYODIDE_TABLE_GROWTH's edit. Made once into
    .cache/pyodide-site/<key>/, keyed by the inputs."""
    total = hashlib.sha256(b"site-pyodide 2\n" + "\n".join(STDLIB_DROPPED).encode())
    total.update("\0".join(PYODIDE_TABLE_GROWTH).encode())
    for name in PYODIDE_FILES:
        total.update(f"{name}\0{(pyodide_dir / name).stat().st_size}\0".encode())
        total.update(hashlib.sha256((pyodide_dir / name).read_bytes()).digest())
    folder = CACHE / "pyodide-site" / total.hexdigest()[:24]
    if all((folder / name).is_file() for name in PYODIDE_FILES):
        return folder
    shutil.rmtree(folder.parent, ignore_errors=True)  # (older keys go)
    work = folder.with_name(folder.name + ".tmp")
    work.mkdir(parents=True)
    for name in PYODIDE_FILES:
        if name not in ("python_stdlib.zip", "pyodide-lock.json", "pyodide.asm.mjs"):
            shutil.copyfile(pyodide_dir / name, work / name)
    old, new = PYODIDE_TABLE_GROWTH
    linker = (pyodide_dir / "pyodide.asm.mjs").read_text(encoding="utf-8")
    if linker.count(old) != 1:
        raise BuildError(
            f"pyodide.asm.mjs: the table growth to edit is there {linker.count(old)} times,"
            " not once (another Pyodide?): see PYODIDE_TABLE_GROWTH"
        )
    (work / "pyodide.asm.mjs").write_text(linker.replace(old, new), encoding="utf-8")
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    lock["packages"] = {}
    (work / "pyodide-lock.json").write_text(json.dumps(lock, indent=1) + "\n", encoding="utf-8")
    with (
        zipfile.ZipFile(pyodide_dir / "python_stdlib.zip") as source,
        zipfile.ZipFile(work / "python_stdlib.zip", "w") as target,
    ):
        kept = [i for i in source.infolist() if not i.filename.startswith(STDLIB_DROPPED)]
        for info in kept:
            data = source.read(info.filename)
            entry = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            entry.external_attr = info.external_attr
            target.writestr(entry, data, zipfile.ZIP_DEFLATED, compresslevel=9)
        log(
            f"python_stdlib.zip: {len(source.infolist()) - len(kept)} of"
            f" {len(source.infolist())} files left out (STDLIB_DROPPED)"
        )
    work.rename(folder)
    return folder


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

