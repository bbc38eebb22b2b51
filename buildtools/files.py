"""Writing dist/ incrementally, and hashing what it holds."""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from .config import (
    BAKE_CLOSE,
    BAKE_OPEN,
    BAKE_PLACEHOLDER,
    BAKED,
    GENERATED,
    BuildError,
)


def _same_file(src: Path, dst: Path) -> bool:
    try:
        a, b = src.stat(), dst.stat()
    except FileNotFoundError:
        return False
    return a.st_size == b.st_size and a.st_mtime_ns == b.st_mtime_ns


def replace_file(dst: Path, write: Any) -> None:
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
                replace_file(dst, functools.partial(shutil.copy2, source))
                changed += 1
        elif not dst.is_file() or (dst.read_bytes() != source
                                   and not _baked_from(rel, dst, source)):
            replace_file(dst, lambda tmp, data=source: tmp.write_bytes(data))
            changed += 1
    return changed


def _baked_from(rel: str, dst: Path, source: bytes) -> bool:
    """Whether dist's `rel` is `source` with version.json baked in (finish_site bakes it again
    the same): left alone, so a rebuild of an unchanged site never rewrites it, and a page
    served meanwhile never fetches the script unbaked."""
    if rel not in BAKED:
        return False
    return unbake(dst.read_bytes().decode("utf-8")).encode("utf-8") == source


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


def bake(text: str, info: dict[str, Any]) -> str:
    """A script with version.json's content written in place of its BAKE_PLACEHOLDER (or of
    the content baked in before): the script then needs no request to know its build."""
    source = unbake(text)
    if source.count(BAKE_PLACEHOLDER) != 1:
        raise BuildError(f"a baked script must hold {BAKE_PLACEHOLDER} exactly once")
    baked = BAKE_OPEN + json.dumps(info, separators=(",", ":"), sort_keys=True) + BAKE_CLOSE
    return source.replace(BAKE_PLACEHOLDER, baked)


def unbake(text: str) -> str:
    """The script as it was before bake()."""
    start = text.find(BAKE_OPEN)
    if start < 0:
        return text
    end = text.index(BAKE_CLOSE, start) + len(BAKE_CLOSE)
    return text[:start] + BAKE_PLACEHOLDER + text[end:]


def tree_hash(dist: Path, exclude: tuple[str, ...] = GENERATED) -> str:
    """sha256 over the relative path and content of every file of dist/ (16 hex digits).

    The generated files (version.json, precache.json, sw.js) are left out: they are written
    from this hash. The scripts of BAKED count as they were before version.json was baked in.
    """
    total = hashlib.sha256()
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        rel = path.relative_to(dist).as_posix()
        if rel in exclude:
            continue
        data = path.read_bytes()
        if rel in BAKED:
            data = unbake(data.decode("utf-8")).encode("utf-8")
        content = hashlib.sha256(data).hexdigest()
        total.update(f"{rel}\0{content}\n".encode())
    return total.hexdigest()[:16]


def _write(path: Path, data: bytes) -> int:
    """Write data to path unless it already holds it; 1 when the file changed."""
    if path.is_file() and path.read_bytes() == data:
        return 0
    replace_file(path, lambda tmp: tmp.write_bytes(data))
    return 1


def _integrity(path: Path) -> str:
    """Subresource-integrity value of a file: "sha256-<base64 digest>"."""
    digest = hashlib.sha256(path.read_bytes()).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")
