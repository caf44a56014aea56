"""Derived data: standings and ratings, rebuilt from the deals by Celery tasks."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import League, Player
from games.models import BurracoPair, Event, Game


class EventStanding(models.Model):
    """A player's place in an evening's standings (live while it runs)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(_("rank"))
    points = models.DecimalField(_("points"), max_digits=12, decimal_places=2)
    games = models.PositiveIntegerField(_("games"), default=0)
    # {"total", "placement", "average", "wins", "best_game", "deals", "qualified", "tiebreak"}
    details = models.JSONField(default=dict, blank=True)
    # The key of the tie-break that decided this player's place ("" when none was needed;
    # "tied" when every tie-break left them level).
    tiebreak_note = models.CharField(max_length=32, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["event", "rank", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="eventstanding_unique"),
        ]
        indexes = [models.Index(fields=["event", "rank"])]
        verbose_name = _("evening standing")
        verbose_name_plural = _("evening standings")

    def __str__(self) -> str:
        return f"{self.event_id} #{self.rank} {self.player_id}"


class LeagueStanding(models.Model):
    """A player's place in a league table, with the place after the previous evening."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(_("rank"))
    # The rank before the league's latest evening counted: None for a newcomer.
    previous_rank = models.PositiveIntegerField(_("previous rank"), null=True, blank=True)
    points = models.DecimalField(_("points"), max_digits=12, decimal_places=2)
    games = models.PositiveIntegerField(_("games"), default=0)
    evenings = models.PositiveIntegerField(_("evenings"), default=0)
    details = models.JSONField(default=dict, blank=True)
    tiebreak_note = models.CharField(max_length=32, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["league", "rank", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="leaguestanding_unique"),
        ]
        indexes = [models.Index(fields=["league", "rank"])]
        verbose_name = _("league standing")
        verbose_name_plural = _("league standings")

    def __str__(self) -> str:
        return f"{self.league_id} #{self.rank} {self.player_id}"

    @property
    def movement(self) -> int | None:
        """Places gained (+) or lost (-) since the previous evening; None for a newcomer."""
        if self.previous_rank is None:
            return None
        return self.previous_rank - self.rank


class PairStanding(models.Model):
    """A pair's place in a Burraco tournament's ranking (live while it runs)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pair_standings")
    pair = models.ForeignKey(BurracoPair, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(_("rank"))
    vp = models.DecimalField(_("VP"), max_digits=8, decimal_places=2)
    mp_difference = models.IntegerField(_("MP difference"))
    turns = models.PositiveIntegerField(_("turns"), default=0)
    byes = models.PositiveIntegerField(default=0)
    # An evening of free matches: the matches the pair won and lost (finished ones only).
    won = models.PositiveIntegerField(_("won"), default=0)
    lost = models.PositiveIntegerField(_("lost"), default=0)
    # {"penalty_vp", "penalty_mp", "shared", "tie_break_values", "unconfirmed"}
    details = models.JSONField(default=dict, blank=True)
    # The criterion that separated the pair from the one above ("" when none was needed).
    tiebreak_note = models.CharField(max_length=32, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["event", "rank", "pair__number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "pair"], name="pairstanding_unique"),
        ]
        verbose_name = _("pair standing")
        verbose_name_plural = _("pair standings")

    def __str__(self) -> str:
        return f"{self.event_id} #{self.rank} pair {self.pair_id}"


class PlayerRating(models.Model):
    """A player's current OpenSkill (Plackett–Luce) rating over every complete game."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma: the conservative estimate players are ranked by.
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordinal"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.ordinal:.2f}"


class RatingHistory(models.Model):
    """A player's rating after one game: the rating over time, and where replays restart."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    # Sortable text of (event date, event, round, table, game): the order games are rated in.
    order_key = models.CharField(max_length=64, db_index=True)
    place = models.DecimalField(max_digits=3, decimal_places=1)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["player", "order_key"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="ratinghistory_unique"),
        ]
        indexes = [models.Index(fields=["player", "order_key"])]
        verbose_name = _("rating history")
        verbose_name_plural = _("rating history")

    def __str__(self) -> str:
        return f"{self.player_id} after game {self.game_id}: {self.ordinal:.2f}"


class RatingRun(models.Model):
    """One row locked by every ratings recompute, so two workers never replay at once."""

    # Rated games after the last sync, and when that sync started: the next one compares
    # only the games changed since then.
    games = models.PositiveIntegerField(default=0)
    replayed = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings: {self.games} games"


class BurracoRating(models.Model):
    """A player's current OpenSkill rating from Burraco pairs play
    (scoring/engine/burraco/pair_ratings.py):
    apart from the Barbu rating (PlayerRating), which it never reads nor changes."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="burraco_rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    # The confirmed score cards (turns at a table) rated.
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordinal"]
        verbose_name = _("Burraco pair rating")
        verbose_name_plural = _("Burraco pair ratings")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.ordinal:.2f}"


class BurracoRatingHistory(models.Model):
    """A player's Burraco pair rating after one score card, with what was rated (the
    partner, both lines' VP): the chart, and where a replay restarts."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="burraco_rating_history"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    # scoring.rating_sync.order_key: (event date, event, turn, table, game).
    order_key = models.CharField(max_length=64, db_index=True)
    partner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    vp = models.PositiveSmallIntegerField()
    opponent_vp = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["player", "order_key"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="burracoratinghistory_unique"),
        ]
        indexes = [models.Index(fields=["player", "order_key"])]
        verbose_name = _("Burraco pair rating history")
        verbose_name_plural = _("Burraco pair rating history")

    def __str__(self) -> str:
        return f"{self.player_id} after game {self.game_id}: {self.ordinal:.2f}"


class BurracoRatingRun(models.Model):
    """The Burraco pair rating's own lock and bookkeeping (RatingRun's twin): the score
    cards rated after the last sync, and when that sync started."""

    games = models.PositiveIntegerField(default=0)
    replayed = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Burraco pair ratings: {self.games} score cards"


class StandingsSource(models.Model):
    """What the stored rows of one scope of derived data ("event:12", "league:3",
    "ratings:all") were last rebuilt from: a fingerprint of its games (scoring/healing.py).
    The periodic sweep compares it with the games' fingerprint now and requeues the
    rebuild of any scope left behind (a worker that died with its task, Redis down)."""

    scope = models.CharField(max_length=40, unique=True)
    fingerprint = models.CharField(max_length=100)
    rebuilt_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("standings source")
        verbose_name_plural = _("standings sources")

    def __str__(self) -> str:
        return f"{self.scope}: {self.fingerprint}"
