"""Known repeat-free seatings (social golfer solutions) built from small designs.

Two families, both checked by the tests:

* Cyclic: players are points ``(x, j)`` with ``x`` in Z_m and ``j`` a class, plus a
  few fixed points; one base round is developed by adding 1..m-1 to every ``x``,
  giving m rounds. Every difference between two classes (and within a class)
  occurs at most once in the base round, so no pair meets twice. The base rounds
  below were found by a small exhaustive search; for 28 players the result is a
  Kirkman-style resolvable design (every pair meets exactly once in 9 rounds).
* Spreads: 2**k players are the vectors of GF(2)**k and a round is the cosets of a
  2-dimensional subspace; subspaces meeting only in 0 never seat a pair twice. For
  even k the GF(4)-lines give (2**k - 1) / 3 rounds (16 players: the affine plane
  AG(2, 4), 5 rounds); for 32 players a partial spread gives 9 rounds.
"""

from __future__ import annotations

from functools import cache

Rounds = list[list[list[int]]]

_INF = -1

# players: (modulus m, classes k, fixed points f, base round); point (x, j) or (_INF, a).
_CYCLIC: dict[int, tuple[int, int, int, list[list[tuple[int, int]]]]] = {
    16: (
        5,
        3,
        1,
        [
            [(_INF, 0), (0, 0), (0, 1), (0, 2)],
            [(1, 0), (4, 0), (2, 1), (3, 1)],
            [(2, 0), (3, 0), (1, 2), (4, 2)],
            [(1, 1), (4, 1), (2, 2), (3, 2)],
        ],
    ),
    20: (
        5,
        4,
        0,
        [
            [(0, 0), (1, 0), (0, 1), (2, 1)],
            [(2, 0), (4, 0), (0, 2), (1, 2)],
            [(3, 0), (1, 1), (3, 2), (0, 3)],
            [(3, 1), (4, 1), (1, 3), (4, 3)],
            [(2, 2), (4, 2), (2, 3), (3, 3)],
        ],
    ),
    24: (
        7,
        3,
        3,
        [
            [(_INF, 0), (0, 0), (0, 1), (0, 2)],
            [(_INF, 1), (1, 0), (2, 1), (4, 2)],
            [(_INF, 2), (3, 0), (6, 1), (5, 2)],
            [(2, 0), (4, 0), (5, 0), (3, 2)],
            [(6, 0), (1, 1), (3, 1), (4, 1)],
            [(5, 1), (1, 2), (2, 2), (6, 2)],
        ],
    ),
    28: (
        9,
        3,
        1,
        [
            [(_INF, 0), (0, 0), (0, 1), (0, 2)],
            [(1, 0), (3, 0), (6, 0), (5, 1)],
            [(2, 0), (3, 2), (4, 2), (6, 2)],
            [(4, 0), (5, 0), (2, 1), (1, 2)],
            [(7, 0), (1, 1), (8, 1), (5, 2)],
            [(8, 0), (4, 1), (2, 2), (7, 2)],
            [(3, 1), (6, 1), (7, 1), (8, 2)],
        ],
    ),
}


def _cyclic_rounds(player_count: int) -> Rounds:
    modulus, classes, _fixed, base = _CYCLIC[player_count]

    def number(point: tuple[int, int], shift: int) -> int:
        x, j = point
        if x == _INF:
            return modulus * classes + j
        return j * modulus + (x + shift) % modulus

    return [[[number(p, shift) for p in group] for group in base] for shift in range(modulus)]


def _gf4_spread(bits: int) -> list[tuple[int, int, int]]:
    """The 1-dimensional GF(4)-subspaces of GF(4)**(bits/2), as GF(2) lines {v, wv, w²v}."""

    def times_omega(v: int) -> int:
        out = 0
        for i in range(0, bits, 2):
            b0, b1 = (v >> i) & 1, (v >> (i + 1)) & 1
            out |= (b1 | ((b0 ^ b1) << 1)) << i
        return out

    seen: set[int] = set()
    lines = []
    for v in range(1, 2**bits):
        if v in seen:
            continue
        w = times_omega(v)
        line = (v, w, v ^ w)
        seen.update(line)
        lines.append(line)
    return lines


def _partial_spread(bits: int, wanted: int, node_cap: int = 200_000) -> list[tuple[int, int, int]]:
    """Pairwise disjoint GF(2) lines found by a bounded depth-first search (odd ``bits``)."""
    lines = sorted(
        {
            tuple(sorted((u, v, u ^ v)))
            for u in range(1, 2**bits)
            for v in range(u + 1, 2**bits)
            if (u ^ v) > v
        }
    )
    best: list[tuple[int, int, int]] = []
    chosen: list[tuple[int, int, int]] = []
    used: set[int] = set()
    nodes = 0

    def search(start: int) -> bool:
        nonlocal nodes, best
        nodes += 1
        if len(chosen) > len(best):
            best = list(chosen)
        if len(chosen) == wanted or nodes > node_cap:
            return True
        for i in range(start, len(lines)):
            line = lines[i]
            if used.isdisjoint(line):
                chosen.append(line)
                used.update(line)
                if search(i + 1):
                    return True
                chosen.pop()
                used.difference_update(line)
        return False

    search(0)
    return best


def _spread_rounds(bits: int) -> Rounds:
    even = bits % 2 == 0
    lines = _gf4_spread(bits) if even else _partial_spread(bits, (2**bits - 5) // 3)
    rounds = []
    for line in lines:
        subspace = (0, *line)
        groups, seen = [], set()
        for x in range(2**bits):
            if x not in seen:
                group = [x ^ s for s in subspace]
                seen.update(group)
                groups.append(group)
        rounds.append(groups)
    return rounds


@cache
def known_rounds(player_count: int) -> Rounds:
    """The longest repeat-free seating known here for ``player_count`` players (0..n-1).

    Empty when no construction applies. Callers must copy before changing it.
    """
    if player_count in _CYCLIC:
        return _cyclic_rounds(player_count)
    bits = player_count.bit_length() - 1
    # Odd sizes above 32 would need a long search for a good partial spread.
    if player_count >= 16 and player_count == 2**bits and (bits % 2 == 0 or bits == 5):
        return _spread_rounds(bits)
    return []
