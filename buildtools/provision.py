"""Set-up for the tests: the pinned Python tools (pip), the browsers and tools (apt), the
engine's wheels, and a Chromium to drive."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .config import (
    EXTRA_WHEELS,
    ROOT,
    SYSTEM_TOOLS,
    BuildError,
    _project_table,
    log,
    run,
)
from .fetch import ensure_pypi_wheel
from .wheel import ensure_backend


def test_requirements() -> list[str]:
    """The pinned `[test]` extra of pyproject.toml ("name==version" each)."""
    extras = _project_table().get("optional-dependencies", {})
    requirements = [str(r) for r in extras.get("test", [])]
    unpinned = [r for r in requirements if "==" not in r]
    if not requirements or unpinned:
        raise BuildError(f"pyproject.toml's [test] extra must pin every tool: {unpinned}")
    return requirements


def missing_requirements(requirements: list[str]) -> list[str]:
    """The requirements whose installed version is not the pinned one."""
    from importlib import metadata

    missing = []
    for requirement in requirements:
        name, version = (part.strip() for part in requirement.split("==", 1))
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            missing.append(requirement)
    return missing


def ensure_test_tools() -> None:
    """pip-install the `[test]` extra's pinned tools that are missing or at another version;
    fetch the engine's wheels and the wheel's build backend into .cache/wheels/."""
    missing = missing_requirements(test_requirements())
    if missing:
        cmd = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        if run([*cmd, *missing]).returncode != 0:
            raise BuildError(f"could not install {' '.join(missing)} with pip")
    ensure_engine_deps()
    ensure_backend()  # the wheel's build backend, for the build and tests/pyodide/test_build.py


def missing_system_tools(which: Any = shutil.which) -> list[tuple[str, str]]:
    """(what, Debian package) of each SYSTEM_TOOLS entry with none of its programs found."""
    missing = []
    for what, programs, package in SYSTEM_TOOLS:
        preset = os.environ.get("PYRULES_CHROMIUM")
        if what == "Chromium" and preset and os.access(preset, os.X_OK):
            continue
        if not any(which(program) for program in programs):
            missing.append((what, package))
    return missing


def is_debian() -> bool:
    return Path("/etc/debian_version").is_file() and shutil.which("apt-get") is not None


def install_plan(packages: list[str], debian: bool, root: bool) -> list[list[str]] | str:
    """The apt-get commands that install `packages` here, or, when this machine cannot do it
    by itself (not Debian, or not root), the sentence saying what to install."""
    if not packages:
        return []
    if debian and root:
        return [
            ["apt-get", "update", "-q"],
            ["apt-get", "install", "-y", "-q", *packages],
        ]
    if debian:
        return f"as root, run: apt-get update && apt-get install -y {' '.join(packages)}"
    return (
        "install these (Debian names; other systems have their own packages): "
        + ", ".join(packages)
        + "; a Chromium can also be named with PYRULES_CHROMIUM=/path/to/chrome"
    )


def ensure_system_tools(dry_run: bool = False) -> None:
    """Install the browsers and tools the suite drives (see SYSTEM_TOOLS) when missing.

    As root on Debian: apt-get update + install, non-interactive. Elsewhere: say what to install;
    only a missing Chromium is an error then (the WebKit and Firefox tests skip without theirs).
    """
    missing = missing_system_tools()
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    plan = install_plan([package for _, package in missing], is_debian(), root)
    if not missing:
        log("browsers and tools: all found")
        return
    log("missing: " + ", ".join(f"{what} (Debian: {package})" for what, package in missing))
    if isinstance(plan, str):
        message = f"cannot install them here: {plan}"
        if any(what == "Chromium" for what, _ in missing):
            raise BuildError(f"no Chromium for the browser tests; {message}")
        log(message)
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in plan:
        if dry_run:
            log("would run: " + " ".join(cmd))
            continue
        log("$ " + " ".join(cmd))
        done = subprocess.run(cmd, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, check=False)
        if done.returncode != 0:
            raise BuildError(f"{' '.join(cmd[:2])} failed (exit {done.returncode})")
    if not dry_run and missing_system_tools():
        raise BuildError(f"still missing after apt-get: {missing_system_tools()}")


def ensure_engine_deps() -> None:
    """Install the engine's pinned wheels (EXTRA_WHEELS) into this Python (the unit tests and
    the CLI import them), from the checked copies in .cache/wheels."""
    from importlib.metadata import PackageNotFoundError, version

    stale = []
    for extra in EXTRA_WHEELS:
        path = ensure_pypi_wheel(extra.name, extra.version, extra.file, extra.sha256)
        try:
            have = version(extra.name)
        except PackageNotFoundError:
            have = None
        if have != extra.version:
            stale.append(str(path))
    if stale:
        cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", *stale]
        if run(cmd).returncode != 0:
            raise BuildError(f"could not install {' '.join(stale)}")


def _playwright_browsers() -> list[Path]:
    roots = []
    if os.environ.get("PLAYWRIGHT_BROWSERS_PATH", "0") != "0":
        roots.append(Path(os.environ["PLAYWRIGHT_BROWSERS_PATH"]))
    roots.append(Path.home() / ".cache" / "ms-playwright")
    patterns = (
        "chromium-*/chrome-linux*/chrome",
        "chromium_headless_shell-*/chrome-linux*/headless_shell",
        "chromium_headless_shell-*/chrome-headless-shell-linux64/chrome-headless-shell",
    )
    found: list[Path] = []
    for root in roots:
        for pattern in patterns:
            found += sorted(root.glob(pattern), reverse=True)
    return found


def find_chromium() -> str | None:
    """A Chromium for the browser tests: $PYRULES_CHROMIUM, PATH, then Playwright's own."""
    preset = os.environ.get("PYRULES_CHROMIUM")
    if preset and os.access(preset, os.X_OK):
        return preset
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    for browser in _playwright_browsers():
        if os.access(browser, os.X_OK):
            return str(browser)
    return None


def _export_chromium() -> None:
    chromium = find_chromium()
    if chromium is None:
        raise BuildError(
            "no Chromium found for the browser tests: install one "
            "(Debian: apt-get install chromium) or set PYRULES_CHROMIUM to its path"
        )
    os.environ["PYRULES_CHROMIUM"] = chromium
    log(f"Chromium: {chromium}")

