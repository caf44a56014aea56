"""A tournament's tables for the whole day: one key (one printed QR code) per table number,
stable across turns, that opens the score card of that table in the turn being played;
and, for a card of an older turn, where its table and its pairs play now.

The keys are BurracoTableKey rows, made when the referee first prints the day's cards
(`table_keys`); a table card's QR code holds /t/e/<key>/ (games/urls_table.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max, Q
from django.utils.translation import pgettext

from games.core.table_pages import could_be_key
from games.models import BurracoTableKey, Event, PairTurnResult, Round, Table


def tables_of_day(event: Event) -> int:
    """How many tables the day's cards number: the most any turn seated, or as many as the
    entries still playing fill (two pairs, or four players, a table) before the first
    turn; at least one."""
    seated = Table.objects.filter(round__event=event).aggregate(most=Max("number"))["most"] or 0
    playing = event.pairs.filter(active=True).count()
    filled = playing // (4 if event.individual else 2)
    return max(seated, filled, 1)


def table_keys(event: Event, count: int) -> dict[int, str]:
    """The keys of tables 1..count of the tournament, made for those that have none yet
    (two queries; a key once made never changes)."""
    BurracoTableKey.objects.bulk_create(
        [BurracoTableKey(event=event, number=n) for n in range(1, count + 1)],
        ignore_conflicts=True,
    )
    return dict(
        BurracoTableKey.objects.filter(event=event, number__lte=count).values_list("number", "key")
    )


@dataclass(frozen=True)
class TableNow:
    """What a day's table key opens: its event and number, the turn being played (None
    before the first), and that turn's table of this number (None: not seated in it)."""

    event: Event
    number: int
    turn: Round | None
    table: Table | None


def table_now(key: str) -> TableNow | None:
    """The table a day's key names, as it stands now (three queries); None for no key."""
    if not could_be_key(key):
        return None
    found = BurracoTableKey.objects.select_related("event__club").filter(key=key).first()
    if found is None:
        return None
    turn = found.event.rounds.order_by("-number").first()
    table = None
    if turn is not None:
        table = Table.objects.filter(round=turn, number=found.number).first()
    return TableNow(found.event, found.number, turn, table)


@dataclass(frozen=True)
class PlaysNow:
    """Where an entry of an old card plays in the newest turn: its table and line, or
    resting (`table` None and `bye`), or in no table (withdrawn)."""

    entry: int
    table: int | None
    line: str
    bye: bool
    key: str  # the key of its new table's card ("" when it plays no table)

    @property
    def line_name(self) -> str:
        """The line in the reader's language ("NS", "EO" in Italian)."""
        return pgettext("line", self.line) if self.line else ""


@dataclass(frozen=True)
class NewerTurn:
    """A card of an older turn: the newest turn seated, its table of the same number (None
    if it seats fewer tables) and where this card's entries play in it."""

    turn: int
    table: Table | None
    entries: list[PlaysNow]


def newer_turn(table: Table) -> NewerTurn | None:
    """None while `table`'s turn is the newest (one query); else where the tournament
    plays now (four)."""
    newest = (
        Round.objects.filter(event_id=table.round.event_id, number__gt=table.round.number)
        .order_by("-number")
        .first()
    )
    if newest is None:
        return None
    entries = [
        e
        for e in (table.ns_pair_id, table.ns_partner_id, table.ew_pair_id, table.ew_partner_id)
        if e is not None
    ]
    seated = Q(ns_pair_id__in=entries) | Q(ew_pair_id__in=entries)
    seated |= Q(ns_partner_id__in=entries) | Q(ew_partner_id__in=entries)
    tables = list(Table.objects.filter(seated | Q(number=table.number), round=newest))
    resting = set(
        PairTurnResult.objects.filter(round=newest, bye=True, pair_id__in=entries).values_list(
            "pair_id", flat=True
        )
    )
    numbers = dict(table.round.event.pairs.filter(pk__in=entries).values_list("pk", "number"))
    plays = []
    for entry in entries:
        where = next(
            (
                (t.number, line, t.key)
                for t in tables
                for line, ids in (
                    ("NS", (t.ns_pair_id, t.ns_partner_id)),
                    ("EW", (t.ew_pair_id, t.ew_partner_id)),
                )
                if entry in ids
            ),
            (None, "", ""),
        )
        number, line, key = where
        plays.append(PlaysNow(numbers.get(entry, 0), number, line, entry in resting, key))
    same = next((t for t in tables if t.number == table.number), None)
    return NewerTurn(newest.number, same, plays)
