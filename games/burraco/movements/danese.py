"""Danese (Danish) movement: the next turn seated by the standings so far.

Variants (docs/rules/burraco.md):
    ``pure``: 1st v 2nd, 3rd v 4th, ... by the ranking.
    ``modified``: the same, but never the opponent of the previous turn, except on
    the tournament's last turn (then as ``pure``). Seated top down: the best pair
    not yet seated plays the next one below it that was not its previous opponent;
    when that leaves the last pairs stuck, the nearest choice above is changed
    (backtracking), so the pairing is the first valid one in that top-down order.
    With two pairs only, which met last turn, they play again.
    ``no_rematch``: never an earlier opponent while any pairing without one exists;
    among those, the smallest sum of rank distances between opponents (ties: the
    smaller sum of squared distances), a true minimum (``matching.pair_ranks``).
    Decision (docs/rules/burraco.md is silent): when every pairing has a rematch, the fewest
    rematches first, then the smallest distance.

Ranks count the pairs that play the turn (the pair on a bye is left out), so the
pairs on either side of it are neighbours.

Bye (an odd number of pairs): the lowest-ranked pair among those with the fewest
byes so far, in every variant.

Tables are numbered in rank order of their better pair, which sits NS.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import MovementError
from .matching import pair_ranks
from .schedule import Schedule, make_turn

VARIANTS = ("pure", "modified", "no_rematch")


@dataclass(frozen=True)
class PairStanding:
    """One line of the standings: a pair number and what the movement needs of it."""

    pair: int
    vp: float = 0
    mp: float = 0
    previous: int | None = None
    met: frozenset[int] = field(default_factory=frozenset)
    byes: int = 0


@dataclass(frozen=True)
class Standings:
    """The pairs best first, and whether the turn to seat is the tournament's last."""

    pairs: tuple[PairStanding, ...]
    last_turn: bool = False


def choose_bye(pairs: Sequence[PairStanding]) -> PairStanding | None:
    """The lowest-ranked pair among those with the fewest byes; None for an even count."""
    if len(pairs) % 2 == 0:
        return None
    fewest = min(p.byes for p in pairs)
    return [p for p in pairs if p.byes == fewest][-1]


def _pure(count: int) -> list[tuple[int, int]]:
    return [(r, r + 1) for r in range(0, count, 2)]


def _top_down(count: int, forbidden: Sequence[set[int]]) -> list[tuple[int, int]] | None:
    """The first pairing, top down, with no forbidden opponent; None when there is none."""
    seated = [False] * count
    pairing: list[tuple[int, int]] = []

    def seat(start: int) -> bool:
        while start < count and seated[start]:
            start += 1
        if start == count:
            return True
        seated[start] = True
        for other in range(start + 1, count):
            if seated[other] or other in forbidden[start]:
                continue
            seated[other] = True
            pairing.append((start, other))
            if seat(start + 1):
                return True
            pairing.pop()
            seated[other] = False
        seated[start] = False
        return False

    return pairing if seat(0) else None


def next_danese_turn(standings: Standings, variant: str, turn: int = 1) -> Schedule:
    """Seat the next turn of a Danese movement from ``standings`` (best first)."""
    if variant not in VARIANTS:
        raise MovementError(
            "unknown_variant",
            f"unknown Danese variant {variant!r}: use one of {', '.join(VARIANTS)}",
            variant=variant,
            variants=list(VARIANTS),
        )
    if len(standings.pairs) < 2:
        raise MovementError(
            "too_few_pairs",
            f"a Danese turn needs at least 2 pairs, not {len(standings.pairs)}",
            count=len(standings.pairs),
            minimum=2,
        )
    bye = choose_bye(standings.pairs)
    playing = [p for p in standings.pairs if p is not bye]
    rank_of = {p.pair: r for r, p in enumerate(playing)}
    count = len(playing)
    if variant == "pure" or (variant == "modified" and standings.last_turn):
        ranks = _pure(count)
    elif variant == "modified":
        previous: list[set[int]] = [set() for _ in range(count)]
        for r, p in enumerate(playing):
            if p.previous is not None and p.previous in rank_of:
                previous[r].add(rank_of[p.previous])
                previous[rank_of[p.previous]].add(r)
        ranks = _top_down(count, previous) or _pure(count)
    else:
        met: list[set[int]] = [set() for _ in range(count)]
        for r, p in enumerate(playing):
            earlier = set(p.met) | ({p.previous} if p.previous is not None else set())
            for other in earlier:
                if other in rank_of:
                    met[r].add(rank_of[other])
                    met[rank_of[other]].add(r)
        ranks = pair_ranks(count, met)
    sides = [(playing[a].pair, playing[b].pair) for a, b in sorted(ranks)]
    notes = []
    if variant != "pure":
        by_pair = {p.pair: p for p in playing}
        again = [
            (ns, ew)
            for ns, ew in sides
            if (variant == "modified" and not standings.last_turn and by_pair[ns].previous == ew)
            or (variant == "no_rematch" and (ew in by_pair[ns].met or ns in by_pair[ew].met))
        ]
        if again:
            what = "their previous opponent" if variant == "modified" else "an earlier opponent"
            notes.append(
                f"no pairing avoids {what}: "
                + ", ".join(f"{ns} v {ew}" for ns, ew in again)
                + (" meet again" if len(again) > 1 else " meets again")
            )
    return Schedule((make_turn(turn, sides, [bye.pair] if bye else []),), tuple(notes))
