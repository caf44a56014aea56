"""Reads for the public pages and the API that both games share: who may see what (Viewer,
the visible event, league, club, player and game), the club and home pages, and a Burraco
tournament's stored pair ranking and turns. Each game's own reads are in
scoring/barbu/selectors.py and scoring/burraco/selectors.py.

Every function here makes a fixed number of queries whatever the number of events or
players. What a visitor may see is the models' one rule (Event.objects.visible_to and its
kin), through Viewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club, League, Player
from games.models import Event, Game, PairTurnResult, Table
from scoring.engine import ranking as maths
from scoring.models import EventStanding, PairStanding

# --- Who may see what --------------------------------------------------------------------


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


# --- A Burraco tournament ----------------------------------------------------------------


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


# --- Game --------------------------------------------------------------------------------


def visible_game(game_id: int, who: Viewer) -> Game:
    games = Game.objects.filter(who.visible("table__round__event"))
    game = games.select_related("table__round__event__club").filter(pk=game_id).first()
    if game is None:
        raise Http404(_("No such game."))
    return game
