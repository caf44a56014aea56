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

import functools
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import BooleanField, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, permissions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from clubs.models import Club, League, Membership, Player
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


@functools.cache
def _table_key_sql() -> str:
    from django.db import connection

    from games.models import Round

    q = connection.ops.quote_name
    t, r, e, c, g = (m._meta.db_table for m in (Table, Round, Event, Club, Game))
    return (
        f"SELECT t.{q('id')}, t.{q('number')}, g.{q('id')}, c.{q('id')}, "
        f"c.{q('confirm_deals')} FROM {q(t)} t "
        f"JOIN {q(r)} r ON r.{q('id')} = t.{q('round_id')} "
        f"JOIN {q(e)} e ON e.{q('id')} = r.{q('event_id')} "
        f"JOIN {q(c)} c ON c.{q('id')} = e.{q('club_id')} "
        f"LEFT JOIN {q(g)} g ON g.{q('table_id')} = t.{q('id')} WHERE t.{q('key')} = %s"
    )


def read_table_key(key: str) -> TableKey | None:
    """What the table key grants, in one plain query on the unique index of Table.key
    (the ORM's select_related query cost several ms to build, per request); None when no
    table has this key.

    Prepared on PostgreSQL (lean.prepared_reads): planning its four joins cost about four
    times running them (0.3 against 0.08 ms), on every request of every phone."""
    from django.db import connection

    from games.api.lean import prepared_reads  # lean's imports lead back here

    with prepared_reads(), connection.cursor() as cursor:
        cursor.execute(_table_key_sql(), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    table_id, number, game_id, club_id, confirm_deals = row
    return TableKey(
        table_id=table_id,
        table_number=number,
        game_id=game_id,
        club_id=club_id,
        confirm_deals=bool(confirm_deals),
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
    """The clubs the user organises (empty for anonymous users); None means every club."""
    cached = getattr(request, "_organiser_club_ids", False)
    if cached is not False:
        return cached
    user = request.user
    ids: frozenset[int] | None
    if not user or not user.is_authenticated:
        ids = frozenset()
    elif user.is_superuser:
        ids = None
    else:
        ids = frozenset(
            Membership.objects.filter(player__user=user, role=Membership.Role.ORGANISER)
            .order_by()  # not Membership's ordering: it joined the clubs to sort a set
            .values_list("club_id", flat=True)
        )
    request._organiser_club_ids = ids
    return ids


def organises(request: Request, club_id: int) -> bool:
    ids = organiser_club_ids(request)
    return ids is None or club_id in ids


def _organised_sql(request: Request) -> RawSQL | None:
    """The ids of the clubs the user organises as a subquery of plain SQL (no query of
    its own, nothing for the ORM to resolve); None for anonymous users (no club)."""
    from games.sql import organised_clubs

    user = request.user
    if not user or not user.is_authenticated:
        return None
    return RawSQL(organised_clubs("%s", "%s"), [user.pk, Membership.Role.ORGANISER.value])


def _superuser(request: Request) -> bool:
    user = request.user
    return bool(user and user.is_authenticated and user.is_superuser)


def _or_organised(public: Q, club_field: str, request: Request) -> Q:
    """`public`, or the row's club (at `club_field`) organised by the user."""
    organised = _organised_sql(request)
    return public if organised is None else public | Q(**{f"{club_field}__in": organised})


def visible_events_sql(request: Request) -> RawSQL:
    """The ids of the events the request may read (PublicReadable.events' rule: public
    event of a public club, or a club the user organises) as a subquery of plain SQL:
    a row's visibility is then one lookup on its event id, instead of the ORM resolving
    the event and club joins of three lookups on every request (and the database
    planning them)."""
    from games.sql import organised_clubs, visible_events

    user = request.user
    if user and user.is_authenticated:
        organised = organised_clubs("%s", "%s")
        return RawSQL(visible_events(organised), [user.pk, Membership.Role.ORGANISER.value])
    return RawSQL(visible_events(None), [])


def visible_players_sql(request: Request) -> RawSQL:
    """The ids of the players the request may read (members of a published club or of a
    club the user organises), as a subquery of plain SQL."""
    from django.db import connection

    from games.sql import organised_clubs

    q = connection.ops.quote_name
    sql = (
        f"SELECT m.{q('player_id')} FROM {q(Membership._meta.db_table)} m "
        f"JOIN {q(Club._meta.db_table)} c ON c.{q('id')} = m.{q('club_id')} "
        f"WHERE c.{q('published')}"
    )
    params: list = []
    user = request.user
    if user and user.is_authenticated:
        sql += f" OR m.{q('club_id')} IN ({organised_clubs('%s', '%s')})"
        params += [user.pk, Membership.Role.ORGANISER.value]
    return RawSQL(sql, params)


class PublicReadable:
    """Querysets of what a request may read (see the module docstring).

    The organiser's clubs go into the same SQL as a subquery of plain SQL
    (games.sql.organised_clubs): a read costs one query, and the ORM resolves no join
    for the rule.
    """

    @staticmethod
    def filter(
        queryset: QuerySet,
        request: Request,
        *,
        event: str,
        table: str | None = None,
    ) -> QuerySet:
        """Rows whose event (at the path `event`) is public or organised by the user.

        `table`: the path to the row's table id ("table_id", "pk" for a Table), so a
        table key also reads its own table, game and deals.
        """
        if _superuser(request):
            return queryset
        visible = Q(**{f"{event}__in": visible_events_sql(request)})
        key = table_key(request)
        if key is not None and table is not None:
            visible |= Q(**{table: key.table_id})
        return queryset.filter(visible)

    @staticmethod
    def clubs(request: Request, queryset: QuerySet | None = None) -> QuerySet:
        queryset = Club.objects.all() if queryset is None else queryset
        if _superuser(request):
            return queryset
        return queryset.filter(_or_organised(Q(published=True), "pk", request))

    @staticmethod
    def leagues(request: Request, queryset: QuerySet | None = None) -> QuerySet:
        queryset = League.objects.all() if queryset is None else queryset
        if _superuser(request):
            return queryset
        public = Q(published=True, club__published=True)
        return queryset.filter(_or_organised(public, "club_id", request))

    @staticmethod
    def events(request: Request, queryset: QuerySet | None = None) -> QuerySet:
        queryset = Event.objects.all() if queryset is None else queryset
        if _superuser(request):
            return queryset
        public = Q(published=True, club__published=True)
        return queryset.filter(_or_organised(public, "club_id", request))

    @staticmethod
    def players(request: Request, queryset: QuerySet | None = None) -> QuerySet:
        """Players who belong to a published club or to a club the user organises."""
        queryset = Player.objects.all() if queryset is None else queryset
        if _superuser(request):
            return queryset
        return queryset.filter(pk__in=visible_players_sql(request))

    @staticmethod
    def managed(request: Request) -> Any:
        """An annotation: whether the user organises one of the player's clubs (an
        organiser sees the e-mail of their clubs' players); for a logged-in user who
        is not a superuser (the others: all or none)."""
        from django.db import connection

        organised = _organised_sql(request)
        assert organised is not None
        q = connection.ops.quote_name
        player = q(Player._meta.db_table)
        sql = (
            f"EXISTS (SELECT 1 FROM {q(Membership._meta.db_table)} mm "
            f"WHERE mm.{q('player_id')} = {player}.{q('id')} "
            f"AND mm.{q('club_id')} IN ({organised.sql}))"
        )
        return RawSQL(sql, organised.params, output_field=BooleanField())


def game_club_id(game: Game) -> int:
    return game.table.round.event.club_id


USER_ORGANISES = "user_organises"


def annotates_organises(request: Request) -> bool:
    """Whether a game read for this request's user carries USER_ORGANISES (read by
    organises_game): for a logged-in user who is not a superuser (a superuser may do
    everything; anonymous users organise nothing)."""
    user = request.user
    return bool(user and user.is_authenticated and not user.is_superuser)


def organises_game(request: Request, game: Game) -> bool:
    known = getattr(game, USER_ORGANISES, None)
    if known is not None:
        return bool(known)
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


def _game_sql(with_organises: bool) -> str:
    from games.models import Round
    from games.sql import organised_clubs

    t = {m.__name__: m._meta.db_table for m in (Game, Table, Round, Event)}
    if not with_organises:
        return f'SELECT g."id", g."table_id" FROM "{t["Game"]}" g WHERE g."id" = %s'
    return (
        f'SELECT g."id", g."table_id", e."club_id" IN ({organised_clubs("%s", "%s")}) '
        f'FROM "{t["Game"]}" g JOIN "{t["Table"]}" t ON t."id" = g."table_id" '
        f'JOIN "{t["Round"]}" r ON r."id" = t."round_id" '
        f'JOIN "{t["Event"]}" e ON e."id" = r."event_id" WHERE g."id" = %s'
    )


def game_for_write(request: Request, pk: int) -> Game | None:
    """The game's id and table id, with USER_ORGANISES when annotates_organises, in one
    plain query (the ORM took several ms to build the annotated one); None if no such
    game. Only for deciding a write: the rest of the game is deferred."""
    from django.db import connection

    annotate = annotates_organises(request)
    params = [request.user.pk, Membership.Role.ORGANISER.value, pk] if annotate else [pk]
    with connection.cursor() as cursor:
        cursor.execute(_game_sql(annotate), params)
        row = cursor.fetchone()
    if row is None:
        return None
    game = Game.from_db(connection.alias, ["id", "table_id"], row[:2])
    if annotate:
        setattr(game, USER_ORGANISES, bool(row[2]))
    return game
