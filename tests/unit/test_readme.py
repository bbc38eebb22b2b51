"""The README's Python examples run as doctests, and its CLI examples run."""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_python_examples() -> None:
    text = "\n".join(b for b in blocks("python") if ">>>" in b)
    assert text, "the README lost its Python examples"
    test = doctest.DocTestParser().get_doctest(text, {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
    assert runner.tries >= 5


def test_cli_examples() -> None:
    commands = [line.split("#")[0].strip() for b in blocks("sh") for line in b.splitlines()
                if line.startswith("python -m pyrules")]
    assert len(commands) >= 4
    for command in commands:
        argv = shlex.split(command)[3:]
        out = subprocess.run([sys.executable, "-m", "pyrules", *argv], capture_output=True,
                             text=True, check=False)
        assert out.returncode == 0, (command, out.stderr)
        assert out.stdout.strip()
