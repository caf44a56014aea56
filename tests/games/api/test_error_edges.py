"""Every API error is the API's JSON (OPTIONS, lone surrogates, unexpected failures,
database connections lost), and the edges of the HTTP contract (If-Match: *, numbers
that overflow, page=0)."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from rest_framework.test import APIClient

from games.models import Deal

pytestmark = pytest.mark.django_db


def _deals_url(world, suffix: str = "") -> str:
    return f"/api/v1/games/{world.game.pk}/deals/{suffix}"


def _is_error_shape(response, status: int) -> dict:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["status"] == status and body["code"] and body["message"]
    assert isinstance(body["errors"], list)
    return body


@pytest.mark.parametrize("role", ["organiser", "table_key", "anonymous"])
def test_options_on_a_deal_answers_json(world, role):
    response = world.client(role).options(_deals_url(world, "1/"))
    assert response.status_code == 200, response.content[:500]
    assert response.json()["name"]


@pytest.mark.parametrize("field", ["contract", "dealer"])
def test_a_lone_surrogate_in_a_deal_is_a_400(world, field):
    deal = {**world.deals[2], field: "\udfff"}
    client = world.client("table_key")
    raw = _json_with_surrogate(deal)
    response = client.post(_deals_url(world), raw, content_type="application/json")
    problem = _is_error_shape(response, 400)
    assert "surrogate" in problem["message"]
    assert Deal.objects.filter(game=world.game).count() == 2


def _json_with_surrogate(deal: dict) -> bytes:
    import json

    return json.dumps(deal).encode("ascii")  # "\udfff" escaped, as a client sends it


def test_a_lone_surrogate_in_a_correction_reason_is_a_400(world):
    deal = {**world.deals[0], "reason": "typo \udfff"}
    response = world.client("organiser").put(
        _deals_url(world, "1/"),
        _json_with_surrogate(deal),
        content_type="application/json",
        HTTP_IF_MATCH='"1"',
    )
    _is_error_shape(response, 400)
    assert Deal.objects.get(game=world.game, number=1).version == 1


def test_a_number_overflowing_to_infinity_is_a_400(world):
    raw = _json_with_surrogate(world.deals[2]).replace(b'"dealer"', b'"number": 1e400, "dealer"')
    response = world.client("table_key").post(
        _deals_url(world), raw, content_type="application/json"
    )
    body = _is_error_shape(response, 400)
    assert "1e400 is too large a number" in body["message"]
    assert Deal.objects.filter(game=world.game).count() == 2


def test_an_unexpected_failure_is_a_json_500(world, monkeypatch):
    from games.api import views

    def broken(game):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "game_detail", broken)
    client = APIClient(raise_request_exception=False)
    body = _is_error_shape(client.get(f"/api/v1/games/{world.game.pk}/"), 500)
    assert body["code"] == "server_error"
    assert "a bug" not in body["message"]


def test_a_lost_database_connection_is_a_json_503(world, monkeypatch):
    from games.api import deals as deal_views

    def lost(*args, **kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(deal_views, "visible_deals", lost)
    client = APIClient(raise_request_exception=False)
    response = client.get(_deals_url(world, "1/"))
    body = _is_error_shape(response, 503)
    assert body["code"] == "unavailable"
    assert int(response["Retry-After"]) > 0


def test_pages_keep_django_s_html_500(rf):
    from games.api.errors import server_error

    request = rf.get("/events/1/")
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


def test_if_match_star_matches_the_current_version(world):
    client = world.client("organiser")
    stored = client.get(_deals_url(world, "1/")).json()["deal"]
    changed = {**stored, "doubles": []}
    assert changed != stored, "the seed's deal 1 must have doubles for this test"
    star = client.put(_deals_url(world, "1/"), changed, format="json", HTTP_IF_MATCH="*")
    assert star.status_code == 200, star.content
    assert star["ETag"] == '"2"'
    listed = client.put(_deals_url(world, "1/"), stored, format="json", HTTP_IF_MATCH='"7", "2"')
    assert listed.status_code == 200 and listed["ETag"] == '"3"'
    weak = client.put(_deals_url(world, "1/"), changed, format="json", HTTP_IF_MATCH='W/"3"')
    assert weak.status_code == 412


@pytest.mark.parametrize("page", ["0", "-1", "x", "1.5"])
def test_a_page_that_is_not_a_positive_whole_number_is_a_400(world, page):
    response = world.client("anonymous").get(f"/api/v1/games/?page={page}")
    body = _is_error_shape(response, 400)
    assert body["errors"][0]["field"] == "page"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_database_connection_terminated_mid_request_is_a_json_503(monkeypatch):
    """The real thing on PostgreSQL: the request's own backend terminated (as by
    pg_terminate_backend from an administrator) half-way through; the next request
    reconnects and answers."""
    from django.db import close_old_connections, connection

    from games.api import deals as deal_views
    from tests.games.api.world import build_world

    world = build_world()
    original = deal_views.visible_deals

    def terminated(request):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return original(request)

    monkeypatch.setattr(deal_views, "visible_deals", terminated)
    client = APIClient(raise_request_exception=False)
    body = _is_error_shape(client.get(_deals_url(world, "1/")), 503)
    assert body["code"] == "unavailable"
    monkeypatch.setattr(deal_views, "visible_deals", original)
    # What Django does at the start of every real request (the test client skips it):
    # the broken connection is closed, and the next query opens a new one.
    close_old_connections()
    assert client.get(_deals_url(world, "1/")).status_code == 200


def test_unknown_fields_in_a_deal_are_refused_not_dropped(world):
    deal = {**world.deals[2], "doubels": [], "note": "x"}
    response = world.client("table_key").post(_deals_url(world), deal, format="json")
    body = _is_error_shape(response, 400)
    assert sorted(e["field"] for e in body["errors"]) == ["doubels", "note"]
    assert Deal.objects.filter(game=world.game).count() == 2
    correction = world.client("organiser").patch(
        _deals_url(world, "1/"), {"resultt": {}}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert _is_error_shape(correction, 400)["errors"][0]["field"] == "resultt"


def test_a_replayed_idempotency_key_answers_the_first_answers_bytes(world):
    client = world.client("table_key")
    first = client.post(
        _deals_url(world), world.deals[2], format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert first.status_code == 201
    again = client.post(
        _deals_url(world), world.deals[2], format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert again.status_code in (200, 201)
    assert again.content == first.content
    assert again["ETag"] == first["ETag"]
    assert Deal.objects.filter(game=world.game).count() == 3


def _chunked(client, url: str, body: bytes, **headers):
    """A body sent with Transfer-Encoding: chunked, as a server hands it on: no
    Content-Length, the de-chunked bytes as wsgi.input."""
    import io

    return client.generic(
        "POST",
        url,
        b"",
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input": io.BytesIO(body)},
        **headers,
    )


def test_a_chunked_body_over_the_size_limit_is_a_413(world, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = world.client("table_key")
    big = _json_with_surrogate({**world.deals[2], "dealer": "A" * 2000})
    body = _is_error_shape(_chunked(client, _deals_url(world), big), 413)
    assert body["code"] == "too_large"
    within = _chunked(client, _deals_url(world), _json_with_surrogate(world.deals[2]))
    assert within.status_code == 201, within.content
    assert Deal.objects.filter(game=world.game).count() == 3
