"""Pages of deals read by plain SQL (games/api/deal_pages.py, issue 20) answer the same
bytes as the ORM's lean path, in the same number of statements, for every role, page and
game, over varied data; filtered lists stay the ORM's."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIRequestFactory

from games.api import deal_pages, read_cache
from games.api.deal_views import GameDealsView
from games.api.views import DealViewSet
from games.models import Deal, Game
from games.submission import deal_submit
from tests.factories import make_club, make_event, make_game, make_organiser

from .conftest import game_deals
from .test_lean_lists import _answer as lean_answer
from .test_lean_lists import _headers as lean_headers

ROLES = [
    "anonymous",
    "organiser",
    "other_organiser",
    "member",
    "table_key",
    "other_table_key",
    "superuser",
]
PAGES = [
    "",
    "?page_size=1",
    "?page_size=3&page=2",
    "?page_size=2&page=last",
    "?page=2",
    "?page_size=200",
    "?page=99",
    "?page=1&page=2",
    "?page=0",
    "?page_size=500",
]


def _headers(world, role: str) -> dict[str, str]:
    if role == "other_table_key":
        return {"HTTP_X_TABLE_KEY": world.other_table.key}
    return lean_headers(world, role)


def _answer(view, path: str, headers: dict, **kwargs) -> tuple[int, bytes, int]:
    read_cache.forget()  # each answer read afresh, not the other path's cached page
    return lean_answer(view, path, headers, **kwargs)


@pytest.fixture
def many(world):
    """The world, and more: games of a random number of deals (none to a whole game) in
    the published evening, the private one and another club's unpublished evening, a
    pending deal, a deal without a dealer in its data, and a superuser."""
    rng = random.Random(2026)
    rival = make_club("Circolo Tre")
    make_organiser(rival, "third")
    closed = make_event(rival, name="Closed evening", published=False)
    events = [world.game.table.round.event, world.hidden_game.table.round.event, closed]
    for seed in range(3, 9):
        game = make_game(rival if seed % 3 == 2 else world.club, event=events[seed % 3])
        for deal in game_deals(seed)[: rng.choice([0, 1, 5, 28])]:
            deal_submit(game_id=game.pk, deal=deal)
    pending = Deal.objects.order_by("-id").first()
    pending.status = Deal.Status.PENDING
    pending.save()
    odd = Deal.objects.order_by("id").last()
    odd.data = {k: v for k, v in odd.data.items() if k != "dealer"}
    odd.save()
    admin = get_user_model().objects.create_superuser("root", password="x")
    world.tokens["superuser"] = Token.objects.create(user=admin).key
    return world


@pytest.mark.parametrize("prepared", [True, False])
@pytest.mark.parametrize("role", ROLES)
def test_the_deal_list_answers_the_orm_s_bytes(many, role, prepared, settings):
    settings.TAVOLO_DEAL_SQL_PREPARED = prepared
    sql = DealViewSet.as_view({"get": "list"})
    orm = DealViewSet.as_view({"get": "list"}, sql=False)
    rows = 0
    for query in PAGES:
        path = f"/api/v1/deals/{query}"
        got = _answer(sql, path, _headers(many, role))
        assert got == _answer(orm, path, _headers(many, role)), path
        rows += got[1].count(b'"id":') if got[0] == 200 else 0
    assert rows > 0


@pytest.mark.parametrize("prepared", [True, False])
@pytest.mark.parametrize("role", ROLES)
def test_a_game_s_deals_answer_the_orm_s_bytes(many, role, prepared, settings):
    settings.TAVOLO_DEAL_SQL_PREPARED = prepared
    sql = GameDealsView.as_view()
    orm = GameDealsView.as_view(sql=False)
    statuses = set()
    for game in Game.objects.order_by("id"):
        for query in PAGES:
            path = f"/api/v1/games/{game.pk}/deals/{query}"
            got = _answer(sql, path, _headers(many, role), pk=game.pk)
            assert got == _answer(orm, path, _headers(many, role), pk=game.pk), path
            statuses.add(got[0])
    assert statuses >= {200, 400, 404}
    missing = 10**9
    path = f"/api/v1/games/{missing}/deals/"
    got = _answer(sql, path, _headers(many, role), pk=missing)
    assert got == _answer(orm, path, _headers(many, role), pk=missing)
    assert got[0] == 404


def test_the_rows_are_the_orm_s_without_pagination(many):
    for role in ROLES:
        headers = _headers(many, role)
        sql = DealViewSet.as_view({"get": "list"}, pagination_class=None)
        orm = DealViewSet.as_view({"get": "list"}, sql=False, pagination_class=None)
        got = _answer(sql, "/api/v1/deals/", headers)
        assert got == _answer(orm, "/api/v1/deals/", headers)
        assert got[0] == 200 and got[1].startswith(b"[")


def test_filtered_lists_are_read_by_the_orm(many, monkeypatch):
    """A filter in the query string: django-filter's rows and errors, not DealRows."""
    built = []
    monkeypatch.setattr(deal_pages.DealRows, "__init__", lambda *a, **k: built.append(a))
    client = many.client("organiser")
    assert client.get(f"/api/v1/deals/?game={many.game.pk}").json()["count"] == 2
    assert client.get("/api/v1/deals/?status=nonsense").status_code == 400
    assert client.get("/api/v1/deals/?nonsense=1").status_code == 400
    assert built == []


def test_the_sql_sees_what_publicreadable_sees(many):
    """The deals of DealRows for each role are PublicReadable.filter's, none twice."""
    from rest_framework.request import Request

    from games.api.authentication import TokenAuthentication
    from games.api.permissions import TableKeyAuthentication
    from games.api.views import visible_deals

    for role in ROLES:
        request = Request(
            APIRequestFactory().get("/", **_headers(many, role)),
            authenticators=[TokenAuthentication(), TableKeyAuthentication()],
        )
        rows = list(deal_pages.DealRows(request))
        expected = list(visible_deals(request).order_by("game_id", "number").values_list("pk"))
        assert [r[0] for r in rows] == [pk for (pk,) in expected], role
        assert len(rows) == len({r[0] for r in rows})
        assert deal_pages.DealRows(request).count() == len(expected)


def test_page_statements_do_not_grow_with_the_deals(world):
    """The page, its count and the visibility in one statement (after the token's),
    however many deals and games there are."""
    client = world.client("organiser")
    paths = [
        "/api/v1/deals/?page_size=200",
        "/api/v1/deals/?page_size=2&page=2",
        f"/api/v1/games/{world.game.pk}/deals/?page_size=200",
    ]

    def statements() -> list[int]:
        counts = []
        for path in paths:
            read_cache.forget()
            with CaptureQueriesContext(connection) as queries:
                assert client.get(path).status_code == 200, path
            counts.append(len(queries))
        return counts

    few = statements()
    assert few == [2, 2, 2]
    event = world.game.table.round.event
    for deal in world.deals[2:20]:
        deal_submit(game_id=world.game.pk, deal=deal)
    for seed in range(4, 8):
        game = make_game(world.club, event=event)
        for deal in game_deals(seed)[:6]:
            deal_submit(game_id=game.pk, deal=deal)
    assert Deal.objects.count() > 40
    assert statements() == few


def test_without_time_zones_the_rows_are_the_orm_s(many, settings):
    """USE_TZ off (the site sets it on): datetimes as the ORM reads them, naive."""
    settings.USE_TZ = False
    sql = DealViewSet.as_view({"get": "list"})
    orm = DealViewSet.as_view({"get": "list"}, sql=False)
    for query in ("", "?page_size=3&page=2"):
        path = f"/api/v1/deals/{query}"
        got = _answer(sql, path, _headers(many, "organiser"))
        assert got == _answer(orm, path, _headers(many, "organiser")), path
        assert got[0] == 200 and b'"created_at":"' in got[1]
