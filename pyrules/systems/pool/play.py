"""Play around the pool (document 000): where a roll's augmentations, diminutions and
extra Flame dice come from. Fields are registry fields, so errors name the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core import Line
from ...fields import Field, validate
from ...i18n import Text as T
from ...sheetspec import SheetSpec, stat
from . import PoolSystem

SOURCE_FIELDS = (
    Field("flame", "int", T("Flamme", "Flame"), default=0, min=-10, max=10,
          help=T("Négative : Flamme noire.", "Negative: black Flame.")),
    Field("aspect", "int", T("Score d'aspect", "Aspect score"), default=0, min=0, max=10),
    Field("dark_aspect", "int", T("Score d'aspect noir", "Dark aspect score"), default=0,
          min=0, max=10),
    Field("linked", "bool", T("Caractéristique liée à l'aspect", "Characteristic linked to the "
                              "aspect"), default=True),
    Field("specialty", "bool", T("Spécialité", "Specialty"), default=False),
    Field("rewards", "int", T("Récompenses du MJ (action héroïque, description)",
                              "GM rewards (heroic action, description)"), default=0, min=0,
          max=5),
    Field("plain_roll", "bool", T("Le joueur se contente de lancer les dés",
                                  "The player just rolls the dice"), default=False),
    Field("eclat_flame_dice", "int", T("Éclat : dés de Flamme gagnés", "Éclat: Flame dice "
                                       "gained"), default=0, min=0, max=5),
    Field("eclat_augmentations", "int", T("Éclat : augmentations gagnées",
                                          "Éclat: augmentations gained"), default=0, min=0,
          max=5),
)


@dataclass(frozen=True)
class Source:
    id: str
    line: Line
    augmentations: int = 0
    diminutions: int = 0
    flame_dice: int = 0


def pool_sources(raw: Any) -> tuple[tuple[Source, ...], dict[str, int]]:
    """Augmentations, diminutions and extra Flame dice from a character's sources."""
    v = validate(SOURCE_FIELDS, raw)
    black = v["flame"] < 0
    sources: list[Source] = []
    if v["linked"]:
        # Light Flame: aspect -> augmentations, dark aspect -> diminutions. Black: reversed.
        aug_from, dim_from = ("dark_aspect", "aspect") if black else ("aspect", "dark_aspect")
        if v[aug_from]:
            sources.append(Source(aug_from, augmentations=v[aug_from],
                                  line=Line.of(f"sources.{aug_from}_aug", n=v[aug_from],
                                               black=black)))
        if v[dim_from]:
            sources.append(Source(dim_from, diminutions=v[dim_from],
                                  line=Line.of(f"sources.{dim_from}_dim", n=v[dim_from],
                                               black=black)))
    if v["specialty"]:
        sources.append(Source("specialty", augmentations=1, line=Line.of("sources.specialty")))
    if v["rewards"]:
        sources.append(Source("rewards", augmentations=v["rewards"],
                              line=Line.of("sources.rewards", n=v["rewards"])))
    if v["plain_roll"]:
        sources.append(Source("plain_roll", diminutions=1, line=Line.of("sources.plain_roll")))
    if v["eclat_flame_dice"] or v["eclat_augmentations"]:
        sources.append(Source("eclat", augmentations=v["eclat_augmentations"],
                              flame_dice=v["eclat_flame_dice"],
                              line=Line.of("sources.eclat", dice=v["eclat_flame_dice"],
                                           n=v["eclat_augmentations"])))
    totals = {
        "augmentations": sum(s.augmentations for s in sources),
        "diminutions": sum(s.diminutions for s in sources),
        "flame_dice": sum(s.flame_dice for s in sources),
    }
    return tuple(sources), totals


#: A pool character sheet (document 000): the Flame set on every roll, the aspect scores
#: the `sources` op turns into augmentations and diminutions (with each skill's `linked`
#: and `specialty`); a quick roll may change the DIFF and add points or dice.
SHEET = SheetSpec(
    stats=(stat(next(f for f in PoolSystem.fields if f.name == "flame")),
           stat(SOURCE_FIELDS[1]), stat(SOURCE_FIELDS[2])),
    set={"flame": "flame"},
    extras=tuple(f for f in SOURCE_FIELDS if f.name in ("linked", "specialty")),
    situation=(("diff", "replace"), ("augmentations", "add"), ("diminutions", "add"),
               ("modifiers", "append")),
)
