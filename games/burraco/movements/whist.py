"""Cyclic whist schedules: every player partners every other once and opposes them twice.

A whist schedule for N = 4k players (N - 1 turns) or N = 4k + 1 (N turns, one
player resting each turn) is what docs/rules/burraco.md asks of an individual tournament
("8 players in 7 turns: everyone partners everyone once and opposes everyone
twice"). We look for a cyclic one: players are the numbers mod m (m = N - 1,
plus a fixed player "infinity", for 4k; m = N for 4k + 1, where the player 0 of
the first turn rests), and turn t is the first turn with t added to every
number. Then it is enough that, in the first turn, the partners' differences
(±d mod m) cover every difference once and the opponents' differences cover
every difference twice.

The first turn is found by a seeded local search (swap two seats, keep the swap
unless it makes things worse) within a bounded number of steps; ``None`` when
none was found, and the caller falls back to its own method.
"""

from __future__ import annotations

import random

# Seats of the first turn: [p0, p1, q0, q1] per table; p partners p, q partners q.
Round = list[tuple[tuple[int, int], tuple[int, int]]]


def _cost(seats: list[int], m: int, infinity: int) -> int:
    half = m // 2
    partner = [0] * (half + 1)
    opponent = [0] * (half + 1)

    def cls(a: int, b: int) -> int:
        d = (a - b) % m
        return min(d, m - d)

    for i in range(0, len(seats), 4):
        p0, p1, q0, q1 = seats[i : i + 4]
        for a, b in ((p0, p1), (q0, q1)):
            if infinity not in (a, b):
                partner[cls(a, b)] += 1
        for a in (p0, p1):
            for b in (q0, q1):
                if infinity not in (a, b):
                    opponent[cls(a, b)] += 1
    return sum(abs(c - 1) for c in partner[1:]) + sum(abs(c - 2) for c in opponent[1:])


def find_cyclic_whist(players: int, rng: random.Random, max_steps: int) -> list[Round] | None:
    """All turns of a cyclic whist schedule for players 0..players-1, or None."""
    if players % 4 not in (0, 1) or players < 4:
        return None
    if players % 4 == 0:
        m, infinity = players - 1, players - 1  # numbers 0..m-1 and "infinity" = m
        seats = list(range(players))
    else:
        m, infinity = players, -1  # 0 rests in the first turn; it takes no seat
        seats = list(range(1, players))
    steps = 0
    while steps < max_steps:
        rng.shuffle(seats)
        cost = _cost(seats, m, infinity)
        stale = 0
        while cost and steps < max_steps and stale < 2000:
            steps += 1
            i, j = rng.randrange(len(seats)), rng.randrange(len(seats))
            seats[i], seats[j] = seats[j], seats[i]
            new = _cost(seats, m, infinity)
            if new <= cost:
                stale = stale + 1 if new == cost else 0
                cost = new
            else:
                seats[i], seats[j] = seats[j], seats[i]
                stale += 1
        if cost == 0:
            break
    else:
        return None
    if cost:
        return None
    rounds: list[Round] = []
    for t in range(m):

        def shift(x: int, t: int = t) -> int:
            return x if x == infinity else (x + t) % m

        turn: Round = []
        for i in range(0, len(seats), 4):
            p0, p1, q0, q1 = (shift(x) for x in seats[i : i + 4])
            turn.append(((p0, p1), (q0, q1)))
        rounds.append(turn)
    return rounds
