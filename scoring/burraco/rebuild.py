"""A Burraco tournament's stored pair ranking, rebuilt from its turn results.

The same machinery as Barbu's evenings (scoring/barbu/rebuild.py), reached through
scoring/rebuild.py: the event row locked, the
PairTurnResult rows read in one query, ranked by the pure scoring.engine.burraco.ranking, and
only the rows that changed written; a change announced to the live page's pollers once
committed (games/core/live.py). Three queries
whatever the number of pairs (the lock, the results, the stored rows) plus the writes.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from games.burraco import free_matches
from games.core import live
from games.models import Event, PairTurnResult
from scoring.engine import ranking as maths
from scoring.engine.burraco.free_match_ranking import MatchResult, rank_evening
from scoring.engine.burraco.ranking import TurnScore, rank_pairs
from scoring.models import PairStanding

COMPARED = (
    "rank",
    "vp",
    "mp_difference",
    "turns",
    "byes",
    "won",
    "lost",
    "details",
    "tiebreak_note",
)

# Hundredths, as victory points are stored (PairStanding.vp).
CENTS = Decimal("0.01")


def _number(value: Any) -> Any:
    return maths.number(value)


def rebuild_pair_standings(*, event_id: int) -> int:
    """Bring a Burraco tournament's pair ranking up to date, inside the caller's
    transaction; the number of pairs ranked."""
    try:
        event = Event.objects.select_for_update(of=("self",)).get(pk=event_id)
    except Event.DoesNotExist:
        return 0
    new = _free_match_rows(event) if event.is_free_matches else _tournament_rows(event)
    return _write(event_id, new)


def _free_match_rows(event: Event) -> dict[int, dict[str, Any]]:
    """An evening of free matches: matches won, lost, the point difference (one query
    for the results, one for the pairs)."""
    rows = PairTurnResult.objects.filter(round__event_id=event.pk).values_list(
        "pair_id", "mp_for", "mp_against", "final"
    )
    results = [
        MatchResult(pair, mp_for, mp_against, final) for pair, mp_for, mp_against, final in rows
    ]
    entries = list(event.pairs.order_by("number").values_list("pk", flat=True))
    ranked = rank_evening(results, free_matches.target_of(event), entries)
    return {
        r.entry: {
            "rank": r.place,
            "vp": Decimal(0).quantize(CENTS),
            "mp_difference": r.difference,
            "turns": r.played,
            "byes": 0,
            "won": r.won,
            "lost": r.lost,
            "details": {
                "points_for": r.points_for,
                "points_against": r.points_against,
                "playing": r.playing,
                "unconfirmed": r.unconfirmed,
            },
            "tiebreak_note": "",
        }
        for r in ranked
    }


def _tournament_rows(event: Event) -> dict[int, dict[str, Any]]:
    event_id = event.pk
    rows = PairTurnResult.objects.filter(round__event_id=event_id).values_list(
        "round__number",
        "pair_id",
        "opponent_id",
        "opponent_b_id",
        "vp",
        "mp_for",
        "mp_against",
        "penalty_vp",
        "penalty_mp",
        "final",
    )
    scores = []
    unconfirmed: dict[int, int] = {}
    for turn, pair, opponent, opponent_b, vp, mp_for, mp_against, p_vp, p_mp, final in rows:
        # An individual tournament's player met both players of the other line.
        both = (opponent, opponent_b) if opponent_b is not None and opponent is not None else ()
        scores.append(
            TurnScore(turn, pair, opponent, vp, mp_for, mp_against, p_vp, p_mp, opponents=both)
        )
        if not final:
            unconfirmed[pair] = unconfirmed.get(pair, 0) + 1
    entries = list(event.pairs.values_list("pk", flat=True))
    draw = event.ranking.get("draw_order") or None
    draw_order = None
    if draw:
        numbers = dict(event.pairs.values_list("number", "pk"))
        draw_order = {numbers[int(k)]: int(v) for k, v in draw.items() if int(k) in numbers}
    ranked = rank_pairs(
        scores,
        event.ranking.get("tie_breaks", ["mp_difference", "head_to_head"]),
        draw_order,
        entries,
    )
    return {
        r.pair: {
            "rank": r.place,
            "vp": Decimal(r.vp).quantize(CENTS),
            "mp_difference": r.mp_difference,
            "turns": r.turns,
            "byes": r.byes,
            "details": {
                "penalty_vp": _number(r.penalty_vp),
                "penalty_mp": r.penalty_mp,
                "shared": r.shared,
                "unconfirmed": unconfirmed.get(r.pair, 0),
                "tie_break_values": {k: _number(v) for k, v in (r.tie_break_values or {}).items()},
            },
            "won": 0,
            "lost": 0,
            "tiebreak_note": r.decided_by or "",
        }
        for r in ranked
    }


def _write(event_id: int, new: dict[int, dict[str, Any]]) -> int:
    stored = {
        values[0]: values[1:]
        for values in PairStanding.objects.filter(event_id=event_id).values_list(
            "pair_id", *COMPARED
        )
    }
    changed, vanished = maths.row_changes(
        stored, {p: tuple(row[f] for f in COMPARED) for p, row in new.items()}
    )
    if vanished:
        PairStanding.objects.filter(event_id=event_id, pair_id__in=vanished).delete()
    if changed:
        PairStanding.objects.bulk_create(
            [PairStanding(event_id=event_id, pair_id=p, **new[p]) for p in changed],
            update_conflicts=True,
            unique_fields=["event", "pair"],
            update_fields=[*COMPARED, "updated_at"],
        )
    if changed or vanished:  # the live page shows them: its pollers get the new rows
        live.touch_on_commit("event", [event_id])
    return len(new)
