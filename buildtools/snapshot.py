"""The engine's memory snapshot, made under Node by tools/snapshot.mjs and cached by its inputs."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
import shutil
import struct
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

#: The snapshot as the site ships it: the heap with its long runs of zero bytes left out
#: (two thirds of a 31 MB heap are zeros: free memory, zeroed by tools/snapshot.mjs). Read
#: back into a zero-filled buffer of the heap's size, it is the heap again, so a browser
#: decompresses and stores about half the bytes. Little-endian u32s: magic, the heap's size,
#: the number of pieces, then per piece its offset and length, then the pieces' bytes.
PACKED_MAGIC = b"PYRH"
#: Zero runs shorter than this stay in (a piece costs 8 bytes of table).
PACKED_HOLE = 1024
_HOLES = re.compile(rb"\x00{%d,}" % PACKED_HOLE)


def pack_heap(heap: bytes) -> bytes:
    """The heap without its zero runs of PACKED_HOLE bytes or more (see PACKED_MAGIC)."""
    pieces: list[tuple[int, int]] = []
    start = 0
    for hole in _HOLES.finditer(heap):
        if hole.start() > start:
            pieces.append((start, hole.start() - start))
        start = hole.end()
    if start < len(heap):
        pieces.append((start, len(heap) - start))
    table = b"".join(struct.pack("<II", offset, length) for offset, length in pieces)
    body = b"".join(heap[offset : offset + length] for offset, length in pieces)
    return PACKED_MAGIC + struct.pack("<II", len(heap), len(pieces)) + table + body


def unpack_heap(packed: bytes) -> bytes:
    """The heap that pack_heap() packed (ValueError if `packed` is not one)."""
    if packed[:4] != PACKED_MAGIC:
        raise ValueError("not a packed snapshot (magic)")
    size, count = struct.unpack_from("<II", packed, 4)
    heap = bytearray(size)
    at = 12 + 8 * count
    for i in range(count):
        offset, length = struct.unpack_from("<II", packed, 12 + 8 * i)
        if offset + length > size or at + length > len(packed):
            raise ValueError("a piece lies outside the snapshot")
        heap[offset : offset + length] = packed[at : at + length]
        at += length
    if at != len(packed):
        raise ValueError("bytes left after the last piece")
    return bytes(heap)


def packed_heap_size(data: bytes) -> int:
    """The heap's size, from the header of a gzipped packed snapshot."""
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
        head = stream.read(8)
    if head[:4] != PACKED_MAGIC:
        raise ValueError("not a packed snapshot (magic)")
    return int(struct.unpack_from("<I", head, 4)[0])


def _snapshot_key(pyodide_dir: Path, micropip: Path, wheels: EngineWheels) -> str:
    """What the snapshot depends on: the runtime, micropip, every wheel (bytes and imports),
    the install code and the tool that makes it. Same key, same snapshot (up to Python's
    random hash seed, which is why it is cached rather than rebuilt)."""
    total = hashlib.sha256()
    total.update(f"pyodide {pyodide_version()}\n".encode())
    total.update(PACKED_MAGIC + f" {PACKED_HOLE}\n".encode())  # the shipped form
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
    """The memory snapshot of the engine, packed (pack_heap) and gzip-compressed, and the
    size of the heap it holds.

    tools/snapshot.mjs boots the pinned Pyodide under Node, has micropip install `wheels`
    (file name, bytes, modules to import) and makes the snapshot. Cached in
    .cache/snapshots/ by _snapshot_key(): an unchanged engine rebuilds in no time.
    """
    key = _snapshot_key(pyodide_dir, micropip, wheels)
    folder = CACHE / "snapshots"
    cached = folder / f"{key}.bin.gz"
    if cached.is_file():
        data = cached.read_bytes()
        os.utime(cached)
        return data, packed_heap_size(data)
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
        data = gzip.compress(pack_heap(snapshot), compresslevel=6, mtime=0)
        replace_file(cached, lambda tmp: tmp.write_bytes(data))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    old = sorted(folder.glob("*.bin.gz"), key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in old[SNAPSHOT_CACHE_KEEP:]:
        stale.unlink(missing_ok=True)
    return data, len(snapshot)

