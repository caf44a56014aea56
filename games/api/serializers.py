"""What the API reads and writes: output serializers of each resource, input documents.

Deal bodies are passed to games.barbu.submission as they come: the engine validates them and
lists every problem (its messages are better than a serializer's). The deal input
serializers below document that JSON (docs/rules/format.md) in the schema; only `seat`, `agree`,
`reason` and the token request are validated here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from clubs.models import Club, League, Player
from games.models import Deal, Event, Game, Round, ScoreCard, Table
from scoring.engine import barbu

CONTRACT_CHOICES = list(barbu.CONTRACTS)
TRUMP_CHOICES = ["S", "H", "D", "C", "NT"]


# --- errors ---------------------------------------------------------------------------
class ProblemSerializer(serializers.Serializer):
    deal = serializers.IntegerField(allow_null=True, help_text=_("1-based deal number, or null."))
    field = serializers.CharField(
        allow_null=True, help_text=_("Path of the field, e.g. result.tricks.")
    )
    code = serializers.CharField(help_text=_("Stable machine-readable code."))
    params = serializers.DictField(help_text=_("Values that fill the message."))
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    status = serializers.IntegerField()
    code = serializers.CharField()
    message = serializers.CharField()
    errors = ProblemSerializer(many=True)
    params = serializers.DictField(required=False)


class StoredDealSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    deal = serializers.DictField()
    scores = serializers.DictField()


class StoredHandSerializer(serializers.Serializer):
    """A Burraco hand as it is stored (as its score card lists it)."""

    number = serializers.IntegerField()
    version = serializers.IntegerField()
    mode = serializers.ChoiceField(choices=["mp", "cards"])
    hand = serializers.JSONField()
    NS = serializers.DictField()
    EW = serializers.DictField()


class ConflictSerializer(ErrorSerializer):
    stored = PolymorphicProxySerializer(
        component_name="Stored",
        serializers=[StoredDealSerializer, StoredHandSerializer],
        resource_type_field_name=None,
        required=False,
        help_text=_("What is stored now: a Barbu deal, or a Burraco hand."),
    )


# --- reads ----------------------------------------------------------------------------
class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "language", "ruleset", "published", "confirm_deals"]


class PlayerSerializer(serializers.ModelSerializer):
    email = serializers.SerializerMethodField(
        help_text=_("Only for organisers of one of the player's clubs; null otherwise.")
    )

    class Meta:
        model = Player
        fields = ["id", "name", "email"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_email(self, player: Player) -> str | None:
        return player.email if getattr(player, "managed", False) else None


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = [
            "id",
            "club",
            "name",
            "season",
            "ruleset",
            "ranking",
            "published",
            "starts_on",
            "ends_on",
        ]


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "league",
            "name",
            "kind",
            "starts_at",
            "status",
            "published",
            "ruleset",
            "seating_method",
            "turns_per_round",
            "planned_rounds",
        ]


class RoundSerializer(serializers.ModelSerializer):
    byes = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["id", "event", "number", "status", "byes"]


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, max_value=3)
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


class TableSerializer(serializers.ModelSerializer):
    event = serializers.IntegerField(source="round.event_id", read_only=True)
    game = serializers.SerializerMethodField()
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Table
        fields = ["id", "event", "round", "number", "game", "seats"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_game(self, table: Table) -> int | None:
        game = getattr(table, "game", None)
        return game.pk if game else None


class GameSerializer(serializers.ModelSerializer):
    """A game of either kind: `game` says which. A Burraco game's `players` are NS's two
    and EW's two, `deals_count` its hands stored, `deals_target` the hands of its turn (0
    for a free match, which plays to a target), `totals` each line's MP."""

    game = serializers.ChoiceField(source="kind", choices=Game.Kind.choices, read_only=True)
    event = serializers.IntegerField(source="table.round.event_id", read_only=True)
    round = serializers.IntegerField(source="table.round_id", read_only=True)
    players = serializers.ListField(
        source="player_names", child=serializers.CharField(), read_only=True
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "game",
            "event",
            "round",
            "table",
            "status",
            "ruleset",
            "players",
            "deals_count",
            "deals_target",
            "totals",
            "updated_at",
        ]


class RecordSerializer(serializers.Serializer):
    ruleset = serializers.JSONField()
    players = serializers.ListField(child=serializers.CharField(), min_length=4, max_length=4)
    deals = serializers.ListField(child=serializers.DictField())


class DoubleOwedSerializer(serializers.Serializer):
    by = serializers.CharField()
    against = serializers.CharField()
    needed = serializers.IntegerField()
    deals_left = serializers.IntegerField()


class PairSerializer(serializers.Serializer):
    by = serializers.CharField()
    against = serializers.CharField()


class DoubleSerializer(serializers.Serializer):
    by = serializers.CharField(trim_whitespace=False)
    against = serializers.CharField(trim_whitespace=False)
    redoubled = serializers.BooleanField(default=False)


class NextDealSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.CharField()
    contracts_left = serializers.ListField(child=serializers.ChoiceField(CONTRACT_CHOICES))
    doubles_allowed = serializers.DictField(
        child=PairSerializer(many=True),
        help_text=_("For each contract left: every (by, against) double the rules allow."),
    )
    doubles_owed = DoubleOwedSerializer(many=True)
    must_double_now = PairSerializer(many=True)


class SubstitutePlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SubstitutionSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text=_("0..3, as in the record's players."))
    seat_name = serializers.CharField(
        help_text=_("The seat's name in the record: its first player's, throughout the game.")
    )
    from_deal = serializers.IntegerField(help_text=_("The first deal the substitute played."))
    player_out = SubstitutePlayerSerializer()
    player_in = SubstitutePlayerSerializer()
    at = serializers.DateTimeField()


# --- a Burraco game's score card (also games/api/tournaments.py's answers) ---------------
class HandScoreSerializer(serializers.Serializer):
    score = serializers.IntegerField()
    cards = serializers.IntegerField(required=False)
    bonus = serializers.IntegerField(required=False)
    pozzetto = serializers.IntegerField(required=False)


class CardHandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    mode = serializers.ChoiceField(choices=["mp", "cards"])
    hand = serializers.JSONField()
    NS = HandScoreSerializer()
    EW = HandScoreSerializer()
    # Saved from the table after the turn's time limit ran out.
    late = serializers.BooleanField()


class LinesSerializer(serializers.Serializer):
    NS = serializers.IntegerField()
    EW = serializers.IntegerField()


class FreeMatchSerializer(serializers.Serializer):
    """A free match (an evening of free matches; null for a tournament turn): its target
    and what each line still needs to reach it (0 once there)."""

    target = serializers.IntegerField()
    needs = LinesSerializer()


class ScoreCardSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ScoreCard.Status.choices)
    version = serializers.IntegerField()
    hands_per_turn = serializers.IntegerField(allow_null=True)
    entered_line = serializers.CharField(allow_null=True)
    confirmed_line = serializers.CharField(allow_null=True)
    hands = CardHandSerializer(many=True)
    totals = LinesSerializer()
    difference = serializers.IntegerField()
    winner = serializers.CharField(allow_null=True)
    vp = LinesSerializer()
    complete = serializers.BooleanField()
    match = FreeMatchSerializer(allow_null=True)


class BarbuGameDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()  # "barbu" (the discriminator)
    status = serializers.ChoiceField(Game.Status.choices)
    record = RecordSerializer(help_text=_("The game record of docs/rules/format.md."))
    scores = serializers.DictField(help_text=_("The engine's Scores JSON of docs/rules/format.md."))
    next = NextDealSerializer(
        allow_null=True,
        help_text=_("The next deal: dealer, contracts left, doubles; null when complete."),
    )
    substitutions = SubstitutionSerializer(
        many=True,
        help_text=_(
            "Seats a substitute took over, in seat and deal order: each deal counts for "
            "whoever played it. Empty when nobody was substituted."
        ),
    )


class BurracoGameDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()  # "burraco" (the discriminator)
    status = serializers.ChoiceField(Game.Status.choices)
    card = ScoreCardSerializer(
        help_text=_("The score card of the game, as its card endpoint gives it.")
    )


GameDetailSerializer = PolymorphicProxySerializer(
    component_name="GameDetail",
    serializers={"barbu": BarbuGameDetailSerializer, "burraco": BurracoGameDetailSerializer},
    resource_type_field_name="game",
)


class DealSerializer(serializers.ModelSerializer):
    dealer = serializers.CharField(source="data.dealer", read_only=True)
    deal = serializers.DictField(source="data", read_only=True)
    scores = serializers.DictField(read_only=True)

    class Meta:
        model = Deal
        fields = [
            "id",
            "game",
            "number",
            "version",
            "status",
            "dealer",
            "contract",
            "deal",
            "scores",
            "created_at",
            "updated_at",
        ]


class DealAnswerSerializer(serializers.Serializer):
    """The answer to a deal submission (games.barbu.submission.deal_answer)."""

    game = serializers.IntegerField()
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(Deal.Status.choices)
    deal = serializers.DictField(help_text=_("The deal as stored (normalised)."))
    scores = serializers.DictField(help_text=_("raw, doubles and score of this deal per player."))
    totals = serializers.DictField(help_text=_("The game's totals so far per player."))
    complete = serializers.BooleanField()
    next = NextDealSerializer(allow_null=True)


# --- writes (documented; the engine validates the deal) -------------------------------
class DealInputSerializer(serializers.Serializer):
    """One deal of docs/rules/format.md."""

    dealer = serializers.CharField(trim_whitespace=False, help_text=_("The dealer's name."))
    contract = serializers.ChoiceField(CONTRACT_CHOICES)
    trump = serializers.ChoiceField(TRUMP_CHOICES, required=False, help_text=_("For trumps only."))
    doubles = DoubleSerializer(many=True, required=False)
    result = serializers.DictField(help_text=_("The result, by contract (docs/rules/format.md)."))


class DealSubmitSerializer(DealInputSerializer):
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text=_("The number the table believes it is entering (recommended)."),
    )
    seat = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=3,
        help_text=_("With a table key: the seat (0..3) of the phone entering the deal."),
    )


class DealCorrectionSerializer(DealInputSerializer):
    reason = serializers.CharField(
        required=False, max_length=200, allow_blank=True, help_text=_("Why it was corrected.")
    )


class DealPatchSerializer(DealCorrectionSerializer):
    """Top-level keys replace the stored deal's; a null value removes the key."""

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        for field in fields.values():
            field.required = False
        return fields


class ConfirmSerializer(serializers.Serializer):
    agree = serializers.BooleanField(help_text=_("true: the deal is right; false: dispute it."))
    seat = serializers.IntegerField(min_value=0, max_value=3, help_text=_("The confirming seat."))


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, trim_whitespace=False)
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, style={"input_type": "password"}
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
