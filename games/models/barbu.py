"""A Barbu game's rows: its deals, the scores they give, their history, substitutes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from games.models.bases import Revision
from games.models.core import Game


class Substitution(models.Model):
    """A substitute took over a seat from a deal on: the deals before stay the leaver's.

    The game record keeps naming the seat by its first player (Game.player_names); who
    played each deal is the seat's starter, then each substitute from their from_deal.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="substitutions")
    seat = models.PositiveSmallIntegerField()
    from_deal = models.PositiveSmallIntegerField()
    player_out = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_in = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat", "from_deal"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat", "from_deal"], name="substitution_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(seat__lte=3) & models.Q(from_deal__gte=2),
                name="substitution_seat_deal",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat} from deal {self.from_deal}: {self.player_in}"


class GameScore(models.Model):
    """A player's result in one game: derived from the deals, rewritten at each deal."""

    # No index of its own: gamescore_unique (game, seat) serves lookups by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scores", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="game_scores")
    seat = models.PositiveSmallIntegerField()
    total = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    place = models.DecimalField(max_digits=3, decimal_places=1, default=1)  # 1..4, shared
    # Players at the table with a higher total (0..3): RANK() - 1 over the game by total.
    # With `place` it gives the players level too (place = above + (level + 1) / 2), so
    # placement points are a plain GROUP BY over stored columns (scoring/barbu/aggregates.py).
    above = models.PositiveSmallIntegerField(default=0)
    deals = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="gamescore_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.player}: {self.total}"


class Deal(models.Model):
    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("confirmed")
        PENDING = "pending", _("waiting for confirmation")
        DISPUTED = "disputed", _("disputed")

    # Every index is written at each deal: deal_number_unique (game, number) serves
    # lookups by game, and a contract is always looked for within games.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals", db_index=False)
    number = models.PositiveSmallIntegerField()
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    contract = models.CharField(max_length=16)
    # The deal as in docs/rules/format.md, normalised by the engine.
    data = models.JSONField()
    # The engine's scores of this deal: {"raw": {...}, "doubles": {...}, "score": {...}}.
    scores = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.CONFIRMED)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Who entered it at the table ("table 3, seat of Anna"), when not a login.
    entered_from = models.CharField(max_length=80, blank=True)
    confirmed_from = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} deal {self.number}"


class DealScore(models.Model):
    """One player's points in one deal: the rows standings and statistics aggregate."""

    # Four rows per deal, each index written four times: dealscore_unique (deal, player)
    # serves lookups by deal, the (player, contract) index lookups by player.
    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="player_scores", db_index=False
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="deal_scores", db_index=False
    )
    contract = models.CharField(max_length=16)
    is_dealer = models.BooleanField(default=False)
    raw = models.IntegerField()
    doubles = models.IntegerField()
    score = models.IntegerField()
    took_king = models.BooleanField(default=False)
    doubles_won = models.PositiveSmallIntegerField(default=0)
    doubles_lost = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deal", "player"], name="dealscore_unique"),
        ]
        indexes = [models.Index(fields=["player", "contract"])]

    def __str__(self) -> str:
        return f"{self.deal} {self.player}: {self.score}"


class DealRevision(Revision):
    """The audit trail: every version of every deal, with who did what and when."""

    class Action(models.TextChoices):
        ENTERED = "entered", _("entered")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        CORRECTED = "corrected", _("corrected")
        DELETED = "deleted", _("deleted")
        # The organiser changed who sits where: the deal's player names were rewritten.
        RESEATED = "reseated", _("seat changed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="revisions")
    deal = models.ForeignKey(
        Deal, null=True, blank=True, on_delete=models.SET_NULL, related_name="revisions"
    )
    action = models.CharField(max_length=16, choices=Action.choices)

    class Meta:
        ordering = ["game", "number", "version", "id"]

    def __str__(self) -> str:
        return f"{self.game} deal {self.number} v{self.version} {self.action}"
