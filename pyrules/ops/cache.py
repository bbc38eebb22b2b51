"""The distributions the engine computed, kept: a bounded LRU keyed by (system id, params)
for ``odds`` and ``oppose_odds``. The luck and the chance in a roll's answer then cost
nothing once the odds panel asked for them (and the reverse)."""

from __future__ import annotations

import dataclasses
from bisect import bisect_left
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from ..core import Odds, OpposeOdds, System
from ..lru import LRU

MAX_ENTRIES = 128  # distributions kept
#: Chances kept in all: a free dice distribution may hold ten thousand fractions of a few
#: hundred digits (about 3 MB), so the cache is bounded by what it holds as well.
MAX_CHANCES = 100_000


def _weight(value: Any) -> int:
    """How many chances an entry holds (odds, ranks: one per margin)."""
    margins = getattr(value, "margins", None)
    return len(margins) if margins is not None else 1


ODDS = LRU(MAX_ENTRIES, _weight, MAX_CHANCES)


def params_key(system: System[Any], params: Any) -> Hashable:
    """What the odds of ``params`` depend on: every field but a placement (the odds assume
    the optimal one), as a hashable value."""
    cleared = {f.name: None for f in system.fields if f.kind == "placement"
               and hasattr(params, f.name)}
    if cleared:
        params = dataclasses.replace(params, **cleared)
    try:
        hash(params)
        return params  # type: ignore[no-any-return]
    except TypeError:  # pragma: no cover - every system's params are frozen dataclasses
        return repr(params)


def odds_of(system: System[Any], params: Any) -> Odds:
    return ODDS.get(("odds", system.id, params_key(system, params)),
                    lambda: system.odds(params))


def estimate_of(system: System[Any], params: Any) -> Odds | None:
    return ODDS.get(("estimate", system.id, params_key(system, params)),
                    lambda: system.estimate_odds(params))


class Ranks:
    """The mid-rank percentile of any margin under fixed odds, in O(log n): the cumulative
    chances are summed once (``stats.percentile`` sums them on every call)."""

    def __init__(self, odds: Odds) -> None:
        pairs = sorted(odds.margins)
        self.margins = [m for m, _ in pairs]
        self.chances = dict(pairs)
        self.below: list[Fraction] = []
        total = Fraction(0)
        for _, p in pairs:
            self.below.append(total)
            total += p
        self.total = total

    def percentile(self, margin: int) -> Fraction:
        """P(lower) + P(equal) / 2, as :func:`pyrules.stats.percentile`."""
        i = bisect_left(self.margins, margin)
        below = self.below[i] if i < len(self.below) else self.total
        return below + self.chances.get(margin, Fraction(0)) / 2


def ranks_of(system: System[Any], params: Any) -> Ranks:
    return ODDS.get(("ranks", system.id, params_key(system, params)),
                    lambda: Ranks(odds_of(system, params)))


def oppose_odds_of(system: System[Any], actor: Any, opponent: Any) -> OpposeOdds:
    key = ("oppose", system.id, params_key(system, actor), params_key(system, opponent))
    return ODDS.get(key, lambda: system.oppose_odds(actor, opponent))
