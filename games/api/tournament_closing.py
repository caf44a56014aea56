"""The referee closes a Burraco tournament, or reopens it, through the API: the desk's
"Close the tournament" and "Reopen the tournament" (games/burraco/closing.py), organisers
of the tournament's club only; a table key never closes."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.permissions import PublicReadable
from games.api.schema import WRITE_ERRORS, errors
from games.api.turn_seating import CanSeatTurns
from games.api.views import ApiMixin
from games.burraco import closing
from games.models import Event


class TournamentStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Event.Status.choices)
    final = serializers.BooleanField()


def _state(event: Event) -> dict[str, Any]:
    final = event.status == Event.Status.CLOSED and not closing.unconfirmed_cards(event)
    return {"id": event.pk, "status": event.status, "final": final}


def _event(view: APIView, request: Request, pk: int) -> Event:
    event = get_object_or_404(PublicReadable.events(request).filter(game="burraco"), pk=pk)
    view.check_object_permissions(request, event)
    return event


class TournamentCloseView(ApiMixin, APIView):
    permission_classes = [CanSeatTurns]
    filter_backends: list = []

    @extend_schema(
        tags=["burraco"],
        summary="Close a Burraco tournament (organisers)",
        description="No more hands; the ranking becomes final (`final`: closed, every "
        "score card confirmed). Refused with 409 "
        "`cards_unconfirmed` (`params.tables`: each `turn` and `table`) while a score card "
        "is not confirmed. Closing a closed tournament answers 200 and changes nothing.",
        request=None,
        responses={200: TournamentStateSerializer, **errors(*WRITE_ERRORS, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        event = closing.tournament_close(event=_event(self, request, pk), by_user=request.user)
        return Response(TournamentStateSerializer(_state(event)).data)


class TournamentReopenView(ApiMixin, APIView):
    permission_classes = [CanSeatTurns]
    filter_backends: list = []

    @extend_schema(
        tags=["burraco"],
        summary="Reopen a closed Burraco tournament (organisers)",
        description="Its last turn takes hands again; the ranking is provisional again.",
        request=None,
        responses={
            200: OpenApiResponse(TournamentStateSerializer, description="Reopened."),
            **errors(*WRITE_ERRORS),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        event = closing.tournament_reopen(event=_event(self, request, pk), by_user=request.user)
        return Response(TournamentStateSerializer(_state(event)).data)
