"""``python -m pyrules``: roll, odds, oppose and systems from the command line.

Every command builds a JSON request and goes through :func:`pyrules.api.handle`, so the
CLI answers exactly what the browser gets. Output is French unless ``--lang en``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .api import handle
from .errors import PyrulesError
from .i18n import Text
from .registry import SYSTEMS

T = Text
TRUE = {"true", "vrai", "oui", "yes", "1", "on"}
FALSE = {"false", "faux", "non", "no", "0", "off"}
WORDS = {
    "winner": T("Vainqueur", "Winner"),
    "actor": T("acteur", "actor"),
    "opponent": T("opposant", "opponent"),
    "tie": T("égalité", "tie"),
    "margin": T("marge", "margin"),
    "seed": T("graine", "seed"),
    "dice": T("Dés", "Dice"),
    "success": T("Réussite au total", "Success overall"),
    "reroll": T("Relance", "Reroll"),
}


class CliError(PyrulesError):
    """A command line the CLI cannot read (before any request is made)."""

    code = "invalid_command"


def parse_pairs(system_id: str, pairs: Sequence[str]) -> dict[str, Any]:
    """``key=value`` words into params, typed by the registry (``null`` resets a field)."""
    system = SYSTEMS.get(system_id)
    kinds = {f.name: f.kind for f in system.fields} if system else {}
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise CliError("params", "cli_pair", pair=repr(pair)[:80])
        if value.strip().lower() in ("null", "none", ""):
            params[key] = None
        elif kinds.get(key) == "bool" and value.strip().lower() in TRUE | FALSE:
            params[key] = value.strip().lower() in TRUE
        else:
            params[key] = value
    return params


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyrules", description="pyrules dice roller")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print the raw JSON answer")
    common.add_argument("--lang", choices=("fr", "en"), default="fr")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("systems", parents=[common], help="describe every system")
    for name in ("roll", "odds"):
        p = sub.add_parser(name, parents=[common], help=f"{name} for a system")
        p.add_argument("system")
        p.add_argument("params", nargs="*", metavar="key=value")
        if name == "roll":
            p.add_argument("--dice", help="faces you rolled, e.g. 1,6,3")
            p.add_argument("--flame-dice", help="faces of the Flame dice (pool)")
            p.add_argument("--seed", type=int)
    p = sub.add_parser("oppose", parents=[common], help="an opposed roll")
    p.add_argument("system")
    p.add_argument("--actor", nargs="*", default=[], metavar="key=value")
    p.add_argument("--opponent", nargs="*", default=[], metavar="key=value")
    p.add_argument("--seed", type=int)
    return parser


def make_request(args: argparse.Namespace) -> dict[str, Any]:
    req: dict[str, Any] = {"op": args.command, "lang": args.lang}
    if args.command == "systems":
        return req
    req["system"] = args.system
    if args.command == "oppose":
        req["actor"] = parse_pairs(args.system, args.actor)
        req["opponent"] = parse_pairs(args.system, args.opponent)
    else:
        req["params"] = parse_pairs(args.system, args.params)
    if args.command == "roll":
        if args.dice is not None:
            req["params"]["dice"] = args.dice
        if args.flame_dice is not None:
            req["params"]["flame_dice"] = args.flame_dice
    if getattr(args, "seed", None) is not None:
        req["seed"] = args.seed
    return req


def outcome_label(system_id: str, outcome: str, lang: str) -> str:
    system = SYSTEMS[system_id]
    return next(o.label.get(lang) for o in system.outcomes if o.id == outcome)


def show_roll(r: dict[str, Any], lang: str, indent: str = "") -> list[str]:
    label = outcome_label(r["system"], r["outcome"], lang)
    head = f"{indent}{label} — {WORDS['margin'].get(lang)} {r['margin']:+d}"
    if r.get("seed") is not None:
        head += f"  ({WORDS['seed'].get(lang)} {r['seed']})"
    faces = []
    for d in r["dice"]:
        text = str(d["final"]) if d["final"] == d["rolled"] else f"{d['rolled']}→{d['final']}"
        mark = {"flame": "F", "black_flame": "N"}.get(d["kind"], "")
        if "dropped" in d["tags"]:
            text = f"({text})"
        faces.append(f"{text}{mark}")
    colon = " :" if lang == "fr" else ":"
    lines = [head, f"{indent}{WORDS['dice'].get(lang)}{colon} {' '.join(faces) or '-'}"]
    lines += [f"{indent}  · {line}" for line in r["explanation"]]
    return lines


def show(command: str, result: dict[str, Any], lang: str) -> list[str]:
    if command == "systems":
        out = []
        for s in result["systems"]:
            out.append(f"{s['id']}: {s['name'][lang]}")
            for f in s["fields"]:
                bounds = f" [{f['min']}..{f['max']}]" if f.get("min") is not None else ""
                choices = (" (" + ", ".join(str(c["value"]) for c in f["choices"]) + ")"
                           if f.get("choices") else "")
                out.append(f"  {f['name']}={json.dumps(f['default'])}{bounds}{choices}"
                           f"  {f['label'][lang]}")
        return out
    if command == "roll":
        return show_roll(result, lang)
    if command == "odds":
        out = []
        for outcome, exact in result["exact"].items():
            p = float(Fraction(exact))
            bar = "█" * round(p * 40)
            label = outcome_label(result["system"], outcome, lang)
            out.append(f"{label:<28} {p * 100:6.2f} %  {bar}  ({exact})")
        colon = " :" if lang == "fr" else ":"
        out.append(f"{WORDS['success'].get(lang)}{colon} {result['success_probability']:.2%}")
        return out
    # oppose
    who = WORDS[result["winner"]].get(lang)
    colon = " :" if lang == "fr" else ":"
    out = [f"{WORDS['winner'].get(lang)}{colon} {who} ({WORDS['margin'].get(lang)} "
           f"{result['margin']})"]
    for i, pair in enumerate(result["rerolls"], 1):
        out.append(f"{WORDS['reroll'].get(lang)} {i}: {pair['actor']['explanation'][0]} / "
                   f"{pair['opponent']['explanation'][0]}")
    for side in ("actor", "opponent"):
        out.append(f"[{WORDS[side].get(lang)}]")
        out += show_roll(result[side], lang, "  ")
    out += [f"· {line}" for line in result["explanation"]]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        req = make_request(args)
    except CliError as exc:
        print(f"pyrules: {exc.message(args.lang)}", file=sys.stderr)
        return 2
    answer = json.loads(handle(json.dumps(req)))
    if args.json:
        print(json.dumps(answer, ensure_ascii=False, indent=2))
        return 0 if answer["ok"] else 1
    if not answer["ok"]:
        e = answer["error"]
        field = f" [{e['field']}]" if e["field"] else ""
        print(f"pyrules: {e['code']}{field}: {e['message']}", file=sys.stderr)
        return 1
    print("\n".join(show(args.command, answer["result"], args.lang)))
    return 0
