"""Individual tournaments: partners change every turn, two players a side.

Players 1..N, relabelled by a draw from the seed; N % 4 players rest each turn.
Nobody rests twice while another has not rested.

For 4, 5, 8, 12, 13 and 16 players a cyclic whist schedule is looked for first
(``games.burraco.movements.whist``): over its N - 1 turns (N for 4k + 1 players, one
resting a turn) everyone partners everyone once and opposes everyone twice
(docs/rules/burraco.md's 8 players in 7 turns). The search is seeded and bounded: 4, 5, 8 and
12 are found at once, 13 and 16 for some seeds only; otherwise, as below.

N = 4k or 4k + 1: partnerships follow the circle method (a round robin of
partners): with N = 4k everyone partners everyone exactly once in N - 1 turns;
with N = 4k + 1 a phantom joins and its partner rests, so in N turns everyone
partners everyone once and rests once. Beyond that the cycle starts again.

N = 4k + 2 or 4k + 3: each turn the byes go to the players with the fewest byes
(then the longest since their last, then the draw), and the others are paired by
an exact matching that avoids earlier partners; a dead end late in the cycle is
met with a fresh draw (``_matched_partners``). No repeat within N - 1 (even N)
or N (odd N) turns for every size and seed the tests try: checked, not proved.

Tables (outside whist schedules): each turn's partnerships are paired at tables
so that opponents repeat as little as possible (a minimum-cost matching per turn,
each repeat costing more than the last, then passes that re-seat one turn against
all the others until nothing improves). Opponents are then spread, not exactly
balanced.
"""

from __future__ import annotations

import random
from collections import Counter

from .errors import MovementError
from .schedule import Schedule, Turn, make_turn
from .whist import find_cyclic_whist

Partnership = tuple[int, int]

# Sizes for which a cyclic whist schedule is looked for (the search found none for 9 and,
# past 16, would take seconds), and its budget in swaps (well under a second).
WHIST_SIZES = frozenset({4, 5, 8, 12, 13, 16})
WHIST_STEPS = 40_000

# Fresh draws tried when the turn-by-turn partner matching runs into a forced repeat.
ATTEMPTS = 30


def _partnerships(labels: list[int | None], turn: int) -> list[tuple[int | None, int | None]]:
    fixed = labels[-1]
    ring = labels[:-1]
    size = len(ring)
    result = [(ring[turn % size], fixed)]
    for i in range(1, len(labels) // 2):
        result.append((ring[(turn + i) % size], ring[(turn - i) % size]))
    return result


def _fair_byes(
    players: list[int], count: int, byes: Counter[int], last: dict[int, int], lot: dict[int, float]
) -> list[int]:
    """The ``count`` players with the fewest byes, longest since their last, then by draw."""
    return sorted(players, key=lambda p: (byes[p], last.get(p, -1), lot[p]))[:count]


def _new_partners_quickly(
    active: list[int], partnered: Counter[tuple[int, int]], rng: random.Random
) -> list[Partnership] | None:
    free = set(active)
    options = {
        a: {b for b in active if b != a and not partnered[(min(a, b), max(a, b))]} for a in active
    }
    result = []
    while free:
        first = min(free, key=lambda p: (len(options[p]), p))
        if not options[first]:
            return None
        other = rng.choice(sorted(options[first]))
        for p in (first, other):
            free.discard(p)
            for q in options.pop(p):
                if q in options:
                    options[q].discard(p)
        result.append((min(first, other), max(first, other)))
    return sorted(result)


def _pair_players(
    active: list[int], partnered: Counter[tuple[int, int]], rng: random.Random
) -> list[Partnership]:
    """Partnerships of ``active`` with the fewest repeated partners.

    First a quick pass (the player with the fewest new partners left takes one of
    them, drawn); when it leaves someone without a new partner, an exact matching.
    """
    quick = _new_partners_quickly(active, partnered, rng)
    if quick is not None:
        return quick
    import networkx as nx  # imported when needed: it takes a good part of a second

    graph = nx.Graph()
    order = [(a, b) for i, a in enumerate(active) for b in active[i + 1 :]]
    rng.shuffle(order)
    top = len(active) * len(active) + 1
    repeat = top * len(active)  # above the sum of the tie-breaking draws of any pairing
    for a, b in order:
        key = (min(a, b), max(a, b))
        graph.add_edge(a, b, weight=repeat * (top - partnered[key]) + rng.randrange(top))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matching)


def _seat_turn(
    partnerships: list[Partnership], opposed: Counter[tuple[int, int]], rng: random.Random
) -> list[tuple[Partnership, Partnership]]:
    """Pair partnerships at tables, each extra meeting of two opponents costing more."""
    import networkx as nx  # imported when needed: it takes a good part of a second

    graph = nx.Graph()
    count = len(partnerships)
    costs = {}
    for i in range(count):
        for j in range(i + 1, count):
            cost = sum(
                2 * opposed[(min(a, b), max(a, b))] + 1
                for a in partnerships[i]
                for b in partnerships[j]
            )
            costs[(i, j)] = cost
    top = max(costs.values(), default=0) + 1
    order = list(costs)
    rng.shuffle(order)  # ties broken by the draw, not by the numbering
    for i, j in order:
        graph.add_edge(i, j, weight=top - costs[(i, j)])
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return [(partnerships[min(i, j)], partnerships[max(i, j)]) for i, j in matching]


def _count(tables: list[tuple[Partnership, Partnership]], opposed: Counter, sign: int) -> None:
    for ns, ew in tables:
        for a in ns:
            for b in ew:
                opposed[(min(a, b), max(a, b))] += sign


def _matched_partners(
    people: list[int], turns: int, lot: dict[int, float], seed: int
) -> tuple[list[list[Partnership]], list[list[int]]]:
    """Byes turn by turn, then partners by an exact matching avoiding earlier partners.

    Turn by turn a dead end is possible late in the cycle (a repeat forced while a
    schedule without one exists): then the draw is made again, up to ``ATTEMPTS``
    times, and the schedule with the fewest repeats is kept.
    """
    cycle = len(people) - 1 + len(people) % 2
    best: tuple[int, list[list[Partnership]], list[list[int]]] | None = None
    for attempt in range(ATTEMPTS):
        rng = random.Random(f"{seed}:{attempt}")
        byes: Counter[int] = Counter()
        last: dict[int, int] = {}
        partnered: Counter[tuple[int, int]] = Counter()
        playing: list[list[Partnership]] = []
        forced: list[list[int]] = []
        repeats = 0
        for turn in range(turns):
            resting = _fair_byes(people, len(people) % 4, byes, last, lot)
            for p in resting:
                byes[p] += 1
                last[p] = turn
            active = [p for p in people if p not in resting]
            partnerships = _pair_players(active, partnered, rng)
            for key in partnerships:
                if partnered[key] and turn < cycle:
                    repeats += 1
                partnered[key] += 1
            playing.append(partnerships)
            forced.append(resting)
        if best is None or repeats < best[0]:
            best = (repeats, playing, forced)
        if repeats == 0:
            break
    assert best is not None
    return best[1], best[2]


def individual(players: int, turns: int, seed: int = 0) -> Schedule:
    """``turns`` turns of an individual tournament for players 1..``players``."""
    if players < 4:
        raise MovementError(
            "too_few_players",
            f"an individual tournament needs at least 4 players, not {players}",
            count=players,
            minimum=4,
        )
    if turns < 1:
        raise MovementError("invalid_turns", f"turns must be 1 or more, not {turns}", turns=turns)
    rng = random.Random(seed)
    people = list(range(1, players + 1))
    rng.shuffle(people)
    lot = {p: rng.random() for p in people}
    playing: list[list[Partnership]] = []
    forced: list[list[int]] = []
    whist = None
    if players in WHIST_SIZES:
        whist = find_cyclic_whist(players, random.Random(f"whist:{seed}"), WHIST_STEPS)
    if whist is not None:
        seated = []
        for turn in range(turns):
            design = whist[turn % len(whist)]
            tables = [
                (_couple(people[p0], people[p1]), _couple(people[q0], people[q1]))
                for (p0, p1), (q0, q1) in design
            ]
            seated.append(tables)
            sitting = {x for table in tables for side in table for x in side}
            forced.append([p for p in people if p not in sitting])
        return _schedule(seated, forced)
    if players % 4 in (0, 1):
        # The circle method: with an odd count a phantom joins and its partner rests.
        labels: list[int | None] = [*people, None] if players % 2 else list(people)
        cycle = len(labels) - 1
        for turn in range(turns):
            real, alone = [], []
            for a, b in _partnerships(labels, turn % cycle):
                if a is None or b is None:
                    alone.append(a if b is None else b)
                else:
                    real.append((min(a, b), max(a, b)))
            playing.append(sorted(real))
            forced.append(alone)  # type: ignore[arg-type]
    else:
        playing, forced = _matched_partners(people, turns, lot, seed)
    opposed: Counter[tuple[int, int]] = Counter()
    seated: list[list[tuple[Partnership, Partnership]]] = []
    for partnerships in playing:
        tables = _seat_turn(partnerships, opposed, rng)
        _count(tables, opposed, +1)
        seated.append(tables)
    for _ in range(3):  # re-seat each turn against all the others until nothing improves
        before = sum(c * c for c in opposed.values())
        for index, partnerships in enumerate(playing):
            _count(seated[index], opposed, -1)
            seated[index] = _seat_turn(partnerships, opposed, rng)
            _count(seated[index], opposed, +1)
        if sum(c * c for c in opposed.values()) >= before:
            break
    return _schedule(seated, forced)


def _couple(a: int, b: int) -> Partnership:
    return (min(a, b), max(a, b))


def _schedule(
    seated: list[list[tuple[Partnership, Partnership]]], forced: list[list[int]]
) -> Schedule:
    result = []
    for index, tables in enumerate(seated):
        tables = sorted(tables)
        sides = [
            (ns, ew) if (index + t) % 2 == 0 else (ew, ns) for t, (ns, ew) in enumerate(tables)
        ]
        result.append(make_turn(index + 1, sides, forced[index]))
    return Schedule(tuple(result))


def next_individual_turn(
    players: list[int],
    number: int,
    *,
    partnered: Counter[tuple[int, int]] | None = None,
    opposed: Counter[tuple[int, int]] | None = None,
    byes: Counter[int] | None = None,
    last_bye: dict[int, int] | None = None,
    seed: int = 0,
) -> Turn:
    """Turn ``number`` of an individual tournament from what was played before it.

    For a tournament whose players changed (a late entry, a withdrawal) or that goes on
    past its planned schedule: ``players`` are the entry numbers still playing;
    ``partnered`` and ``opposed`` count earlier partnerships and oppositions (keys
    ``(low, high)``), ``byes`` each player's byes and ``last_bye`` the turn of their
    latest. The N % 4 byes go to those with the fewest byes (then the longest since
    their last, then the draw); partners avoid earlier partners by an exact matching
    when a quick pass cannot; tables avoid repeated opponents.
    """
    if len(players) < 4:
        raise MovementError(
            "too_few_players",
            f"an individual tournament needs at least 4 players, not {len(players)}",
            count=len(players),
            minimum=4,
        )
    rng = random.Random(f"{seed}:{number}")
    partnered = Counter(partnered or {})
    opposed = Counter(opposed or {})
    byes = Counter(byes or {})
    lot = {p: rng.random() for p in players}
    resting = _fair_byes(sorted(players), len(players) % 4, byes, last_bye or {}, lot)
    active = [p for p in sorted(players) if p not in resting]
    tables = sorted(_seat_turn(_pair_players(active, partnered, rng), opposed, rng))
    sides = [(ns, ew) if t % 2 == 0 else (ew, ns) for t, (ns, ew) in enumerate(tables)]
    return make_turn(number, sides, resting)
