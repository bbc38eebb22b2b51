"""The pyrules wheel, built from pyproject.toml by its pinned PEP 517 backend."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from .config import (
    BACKEND_NAME,
    BACKEND_SHA256,
    BACKEND_VERSION,
    BACKEND_WHEEL,
    ROOT,
    SOURCE_DATE_EPOCH,
    BuildError,
)
from .fetch import ensure_pypi_wheel


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

