"""The referee seats a Burraco tournament's next turn through the API: the same service as
the desk's "Seat the next turn" (games.burraco.tournaments.turn_seat: a movement, or a
pairing pasted from the referee's desktop program), with the writes' guarantees:
Idempotency-Key, 409 on conflict (cards not confirmed, the turn already seated), one
error shape. Organisers of the tournament's club only; a table key never seats."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import contract
from games.api.permissions import PublicReadable, organises, table_key
from games.api.schema import IDEMPOTENCY_KEY, WRITE_ERRORS, errors
from games.api.tournaments import TurnSerializer, tournament_json
from games.api.views import ApiMixin, json_object, tournament_of
from games.burraco.movements import VARIANTS
from games.burraco.tournaments import HANDS, MOVEMENTS, SeatedTurn
from games.burraco.turn_requests import turn_seat_request
from games.models import Event


class CanSeatTurns(permissions.BasePermission):
    """An organiser of the tournament's club (a table key is not enough)."""

    message = gettext_lazy("Only the organisers of this club may do this.")

    def has_permission(self, request: Request, view: Any) -> bool:
        if table_key(request) is not None:
            return False
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Event) -> bool:
        return organises(request, obj.club_id)


class TurnSeatSerializer(serializers.Serializer):
    """The next turn: `turn` the number you mean to seat (already seated: 409
    `turn_seated`, e.g. a retry without its Idempotency-Key); `movement` `first` (the
    first turn, by `first_order` entry or draw), `mitchell` (`step`),
    `danese` (`variant`), `round_robin` (`groups`, chosen at its first turn and kept), or
    `pairing`: the turn `pairing` pastes, one table a line
    `table, NS pair, EW pair` and `bye, pair` for a pair resting (as the referee's
    desktop program exports it); `individual`: an individual tournament's turn (its
    only movement; `first` does the same there), two players a side; `seed`: the
    draw's."""

    turn = serializers.IntegerField(required=False, min_value=1)
    movement = serializers.ChoiceField(choices=MOVEMENTS)
    first_order = serializers.ChoiceField(choices=["entry", "draw"], default="entry")
    step = serializers.IntegerField(min_value=1, max_value=30, default=1)
    variant = serializers.ChoiceField(choices=VARIANTS, default="no_rematch")
    hands_per_turn = serializers.ChoiceField(choices=HANDS, required=False)
    time_limit = serializers.IntegerField(min_value=5, max_value=240, required=False)
    seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False)
    pairing = serializers.CharField(required=False, allow_blank=True, max_length=20_000)
    groups = serializers.IntegerField(min_value=1, max_value=30, required=False)


class SeatedTurnSerializer(TurnSerializer):
    """The turn seated, as the tournament lists it, with how the movement seated it."""

    notes = serializers.ListField(child=serializers.CharField())


SEAT_EXAMPLES = [
    OpenApiExample(
        "Mitchell",
        value={"turn": 2, "movement": "mitchell", "step": 1, "hands_per_turn": 3},
        request_only=True,
    ),
    OpenApiExample(
        "Danese",
        value={"turn": 3, "movement": "danese", "variant": "no_rematch", "time_limit": 45},
        request_only=True,
    ),
    OpenApiExample(
        "Individual",
        value={"turn": 2, "movement": "individual", "hands_per_turn": 3},
        request_only=True,
    ),
    OpenApiExample(
        "Pasted pairing",
        value={"turn": 1, "movement": "pairing", "pairing": "1, 1, 4\n2, 2, 5\nbye, 3\n"},
        request_only=True,
    ),
    OpenApiExample(
        "Seated",
        value={
            "number": 1,
            "status": "open",
            "movement": "pairing",
            "variant": None,
            "step": None,
            "hands_per_turn": 3,
            "time_limit": None,
            "started_at": "2026-11-24T20:30:00Z",
            "tables": [
                {"table": 1, "game": 41, "NS": 1, "EW": 4, "card": "open"},
                {"table": 2, "game": 42, "NS": 2, "EW": 5, "card": "open"},
            ],
            "byes": [3],
            "notes": [],
        },
        response_only=True,
        status_codes=["201"],
    ),
]
FIELDS = frozenset(TurnSeatSerializer().fields)


def _options(data: dict[str, Any]) -> dict[str, Any]:
    """turn_seat's keywords from the validated request."""
    options: dict[str, Any] = {
        "movement": data["movement"],
        "first_order": data["first_order"],
        "step": data["step"],
        "variant": data["variant"],
        "pairing": data.get("pairing", ""),
        "hands_per_turn": data.get("hands_per_turn"),
        "time_limit": data.get("time_limit"),
        "seed": data.get("seed"),
        "expected_turn": data.get("turn"),
    }
    if data.get("groups") is not None:  # a round robin's groups
        options["groups"] = data["groups"]
    return options


def burraco_write(
    view: APIView,
    request: Request,
    pk: int,
    serializer: type[serializers.Serializer],
    fields: Collection[str],
    no_such_field: str,
) -> tuple[Event, dict[str, Any]]:
    """The Burraco event of a write to it (404 if the caller cannot read it, 403 if the
    view's permissions refuse the write) and the request's JSON object validated by
    `serializer`: a field not in `fields` is a 400 with `no_such_field`."""
    event = tournament_of(PublicReadable.events(request), pk)
    view.check_object_permissions(request, event)
    body = json_object(request)
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise ValidationError({key: [no_such_field] for key in unknown})
    form = serializer(data=body)
    form.is_valid(raise_exception=True)
    return event, form.validated_data


class TurnSeatView(ApiMixin, APIView):
    """Seat the tournament's next turn."""

    permission_classes = [CanSeatTurns]
    filter_backends: list = []

    @extend_schema(
        tags=["burraco"],
        summary="Seat a Burraco tournament's next turn (organisers)",
        description="The desk's \"Seat the next turn\": the previous turn's cards all "
        "confirmed (else 409 `cards_missing` with `params.tables`), the movement run (or "
        "the pasted `pairing` read: every problem, line by line, in a 400 "
        "`pairing_invalid`), tables, score cards and byes created in one transaction. "
        "Send `turn` so a repeated request gets 409 `turn_seated` rather than seating the "
        "turn after, and an Idempotency-Key so a retry gets the first answer.",
        request=TurnSeatSerializer,
        parameters=[IDEMPOTENCY_KEY],
        examples=SEAT_EXAMPLES,
        responses={
            201: OpenApiResponse(SeatedTurnSerializer, description="Seated."),
            **errors(*WRITE_ERRORS, 409, 422),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        event, data = burraco_write(
            self, request, pk, TurnSeatSerializer, FIELDS, _("A turn has no such field.")
        )

        def body_of(seated: SeatedTurn) -> dict[str, Any]:
            turn = tournament_json(seated.round.event)["turns"][-1]
            return dict(SeatedTurnSerializer({**turn, "notes": list(seated.notes)}).data)

        answer = turn_seat_request(
            event=event,
            options=_options(data),
            body_of=body_of,
            idempotency_key=contract.idempotency_key(request),
            by_user=request.user,
        )
        return Response(answer.body, status=answer.status_code)
