"""Clubs, the people who play (players), their memberships and roles, and leagues."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

DEFAULT_RULESET = {"preset": "italian7", "options": {}}


def default_ruleset() -> dict:
    return {"preset": "italian7", "options": {}}


def default_burraco_ruleset() -> dict:
    return {"preset": "fibur", "options": {}}


class GameChoice(models.TextChoices):
    """The game a league or an event plays."""

    BARBU = "barbu", _("Barbu")
    BURRACO = "burraco", _("Burraco")


def _everything(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_superuser)


def _anonymous(user: Any) -> bool:
    return user is None or not user.is_authenticated


class ClubQuerySet(models.QuerySet):
    def organised_by(self, user: Any) -> ClubQuerySet:
        """The clubs a user organises (every club for a superuser, none for a visitor)."""
        if _everything(user):
            return self
        if _anonymous(user):
            return self.none()
        return self.filter(
            memberships__player__user=user, memberships__role=Membership.Role.ORGANISER
        )

    def visible_to(self, user: Any) -> ClubQuerySet:
        """The clubs a user may see: the published ones and those the user organises."""
        if _everything(user):
            return self
        if _anonymous(user):
            return self.filter(published=True)
        organised = Club.objects.organised_by(user).values("pk")
        return self.filter(Q(published=True) | Q(pk__in=organised))


class Club(models.Model):
    class Games(models.TextChoices):
        BARBU = "barbu", _("Barbu")
        BURRACO = "burraco", _("Burraco")
        BOTH = "both", _("Barbu and Burraco")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    language = models.CharField(
        _("language of public pages"), max_length=8, choices=settings.LANGUAGES, default="it"
    )
    # A preset plus option overrides (docs/rules/barbu.md), as scoring.engine reads it.
    ruleset = models.JSONField(_("rules"), default=default_ruleset)
    # The game(s) the club plays: its default for new leagues and events.
    game = models.CharField(_("game"), max_length=8, choices=Games.choices, default=Games.BARBU)
    # The Burraco rule set: a preset plus overrides, with the club's VP tables
    # (scoring.engine.burraco reads it).
    burraco_ruleset = models.JSONField(_("Burraco rules"), default=default_burraco_ruleset)
    published = models.BooleanField(_("public pages"), default=True)
    confirm_deals = models.BooleanField(
        _("deals need confirmation from another seat"), default=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    @property
    def default_game(self) -> str:
        """The game a new league or event of the club plays unless told otherwise."""
        return GameChoice.BURRACO if self.game == self.Games.BURRACO else GameChoice.BARBU

    def plays(self, game: str) -> bool:
        return self.game in (game, self.Games.BOTH)

    def is_organiser(self, user) -> bool:
        if not user or not user.is_authenticated:
            return False
        if user.is_superuser:
            return True
        return self.memberships.filter(player__user=user, role=Membership.Role.ORGANISER).exists()


class PlayerQuerySet(models.QuerySet):
    def visible_to(self, user: Any) -> PlayerQuerySet:
        """The players a user may see: members of a club the user may see."""
        if _everything(user):
            return self
        clubs = Club.objects.visible_to(user).values("pk")
        members = Membership.objects.filter(club__in=clubs).values("player_id")
        return self.filter(pk__in=members)


class Player(models.Model):
    """A person who plays; may have a login, may belong to several clubs."""

    name = models.CharField(_("name"), max_length=80)
    email = models.EmailField(_("e-mail"), blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    # Set when this record was merged into another: kept so old links still resolve.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        MEMBER = "member", _("member")
        GUEST = "guest", _("guest")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    # The player's federation membership number (a FIBUR "tessera"), as this club knows
    # it: optional, and held by one player of the club at most.
    federation_number = models.CharField(_("membership number"), max_length=20, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="membership_unique"),
            models.UniqueConstraint(
                fields=["club", "federation_number"],
                condition=~Q(federation_number=""),
                name="membership_federation_number_unique",
            ),
        ]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.player} @ {self.club} ({self.role})"


class LeagueQuerySet(models.QuerySet):
    def visible_to(self, user: Any) -> LeagueQuerySet:
        """The leagues a user may see: published leagues of published clubs, and every
        league of the clubs the user organises."""
        if _everything(user):
            return self
        public = Q(published=True, club__published=True)
        if _anonymous(user):
            return self.filter(public)
        organised = Club.objects.organised_by(user).values("pk")
        return self.filter(public | Q(club__in=organised))


class League(models.Model):
    """A season of evenings with its own ruleset and ranking method."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(_("name"), max_length=120)
    season = models.CharField(_("season"), max_length=40, blank=True)
    game = models.CharField(
        _("game"), max_length=8, choices=GameChoice.choices, default=GameChoice.BARBU
    )
    # None: the club's ruleset at the time each event is created.
    ruleset = models.JSONField(_("rules"), null=True, blank=True)
    # {"method": "total"|"placement"|"average"|..., "placement_points": [...],
    #  "min_games": n, "best_evenings": n, "tiebreaks": [...]} (scoring.engine.ranking reads it);
    # a Burraco league: "method" "total" (sum of VP) or "placement" by "season_points"
    # (points by place in each tournament), best "best_evenings" (scoring.burraco.selectors)
    ranking = models.JSONField(_("ranking"), default=dict, blank=True)
    published = models.BooleanField(_("public"), default=True)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["club", "-starts_on", "name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return f"{self.name} {self.season}".strip()

    def effective_ruleset(self) -> dict:
        if self.ruleset:
            return self.ruleset
        if self.game == GameChoice.BURRACO:
            return self.club.burraco_ruleset
        return self.club.ruleset
