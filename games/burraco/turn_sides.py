"""Who meets whom in a Burraco tournament's next turn, before its tables are opened
(games/burraco/turns.py): the order the fixed calendars number the pairs in, a pairing
given by hand or pasted, the Danese's standings, and the refusals (entries not checked in,
rematches of a calendar, a round robin's groups changed, the wrong movement)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.burraco import movements
from games.burraco.movements.pairing_import import parse_pairing
from games.burraco.results import ranking_so_far
from games.burraco.tournament_base import TournamentError
from games.models import (
    BurracoPair,
    Event,
    PairTurnResult,
)


def _movement_error(error: movements.MovementError) -> TournamentError:
    return TournamentError(
        _("This movement cannot seat the turn: %(detail)s") % {"detail": error.message},
        code="movement_" + error.code,
        params=dict(error.params),
    )


def calendar_order(
    event: Event, playing: list[BurracoPair], first_order: str, seed: int
) -> list[int]:
    """The pair numbers in the order the fixed calendars (Mitchell, round robin) number them
    1..N, kept from turn to turn: a withdrawn pair keeps its place (see without_withdrawn),
    a late pair joins at the end."""
    stored = list(event.ranking.get("order", []))
    rest = [p.number for p in playing if p.number not in stored]
    if first_order == "draw" and not stored:
        random.Random(seed).shuffle(rest)
    return stored + rest


def without_withdrawn(
    sides: list[tuple[int, int, int]], byes: list[int], playing: list[BurracoPair]
) -> tuple[list[tuple[int, int, int]], list[int]]:
    """A calendar's turn once some of its pairs withdrew: the pair a withdrawn one would
    have met rests (a bye, as at the odd table), so that the calendar goes on without
    rematches; the withdrawn pairs' own byes are dropped."""
    present = {p.number for p in playing}
    kept = [(t, ns, ew) for t, ns, ew in sides if ns in present and ew in present]
    alone = [
        ns if ns in present else ew for _t, ns, ew in sides if (ns in present) != (ew in present)
    ]
    return kept, sorted([b for b in byes if b in present] + alone)


def _by_hand_sides(
    tables: Sequence[Sequence[int]], byes: Sequence[int], playing: list[BurracoPair]
) -> tuple[list[tuple[int, int, int]], list[int]]:
    """(table, NS, EW) of each table given as (NS, EW), numbered in order, or as
    (table, NS, EW) with its own number; every playing pair seated once or resting."""
    numbers = {p.number for p in playing}
    sides = [
        (index, int(t[0]), int(t[1])) if len(t) == 2 else (int(t[0]), int(t[1]), int(t[2]))
        for index, t in enumerate(tables, 1)
    ]
    seen: list[int] = [n for _t, ns, ew in sides for n in (ns, ew)] + [int(b) for b in byes]
    table_numbers = [t for t, _ns, _ew in sides]
    if sorted(seen) != sorted(numbers) or len(set(table_numbers)) != len(table_numbers):
        raise TournamentError(
            _("Seat every pair exactly once, at a table or with a bye."),
            code="bad_hand_seating",
        )
    return sorted(sides), [int(b) for b in byes]


def _pasted(
    text: str, number: int, playing: list[BurracoPair]
) -> tuple[list[tuple[int, int, int]], list[int]]:
    """(table, NS, EW) of each table and the byes of a pasted pairing, or every problem
    with it."""
    turn, problems = parse_pairing(text or "", number, [p.number for p in playing])
    if turn is None:
        raise TournamentError(
            _("This pairing cannot seat the turn: %(detail)s")
            % {"detail": "; ".join(p.message for p in problems)},
            code="pairing_invalid",
            problems=[
                {
                    "line": p.params.get("line"),
                    "code": p.code,
                    "params": dict(p.params),
                    "message": p.message,
                }
                for p in problems
            ],
        )
    sides = [(int(t.number), int(t.ns), int(t.ew)) for t in turn.tables]
    return sorted(sides), [int(b) for b in turn.byes]


def _danese_standings(event: Event, playing: list[BurracoPair], last: bool) -> movements.Standings:
    numbers = [p.number for p in playing]
    rows = ranking_so_far(event, numbers)
    met: dict[int, set[int]] = {n: set() for n in numbers}
    previous: dict[int, int | None] = dict.fromkeys(numbers)
    byes: dict[int, int] = dict.fromkeys(numbers, 0)
    history = PairTurnResult.objects.filter(round__event=event).order_by("round__number")
    for pair, opponent, bye in history.values_list("pair__number", "opponent__number", "bye"):
        if pair not in met:
            continue
        if bye:
            byes[pair] += 1
            previous[pair] = None
        elif opponent is not None:
            met[pair].add(opponent)
            previous[pair] = opponent
    ranked = [r.pair for r in rows if r.pair in met]
    return movements.Standings(
        tuple(
            movements.PairStanding(
                pair=n,
                vp=float(next(r.vp for r in rows if r.pair == n)),
                mp=next(r.mp_difference for r in rows if r.pair == n),
                previous=previous[n],
                met=frozenset(met[n]),
                byes=byes[n],
            )
            for n in ranked
        ),
        last_turn=last,
    )


def _refuse_absent(playing: list[BurracoPair], individual: bool = False) -> None:
    """Once the referee checks entries in, the first turn seats only entries checked in:
    the others are checked in or withdrawn first (nobody checked in: check-in is not
    used). An individual tournament's entries are players, named as such."""
    absent = sorted(p.number for p in playing if not p.checked_in)
    if absent and len(absent) < len(playing):
        shown = ", ".join(map(str, absent))
        if individual:
            message = ngettext(
                "Player %(pairs)s is not checked in: check them in or withdraw them first.",
                "Players %(pairs)s are not checked in: check them in or withdraw them first.",
                len(absent),
            )
        else:
            message = ngettext(
                "Pair %(pairs)s is not checked in: check it in or withdraw it first.",
                "Pairs %(pairs)s are not checked in: check them in or withdraw them first.",
                len(absent),
            )
        raise TournamentError(
            message % {"pairs": shown},
            code="not_checked_in",
            params={"pairs": absent},
        )


def _round_robin_groups(event: Event, groups: int | None, done: int) -> int:
    """The groups of the round robin: chosen at its first turn, the same for the others."""
    kept = event.ranking.get("round_robin_groups")
    if done and kept and groups not in (None, kept):
        raise TournamentError(
            _("This round robin plays in %(groups)s groups, chosen at its first turn.")
            % {"groups": kept},
            code="round_robin_groups",
            params={"groups": kept},
        )
    return (kept if done and kept else groups) or 1


def met_again(
    event: Event, sides: Sequence[tuple[int, int, int]], met: set[frozenset[int]] | None = None
) -> list[tuple[int, int]]:
    """The pairs of `sides` (table, NS, EW) that already met in the tournament (or in
    `met`, when given), each (lower number, higher number)."""
    if met is None:
        met = {
            frozenset(pairs)
            for pairs in PairTurnResult.objects.filter(
                round__event=event, opponent__isnull=False
            ).values_list("pair__number", "opponent__number")
        }
    return sorted(
        (min(ns, ew), max(ns, ew)) for _table, ns, ew in sides if frozenset((ns, ew)) in met
    )


def _refuse_rematches(event: Event, movement: str, sides: Sequence[tuple[int, int, int]]) -> None:
    """A fixed calendar (Mitchell, round robin) never meets twice while its pairs stay the
    same; once they changed (a late entry, a withdrawal, a first turn seated otherwise) its
    next turn may seat pairs that already met: refused, saying what to do instead."""
    again = met_again(event, sides)
    if again:
        shown = ", ".join(f"{a}–{b}" for a, b in again)
        raise TournamentError(
            _(
                "The movement would make pairs meet again (%(pairs)s): the pairs changed "
                "since it began (a late entry, a withdrawal, or a first turn made otherwise). "
                "Use Danese (no rematch) or paste a pairing instead."
            )
            % {"pairs": shown},
            code="movement_rematch",
            params={"pairs": [list(p) for p in again], "movement": movement},
        )


def _individual_movement(event: Event, movement: str) -> str:
    """An individual tournament seats every turn by the individual movement ("first"
    included); a pair tournament never does."""
    if event.individual:
        if movement not in ("first", "individual"):
            raise TournamentError(
                _("An individual tournament seats every turn by the individual movement."),
                code="individual_only",
                params={"movement": movement},
            )
        return "individual"
    if movement == "individual":
        raise TournamentError(
            _("The individual movement seats individual tournaments only."),
            code="not_individual",
        )
    return movement
