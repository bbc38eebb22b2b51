"""A small least-recently-used map: the engine's bounded caches (odds, checked sheets)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

V = TypeVar("V")


class LRU:
    """A small least-recently-used map with at most ``size`` entries and, when ``weigh`` is
    given, at most ``weight`` in all (the newest entry stays, however heavy)."""

    def __init__(self, size: int, weigh: Callable[[Any], int] | None = None,
                 weight: int = 0) -> None:
        self.size = size
        self.weigh, self.weight = weigh, weight
        self.data: OrderedDict[Hashable, Any] = OrderedDict()
        self.weights: dict[Hashable, int] = {}
        self.hits = self.misses = 0

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        if key in self.data:
            self.hits += 1
            self.data.move_to_end(key)
            value: V = self.data[key]
            return value
        self.misses += 1
        value = make()
        self.data[key] = value
        self.weights[key] = self.weigh(value) if self.weigh else 0
        while len(self.data) > 1 and (len(self.data) > self.size
                                      or sum(self.weights.values()) > self.weight > 0):
            old, _ = self.data.popitem(last=False)
            del self.weights[old]
        return value

    def clear(self) -> None:
        self.data.clear()
        self.weights.clear()
        self.hits = self.misses = 0
