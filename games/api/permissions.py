"""Who may read and write what through the API: visibility querysets, the table key, roles.

For every API view (the standings endpoints in scoring/urls_api.py included):

- `PublicReadable` filters a queryset down to what the request may read: published
  clubs, leagues and events (an event is public when it and its club are published; a
  round, table, game or deal when its event is), plus everything of the clubs the user
  organises, plus the game of the table whose key the request carries. Objects outside
  it answer 404, never 403, so their existence does not leak.

      events = PublicReadable.events(request)
      games = PublicReadable.filter(
          Game.objects.all(), request, event="table__round__event", table="table_id"
      )
      standings = get_object_or_404(PublicReadable.events(request), pk=event_id)

- `organiser_club_ids(request)`: the ids of the clubs the user organises (None: all,
  for a superuser); cached on the request. Use it to show organiser-only fields.
- `TableKeyAuthentication`: the header `X-Table-Key: <Table.key>` (the secret in the
  table card's QR code). `request.auth` is then a `TableKey` and `request.user` is
  anonymous; it only lets a client write (submit and confirm deals of) that table's game.
- `CanEnterDeals` / `IsClubOrganiser`: object permissions on a Game.
- Errors (games/api/errors.py) and pagination (games/api/pagination.py) are shared too.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, permissions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from clubs.models import Club, League, Membership, Player
from games.core.table_pages import could_be_key
from games.models import Event, Game, Table

TABLE_KEY_HEADER = "X-Table-Key"


@dataclass(frozen=True)
class TableKey:
    """What a valid table key grants: the table, its number and its game."""

    table_id: int
    table_number: int
    game_id: int | None
    club_id: int
    confirm_deals: bool


def read_table_key(key: str) -> TableKey | None:
    """What the table key grants (one query on the unique index of Table.key); None when
    no table has this key."""
    if not could_be_key(key):
        return None
    table = Table.objects.select_related("round__event__club", "game").filter(key=key).first()
    if table is None:
        return None
    game = getattr(table, "game", None)
    club = table.round.event.club
    return TableKey(
        table_id=table.pk,
        table_number=table.number,
        game_id=game.pk if game is not None else None,
        club_id=club.pk,
        confirm_deals=club.confirm_deals,
    )


class TableKeyAuthentication(BaseAuthentication):
    """`X-Table-Key: <key>`: a phone at the table, allowed to write that table's game only."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, TableKey] | None:
        key = request.headers.get(TABLE_KEY_HEADER)
        if key is None:
            return None
        granted = read_table_key(key) if key and len(key) <= 40 and "\x00" not in key else None
        if granted is None:
            raise exceptions.AuthenticationFailed(_("This table key is not valid."))
        return AnonymousUser(), granted

    def authenticate_header(self, request: Request) -> str:
        return "TableKey"


class TableKeyScheme(OpenApiAuthenticationExtension):
    """The table key as an apiKey security scheme in the OpenAPI schema."""

    target_class = TableKeyAuthentication
    name = "tableKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": TABLE_KEY_HEADER,
            "description": "The secret key of a table (in its QR code): lets a client "
            "submit and confirm the deals of that table's game, and nothing else.",
        }


def table_key(request: Request) -> TableKey | None:
    return request.auth if isinstance(request.auth, TableKey) else None


def organiser_club_ids(request: Request) -> frozenset[int] | None:
    """The clubs the user organises (empty for anonymous users); None means every club
    (a superuser). Kept on the request: asked once per request."""
    cached = getattr(request, "_organiser_club_ids", False)
    if cached is not False:
        return cached
    user = request.user
    ids: frozenset[int] | None
    if user and user.is_authenticated and user.is_superuser:
        ids = None
    else:
        ids = frozenset(Club.objects.organised_by(user).values_list("pk", flat=True))
    request._organiser_club_ids = ids
    return ids


def organises(request: Request, club_id: int) -> bool:
    ids = organiser_club_ids(request)
    return ids is None or club_id in ids


class PublicReadable:
    """What a request may read: the models' visible_to querysets (clubs/models.py,
    games/models.py: the one rule), plus, for rows of a table, what the request's table
    key grants (its own table, game and deals)."""

    @staticmethod
    def filter(
        queryset: QuerySet,
        request: Request,
        *,
        event: str,
        table: str | None = None,
    ) -> QuerySet:
        """Rows whose event (at the path `event`) the user may read. `table`: the path to
        the row's table id ("table_id", "pk" for a Table), so a table key also reads its
        own table, game and deals."""
        user = request.user
        if user and user.is_authenticated and user.is_superuser:
            return queryset
        visible = Q(**{f"{event}__in": Event.objects.visible_to(user)})
        key = table_key(request)
        if key is not None and table is not None:
            visible |= Q(**{table: key.table_id})
        return queryset.filter(visible)

    @staticmethod
    def clubs(request: Request, queryset: QuerySet | None = None) -> QuerySet:
        return (Club.objects if queryset is None else queryset).visible_to(request.user)

    @staticmethod
    def leagues(request: Request, queryset: QuerySet | None = None) -> QuerySet:
        return (League.objects if queryset is None else queryset).visible_to(request.user)

    @staticmethod
    def events(request: Request, queryset: QuerySet | None = None) -> QuerySet:
        return (Event.objects if queryset is None else queryset).visible_to(request.user)

    @staticmethod
    def players(request: Request, queryset: QuerySet | None = None) -> QuerySet:
        """Players who belong to a published club or to a club the user organises."""
        return (Player.objects if queryset is None else queryset).visible_to(request.user)

    @staticmethod
    def managed(request: Request) -> Exists:
        """An annotation of players: whether the user organises one of the player's clubs
        (an organiser sees the e-mail of their clubs' players)."""
        organised = Club.objects.organised_by(request.user).values("pk")
        return Exists(Membership.objects.filter(player=OuterRef("pk"), club__in=organised))


def game_club_id(game: Game) -> int:
    return game.table.round.event.club_id


def organises_game(request: Request, game: Game) -> bool:
    return organises(request, game_club_id(game))


class CanEnterDeals(permissions.BasePermission):
    """Writes to a game: an organiser of its club, or a client holding its table's key."""

    message = _("Only the organisers of this club or the players at this table may enter deals.")

    def has_permission(self, request: Request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(table_key(request) or (request.user and request.user.is_authenticated))

    def has_object_permission(self, request: Request, view, obj: Game) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        key = table_key(request)
        if key is not None:
            return key.game_id == obj.pk
        return organises_game(request, obj)


class IsClubOrganiser(permissions.BasePermission):
    """Writes only by an organiser of the object's club (a table key is not enough)."""

    message = _("Only the organisers of this club may do this.")

    def has_permission(self, request: Request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        if table_key(request) is not None:
            return False
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view, obj: Game) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return organises(request, game_club_id(obj))
