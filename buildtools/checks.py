"""`build.py test`: set-up stages, then every check (ruff, mypy, node, pytest) and a summary."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from typing import Any

from .config import (
    LINT_PATHS,
    PYTEST_CLOSING,
    ROOT,
    BuildError,
    log,
    run,
)
from .fetch import ensure_pyodide
from .provision import _export_chromium, ensure_system_tools, ensure_test_tools
from .site import build


def test(pytest_args: list[str]) -> int:
    results: list[tuple[str, int]] = []

    def stage(name: str, code: int) -> None:
        results.append((name, code))
        if code:
            log(f"stage '{name}' failed (exit {code})")

    for name, step in SETUP_STAGES:
        try:
            step()
        except BuildError as error:
            log(f"error: {error}")
            stage(name, 1)
            return _summary(results)
        stage(name, 0)

    closing = ""
    for name, check in CHECK_STAGES:
        code, line = check(pytest_args)
        stage(name, code)
        closing = line or closing
    return _summary(results, closing)


def _ruff(_: list[str]) -> tuple[int, str]:
    lint = [p for p in LINT_PATHS if (ROOT / p).exists()]
    return run([sys.executable, "-m", "ruff", "check", *lint]).returncode, ""


def _mypy(_: list[str]) -> tuple[int, str]:
    return run([sys.executable, "-m", "mypy"]).returncode, ""


def _node_tests(_: list[str]) -> tuple[int, str]:
    """The JavaScript that needs no browser (tests/js/*.test.js, node's own test runner), its
    files run side by side on every core (node's default leaves one core out: on two cores,
    one file at a time, 10 s instead of 7)."""
    concurrency = f"--test-concurrency={max(1, os.cpu_count() or 1)}"
    log(f"$ node --test {concurrency} tests/js/")
    node = subprocess.run(
        ["node", "--test", concurrency, "tests/js/"],
        cwd=ROOT,
        check=False,
        env={**os.environ, "PYTHON": sys.executable},
    )
    return node.returncode, ""


#: What `build.py test` does, in order. A setup stage raises BuildError to stop the run; a check
#: stage gets the extra command-line arguments and returns (exit code, closing line), and every
#: check runs even when an earlier one failed. Add a stage by adding a line here.
SETUP_STAGES: tuple[tuple[str, Any], ...] = (
    ("test tools (pip, pyproject [test])", ensure_test_tools),
    ("browsers and tools (apt)", ensure_system_tools),
    ("pyodide runtime (npm)", ensure_pyodide),
    ("chromium", _export_chromium),
    ("build dist/", build),
)
CHECK_STAGES: tuple[tuple[str, Any], ...] = (
    ("ruff check", _ruff),
    ("mypy", _mypy),
    ("node --test", _node_tests),
    ("pytest", lambda args: run_pytest(args)),
)


#: Test processes (pytest-xdist): two unless PYRULES_TEST_PROCESSES says otherwise (1 for
#: one). One process keeps two cores only 56 % busy; two bring the whole CI command from
#: about 1,030-1,130 s to 680-850 s, inside the 15-minute budget. Two earlier two-process
#: runs each had one browser test time out (the camera's table link, the a11y test's combat
#: step), never explained; on 2 December (the session after) two quiet two-process runs
#: passed, and one beside two CPU hogs hung on a table join (docs/testing.md).
PROCESSES_VARIABLE = "PYRULES_TEST_PROCESSES"
DEFAULT_PROCESSES = 2


def pytest_processes(args: list[str], environ: Any = os.environ) -> list[str]:
    """pytest-xdist's options for `build.py test`: PYRULES_TEST_PROCESSES processes (two when
    it is unset or not a number; none for 0 or 1), each taking whole test files (a module's
    page is booted once, in one process), unless the arguments choose themselves (-n,
    --dist, -p no:xdist) or pytest-xdist is not installed."""
    wanted = str(environ.get(PROCESSES_VARIABLE, "")).strip()
    count = int(wanted) if wanted.isdigit() else DEFAULT_PROCESSES
    chosen = any(a.startswith(("-n", "--numprocesses", "--dist")) for a in args)
    if count < 2 or chosen or "no:xdist" in args or importlib.util.find_spec("xdist") is None:
        return []
    return ["-n", str(count), "--dist", "loadfile"]


def run_pytest(args: list[str]) -> tuple[int, str]:
    """Run pytest, echoing its output; returns its exit code and its closing summary line."""
    cmd = [sys.executable, "-m", "pytest", *pytest_processes(args), *args]
    if sys.stdout.isatty() and not any(a.startswith("--color") for a in args):
        cmd.insert(3, "--color=yes")
    log("$ " + " ".join(cmd))
    closing = ""
    with subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    ) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            if PYTEST_CLOSING.search(line):
                closing = line.rstrip("\n")
    return proc.returncode, closing


def _summary(results: list[tuple[str, int]], closing: str = "") -> int:
    print("\n== build.py test summary ==", flush=True)
    for name, code in results:
        print(
            f"  {'ok    ' if code == 0 else 'FAILED'}  {name}" + (f" (exit {code})" if code else "")
        )
    failed = [(name, code) for name, code in results if code]
    if failed:
        print(f"FAILED at stage: {failed[0][0]}", flush=True)
    else:
        print("all stages passed", flush=True)
    if closing:
        print(closing, flush=True)  # pytest's own closing line stays the last one
    return failed[0][1] if failed else 0

