"""Play with step dice (document 004): the combat actions (melee, ranged, ordinary
conflict, skirmish) and the Ardeur points they cost. Fields are registry fields, so errors
name the field; the JSON shaping lives in api.py.
"""

from __future__ import annotations

import functools
import random
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core import Line, RollResult
from ...fields import Choice, Field, ParamError, validate
from ...i18n import Text as T
from ...sheetspec import SheetSpec, stat
from . import StepsSystem

STEPS = StepsSystem()

COMBAT_KINDS = ("melee", "ranged", "conflict", "skirmish")
COMBAT_FIELDS = (
    Field("kind", "choice", T("Action", "Action"), default="melee", choices=(
        Choice("melee", T("Corps à corps (Combat ou Bagarre)", "Melee (Combat or Brawl)")),
        Choice("ranged", T("Tir (jet d'action)", "Ranged (action roll)")),
        Choice("conflict", T("Conflit ordinaire", "Ordinary conflict")),
        Choice("skirmish", T("Escarmouche", "Skirmish")),
    )),
    Field("concede", "bool", T("Le perdant s'avoue vaincu", "The loser concedes"),
          default=False, help=T("Conflit ordinaire seulement : il ne perd rien.",
                                "Ordinary conflict only: they lose nothing.")),
    # Document 004 is silent on Ardeur below 0 (docs/rules.md, « Ardeur sous 0 »).
    Field("ardeur_floor", "bool", T("L'Ardeur s'arrête à 0", "Ardeur stops at 0"),
          default=True, help=T("Décoché : une perte peut la faire passer sous 0, une dette "
                               "à rattraper avant de revenir au combat.",
                               "Unticked: a loss may take it below 0, a debt to make up "
                               "before fighting again.")),
)
ARDEUR_FIELD = Field("ardeur", "int", T("Points d'Ardeur", "Ardeur points"), default=10,
                     min=-99, max=99)


@dataclass(frozen=True)
class CombatOutcome:
    kind: str
    winner: str  # actor, opponent, tie (ranged: actor on a hit, opponent on a miss)
    margin: int
    actor_loss: int
    opponent_loss: int
    actor_ardeur: int
    opponent_ardeur: int
    rolls: tuple[RollResult, ...]
    lines: tuple[Line, ...]
    #: Each roll's dice judged as a single roll of its side (its own threshold).
    own: tuple[RollResult, ...] = ()

    @property
    def knocked_out(self) -> tuple[str, ...]:
        return tuple(side for side, left in (("actor", self.actor_ardeur),
                                             ("opponent", self.opponent_ardeur)) if left <= 0)


def split_ardeur(side: str, raw: Any) -> tuple[int, dict[str, Any]]:
    """Take the Ardeur points out of a side's params (the rest are step-dice params)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ParamError(f"{side}.params", "not_object")
    params = dict(raw)
    try:
        ardeur = ARDEUR_FIELD.clean(params.pop("ardeur")) if params.get("ardeur") is not None \
            else ARDEUR_FIELD.default
    except ParamError as err:
        raise err.prefixed(side) from None
    params.pop("ardeur", None)
    return ardeur, params


@dataclass(frozen=True)
class CombatSetup:
    """A combat action's validated request: its options, each side's Ardeur and step params
    (and typed faces)."""

    kind: str
    concede: bool
    ardeur_floor: bool
    actor_ardeur: int
    opponent_ardeur: int
    actor: tuple[Any, Any]  # (StepsParams, Faces | None)
    opponent: tuple[Any, Any]


def parse_combat(options: Any, actor_raw: Any, opponent_raw: Any) -> CombatSetup:
    """Validate one combat action's request (errors name the field, e.g. "actor.bonus")."""
    opts = validate(COMBAT_FIELDS, options)
    a_ardeur, a_raw = split_ardeur("actor", actor_raw)
    b_ardeur, b_raw = split_ardeur("opponent", opponent_raw)
    sides = []
    for side, raw in (("actor", a_raw), ("opponent", b_raw)):
        try:
            sides.append(STEPS.parse(raw))
        except ParamError as err:
            raise err.prefixed(side) from None
    return CombatSetup(opts["kind"], opts["concede"], opts["ardeur_floor"], a_ardeur, b_ardeur,
                       sides[0], sides[1])


def ardeur_after(ardeur: int, loss: int, floor: bool) -> int:
    """The Ardeur left after a loss. With the floor (default) a loss stops at 0: the fighter
    is out, with 0 points, and a GM-set value already below 0 is not raised. Without it the
    loss is taken in full, the points below 0 a debt (docs/rules.md, « Ardeur sous 0 »)."""
    left = ardeur - loss
    return max(left, min(ardeur, 0)) if floor else left


def combat(
    options: Any, actor_raw: Any, opponent_raw: Any, rng: random.Random | None
) -> CombatOutcome:
    """One combat action between two participants of the step-dice system."""
    return resolve_combat(parse_combat(options, actor_raw, opponent_raw), rng)


def resolve_combat(setup: CombatSetup, rng: random.Random | None) -> CombatOutcome:
    kind = setup.kind
    steps = STEPS
    a_ardeur, b_ardeur = setup.actor_ardeur, setup.opponent_ardeur
    (pa, fa), (pb, fb) = setup.actor, setup.opponent
    if rng is None and (fa is None or (kind != "ranged" and fb is None)):
        raise ParamError("seed", "seed")
    if kind == "ranged":  # an action roll against the shooter's threshold
        roll = steps.resolve(pa, fa) if fa is not None else steps.roll(pa, rng)  # type: ignore[arg-type]
        hit = roll.success
        loss = roll.margin if hit else 0
        line = Line.of("combat.ranged", hit=hit, damage=loss)
        return CombatOutcome(kind, "actor" if hit else "opponent", max(roll.margin, 0), 0, loss,
                             a_ardeur, ardeur_after(b_ardeur, loss, setup.ardeur_floor), (roll,),
                             (*roll.lines, line), (roll,))
    faces = None
    if fa is not None or fb is not None:
        faces = (fa if fa is not None else steps.draw(pa, rng),  # type: ignore[arg-type]
                 fb if fb is not None else steps.draw(pb, rng))  # type: ignore[arg-type]
    result = steps.oppose(pa, pb, faces, rng)
    margin, winner = result.margin, result.winner
    a_loss = margin if winner == "opponent" else 0
    b_loss = margin if winner == "actor" else 0
    if kind == "conflict" and setup.concede:
        a_loss = b_loss = 0
        key = "combat.conceded"
    elif kind == "skirmish":
        # One roll settles the whole fight: the extras are out either way, and the hero
        # cannot be wounded; a lost roll means a twist the GM narrates.
        a_loss, b_loss = 0, max(b_ardeur, 0)
        key = "combat.skirmish_won" if winner == "actor" else "combat.skirmish_twist"
    else:
        key = f"combat.{kind}"
    line = Line.of(key, winner=winner, margin=margin, actor_loss=a_loss, opponent_loss=b_loss)
    return CombatOutcome(kind, winner, margin, a_loss, b_loss,
                         ardeur_after(a_ardeur, a_loss, setup.ardeur_floor),
                         ardeur_after(b_ardeur, b_loss, setup.ardeur_floor),
                         (result.actor, result.opponent),
                         (*result.lines, line), result.own_results)


# ------------------------------------------------------------------------------ the fight
# Document 004: melee weapons use the skill Combat, bare hands (no martial technique) the
# skill Bagarre, a shot the skill Tir. A participant's entries are found by their label
# (accents and case ignored); an ordinary conflict and a skirmish use Combat. With no such
# entry, the first one is used.

SKILL_WORDS: dict[str, tuple[str, ...]] = {
    "combat": ("combat", "melee", "fight", "epee", "arme"),
    "bagarre": ("bagarre", "brawl", "mains nues", "unarmed", "pugilat"),
    "tir": ("tir", "ranged", "shoot", "arc", "bow", "arbalete"),
}
FIGHT_MAX = 100  # participants
SKILLS_MAX = 100  # entries of one participant
LABEL_MAX = 200
ARDEUR_LIMIT = 10**6  # the GM's ±1 buttons may go past the ±99 of a combat action


@functools.lru_cache(maxsize=4096)
def fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text)
                   if not unicodedata.combining(c)).lower()


def find_skill(labels: Sequence[str], skill: str) -> int | None:
    words = SKILL_WORDS[skill]
    for index, label in enumerate(labels):
        folded = fold(label)  # once per label (a fight of 100 participants is judged often)
        if any(word in folded for word in words):
            return index
    return None


def skill_for(labels: Sequence[str], kind: str, unarmed: bool = False) -> int:
    """The index of the entry a participant uses for one kind of action."""
    found = None
    if kind == "ranged":
        found = find_skill(labels, "tir")
    elif kind == "melee" and unarmed:
        found = find_skill(labels, "bagarre")
    if found is None:
        found = find_skill(labels, "combat")
    return found if found is not None else 0


def can_act(ardeur: int) -> bool:
    """Still standing: a participant at 0 Ardeur or below is out of the fight."""
    return ardeur > 0


@dataclass(frozen=True)
class Fighter:
    id: str
    ardeur: int
    unarmed: bool
    skills: tuple[str, ...]
    #: Each skill's step-dice params when the state gives them (``{"label", "params"}``),
    #: else ``{}`` (the base roll): what a `combat` action in this fight rolls.
    params: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class FightView:
    """What the rules say of a fight state: who can act, whose turn it is, what comes next."""

    round: int
    turn: int
    fighters: tuple[Fighter, ...]
    acted: frozenset[str]

    @property
    def standing(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.fighters if can_act(f.ardeur))

    @property
    def current(self) -> str | None:
        """Whose turn it is, if that participant can still act."""
        if not self.fighters:
            return None
        fighter = self.fighters[self.turn]
        return fighter.id if can_act(fighter.ardeur) else None

    @property
    def over(self) -> bool:
        """Fewer than two participants can still act: no action is possible."""
        return len(self.standing) < 2

    @property
    def next(self) -> tuple[int, int] | None:
        """(turn, round) after "next turn": the next one standing, clockwise; a new round
        starts after the last. None when nobody can act."""
        if not self.standing:
            return None
        turn, round_ = self.turn, self.round
        for _ in self.fighters:
            turn += 1
            if turn >= len(self.fighters):
                turn, round_ = 0, round_ + 1
            if can_act(self.fighters[turn].ardeur):
                break
        return turn, round_

    def warning(self, fighter_id: str) -> str | None:
        """Why acting now breaks the turn order (the table's order: a warning, never a
        refusal): `acted` already this round, or `not_turn` (someone else's turn)."""
        if fighter_id in self.acted:
            return "acted"
        current = self.current
        if current is not None and current != fighter_id:
            return "not_turn"
        return None

    def skills(self, fighter: Fighter) -> dict[str, int]:
        return {kind: skill_for(fighter.skills, kind, fighter.unarmed) for kind in COMBAT_KINDS}


def _int(raw: Any, field: str, low: int, high: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise ParamError(field, "fight_state", what=f"{field}: {low} .. {high}")
    return raw


def _skills(raw: Any, where: str) -> tuple[tuple[str, ...], tuple[dict[str, Any], ...]]:
    """A participant's skills: each a label, or ``{"label", "params"}`` (its step-dice
    params, checked when an action rolls them)."""
    what = f"{where}: a list of labels or {{label, params}}"
    if not isinstance(raw, list) or len(raw) > SKILLS_MAX:
        raise ParamError(where, "fight_state", what=what)
    labels, params = [], []
    for j, skill in enumerate(raw):
        if isinstance(skill, dict):
            extra = set(skill) - {"label", "params"}
            if extra:
                name = sorted(map(str, extra))[0][:40]
                raise ParamError(f"{where}.{j}.{name}", "unknown_field", name=name)
            label, given = skill.get("label", ""), skill.get("params", {})
            if given is None:
                given = {}
            if not isinstance(given, dict):
                raise ParamError(f"{where}.{j}.params", "not_object")
        else:
            label, given = skill, {}
        if not isinstance(label, str) or len(label) > LABEL_MAX:
            raise ParamError(f"{where}.{j}", "fight_state", what=what)
        labels.append(label)
        params.append(given)
    return tuple(labels), tuple(params)


def parse_fight(raw: Any) -> FightView:
    """Validate a fight state: {round, turn, participants: [{id, ardeur, unarmed?,
    skills: [label | {label, params}, ...]}], acted?: [id, ...]} (acted: who already acted
    this round)."""
    if not isinstance(raw, dict):
        raise ParamError("fight", "not_object")
    unknown = set(raw) - {"round", "turn", "participants", "acted"}
    if unknown:
        raise ParamError(f"fight.{sorted(unknown)[0]}", "unknown_field", name=sorted(unknown)[0])
    people = raw.get("participants")
    if not isinstance(people, list) or len(people) > FIGHT_MAX:
        raise ParamError("fight.participants", "fight_state",
                         what=f"participants: a list of at most {FIGHT_MAX}")
    fighters: list[Fighter] = []
    for i, p in enumerate(people):
        where = f"fight.participants.{i}"
        if not isinstance(p, dict):
            raise ParamError(where, "not_object")
        ident = p.get("id")
        if not isinstance(ident, str) or not 0 < len(ident) <= LABEL_MAX \
                or any(f.id == ident for f in fighters):
            raise ParamError(f"{where}.id", "fight_state", what=f"{where}.id: a unique text")
        skills, params = _skills(p.get("skills", []), f"{where}.skills")
        unarmed = p.get("unarmed", False)
        if not isinstance(unarmed, bool):
            raise ParamError(f"{where}.unarmed", "fight_state", what=f"{where}.unarmed: true/false")
        ardeur = _int(p.get("ardeur"), f"{where}.ardeur", -ARDEUR_LIMIT, ARDEUR_LIMIT)
        fighters.append(Fighter(ident, ardeur, unarmed, skills, params))
    round_ = _int(raw.get("round", 1), "fight.round", 1, 10**9)
    turn = _int(raw.get("turn", 0), "fight.turn", 0, 10**9)
    if turn >= len(fighters):  # the one whose turn it was left: the order starts again
        turn = 0
    acted = raw.get("acted", [])
    if not isinstance(acted, list) or len(acted) > 10_000 \
            or not all(isinstance(a, str) for a in acted):
        raise ParamError("fight.acted", "fight_state", what="fight.acted: a list of ids")
    return FightView(round_, turn, tuple(fighters), frozenset(acted))


_STEPS = {f.name: f for f in StepsSystem.fields}
#: A step-dice character sheet (document 004): the Ardeur (for combat), an accessories
#: bonus added to every roll, the bonus of each weapon and protection carried (a list: only
#: the best of each counts); a quick roll may change the threshold, take an edge, add bonus.
SHEET = SheetSpec(
    stats=(stat(ARDEUR_FIELD),
           stat(_STEPS["bonus"], "accessories", default=0,
                label=T("Bonus d’accessoires et d’atours", "Accessories and finery bonus"),
                help=T("S’ajoute au bonus de chaque jet.", "Added to the bonus of every roll.")),
           stat(_STEPS["weapons"]), stat(_STEPS["protections"])),
    set={"weapons": "weapons", "protections": "protections"},
    add={"bonus": "accessories"},
    situation=(("threshold", "replace"), ("edge", "set"), ("bonus", "add")),
)
