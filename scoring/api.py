"""API endpoints of standings and ratings: thin reads of the stored rows (each game's
selectors, scoring/barbu/ and scoring/burraco/).

Visibility is the models' one rule (Event/League/Player.objects.visible_to); pagination,
query-parameter checks and errors are the API's shared ones (games.api.pagination,
games.api.filters, games.api.errors). An evening's standings carry an ETag from the
evening's live version (games/core/live.py): a client polling with If-None-Match gets 304 while
nothing it shows changed.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import League, Player
from games.api.filters import KnownQueryParameters
from games.api.pagination import Pagination
from games.api.schema import READ_ERRORS, errors
from games.api.views import ApiMixin, tournament_of
from games.core import live
from games.models import Event
from scoring import selectors
from scoring.barbu import player_history
from scoring.barbu import selectors as barbu_selectors
from scoring.barbu.aggregates import ranking_of
from scoring.burraco import api as api_burraco
from scoring.burraco import player as burraco_player
from scoring.burraco import selectors as burraco_selectors
from scoring.burraco.seating import Marks, entry_marks
from scoring.engine import ranking as maths


class StandingSerializer(serializers.Serializer):
    """One row of standings. `details`: total, placement, average, wins (complete games
    only), best_game, deals, qualified, unfinished (an evening's games counted that are
    not complete) and, when a tie-break decided the place, tiebreak {key, value}. `tiebreak`:
    the key of the deciding tie-break, "tied" when the place is shared, or empty."""

    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    points = serializers.FloatField()
    games = serializers.IntegerField()
    details = serializers.DictField()
    tiebreak = serializers.CharField()
    tiebreak_label = serializers.CharField()


class LeagueStandingSerializer(StandingSerializer):
    evenings = serializers.IntegerField()
    previous_rank = serializers.IntegerField(allow_null=True)
    movement = serializers.IntegerField(allow_null=True)


class RankingSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=maths.METHODS)
    placement_points = serializers.ListField(child=serializers.FloatField())
    min_games = serializers.IntegerField()
    best_evenings = serializers.IntegerField(allow_null=True)
    tiebreaks = serializers.ListField(child=serializers.CharField())
    explanation = serializers.ListField(child=serializers.CharField())


class HistorySerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    event = serializers.CharField()
    date = serializers.DateTimeField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    total = serializers.FloatField(
        allow_null=True,
        help_text=_("Null: a substitute's share of a game whose result is another's."),
    )
    place = serializers.FloatField(allow_null=True)
    deals = serializers.IntegerField(help_text=_("The deals this player played."))
    complete = serializers.BooleanField()
    note = serializers.CharField(
        allow_blank=True, help_text=_("Who played which deals, when a substitute took over a seat.")
    )


class RatingPointSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    event = serializers.CharField()
    date = serializers.DateTimeField()
    place = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class RatingSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    ordinal = serializers.FloatField(allow_null=True)
    games = serializers.IntegerField()
    history = RatingPointSerializer(many=True)


def _ranking(ranking: maths.Ranking, *, league: bool) -> dict[str, Any]:
    return {
        **maths.ranking_to_json(ranking),
        "explanation": barbu_selectors.explain_ranking(ranking, league=league),
    }


def _visible_player(request: Request, pk: int) -> Player:
    return get_object_or_404(Player.objects.visible_to(request.user), pk=pk)


def _visible_event(request: Request, pk: int, *, tournament: bool = False) -> Event:
    """An event the caller may read (404 otherwise); `tournament`: a Burraco one, a Barbu
    evening being a 404 `wrong_game` that says where its standings are."""
    events = Event.objects.visible_to(request.user).select_related("league")
    if tournament:
        return tournament_of(events, pk)
    return get_object_or_404(events, pk=pk)


def _event_etag(request: Request, token: str | None, event: Event) -> str:
    """The ETag of an evening's standings: its live version (read before the rows it
    labels: games/core/live.py) and what else shapes the answer: the URL (page, size, host),
    the language, the rendering, and the rankings (a league's is saved apart from its
    evenings)."""
    rankings = [event.ranking, event.league.ranking if event.league else None]
    return live.etag(
        token,
        "api-event-standings",
        request.build_absolute_uri(),
        get_language() or "",
        request.accepted_media_type or "",
        json.dumps(rankings, sort_keys=True),
    )


def _event_answer(
    request: Request, pk: int, answer: Any, *, tournament: bool = False
) -> Response | HttpResponse:
    """An evening's standings with their ETag, or 304 when the client holds them already:
    `answer(event)` makes the Response (after the visibility check, 404 for whoever may not
    see the evening)."""
    token = live.version("event", pk)  # before the reads it labels
    event = _visible_event(request, pk, tournament=tournament)
    tag = _event_etag(request, token, event)
    unchanged = live.not_modified(request, tag)
    if unchanged is not None:
        return unchanged
    return live.mark(request, answer(event), tag)


NOT_MODIFIED = OpenApiResponse(
    description="Not Modified: the ETag sent in If-None-Match is still the answer's."
)


def _paginated(view: APIView, request: Request, rows: list, extra: dict) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    response = paginator.get_paginated_response(page)
    response.data = {**extra, **response.data}
    return response


class StandingsView(ApiMixin, APIView):
    filter_backends: list = []

    def check_query(self, request: Request) -> None:
        KnownQueryParameters().filter_queryset(request, None, self)


def _page_schema(name: str, item: Any, **head: Any) -> Any:
    return inline_serializer(
        name,
        {
            **head,
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item(many=True),
        },
    )


class EventStandingsView(StandingsView):
    @extend_schema(
        tags=["standings"],
        summary="An evening's standings, or a Burraco tournament's pair ranking (live)",
        description="`game` says which answer it is: a Barbu evening's player standings, "
        "or a Burraco tournament's pairs (place, pair number, players, VP, MP "
        "difference, the tie-break that decided the place, penalties), or a Burraco "
        'evening of free matches\' pairs (`format` "free": matches won and lost, point '
        "difference). An individual Burraco tournament (`individual: true`) ranks players "
        "in the same shape as pairs: each row is one player, `pair` their number for the "
        "evening, `player_id` their id. With its ETag: If-None-Match answers 304 while "
        "nothing in it changed.",
        responses={
            200: PolymorphicProxySerializer(
                component_name="EventStandingsAnswer",
                serializers=[
                    _page_schema(
                        "EventStandingsPage",
                        StandingSerializer,
                        event=serializers.IntegerField(),
                        status=serializers.CharField(),
                        game=serializers.ChoiceField(choices=["barbu"]),
                        ranking=RankingSerializer(),
                    ),
                    api_burraco.page_schema(_page_schema),
                    api_burraco.free_page_schema(_page_schema),
                ],
                resource_type_field_name=None,
            ),
            304: NOT_MODIFIED,
            **errors(*READ_ERRORS),
        },
        examples=[api_burraco.EXAMPLE, api_burraco.INDIVIDUAL_EXAMPLE],
    )
    def get(self, request: Request, pk: int) -> Response | HttpResponse:
        self.check_query(request)
        return _event_answer(request, pk, lambda event: self._standings(request, event))

    def _standings(self, request: Request, event: Event) -> Response:
        if event.is_burraco:
            rows = (
                api_burraco.free_rows(event.pk)
                if event.is_free_matches
                else api_burraco.rows(event)
            )
            return _paginated(self, request, rows, api_burraco.head(event))
        ranking = barbu_selectors.event_ranking(event)
        return _paginated(
            self,
            request,
            barbu_selectors.event_standings(event.pk),
            {
                "event": event.pk,
                "status": event.status,
                "game": "barbu",
                "ranking": _ranking(ranking, league=False),
            },
        )


class LeagueStandingsView(StandingsView):
    @extend_schema(
        tags=["standings"],
        summary="A league table, with each player's movement since the previous evening",
        description="A Barbu league's player standings (`ranking`: how it ranks), or a "
        'Burraco league of evenings of free matches (`format` "free"): its pairs over the '
        "closed evenings with matches won and lost and the point difference.",
        responses={
            200: PolymorphicProxySerializer(
                component_name="LeagueStandingsAnswer",
                serializers=[
                    _page_schema(
                        "LeagueStandingsPage",
                        LeagueStandingSerializer,
                        league=serializers.IntegerField(),
                        ranking=RankingSerializer(),
                    ),
                    api_burraco.free_season_page_schema(_page_schema),
                ],
                resource_type_field_name=None,
            ),
            **errors(*READ_ERRORS),
        },
        examples=[api_burraco.FREE_SEASON_EXAMPLE],
    )
    def get(self, request: Request, pk: int) -> Response:
        self.check_query(request)
        league = get_object_or_404(League.objects.visible_to(request.user), pk=pk)
        if league.game == "burraco" and burraco_selectors.plays_free_matches(league):
            evenings, rows = api_burraco.free_season(league)
            return _paginated(
                self,
                request,
                rows,
                {"league": league.pk, "game": "burraco", "format": "free", "evenings": evenings},
            )
        ranking = ranking_of(league)
        return _paginated(
            self,
            request,
            barbu_selectors.league_standings(league.pk),
            {"league": league.pk, "ranking": _ranking(ranking, league=True)},
        )


class PlayerHistoryView(StandingsView):
    @extend_schema(
        tags=["standings"],
        summary="A player's games, newest first",
        responses={
            200: _page_schema(
                "PlayerHistoryPage", HistorySerializer, player=serializers.IntegerField()
            ),
            **errors(*READ_ERRORS),
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        self.check_query(request)
        player = _visible_player(request, pk)
        games = player_history.player_games(player, selectors.viewer(request.user))
        games.reverse()
        return _paginated(self, request, games, {"player": player.pk})


class PlayerRatingView(StandingsView):
    @extend_schema(
        tags=["standings"],
        summary="A player's OpenSkill rating and its history over the games",
        responses={200: RatingSerializer, **errors(*READ_ERRORS)},
    )
    def get(self, request: Request, pk: int) -> Response:
        self.check_query(request)
        player = _visible_player(request, pk)
        rating = barbu_selectors.player_rating(player, selectors.viewer(request.user))
        return Response({"player_id": player.pk, "player": player.name, **rating})


class PairRatingPointSerializer(serializers.Serializer):
    game_id = serializers.IntegerField(help_text=_("The score card's game."))
    event_id = serializers.IntegerField()
    event = serializers.CharField()
    date = serializers.DateTimeField()
    partner_id = serializers.IntegerField()
    vp = serializers.IntegerField(help_text=_("The VP of the player's pair on this card."))
    opponent_vp = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class PairRatingSerializer(serializers.Serializer):
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    ordinal = serializers.FloatField(allow_null=True)
    games = serializers.IntegerField(help_text=_("The confirmed score cards rated."))
    history = PairRatingPointSerializer(many=True)


class BurracoStatisticsSerializer(serializers.Serializer):
    hands = serializers.IntegerField(help_text=_("Hands of confirmed score cards."))
    average_mp = serializers.FloatField(allow_null=True)
    counted_hands = serializers.IntegerField(
        help_text=_("Hands counted from the cards: burracos and closings come from these.")
    )
    burracos_per_hand = serializers.FloatField(
        allow_null=True, help_text=_("Null when no hand was counted from the cards.")
    )
    closing_rate = serializers.FloatField(
        allow_null=True,
        help_text=_("From 0 to 1; null when no hand was counted from the cards."),
    )
    turns = serializers.IntegerField(help_text=_("Turns played at a table (byes aside)."))
    vp_per_turn = serializers.FloatField(allow_null=True, help_text=_("Penalties taken off."))
    matches_won = serializers.IntegerField(help_text=_("Free matches won."))
    matches_lost = serializers.IntegerField(help_text=_("Free matches lost."))


class BurracoTournamentSerializer(serializers.Serializer):
    event_id = serializers.IntegerField()
    event = serializers.CharField()
    date = serializers.DateTimeField()
    pair = serializers.IntegerField(
        help_text=_(
            "The pair's number in the tournament; in an individual tournament the "
            "player's own number."
        )
    )
    individual = serializers.BooleanField(
        help_text=_("An individual tournament: partners changed every turn.")
    )
    partner_id = serializers.IntegerField(
        allow_null=True, help_text=_("Null in an individual tournament.")
    )
    partner = serializers.CharField(
        allow_null=True, help_text=_("Null in an individual tournament.")
    )
    rank = serializers.IntegerField()
    pairs = serializers.IntegerField(
        help_text=_("Entries ranked in the tournament: pairs, or players in an individual one.")
    )
    vp = serializers.FloatField()
    turns = serializers.IntegerField()
    format = serializers.ChoiceField(
        choices=["turns", "free"],
        help_text=_("free: an evening of free matches (no VP; matches won and lost)."),
    )
    won = serializers.IntegerField(help_text=_("Free matches won (0 in a tournament)."))
    lost = serializers.IntegerField(help_text=_("Free matches lost (0 in a tournament)."))


class PlayerBurracoSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    rating = PairRatingSerializer()
    statistics = BurracoStatisticsSerializer()
    tournaments = BurracoTournamentSerializer(many=True)


BURRACO_EXAMPLE = {
    "player_id": 12,
    "player": "Rosa Bellini",
    "rating": {
        "mu": 27.214,
        "sigma": 6.781,
        "ordinal": 6.871,
        "games": 2,
        "history": [
            {
                "game_id": 301,
                "event_id": 40,
                "event": "Torneo del martedì",
                "date": "2026-11-17T20:30:00Z",
                "partner_id": 15,
                "vp": 17,
                "opponent_vp": 3,
                "mu": 27.635,
                "sigma": 8.065,
                "ordinal": 3.44,
            }
        ],
    },
    "statistics": {
        "hands": 6,
        "average_mp": 241.7,
        "counted_hands": 3,
        "burracos_per_hand": 1.333,
        "closing_rate": 0.333,
        "turns": 2,
        "vp_per_turn": 13.5,
        "matches_won": 2,
        "matches_lost": 1,
    },
    "tournaments": [
        {
            "event_id": 40,
            "event": "Torneo del martedì",
            "date": "2026-11-17T20:30:00Z",
            "pair": 3,
            "individual": False,
            "partner_id": 15,
            "partner": "Giulia Ferri",
            "rank": 2,
            "pairs": 14,
            "vp": 27.0,
            "turns": 2,
            "format": "turns",
            "won": 0,
            "lost": 0,
        },
        {
            "event_id": 39,
            "event": "Torneo individuale",
            "date": "2026-11-12T20:30:00Z",
            "pair": 7,
            "individual": True,
            "partner_id": None,
            "partner": None,
            "rank": 4,
            "pairs": 13,
            "vp": 41.0,
            "turns": 3,
            "format": "turns",
            "won": 0,
            "lost": 0,
        },
        {
            "event_id": 38,
            "event": "Serata libera",
            "date": "2026-11-10T20:30:00Z",
            "pair": 5,
            "individual": False,
            "partner_id": 15,
            "partner": "Giulia Ferri",
            "rank": 1,
            "pairs": 8,
            "vp": 0.0,
            "turns": 3,
            "format": "free",
            "won": 2,
            "lost": 1,
        },
    ],
}


class PlayerBurracoView(StandingsView):
    @extend_schema(
        tags=["burraco"],
        summary="A player's Burraco: the pair rating, statistics and tournaments",
        description="The Burraco pair rating (OpenSkill, each confirmed score card rated as "
        "the NS pair against the EW pair by its VP result; apart from the Barbu rating of "
        "`/players/{id}/rating/`) with its history; statistics over the confirmed score "
        "cards (burracos per hand and the closing rate from the hands counted from the "
        "cards only, null when none was; free matches won and lost); the pair tournaments "
        'and evenings of free matches (`format` "free") the player is ranked in, newest '
        "first. A player with no Burraco gets nulls, zeros and an empty list.",
        responses={200: PlayerBurracoSerializer, **errors(*READ_ERRORS)},
        examples=[OpenApiExample("Burraco", value=BURRACO_EXAMPLE, response_only=True)],
    )
    def get(self, request: Request, pk: int) -> Response:
        self.check_query(request)
        player = _visible_player(request, pk)
        who = selectors.viewer(request.user)
        stats = burraco_player.burraco_statistics(player, who)
        lines = burraco_player.burraco_tournaments(player, who)
        matches = burraco_player.matches_won_lost(lines)
        payload = {
            "player_id": player.pk,
            "player": player.name,
            "rating": burraco_player.burraco_rating(player, who),
            "statistics": {
                "hands": stats["hands"],
                "average_mp": stats["average_mp"],
                "counted_hands": stats["counted"],
                "burracos_per_hand": stats["burracos_per_hand"],
                "closing_rate": stats["closing_rate"],
                "turns": stats["turns"],
                "vp_per_turn": stats["vp_per_turn"],
                "matches_won": matches["won"],
                "matches_lost": matches["lost"],
            },
            "tournaments": lines,
        }
        return Response(PlayerBurracoSerializer(payload).data)


class PairStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    pair = serializers.IntegerField()
    names = serializers.CharField()
    vp = serializers.FloatField()
    mp_difference = serializers.IntegerField()
    turns = serializers.IntegerField()
    byes = serializers.IntegerField()
    penalty_vp = serializers.FloatField()
    penalty_mp = serializers.IntegerField()
    unconfirmed = serializers.IntegerField()
    shared = serializers.BooleanField()
    decided_by = serializers.CharField()
    # An evening of free matches: matches won and lost, a match still being played (0 in a
    # tournament); `mp_difference` is then the point difference of the finished matches.
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    playing = serializers.IntegerField()
    # A tournament's marks: the turn after which the pair withdrew (null while it plays),
    # the turns of its score cards confirmed short (time ran out).
    withdrawn_after = serializers.IntegerField(allow_null=True)
    short_turns = serializers.ListField(child=serializers.IntegerField())


def _marked_pair_standings(event: Event) -> list[dict]:
    """The tournament's stored ranking with each pair's marks, as api_burraco.rows gives
    them (`withdrawn_after`, `short_turns`)."""
    marks = entry_marks(event)
    rows = selectors.pair_standings(event.pk)
    for row in rows:
        mark = marks.get(row["pair"], Marks())
        row["withdrawn_after"], row["short_turns"] = mark.withdrawn_after, mark.short
    return rows


class TournamentStandingsView(StandingsView):
    @extend_schema(
        tags=["burraco"],
        summary="A Burraco tournament's pair ranking (live while it runs)",
        description="Total VP, MP difference and, in `decided_by`, the tie-break that "
        "placed the pair below the one above (empty when VP did). With its ETag: "
        "If-None-Match answers 304 while nothing in it changed.",
        responses={
            200: _page_schema(
                "PairStandingsPage",
                PairStandingSerializer,
                event=serializers.IntegerField(),
                status=serializers.CharField(),
            ),
            304: NOT_MODIFIED,
            **errors(*READ_ERRORS),
        },
    )
    def get(self, request: Request, pk: int) -> Response | HttpResponse:
        self.check_query(request)
        return _event_answer(
            request,
            pk,
            lambda event: _paginated(
                self,
                request,
                _marked_pair_standings(event),
                {"event": event.pk, "status": event.status},
            ),
            tournament=True,
        )
