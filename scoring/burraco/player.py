"""A player's Burraco on their page (and the API): the pair tournaments played, with the
partner, place and VP, and the evenings of free matches with the matches won and lost;
statistics from the hands of confirmed score cards; the Burraco pair rating and its
history. A constant number of queries however many tournaments."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Count, F, OuterRef, Q, Subquery

from clubs.models import Player
from games.models import BurracoHand, BurracoPair, Event, Game, PairTurnResult
from scoring.engine import burraco
from scoring.engine.burraco import stats as burraco_stats
from scoring.models import BurracoRating, BurracoRatingHistory, PairStanding
from scoring.selectors import Viewer


def _pairs(player: Player) -> Any:
    return BurracoPair.objects.filter(Q(player_a=player) | Q(player_b=player)).values("pk")


def burraco_tournaments(player: Player, who: Viewer) -> list[dict[str, Any]]:
    """The visible tournaments the player is ranked in, newest first, with the partner
    (None in an individual tournament), the place among how many entries, VP and turns
    (one query)."""
    ranked = (
        PairStanding.objects.filter(event=OuterRef("event"))
        .order_by()
        .values("event")
        .annotate(n=Count("id"))
        .values("n")
    )
    rows = (
        PairStanding.objects.filter(pair__in=_pairs(player))
        .filter(who.visible("event"))
        .annotate(
            pairs=Subquery(ranked),
            event_name=F("event__name"),
            date=F("event__starts_at"),
            individual=F("event__individual"),
            a_id=F("pair__player_a_id"),
            a_name=F("pair__player_a__name"),
            b_id=F("pair__player_b_id"),
            b_name=F("pair__player_b__name"),
            number=F("pair__number"),
            format=F("event__burraco_format"),
        )
        .order_by("-event__starts_at", "-event_id")
    )
    out = []
    for s in rows:
        mine_is_a = s.a_id == player.pk
        out.append(
            {
                "event_id": s.event_id,
                "event": s.event_name,
                "date": s.date,
                "pair": s.number,
                "partner_id": s.b_id if mine_is_a else s.a_id,
                "partner": s.b_name if mine_is_a else s.a_name,
                "individual": s.individual,
                "rank": s.rank,
                "pairs": s.pairs,
                "vp": s.vp,
                "turns": s.turns,
                # An evening of free matches: matches won and lost, their point difference.
                "format": s.format,
                "free": s.format == Event.BurracoFormat.FREE,
                "won": s.won,
                "lost": s.lost,
                "difference": s.mp_difference,
            }
        )
    return out


def burraco_statistics(player: Player, who: Viewer) -> dict[str, Any]:
    """Average MP per hand, burracos per hand and closing rate (those two from the hands
    counted from the cards only), VP per turn played at a table (penalties taken off),
    over the confirmed score cards of visible tournaments (three queries)."""
    pairs = _pairs(player)
    hands = (
        BurracoHand.objects.filter(game__status=Game.Status.COMPLETE)
        .filter(
            Q(game__table__ns_pair__in=pairs)
            | Q(game__table__ew_pair__in=pairs)
            | Q(game__table__ns_partner__in=pairs)
            | Q(game__table__ew_partner__in=pairs)
        )
        .filter(who.visible("game__table__round__event"))
        .values_list(
            "game__table__ns_pair__player_a_id",
            "game__table__ns_pair__player_b_id",
            "game__table__ns_partner__player_a_id",
            "ns_mp",
            "ew_mp",
            "mode",
            "data",
            "game__table__round__event_id",
        )
        .order_by()
    )
    hands = list(hands)
    counted_events = {h[7] for h in hands if h[5] == BurracoHand.Mode.CARDS}
    kinds = {
        pk: burraco.ruleset_from_json(ruleset).kinds
        for pk, ruleset in Event.objects.filter(pk__in=counted_events).values_list("pk", "ruleset")
    }
    played = [
        burraco_stats.played_hand(
            "NS" if player.pk in (ns_a, ns_b, ns_partner) else "EW",
            ns_mp,
            ew_mp,
            data if mode == BurracoHand.Mode.CARDS else None,
            kinds.get(event_id, ()),
        )
        for ns_a, ns_b, ns_partner, ns_mp, ew_mp, mode, data, event_id in hands
    ]
    stats = burraco_stats.hand_statistics(played)
    turn_vps = (
        PairTurnResult.objects.filter(pair__in=pairs, bye=False, final=True)
        # A free match scores no VP: its turns are not the tournaments' turns.
        .filter(round__event__burraco_format=Event.BurracoFormat.TURNS)
        .filter(who.visible("round__event"))
        .annotate(net=F("vp") - F("penalty_vp"))
        .values_list("net", flat=True)
        .order_by()
    )
    turns, vp = burraco_stats.vp_per_turn(Decimal(v) for v in turn_vps)
    return {
        "hands": stats.hands,
        "average_mp": stats.average_mp,
        "counted": stats.counted,
        "burracos_per_hand": stats.burracos_per_hand,
        "closing_rate": stats.closing_rate,
        "closing_percent": None if stats.closing_rate is None else round(stats.closing_rate * 100),
        "turns": turns,
        "vp_per_turn": vp,
    }


def burraco_rating(player: Player, who: Viewer) -> dict[str, Any]:
    """The current Burraco pair rating and its history over visible tournaments (two
    queries)."""
    current = BurracoRating.objects.filter(player=player).first()
    history = (
        BurracoRatingHistory.objects.filter(player=player)
        .filter(who.visible("event"))
        .annotate(event_name=F("event__name"), date=F("event__starts_at"))
        .order_by("order_key")
    )
    return {
        "mu": round(current.mu, 3) if current else None,
        "sigma": round(current.sigma, 3) if current else None,
        "ordinal": round(current.ordinal, 3) if current else None,
        "games": current.games if current else 0,
        "history": [
            {
                "game_id": h.game_id,
                "event_id": h.event_id,
                "event": h.event_name,
                "date": h.date,
                "partner_id": h.partner_id,
                "vp": h.vp,
                "opponent_vp": h.opponent_vp,
                "mu": round(h.mu, 3),
                "sigma": round(h.sigma, 3),
                "ordinal": round(h.ordinal, 3),
            }
            for h in history
        ],
    }


def player_burraco(player: Player, who: Viewer) -> dict[str, Any] | None:
    """Everything Burraco of the player's page; None for a player with no visible pair
    tournament (one query then, six otherwise)."""
    tournaments = burraco_tournaments(player, who)
    if not tournaments:
        return None
    free = [t for t in tournaments if t["free"]]
    return {
        "tournaments": [t for t in tournaments if not t["free"]],
        "free_evenings": free,
        "matches": matches_won_lost(free),
        "stats": burraco_statistics(player, who),
        "rating": burraco_rating(player, who),
    }


def matches_won_lost(lines: list[dict[str, Any]]) -> dict[str, int]:
    """The free matches won and lost over the player's evenings of free matches."""
    won = sum(t["won"] for t in lines if t["free"])
    lost = sum(t["lost"] for t in lines if t["free"])
    return {"won": won, "lost": lost, "played": won + lost}
