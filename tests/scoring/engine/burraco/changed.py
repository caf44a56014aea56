"""The records the validation tests change: a valid one with one value replaced."""

from __future__ import annotations

import copy
from typing import Any

from tests.scoring.engine.burraco.records import FORMAT_HAND, record

OK_HAND = FORMAT_HAND


def with_value(path: list[Any], value: Any, base: dict[str, Any] | None = None) -> dict[str, Any]:
    """A valid one-hand turn with the value at path replaced (a missing key: value ...)."""
    out = copy.deepcopy(base or record([OK_HAND]))
    target = out
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


def with_hand(h: dict[str, Any], ruleset: Any = "fibur") -> dict[str, Any]:
    return record([h], ruleset=ruleset)


INTERNATIONAL = "international"
