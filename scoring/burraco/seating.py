"""Who sits where in a Burraco tournament, for the papers and screens of the room: a turn's
tables (the pairing sheet, the room screen), each entry's seat in every turn (its own
page: "turn 3: table 12 NS against pair 19"), and the marks a ranking carries (withdrawn,
a short card). A fixed number of queries whatever the number of pairs or turns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, Q

from games.models import BurracoPair, Event, PairTurnResult, Table


@dataclass(frozen=True)
class Side:
    """A line of a table: its entries' numbers and names (one pair, or two players)."""

    numbers: list[int]
    names: list[str]

    @property
    def label(self) -> str:
        """ "3 – Anna / Bruno" for a pair; "3 Anna – 7 Carla" for two players."""
        if len(self.numbers) == 1:
            return f"{self.numbers[0]} – {self.names[0]}"
        return " – ".join(f"{n} {name}" for n, name in zip(self.numbers, self.names, strict=True))


def _names(entry: BurracoPair) -> str:
    return " / ".join(entry.player_names)


def _side(table: Table, line: str) -> Side:
    entries = table.side(line)
    return Side([e.number for e in entries], [_names(e) for e in entries])


_TABLE_ENTRIES = (
    "ns_pair__player_a",
    "ns_pair__player_b",
    "ew_pair__player_a",
    "ew_pair__player_b",
    "ns_partner__player_a",
    "ew_partner__player_a",
)


def turn_seating(event: Event, number: int | None = None) -> dict[str, Any] | None:
    """Turn `number` (the newest when None) as the room reads it: its number, hands and
    movement, each table with its NS and EW lines, and the entries resting (three
    queries); None when the tournament has no such turn."""
    turns = event.rounds.order_by("-number")
    turn = (turns.filter(number=number) if number is not None else turns).first()
    if turn is None:
        return None
    tables = [
        {"number": t.number, "ns": _side(t, "NS"), "ew": _side(t, "EW")}
        for t in turn.tables.select_related(*_TABLE_ENTRIES).order_by("number")
    ]
    byes = [
        Side([number], [" / ".join(n for n in (a, b) if n)])
        for number, a, b in PairTurnResult.objects.filter(round=turn, bye=True)
        .order_by("pair__number")
        .values_list("pair__number", "pair__player_a__name", "pair__player_b__name")
    ]
    return {"turn": turn, "tables": tables, "byes": byes, "bye_labels": [b.label for b in byes]}


@dataclass(frozen=True)
class Seat:
    """An entry's turn: where it sat (table and line, its partner in an individual
    tournament, its opponents), or a bye, or nothing (not entered yet, withdrawn); with
    its result once the card has hands."""

    turn: int
    table: int | None = None
    line: str = ""
    partner: Side | None = None
    opponents: Side | None = None
    bye: bool = False
    result: dict[str, Any] | None = None


def entry_seats(event: Event, entry: BurracoPair) -> list[Seat]:
    """Entry's seat in every turn seated so far, in order (three queries)."""
    rounds = list(event.rounds.order_by("number").values_list("pk", "number"))
    seated = Q(ns_pair=entry) | Q(ew_pair=entry) | Q(ns_partner=entry) | Q(ew_partner=entry)
    tables = {
        t.round_id: t
        for t in Table.objects.filter(seated, round__event=event).select_related(*_TABLE_ENTRIES)
    }
    results = {
        r["round_id"]: r
        for r in PairTurnResult.objects.filter(round__event=event, pair=entry).values(
            "round_id", "bye", "hands", "mp_for", "mp_against", "vp", "final", "penalty_vp"
        )
    }
    seats = []
    for pk, number in rounds:
        table, result = tables.get(pk), results.get(pk)
        if table is not None:
            line = "NS" if entry.pk in (table.ns_pair_id, table.ns_partner_id) else "EW"
            own = _side(table, line)
            partner = None
            if len(own.numbers) == 2:
                at = own.numbers.index(entry.number)
                partner = Side([own.numbers[1 - at]], [own.names[1 - at]])
            opponents = _side(table, "EW" if line == "NS" else "NS")
            shown = result if result is not None and (result["hands"] or result["final"]) else None
            seats.append(Seat(number, table.number, line, partner, opponents, result=shown))
        elif result is not None and result["bye"]:
            seats.append(Seat(number, bye=True, result=result))
        else:
            seats.append(Seat(number))
    return seats


@dataclass
class Marks:
    """What a ranking says beside an entry: withdrawn (after which turn), and the turns
    whose score card was confirmed short (fewer hands than the turn's, time ran out)."""

    withdrawn_after: int | None = None
    short: list[int] = field(default_factory=list)


def entry_marks(event: Event) -> dict[int, Marks]:
    """The marks of the tournament's entries by number, only those that have one (two
    queries)."""
    marks: dict[int, Marks] = {}
    for number, after in event.pairs.filter(active=False).values_list("number", "withdrawn_after"):
        marks.setdefault(number, Marks()).withdrawn_after = after or 0
    short = (
        PairTurnResult.objects.filter(
            round__event=event, bye=False, final=True, hands__lt=F("round__hands_per_turn")
        )
        .order_by("round__number")
        .values_list("pair__number", "round__number")
    )
    for number, turn in short:
        marks.setdefault(number, Marks()).short.append(turn)
    return marks


def marks_until(marks: dict[int, Marks], turn: int) -> dict[int, Marks]:
    """The marks as they stood after turn `turn`: withdrawals up to it, its short cards
    and those before it."""
    out = {}
    for number, mark in marks.items():
        after = mark.withdrawn_after if (mark.withdrawn_after or 0) <= turn else None
        short = [t for t in mark.short if t <= turn]
        if after is not None or short:
            out[number] = Marks(after, short)
    return out


def with_marks(rows: list[dict[str, Any]], marks: dict[int, Marks]) -> list[dict[str, Any]]:
    """The ranking's rows (scoring.selectors.pair_standings), each with `withdrawn_after`
    (None: still playing) and `short` (the turns of its short cards)."""
    for row in rows:
        mark = marks.get(row["pair"], Marks())
        row["withdrawn_after"] = mark.withdrawn_after
        row["short"] = mark.short
    return rows
