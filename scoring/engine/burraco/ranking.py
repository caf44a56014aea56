"""Burraco tournament rankings: pure arithmetic on turn scores (no Django).

docs/rules/burraco.md "Tournaments": entries (pairs, or players in an individual tournament) are
ranked by total VP, then total MP difference, then the configured tie-breaks
(head-to-head, then a draw by the referee). A penalty takes VP and MP from the penalised
entry only; its opponent's row never changes. A bye scores 14 VP and the lowest MP
difference of the 14-6 band of the turn's VP table (the rules' Decision).

`rank_pairs` ranks one tournament; `season_ranking` ranks a league of tournaments (sum
of VP, or placement points, over each entry's best N events); `bye_score` gives a bye's
score from a rule set; `danese_standings` turns a ranking into the Danese movement's
standings input.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any, Protocol

from scoring.engine.burraco.presets import Ruleset, vp_of

TIE_BREAKS = ("mp_difference", "head_to_head")
DEFAULT_TIE_BREAKS = ("mp_difference", "head_to_head")
SEASON_METHODS = ("vp", "placement")
# docs/rules/burraco.md "Byes", Decision: 14 VP and the lowest MP difference of the 14-6 band.
BYE_VP = 14
# Burraco scores are multiples of 5: a band (previous bound, bound] starts at previous + 5.
MP_STEP = 5


@dataclass(frozen=True)
class TurnScore:
    """One entry's result in one turn, as its score card (or the bye) gives it.

    `penalty_vp` and `penalty_mp` are what the referee TOOK from this entry in this turn,
    as positive numbers (1 means -1 VP); they are never applied to the opponent.
    """

    turn: int
    pair: int  # the entry ranked (pair number, or a player's id in individual tournaments)
    opponent: int | None  # None for a bye
    vp: Decimal  # VP of the turn (table or bye score) before penalties
    mp_for: int
    mp_against: int
    penalty_vp: Decimal = Decimal(0)
    penalty_mp: int = 0
    # An individual tournament's table: both players of the other line (`opponent` is
    # then ignored); empty for pairs, who have one opponent.
    opponents: tuple[int, ...] = ()

    @property
    def others(self) -> tuple[int, ...]:
        """The entries this one played against in the turn (none for a bye)."""
        if self.opponents:
            return self.opponents
        return () if self.opponent is None else (self.opponent,)


@dataclass(frozen=True)
class PairRow:
    """One line of a tournament's ranking."""

    pair: int
    place: int
    vp: Decimal  # total after penalties
    mp_difference: int  # total after penalties
    turns: int  # turns with a result, byes included
    byes: int
    # Which criterion separated it from the entry above: "vp", "mp_difference",
    # "head_to_head", "draw", or None (first, or still level with the entry above).
    decided_by: str | None
    shared: bool  # level with another entry after every tie-break
    penalty_vp: Decimal = Decimal(0)  # total taken by penalties (positive)
    penalty_mp: int = 0
    # The entry's value of each tie-break that was computed for it ("head_to_head": the VP
    # it scored against the entries it was level with; "draw": its position in the draw).
    tie_break_values: Mapping[str, Any] | None = None


class EventRow(Protocol):
    """What `season_ranking` reads of a row of one event (PairRow fits, keyed by a
    season-wide id the caller puts in `pair`: a player's id, or a pair's key)."""

    @property
    def pair(self) -> Hashable: ...
    @property
    def place(self) -> int: ...
    @property
    def vp(self) -> Decimal: ...
    @property
    def mp_difference(self) -> int: ...


@dataclass(frozen=True)
class SeasonRow:
    """One line of a league of Burraco tournaments."""

    entry: Hashable
    place: int
    points: Decimal  # sum of VP, or of placement points, over the counted events
    vp: Decimal  # VP of the counted events
    mp_difference: int  # MP difference of the counted events
    events: int  # events played
    counted: int  # events counted (the best N)
    decided_by: str | None  # "points", "mp_difference", or None
    shared: bool


class _Entry:
    __slots__ = ("byes", "key", "mp", "opponents", "pair", "penalty_mp", "penalty_vp", "turns")

    def __init__(self, pair: int) -> None:
        self.pair = pair
        self.key = Decimal(0)  # VP after penalties
        self.mp = 0
        self.turns: set[int] = set()
        self.byes = 0
        self.penalty_vp = Decimal(0)
        self.penalty_mp = 0
        # opponent -> VP this entry scored against it (summed over every meeting)
        self.opponents: dict[int, Decimal] = {}


def _totals(scores: Iterable[TurnScore], entries: Iterable[int]) -> dict[int, _Entry]:
    table: dict[int, _Entry] = {pair: _Entry(pair) for pair in entries}
    for score in scores:
        if score.penalty_vp < 0 or score.penalty_mp < 0:
            raise ValueError(
                f"pair {score.pair}, turn {score.turn}: a penalty is what is taken, "
                f"a positive number (got {score.penalty_vp} VP, {score.penalty_mp} MP)"
            )
        others = score.others
        if score.pair in others:
            raise ValueError(f"pair {score.pair}, turn {score.turn}: a pair cannot meet itself")
        entry = table.get(score.pair)
        if entry is None:
            entry = table[score.pair] = _Entry(score.pair)
        if score.turn in entry.turns:
            raise ValueError(f"pair {score.pair} has two results for turn {score.turn}")
        entry.turns.add(score.turn)
        vp = Decimal(score.vp)
        entry.key += vp - Decimal(score.penalty_vp)
        entry.mp += score.mp_for - score.mp_against - score.penalty_mp
        entry.penalty_vp += Decimal(score.penalty_vp)
        entry.penalty_mp += score.penalty_mp
        if not others:
            entry.byes += 1
        for other in others:
            entry.opponents[other] = entry.opponents.get(other, Decimal(0)) + vp
    return table


def _head_to_head(group: Sequence[_Entry]) -> dict[int, Decimal] | None:
    """VP each scored against the others of the group, or None unless all met each other."""
    members = {e.pair for e in group}
    for entry in group:
        if not members - {entry.pair} <= entry.opponents.keys():
            return None
    return {e.pair: sum((e.opponents[o] for o in members - {e.pair}), Decimal(0)) for e in group}


class _Ranker:
    def __init__(self, tie_breaks: Sequence[str], draw_order: Mapping[int, int] | None) -> None:
        unknown = [t for t in tie_breaks if t not in TIE_BREAKS]
        if unknown:
            raise ValueError(f"unknown tie-break {unknown[0]!r} (known: {', '.join(TIE_BREAKS)})")
        self.criteria = ["vp", *tie_breaks]
        if draw_order is not None:
            self.criteria.append("draw")
        self.draw_order = draw_order or {}
        self.decided: dict[int, str | None] = {}
        self.values: dict[int, dict[str, Any]] = {}

    def _values(self, criterion: str, group: Sequence[_Entry]) -> dict[int, Any] | None:
        if criterion == "vp":
            return {e.pair: e.key for e in group}
        if criterion == "mp_difference":
            return {e.pair: e.mp for e in group}
        if criterion == "head_to_head":
            return _head_to_head(group)
        # The draw: lower position first; only when the referee placed every entry of it.
        if not all(e.pair in self.draw_order for e in group):
            return None
        return {e.pair: -self.draw_order[e.pair] for e in group}

    def order(self, group: list[_Entry], index: int) -> list[list[_Entry]]:
        """Split a level group by the criteria from `index` on; groups still level at the end."""
        if len(group) == 1 or index == len(self.criteria):
            return [group]
        criterion = self.criteria[index]
        values = self._values(criterion, group)
        parts: dict[Any, list[_Entry]] = {}
        if values is not None:
            for entry in group:
                parts.setdefault(values[entry.pair], []).append(entry)
        if len(parts) <= 1:
            return self.order(group, index + 1)
        out: list[list[_Entry]] = []
        for rank, value in enumerate(sorted(parts, reverse=True)):
            part = parts[value]
            for entry in part:
                if criterion != "vp":
                    self.values.setdefault(entry.pair, {})[criterion] = (
                        -value if criterion == "draw" else value
                    )
            # Head-to-head again among a smaller group (their own meetings decide); the
            # other criteria do not depend on the group, so they fall through at once.
            ordered = self.order(part, index)
            if rank:
                self.decided[ordered[0][0].pair] = criterion
            out.extend(ordered)
        return out


def rank_pairs(
    scores: Iterable[TurnScore],
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    draw_order: Mapping[int, int] | None = None,
    entries: Iterable[int] = (),
) -> list[PairRow]:
    """The ranking of a tournament, best first.

    Total VP after penalties, then `tie_breaks` in order ("mp_difference": total MP
    difference after penalties; "head_to_head": VP scored against the other entries of
    the level group in their meetings, only when all of them met each other, applied
    again within a smaller group it leaves level), then the referee's draw when
    `draw_order` (entry -> position, 1 first) places every entry of a level group.
    Entries still level share their place (1, 2, 2, 4). `entries` adds entries with no
    result yet (0 VP). Raises ValueError for two results of one entry in a turn, an
    entry meeting itself, a negative penalty or an unknown tie-break.
    """
    table = _totals(scores, entries)
    ranker = _Ranker(tie_breaks, draw_order)
    everyone = sorted(table.values(), key=lambda e: e.pair)
    groups = ranker.order(everyone, 0) if everyone else []
    rows: list[PairRow] = []
    place = 1
    for group in groups:
        for position, entry in enumerate(group):
            rows.append(
                PairRow(
                    pair=entry.pair,
                    place=place,
                    vp=entry.key,
                    mp_difference=entry.mp,
                    turns=len(entry.turns),
                    byes=entry.byes,
                    decided_by=None if position else ranker.decided.get(entry.pair),
                    shared=len(group) > 1,
                    penalty_vp=entry.penalty_vp,
                    penalty_mp=entry.penalty_mp,
                    tie_break_values=ranker.values.get(entry.pair, {}),
                )
            )
        place += len(group)
    return rows


def danese_standings(
    rows: Sequence[PairRow],
    scores: Iterable[TurnScore],
    *,
    last_turn: bool = False,
    withdrawn: Iterable[int] = (),
) -> dict[str, Any]:
    """The Danese movement's standings input, best first, from a ranking and its scores:
    ``{"pairs": [{"pair", "vp", "mp", "previous", "met", "byes"}, ...], "last_turn"}``
    (what ``games.burraco.movements.parse_standings`` reads). ``previous`` is the opponent of the
    latest turn played (None after a bye); ``withdrawn`` pairs are left out.
    """
    scores = list(scores)
    latest = max((s.turn for s in scores), default=0)
    met: dict[int, set[int]] = {}
    previous: dict[int, int] = {}
    for score in scores:
        if score.opponent is not None:
            met.setdefault(score.pair, set()).add(score.opponent)
            if score.turn == latest:
                previous[score.pair] = score.opponent
    gone = set(withdrawn)
    pairs = []
    for row in rows:
        if row.pair in gone:
            continue
        vp = row.vp
        pairs.append(
            {
                "pair": row.pair,
                "vp": int(vp) if vp == vp.to_integral_value() else float(vp),
                "mp": row.mp_difference,
                "previous": previous.get(row.pair) if previous.get(row.pair) not in gone else None,
                "met": sorted(met.get(row.pair, set()) - gone),
                "byes": row.byes,
            }
        )
    return {"pairs": pairs, "last_turn": last_turn}


def bye_score(ruleset: Ruleset, hands: int) -> tuple[Decimal, int]:
    """A bye's (VP, MP difference) for a turn of `hands` hands under `ruleset`.

    docs/rules/burraco.md's Decision: 14 VP and the lowest MP difference of the 14-6 band of the
    turn's VP table (+355 for 3 hands of the fibur preset). A club table with no 14 band
    gives the lowest difference worth at least 14 VP. ValueError when the rule set has
    no table for that many hands.
    """
    table = ruleset.vp_tables.get(hands)
    if table is None:
        raise ValueError(f"the rule set has no VP table for turns of {hands} hands")
    previous: int | None = None
    for bound, vp in table:
        if vp >= BYE_VP:
            lowest = MP_STEP if previous is None else previous + MP_STEP
            assert vp_of(table, lowest) >= BYE_VP
            return Decimal(BYE_VP), lowest
        previous = bound
    raise ValueError(f"the VP table for {hands} hands never reaches {BYE_VP} VP")


def _placement_points(place: int, tied: int, points: Sequence[int]) -> Fraction:
    """Points for a place shared by `tied` entries: the places they cover, shared out."""
    covered = points[place - 1 : place - 1 + tied]
    return Fraction(sum(covered), tied)


def _decimal(value: Fraction) -> Decimal:
    """Points for display: exact when whole or decimal, else to the hundredth."""
    if value.denominator == 1:
        return Decimal(value.numerator)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def season_ranking(
    events: Sequence[Sequence[EventRow]],
    method: str = "vp",
    best: int | None = None,
    placement_points: Sequence[int] | None = None,
) -> list[SeasonRow]:
    """A league of Burraco tournaments, best first.

    Each event is its ranking's rows keyed by a season-wide id in `pair` (a player's id,
    or a key standing for a pair of players: the caller maps the evening's pair numbers).
    `method` "vp": the sum of each entry's VP; "placement": points by place from
    `placement_points` (first place first; places past the list score 0; entries sharing
    a place share the points of the places they cover). `best`: only each entry's best N
    events count (by their points; None: all). Ranked by points, then the MP difference
    of the counted events; entries still level share their place.
    """
    if method not in SEASON_METHODS:
        raise ValueError(f"unknown method {method!r} (known: {', '.join(SEASON_METHODS)})")
    if best is not None and best < 1:
        raise ValueError(f"best must count at least one event (got {best})")
    if method == "placement" and not placement_points:
        raise ValueError("the placement method needs placement points")
    results: dict[Hashable, list[tuple[Fraction, Decimal, int]]] = {}
    for rows in events:
        tied: dict[int, int] = {}
        for row in rows:
            tied[row.place] = tied.get(row.place, 0) + 1
        for row in rows:
            if method == "vp":
                points = Fraction(Decimal(row.vp))
            else:
                points = _placement_points(row.place, tied[row.place], placement_points or ())
            results.setdefault(row.pair, []).append(
                (points, Decimal(row.vp), int(row.mp_difference))
            )
    lines = []
    for entry, played in results.items():
        counted = sorted(played, key=lambda r: (r[0], r[2]), reverse=True)
        if best is not None:
            counted = counted[:best]
        points = sum((r[0] for r in counted), Fraction(0))
        vp = sum((r[1] for r in counted), Decimal(0))
        mp = sum(r[2] for r in counted)
        lines.append((points, mp, entry, vp, len(played), len(counted)))
    lines.sort(key=lambda line: (-line[0], -line[1], str(line[2])))
    out: list[SeasonRow] = []
    previous: tuple[Fraction, int] | None = None
    place = 0
    for index, (points, mp, entry, vp, played, counted) in enumerate(lines):
        if previous is None:
            decided, place = None, 1
        elif points != previous[0]:
            decided, place = "points", index + 1
        elif mp != previous[1]:
            decided, place = "mp_difference", index + 1
        else:
            decided = None
        out.append(
            SeasonRow(entry, place, _decimal(points), vp, mp, played, counted, decided, False)
        )
        previous = (points, mp)
    # Mark shared places once every place is known.
    counts: dict[int, int] = {}
    for row in out:
        counts[row.place] = counts.get(row.place, 0) + 1
    return [replace(row, shared=True) if counts[row.place] > 1 else row for row in out]
