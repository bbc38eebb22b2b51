"""Fixtures shared by every test directory."""

from __future__ import annotations

from pathlib import Path

import pytest

import build  # the repo's build.py: pytest puts the repo root first on sys.path

ROOT = Path(__file__).resolve().parents[1]
assert Path(build.__file__).resolve() == ROOT / "build.py", f"wrong build module: {build.__file__}"


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    """dist/, built (or brought up to date, which is fast) once per test session."""
    build.build()
    return build.DIST
