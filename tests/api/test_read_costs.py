"""The cheaper paths of issue 20 give the same answers as the ones they replace, in a
number of statements that does not grow with the rows: the table key in one plain query,
a first page that counts itself, the FilterSet built only when asked, standings rows read
as plain values."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from clubs.models import Club, Membership, Player
from games.api import read_cache
from games.api.pagination import (
    PREPARED,
    FirstPageCountsItself,
    Pagination,
    _counts_in_window,
)
from games.api.permissions import (
    PublicReadable,
    TableKey,
    read_table_key,
    table_key,
)
from games.api.views import ApiMixin
from games.models import Deal, Event, Game, Round, Table
from scoring import rebuild, selectors
from scoring.models import EventStanding, LeagueStanding
from tests.factories import make_event, make_game, make_league

from .conftest import build_world, game_deals
from .test_deals import url


def _orm_table_key(key: str) -> TableKey | None:
    """The ORM lookup the plain query replaced (issue 20), as the reference."""
    table = Table.objects.filter(key=key).select_related("round__event__club", "game").first()
    if table is None:
        return None
    game = getattr(table, "game", None)
    club = table.round.event.club
    return TableKey(
        table_id=table.pk,
        table_number=table.number,
        game_id=game.pk if game else None,
        club_id=club.pk,
        confirm_deals=club.confirm_deals,
    )


def test_the_table_key_is_read_in_one_statement_with_the_same_grant(world):
    world.club.confirm_deals = True
    world.club.save()
    gameless = Table.objects.create(round=world.table.round, number=9)
    for key in (world.table.key, world.other_table.key, gameless.key, "no-such-key"):
        with CaptureQueriesContext(connection) as queries:
            granted = read_table_key(key)
        assert len(queries) == 1
        assert granted == _orm_table_key(key)
    assert read_table_key(gameless.key).game_id is None
    assert read_table_key(world.table.key).confirm_deals is True


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_table_key_is_read_prepared_on_postgresql(settings):
    """Planning the table key's four joins cost PostgreSQL about four times running them
    (0.3 against 0.08 ms), on every phone's request: the statement is prepared once per
    database session, and answers the same; with DB_PREPARED_STATEMENTS=0 (a pooler in
    transaction mode) it is not prepared."""
    world = build_world()
    connection.close()  # a session of its own: nothing prepared yet

    def table_key_statements() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
            return [row[0] for row in cursor.fetchall() if '"games_table" t' in row[0]]

    keys = (world.table.key, world.other_table.key, "no-such-key")
    settings.TAVOLO_DEAL_SQL_PREPARED = False
    plain = [read_table_key(key) for key in keys]
    assert plain == [_orm_table_key(key) for key in keys]
    assert table_key_statements() == []
    settings.TAVOLO_DEAL_SQL_PREPARED = True
    for _ in range(3):  # prepared at the first, then run prepared
        assert [read_table_key(key) for key in keys] == plain
    assert len(table_key_statements()) == 1
    # The rest of the site still binds on the client (the deal submission needs it).
    with connection.cursor() as cursor:
        assert type(cursor.cursor).__name__ == "Cursor"


def test_a_phone_still_writes_only_its_own_table(world):
    client = world.client("table_key")
    assert client.post(url(world), world.deals[2], format="json").status_code == 201
    other = f"/api/v1/games/{world.other_game.pk}/deals/"
    assert client.post(other, world.deals[0], format="json").status_code == 403
    bad = world.client("anonymous")
    bad.credentials(HTTP_X_TABLE_KEY="x" * 41)
    assert bad.post(url(world), world.deals[2], format="json").status_code == 401


def _pages(paginator_class, rows: list[int], page: str, size: int) -> dict:
    pagination = PageNumberPagination()
    pagination.page_size = size
    pagination.django_paginator_class = paginator_class
    request = Request(APIRequestFactory().get("/x/", {"page": page}))
    got = pagination.paginate_queryset(rows, request)
    return {
        "results": list(got),
        "count": pagination.page.paginator.count,
        "next": pagination.get_next_link(),
        "previous": pagination.get_previous_link(),
    }


@pytest.mark.parametrize("length", [0, 1, 3, 4, 5, 12])
@pytest.mark.parametrize("page", ["1", "2", "last"])
def test_the_first_page_that_counts_itself_gives_django_s_pages(length, page):
    rows = list(range(length))
    try:
        expected = _pages(Paginator, rows, page, 4)
    except Exception as error:  # the same refusal (404 for a page past the end)
        with pytest.raises(type(error)):
            _pages(FirstPageCountsItself, rows, page, 4)
        return
    assert _pages(FirstPageCountsItself, rows, page, 4) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("length", [0, 1, 3, 4, 5, 12])
@pytest.mark.parametrize("page", ["1", "2", "3", "4", "last"])
@pytest.mark.parametrize("shape", ["instances", "tuples"])
@pytest.mark.parametrize("counting", ["window", "subquery (prepared statements)"])
def test_the_page_that_counts_in_its_own_statement_gives_django_s_pages(
    length, page, shape, counting, monkeypatch
):
    if counting != "window":
        monkeypatch.setattr(connection, PREPARED, True, raising=False)
    Player.objects.bulk_create(Player(name=f"P{i:02d}") for i in range(length))
    players = Player.objects.order_by("name", "id")
    if shape == "tuples":
        players = players.values_list("id", "name")
    assert _counts_in_window(players)

    def pages(paginator_class) -> dict:
        got = _pages(paginator_class, players, page, 4)
        if shape == "instances":
            got["results"] = [(p.pk, p.name, sorted(vars(p))) for p in got["results"]]
        return got

    try:
        expected = pages(Paginator)
    except Exception as error:  # the same refusal (404 for a page past the end)
        with pytest.raises(type(error)):
            pages(FirstPageCountsItself)
        return
    with CaptureQueriesContext(connection) as queries:
        assert pages(FirstPageCountsItself) == expected
    if page == "last":  # the COUNT first (to know which page is last), then the page
        assert len(queries) == (2 if length else 1)
    else:
        assert len(queries) == 1


@pytest.mark.django_db
def test_only_lists_a_window_counts_right_are_counted_in_the_page_s_statement():
    players = Player.objects.order_by("name")
    assert _counts_in_window(players) and _counts_in_window(players.values_list("id"))
    assert not _counts_in_window(players.distinct())  # it counts rows before DISTINCT
    assert not _counts_in_window(players.values_list("id", flat=True))
    assert not _counts_in_window(players.values("id"))
    assert not _counts_in_window(Player.objects.order_by())  # unordered: pages unstable
    assert not _counts_in_window(players.union(players))
    assert not _counts_in_window(list(players))


def _list_statements(client, path: str) -> int:
    """The statements of a read made afresh (not of a page the API cached)."""
    read_cache.forget()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries)


def test_a_list_costs_the_same_statements_on_one_page_or_many(world, settings):
    assert Pagination.django_paginator_class is FirstPageCountsItself
    client = world.client("organiser")
    path = "/api/v1/events/?page_size=3"
    short = _list_statements(client, path)  # two events: the page holds them all
    assert client.get(path).json()["count"] == 2
    make_event(world.club, name="Third")
    assert _list_statements(client, path) == short
    make_event(world.club, name="Fourth")
    assert _list_statements(client, path) == short  # the count came with the page
    for n in range(5):
        make_event(world.club, name=f"More {n}")
    assert _list_statements(client, path) == short
    assert _list_statements(client, path + "&page=3") == short
    answer = client.get(path).json()
    assert answer["count"] == Event.objects.count() and len(answer["results"]) == 3
    assert client.get(path + "&page=9").status_code == 404  # past the end, as before


def test_the_player_list_needs_no_distinct_and_counts_in_its_page(world):
    rival = Club.objects.exclude(pk=world.club.pk).get()
    both = Player.objects.filter(memberships__club=world.club).first()
    Membership.objects.create(club=rival, player=both)  # a player of both clubs
    client = world.client("organiser")
    path = "/api/v1/players/?page_size=2"
    answer = client.get(path).json()
    assert answer["count"] > 2
    assert _list_statements(client, path) == _list_statements(client, path + "00")
    for query in ("?page_size=200", f"?club={world.club.pk}&page_size=200"):
        ids = [p["id"] for p in client.get("/api/v1/players/" + query).json()["results"]]
        assert len(ids) == len(set(ids)) and both.pk in ids


def test_no_filter_parameter_lists_the_same_and_a_filter_still_filters(world):
    client = world.client("organiser")
    everything = client.get("/api/v1/games/").json()
    assert everything["count"] == 3  # the organiser sees the unpublished evening's too
    complete = client.get("/api/v1/games/?status=complete").json()
    assert complete["count"] == 0
    assert client.get("/api/v1/games/?status=nonsense").status_code == 400
    anonymous = world.client("anonymous").get("/api/v1/games/").json()
    assert world.hidden_game.pk not in {g["id"] for g in anonymous["results"]}


def _model_rows(standings, league: bool) -> list[dict]:
    """The rows as the model-instance path built them before issue 20 (the reference)."""
    rows = []
    for s in standings.select_related("player").order_by("rank", "player__name"):
        note = s.tiebreak_note
        row = {
            "rank": s.rank,
            "player_id": s.player_id,
            "player": s.player.name,
            "points": selectors.maths.number(selectors.maths.Fraction(s.points)),
            "games": s.games,
            "details": s.details,
            "tiebreak": note,
            "tiebreak_label": str(selectors.TIEBREAK_LABELS.get(note, "")) if note else "",
        }
        if league:
            row.update(evenings=s.evenings, previous_rank=s.previous_rank, movement=s.movement)
        rows.append(row)
    return rows


def test_standings_rows_read_as_values_are_the_model_path_s(world):
    league = make_league(world.club)
    event = make_event(world.club, league=league, name="League evening")
    client = world.client("organiser")
    for seed in (3, 4, 5):
        game = make_game(world.club, event=event)
        for deal in game_deals(seed)[:9]:
            client.post(f"/api/v1/games/{game.pk}/deals/", deal, format="json")
    rebuild.rebuild_event_standings(event_id=event.pk)
    rebuild.rebuild_league_standings(league_id=league.pk)
    # A shared place with a tie-break note, and points with cents, as the maths give them.
    first = EventStanding.objects.filter(event=event).order_by("rank").first()
    first.tiebreak_note = "wins"
    first.points = "12.34"
    first.save()
    events = EventStanding.objects.filter(event=event)
    leagues = LeagueStanding.objects.filter(league=league)
    assert selectors._rows(events) == _model_rows(events, league=False)
    assert selectors._rows(leagues, selectors._LEAGUE_COLUMNS) == _model_rows(leagues, True)
    assert len(selectors._rows(events)) >= 4


def test_cold_event_standings_statements_do_not_grow_with_players(world):
    from django.core.cache import cache

    event = world.game.table.round.event
    client = world.client("anonymous")
    path = f"/api/v1/events/{event.pk}/standings/"
    rebuild.rebuild_event_standings(event_id=event.pk)
    cache.clear()
    few = _list_statements(client, path)
    for _ in range(6):
        make_game(world.club, event=event)
    for player in Player.objects.all()[:3]:
        EventStanding.objects.get_or_create(
            event=event, player=player, defaults={"rank": 99, "points": 0}
        )
    cache.clear()
    assert _list_statements(client, path) == few


def _q_rule(queryset, request, *, event: str, table: str | None = None):
    """PublicReadable.filter as the ORM's joins wrote it before issue 20 (the reference)."""
    user = request.user
    if user and user.is_authenticated and user.is_superuser:
        return queryset
    clubs = Membership.objects.filter(
        player__user_id=user.pk, role=Membership.Role.ORGANISER
    ).values("club_id")
    visible = Q(**{f"{event}__published": True, f"{event}__club__published": True})
    if request.user and request.user.is_authenticated:
        visible |= Q(**{f"{event}__club_id__in": clubs})
    key = table_key(request)
    if key is not None and table is not None:
        visible |= Q(**{table: key.table_id})
    return queryset.filter(visible)


@pytest.mark.parametrize(
    "role", ["anonymous", "organiser", "other_organiser", "member", "table_key", "superuser"]
)
def test_visibility_through_the_event_ids_is_the_join_rule(world, role):
    rival = Club.objects.exclude(pk=world.club.pk).get()
    for published in (True, False):  # the rival club's evenings, public and private
        make_game(rival, event=make_event(rival, name=f"Rival {published}", published=published))
    admin = get_user_model().objects.create_superuser("root", password="x")
    world.tokens["superuser"] = Token.objects.create(user=admin).key
    client = world.client(role)
    if role == "superuser":
        client.credentials(HTTP_AUTHORIZATION=f"Token {world.tokens[role]}")
    request = client.get("/api/v1/games/").wsgi_request
    drf = Request(request)
    drf.user, drf.auth = _authenticated(request)
    cases = [
        (Round.objects.all(), "event", None),
        (Table.objects.all(), "round__event", "pk"),
        (Game.objects.all(), "table__round__event", "table_id"),
        (Deal.objects.all(), "game__table__round__event", "game__table_id"),
    ]
    seen = 0
    for queryset, event, table in cases:
        got = set(PublicReadable.filter(queryset, drf, event=event, table=table))
        assert got == set(_q_rule(queryset, drf, event=event, table=table))
        seen += len(got)
    assert seen > 0


def _authenticated(django_request):
    """(user, auth) of a test client's request, through the API's authentication."""
    request = Request(django_request, authenticators=[a() for a in ApiMixin.authentication_classes])
    return request.user, request.auth
