"""The printed cards of an evening of free matches: one per table (1..N), whose QR code
lets two pairs of the evening sit themselves at that table and start a match, the first
of the evening included, with the desk's checks (games/burraco/free_matches.py).

A card's key names its evening and its table and is signed (an HMAC of both with the
site's secret): nothing is stored, a card prints before any match exists, and a key
cannot be edited into another table's or another evening's.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.crypto import constant_time_compare, salted_hmac

from games.burraco import free_matches
from games.models import Event, Table

_SALT = "games.burraco.free_tables"
# Tables a club prints cards for at once.
CARDS_LIMIT = 60


def _mac(event_id: int, number: int) -> str:
    return salted_hmac(_SALT, f"{event_id}:{number}").hexdigest()[:24]


def seat_key(event_id: int, number: int) -> str:
    """The key on table `number`'s card of the evening `event_id`."""
    return f"{event_id}-{number}-{_mac(event_id, number)}"


@dataclass(frozen=True)
class SeatTable:
    event: Event
    number: int


def seat_table(key: str) -> SeatTable | None:
    """The evening of free matches and the table number a card's key names; None for a
    key that is not a card's (edited, another site's, an evening gone or not free)."""
    parts = key.split("-")
    if len(parts) != 3 or not (parts[0].isdigit() and parts[1].isdigit()):
        return None
    event_id, number = int(parts[0]), int(parts[1])
    # Only as printed: no leading zero, no other digits than ASCII's (int() reads both).
    if key != f"{event_id}-{number}-{parts[2]}":
        return None
    if not 1 <= number <= free_matches.TABLE_LIMIT:
        return None
    if not constant_time_compare(parts[2], _mac(event_id, number)):
        return None
    event = (
        Event.objects.select_related("club")
        .filter(pk=event_id, game="burraco", burraco_format=Event.BurracoFormat.FREE)
        .first()
    )
    return SeatTable(event, number) if event is not None else None


def current_match(event: Event, number: int) -> Table | None:
    """The table's latest match of the evening (one query), None before its first."""
    return (
        Table.objects.filter(round__event=event, number=number)
        .select_related("game__card", "ns_pair__player_a", "ns_pair__player_b")
        .select_related("ew_pair__player_a", "ew_pair__player_b")
        .order_by("-round__number")
        .first()
    )


def sit_from_card(*, seat: SeatTable, ns: int, ew: int) -> free_matches.StartedMatch:
    """Two pairs (by their numbers) sit at the card's table for a new match: the desk's
    refusals (table or pair still playing, same pair, withdrawn, evening closed), and a
    pair must have checked in at the desk (free_matches.sit_down, as from a score card)."""
    return free_matches.sit_down(event=seat.event, table_number=seat.number, ns=ns, ew=ew)
