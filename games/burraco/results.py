"""Each pair's result of a turn, written from its table's score card or its bye, and the
ranking so far read back from those rows (the pure maths: scoring.engine.burraco.ranking)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q

from games.core.signals import deals_changed
from games.models import Event, Game, PairTurnResult, Round, ScoreCard, Table
from scoring.engine import burraco
from scoring.engine.burraco.ranking import PairRow, TurnScore, bye_score, rank_pairs


def ruleset_of(event: Event) -> burraco.Ruleset:
    return burraco.ruleset_from_json(event.ruleset)


def tie_breaks_of(event: Event) -> list[str]:
    return list(event.ranking.get("tie_breaks", ["mp_difference", "head_to_head"]))


# A free match's game plays no fixed number of hands: its deals_target is 0.
FREE_MATCH = 0


def is_free_match(game: Game) -> bool:
    return game.deals_target == FREE_MATCH


def match_state(card: ScoreCard, game: Game) -> burraco.MatchState:
    """The engine's free-match state of the card's totals (target from the game's rules)."""
    target = burraco.ruleset_from_json(game.ruleset).target
    return burraco.free_match_state(card.ns_total, card.ew_total, target)


def card_result(card: ScoreCard, game: Game, hands_per_turn: int) -> dict[str, Any]:
    """The engine's turn result of the card's totals: difference, winner and VP. A free
    match's winner is the engine's once complete; its "VP" 20-0 (the pair rating's input)."""
    if hands_per_turn == FREE_MATCH:
        state = match_state(card, game)
        vp = {"NS": 10, "EW": 10}
        if state.winner is not None:
            vp = {state.winner: 20, "EW" if state.winner == "NS" else "NS": 0}
        return {
            "difference": abs(card.ns_total - card.ew_total),
            "winner": state.winner,
            "vp": vp,
        }
    ruleset = burraco.ruleset_from_json(game.ruleset)
    return burraco.turn_result(card.ns_total, card.ew_total, ruleset.vp_tables[hands_per_turn])


def card_complete(card: ScoreCard, game: Game, hands: int) -> bool:
    """Every hand is in: the turn's number of hands, or the free match won (the engine)."""
    if is_free_match(game):
        return match_state(card, game).complete
    return hands == game.deals_target


def _line_rows(table: Table) -> list[tuple[int, int | None, int, int | None, str]]:
    """(entry, partner, opponent, second opponent, line) of each entry at the table: two
    pairs, or (individual tournaments) four players, each credited with their line's."""
    ns = [table.ns_pair_id, table.ns_partner_id]
    ew = [table.ew_pair_id, table.ew_partner_id]
    rows = []
    for line, own, other in (("NS", ns, ew), ("EW", ew, ns)):
        for index, entry in enumerate(own):
            if entry is not None:
                rows.append((entry, own[1 - index], other[0], other[1], line))
    return rows


def write_table_results(*, table: Table, game: Game, card: ScoreCard, hands: int) -> None:
    """The rows of this table's turn as the card stands (penalties kept): both pairs', or
    in an individual tournament the four players', each with their line's VP and MP."""
    final = card.status == ScoreCard.Status.CONFIRMED
    free = is_free_match(game)
    totals = {
        "NS": (card.ns_total, card.ew_total, card.ns_vp),
        "EW": (card.ew_total, card.ns_total, card.ew_vp),
    }
    for pair_id, partner_id, opponent_id, opponent_b_id, line in _line_rows(table):
        mp_for, mp_against, vp = totals[line]
        PairTurnResult.objects.update_or_create(
            round_id=table.round_id,
            pair_id=pair_id,
            defaults={
                "table": table,
                "opponent_id": opponent_id,
                "partner_id": partner_id,
                "opponent_b_id": opponent_b_id,
                "line": line,
                "bye": False,
                "hands": hands,
                "mp_for": mp_for,
                "mp_against": mp_against,
                # A free match scores no VP: its standings count matches won.
                "vp": Decimal(0 if free else vp),
                "final": final,
            },
        )


def seat_row(rnd: Round, pair_id: int) -> PairTurnResult | None:
    """The row of an entry seated at a table of this turn whose card has no hand yet
    (its table, line, partner and opponents; nothing scored): what a penalty given then
    is kept on, until the card's hands write the rest. None if it plays no table here."""
    seated = Q(ns_pair_id=pair_id) | Q(ew_pair_id=pair_id)
    seated |= Q(ns_partner_id=pair_id) | Q(ew_partner_id=pair_id)
    table = Table.objects.filter(seated, round=rnd).first()
    if table is None:
        return None
    for entry, partner_id, opponent_id, opponent_b_id, line in _line_rows(table):
        if entry == pair_id:
            return PairTurnResult.objects.create(
                round=rnd,
                pair_id=pair_id,
                table=table,
                opponent_id=opponent_id,
                partner_id=partner_id,
                opponent_b_id=opponent_b_id,
                line=line,
                final=False,
            )
    return None


def write_bye(*, rnd: Round, pair_id: int) -> PairTurnResult:
    """A resting pair's row: the configured bye score (14 VP and the band's lowest MP)."""
    vp, mp = bye_score(ruleset_of(rnd.event), rnd.hands_per_turn or 3)
    row, _ = PairTurnResult.objects.update_or_create(
        round=rnd,
        pair_id=pair_id,
        defaults={
            "table": None,
            "opponent": None,
            "line": "",
            "bye": True,
            "hands": 0,
            "mp_for": mp,
            "mp_against": 0,
            "vp": vp,
            "final": True,
        },
    )
    return row


def announce(event_id: int, game_ids: list[int], *, rated: bool = False) -> None:
    """The standings queued once the transaction commits (the Barbu signal, no league);
    `rated`: a score card was confirmed or corrected, so the pair ratings follow too."""
    transaction.on_commit(
        lambda: deals_changed.send(
            sender=Game,
            game_ids=game_ids,
            event_ids=[event_id],
            complete_league_ids=[],
            burraco_rated=rated,
        )
    )


def turn_scores(event_id: int) -> list[TurnScore]:
    """Every result row of the tournament as the pure ranking reads it (one query)."""
    rows = PairTurnResult.objects.filter(round__event_id=event_id).values_list(
        "round__number",
        "pair__number",
        "opponent__number",
        "opponent_b__number",
        "vp",
        "mp_for",
        "mp_against",
        "penalty_vp",
        "penalty_mp",
    )
    return [
        TurnScore(
            turn=turn,
            pair=pair,
            opponent=opponent,
            vp=vp,
            mp_for=mp_for,
            mp_against=mp_against,
            penalty_vp=penalty_vp,
            penalty_mp=penalty_mp,
            opponents=(opponent, opponent_b) if opponent_b is not None else (),
        )
        for turn, pair, opponent, opponent_b, vp, mp_for, mp_against, penalty_vp, penalty_mp in rows
    ]


def ranking_so_far(event: Event, entries: list[int] | None = None) -> list[PairRow]:
    """The pairs ranked by their results so far (two queries at most)."""
    if entries is None:
        entries = list(event.pairs.values_list("number", flat=True))
    draw = event.ranking.get("draw_order") or None
    draw_order = {int(k): int(v) for k, v in draw.items()} if draw else None
    return rank_pairs(turn_scores(event.pk), tie_breaks_of(event), draw_order, entries)
