"""Property checks shared by the movement tests: they read only a schedule's JSON."""

from __future__ import annotations

from collections import Counter
from typing import Any


def sides(table: dict[str, Any]) -> tuple[Any, Any]:
    return table["NS"], table["EW"]


def people(side: Any) -> list[int]:
    return list(side) if isinstance(side, list) else [side]


def assert_everyone_once(schedule: dict[str, Any], entrants: list[int]) -> None:
    """Each turn seats every entrant exactly once or gives them the bye; tables are 1..k."""
    for turn in schedule["turns"]:
        seen = list(turn["byes"])
        numbers = [table["table"] for table in turn["tables"]]
        assert len(set(numbers)) == len(numbers) and all(n >= 1 for n in numbers)
        for table in turn["tables"]:
            for side in sides(table):
                seen.extend(people(side))
        assert sorted(seen) == sorted(entrants), turn


def assert_byes_fair(schedule: dict[str, Any], entrants: list[int]) -> None:
    """Nobody rests twice while another has not rested: after every turn, byes differ by 1."""
    byes = Counter({e: 0 for e in entrants})
    for turn in schedule["turns"]:
        byes.update(turn["byes"])
        assert max(byes.values()) - min(byes.values()) <= 1, (turn["turn"], byes)


def meetings(schedule: dict[str, Any]) -> Counter[frozenset[int]]:
    """How often each two pairs (or two opponents) faced each other."""
    met: Counter[frozenset[int]] = Counter()
    for turn in schedule["turns"]:
        for table in turn["tables"]:
            for a in people(table["NS"]):
                for b in people(table["EW"]):
                    met[frozenset((a, b))] += 1
    return met
