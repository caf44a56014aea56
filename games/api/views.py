"""API views: the bases every endpoint shares, the reads (filtered by visibility,
permissions.PublicReadable), the token and the JSON 404. The deal writes are in
games/api/deals.py."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.db.models import Prefetch, Value
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import condition
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework import status, viewsets
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import login_limits
from games.api import filters, serializers
from games.api.errors import LoginLocked, WrongGame, error_body
from games.api.pagination import Pagination
from games.api.parsers import StrictJSONParser
from games.api.permissions import (
    PublicReadable,
    TableKeyAuthentication,
)
from games.api.schema import READ_ERRORS, ApiSchema, errors, read_schema
from games.api.throttles import AuthThrottle, WritesThrottle
from games.barbu.selectors import game_record
from games.burraco.scorecards import card_body
from games.core import live
from games.models import Deal, Event, Game, Round, ScoreCard, Seat, Substitution, Table
from scoring.engine import barbu


# --- bases ------------------------------------------------------------------------------
class ApiMixin:
    """Authentication, parsing, throttling, filtering and pagination of every endpoint."""

    schema = ApiSchema()

    # The project's defaults (settings.REST_FRAMEWORK), spelled out.
    authentication_classes = [TokenAuthentication, TableKeyAuthentication, SessionAuthentication]
    parser_classes = [StrictJSONParser]
    throttle_classes = [WritesThrottle]
    pagination_class = Pagination
    filter_backends = [filters.KnownQueryParameters, filters.FilterSetWhenAsked]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # An id beyond the database's integers cannot exist (and SQLite cannot even
        # compare it in a foreign-key lookup): 404 at once.
        for value in kwargs.values():
            if isinstance(value, str) and value.isascii() and value.isdigit():
                value = int(value)
            if isinstance(value, int) and value > filters.MAX_ID:
                raise NotFound()
        super().initial(request, *args, **kwargs)


class ReadOnlyViewSet(ApiMixin, viewsets.ReadOnlyModelViewSet):
    lookup_value_regex = "[0-9]+"  # anything else falls through to the JSON 404


def json_object(request: Request) -> dict[str, Any]:
    """The request's body, which must be a JSON object (400 otherwise), as a new dict."""
    data = request.data
    if not isinstance(data, dict):
        raise ValidationError({"non_field_errors": [_("The body must be a JSON object.")]})
    return dict(data)


# --- reads ------------------------------------------------------------------------------
@read_schema(serializers.ClubSerializer, "clubs")
class ClubViewSet(ReadOnlyViewSet):
    serializer_class = serializers.ClubSerializer
    filterset_class = filters.ClubFilter

    def get_queryset(self):
        return PublicReadable.clubs(self.request).order_by("name", "id")


@read_schema(serializers.PlayerSerializer, "clubs")
class PlayerViewSet(ReadOnlyViewSet):
    serializer_class = serializers.PlayerSerializer
    filterset_class = filters.PlayerFilter

    def get_queryset(self):
        # No DISTINCT: visibility is a subquery (no join), and the club filter's one
        # join finds one membership per player and club (membership_unique).
        players = PublicReadable.players(self.request).order_by("name", "id")
        user = self.request.user
        if not user.is_authenticated:
            return players.annotate(managed=Value(False))
        if user.is_superuser:
            return players.annotate(managed=Value(True))
        # Organisers see the e-mail of their clubs' players, nobody else sees any.
        return players.annotate(managed=PublicReadable.managed(self.request))


@read_schema(serializers.LeagueSerializer, "leagues")
class LeagueViewSet(ReadOnlyViewSet):
    serializer_class = serializers.LeagueSerializer
    filterset_class = filters.LeagueFilter

    def get_queryset(self):
        return PublicReadable.leagues(self.request).order_by("-starts_on", "name", "id")


@read_schema(serializers.EventSerializer, "events")
class EventViewSet(ReadOnlyViewSet):
    serializer_class = serializers.EventSerializer
    filterset_class = filters.EventFilter

    def get_queryset(self):
        return PublicReadable.events(self.request).order_by("-starts_at", "id")


@read_schema(serializers.RoundSerializer, "events")
class RoundViewSet(ReadOnlyViewSet):
    serializer_class = serializers.RoundSerializer
    filterset_class = filters.RoundFilter

    def get_queryset(self):
        rounds = Round.objects.prefetch_related("byes").order_by("event_id", "number", "id")
        return PublicReadable.filter(rounds, self.request, event="event")


@read_schema(serializers.TableSerializer, "events")
class TableViewSet(ReadOnlyViewSet):
    serializer_class = serializers.TableSerializer
    filterset_class = filters.TableFilter

    def get_queryset(self):
        tables = (
            Table.objects.select_related("round", "game")
            .prefetch_related(
                Prefetch(
                    "seats", queryset=Seat.objects.select_related("player").order_by("position")
                )
            )
            .order_by("round_id", "number", "id")
        )
        return PublicReadable.filter(tables, self.request, event="round__event", table="pk")


def visible_games(request: Request):
    games = Game.objects.select_related("table__round__event")
    return PublicReadable.filter(games, request, event="table__round__event", table="table_id")


def wrong_game(game: Game) -> WrongGame:
    """What a game of the other kind answers: it has no such thing, and where to look."""
    if game.kind == Game.Kind.BURRACO:
        message = _(
            "Game %(id)s is a Burraco game: it has no deals. Its hands are on its score "
            "card, /api/v1/games/%(id)s/card/."
        )
    else:
        message = _(
            "Game %(id)s is a Barbu game: it has no score card or hands. Its deals are at "
            "/api/v1/games/%(id)s/deals/."
        )
    return WrongGame(message % {"id": game.pk}, game.kind)


def game_of_kind(request: Request, pk: int, kind: str) -> Game:
    """A game the caller may read (404 otherwise), of the game `kind` (404 `wrong_game`
    saying so otherwise)."""
    game = get_object_or_404(visible_games(request), pk=pk)
    if game.kind != kind:
        raise wrong_game(game)
    return game


def not_a_tournament(event: Event) -> WrongGame:
    """What a Barbu evening answers where a Burraco tournament is asked for."""
    message = _(
        "Event %(id)s is a Barbu evening, not a Burraco tournament. Its standings are at "
        "/api/v1/events/%(id)s/standings/."
    )
    return WrongGame(message % {"id": event.pk}, event.game)


def tournament_of(events: Any, pk: int) -> Event:
    """The Burraco tournament `pk` among the visible `events` (404 if not there, 404
    `wrong_game` if it is a Barbu evening)."""
    event = get_object_or_404(events, pk=pk)
    if not event.is_burraco:
        raise not_a_tournament(event)
    return event


@extend_schema_view(
    list=extend_schema(
        tags=["games"],
        responses={200: serializers.GameSerializer(many=True), **errors(*READ_ERRORS)},
    ),
    retrieve=extend_schema(
        tags=["games"],
        summary="A game: its record, the engine's scores and what the next deal may be",
        responses={200: serializers.GameDetailSerializer, **errors(*READ_ERRORS)},
    ),
)
class GameViewSet(ReadOnlyViewSet):
    serializer_class = serializers.GameSerializer
    filterset_class = filters.GameFilter

    def get_queryset(self):
        return visible_games(self.request).order_by("table__round__event_id", "table_id", "id")

    @method_decorator(condition(etag_func=lambda request, pk: _game_etag(request, pk)))
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response = Response(game_detail(request.visible_game))
        patch_cache_control(response, private=True, no_cache=True)
        return response


def _game_etag(request: Request, pk: str) -> str | None:
    """The game's live version (games/core/live.py), which every write to its deals drops: a
    client holding it gets 304 without the game being judged again. The game is read
    first, so a game the client may not see is a 404 whatever it holds."""
    game = get_object_or_404(visible_games(request), pk=pk)
    request.visible_game = game
    return live.etag(live.version("game", game.pk)) or None


def game_detail(game: Game) -> dict[str, Any]:
    """A Barbu game: {"id", "game", "status", "record", "scores", "next", "substitutions"};
    a Burraco game: {"id", "game", "status", "card"} (its score card, as
    /api/v1/games/<id>/card/ gives it)."""
    if game.kind == Game.Kind.BURRACO:
        card = ScoreCard.objects.get(game=game)
        return {
            "id": game.pk,
            "game": game.kind,
            "status": game.status,
            "card": card_body(game, card),
        }
    record = game_record(game, game.deals.order_by("number").only("game", "data"))
    scores = barbu.score_game(record)
    complete = game.status == Game.Status.COMPLETE
    return {
        "id": game.pk,
        "game": game.kind,
        "status": game.status,
        "record": record,
        "scores": scores,
        "next": None if complete else barbu.game_state(record)["next"],
        "substitutions": substitutions(game),
    }


def substitutions(game: Game) -> list[dict[str, Any]]:
    """Who took over which seat from which deal (no query for a game never substituted).

    The record keeps naming each seat by its first player: a deal sent after a
    substitution names the seat as the record does, and counts for the substitute."""
    if not game.substituted:
        return []
    rows = Substitution.objects.filter(game_id=game.pk).select_related("player_in", "player_out")
    return [
        {
            "seat": r.seat,
            "seat_name": game.player_names[r.seat],
            "from_deal": r.from_deal,
            "player_out": {"id": r.player_out_id, "name": r.player_out.name},
            "player_in": {"id": r.player_in_id, "name": r.player_in.name},
            "at": r.at,
        }
        for r in rows.order_by("seat", "from_deal")
    ]


def visible_deals(request: Request):
    deals = Deal.objects.all()
    return PublicReadable.filter(
        deals, request, event="game__table__round__event", table="game__table_id"
    )


@read_schema(serializers.DealSerializer, "deals")
class DealViewSet(ReadOnlyViewSet):
    serializer_class = serializers.DealSerializer
    filterset_class = filters.DealFilter

    def get_queryset(self):
        return visible_deals(self.request).order_by("game_id", "number")


@csrf_exempt  # nothing to protect: it only ever answers 404
def not_found(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """Unknown URLs under /api/: the error shape, not Django's HTML page."""
    message = _("There is no API endpoint at this address.")
    return JsonResponse(error_body(404, "not_found", message), status=404)


class TokenView(APIView):
    """An organiser's API token, from username and password."""

    authentication_classes: list = []
    permission_classes: list = []
    parser_classes = [StrictJSONParser]
    throttle_classes = [AuthThrottle]

    @extend_schema(
        tags=["auth"],
        summary="Get an API token (send it as `Authorization: Token <token>`)",
        request=serializers.TokenRequestSerializer,
        responses={200: serializers.TokenSerializer, **errors(400, 413, 415, 429)},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        form = serializers.TokenRequestSerializer(data=json_object(request))
        form.is_valid(raise_exception=True)
        username = form.validated_data["username"]
        # The failed-login limits of every way in (clubs/login_limits.py).
        wait = login_limits.seconds_to_wait(request, username)
        if wait:
            raise LoginLocked(wait, login_limits.locked_message(wait))
        user = authenticate(
            request._request, username=username, password=form.validated_data["password"]
        )
        if user is None or not user.is_active:
            wait = login_limits.record_failure(request, username)
            if wait:
                raise LoginLocked(wait, login_limits.locked_message(wait))
            raise ValidationError(
                {"non_field_errors": [_("Unable to log in with this username and password.")]},
                code="authorization",
            )
        login_limits.record_success(request, username)
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key}, status=status.HTTP_200_OK)
