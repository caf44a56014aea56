"""Who played which deals of a game whose seat changed players (a substitute): pure.

The game record (Game.player_names and the deals' data) names each seat by the player
who sat there first, throughout: the engine sees four seats, exactly as without a
substitute, and its validation and scores are unchanged. Who played deal n in a seat is
the seat's starter, then each substitute from their `from_deal` on. Each deal's per-player
rows go to whoever played it; the seat's game result (total, place, win, rating) to
whoever played more of the seat's deals, the one who sat first on a tie.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    """From deal `from_deal` on, `player_in` plays seat `seat` instead of `player_out`."""

    seat: int
    from_deal: int
    player_out: int
    player_in: int


def _ordered(changes: Sequence[Change]) -> list[Change]:
    return sorted(changes, key=lambda c: (c.from_deal, c.seat))


def starters(current: Sequence[int], changes: Sequence[Change]) -> list[int]:
    """The seats' first players, from the seats' current players and the changes."""
    out = list(current)
    for change in reversed(_ordered(changes)):
        out[change.seat] = change.player_out
    return out


def players_at(current: Sequence[int], changes: Sequence[Change], number: int) -> list[int]:
    """The players who play deal `number`, in seat order."""
    out = starters(current, changes)
    for change in _ordered(changes):
        if change.from_deal <= number:
            out[change.seat] = change.player_in
    return out


def result_players(current: Sequence[int], changes: Sequence[Change], deals: int) -> list[int]:
    """Each seat's player for the game's result: most of the seat's `deals` played, the
    one who sat there first on a tie."""
    first = starters(current, changes)
    out = []
    for seat, starter in enumerate(first):
        played: dict[int, int] = {starter: 0}  # in order of first sitting
        for number in range(1, deals + 1):
            player = players_at(current, changes, number)[seat]
            played[player] = played.get(player, 0) + 1
        best = max(played.values())
        out.append(next(p for p, count in played.items() if count == best))
    return out


def spans(
    current: Sequence[int], changes: Sequence[Change], deals: int
) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """{(seat, player): [(first deal, last deal), ...]} of the deals 1..`deals` played."""
    out: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for number in range(1, deals + 1):
        for seat, player in enumerate(players_at(current, changes, number)):
            runs = out.setdefault((seat, player), [])
            if runs and runs[-1][1] == number - 1:
                runs[-1] = (runs[-1][0], number)
            else:
                runs.append((number, number))
    return out


def deal_ranges(runs: Sequence[tuple[int, int]]) -> str:
    """ "1–5, 9–12", "6": deal numbers as a reader writes them."""
    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in runs)
