"""An organiser starts a free match through the API (an evening of free matches): two
pairs at a table, the desk's service (games.burraco.free_matches.match_start) with the
writes' guarantees: Idempotency-Key, 409 while the table or a pair is still playing, one
error shape. Organisers of the evening's club only; a table key never starts a match."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import contract
from games.api.schema import IDEMPOTENCY_KEY, WRITE_ERRORS, errors
from games.api.turn_seating import CanSeatTurns, burraco_write
from games.api.views import ApiMixin
from games.burraco.free_matches import TABLE_LIMIT, StartedMatch, match_start_request

FIELDS = {"table", "NS", "EW"}


class MatchStartSerializer(serializers.Serializer):
    """`table`: the table's number; `NS` and `EW`: the pairs' numbers in the evening."""

    table = serializers.IntegerField(min_value=1, max_value=TABLE_LIMIT)
    NS = serializers.IntegerField(min_value=1)
    EW = serializers.IntegerField(min_value=1)


class StartedMatchSerializer(serializers.Serializer):
    """The match started: its table, the table's n-th match of the evening, its game (the
    score card's `/api/v1/games/<game>/card/` and `/hands/`), the sitting it belongs to
    and the pairs."""

    table = serializers.IntegerField()
    match = serializers.IntegerField()
    game = serializers.IntegerField()
    sitting = serializers.IntegerField()
    NS = serializers.IntegerField()
    EW = serializers.IntegerField()
    target = serializers.IntegerField()


def started_json(started: StartedMatch) -> dict[str, Any]:
    table = started.table
    return {
        "table": table.number,
        "match": started.match,
        "game": started.game.pk,
        "sitting": table.round.number,
        "NS": table.ns_pair.number,
        "EW": table.ew_pair.number,
        "target": int(table.round.event.ranking.get("target", 2005)),
    }


class MatchStartView(ApiMixin, APIView):
    """Start a match at a table of an evening of free matches."""

    permission_classes = [CanSeatTurns]
    filter_backends: list = []

    @extend_schema(
        tags=["burraco"],
        summary="Start a free match at a table (organisers, evenings of free matches)",
        description='The desk\'s "Form a table": two pairs of the evening at a table for '
        "a match to the evening's target. 409 `table_playing` or `pair_playing` while the "
        "table or one of the pairs is still playing a match nobody has won (`params.table`, "
        "`params.pair`); 400 `not_free_matches` for a tournament. An Idempotency-Key makes "
        "a retry answer the first answer.",
        request=MatchStartSerializer,
        parameters=[IDEMPOTENCY_KEY],
        examples=[
            OpenApiExample("Table 3", value={"table": 3, "NS": 5, "EW": 2}, request_only=True),
            OpenApiExample(
                "Started",
                value={
                    "table": 3,
                    "match": 2,
                    "game": 57,
                    "sitting": 2,
                    "NS": 5,
                    "EW": 2,
                    "target": 2005,
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
        responses={
            201: OpenApiResponse(StartedMatchSerializer, description="Started."),
            **errors(*WRITE_ERRORS, 409, 422),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        event, data = burraco_write(
            self, request, pk, MatchStartSerializer, FIELDS, _("A match has no such field.")
        )
        answer = match_start_request(
            event=event,
            table_number=data["table"],
            ns=data["NS"],
            ew=data["EW"],
            body_of=lambda started: dict(StartedMatchSerializer(started_json(started)).data),
            idempotency_key=contract.idempotency_key(request),
        )
        return Response(answer.body, status=answer.status_code)
