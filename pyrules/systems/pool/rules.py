"""The pool's rules (document 000): what a face is worth, the modifiers' notation, the
params, the verdict (outcome and MR), and where augmentations and diminutions go on the
Flame dice. Pure functions of the params and the faces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from ...fields import ParamError
from ...i18n import WORDS

MAX_DICE = 50
MAX_FLAME_DICE = 20
MAX_BUDGET = 40  # augmentations or diminutions, modifiers included
FUMBLE_MARGIN = -5  # a margin of -5 or worse is always a fumble
#: The outcomes, best first (the registry's order).
OUTCOME_IDS = ("critical_success", "success", "failure", "fumble")


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
    complexity: int = 0  # disabling a machine: -1 to -3; repairing one: +1 to +3
    size_rule: str = "applied"  # what a success's MR gets back of the size gap
    mods: Modifiers = Modifiers()  # parsed from ``modifiers`` by make_params

    @cached_property  # read in the odds' inner loops
    def dice_count(self) -> int:
        """Dice actually rolled: the POT plus the modifiers' +xD."""
        return self.pot + self.mods.dice

    @cached_property  # read in the odds' inner loops
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

    @cached_property  # read in the odds' inner loops
    def size_modifier(self) -> int:
        return self.actor_size - self.target_size

    @cached_property  # read in the odds' inner loops
    def task_diff(self) -> int:
        """DIFF of the task itself: the DIFF plus the machine's complexity, never below 1."""
        return max(1, self.diff + self.complexity)

    @cached_property  # read in the odds' inner loops
    def effective_diff(self) -> int:
        """Task DIFF plus the size gap, never below 1 (at least one success is always
        needed)."""
        return max(1, self.task_diff + self.size_modifier)

    @cached_property  # read in the odds' inner loops
    def size_applied(self) -> int:
        """The part of the size gap that really moved the DIFF (less than the gap when the
        floor of 1 clips it)."""
        return self.effective_diff - self.task_diff

    @cached_property  # read in the odds' inner loops
    def size_returned(self) -> int:
        """What a success's MR gets back: the size change actually applied to the DIFF
        (``applied``, the default), or the whole gap (``full``, the other reading)."""
        return self.size_applied if self.size_rule == "applied" else self.size_modifier


@dataclass(frozen=True)
class Verdict:
    outcome: str
    margin: int


def verdict(p: PoolParams, successes: int, ones: int) -> Verdict:
    """The rules that turn successes and 1s into an outcome and a margin (MR)."""
    eff = p.effective_diff
    if successes >= eff:
        margin = successes - eff + p.size_returned  # size is given back on a success
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


def placement_error(p: PoolParams, faces: tuple[int, ...],
                    place: tuple[int, ...]) -> ParamError | None:
    """Why a chosen placement is not allowed (None: it is). A 1 is never changed; a Flame die
    stays within 2-6, so a point that would push it past 6 or under 2 is no move at all; each
    side spends at most its own points (chosen placements do not cancel one for one)."""
    if len(place) != len(faces):
        return ParamError("placement", "placement_count", count=len(faces), given=len(place))
    for i, (f, d) in enumerate(zip(faces, place, strict=True)):
        if f == 1 and d:
            return ParamError("placement", "placement_on_one", index=i + 1)
        if f != 1 and not 2 <= f + d <= 6:
            return ParamError("placement", "placement_bounds", index=i + 1, face=f, final=f + d)
    used_aug = sum(d for d in place if d > 0)
    used_dim = -sum(d for d in place if d < 0)
    if used_aug > p.total_augmentations:
        return ParamError("placement", "placement_budget", used=used_aug,
                          what=WORDS["augmentations"], available=p.total_augmentations)
    if used_dim > p.total_diminutions:
        return ParamError("placement", "placement_budget", used=used_dim,
                          what=WORDS["diminutions"], available=p.total_diminutions)
    return None


def check_placement(p: PoolParams, faces: tuple[int, ...]) -> tuple[int, ...]:
    place = p.placement
    assert place is not None
    problem = placement_error(p, faces, place)
    if problem is not None:
        raise problem
    return place


def placement_moves(p: PoolParams, faces: tuple[int, ...],
                    place: tuple[int, ...]) -> tuple[tuple[bool, bool], ...]:
    """For each Flame die, whether one more augmentation (+1) and one more diminution (-1)
    on it, from ``place``, give an allowed placement: what the page may offer, decided here.
    The same verdict as :func:`placement_error` on each moved placement, in linear time."""
    if len(place) != len(faces):
        return tuple((False, False) for _ in faces)

    def die_ok(f: int, d: int) -> bool:
        return d == 0 if f == 1 else 2 <= f + d <= 6

    bad = sum(1 for f, d in zip(faces, place, strict=True) if not die_ok(f, d))
    used_aug = sum(d for d in place if d > 0)
    used_dim = -sum(d for d in place if d < 0)
    out = []
    for f, d in zip(faces, place, strict=True):
        others_bad = bad - (0 if die_ok(f, d) else 1)
        legal = []
        for step in (1, -1):
            e = d + step
            aug = used_aug - max(d, 0) + max(e, 0)
            dim = used_dim - max(-d, 0) + max(-e, 0)
            legal.append(not others_bad and die_ok(f, e) and aug <= p.total_augmentations
                         and dim <= p.total_diminutions)
        out.append((legal[0], legal[1]))
    return tuple(out)
