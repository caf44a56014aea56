"""Standings of Burraco free matches: pure arithmetic on match results (no Django).

docs/rules/burraco.md "Ways to play a match": a free match is won by the pair that reaches the
target with the higher total. An evening ranks its pairs by matches won, then by the
point difference (points scored less points conceded) of those matches; a season (a
league of such evenings) adds up each entry's evenings the same way. Decisions (the rules
are silent): only finished matches count (a match nobody has won yet, or one left
unfinished when the evening closed, adds nothing); entries level on both share the place.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from scoring.engine.burraco import free_match_state


@dataclass(frozen=True)
class MatchResult:
    """One pair's side of one match, as its score card stands."""

    pair: Hashable
    points_for: int
    points_against: int
    confirmed: bool = True


@dataclass(frozen=True)
class FreeRow:
    """One line of a free-match ranking (an evening's, or a season's)."""

    entry: Hashable
    place: int
    played: int
    won: int
    lost: int
    difference: int
    # The points scored and conceded (an evening's; a season keeps the difference only).
    points_for: int
    points_against: int
    # Matches still being played (an evening's live ranking), and finished but not yet
    # confirmed by the other pair.
    playing: int = 0
    unconfirmed: int = 0
    evenings: int = 0


@dataclass
class _Sum:
    played: int = 0
    won: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    difference: int = 0
    playing: int = 0
    unconfirmed: int = 0
    evenings: int = 0


def _ranked(totals: dict[Hashable, _Sum], order: Sequence[Hashable]) -> list[FreeRow]:
    position = {entry: i for i, entry in enumerate(order)}

    def key(entry: Hashable) -> tuple:
        s = totals[entry]
        return (-s.won, -s.difference, position.get(entry, len(position)))

    rows: list[FreeRow] = []
    previous: tuple[int, int] | None = None
    place = 0
    for index, entry in enumerate(sorted(totals, key=key), 1):
        s = totals[entry]
        mark = (s.won, s.difference)
        if mark != previous:
            place, previous = index, mark
        rows.append(
            FreeRow(
                entry=entry,
                place=place,
                played=s.played,
                won=s.won,
                lost=s.lost,
                difference=s.difference,
                points_for=s.points_for,
                points_against=s.points_against,
                playing=s.playing,
                unconfirmed=s.unconfirmed,
                evenings=s.evenings,
            )
        )
    return rows


def rank_evening(
    results: Iterable[MatchResult], target: int, entries: Sequence[Hashable] = ()
) -> list[FreeRow]:
    """An evening's ranking: every entry (those of `entries` with no match too, in that
    order when level), by matches won, then point difference of the finished matches."""
    totals: dict[Hashable, _Sum] = {entry: _Sum() for entry in entries}
    for r in results:
        s = totals.setdefault(r.pair, _Sum())
        state = free_match_state(r.points_for, r.points_against, target)
        if not state.complete:
            s.playing += 1
            continue
        s.played += 1
        s.points_for += r.points_for
        s.points_against += r.points_against
        s.difference += r.points_for - r.points_against
        if r.points_for > r.points_against:
            s.won += 1
        else:
            s.lost += 1
        if not r.confirmed:
            s.unconfirmed += 1
    return _ranked(totals, list(entries))


@dataclass(frozen=True)
class EveningLine:
    """An entry's line of one closed evening, as the season reads it."""

    entry: Hashable
    won: int
    lost: int
    difference: int


def rank_season(evenings: Iterable[Iterable[EveningLine]]) -> list[FreeRow]:
    """A league's season: each entry's evenings added up, ranked as an evening is."""
    totals: dict[Hashable, _Sum] = {}
    for lines in evenings:
        for line in lines:
            s = totals.setdefault(line.entry, _Sum())
            s.evenings += 1
            s.played += line.won + line.lost
            s.won += line.won
            s.lost += line.lost
            s.difference += line.difference
    return _ranked(totals, sorted(totals, key=str))
