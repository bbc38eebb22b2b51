"""A small least-recently-used map: the engine's bounded caches (odds, checked sheets)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

V = TypeVar("V")


class LRU:
    """A small least-recently-used map with at most ``size`` entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[Hashable, Any] = OrderedDict()
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
        if len(self.data) > self.size:
            self.data.popitem(last=False)
        return value

    def clear(self) -> None:
        self.data.clear()
        self.hits = self.misses = 0
