"""Plant the twelve bugs of issue 11 §4 (the request limit both ways: 13 mutants), one at a
time, and check a test catches each.

Each mutant is one realistic change of one line, (file, old text, new text), with the test
files that must catch it. For each: the file is changed, pytest runs those files, the file is
put back (always, even on Ctrl-C), and the mutant counts as caught when pytest reports failed
tests (exit code 1). A mutant whose old text is not found exactly once is an error: the code
moved and this list must follow it.

Slow (a browser test file per web mutant, each rebuilding dist/): not part of the test run.
While it runs, the planted file is on disk: run nothing else from this worktree meanwhile
(a build or a test started then would take the bug in).

    python bench/mutants.py                      # all of them
    python bench/mutants.py fumble d100          # those whose name contains a word
    python bench/mutants.py --browser-runner "flock /tmp/lock python -m pytest"

The Python mutants run the unit tests only; the web mutants run browser tests, through
--browser-runner (default: this Python's pytest). After a web mutant, dist/ is rebuilt from
the restored sources, so no planted bug is left in the built site.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = "tests/unit/test_rule_choices.py"
LIMITS = "tests/unit/test_api_limits.py"
DRAW = "tests/browser/test_draw.py"


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]

    @property
    def browser(self) -> bool:
        return any(t.startswith("tests/browser/") for t in self.tests)


MUTANTS = (
    # -- documented rule choices (pyrules) ---------------------------------------------
    Mutant("default fumble rule is classic", "pyrules/systems/pool/__init__.py",
           'default="revised"', 'default="classic"', (RULES,)),
    Mutant("half the POT counts the POT, not the dice rolled", "pyrules/systems/pool/rules.py",
           "2 * ones > p.dice_count", "2 * ones > p.pot", (RULES,)),
    Mutant("no DIFF floor of 1", "pyrules/systems/pool/rules.py",
           "return max(1, self.task_diff + self.size_modifier)",
           "return self.task_diff + self.size_modifier", (RULES,)),
    Mutant("+1DF on Flamme 0 gives a black Flame die", "pyrules/systems/pool/rules.py",
           'return "black_flame" if self.flame < 0 else "flame"',
           'return "black_flame" if self.flame <= 0 else "flame"', (RULES,)),
    Mutant("taking one's time kept in an opposition", "pyrules/systems/d6/__init__.py",
           "a = self.resolve(replace(actor, difficulty=tb, take_time=False), fa)",
           "a = self.resolve(replace(actor, difficulty=tb), fa)", (RULES,)),
    Mutant("a dropped die can be extreme", "pyrules/systems/steps/__init__.py",
           'extreme = "high" if kept == p.sides else "low" if kept == 1 else None',
           'extreme = "high" if p.sides in rolled else "low" if 1 in rolled else None',
           (RULES,)),
    Mutant("request limit off by one", "pyrules/api.py",
           "if len(request) > MAX_REQUEST:", "if len(request) >= MAX_REQUEST:", (LIMITS,)),
    Mutant("request limit raised", "pyrules/api.py",
           "MAX_REQUEST = 100_000", "MAX_REQUEST = 1_000_000", (LIMITS,)),
    Mutant("too many faces names no field", "pyrules/fields.py",
           "        if len(items) > FACES_MAX:\n"
           "            raise ParamError(self.name, \"too_many_faces\"",
           "        if len(items) > FACES_MAX:\n"
           "            raise ParamError(None, \"too_many_faces\"", (LIMITS,)),
    # -- what the page draws (web/js) --------------------------------------------------
    Mutant("dice land on the rolled face, not the final one", "web/js/roll/result.js",
           "animated.push({ el, face: die.final,", "animated.push({ el, face: die.rolled,",
           (DRAW,)),
    Mutant("odds rows' labels shifted by one", "web/js/odds/odds.js",
           "const info = outcomeInfo(system, outcome.id);",
           "const info = outcomeInfo(system, system.outcomes[(system.outcomes.indexOf(outcome)"
           " + 1) % system.outcomes.length].id);", (DRAW,)),
    Mutant("replay link cuts the seed to 32 bits", "web/js/roll/replay.js",
           "seed: entry.seed ?? null };",
           "seed: entry.seed == null ? null : entry.seed >>> 0 };", (DRAW,)),
    Mutant("d100 of 100 drawn as 100 and 0", "web/js/stage/dice.js",
           "const tens = Math.floor((face % 100) / 10);\n  return",
           "const tens = Math.floor(face / 10);\n  return", (DRAW,)),
)


def run(mutant: Mutant, runner: list[str], browser_runner: list[str]) -> tuple[str, list[str]]:
    """Plant, test, restore. Returns (verdict, failed test ids)."""
    path = ROOT / mutant.file
    original = path.read_bytes()
    text = original.decode("utf-8")
    if text.count(mutant.old) != 1:
        return f"ERROR: old text found {text.count(mutant.old)} times", []
    try:
        path.write_bytes(text.replace(mutant.old, mutant.new).encode("utf-8"))
        cmd = [*(browser_runner if mutant.browser else runner), "-q", "-rf",
               "-p", "no:cacheprovider", *mutant.tests]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    finally:
        path.write_bytes(original)
    failed = sorted({m.group(1).split(" - ")[0] for m in
                     re.finditer(r"^FAILED (\S+)", proc.stdout, re.MULTILINE)})
    if proc.returncode == 1 and failed:
        return "caught", failed
    if proc.returncode == 0:
        return "SURVIVED", []
    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-15:])
    return f"ERROR: pytest exit {proc.returncode}\n{tail}", failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("words", nargs="*", help="run only mutants whose name has one of these")
    parser.add_argument("--runner", default=f"{sys.executable} -m pytest",
                        help="command running pytest for the unit tests")
    parser.add_argument("--browser-runner", default=f"{sys.executable} -m pytest",
                        help="command running pytest for the browser tests (e.g. behind a lock)")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS
              if not args.words or any(w.lower() in m.name.lower() for w in args.words)]
    survivors = 0
    web = False
    for mutant in chosen:
        start = time.monotonic()
        verdict, failed = run(mutant, shlex.split(args.runner), shlex.split(args.browser_runner))
        web = web or mutant.browser
        survivors += verdict != "caught"
        print(f"{verdict.splitlines()[0]:9} {mutant.name} ({mutant.file}, "
              f"{time.monotonic() - start:.0f} s)", flush=True)
        for line in verdict.splitlines()[1:]:
            print(f"          {line}")
        for test in failed:
            print(f"          {test}")
    if web:  # dist/ was built from a planted bug: bring it back to the sources
        sys.path.insert(0, str(ROOT))
        import build

        build.build()
    print(f"{len(chosen) - survivors} of {len(chosen)} caught")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
