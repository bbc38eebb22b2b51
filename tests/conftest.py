"""Fixtures shared by every test directory."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as _hypothesis_settings

# Property tests: random draws on a developer's machine (and in bench/), one fixed draw under
# CI, so a landing never depends on the draw. Every falsifying example found is pinned with
# @example next to its test. HYPOTHESIS_PROFILE=ci locally replays what CI runs.
_hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
_hypothesis_settings.register_profile("dev")
_hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                                  or ("ci" if os.environ.get("CI") else "dev"))

import build  # noqa: E402  # the repo's build.py: pytest puts the repo root first on sys.path

ROOT = Path(__file__).resolve().parents[1]
assert Path(build.__file__).resolve() == ROOT / "build.py", f"wrong build module: {build.__file__}"


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Any]:
    """One Playwright for the whole session (tests/browser and the table's host in
    tests/engines): a second sync_playwright() in the same thread refuses to start."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Python playwright missing")
    with sync_api.sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    """dist/, built (or brought up to date, which is fast) once per test session; with two
    test processes (pytest-xdist), one at a time (a lock file), so the second finds it up to
    date instead of writing the same files at the same time."""
    lock = ROOT / ".cache" / "build.lock"
    lock.parent.mkdir(exist_ok=True)
    with lock.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            build.build()
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
    return build.DIST


# --------------------------------------------------------------------------- time per part

_PART_SECONDS: dict[str, float] = {}


def _part(nodeid: str, keywords: Any) -> str:
    if nodeid.startswith("tests/engines/"):
        return "webkit" if "webkit" in keywords else "firefox"
    folder = nodeid.split("/")[1] if nodeid.startswith("tests/") else "other"
    return {"unit": "unit", "pyodide": "pyodide", "browser": "chromium"}.get(folder, folder)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    part = _part(report.nodeid, report.keywords)
    _PART_SECONDS[part] = _PART_SECONDS.get(part, 0.0) + report.duration


#: Long files, said at the end of a run as a hint for review, never a failure (issue 42: a
#: line count decided where files ended; a file is split by meaning, not to pass a test).
LONG_FILES = (("web/js", "*.js", 400), ("web/css", "*.css", 400), ("pyrules", "*.py", 400))


def long_files(root: Path = ROOT) -> list[str]:
    """Each file of LONG_FILES over its length, with its line count."""
    out = []
    for folder, pattern, limit in LONG_FILES:
        for path in sorted((root / folder).rglob(pattern)):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > limit:
                out.append(f"{path.relative_to(root).as_posix()} ({n})")
    return out


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Wall time per part of the suite (setup + call + teardown of its tests): docs/testing.md's
    table of times comes from this line. Then the long files, for review."""
    if _PART_SECONDS:
        parts = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in _PART_SECONDS.items())
        terminalreporter.write_line(f"time per part: {parts}")
    long = long_files()
    if long:
        terminalreporter.write_line(f"long files, for review (split by meaning): {', '.join(long)}")
