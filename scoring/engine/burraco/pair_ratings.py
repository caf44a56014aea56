"""OpenSkill ratings from Burraco pairs play: pure, no Django (the Barbu rating's shape,
scoring/engine/ratings.py, with its model and Rating; the two are never mixed).

Each confirmed score card is one match of two teams of two, the NS pair against the EW
pair, rated by the turn's *VP* result, not its MP: the VP are what the tournament ranks
by; they read alike whether the turn played 2, 3 or 4 hands (an MP margin does not:
four hands give about twice the points of two); and a margin too small to matter, which
the VP table scores 10-10, is a draw for the rating too, not a win decided by a 5-point
card. The win or loss is rated, not its size (OpenSkill rates ranks). Penalties are the
referee's, not the play's, and a bye has no opponent: neither is rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.engine.ratings import MODEL, Rating, initial


@dataclass(frozen=True)
class PairTable:
    """One confirmed score card: the two players of each line and each line's VP."""

    game_id: int
    ns: tuple[int, int]
    ew: tuple[int, int]
    ns_vp: int
    ew_vp: int

    def __post_init__(self) -> None:
        if len({*self.ns, *self.ew}) != 4:
            raise ValueError(f"game {self.game_id}: four different players are needed")

    @property
    def ranks(self) -> list[int]:
        """OpenSkill's ranks of [NS, EW]: 1 for the winner by VP, both 1 when level."""
        if self.ns_vp == self.ew_vp:
            return [1, 1]
        return [1, 2] if self.ns_vp > self.ew_vp else [2, 1]

    def partner(self, player: int) -> int:
        for a, b in (self.ns, self.ew):
            if player == a:
                return b
            if player == b:
                return a
        raise KeyError(player)

    def vp(self, player: int) -> tuple[int, int]:
        """(the player's line's VP, the other line's)."""
        return (self.ns_vp, self.ew_vp) if player in self.ns else (self.ew_vp, self.ns_vp)


def rate_table(current: Mapping[int, Rating], table: PairTable) -> dict[int, Rating]:
    """The four players' new ratings (unknown players start from the default).

    A team's update is shared by its two players in proportion to their uncertainty:
    both move the same way, the less known one further. With two teams a draw is exactly
    the average of the two wins, so openskill's handling of ties is sound here (the
    Barbu rating's tie workaround is for three places and more).
    """
    start = {p: current.get(p) or initial() for p in (*table.ns, *table.ew)}
    teams = [
        [MODEL.create_rating([start[p].mu, start[p].sigma]) for p in line]
        for line in (table.ns, table.ew)
    ]
    rated = MODEL.rate(teams, ranks=table.ranks)
    out: dict[int, Rating] = {}
    for line, team in zip((table.ns, table.ew), rated, strict=True):
        for player, rating in zip(line, team, strict=True):
            out[player] = Rating(rating.mu, rating.sigma)
    return out


def replay(
    start: Mapping[int, Rating], tables: Iterable[PairTable]
) -> tuple[dict[int, Rating], list[tuple[int, int, Rating]]]:
    """Rate the score cards in order from these ratings: final ratings and (game, player,
    rating) after each card, for the history."""
    current = dict(start)
    history: list[tuple[int, int, Rating]] = []
    for table in tables:
        new = rate_table(current, table)
        current.update(new)
        history.extend((table.game_id, p, r) for p, r in new.items())
    return current, history
