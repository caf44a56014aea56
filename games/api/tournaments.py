"""API of Burraco tournaments: a tournament with its pairs and turns, a table's score
card, its hands submitted and the card confirmed from the tables (X-Table-Key or an
organiser's token), and the referee's correction (If-Match). The same guarantees as
Barbu's deals (games/api/deals.py): Idempotency-Key, 409 on conflict, one error shape.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import contract
from games.api.filters import KnownQueryParameters
from games.api.permissions import (
    CanEnterDeals,
    IsClubOrganiser,
    PublicReadable,
    organises_game,
    table_key,
)
from games.api.schema import IDEMPOTENCY_KEY, IF_MATCH, READ_ERRORS, WRITE_ERRORS, errors
from games.api.serializers import LinesSerializer, ScoreCardSerializer
from games.api.tournament_examples import TOURNAMENT_EXAMPLES
from games.api.views import ApiMixin, game_of_kind, json_object, tournament_of
from games.burraco import scorecards
from games.burraco.hand_undo import hand_undo
from games.burraco.scorecards import LINES
from games.models import Event, Game, PairTurnResult, ScoreCard

HAND_KEYS = frozenset({"number", "line", "mp", "closed", "NS", "EW"})


class HandSubmitSerializer(serializers.Serializer):
    number = serializers.IntegerField(required=False, min_value=1)
    line = serializers.ChoiceField(choices=LINES, required=False)
    mp = LinesSerializer(required=False)
    closed = serializers.ChoiceField(choices=LINES, required=False, allow_null=True)
    NS = serializers.JSONField(required=False)
    EW = serializers.JSONField(required=False)


class HandUndoSerializer(serializers.Serializer):
    # The hand to undo: the card's last, as the client shows it.
    number = serializers.IntegerField(min_value=1)


def _undo_number(request: Request) -> int:
    unknown = sorted(set(request.query_params) - {"number"})
    if unknown:
        raise ValidationError({key: [_("Unknown query parameter.")] for key in unknown})
    form = HandUndoSerializer(data=request.query_params)
    form.is_valid(raise_exception=True)
    return form.validated_data["number"]


class CardConfirmSerializer(serializers.Serializer):
    line = serializers.ChoiceField(choices=LINES)
    agree = serializers.BooleanField()
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


class CardCorrectSerializer(serializers.Serializer):
    # A turn plays at most 4 hands; a free match to 2005 rarely more than a dozen.
    hands = serializers.ListField(child=serializers.JSONField(), max_length=60)
    reason = serializers.CharField(max_length=200)
    # The turn's time ran out: the hands given are all the table played (confirmed so).
    time_out = serializers.BooleanField(default=False)


class BurracoPairSerializer(serializers.Serializer):
    """An entry of the tournament, under `pairs` whatever the kind of tournament.

    In a pair tournament (`individual: false`) an entry is a pair: `number` is the pair's
    number for the evening, `players` its two players' names, `player_id` null. In an
    individual tournament (`individual: true`) an entry is one player entered alone:
    `number` is the player's number for the evening (the numbers the tables' `NS` and `EW`
    and the byes give), `players` holds the one name, `player_id` the player's id (as
    `/api/v1/players/{id}/burraco/` takes it). `active`: not withdrawn; `late`: entered
    after the first turn was seated."""

    number = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(), min_length=1, max_length=2)
    player_id = serializers.IntegerField(allow_null=True)
    active = serializers.BooleanField()
    late = serializers.BooleanField()


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "description": "a pair's number"},
            {
                "type": "array",
                "items": {"type": "integer"},
                "minItems": 2,
                "maxItems": 2,
                "description": "an individual tournament: the line's two players' numbers",
            },
        ],
        "nullable": True,
    }
)
class SideField(serializers.Field):
    """A table's line: a pair's number, or (individual tournaments) two players' numbers."""

    def to_representation(self, value: Any) -> Any:
        return list(value) if isinstance(value, list | tuple) else value


class TurnTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    NS = SideField(allow_null=True)
    EW = SideField(allow_null=True)
    card = serializers.CharField(allow_null=True)


class TurnSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    movement = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    step = serializers.IntegerField(allow_null=True)
    hands_per_turn = serializers.IntegerField(allow_null=True)
    time_limit = serializers.IntegerField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    tables = TurnTableSerializer(many=True)
    byes = serializers.ListField(child=serializers.IntegerField())


class TournamentSerializer(serializers.Serializer):
    """A Burraco tournament. `pairs` lists its entries (BurracoPair): pairs, or, when
    `individual` is true, players entered alone (one name each, with their `player_id`);
    the key keeps its name so that pair clients read both. In an individual tournament
    each table's `NS` and `EW` are the line's two players' numbers, and `byes` players'
    numbers."""

    id = serializers.IntegerField()
    club = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()
    # "turns" (a tournament) or "free" (an evening of free matches: each "turn" is a
    # sitting, each table's game one match to `target`).
    format = serializers.ChoiceField(choices=Event.BurracoFormat.choices)
    target = serializers.IntegerField(allow_null=True)
    individual = serializers.BooleanField()
    turns_planned = serializers.IntegerField(allow_null=True)
    pairs = BurracoPairSerializer(many=True)
    turns = TurnSerializer(many=True)


HAND_EXAMPLES = [
    OpenApiExample(
        "Points",
        value={"number": 1, "line": "NS", "mp": {"NS": 935, "EW": 120}},
        request_only=True,
    ),
    OpenApiExample(
        "Cards",
        value={
            "number": 1,
            "line": "NS",
            "closed": "NS",
            "NS": {"melded": 560, "in_hand": 25, "clean": 1, "dirty": 1, "pozzetto": True},
            "EW": {"melded": {"aces": 5, "high": 14, "low": 18}, "in_hand": 85},
        },
        request_only=True,
    ),
]


def _etag(card: dict[str, Any]) -> dict[str, str]:
    return {"ETag": f'"{card["version"]}"'}


def tournament_json(event: Event) -> dict[str, Any]:
    """The tournament with its pairs (or players) and turns (four queries whatever its
    size)."""
    pairs = list(event.pairs.select_related("player_a", "player_b").order_by("number"))
    numbers = {p.pk: p.number for p in pairs}
    rounds = list(event.rounds.prefetch_related("tables__game__card").order_by("number"))
    byes: dict[int, list[int]] = {}
    for round_id, pair_id in PairTurnResult.objects.filter(
        round__event=event, bye=True
    ).values_list("round_id", "pair_id"):
        byes.setdefault(round_id, []).append(numbers.get(pair_id))
    turns = []
    for rnd in rounds:
        tables = []
        for table in sorted(rnd.tables.all(), key=lambda t: t.number):
            game = getattr(table, "game", None)
            card = getattr(game, "card", None) if game else None
            tables.append(
                {
                    "table": table.number,
                    "game": game.pk if game else None,
                    "NS": _side(numbers, table.ns_pair_id, table.ns_partner_id),
                    "EW": _side(numbers, table.ew_pair_id, table.ew_partner_id),
                    "card": card.status if card else None,
                }
            )
        turns.append(
            {
                "number": rnd.number,
                "status": rnd.status,
                "movement": rnd.movement,
                "variant": rnd.movement_variant or None,
                "step": rnd.movement_step,
                "hands_per_turn": rnd.hands_per_turn,
                "time_limit": rnd.time_limit,
                "started_at": rnd.started_at,
                "tables": tables,
                "byes": sorted(byes.get(rnd.pk, [])),
            }
        )
    return {
        "id": event.pk,
        "club": event.club_id,
        "name": event.name,
        "game": event.game,
        "status": event.status,
        "format": event.burraco_format,
        "target": event.ranking.get("target") if event.is_free_matches else None,
        "individual": event.individual,
        "turns_planned": event.ranking.get("turns"),
        "pairs": [
            {
                "number": p.number,
                "players": p.player_names,
                "player_id": p.solo_player_id,
                "active": p.active,
                "late": p.late,
            }
            for p in pairs
        ],
        "turns": turns,
    }


def _side(numbers: dict[int, int], first: int | None, partner: int | None) -> Any:
    """A line as the API gives it: the pair's number, or [North's, South's] (or [East's,
    West's]) numbers in an individual tournament."""
    if partner is None:
        return numbers.get(first) if first is not None else None
    return [numbers.get(first), numbers.get(partner)]


class TournamentView(ApiMixin, APIView):
    filter_backends: list = []

    @extend_schema(
        tags=["burraco"],
        summary="A Burraco tournament: its pairs (or players) and its turns' tables and byes",
        description="`individual` says what the entries under `pairs` are: pairs of two "
        "players, or (individual tournaments) players entered alone, with their "
        "`player_id`; then each table's `NS` and `EW` are two players' numbers.",
        responses={200: TournamentSerializer, **errors(*READ_ERRORS)},
        examples=TOURNAMENT_EXAMPLES,
    )
    def get(self, request: Request, pk: int) -> Response:
        KnownQueryParameters().filter_queryset(request, None, self)
        event = tournament_of(PublicReadable.events(request), pk)
        return Response(TournamentSerializer(tournament_json(event)).data)


def api_client(request: Request) -> str:
    """Who writes to a score card through the API (BurracoHand.client): the table key, or
    the user."""
    key = table_key(request)
    if key is not None:
        return f"key:{key.table_id}"
    user = request.user
    return f"user:{user.pk}" if user and user.is_authenticated else ""


def _burraco_game(request: Request, pk: int, view: Any) -> Game:
    game = game_of_kind(request, pk, Game.Kind.BURRACO)
    view.check_object_permissions(request, game)
    return game


def _card(game: Game) -> dict[str, Any]:
    return scorecards.card_body(game, ScoreCard.objects.get(game=game))


class ScoreCardView(ApiMixin, APIView):
    """A table's score card: read it (its ETag is its version), or correct it (organisers)."""

    permission_classes = [IsClubOrganiser]
    filter_backends: list = []

    @extend_schema(
        tags=["burraco"],
        summary="A table's score card: hands, running totals, difference and VP",
        description="Each hand's `late` is true when the table saved it after the turn's "
        "time limit ran out.",
        responses={
            200: OpenApiResponse(ScoreCardSerializer, description="ETag: the card's version."),
            **errors(*READ_ERRORS),
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        KnownQueryParameters().filter_queryset(request, None, self)
        body = _card(_burraco_game(request, pk, self))
        return Response(body, headers=_etag(body))

    @extend_schema(
        tags=["burraco"],
        summary="The referee's correction of a score card (organisers)",
        description="Every hand of the card, in order (each as the hands endpoint takes "
        "it, without `line`), and the reason kept in the card's history. The card is "
        "confirmed once all its hands are in, or with fewer where `time_out` says the "
        "turn's time ran out (the planned hands' VP table still applies). Only the "
        "results change: a later turn already seated keeps its seating.",
        request=CardCorrectSerializer,
        parameters=[IF_MATCH],
        examples=[
            OpenApiExample(
                "Correction",
                value={
                    "hands": [{"mp": {"NS": 300, "EW": 100}}, {"mp": {"NS": 100, "EW": 300}}],
                    "reason": "hand 2 went to EW",
                },
                request_only=True,
            )
        ],
        responses={200: ScoreCardSerializer, **errors(*WRITE_ERRORS, 412, 428)},
    )
    def put(self, request: Request, pk: int) -> Response:
        game = _burraco_game(request, pk, self)
        card = ScoreCard.objects.get(game=game)
        expected = contract.expected_version(request, card.version)
        form = CardCorrectSerializer(data=json_object(request))
        form.is_valid(raise_exception=True)
        scorecards.card_correct(
            game_id=game.pk,
            hands=form.validated_data["hands"],
            reason=form.validated_data["reason"],
            by_user=request.user,
            expected_version=expected,
            time_out=form.validated_data["time_out"],
        )
        body = _card(game)
        return Response(body, headers=_etag(body))


def _hand_body(request: Request) -> tuple[dict[str, Any], str]:
    body = json_object(request)
    unknown = sorted(set(body) - HAND_KEYS)
    if unknown:
        raise ValidationError({key: [_("A hand has no such field.")] for key in unknown})
    line = body.pop("line", "")
    if line not in ("", *LINES):
        raise ValidationError({"line": [_("The line should be NS or EW.")]})
    return body, line


class HandsView(ApiMixin, APIView):
    """Submit the next hand of a table's score card, or undo its last one."""

    permission_classes = [CanEnterDeals]
    filter_backends: list = []

    @extend_schema(
        tags=["burraco"],
        summary="Submit the next hand of a table's score card",
        description="Each line's MP (`mp`), or what each line counted (`closed`, `NS`, "
        "`EW`, as in docs/rules/format.md's Burraco hands) for the engine's calculator; "
        "`line`: who enters (the other line confirms). An optional `number`: the same hand sent "
        "again gets 200, other points under a stored number 409. Organisers of the club, "
        "or `X-Table-Key` of this table. Every problem is listed in a 400.",
        request=HandSubmitSerializer,
        parameters=[IDEMPOTENCY_KEY],
        examples=HAND_EXAMPLES,
        responses={
            201: OpenApiResponse(ScoreCardSerializer, description="Stored."),
            200: OpenApiResponse(
                ScoreCardSerializer, description="Already stored: nothing new stored."
            ),
            **errors(*WRITE_ERRORS, 409, 422),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        game = _burraco_game(request, pk, self)
        body, line = _hand_body(request)
        key = table_key(request)
        label = f"table {key.table_number}, {line}" if key else ""

        answer = scorecards.hand_submit(
            game_id=game.pk,
            hand=body,
            line=line,
            by_user=request.user,
            by_label=label,
            idempotency_key=contract.idempotency_key(request),
            client=api_client(request),
        )
        return Response(
            contract.sorted_keys(answer.body), status=answer.status_code, headers=_etag(answer.body)
        )

    @extend_schema(
        tags=["burraco"],
        summary="Undo the card's last hand before the other line confirmed it",
        description="`number`: the hand to undo, which must be the card's last. Only the "
        "client that entered it (the same `X-Table-Key`, or the same user) or an organiser "
        "of the club; refused once the card is confirmed or disputed (409), for a hand "
        "that is not the last (409 `later_hand`), for another client's hand (403 "
        "`undo_by_other_client`). The undo is kept in the card's history.",
        parameters=[HandUndoSerializer],
        request=None,
        responses={200: ScoreCardSerializer, **errors(*WRITE_ERRORS, 409)},
    )
    def delete(self, request: Request, pk: int) -> Response:
        game = _burraco_game(request, pk, self)
        number = _undo_number(request)
        key = table_key(request)
        hand_undo(
            game_id=game.pk,
            number=number,
            client=api_client(request),
            organiser=organises_game(request, game),
            by_user=request.user,
            by_label=f"table {key.table_number}" if key else "",
        )
        body = _card(game)
        return Response(contract.sorted_keys(body), headers=_etag(body))


class CardConfirmView(ApiMixin, APIView):
    permission_classes = [CanEnterDeals]
    filter_backends: list = []

    @extend_schema(
        tags=["burraco"],
        summary="Confirm or dispute a score card from the other line",
        request=CardConfirmSerializer,
        responses={200: ScoreCardSerializer, **errors(*WRITE_ERRORS, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = _burraco_game(request, pk, self)
        form = CardConfirmSerializer(data=json_object(request))
        form.is_valid(raise_exception=True)
        data = form.validated_data
        key = table_key(request)
        scorecards.card_confirm(
            game_id=game.pk,
            line=data["line"],
            agree=data["agree"],
            note=data.get("note", ""),
            by_label=f"table {key.table_number}, {data['line']}" if key else "",
            by_user=request.user,
            # The referee (an organiser) may confirm what anyone entered.
            client="" if organises_game(request, game) else api_client(request),
        )
        body = _card(game)
        return Response(body, headers=_etag(body))
