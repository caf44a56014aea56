"""Events (evenings, tournaments), their rounds, tables, seats and games, shared by both
games, with the audit log of an event and the idempotency records of its writes."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.models import Club, GameChoice, League, Player


def new_table_key() -> str:
    return secrets.token_urlsafe(18)


class EventQuerySet(models.QuerySet):
    def visible_to(self, user: Any) -> EventQuerySet:
        """The events a user may read: published events of published clubs, and every event
        of the clubs the user organises (a superuser reads everything). The one rule of
        visibility: rows of an event (rounds, tables, games, deals, standings) are visible
        when their event is, `filter(event__in=Event.objects.visible_to(user))`."""
        if user is not None and user.is_authenticated and user.is_superuser:
            return self
        public = Q(published=True, club__published=True)
        if user is None or not user.is_authenticated:
            return self.filter(public)
        organised = Club.objects.organised_by(user).values("pk")
        return self.filter(public | Q(club__in=organised))


class Event(models.Model):
    class Kind(models.TextChoices):
        EVENING = "evening", _("evening")
        TOURNAMENT = "tournament", _("tournament")

    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        RUNNING = "running", _("running")
        CLOSED = "closed", _("closed")

    class Seating(models.TextChoices):
        MIX = "mix", _("mix (fewest repeat meetings)")
        SWISS = "swiss", _("by standings (Swiss)")
        RANDOM = "random", _("random")
        FIXED = "fixed", _("fixed by the organiser")

    class BurracoFormat(models.TextChoices):
        # A Burraco event's way to play (docs/rules/burraco.md "Ways to play a match").
        TURNS = "turns", _("tournament turns")
        FREE = "free", _("free matches")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.EVENING)
    game = models.CharField(
        _("game"), max_length=8, choices=GameChoice.choices, default=GameChoice.BARBU
    )
    starts_at = models.DateTimeField(_("starts at"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PLANNED
    )
    published = models.BooleanField(_("public"), default=True)
    # Frozen when the event is created: later changes to the club or league never
    # rescore an event.
    ruleset = models.JSONField(_("rules"))
    # A Burraco event: a pair tournament of turns, or an evening of free matches to a
    # target (2005, 1505 or 1005: the frozen ruleset's "target").
    burraco_format = models.CharField(
        _("format"), max_length=8, choices=BurracoFormat.choices, default=BurracoFormat.TURNS
    )
    seating_method = models.CharField(
        _("seating"), max_length=16, choices=Seating.choices, default=Seating.MIX
    )
    # How many dealer turns a round plays; None: a whole game (4 turns).
    turns_per_round = models.PositiveSmallIntegerField(
        _("dealer turns per round"), null=True, blank=True
    )
    planned_rounds = models.PositiveSmallIntegerField(_("rounds"), default=1)
    ranking = models.JSONField(_("ranking"), default=dict, blank=True)
    # How games not finished count in the standings, chosen when the organiser closes the
    # evening with such games (the pages say which).
    unfinished = models.CharField(
        _("unfinished games"),
        max_length=8,
        choices=[
            ("count", _("count as they stand")),
            ("exclude", _("do not count at all")),
        ],
        default="count",
    )
    # A Burraco tournament whose entries are players, not pairs: partners change every
    # turn (docs/rules/burraco.md "Individual tournament"). Chosen when it is created.
    individual = models.BooleanField(_("individual tournament"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_at", "id"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    @property
    def is_burraco(self) -> bool:
        return self.game == GameChoice.BURRACO

    @property
    def is_free_matches(self) -> bool:
        """A Burraco evening of free matches (no turns, no VP: matches won and lost)."""
        return self.is_burraco and self.burraco_format == self.BurracoFormat.FREE

    @property
    def status_label(self) -> str:
        """The status in words that agree with the event: an evening's are the status
        choices' ("serata chiusa"), a tournament's its own ("torneo chiuso")."""
        if self.kind == self.Kind.TOURNAMENT:
            return str(TOURNAMENT_STATUS[self.status])
        return self.get_status_display()


# A tournament is masculine in it/es/fr where an evening is feminine.
TOURNAMENT_STATUS = {
    Event.Status.PLANNED: pgettext_lazy("tournament status", "planned"),
    Event.Status.RUNNING: pgettext_lazy("tournament status", "running"),
    Event.Status.CLOSED: pgettext_lazy("tournament status", "closed"),
}


class EventPlayer(models.Model):
    """A player checked in at an event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="entries")
    checked_in_at = models.DateTimeField(auto_now_add=True)
    active = models.BooleanField(_("present"), default=True)

    class Meta:
        ordering = ["event", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="eventplayer_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.event}"


class Round(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("round status", "open")
        # Its own entry: a round is feminine in it/es/fr where an event is not ("ronde clôturée").
        CLOSED = "closed", pgettext_lazy("round status", "closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    seating_seed = models.BigIntegerField(default=0)
    # What the seating module said about this round (repeat meetings and why).
    seating_explanation = models.JSONField(default=list, blank=True)
    byes = models.ManyToManyField(Player, blank=True, related_name="byes")
    # Burraco turns (a Round of a Burraco event): hands a table plays, the time limit the
    # referee's desk counts down, and the movement that seated it.
    hands_per_turn = models.PositiveSmallIntegerField(_("hands per turn"), null=True, blank=True)
    time_limit = models.PositiveSmallIntegerField(_("time limit (minutes)"), null=True, blank=True)
    movement = models.CharField(_("movement"), max_length=16, blank=True)
    # Mitchell's step (EW pairs move this many tables), or the Danese variant.
    movement_step = models.PositiveSmallIntegerField(null=True, blank=True)
    movement_variant = models.CharField(max_length=16, blank=True)
    # The first turn's order: "entry", "draw" or "hand".
    first_order = models.CharField(max_length=8, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.event} – {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    # The secret in the table card's QR code: lets a phone write to this table's game only.
    key = models.CharField(max_length=40, unique=True, default=new_table_key)
    # A Burraco table's two lines: the NS pair against the EW pair.
    ns_pair = models.ForeignKey(
        "games.BurracoPair", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ew_pair = models.ForeignKey(
        "games.BurracoPair", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # An individual tournament's table: each line is two players' entries, `ns_pair`
    # (North) with `ns_partner` (South), `ew_pair` (East) with `ew_partner` (West).
    ns_partner = models.ForeignKey(
        "games.BurracoPair", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ew_partner = models.ForeignKey(
        "games.BurracoPair", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round} – {self.number}"

    def side(self, line: str) -> list:
        """The entries of a line ("NS" or "EW"): one pair, or two players' entries."""
        first, partner = (
            (self.ns_pair, self.ns_partner) if line == "NS" else (self.ew_pair, self.ew_partner)
        )
        return [e for e in (first, partner) if e is not None]

    def side_label(self, line: str) -> str:
        """The line as the pages show it: "3: Anna – Bruno" for a pair, "3. Anna – 7. Carla"
        for two players."""
        entries = self.side(line)
        if len(entries) == 1:
            return f"{entries[0].number}: {entries[0].names}"
        return " – ".join(f"{e.number}. {e.names}" for e in entries)

    def side_names(self, line: str) -> str:
        """The names of a line's players: "Anna – Bruno"."""
        return " – ".join(e.names for e in self.side(line))

    @property
    def ns_names(self) -> str:
        return self.side_names("NS")

    @property
    def ew_names(self) -> str:
        return self.side_names("EW")

    @property
    def ns_side(self) -> list:
        return self.side("NS")

    @property
    def ew_side(self) -> list:
        return self.side("EW")

    @property
    def ns_label(self) -> str:
        return self.side_label("NS")

    @property
    def ew_label(self) -> str:
        return self.side_label("EW")


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()  # 0..3 clockwise; 0 deals first
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_unique"),
            models.CheckConstraint(condition=models.Q(position__lte=3), name="seat_position_range"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}: {self.player}"


class Game(models.Model):
    # The game played: the one enum of it (an event's and a league's too), not a copy.
    Kind = GameChoice

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        COMPLETE = "complete", _("complete")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.BARBU)
    # Frozen copy: {"preset": ..., "options": {...}}.
    ruleset = models.JSONField()
    # Player names as the game record uses them, in seat order (unique within the game).
    player_names = models.JSONField()
    deals_target = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True
    )
    deals_count = models.PositiveSmallIntegerField(default=0)
    # The engine's totals for the game so far {name: points}, kept for fast lists.
    totals = models.JSONField(default=dict, blank=True)
    # True once a substitute took over a seat (games/barbu/substitutions.py): only such games
    # read their Substitution rows when a deal is written.
    substituted = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table"]

    def __str__(self) -> str:
        return f"Game {self.pk}"


class EventLog(models.Model):
    """The audit trail of an evening: who closed or reopened what, and when; at a Burraco
    tournament's desk every entry, check-in, withdrawal and seating too (its `detail`
    keeps numbers, never words: games/burraco/history.py writes the line in the reader's
    language)."""

    class Action(models.TextChoices):
        CLOSED = "closed", pgettext_lazy("evening log", "closed")
        REOPENED = "reopened", pgettext_lazy("evening log", "reopened")
        SUBSTITUTED = "substituted", pgettext_lazy("evening log", "substitute")
        ENTERED = "entered", pgettext_lazy("evening log", "entered")
        LATE_ENTRY = "late_entry", pgettext_lazy("evening log", "late entry")
        IMPORTED = "imported", pgettext_lazy("evening log", "imported")
        CHECKED_IN = "checked_in", pgettext_lazy("evening log", "checked in")
        CHECKED_OUT = "checked_out", pgettext_lazy("evening log", "check-in undone")
        CHECKED_IN_ALL = "checked_in_all", pgettext_lazy("evening log", "all checked in")
        WITHDRAWN = "withdrawn", pgettext_lazy("evening log", "withdrawn")
        REINSTATED = "reinstated", pgettext_lazy("evening log", "withdrawal undone")
        SEATED = "seated", pgettext_lazy("evening log", "turn seated")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="log")
    # None: the whole evening.
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="log"
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # e.g. {"unfinished": "exclude", "games": [ids]}: what was decided with it.
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "at", "id"]

    def __str__(self) -> str:
        return f"{self.event} {self.round_id or ''} {self.action}"


class IdempotencyRecord(models.Model):
    """The first answer to a request sent with an Idempotency-Key, replayed on retries."""

    scope = models.CharField(max_length=80)  # e.g. "game:12"
    key = models.CharField(max_length=200)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"
