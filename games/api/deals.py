"""API views of deals: submit one (games.barbu.submission.deal_submit), read, correct
(games.barbu.corrections.deal_correct) or confirm it, and serialize the answer."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
)
from rest_framework import generics
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import contract, examples, filters, serializers
from games.api.permissions import CanEnterDeals, IsClubOrganiser, table_key
from games.api.schema import (
    DEAL_EXAMPLES,
    IDEMPOTENCY_KEY,
    IF_MATCH,
    READ_ERRORS,
    WRITE_ERRORS,
    errors,
)
from games.api.views import ApiMixin, game_of_kind, json_object, visible_deals
from games.barbu.corrections import deal_correct
from games.barbu.submission import deal_confirm, deal_submit
from games.models import Deal, Game


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
    # The API counts seats from 0; people read them from 1 (as on the table page).
    return _("table %(table)d, seat %(seat)d") % {"table": key.table_number, "seat": seat + 1}


def _etag(deal: Deal) -> dict[str, str]:
    return {"ETag": f'"{deal.version}"'}


def barbu_deal(request: Request, pk: int, number: int) -> Deal:
    """Deal `number` of Barbu game `pk`, if the caller may read it (404 otherwise; 404
    `wrong_game` for a Burraco game, which has hands, not deals)."""
    deal = (
        visible_deals(request)
        .select_related("game__table__round__event")
        .filter(game_id=pk, number=number)
        .first()
    )
    if deal is None:
        game_of_kind(request, pk, Game.Kind.BARBU)  # says why, if it is another game
        raise NotFound()
    return deal


class GameDealsView(ApiMixin, generics.GenericAPIView):
    """The deals of one game: list them, or submit the next one."""

    serializer_class = serializers.DealSerializer
    permission_classes = [CanEnterDeals]
    filter_backends = [filters.KnownQueryParameters]

    def get_game(self, request: Request, pk: int) -> Game:
        game = game_of_kind(request, pk, Game.Kind.BARBU)
        self.check_object_permissions(request, game)
        return game

    @extend_schema(
        tags=["deals"],
        responses={200: serializers.DealSerializer(many=True), **errors(*READ_ERRORS)},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = self.get_game(request, pk)
        deals = self.filter_queryset(game.deals.order_by("number"))
        page = self.paginate_queryset(deals)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(
        tags=["deals"],
        summary="Submit the next deal of a game",
        description="One deal as in docs/rules/format.md, with an optional `number` (the deal the "
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
        game = self.get_game(request, pk)
        body = contract.known_keys(json_object(request), contract.SUBMIT_KEYS)
        seat = _seat(body)
        key = table_key(request)
        submission = deal_submit(
            game_id=game.pk,
            deal=body,
            by_user=request.user,
            by_label=_label(request, seat),
            idempotency_key=contract.idempotency_key(request),
            needs_confirmation=bool(key and key.confirm_deals),
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
        deal = barbu_deal(request, pk, number)
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
            request, deal, contract.known_keys(json_object(request), contract.CORRECT_KEYS)
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
        for key, value in contract.known_keys(json_object(request), contract.CORRECT_KEYS).items():
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
        deal = barbu_deal(request, pk, number)
        self.check_object_permissions(request, deal.game)
        form = serializers.ConfirmSerializer(data=json_object(request))
        form.is_valid(raise_exception=True)
        seat = form.validated_data["seat"]
        label = _label(request, seat) or _("organiser, seat %(seat)d") % {"seat": seat + 1}
        confirmed = deal_confirm(
            deal_id=deal.pk,
            agree=form.validated_data["agree"],
            by_label=label,
            by_user=request.user,
        )
        return Response(serializers.DealSerializer(confirmed).data, headers=_etag(confirmed))
