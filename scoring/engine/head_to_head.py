"""Head-to-head, the tie-break among players level on everything before it: pure
arithmetic (no Django), used by scoring/engine/ranking.py's rank().

Each player of a group scores the players of the group they finished ahead of, minus
those who finished ahead of them, over every game two of them played at the same table
(a level total counts nothing), from the games themselves (head_to_head), loaded once for
the players a ranking may ask about (Games).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished (or running) game: each player's total, in seat order."""

    game_id: int
    event_id: int
    totals: Mapping[int, Any]  # player_id -> total


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
