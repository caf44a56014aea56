"""API views: thin. Reads filter by visibility (permissions.PublicReadable); writes call
games.submission (deal_submit, deal_confirm) and games.deal_corrections (deal_correct)
and serialize the answer."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth import authenticate
from django.core.cache import cache
from django.db.models import Exists, OuterRef, Prefetch, Value
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, status, viewsets
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import login_limits
from clubs.models import Membership
from games import sql
from games.api import contract, examples, filters, reads, serializers
from games.api.authentication import TokenAuthentication
from games.api.errors import LoginLocked, error_body
from games.api.pagination import Pagination
from games.api.parsers import StrictJSONParser
from games.api.permissions import (
    USER_ORGANISES,
    CanEnterDeals,
    IsClubOrganiser,
    PublicReadable,
    TableKeyAuthentication,
    annotates_organises,
    game_for_write,
    table_key,
)
from games.api.throttles import AuthThrottle, WritesThrottle
from games.deal_corrections import deal_correct
from games.models import Deal, Game, Round, Seat, Table
from games.selectors import game_record
from games.submission import NotAuthorised, deal_confirm, deal_submit
from scoring.engine import barbu

# --- documentation of errors ------------------------------------------------------------
ERROR_TEXT = {
    400: "Invalid request: `errors` lists every problem (deal number, field path, code, "
    "params, message).",
    401: "Not authenticated: send `Authorization: Token ...`, a session, or `X-Table-Key`.",
    403: "Authenticated, but not allowed to do this.",
    404: "No such object, or not visible to you.",
    405: "Method not allowed.",
    409: "Conflict: another deal is stored under this number (`stored`), or the game is "
    "complete (`game_closed`), or its round or evening is closed (`round_closed`, "
    "`event_closed`: only corrections of stored deals), or the deal is already confirmed.",
    412: "If-Match does not name the deal's current version; `stored` is the current deal.",
    413: "The request body is larger than 1 MiB.",
    415: "The body must be application/json.",
    422: "This Idempotency-Key was already used for a different request.",
    428: "If-Match is required to correct a deal.",
    429: "Too many requests: wait `params.wait` seconds (also in Retry-After).",
}
READ_ERRORS = (400, 401, 404, 429)
WRITE_ERRORS = (400, 401, 403, 404, 413, 415, 429)


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {
        code: OpenApiResponse(
            serializers.ConflictSerializer if code in (409, 412) else serializers.ErrorSerializer,
            description=ERROR_TEXT[code],
            examples=examples.error_examples(code),
        )
        for code in codes
    }


IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description='The deal\'s version as its ETag, e.g. "3". Missing: 428; stale: 412.',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": contract.IDEMPOTENCY_KEY_PATTERN,
    },
    OpenApiParameter.HEADER,
    description="Any unique string of 1 to 200 printable ASCII characters (space to ~), "
    "e.g. a UUID: a retry with the same key and body returns the first answer, byte for "
    "byte, and stores nothing new.",
)
ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=True,
    description='The deal\'s version, e.g. "3": send it back as If-Match to correct it.',
)

DEAL_EXAMPLES = [
    OpenApiExample(
        "barbu",
        value={
            "number": 1,
            "dealer": "Anna",
            "contract": "barbu",
            "doubles": [{"by": "Bruno", "against": "Anna", "redoubled": True}],
            "result": {"king_of_hearts": "Carla"},
        },
        request_only=True,
    ),
    OpenApiExample(
        "hearts",
        value={
            "dealer": "Anna",
            "contract": "hearts",
            "result": {
                "hearts": {
                    "Anna": ["AH", "KH", "QH"],
                    "Bruno": ["JH", "TH", "9H", "8H"],
                    "Carla": ["7H", "6H", "5H"],
                    "Dario": ["4H", "3H", "2H"],
                }
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "queens",
        value={
            "dealer": "Anna",
            "contract": "queens",
            "result": {"queens": {"Bruno": ["QS", "QH"], "Dario": ["QD", "QC"]}},
        },
        request_only=True,
    ),
    OpenApiExample(
        "last_two",
        value={
            "dealer": "Anna",
            "contract": "last_two",
            "result": {"twelfth": "Bruno", "thirteenth": "Dario"},
        },
        request_only=True,
    ),
    OpenApiExample(
        "no_tricks",
        value={
            "dealer": "Anna",
            "contract": "no_tricks",
            "result": {"tricks": {"Anna": 2, "Bruno": 4, "Carla": 3, "Dario": 4}},
        },
        request_only=True,
    ),
    OpenApiExample(
        "trumps",
        value={
            "dealer": "Anna",
            "contract": "trumps",
            "trump": "S",
            "result": {"tricks": {"Anna": 6, "Bruno": 3, "Carla": 2, "Dario": 2}},
        },
        request_only=True,
    ),
    OpenApiExample(
        "domino",
        value={
            "dealer": "Anna",
            "contract": "domino",
            "result": {"order": ["Carla", "Anna", "Dario", "Bruno"]},
        },
        request_only=True,
    ),
]


# --- bases ------------------------------------------------------------------------------
class ApiSchema(AutoSchema):
    """Reads are public (what is visible depends on who asks): authentication optional."""

    def get_auth(self) -> list[dict[str, Any]]:
        auths = super().get_auth()
        if self.method in ("GET", "HEAD") and {} not in auths:
            auths.append({})
        return auths


class ApiMixin:
    """Authentication, parsing, throttling, filtering and pagination of every endpoint."""

    schema = ApiSchema()

    # The project's defaults (settings.REST_FRAMEWORK), spelled out.
    authentication_classes = [TokenAuthentication, TableKeyAuthentication, SessionAuthentication]
    parser_classes = [StrictJSONParser]
    throttle_classes = [WritesThrottle]
    pagination_class = Pagination
    filter_backends = [filters.KnownQueryParameters, DjangoFilterBackend]

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


def _read_schema(serializer: type, tag: str) -> Any:
    return extend_schema_view(
        list=extend_schema(
            tags=[tag], responses={200: serializer(many=True), **errors(*READ_ERRORS)}
        ),
        retrieve=extend_schema(tags=[tag], responses={200: serializer, **errors(*READ_ERRORS)}),
    )


# --- reads ------------------------------------------------------------------------------
@_read_schema(serializers.ClubSerializer, "clubs")
class ClubViewSet(ReadOnlyViewSet):
    serializer_class = serializers.ClubSerializer
    filterset_class = filters.ClubFilter

    def get_queryset(self):
        return PublicReadable.clubs(self.request).order_by("name", "id")


@_read_schema(serializers.PlayerSerializer, "clubs")
class PlayerViewSet(ReadOnlyViewSet):
    serializer_class = serializers.PlayerSerializer
    filterset_class = filters.PlayerFilter

    def get_queryset(self):
        players = PublicReadable.players(self.request).order_by("name", "id").distinct()
        user = self.request.user
        if not user.is_authenticated:
            return players.annotate(managed=Value(False))
        if user.is_superuser:
            return players.annotate(managed=Value(True))
        # Organisers see the e-mail of their clubs' players, nobody else sees any.
        managed = Membership.objects.filter(
            player=OuterRef("pk"),
            club__memberships__player__user_id=user.pk,
            club__memberships__role=Membership.Role.ORGANISER,
        )
        return players.annotate(managed=Exists(managed))


@_read_schema(serializers.LeagueSerializer, "leagues")
class LeagueViewSet(ReadOnlyViewSet):
    serializer_class = serializers.LeagueSerializer
    filterset_class = filters.LeagueFilter

    def get_queryset(self):
        return PublicReadable.leagues(self.request).order_by("-starts_on", "name", "id")


@_read_schema(serializers.EventSerializer, "events")
class EventViewSet(ReadOnlyViewSet):
    serializer_class = serializers.EventSerializer
    filterset_class = filters.EventFilter

    def get_queryset(self):
        return PublicReadable.events(self.request).order_by("-starts_at", "id")


@_read_schema(serializers.RoundSerializer, "events")
class RoundViewSet(ReadOnlyViewSet):
    serializer_class = serializers.RoundSerializer
    filterset_class = filters.RoundFilter

    def get_queryset(self):
        rounds = Round.objects.prefetch_related("byes").order_by("event_id", "number", "id")
        return PublicReadable.filter(rounds, self.request, event="event")


@_read_schema(serializers.TableSerializer, "events")
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

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # One plain query: visibility and the cache key's columns (games/api/reads.py).
        found = reads.visible_game_row(request, kwargs["pk"])
        if found is None:  # the 404, as the ORM path answers it
            game = get_object_or_404(visible_games(request), pk=kwargs["pk"])
            found = game, game.updated_at
        game, updated_at = found
        key = _game_detail_key(game, updated_at)
        body = cache.get(key)
        if body is None:
            body = reads.render_json(game_detail(game))
            cache.set(key, body, GAME_DETAIL_SECONDS)
        return reads.CachedJSONResponse(body)


GAME_DETAIL_SECONDS = 60


def _game_detail_key(game: Game, updated_at: Any) -> str:
    """The key of a game's rendered detail: it changes with the data. Every deal write
    saves the game (updated_at, deals_count, status) in its transaction; the short
    timeout bounds what an edit made around the services (the admin) could leave stale."""
    stamp = updated_at.timestamp() if hasattr(updated_at, "timestamp") else updated_at
    stamp = str(stamp).replace(" ", "T")
    names = hashlib.sha1(json.dumps(game.player_names).encode()).hexdigest()[:12]
    return f"api:game:json:{game.pk}:{stamp}:{game.deals_count}:{game.status}:{names}"


def game_detail(game: Game) -> dict[str, Any]:
    """{"id", "status", "record", "scores", "next"} of a game (the view caches its JSON per
    game version: _game_detail_key)."""
    record = game_record(game, game.deals.order_by("number").only("game", "data"))
    scores = barbu.score_game(record)
    complete = game.status == Game.Status.COMPLETE
    return {
        "id": game.pk,
        "status": game.status,
        "record": record,
        "scores": scores,
        "next": None if complete else barbu.game_state(record)["next"],
    }


def visible_deals(request: Request):
    deals = Deal.objects.all()
    return PublicReadable.filter(
        deals, request, event="game__table__round__event", table="game__table_id"
    )


@_read_schema(serializers.DealSerializer, "deals")
class DealViewSet(ReadOnlyViewSet):
    serializer_class = serializers.DealSerializer
    filterset_class = filters.DealFilter

    def get_queryset(self):
        return visible_deals(self.request).order_by("game_id", "number")


# --- writes -----------------------------------------------------------------------------
def _body(request: Request) -> dict[str, Any]:
    data = request.data
    if not isinstance(data, dict):
        raise ValidationError({"non_field_errors": [_("The body must be a JSON object.")]})
    return dict(data)


def _seat(body: dict[str, Any]) -> int | None:
    seat = body.pop("seat", None)
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ValidationError({"seat": [_("The seat is a number from 0 to 3.")]})
    return seat


def _label(request: Request, seat: int | None) -> str:
    key = table_key(request)
    if key is None:
        return ""
    if seat is None:
        return _("table %(table)d") % {"table": key.table_number}
    return _("table %(table)d, seat %(seat)d") % {"table": key.table_number, "seat": seat}


def _etag(deal: Deal) -> dict[str, str]:
    return {"ETag": f'"{deal.version}"'}


class GameDealsView(ApiMixin, generics.GenericAPIView):
    """The deals of one game: list them, or submit the next one."""

    serializer_class = serializers.DealSerializer
    permission_classes = [CanEnterDeals]
    filter_backends = [filters.KnownQueryParameters]

    def get_game(self, request: Request, pk: int) -> Game:
        if request.method not in SAFE_METHODS:
            # Whoever may write a game may also read it (its club's organiser, its own
            # table's key), so an allowed write needs only the game row: the visibility
            # filter (the costliest query to build) decides 404 or 403 for the others.
            # One plain query (permissions.game_for_write).
            game = game_for_write(request, pk)
            if game is not None and all(
                permission.has_object_permission(request, self, game)
                for permission in self.get_permissions()
            ):
                return game
        game = get_object_or_404(visible_games(request), pk=pk)
        self.check_object_permissions(request, game)
        return game

    @extend_schema(
        tags=["deals"],
        responses={200: serializers.DealSerializer(many=True), **errors(*READ_ERRORS)},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = self.get_game(request, pk)
        deals = game.deals.order_by("number")
        page = self.paginate_queryset(self.filter_queryset(deals))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(
        tags=["deals"],
        summary="Submit the next deal of a game",
        description="One deal as in FORMAT.md, with an optional `number` (the deal the "
        "table believes it is entering: a second phone sending the same deal gets 200 "
        "and the stored deal; other content under a stored number gets 409 with "
        "`stored`). Organisers of the club, or `X-Table-Key` of this table; with the "
        "club's confirm_deals option a table key's deal is stored pending until another "
        "seat confirms it. Every problem is listed in a 400.",
        request=serializers.DealSubmitSerializer,
        parameters=[IDEMPOTENCY_KEY],
        examples=DEAL_EXAMPLES,
        responses={
            201: OpenApiResponse(
                serializers.DealAnswerSerializer,
                description="Stored.",
                examples=examples.STORED_EXAMPLES,
            ),
            200: OpenApiResponse(
                serializers.DealAnswerSerializer,
                description="This deal was already stored (same content, or a retried "
                "Idempotency-Key): nothing new stored.",
                examples=examples.STORED_EXAMPLES,
            ),
            **errors(*WRITE_ERRORS, 409, 422),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        if not sql.available():
            game = self.get_game(request, pk)
            return self._submit(request, game.pk, *self._read_request(request))
        # PostgreSQL: the write permission is decided with the locked game (its query
        # rides on the lock's round trip: games/sql.py), so the request is read first;
        # a client that may not write still gets its 404 or 403 before any 400.
        try:
            parts = self._read_request(request)
        except Exception:
            self.get_game(request, pk)
            raise
        annotate = annotates_organises(request)

        def authorise(game: Game, organises: bool | None) -> None:
            if annotate and organises is not None:
                setattr(game, USER_ORGANISES, organises)
            permissions = self.get_permissions()
            if not all(p.has_object_permission(request, self, game) for p in permissions):
                raise NotAuthorised()

        try:
            return self._submit(request, pk, *parts, authorise=authorise)
        except NotAuthorised:
            game = self.get_game(request, pk)  # 404 or 403, as get_game decides
            return self._submit(request, game.pk, *parts)  # allowed meanwhile

    def _read_request(self, request: Request) -> tuple[dict, str, str | None]:
        body = contract.known_keys(_body(request), contract.SUBMIT_KEYS)
        seat = _seat(body)
        return body, _label(request, seat), contract.idempotency_key(request)

    def _submit(
        self,
        request: Request,
        game_id: int,
        body: dict,
        label: str,
        idempotency_key: str | None,
        authorise: Any = None,
    ) -> Response:
        key = table_key(request)
        submission = deal_submit(
            game_id=game_id,
            deal=body,
            by_user=request.user,
            by_label=label,
            idempotency_key=idempotency_key,
            needs_confirmation=bool(key and key.confirm_deals),
            authorise=authorise,
        )
        # Keys in one order (sorted): a retry's answer, read back from the idempotency
        # record (PostgreSQL's jsonb reorders keys), is then the first answer byte for byte.
        return Response(
            contract.sorted_keys(submission.body),
            status=submission.status_code,
            headers=_etag(submission.deal),
        )


class DealDetailView(ApiMixin, generics.GenericAPIView):
    """One deal of a game: read it (with its ETag), or correct it (organisers)."""

    serializer_class = serializers.DealSerializer
    permission_classes = [IsClubOrganiser]
    filter_backends = [filters.KnownQueryParameters]

    def get_deal(self, request: Request, pk: int, number: int) -> Deal:
        deal = get_object_or_404(
            visible_deals(request).select_related("game__table__round__event"),
            game_id=pk,
            number=number,
        )
        self.check_object_permissions(request, deal.game)
        return deal

    def get_object(self) -> Deal:
        # DRF's OPTIONS (metadata) asks for the object a PUT would change.
        return self.get_deal(self.request, self.kwargs["pk"], self.kwargs["number"])

    def answer(self, deal: Deal) -> Response:
        return Response(self.get_serializer(deal).data, headers=_etag(deal))

    @extend_schema(
        tags=["deals"],
        responses={
            200: OpenApiResponse(
                serializers.DealSerializer, description="The deal; ETag: its version."
            ),
            **errors(*READ_ERRORS),
        },
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        return self.answer(self.get_deal(request, pk, number))

    def correct(self, request: Request, deal: Deal, data: dict[str, Any]) -> Response:
        expected = contract.expected_version(request, deal.version)
        reason = data.pop("reason", "")
        if not isinstance(reason, str) or len(reason) > 200:
            raise ValidationError(
                {"reason": [_("The reason is a text of at most 200 characters.")]}
            )
        if "number" in data and data["number"] != deal.number:
            raise ValidationError({"number": [_("The number of a deal cannot be changed.")]})
        corrected = deal_correct(
            deal_id=deal.pk,
            data=data,
            by_user=request.user,
            expected_version=expected,
            reason=reason,
        )
        return self.answer(corrected)

    @extend_schema(
        tags=["deals"],
        summary="Correct a deal (organisers)",
        description="The whole deal replaces the stored one; the game is validated again "
        "(a correction that breaks a later deal is refused with 400). Every change is kept "
        "in the audit trail.",
        request=serializers.DealCorrectionSerializer,
        parameters=[IF_MATCH],
        examples=DEAL_EXAMPLES,
        responses={200: serializers.DealSerializer, **errors(*WRITE_ERRORS, 409, 412, 428)},
    )
    def put(self, request: Request, pk: int, number: int) -> Response:
        deal = self.get_deal(request, pk, number)
        return self.correct(
            request, deal, contract.known_keys(_body(request), contract.CORRECT_KEYS)
        )

    @extend_schema(
        tags=["deals"],
        summary="Correct some keys of a deal (organisers)",
        description="Top-level keys replace the stored deal's (e.g. only `result`); a "
        "null value removes the key.",
        request=serializers.DealPatchSerializer,
        parameters=[IF_MATCH],
        responses={200: serializers.DealSerializer, **errors(*WRITE_ERRORS, 409, 412, 428)},
    )
    def patch(self, request: Request, pk: int, number: int) -> Response:
        deal = self.get_deal(request, pk, number)
        data = dict(deal.data)
        for key, value in contract.known_keys(_body(request), contract.CORRECT_KEYS).items():
            if value is None:
                data.pop(key, None)
            else:
                data[key] = value
        return self.correct(request, deal, data)


class DealConfirmView(ApiMixin, generics.GenericAPIView):
    serializer_class = serializers.ConfirmSerializer
    permission_classes = [CanEnterDeals]
    filter_backends = [filters.KnownQueryParameters]

    @extend_schema(
        tags=["deals"],
        summary="Confirm or dispute a pending deal from another seat",
        request=serializers.ConfirmSerializer,
        responses={200: serializers.DealSerializer, **errors(*WRITE_ERRORS, 409)},
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        deal = get_object_or_404(
            visible_deals(request).select_related("game__table__round__event"),
            game_id=pk,
            number=number,
        )
        self.check_object_permissions(request, deal.game)
        form = serializers.ConfirmSerializer(data=_body(request))
        form.is_valid(raise_exception=True)
        seat = form.validated_data["seat"]
        label = _label(request, seat) or _("organiser, seat %(seat)d") % {"seat": seat}
        confirmed = deal_confirm(
            deal_id=deal.pk,
            agree=form.validated_data["agree"],
            by_label=label,
            by_user=request.user,
        )
        return Response(serializers.DealSerializer(confirmed).data, headers=_etag(confirmed))


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
        form = serializers.TokenRequestSerializer(data=_body(request))
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
