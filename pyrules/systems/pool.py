"""``pool``: a pool of d6 counted in successes, with Flame dice (document 000).

Faces 1-3 count 0 successes, 4-5 count 1, 6 counts 2. The roll succeeds when the
successes reach the DIFF. Flame dice are taken out of the POT; their faces can be
raised by augmentations and lowered by diminutions (never a 1, always within 2-6).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial
from typing import Any

from ..core import (
    DiceGroup,
    Die,
    Faces,
    Line,
    Odds,
    OpposeResult,
    Outcome,
    RollResult,
    System,
    make_odds,
)
from ..fields import Choice, Field, ParamError
from ..i18n import WORDS, Text

MAX_DICE = 50
MAX_FLAME_DICE = 20
MAX_BUDGET = 40  # augmentations or diminutions, modifiers included
FUMBLE_MARGIN = -5  # a margin of -5 or worse is always a fumble


def successes_of(face: int) -> int:
    """1-3: 0 successes, 4-5: 1, 6: 2."""
    return 0 if face <= 3 else (1 if face <= 5 else 2)


@dataclass(frozen=True)
class Modifiers:
    dice: int = 0  # +xD
    flame: int = 0  # +yDF
    augmentations: int = 0  # +z
    diminutions: int = 0  # -z


_TERM = re.compile(r"\s*([+-])\s*(\d{1,3})\s*(DF|D)?", re.IGNORECASE)


def parse_modifiers(text: str) -> Modifiers:
    """Read the document's notation, e.g. ``+2D+1``, ``+1D+1DF+2``, ``-1D``, ``-2``."""
    pos, dice, flame, aug, dim = 0, 0, 0, 0, 0
    text = text.strip()
    while pos < len(text):
        m = _TERM.match(text, pos)
        if not m or m.end() == pos:
            raise ParamError("modifiers", "bad_modifiers", text=text)
        sign = 1 if m.group(1) == "+" else -1
        amount = int(m.group(2))
        unit = (m.group(3) or "").upper()
        if unit == "D":
            dice += sign * amount
        elif unit == "DF":
            flame += sign * amount
        elif sign > 0:
            aug += amount
        else:
            dim += amount
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return Modifiers(dice, flame, aug, dim)


@dataclass(frozen=True)
class PoolParams:
    pot: int
    diff: int
    flame: int
    augmentations: int
    diminutions: int
    modifiers: str
    actor_size: int
    target_size: int
    fumble_rule: str
    placement: tuple[int, ...] | None
    mods: Modifiers = Modifiers()  # parsed from ``modifiers`` by make_params

    @property
    def dice_count(self) -> int:
        """Dice actually rolled: the POT plus the modifiers' +xD."""
        return self.pot + self.mods.dice

    @property
    def flame_count(self) -> int:
        """|Flame| plus +yDF, never more than the dice rolled (the excess is lost)."""
        return max(0, min(abs(self.flame) + self.mods.flame, self.dice_count))

    @property
    def flame_kind(self) -> str:
        return "black_flame" if self.flame < 0 else "flame"

    @property
    def total_augmentations(self) -> int:
        return self.augmentations + self.mods.augmentations

    @property
    def total_diminutions(self) -> int:
        return self.diminutions + self.mods.diminutions

    @property
    def size_modifier(self) -> int:
        return self.actor_size - self.target_size

    @property
    def effective_diff(self) -> int:
        """DIFF plus the size gap, never below 1 (at least one success is always needed)."""
        return max(1, self.diff + self.size_modifier)


@dataclass(frozen=True)
class Verdict:
    outcome: str
    margin: int


def verdict(p: PoolParams, successes: int, ones: int) -> Verdict:
    """The rules that turn successes and 1s into an outcome and a margin (MR)."""
    eff = p.effective_diff
    if successes >= eff:
        margin = successes - eff + p.size_modifier  # size is given back on a success
        return Verdict("critical_success" if successes >= 2 * eff else "success", margin)
    margin = successes - eff
    if margin <= FUMBLE_MARGIN:
        return Verdict("fumble", margin)
    more_ones = ones > successes
    if p.fumble_rule == "revised":
        more_ones = more_ones and 2 * ones > p.dice_count
    return Verdict("fumble" if more_ones else "failure", margin)


def ones_matter(p: PoolParams, successes: int) -> bool:
    """Whether the number of 1s can change the verdict for this many successes."""
    return p.effective_diff + FUMBLE_MARGIN < successes < p.effective_diff


# -- placing augmentations and diminutions ------------------------------------------


def net_budget(p: PoolParams) -> tuple[int, int]:
    """Augmentations and diminutions cancel one for one; what is left goes to its owner."""
    a, d = p.total_augmentations, p.total_diminutions
    k = min(a, d)
    return a - k, d - k


def optimal_placement(faces: tuple[int, ...], aug: int, dim: int) -> tuple[int, ...]:
    """Net change per Flame die: the player maximises successes with ``aug``
    augmentations, or the GM minimises them with ``dim`` diminutions (never both:
    see :func:`net_budget`). Greedy by cost, which is optimal because every die's
    cost per success is non-decreasing."""
    cur = list(faces)
    if aug:
        budget = aug
        for i, f in enumerate(cur):  # one point for one success: 3->4, 5->6
            if budget and f in (3, 5):
                cur[i] += 1
                budget -= 1
        while budget >= 2:  # two points for one success: 4->6, then 2->4
            targets = [i for i, f in enumerate(cur) if f in (2, 4)]
            if not targets:
                break
            i = max(targets, key=lambda j: (cur[j], -j))
            cur[i] += 2
            budget -= 2
    elif dim:
        budget = dim
        for i, f in enumerate(cur):  # one point for one success: 6->5, 4->3
            if budget and f in (6, 4):
                cur[i] -= 1
                budget -= 1
        for i, f in enumerate(cur):  # two points for one success: 5->3
            if budget >= 2 and f == 5:
                cur[i] -= 2
                budget -= 2
    return tuple(c - f for c, f in zip(cur, faces, strict=True))


def placed_successes(counts: tuple[int, ...], aug: int, dim: int) -> int:
    """Successes of Flame dice with these face counts (index 0 = face 1) after
    :func:`optimal_placement`, in closed form. Tests check both agree on every roll."""
    _c1, c2, c3, c4, c5, c6 = counts
    base = c4 + c5 + 2 * c6
    if aug:
        cheap = min(aug, c3 + c5)
        return base + cheap + min((aug - cheap) // 2, 2 * c2 + c4 + c3)
    if dim:
        cheap = min(dim, c6 + c4)
        return base - cheap - min((dim - cheap) // 2, c5 + c6)
    return base


def apply_placement(face: int, delta: int) -> int:
    return face if face == 1 else max(2, min(6, face + delta))


def check_placement(p: PoolParams, faces: tuple[int, ...]) -> tuple[int, ...]:
    place = p.placement
    assert place is not None
    if len(place) != len(faces):
        raise ParamError("placement", "placement_count", count=len(faces), given=len(place))
    for i, (f, d) in enumerate(zip(faces, place, strict=True)):
        if f == 1 and d:
            raise ParamError("placement", "placement_on_one", index=i + 1)
    used_aug = sum(d for d in place if d > 0)
    used_dim = -sum(d for d in place if d < 0)
    if used_aug > p.total_augmentations:
        raise ParamError("placement", "placement_budget", used=used_aug,
                         what=WORDS["augmentations"], available=p.total_augmentations)
    if used_dim > p.total_diminutions:
        raise ParamError("placement", "placement_budget", used=used_dim,
                         what=WORDS["diminutions"], available=p.total_diminutions)
    return place


# -- exact odds ------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _plain_poly(m: int) -> tuple[int, ...]:
    """Weights of the successes of m dice that show no 1: (2 + 2x + x^2)^m."""
    poly = [1]
    for _ in range(m):
        nxt = [0] * (len(poly) + 2)
        for s, w in enumerate(poly):
            nxt[s] += 2 * w
            nxt[s + 1] += 2 * w
            nxt[s + 2] += w
        poly = nxt
    return tuple(poly)


def _normal_weight(n: int, ones: int, s: int) -> int:
    """Weight (out of 6^n) of n ordinary dice showing ``ones`` 1s and ``s`` successes."""
    poly = _plain_poly(n - ones)
    return comb(n, ones) * poly[s] if 0 <= s < len(poly) else 0


@lru_cache(maxsize=64)
def _normal_successes(n: int) -> tuple[int, ...]:
    """Weights of the successes of n ordinary dice: (3 + 2x + x^2)^n."""
    out = [0] * (2 * n + 1)
    for ones in range(n + 1):
        for s, w in enumerate(_plain_poly(n - ones)):
            out[s] += comb(n, ones) * w
    return tuple(out)


def _count_vectors(n: int, faces: int) -> Any:
    if faces == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _count_vectors(n - first, faces - 1):
            yield (first, *rest)


@lru_cache(maxsize=64)
def _flame_dist(count: int, aug: int, dim: int) -> tuple[tuple[int, int, int], ...]:
    """(ones, successes, weight out of 6^count) for Flame dice placed optimally."""
    dist: dict[tuple[int, int], int] = {}
    fact = factorial(count)
    for counts in _count_vectors(count, 6):
        weight = fact
        for c in counts:
            weight //= factorial(c)
        key = (counts[0], placed_successes(counts, aug, dim))
        dist[key] = dist.get(key, 0) + weight
    return tuple((o, s, w) for (o, s), w in sorted(dist.items()))


def successes_weights(p: PoolParams) -> dict[int, int]:
    """How many of the 6**dice_count face combinations give each number of successes (the
    Flame dice's augmentations and diminutions placed as ``resolve`` places them)."""
    flame_s: dict[int, int] = {}
    for _o, s, w in _flame_dist(p.flame_count, *net_budget(p)):
        flame_s[s] = flame_s.get(s, 0) + w
    normal_s = _normal_successes(p.dice_count - p.flame_count)
    total_s: dict[int, int] = {}
    for sf, wf in flame_s.items():
        for sn, wn in enumerate(normal_s):
            if wn:
                total_s[sf + sn] = total_s.get(sf + sn, 0) + wf * wn
    return total_s


def pool_odds(p: PoolParams) -> Odds:
    n = p.dice_count - p.flame_count
    flame = _flame_dist(p.flame_count, *net_budget(p))
    total_s = successes_weights(p)
    outcome_w = dict.fromkeys(PoolSystem.outcome_ids_static(), 0)
    margin_w: dict[int, int] = {}
    for s, w in total_s.items():
        margin = verdict(p, s, 0).margin
        margin_w[margin] = margin_w.get(margin, 0) + w
        if not ones_matter(p, s):
            outcome_w[verdict(p, s, 0).outcome] += w
            continue
        for of, sf, wf in flame:  # split this success count by the number of 1s
            if sf > s:
                continue
            for on in range(n + 1):
                wn = _normal_weight(n, on, s - sf)
                if wn:
                    outcome_w[verdict(p, s, of + on).outcome] += wf * wn
    return make_odds(outcome_w, margin_w, 6 ** p.dice_count)


# -- the system ------------------------------------------------------------------------

T = Text


class PoolSystem(System[PoolParams]):
    id = "pool"
    doc = "000"
    name = T("Réserve de d6 et dés de Flamme", "d6 success pool with Flame dice")
    description = T(
        "Lancez autant de d6 que votre POT : 4-5 valent une réussite, 6 en vaut deux. "
        "Atteignez la DIFF pour réussir.",
        "Roll as many d6 as your POT: 4-5 count one success, 6 counts two. "
        "Reach the DIFF to succeed.",
    )
    oppose_rule = T(
        "Chacun lance son POT ; le plus de réussites l'emporte.",
        "Each side rolls its POT; more successes wins.",
    )
    fields = (
        Field("pot", "int", T("POT (caractéristique + compétence)", "POT (characteristic + skill)"),
              default=6, min=1, max=40,
              help=T("Nombre de d6 lancés.", "Number of d6 rolled.")),
        Field("diff", "int", T("DIFF (difficulté)", "DIFF (difficulty)"), default=4, min=1, max=9,
              help=T("1 évident … 4 normal … 9 chimérique.",
                     "1 obvious … 4 normal … 9 chimerical.")),
        Field("flame", "int", T("Flamme", "Flame"), default=0, min=-10, max=10,
              help=T("Nombre de dés de Flamme pris dans le POT ; négatif : Flamme noire.",
                     "Number of Flame dice taken from the POT; negative: black Flame.")),
        Field("augmentations", "int", T("Augmentations", "Augmentations"), default=0, min=0,
              max=20, help=T("+1 sur un dé de Flamme chacune, placées par le joueur.",
                             "+1 on a Flame die each, placed by the player.")),
        Field("diminutions", "int", T("Diminutions", "Diminutions"), default=0, min=0, max=20,
              help=T("-1 sur un dé de Flamme chacune, placées par le MJ.",
                     "-1 on a Flame die each, placed by the GM.")),
        Field("modifiers", "text", T("Modificateurs", "Modifiers"), default="", max_length=40,
              help=T("Notation +xD+yDF+z, par ex. +1D+1DF+2 ou -1D ou -2.",
                     "Notation +xD+yDF+z, e.g. +1D+1DF+2 or -1D or -2.")),
        Field("actor_size", "int", T("TAIlle de l'acteur", "Actor's SIZe"), default=0, min=-5,
              max=5, group="advanced"),
        Field("target_size", "int", T("TAIlle de la cible", "Target's SIZe"), default=0, min=-5,
              max=5, group="advanced"),
        Field("fumble_rule", "choice", T("Règle du fumble", "Fumble rule"), default="revised",
              group="advanced",
              choices=(
                  Choice("revised", T("Révisée : plus de 1 que la moitié du POT et que de "
                                      "réussites", "Revised: more 1s than half the POT and "
                                      "than successes")),
                  Choice("classic", T("Classique : plus de 1 que de réussites",
                                      "Classic: more 1s than successes")),
              )),
        Field("placement", "placement", T("Placement sur les dés de Flamme",
                                          "Placement on the Flame dice"),
              default=None, optional=True, min=-MAX_BUDGET, max=MAX_BUDGET, group="result",
              help=T("Changement net de chaque dé de Flamme ; vide : placement optimal.",
                     "Net change on each Flame die; empty: optimal placement.")),
        Field("dice", "faces", T("Dés ordinaires", "Ordinary dice"), default=None,
              optional=True, sides=6, min=1, max=6, group="physical"),
        Field("flame_dice", "faces", T("Dés de Flamme", "Flame dice"), default=None,
              optional=True, sides=6, min=1, max=6, group="physical"),
    )
    outcomes = (
        Outcome("critical_success", True, T("Réussite critique", "Critical success")),
        Outcome("success", True, T("Réussite", "Success")),
        Outcome("failure", False, T("Échec", "Failure")),
        Outcome("fumble", False, T("Échec critique (fumble)", "Fumble")),
    )

    @staticmethod
    def outcome_ids_static() -> tuple[str, ...]:
        return tuple(o.id for o in PoolSystem.outcomes)

    def make_params(self, values: dict[str, Any]) -> PoolParams:
        mods = parse_modifiers(values["modifiers"])  # a ParamError names `modifiers`
        p = PoolParams(**values, mods=mods)
        checks = (
            ("dice_count", p.dice_count, 0, MAX_DICE),
            ("flame_count", abs(p.flame) + mods.flame, -MAX_FLAME_DICE, MAX_FLAME_DICE),
            ("augmentations", p.total_augmentations, 0, MAX_BUDGET),
            ("diminutions", p.total_diminutions, 0, MAX_BUDGET),
        )
        for what, value, low, high in checks:
            if not low <= value <= high:
                raise ParamError("modifiers", "modifiers_range", what=what, min=low, max=high)
        return p

    def dice_plan(self, params: PoolParams) -> tuple[DiceGroup, ...]:
        f = params.flame_count
        return (
            DiceGroup("dice", 6, params.dice_count - f, "normal"),
            DiceGroup("flame_dice", 6, f, params.flame_kind),
        )

    def resolve(self, params: PoolParams, faces: Faces) -> RollResult:
        p = params
        normal, flame = faces["dice"], faces["flame_dice"]
        if p.placement is None:
            place = optimal_placement(flame, *net_budget(p))
        else:
            place = check_placement(p, flame)
        finals = tuple(apply_placement(f, d) for f, d in zip(flame, place, strict=True))
        dice = tuple(
            Die(6, f, f, "normal", successes_of(f), ("one",) if f == 1 else ())
            for f in normal
        ) + tuple(
            Die(6, f, g, p.flame_kind, successes_of(g), ("one",) if f == 1 else (), g - f)
            for f, g in zip(flame, finals, strict=True)
        )
        successes = sum(d.value for d in dice)
        ones = sum(1 for d in dice if d.rolled == 1)
        v = verdict(p, successes, ones)
        used_aug = sum(d for d in place if d > 0)
        used_dim = -sum(d for d in place if d < 0)
        if p.placement is None:  # cancelled pairs count as used on both sides
            cancelled = min(p.total_augmentations, p.total_diminutions)
            used_aug += cancelled
            used_dim += cancelled
        lines = self._explain(p, dice, successes, ones, v, place)
        return RollResult(
            self.id, v.outcome, v.outcome in ("success", "critical_success"), v.margin, dice,
            lines,
            extra=(
                ("successes", successes),
                ("effective_diff", p.effective_diff),
                ("ones", ones),
                ("dice_count", p.dice_count),
                ("flame_count", p.flame_count),
                ("augmentations", p.total_augmentations),
                ("diminutions", p.total_diminutions),
                ("placement", list(place)),
                ("unused_augmentations", p.total_augmentations - used_aug),
                ("unused_diminutions", p.total_diminutions - used_dim),
                ("size_modifier", p.size_modifier),
            ),
        )

    def _explain(
        self, p: PoolParams, dice: tuple[Die, ...], successes: int, ones: int, v: Verdict,
        place: tuple[int, ...],
    ) -> tuple[Line, ...]:
        lines = [Line.of("pool.dice", pot=p.pot, modifiers=p.modifiers.strip(),
                         count=p.dice_count, flame=p.flame_count, kind=p.flame_kind)]
        if p.flame_count and (p.total_augmentations or p.total_diminutions):
            mode = "optimal" if p.placement is None else "manual"
            lines.append(Line.of(f"pool.placement_{mode}", aug=p.total_augmentations,
                                 dim=p.total_diminutions,
                                 changes=" ".join(f"{d:+d}" for d in place)))
        lines.append(Line.of("pool.count", successes=successes,
                             faces=" ".join(str(d.final) for d in dice), ones=ones))
        if p.size_modifier or p.effective_diff != p.diff:
            lines.append(Line.of("pool.size", diff=p.diff, size=p.size_modifier,
                                 eff=p.effective_diff))
        eff = p.effective_diff
        if v.outcome == "critical_success":
            lines.append(Line.of("pool.critical", successes=successes, eff=eff,
                                 double=2 * eff, margin=v.margin))
        elif v.outcome == "success":
            lines.append(Line.of("pool.success", successes=successes, eff=eff, margin=v.margin))
        elif v.margin <= FUMBLE_MARGIN:
            lines.append(Line.of("pool.fumble_margin", successes=successes, eff=eff,
                                 margin=v.margin))
        elif v.outcome == "fumble":
            lines.append(Line.of(f"pool.fumble_{p.fumble_rule}", successes=successes, eff=eff,
                                 margin=v.margin, ones=ones, count=p.dice_count))
        else:
            lines.append(Line.of("pool.failure", successes=successes, eff=eff, margin=v.margin,
                                 ones=ones))
        return tuple(lines)

    def odds(self, params: PoolParams) -> Odds:
        return pool_odds(params)

    def oppose_score(self, result: RollResult) -> int:
        return int(result.get("successes"))

    def score_odds(self, params: PoolParams) -> dict[int, Fraction]:
        total = 6**params.dice_count
        return {s: Fraction(w, total) for s, w in sorted(successes_weights(params).items())}

    def oppose(
        self, actor: PoolParams, opponent: PoolParams,
        faces: tuple[Faces, Faces] | None, rng: random.Random | None,
    ) -> OpposeResult:
        if faces is None:
            assert rng is not None
            a, b = self.roll(actor, rng), self.roll(opponent, rng)
        else:
            a, b = self.resolve(actor, faces[0]), self.resolve(opponent, faces[1])
        sa, sb = a.get("successes"), b.get("successes")
        winner = "actor" if sa > sb else "opponent" if sb > sa else "tie"
        line = Line.of("pool.oppose", a=sa, b=sb, winner=winner)
        return OpposeResult(self.id, winner, abs(sa - sb), a, b, lines=(line,))
