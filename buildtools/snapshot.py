"""The engine's memory snapshot, made under Node by tools/snapshot.mjs and cached by its inputs."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from .config import (
    CACHE,
    INSTALL_MODULE,
    PYODIDE_FILES,
    ROOT,
    SNAPSHOT_CACHE_KEEP,
    SNAPSHOT_TOOL,
    BuildError,
    log,
    pyodide_version,
)
from .files import replace_file

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
        replace_file(cached, lambda tmp: tmp.write_bytes(data))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    old = sorted(folder.glob("*.bin.gz"), key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in old[SNAPSHOT_CACHE_KEEP:]:
        stale.unlink(missing_ok=True)
    return data, len(snapshot)

