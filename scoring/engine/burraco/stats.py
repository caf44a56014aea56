"""A player's Burraco statistics from the hands of confirmed score cards: pure, no Django.

Average MP per hand counts every hand. Burracos and closings are known only from the
hands counted from the cards (the engine's calculator was told each line's burracos and
who closed); a hand entered as two MP totals says nothing of them, so burracos per hand
and the closing rate are taken over the counted hands only, and are None without any.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any


@dataclass(frozen=True)
class PlayedHand:
    """One hand from the player's side: their line's MP; for a hand counted from the
    cards, their line's burracos and whether their line closed (None otherwise)."""

    mp: int
    burracos: int | None = None
    closed: bool | None = None


@dataclass(frozen=True)
class HandStatistics:
    hands: int
    average_mp: float | None
    counted: int  # hands counted from the cards
    burracos_per_hand: float | None
    closing_rate: float | None  # 0..1


def burracos_of(line_entry: Mapping[str, Any], kinds: Iterable[str]) -> int:
    """A line's burracos as the calculator was given them: {"clean": 1, "dirty": 2} -> 3."""
    total = 0
    for kind in kinds:
        value = line_entry.get(kind, 0)
        if type(value) is int and value > 0:
            total += value
    return total


def played_hand(line: str, ns_mp: int, ew_mp: int, data: Any, kinds: Iterable[str]) -> PlayedHand:
    """The hand from one line's side (`data`: the hand as stored; counted from the cards
    when it names who closed and both lines' entries)."""
    mp = ns_mp if line == "NS" else ew_mp
    entry = data.get(line) if isinstance(data, Mapping) and "closed" in data else None
    if not isinstance(entry, Mapping):
        return PlayedHand(mp)
    return PlayedHand(mp, burracos_of(entry, kinds), data.get("closed") == line)


def hand_statistics(hands: Iterable[PlayedHand]) -> HandStatistics:
    n = counted = mp = burracos = closed = 0
    for hand in hands:
        n += 1
        mp += hand.mp
        if hand.burracos is not None:
            counted += 1
            burracos += hand.burracos
            closed += bool(hand.closed)
    return HandStatistics(
        hands=n,
        average_mp=mp / n if n else None,
        counted=counted,
        burracos_per_hand=burracos / counted if counted else None,
        closing_rate=closed / counted if counted else None,
    )


def vp_per_turn(vps: Iterable[Decimal]) -> tuple[int, Decimal | None]:
    """(turns, average VP) of the turns played at a table, penalties taken off."""
    values = list(vps)
    if not values:
        return 0, None
    return len(values), sum(values, Decimal(0)) / len(values)
