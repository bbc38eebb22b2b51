"""The shape every system shares: dice, results, odds and the system interface.

A system validates its params, says which dice a roll needs (``dice_plan``), and
resolves faces with the pure ``resolve(params, faces)``. Rolling is ``resolve`` with
faces drawn from an injected ``random.Random``; nothing here touches the global RNG.
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

from .fields import Field, ParamError, brief, read_face, validate
from .i18n import LANGS, Template, Text, headline_words

SEED_MAX = 2**53 - 1  # seeds must survive a round trip through JavaScript numbers

Faces = Mapping[str, tuple[int, ...]]


@dataclass(frozen=True)
class Die:
    """One die as it was rolled and as it counts."""

    sides: int
    rolled: int
    final: int
    kind: str = "normal"  # normal, flame, black_flame
    value: int = 0  # what the die counts for (successes, or its face)
    tags: tuple[str, ...] = ()
    delta: int = 0  # net augmentation (+) or diminution (-) on a Flame die

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "rolled": self.rolled,
            "final": self.final,
            "kind": self.kind,
            "value": self.value,
            "tags": list(self.tags),
            "delta": self.delta,
        }


@dataclass(frozen=True)
class Line:
    """One step of an explanation: a message key and its arguments. Rendered in explain.py."""

    key: str
    args: tuple[tuple[str, Any], ...] = ()

    @staticmethod
    def of(key: str, **args: Any) -> Line:
        return Line(key, tuple(sorted(args.items())))


@dataclass(frozen=True)
class RollResult:
    system: str
    outcome: str
    success: bool
    margin: int
    dice: tuple[Die, ...]
    lines: tuple[Line, ...]
    extra: tuple[tuple[str, Any], ...] = ()
    seed: int | None = None
    physical: bool = False

    def get(self, name: str) -> Any:
        return dict(self.extra)[name]

    def with_seed(self, seed: int | None) -> RollResult:
        return RollResult(
            self.system, self.outcome, self.success, self.margin, self.dice, self.lines,
            self.extra, seed, seed is None,
        )


@dataclass(frozen=True)
class DiceGroup:
    """A set of identical dice a roll needs, fed by one faces field."""

    field: str
    sides: int
    count: int
    kind: str = "normal"

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "sides": self.sides, "count": self.count, "kind": self.kind}


@dataclass(frozen=True)
class Odds:
    outcomes: tuple[tuple[str, Fraction], ...]
    margins: tuple[tuple[int, Fraction], ...]

    def outcome(self, outcome_id: str) -> Fraction:
        return dict(self.outcomes)[outcome_id]


@dataclass(frozen=True)
class OpposeOdds:
    """Exact chances of an opposition: who wins once every allowed reroll of a tie is done."""

    actor: Fraction
    opponent: Fraction
    tie: Fraction  # what is left tied (after tie_rerolls rerolls, when the system rerolls)
    exchange_tie: Fraction  # the chance that one exchange is tied
    tie_rerolls: int  # how many times a tie is rolled again at most (0: it stands)


@dataclass(frozen=True)
class Outcome:
    id: str
    success: bool
    label: Text


@dataclass(frozen=True)
class OpposeResult:
    system: str
    winner: str  # actor, opponent or tie
    margin: int
    actor: RollResult
    opponent: RollResult
    rerolls: tuple[tuple[RollResult, RollResult], ...] = ()
    lines: tuple[Line, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()
    #: Each side's last dice judged as a single roll with its own params, when the opposition
    #: judged them otherwise (d6 and steps: against the other side's total); None: the same.
    own: tuple[RollResult, RollResult] | None = None

    @property
    def own_results(self) -> tuple[RollResult, RollResult]:
        return self.own if self.own is not None else (self.actor, self.opponent)


P = TypeVar("P")


class System(Generic[P]):
    """Base class of the four systems. Subclasses fill the class attributes and methods."""

    id: ClassVar[str]
    name: ClassVar[Text]
    description: ClassVar[Text]
    doc: ClassVar[str]
    fields: ClassVar[tuple[Field, ...]]
    outcomes: ClassVar[tuple[Outcome, ...]]
    oppose_rule: ClassVar[Text]
    sheet: ClassVar[dict[str, Any]] = {}
    #: The play ops this system serves (its ``play`` module): the API asks the
    #: registry which system serves an op, it names none itself.
    play_ops: ClassVar[tuple[str, ...]] = ()
    #: True when the margin is a total whose whole distribution is the answer (notation):
    #: the odds op then also answers it as "distribution", with its "mean".
    totals: ClassVar[bool] = False
    #: The system's explanation templates, by line key (its ``explain`` module's TEMPLATES).
    templates: ClassVar[Mapping[str, Template]] = {}
    #: How many times a tied opposition is rolled again before the tie stands (0: at once).
    tie_rerolls: ClassVar[int] = 0

    # -- to implement ------------------------------------------------------------------
    def make_params(self, values: dict[str, Any]) -> P:
        raise NotImplementedError

    def dice_plan(self, params: P) -> tuple[DiceGroup, ...]:
        raise NotImplementedError

    def resolve(self, params: P, faces: Faces) -> RollResult:
        raise NotImplementedError

    def odds(self, params: P) -> Odds:
        """Exact odds. The default enumerates every face combination through ``resolve``."""
        return enumerate_odds(self, params)

    def check_odds(self, params: P) -> None:
        """Refuse (a ParamError) params whose exact odds the system will not compute; the ops
        that answer odds run it in their check, so ``validate`` of them refuses alike. The
        default refuses none."""

    def warnings(self, params: P) -> tuple[tuple[str, Text], ...]:
        """What the params' reader should know although they are valid, as (code, text): the
        ``roll`` and ``odds`` answers carry them (``warnings``). The default has none."""
        return ()

    def estimate_odds(self, params: P) -> Odds | None:
        """Odds past the refusal of :meth:`check_odds`, marked as an estimate (only the
        ``odds`` op answers one; luck and every other chance need exact odds); None when
        the system has none to give. The default has none."""
        return None

    def oppose(
        self, actor: P, opponent: P, faces: tuple[Faces, Faces] | None, rng: random.Random | None
    ) -> OpposeResult:
        raise NotImplementedError

    def both_sides(
        self, actor: P, opponent: P, faces: tuple[Faces, Faces] | None, rng: random.Random | None
    ) -> tuple[RollResult, RollResult]:
        """Each side's result in an opposition: from the typed faces, or rolled from ``rng``
        (the actor first, so a seed replays both)."""
        if faces is None:
            assert rng is not None
            return self.roll(actor, rng), self.roll(opponent, rng)
        return self.resolve(actor, faces[0]), self.resolve(opponent, faces[1])

    def oppose_score(self, result: RollResult) -> int:
        """What an opposition compares, side against side: the higher score wins."""
        raise NotImplementedError

    def tie_break(self, actor: P, opponent: P) -> str | None:
        """Who wins a tie outright ("actor" or "opponent"), or None (rerolled, or a tie)."""
        return None

    def score_odds(self, params: P) -> dict[int, Fraction]:
        """Exact distribution of ``oppose_score``. The default resolves every face combination."""
        counts: dict[int, int] = {}
        total = 0
        for faces in all_faces(self.dice_plan(params)):
            score = self.oppose_score(self.resolve(params, faces))
            counts[score] = counts.get(score, 0) + 1
            total += 1
        return {score: Fraction(n, total) for score, n in sorted(counts.items())}

    def oppose_odds(self, actor: P, opponent: P) -> OpposeOdds:
        """Exact chances of ``oppose``: both sides' score distributions compared, a tie given
        to ``tie_break``'s side, or rolled again up to ``tie_rerolls`` times."""
        win = lose = tie = Fraction(0)
        theirs = self.score_odds(opponent)
        for a, pa in self.score_odds(actor).items():
            for b, pb in theirs.items():
                if a > b:
                    win += pa * pb
                elif a < b:
                    lose += pa * pb
                else:
                    tie += pa * pb
        exchange_tie = tie
        first = self.tie_break(actor, opponent) if tie else None
        if first == "actor":
            win, tie = win + tie, Fraction(0)
        elif first == "opponent":
            lose, tie = lose + tie, Fraction(0)
        rerolls = self.tie_rerolls if tie else 0
        if rerolls:
            # Each exchange is tied with chance `tie`; after the last reroll the tie stands.
            again = sum((tie**k for k in range(rerolls + 1)), Fraction(0))
            win, lose, tie = win * again, lose * again, tie ** (rerolls + 1)
        return OpposeOdds(win, lose, tie, exchange_tie, rerolls)

    # -- shared ------------------------------------------------------------------------
    @property
    def face_fields(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.kind == "faces")

    def parse(self, raw: Any) -> tuple[P, Faces | None]:
        """Validate raw params. Returns the params and the given faces (or None)."""
        values = validate(self.fields, raw)
        given = {name: values.pop(name) for name in self.face_fields}
        params = self.make_params(values)
        if all(v is None for v in given.values()):
            return params, None
        return params, self.check_faces(params, given)

    def check_faces(self, params: P, given: Mapping[str, tuple[int, ...] | None]) -> Faces:
        out: dict[str, tuple[int, ...]] = {}
        labels = {f.name: f.label for f in self.fields}
        for group in self.dice_plan(params):
            faces = tuple(read_face(f, group.sides) for f in given.get(group.field) or ())
            label = labels[group.field]
            if len(faces) != group.count:
                raise ParamError(
                    group.field, "face_count", label=label, count=group.count,
                    sides=group.sides, given=len(faces),
                )
            for face in faces:
                if not 1 <= face <= group.sides:
                    raise ParamError(group.field, "face_sides", label=label, sides=group.sides,
                                     face=face, low=1, high=group.sides)
            out[group.field] = faces
        for name, extra in given.items():
            if name not in out and extra:
                raise ParamError(name, "face_count", label=labels[name], count=0, sides="?",
                                 given=len(extra))
        return out

    def draw(self, params: P, rng: random.Random) -> Faces:
        return {
            g.field: tuple(rng.randint(1, g.sides) for _ in range(g.count))
            for g in self.dice_plan(params)
        }

    def roll(self, params: P, rng: random.Random) -> RollResult:
        return self.resolve(params, self.draw(params, rng))

    def unknown_dice_field(self, params: P) -> str | None:
        """The first field of ``params`` that only means something on known dice (a
        placement on these very faces), or None. A roll whose dice are not known (no seed,
        no typed faces) refuses it up front, so no answer depends on the draw."""
        for f in self.fields:
            if f.kind == "placement" and getattr(params, f.name, None) is not None:
                return f.name
        return None

    def check_known_dice(self, params: P, known: bool) -> None:
        """Refuse a placement (see :meth:`unknown_dice_field`) unless the dice are known."""
        name = None if known else self.unknown_dice_field(params)
        if name is not None:
            raise ParamError(name, "placement_needs_dice")

    def outcome_ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.outcomes)

    def is_success(self, outcome_id: str) -> bool:
        return next(o.success for o in self.outcomes if o.id == outcome_id)

    def success_chance(self, odds: Odds) -> Fraction:
        """The chance of an outcome that is a success, from exact ``odds``."""
        return sum((p for o, p in odds.outcomes if self.is_success(o)), Fraction(0))

    def judges_success(self, params: P) -> bool:
        """Whether a roll of ``params`` succeeds or fails (a chance of success means
        something): the default, when the system's outcomes are of both kinds."""
        return len({o.success for o in self.outcomes}) == 2

    # -- how an answer is shaped (api.py calls these; a system may override) -------------
    def headline(self, result: RollResult) -> int | None:
        """The number a player reads first on this roll (the stage's headline): a pool's
        successes, a total, the d100's number. None: the system names none."""
        return None

    def headline_kind(self, result: RollResult) -> str:
        """What the headline number is: ``total``, ``successes`` or ``number`` (said as is);
        the words come from :func:`pyrules.i18n.headline_words`."""
        return "number"

    def headline_texts(self, result: RollResult, spoken: bool = False) -> dict[str, str] | None:
        """The headline in words, in every language (« 9 réussites », « Total 12 », « 43 »;
        ``spoken``: the number first, « 12 au total »); None when the system names none."""
        n = self.headline(result)
        if n is None:
            return None
        kind = self.headline_kind(result)
        return {lang: headline_words(kind, n, lang, spoken) for lang in LANGS}

    def brief(self, params: P) -> Text:
        """What ``params`` roll, in a short line (a sheet's quick-roll button): the fields a
        form shows, as :func:`pyrules.fields.brief` words them; a system may word a value
        its own way (steps: the whole bonus the roll adds)."""
        return brief(self.fields, self.values_of(params))

    def values_of(self, params: P) -> dict[str, Any]:
        """Each field's value in ``params`` (None: a field the params do not keep)."""
        return {f.name: getattr(params, f.name, None) for f in self.fields}

    def roll_answer(self, result: RollResult, out: dict[str, Any]) -> dict[str, Any]:
        """The ``roll`` answer of ``result`` as api.py built it; a system may reshape it."""
        return out

    def odds_answer(self, odds: Odds, out: dict[str, Any]) -> dict[str, Any]:
        """The ``odds`` answer as api.py built it; a system may reshape it."""
        return out


def all_faces(groups: Sequence[DiceGroup]) -> Iterator[Faces]:
    """Every face combination of the given dice, in order (the brute-force oracle)."""
    ranges = [range(1, g.sides + 1) for g in groups for _ in range(g.count)]
    for combo in itertools.product(*ranges):
        out: dict[str, tuple[int, ...]] = {}
        i = 0
        for g in groups:
            out[g.field] = tuple(combo[i : i + g.count])
            i += g.count
        yield out


def enumerate_odds(system: System[Any], params: Any) -> Odds:
    """Exact odds by resolving every face combination (each equally likely)."""
    groups = system.dice_plan(params)
    outcome_w: dict[str, int] = dict.fromkeys(system.outcome_ids(), 0)
    margin_w: dict[int, int] = {}
    total = 0
    for faces in all_faces(groups):
        result = system.resolve(params, faces)
        outcome_w[result.outcome] += 1
        margin_w[result.margin] = margin_w.get(result.margin, 0) + 1
        total += 1
    return make_odds(outcome_w, margin_w, total)


def make_odds(outcome_w: Mapping[str, int], margin_w: Mapping[int, int], total: int) -> Odds:
    return Odds(
        tuple((k, Fraction(v, total)) for k, v in outcome_w.items()),
        tuple((m, Fraction(w, total)) for m, w in sorted(margin_w.items()) if w),
    )


def new_seed() -> int:
    """A fresh seed from the operating system (``crypto.getRandomValues`` in Pyodide)."""
    return secrets.randbits(53)


def make_rng(seed: int) -> random.Random:
    return random.Random(seed)
