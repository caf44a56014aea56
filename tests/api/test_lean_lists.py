"""The long lists read as plain rows (games/api/lean.py, issue 20) answer the same bytes
as the serializer path they replace, in the same number of statements, for every role,
page and filter; and their statements do not grow with the rows."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIRequestFactory

from clubs.models import Membership, Player
from games.api.deal_views import DealDetailView, GameDealsView
from games.api.views import DealViewSet, GameViewSet, PlayerViewSet, RoundViewSet, TableViewSet
from games.models import Deal, EventPlayer, Round, Table
from games.submission import deal_submit
from games.substitutions import substitute
from tests.factories import make_game, make_player

from .conftest import game_deals

LISTS = {
    "deals": DealViewSet,
    "games": GameViewSet,
    "tables": TableViewSet,
    "rounds": RoundViewSet,
    "players": PlayerViewSet,
}
QUERIES = {
    "deals": ["", "?page_size=2", "?page=2&page_size=2", "?game={game}", "?status=confirmed"],
    "games": ["", "?page_size=1&page=2", "?status=in_progress", "?event={event}"],
    "tables": ["", "?page_size=1&page=3", "?event={event}"],
    "rounds": ["", "?event={event}", "?page=2&page_size=1"],
    "players": ["", "?name=a", "?club={club}", "?page=2&page_size=3"],
}


def _headers(world, role: str) -> dict[str, str]:
    if role == "anonymous":
        return {}
    if role == "table_key":
        return {"HTTP_X_TABLE_KEY": world.table.key}
    return {"HTTP_AUTHORIZATION": f"Token {world.tokens[role]}"}


def _answer(view, path: str, headers: dict, **kwargs) -> tuple[int, bytes, int]:
    request = APIRequestFactory().get(path, **headers)
    with CaptureQueriesContext(connection) as queries:
        response = view(request, **kwargs)
        response.render()
    return response.status_code, response.content, len(queries)


@pytest.fixture
def varied(world):
    """More than the world: a table with no game, a round with byes, a substitution, a
    deal without a dealer in its data, players with e-mails."""
    event = world.game.table.round.event
    round_ = world.game.table.round
    Table.objects.create(round=round_, number=7)
    spare = make_player(world.club, "Zeta Bye")
    spare.email = "zeta@example.org"
    spare.save()
    make_player(world.club, "Alpha Bye").save()
    members = Player.objects.filter(memberships__club=world.club)
    round_.byes.add(spare, *members.order_by("-id")[:1])
    third = make_game(world.club, event=event)
    for deal in game_deals(3)[:3]:
        deal_submit(game_id=third.pk, deal=deal)
    newcomer = make_player(world.club, "Newcomer")
    EventPlayer.objects.create(event=event, player=newcomer)
    seat = third.table.seats.get(position=1)
    substitute(rnd=round_, seat_id=seat.pk, player_id=newcomer.pk)
    odd = Deal.objects.filter(game=third).order_by("number").last()
    odd.data = {k: v for k, v in odd.data.items() if k != "dealer"}
    odd.save()
    world.third = third
    admin = get_user_model().objects.create_superuser("root", password="x")
    world.tokens["superuser"] = Token.objects.create(user=admin).key
    for player in members.order_by("id")[:3]:
        player.email = f"{player.pk}@example.org"
        player.save()
    return world


ROLES = ["anonymous", "organiser", "other_organiser", "member", "table_key", "superuser"]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", list(LISTS))
def test_each_list_answers_the_serializer_s_bytes(varied, name, role):
    world = varied
    values = {
        "game": world.game.pk,
        "event": world.game.table.round.event_id,
        "club": world.club.pk,
    }
    lean = LISTS[name].as_view({"get": "list"})
    reference = LISTS[name].as_view({"get": "list"}, lean=False)
    rows = 0
    for query in QUERIES[name]:
        path = f"/api/v1/{name}/{query.format(**values)}"
        got = _answer(lean, path, _headers(world, role))
        assert got == _answer(reference, path, _headers(world, role)), path
        assert got[0] in (200, 404), got  # 404: a page past the end, both ways
        rows += got[1].count(b'"id":') if got[0] == 200 else 0
    assert rows > 0


@pytest.mark.parametrize("role", ["organiser", "table_key", "anonymous"])
def test_a_game_s_deals_answer_the_serializer_s_bytes(varied, role):
    world = varied
    lean = GameDealsView.as_view()
    reference = GameDealsView.as_view(lean=False)
    answers = []
    for game in (world.game, world.other_game, world.third, world.hidden_game):
        for query in ("", "?page_size=1&page=2", "?page=2", "?nonsense=1", "?page=0"):
            path = f"/api/v1/games/{game.pk}/deals/{query}"
            got = _answer(lean, path, _headers(world, role), pk=game.pk)
            expected = _answer(reference, path, _headers(world, role), pk=game.pk)
            assert got[:2] == expected[:2], path
            # A page with deals proves the game visible: one statement less than the
            # game read first; anything else reads the game as well.
            if got[0] == 200 and b'"id":' in got[1]:
                assert got[2] == expected[2] - 1, path
            answers.append(got)
    assert sum(status == 200 and b"dealer" in body for status, body, _ in answers) >= 3
    assert {status for status, _, _ in answers} >= {200, 400, 404}


def test_the_lists_are_the_lean_ones():
    assert all(view.lean for view in (*LISTS.values(), GameDealsView))


@pytest.mark.parametrize("name", list(LISTS))
def test_list_statements_do_not_grow_with_the_rows(world, name):
    client = world.client("organiser")

    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/api/v1/{name}/?page_size=200")
        assert response.status_code == 200
        return len(queries)

    few = statements()
    event = world.game.table.round.event
    for seed in range(4, 10):
        game = make_game(world.club, event=event)
        for deal in game_deals(seed)[:2]:
            deal_submit(game_id=game.pk, deal=deal)
        game.table.round.byes.add(*Player.objects.all()[:2])
    assert Membership.objects.count() > 20
    assert statements() == few


def test_without_pagination_every_row_is_the_serializer_s(varied):
    headers = _headers(varied, "organiser")
    for view in LISTS.values():
        lean = view.as_view({"get": "list"}, pagination_class=None)
        reference = view.as_view({"get": "list"}, lean=False, pagination_class=None)
        got = _answer(lean, "/api/v1/x/", headers)
        assert got == _answer(reference, "/api/v1/x/", headers)
        assert got[0] == 200 and got[1].startswith(b"[{")


DETAILS = {"deals": Deal, "tables": Table, "rounds": Round, "players": Player}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", list(DETAILS))
def test_each_detail_answers_the_serializer_s_bytes(varied, name, role):
    """A row read as list() makes it (LeanList.retrieve): the same bytes and statements
    as the serializer's retrieve; a row the request may not see (or none) is the same
    404, answered by the serializer path (one statement more)."""
    lean = LISTS[name].as_view({"get": "retrieve"})
    reference = LISTS[name].as_view({"get": "retrieve"}, lean=False)
    found = 0
    ids = [*DETAILS[name].objects.values_list("pk", flat=True), 10**9]
    for pk in ids:
        path = f"/api/v1/{name}/{pk}/"
        status, body, statements = _answer(lean, path, _headers(varied, role), pk=str(pk))
        expected = _answer(reference, path, _headers(varied, role), pk=str(pk))
        assert (status, body) == expected[:2], path
        assert statements == expected[2] + (status == 404), path
        found += status == 200
    assert found > 0 or (name == "players" and role == "anonymous")


@pytest.mark.parametrize("role", ROLES)
def test_a_game_s_deal_answers_the_serializer_s_bytes_and_etag(varied, role):
    lean = DealDetailView.as_view()
    reference = DealDetailView.as_view(lean=False)
    found = 0
    for game in (varied.game, varied.other_game, varied.third, varied.hidden_game):
        for number in (1, 2, 3, 99):
            path = f"/api/v1/games/{game.pk}/deals/{number}/"
            answers = []
            for view in (lean, reference):
                request = APIRequestFactory().get(path, **_headers(varied, role))
                with CaptureQueriesContext(connection) as queries:
                    response = view(request, pk=game.pk, number=number)
                    response.render()
                answers.append(
                    (response.status_code, response.content, response.get("ETag"), len(queries))
                )
            got, expected = answers
            assert got[:3] == expected[:3], path
            assert got[3] == expected[3] + (got[0] == 404), path
            found += got[0] == 200
    assert found > 0
