"""build.py test sets up a fresh machine: what it finds missing, and what it runs about it.

No package is installed or removed here: the checks take a `which` that sees nothing, and the
plan is only built, never run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import build


def test_the_test_extra_pins_every_tool_build_py_installs() -> None:
    with (build.ROOT / "pyproject.toml").open("rb") as f:
        extra = tomllib.load(f)["project"]["optional-dependencies"]["test"]
    assert build.test_requirements() == extra
    names = {r.split("==")[0] for r in extra}
    assert {"pytest", "hypothesis", "playwright", "selenium", "websocket-client"} <= names
    assert not hasattr(build, "TEST_TOOLS"), "one list of test tools: pyproject's [test] extra"
    # Installed here at the pinned versions, so nothing is missing.
    assert build.missing_requirements(extra) == []
    assert build.missing_requirements(["pytest==0.0.1"]) == ["pytest==0.0.1"]
    absent = ["no-such-dist-pyrules==1.0"]
    assert build.missing_requirements(absent) == absent


def test_every_browser_is_missing_on_an_empty_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYRULES_CHROMIUM", raising=False)
    missing = build.missing_system_tools(which=lambda name: None)
    assert [package for _, package in missing] == [
        "chromium",
        "firefox-esr",
        "webkit2gtk-driver",
        "xvfb",
    ]
    # A Chromium named by PYRULES_CHROMIUM counts (GitHub's runner names its Chrome so).
    monkeypatch.setenv("PYRULES_CHROMIUM", sys.executable)
    missing = build.missing_system_tools(which=lambda name: None)
    assert "chromium" not in [package for _, package in missing]
    # google-chrome on PATH is a Chromium too.
    monkeypatch.delenv("PYRULES_CHROMIUM")
    found = {"google-chrome", "firefox", "WebKitWebDriver", "Xvfb"}
    assert build.missing_system_tools(which=lambda n: n if n in found else None) == []


def test_root_on_debian_installs_with_apt_get_and_elsewhere_says_what_to_install() -> None:
    packages = ["chromium", "xvfb"]
    assert build.install_plan(packages, debian=True, root=True) == [
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "chromium", "xvfb"],
    ]
    not_root = build.install_plan(packages, debian=True, root=False)
    assert isinstance(not_root, str) and "apt-get install -y chromium xvfb" in not_root
    elsewhere = build.install_plan(packages, debian=False, root=True)
    assert isinstance(elsewhere, str) and "chromium, xvfb" in elsewhere
    assert "PYRULES_CHROMIUM" in elsewhere
    assert build.install_plan([], debian=True, root=True) == []


def test_setup_dry_run_on_a_path_without_browsers_lists_the_apt_get_commands(
    tmp_path: Path,
) -> None:
    """The whole command, run with a PATH that holds only apt-get: as root on Debian it says it
    would run apt-get update and install the four packages (and installs nothing)."""
    if not build.is_debian():
        pytest.skip("not a Debian machine: no apt-get plan to show")
    (tmp_path / "apt-get").symlink_to(str(shutil.which("apt-get")))
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, str(build.ROOT / "build.py"), "setup", "--dry-run"],
        capture_output=True, text=True, env=env, check=False, stdin=subprocess.DEVNULL,
    )
    out = done.stdout + done.stderr
    assert "missing: Chromium (Debian: chromium)" in out, out
    if os.geteuid() == 0:
        assert done.returncode == 0, out
        assert "would run: apt-get update -q" in out
        assert "would run: apt-get install -y -q chromium firefox-esr webkit2gtk-driver xvfb" in out
    else:
        assert done.returncode == 1 and "as root, run: apt-get update" in out


def test_stages_are_a_list_to_extend() -> None:
    names = [name for name, _ in build.SETUP_STAGES + build.CHECK_STAGES]
    assert names.index("browsers and tools (apt)") < names.index("build dist/") < names.index(
        "pytest"
    )


def test_lint_and_type_checks_cover_build_py_and_its_modules() -> None:
    """build.py is the entry point; its parts live in buildtools/: ruff and mypy check both."""
    assert {"build.py", "buildtools"} <= set(build.LINT_PATHS)
    with (build.ROOT / "pyproject.toml").open("rb") as f:
        mypy = tomllib.load(f)["tool"]["mypy"]
    assert {"build.py", "buildtools"} <= set(mypy["files"])
    modules = {p.stem for p in (build.ROOT / "buildtools").glob("*.py")}
    assert {"provision", "site", "serve", "checks"} <= modules
