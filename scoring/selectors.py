"""Reads for the public pages and the API: stored standings, histories, statistics, sheets.

Every function here makes a fixed number of queries whatever the size of the league or
the player's history; standings are the stored rows (one query). What a visitor may see is
the models' one rule (Event.objects.visible_to and its kin), through Viewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db.models import Avg, Count, Exists, OuterRef, Q, Sum
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.models import Club, League, Player
from games.barbu.selectors import game_record
from games.models import Deal, DealScore, Event, Game, PairTurnResult, Table
from scoring.aggregates import ranking_of
from scoring.engine import barbu
from scoring.engine import ranking as maths
from scoring.models import (
    EventStanding,
    LeagueStanding,
    PairStanding,
    PlayerRating,
    RatingHistory,
)

TIEBREAK_LABELS = {
    "wins": gettext_lazy("more games won at the table"),
    "best_game": gettext_lazy("better best game"),
    "head_to_head": gettext_lazy("head-to-head results between the tied players"),
    "average": gettext_lazy("better average per game"),
    "games": gettext_lazy("more games played"),
    "total": gettext_lazy("more points in total"),
    "tied": gettext_lazy("level after every tie-break: the place is shared"),
}


# --- Who may see what ----------------------------------------------------------------


@dataclass(frozen=True)
class Viewer:
    """Who is reading: the user, for the models' one rule of visibility
    (Event/League/Club/Player.objects.visible_to), and the clubs they organise (read when a
    page first asks: organisers see their links)."""

    user: Any

    @cached_property
    def organises(self) -> frozenset[int]:
        """The ids of the clubs the user organises (every club for a superuser)."""
        return frozenset(Club.objects.organised_by(self.user).values_list("pk", flat=True))

    def organiser_of(self, club_id: int) -> bool:
        return club_id in self.organises

    def events(self) -> Any:
        """The events the user may read."""
        return Event.objects.visible_to(self.user)

    def visible(self, event: str) -> Q:
        """A filter on rows reaching their event through the path `event` (e.g.
        "game__table__round__event"): those of the events the user may read."""
        return Q(**{f"{event}__in": self.events()})


def viewer(user: Any) -> Viewer:
    return Viewer(user)


def managed_clubs(who: Viewer) -> list[Club]:
    """The clubs the visitor organises (every club for a superuser), by name."""
    return list(Club.objects.organised_by(who.user).order_by("name"))


def visible_event(event_id: int, who: Viewer) -> Event:
    """The event, if the visitor may read it, with `public`: whether anyone may (the live
    page keeps one render of a public evening for every visitor)."""
    public = Event.objects.visible_to(None).filter(pk=OuterRef("pk"))
    event = (
        who.events()
        .select_related("club", "league")
        .annotate(public=Exists(public))
        .filter(pk=event_id)
        .first()
    )
    if event is None:
        raise Http404(_("No such evening."))
    return event


def visible_league(league_id: int, who: Viewer) -> League:
    league = League.objects.visible_to(who.user).select_related("club").filter(pk=league_id).first()
    if league is None:
        raise Http404(_("No such league."))
    return league


def visible_club(slug: str, who: Viewer) -> Club:
    club = Club.objects.visible_to(who.user).filter(slug=slug).first()
    if club is None:
        raise Http404(_("No such club."))
    return club


# --- Ranking explained -------------------------------------------------------------------


def explain_ranking(ranking: maths.Ranking, *, league: bool) -> list[str]:
    """The ranking method and its tie-breaks in sentences for the page."""
    points = ", ".join(str(p) for p in ranking.placement_points)
    if ranking.method == "placement":
        lines = [
            _(
                "Each game gives points for the place at the table (%(points)s from first "
                "to fourth); players level at the table share the points of the places "
                "they occupy."
            )
            % {"points": points}
        ]
    elif ranking.method == "average":
        lines = [_("Players are ranked by their average score per game.")]
        if ranking.min_games:
            lines.append(
                _("At least %(n)d games are needed to qualify; the others are listed below.")
                % {"n": ranking.min_games}
            )
    else:
        lines = [_("Players are ranked by the total of their scores in every game.")]
    if league and ranking.best_evenings:
        lines.append(
            _("Only each player's best %(n)d evenings count.") % {"n": ranking.best_evenings}
        )
    if league:
        lines.append(_("League tables count complete games only."))
    if ranking.tiebreaks:
        lines.append(
            _("Ties are broken by, in order: %(list)s.")
            % {"list": "; ".join(str(TIEBREAK_LABELS[t]) for t in ranking.tiebreaks)}
        )
    return lines


# --- Standings ----------------------------------------------------------------------------


_ROW_COLUMNS = ("rank", "player_id", "player__name", "points", "games", "details", "tiebreak_note")
_LEAGUE_COLUMNS = ("evenings", "previous_rank")


def _rows(standings: Any, extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The stored rows as the pages and the API show them, read as plain values (no model
    instance per row: an evening's standings are read cold after every deal)."""
    labels = {key: str(label) for key, label in TIEBREAK_LABELS.items()}
    rows = []
    for rank, player_id, name, points, games, details, note, *more in standings.order_by(
        "rank", "player__name"
    ).values_list(*_ROW_COLUMNS, *extra):
        rows.append(
            {
                "rank": rank,
                "player_id": player_id,
                "player": name,
                "points": maths.number(points),
                "games": games,
                "details": details,
                "tiebreak": note,
                "tiebreak_label": labels.get(note, "") if note else "",
                **dict(zip(extra, more, strict=True)),
            }
        )
        if "previous_rank" in extra:  # LeagueStanding.movement
            previous = rows[-1]["previous_rank"]
            rows[-1]["movement"] = None if previous is None else previous - rank
    return rows


def event_standings(event_id: int) -> list[dict[str, Any]]:
    """The stored standings of an evening (one query)."""
    return _rows(EventStanding.objects.filter(event_id=event_id))


def league_standings(league_id: int) -> list[dict[str, Any]]:
    """The stored league table (one query)."""
    return _rows(LeagueStanding.objects.filter(league_id=league_id), _LEAGUE_COLUMNS)


TIEBREAK_WORDS = {
    "vp": gettext_lazy("VP"),
    "mp_difference": gettext_lazy("MP difference"),
    "head_to_head": gettext_lazy("head-to-head"),
    "draw": gettext_lazy("the referee's draw"),
}


def pair_standings(event_id: int) -> list[dict[str, Any]]:
    """The stored pair ranking of a Burraco tournament (one query)."""
    rows = (
        PairStanding.objects.filter(event_id=event_id)
        .select_related("pair__player_a", "pair__player_b")
        .order_by("rank", "pair__number")
    )
    return [
        {
            "rank": s.rank,
            "pair": s.pair.number,
            "pair_id": s.pair_id,
            "names": s.pair.names,
            "players": s.pair.player_names,
            "player_id": s.pair.solo_player_id,
            "vp": maths.number(s.vp),
            "mp_difference": s.mp_difference,
            "turns": s.turns,
            "byes": s.byes,
            "penalty_vp": s.details.get("penalty_vp", 0),
            "penalty_mp": s.details.get("penalty_mp", 0),
            "unconfirmed": s.details.get("unconfirmed", 0),
            "shared": s.details.get("shared", False),
            "decided_by": str(TIEBREAK_WORDS.get(s.tiebreak_note, ""))
            if s.tiebreak_note and s.tiebreak_note != "vp"
            else "",
            # The key of the tie-break that placed it below the pair above, and the
            # values of the tie-breaks computed for it (the API's answer).
            "tiebreak": s.tiebreak_note if s.tiebreak_note != "vp" else "",
            "tie_break_values": s.details.get("tie_break_values", {}),
            # An evening of free matches: matches won, lost and still being played.
            **{"won": s.won, "lost": s.lost, "playing": s.details.get("playing", 0)},
        }
        for s in rows
    ]


def burraco_turns(event: Event) -> list[dict[str, Any]]:
    """Each turn's tables of a Burraco tournament: pairs, totals, VP, card state, and the
    pairs resting (two queries). An individual tournament's players are named: "3. Anna"
    (`ns_names`, `ew_names`, `bye_names`)."""
    games = (
        Game.objects.filter(table__round__event=event)
        .select_related("table__round", "table__ns_pair", "table__ew_pair", "card")
        .select_related("table__ns_partner__player_a", "table__ew_partner__player_a")
        .select_related("table__ns_pair__player_a", "table__ew_pair__player_a")
        .order_by("table__round__number", "table__number")
    )
    turns: dict[int, dict[str, Any]] = {}
    for game in games:
        table = game.table
        turn = turns.setdefault(table.round.number, {"number": table.round.number, "tables": []})
        card = getattr(game, "card", None)
        turn["tables"].append(
            {
                "table": table.number,
                "ns": table.ns_pair.number if table.ns_pair else None,
                "ew": table.ew_pair.number if table.ew_pair else None,
                # An individual tournament's lines: each its two players' numbers.
                "ns_players": [e.number for e in table.side("NS")],
                "ew_players": [e.number for e in table.side("EW")],
                "ns_names": _players_named(table, "NS"),
                "ew_names": _players_named(table, "EW"),
                "hands": game.deals_count,
                "hands_per_turn": game.deals_target,
                "totals": game.totals,
                "vp": (card.ns_vp, card.ew_vp) if card else None,
                "confirmed": bool(card and card.status == "confirmed"),
                "status": card.status if card else "open",
            }
        )
    # Who rested each turn (one query).
    rested = (
        PairTurnResult.objects.filter(round__event=event, bye=True)
        .values_list("round__number", "pair__number", "pair__player_a__name")
        .order_by("round__number", "pair__number")
    )
    for number, pair, name in rested:
        if number in turns:
            turns[number].setdefault("byes", []).append(pair)
            turns[number].setdefault("bye_names", []).append(f"{pair}. {name}")
    return list(turns.values())


def _players_named(table: Table, line: str) -> str:
    """An individual tournament's line as "3. Anna – 7. Carla" (empty for a pair's)."""
    if table.ns_partner_id is None:
        return ""
    return " – ".join(f"{e.number}. {e.names}" for e in table.side(line))


def event_tables(event: Event) -> list[dict[str, Any]]:
    """Each table's game and its progress, by round and table (one query)."""
    games = (
        Game.objects.filter(table__round__event=event)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    )
    return [
        {
            "game_id": g.pk,
            "round": g.table.round.number,
            "table": g.table.number,
            "players": list(g.player_names),
            "totals": g.totals,
            "seats": [{"name": n, "total": g.totals.get(n, 0)} for n in g.player_names],
            "deals_count": g.deals_count,
            "deals_target": g.deals_target,
            "complete": g.status == Game.Status.COMPLETE,
            "percent": round(100 * g.deals_count / g.deals_target) if g.deals_target else 0,
        }
        for g in games
    ]


def standings_status(event: Event, tables: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether an evening's standings are final, and the sentence saying so.

    Provisional while the evening runs or any of its games is unfinished; once it is
    closed with unfinished games, the sentence says how they count (Event.unfinished).
    """
    unfinished = sum(1 for t in tables if not t["complete"])
    running = event.status != Event.Status.CLOSED
    if running:
        sentence = _("Provisional standings: the evening is still being played.")
    elif unfinished and event.unfinished == "exclude":
        sentence = ngettext(
            "Provisional standings: %(count)s game is not finished and does not count.",
            "Provisional standings: %(count)s games are not finished and do not count.",
            unfinished,
        ) % {"count": unfinished}
    elif unfinished:
        sentence = ngettext(
            "Provisional standings: %(count)s game is not finished and counts as it stands.",
            "Provisional standings: %(count)s games are not finished and count as they stand.",
            unfinished,
        ) % {"count": unfinished}
    else:
        sentence = _("Final standings: every game is complete.")
    return {
        "provisional": running or unfinished > 0,
        "unfinished": unfinished,
        "sentence": sentence,
    }


def event_ranking(event: Event) -> maths.Ranking:
    return ranking_of(event, event.league)


# --- Club --------------------------------------------------------------------------------


def club_page(club: Club, who: Viewer, *, now: Any = None) -> dict[str, Any]:
    now = now or timezone.now()
    leagues = club.leagues.visible_to(who.user)
    events = list(
        club.events.visible_to(who.user).select_related("league").order_by("-starts_at", "-id")
    )
    upcoming = [e for e in events if e.status != Event.Status.CLOSED and e.starts_at >= now] + [
        e for e in events if e.status == Event.Status.RUNNING and e.starts_at < now
    ]
    upcoming.sort(key=lambda e: e.starts_at)
    past = [e for e in events if e not in upcoming]
    return {"leagues": list(leagues), "upcoming": upcoming, "past": past}


# --- Home --------------------------------------------------------------------------------


def home_page(*, running: int = 10, recent: int = 8) -> dict[str, Any]:
    """The public clubs, the evenings running now and the latest results (four queries).

    Only what anyone may see (what a visitor who is not logged in may see).
    """
    public = Event.objects.visible_to(None).select_related("club")
    now_playing = list(
        public.filter(status=Event.Status.RUNNING).order_by("-starts_at", "-id")[:running]
    )
    results = list(public.filter(status=Event.Status.CLOSED).order_by("-starts_at", "-id")[:recent])
    winners: dict[int, list[str]] = {}
    for event_id, name in (
        EventStanding.objects.filter(event__in=[e.pk for e in results], rank=1)
        .order_by("player__name")
        .values_list("event_id", "player__name")
    ):
        winners.setdefault(event_id, []).append(name)
    for event in results:
        event.winners = winners.get(event.pk, [])
    shown = Q(events__in=Event.objects.visible_to(None))
    clubs = (
        Club.objects.visible_to(None)
        .annotate(
            evenings=Count("events", filter=shown),
            live=Count("events", filter=shown & Q(events__status=Event.Status.RUNNING)),
        )
        .order_by("name")
    )
    return {"running": now_playing, "results": results, "clubs": list(clubs)}


# --- Player ------------------------------------------------------------------------------


def visible_player(player_id: int, who: Viewer) -> Player:
    """A player of a club the visitor may see (one query)."""
    player = Player.objects.visible_to(who.user).filter(pk=player_id).first()
    if player is None:
        raise Http404(_("No such player."))
    return player


def player_clubs(player: Player, who: Viewer) -> list[Club]:
    """The clubs of the player the visitor may see, by name (one query)."""
    clubs = Club.objects.visible_to(who.user).filter(memberships__player=player)
    return list(clubs.order_by("name").distinct())


def player_evenings(player: Player, who: Viewer) -> list[dict[str, Any]]:
    """The player's rank in each evening (one query), newest first."""
    rows = (
        EventStanding.objects.filter(player=player)
        .filter(who.visible("event"))
        .select_related("event")
        .order_by("-event__starts_at", "-event_id")
    )
    return [
        {
            "event_id": s.event_id,
            "event": s.event.name,
            "date": s.event.starts_at,
            "rank": s.rank,
            "points": maths.number(maths.Fraction(s.points)),
            "games": s.games,
        }
        for s in rows
    ]


def contract_statistics(player: Player, who: Viewer) -> list[dict[str, Any]]:
    """Per contract: deals, average score, K♥ taken, doubles won and lost (one query)."""
    rows = (
        DealScore.objects.filter(player=player)
        .filter(who.visible("game__table__round__event"))
        .values("contract")
        .annotate(
            deals=Count("id"),
            average=Avg("score"),
            total=Sum("score"),
            kings=Count("id", filter=Q(took_king=True)),
            won=Sum("doubles_won"),
            lost=Sum("doubles_lost"),
            dealt=Count("id", filter=Q(is_dealer=True)),
        )
        .order_by("contract")
    )
    order = {c: i for i, c in enumerate(barbu.CONTRACTS)}
    out = [
        {
            "contract": r["contract"],
            "deals": r["deals"],
            "average": round(float(r["average"] or 0), 1),
            "total": r["total"] or 0,
            "kings": r["kings"],
            "doubles_won": r["won"] or 0,
            "doubles_lost": r["lost"] or 0,
            "dealt": r["dealt"],
        }
        for r in rows
    ]
    out.sort(key=lambda r: order.get(r["contract"], 99))
    return out


def player_rating(player: Player, who: Viewer) -> dict[str, Any]:
    """The current rating and its history over the visible games (two queries)."""
    current = PlayerRating.objects.filter(player=player).first()
    history = (
        RatingHistory.objects.filter(player=player)
        .filter(who.visible("event"))
        .select_related("event")
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
                "event": h.event.name,
                "date": h.event.starts_at,
                "place": float(h.place),
                "mu": round(h.mu, 3),
                "sigma": round(h.sigma, 3),
                "ordinal": round(h.ordinal, 3),
            }
            for h in history
        ],
    }


# --- Score sheet ---------------------------------------------------------------------------


def visible_game(game_id: int, who: Viewer) -> Game:
    games = Game.objects.filter(who.visible("table__round__event"))
    game = games.select_related("table__round__event__club").filter(pk=game_id).first()
    if game is None:
        raise Http404(_("No such game."))
    return game


def score_sheet(game: Game) -> dict[str, Any]:
    """The paper score sheet: a row per deal with running totals, a subtotal after each
    dealer's turn, and the italian6 settlement where the rules settle turns."""
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    players = list(game.player_names)
    if not deals:
        return {"players": players, "rows": [], "totals": {p: 0 for p in players}}
    scores = barbu.score_game(game_record(game, deals))
    turn_end = {turn["deals"][-1]: turn for turn in scores["turns"]}
    per_turn = barbu.ruleset_from_json(game.ruleset).deals_per_turn
    running = dict.fromkeys(players, 0)
    rows: list[dict[str, Any]] = []
    for deal, sheet in zip(deals, scores["deals"], strict=True):
        for p in players:
            running[p] += sheet["score"][p]
        rows.append(
            {
                "kind": "deal",
                "number": sheet["number"],
                "dealer": sheet["dealer"],
                "contract": sheet["contract"],
                "trump": (deal.data.get("trump") if sheet["contract"] == "trumps" else None),
                "doubles": len(deal.data.get("doubles") or []),
                "status": deal.status,
                "status_label": str(Deal.Status(deal.status).label),
                "cells": [sheet["score"][p] for p in players],
                "running": [running[p] for p in players],
                "pairs": [(sheet["score"][p], running[p]) for p in players],
            }
        )
        turn = turn_end.get(sheet["number"])
        if turn is not None and len(turn["deals"]) == per_turn:
            rows.append(
                {
                    "kind": "subtotal",
                    "dealer": turn["dealer"],
                    "cells": [turn["score"][p] for p in players],
                }
            )
            if "settlement" in turn:
                for p in players:
                    running[p] += turn["settlement"][p]
                rows.append(
                    {
                        "kind": "settlement",
                        "dealer": turn["dealer"],
                        "cells": [turn["settlement"][p] for p in players],
                        "running": [running[p] for p in players],
                        "pairs": [(turn["settlement"][p], running[p]) for p in players],
                    }
                )
    return {
        "players": players,
        "rows": rows,
        "totals": [scores["totals"][p] for p in players],
        "ranking": scores["ranking"],
        "complete": scores["complete"],
    }
