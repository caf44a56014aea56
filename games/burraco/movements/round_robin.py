"""Round robin (all'italiana): each pair meets every other pair of its group once.

Pairs 1..N are split into ``groups`` groups of consecutive numbers, as even as
possible (the larger groups first). Each group plays the circle method (Berger
tables): one pair stays put, the others turn round it, so the calendar is fixed
and a group of n pairs meets in n - 1 turns (n even) or n turns (n odd: one pair
of the group rests each turn, each exactly once). Asking for fewer turns gives
the calendar's first turns: nobody meets anyone twice, nobody rests twice.
Tables are numbered across the groups, group 1 first.

Sides: at each table the pair that has sat NS less often so far sits NS (then the
one that sat EW last turn, then the lower number), so nobody sits on one line all
evening.
"""

from __future__ import annotations

from collections import Counter

from .errors import MovementError
from .schedule import Schedule, make_turn


def split_groups(pairs: int, groups: int) -> list[list[int]]:
    """Pairs 1..``pairs`` in ``groups`` blocks of consecutive numbers, sizes differing by one."""
    size, extra = divmod(pairs, groups)
    result, start = [], 1
    for index in range(groups):
        length = size + (1 if index < extra else 0)
        result.append(list(range(start, start + length)))
        start += length
    return result


def calendar_length(size: int) -> int:
    """Turns for a group of ``size`` pairs to meet all once."""
    return size - 1 if size % 2 == 0 else size


def _circle(members: list[int], turn: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Turn ``turn`` (0-based) of the circle method for ``members``: tables and byes."""
    places: list[int | None] = list(members)
    if len(places) % 2:
        places.append(None)
    n = len(places)
    fixed = places[-1]
    ring = places[:-1]
    size = n - 1
    tables: list[tuple[int, int]] = []
    byes: list[int] = []
    pairings = [(ring[turn % size], fixed)]
    for i in range(1, n // 2):
        pairings.append((ring[(turn + i) % size], ring[(turn - i) % size]))
    for a, b in pairings:
        if a is None or b is None:
            byes.append(a if b is None else b)  # type: ignore[arg-type]
            continue
        tables.append((a, b))
    return tables, byes


def round_robin(pairs: int, turns: int, groups: int = 1) -> Schedule:
    """The first ``turns`` turns of a round robin of pairs 1..``pairs`` in ``groups`` groups."""
    if turns < 1:
        raise MovementError("invalid_turns", f"turns must be 1 or more, not {turns}", turns=turns)
    if groups < 1 or pairs < 2 * groups:
        raise MovementError(
            "invalid_groups",
            f"{pairs} pairs cannot make {groups} groups of at least 2 pairs",
            groups=groups,
            pairs=pairs,
        )
    blocks = split_groups(pairs, groups)
    maximum = min(calendar_length(len(block)) for block in blocks)
    if turns > maximum:
        raise MovementError(
            "too_many_turns",
            f"a round robin of {pairs} pairs"
            + (f" in {groups} groups" if groups > 1 else "")
            + f" is complete after {maximum} turns (everyone has met everyone of their "
            f"group); ask for at most {maximum}",
            turns=turns,
            maximum=maximum,
            reason="complete",
        )
    result = []
    north: Counter[int] = Counter()
    last_ew: set[int] = set()
    for turn in range(turns):
        sides: list[tuple[int, int]] = []
        byes: list[int] = []
        for block in blocks:
            tables, rest = _circle(block, turn)
            for a, b in tables:
                ns, ew = sorted((a, b), key=lambda p: (north[p], p not in last_ew, p))
                sides.append((ns, ew))
            byes.extend(rest)
        north.update(ns for ns, _ in sides)
        last_ew = {ew for _, ew in sides}
        result.append(make_turn(turn + 1, sides, byes))
    return Schedule(tuple(result))
