"""Head-to-head, the tie-break among players level on everything before it: pure
arithmetic (no Django), used by scoring/standings.py's rank().

Each player of a group scores the players of the group they finished ahead of, minus
those who finished ahead of them, over every game two of them played at the same table
(a level total counts nothing). Either from the games themselves (head_to_head, Games),
or from the games' pair scores (pair_nets: each player's net score against each player
of their group), which a database can count without handing over the games
(scoring/aggregates.py, head_to_head_pairs; issue 20): head_to_head_of_pairs gives the
same numbers from them, for any part of a group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoring.standings import GameResult


def head_to_head(group: Sequence[int], results: Iterable[GameResult]) -> dict[int, Fraction]:
    """Among these players: for each, the players of the group beaten minus those lost to,
    over every game two of them played at the same table (a level total counts half)."""
    members = set(group)
    score = dict.fromkeys(group, 0)  # whole numbers: one Fraction each at the end
    for result in results:
        totals = result.totals
        present = [p for p in totals if p in members]
        for i, a in enumerate(present):
            ta = totals[a]
            for b in present[i + 1 :]:
                tb = totals[b]
                if ta > tb:
                    score[a] += 1
                    score[b] -= 1
                elif tb > ta:
                    score[b] += 1
                    score[a] -= 1
    return {p: Fraction(v) for p, v in score.items()}


# Head-to-head from pair scores: for each player, their net score against each player of
# their group they met (games won minus games lost against them; a level total is 0).
PairNets = Mapping[int, Mapping[int, int]]


def pair_nets(results: Iterable[GameResult], groups: Iterable[Iterable[int]]) -> PairNets:
    """Each player's net score against each other player of their own group, over the games
    both played (a player of several groups is compared within each): what head_to_head
    sums for any part of a group. The reference for the same scores counted in SQL
    (scoring/aggregates.py, head_to_head_pairs)."""
    group_of: dict[int, set[int]] = {}
    for group in groups:
        members = set(group)
        for p in members:
            group_of.setdefault(p, set()).update(members)
    nets: dict[int, dict[int, int]] = {}
    for result in results:
        totals = result.totals
        present = [p for p in totals if p in group_of]
        for i, a in enumerate(present):
            for b in present[i + 1 :]:
                if b not in group_of[a]:
                    continue
                ta, tb = totals[a], totals[b]
                net = (ta > tb) - (ta < tb)
                mine, theirs = nets.setdefault(a, {}), nets.setdefault(b, {})
                mine[b] = mine.get(b, 0) + net
                theirs[a] = theirs.get(a, 0) - net
    return nets


def head_to_head_of_pairs(group: Sequence[int], nets: PairNets) -> dict[int, Fraction]:
    """head_to_head(group, games) from the pair scores of the games: for each player, the
    sum of their net scores against the other players of the group."""
    members = set(group)
    out = {}
    for p in group:
        against = nets.get(p, {})
        out[p] = Fraction(sum(v for q, v in against.items() if q in members))
    return out


class Games:
    """The games for head-to-head, loaded at most once, indexed by player."""

    def __init__(
        self,
        results: Sequence[GameResult] | Callable[[set[int]], Sequence[GameResult]],
        players: set[int],
    ):
        self.results, self.players = results, players
        self.index: dict[int, list[GameResult]] | None = None

    def head_to_head(self, group: Sequence[int]) -> dict[int, Fraction]:
        return head_to_head(group, self.of(group))

    def of(self, group: Iterable[int]) -> list[GameResult]:
        if self.index is None:
            results = self.results(self.players) if callable(self.results) else self.results
            self.index = {}
            for result in results:
                for player_id in result.totals:
                    self.index.setdefault(player_id, []).append(result)
        seen: dict[int, GameResult] = {}
        for player_id in group:
            for result in self.index.get(player_id, ()):
                seen[result.game_id] = result
        return list(seen.values())


class Pairs:
    """The pair scores for head-to-head, loaded at most once, for the groups that may need
    them."""

    def __init__(self, load: Callable[[list[list[int]]], PairNets], groups: list[list[int]]):
        self.load, self.groups = load, groups
        self.nets: PairNets | None = None

    def head_to_head(self, group: Sequence[int]) -> dict[int, Fraction]:
        if self.nets is None:
            self.nets = self.load(self.groups)
        return head_to_head_of_pairs(group, self.nets)
