"""A Burraco tournament's rows: pairs entered, hands of a table's turn, the score card
(entered by one pair, confirmed by the other) with its history, and each pair's result
of each turn, the rows the standings read (docs/rules/burraco.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.models import Player
from games.models.bases import Revision
from games.models.core import new_table_key


class Line(models.TextChoices):
    NS = "NS", _("North-South")
    EW = "EW", _("East-West")


class BurracoPair(models.Model):
    """An entry of a Burraco tournament with its number for the evening: two players
    entered together in a pair tournament, or one player (`player_b` empty) in an
    individual tournament, who partners someone new every turn."""

    event = models.ForeignKey("games.Event", on_delete=models.CASCADE, related_name="pairs")
    number = models.PositiveSmallIntegerField(_("pair"))
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # None: a player entered alone in an individual tournament.
    player_b = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    # Entered once the first turn was seated (allowed until that turn ends).
    late = models.BooleanField(_("late entry"), default=False)
    active = models.BooleanField(_("playing"), default=True)
    # The last turn a withdrawn pair played (0: withdrew before playing).
    withdrawn_after = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="burracopair_number_unique"),
            models.CheckConstraint(
                condition=~models.Q(player_a=models.F("player_b")), name="burracopair_two_players"
            ),
        ]
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")

    def __str__(self) -> str:
        return f"{self.number}. {self.names}"

    @property
    def names(self) -> str:
        if self.player_b is None:
            return self.player_a.name
        return f"{self.player_a.name} – {self.player_b.name}"

    @property
    def player_names(self) -> list[str]:
        """The entry's players' names: two for a pair, one for an individual entry."""
        return [p.name for p in (self.player_a, self.player_b) if p is not None]

    @property
    def solo_player_id(self) -> int | None:
        """An individual tournament's entry: its one player's id; None for a pair."""
        return self.player_a_id if self.player_b_id is None else None


class ScoreCard(models.Model):
    """A table's score card for one turn: its state, totals and result as they stand."""

    # A score card's own words: "il segnapunti" is masculine in Italian (confermato), where
    # a free match's state (`match_status_label`, "la partita") is feminine (confermata).
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("score card status", "being entered")
        ENTERED = "entered", pgettext_lazy("score card status", "waiting for confirmation")
        CONFIRMED = "confirmed", pgettext_lazy("score card status", "confirmed")
        DISPUTED = "disputed", pgettext_lazy("score card status", "disputed")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="card")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    # The line that entered the hands, and the one that confirmed or disputed the card.
    entered_line = models.CharField(max_length=2, choices=Line.choices, blank=True)
    confirmed_line = models.CharField(max_length=2, choices=Line.choices, blank=True)
    ns_total = models.IntegerField(default=0)
    ew_total = models.IntegerField(default=0)
    ns_vp = models.PositiveSmallIntegerField(default=10)
    ew_vp = models.PositiveSmallIntegerField(default=10)
    # Raised at every change: a correction sent with an older one (If-Match) is refused.
    version = models.PositiveIntegerField(default=1)
    note = models.CharField(_("note"), max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("score card")
        verbose_name_plural = _("score cards")

    def __str__(self) -> str:
        return f"card of game {self.game_id}: {self.status}"

    @property
    def difference(self) -> int:
        return abs(self.ns_total - self.ew_total)

    @property
    def match_status_label(self) -> str:
        """The state of a free match, as its score card's status says it of the match."""
        return str(MATCH_STATUS[self.status])


MATCH_STATUS = {
    ScoreCard.Status.OPEN: pgettext_lazy("match status", "being played"),
    ScoreCard.Status.ENTERED: pgettext_lazy("match status", "waiting for confirmation"),
    ScoreCard.Status.CONFIRMED: pgettext_lazy("match status", "confirmed"),
    ScoreCard.Status.DISPUTED: pgettext_lazy("match status", "disputed"),
}


class BurracoHand(models.Model):
    """One hand (smazzata) of a table's turn: each line's MP, as entered or counted."""

    class Mode(models.TextChoices):
        MP = "mp", _("points entered")
        CARDS = "cards", _("counted from the cards")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.MP)
    # As entered: {"NS": 120, "EW": -40} (mp), or the engine's hand {"closed", "NS", "EW"}.
    data = models.JSONField()
    # The engine's score of the hand (cards): {"NS": {"cards", "bonus", "pozzetto",
    # "score"}, "EW": {...}}; for points entered {"NS": {"score": n}, "EW": {...}}.
    scores = models.JSONField(default=dict)
    ns_mp = models.IntegerField()
    ew_mp = models.IntegerField()
    version = models.PositiveIntegerField(default=1)
    entered_line = models.CharField(max_length=2, choices=Line.choices, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_from = models.CharField(max_length=80, blank=True)
    # Which client entered it: "phone:<id>" (a score card page's session), "key:<table>"
    # (the table key through the API), "user:<id>" (an organiser); that client never
    # confirms the card (games/burraco/scorecards.py, card_confirm).
    client = models.CharField(max_length=40, blank=True)
    # Saved from the table after the turn's time ran out (games/burraco/turn_clock.py):
    # shown on the score card, on the referee's desk and in the card's history.
    late = models.BooleanField(_("saved after time"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="burracohand_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} hand {self.number}"


class ScoreCardRevision(Revision):
    """The audit trail of a score card: every hand entered or corrected, every
    confirmation, dispute and penalty, with who did it, why and when."""

    class Action(models.TextChoices):
        ENTERED = "entered", _("entered")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        CORRECTED = "corrected", _("corrected")
        DELETED = "deleted", _("deleted")
        PENALTY = "penalty", _("penalty")
        # The entering line took back its last hand before the card was confirmed.
        UNDONE = "undone", _("undone at the table")

    round = models.ForeignKey("games.Round", on_delete=models.CASCADE, related_name="+")
    # None: a penalty on a pair that rested (a bye has no score card).
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="card_revisions",
    )
    pair = models.ForeignKey(
        BurracoPair, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # `number`: the hand's; 0 for the card as a whole (confirmation, dispute, penalty).
    action = models.CharField(max_length=16, choices=Action.choices)
    # A hand entered (or undone) after the turn's time ran out.
    late = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "at", "id"]

    def __str__(self) -> str:
        return f"{self.game} card {self.number} v{self.version} {self.action}"


class PairTurnResult(models.Model):
    """A pair's result of one turn (a table's score card as it stands, or a bye): the
    rows the ranking adds up. Penalties are taken from this pair only."""

    round = models.ForeignKey("games.Round", on_delete=models.CASCADE, related_name="pair_results")
    pair = models.ForeignKey(BurracoPair, on_delete=models.CASCADE, related_name="results")
    table = models.ForeignKey(
        "games.Table", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    opponent = models.ForeignKey(
        BurracoPair, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Individual tournaments: the player's partner of the turn and the second opponent.
    partner = models.ForeignKey(
        BurracoPair, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    opponent_b = models.ForeignKey(
        BurracoPair, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    line = models.CharField(max_length=2, choices=Line.choices, blank=True)
    bye = models.BooleanField(default=False)
    hands = models.PositiveSmallIntegerField(default=0)
    mp_for = models.IntegerField(default=0)
    mp_against = models.IntegerField(default=0)
    vp = models.DecimalField(max_digits=5, decimal_places=2, default=0)
    penalty_vp = models.DecimalField(max_digits=5, decimal_places=2, default=0)
    penalty_mp = models.IntegerField(default=0)
    penalty_reason = models.CharField(max_length=200, blank=True)
    # The score card is confirmed (a bye always is).
    final = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round", "pair__number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="pairturnresult_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round} pair {self.pair_id}: {self.vp} VP"


class BurracoTableKey(models.Model):
    """A tournament's table for the whole day (table 12 of every turn): the key of the one
    QR code printed for it, which opens that table's score card of the turn being played
    (games/burraco/event_tables.py). Made when the cards are first printed."""

    event = models.ForeignKey("games.Event", on_delete=models.CASCADE, related_name="table_keys")
    number = models.PositiveSmallIntegerField(_("table"))
    key = models.CharField(max_length=40, unique=True, default=new_table_key)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="burracotablekey_number_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} table {self.number}"
