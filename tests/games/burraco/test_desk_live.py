"""The referee desk's turn part, polled every 20 s by htmx with the ETag it was given (as
the public page's live part, games/core/live.py): 304 while nothing changed, with no query
past the organiser's sign-in check, and a new answer once a hand is entered."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games.burraco import scorecards, tournaments
from tests.factories import make_organiser
from tests.games.burraco.builders import tournament

pytestmark = pytest.mark.django_db

# Session, user, club and membership: what the organiser's check reads (clubs.views).
SIGN_IN_QUERIES = 4


@pytest.fixture
def running(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"burraco-desk-{uuid.uuid4().hex}",
        }
    }
    event = tournament(5)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    make_organiser(event.club, "referee")
    client = Client()
    client.login(username="referee", password="tavolo-test")
    return client, event, rnd.tables.select_related("game").get(number=1).game


def _poll(client: Client, event, etag: str = ""):
    headers = {"HTTP_HX_REQUEST": "true"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(reverse("burraco-desk", args=[event.club.slug, event.pk]), **headers)


def test_an_unchanged_desk_poll_is_304(running, django_assert_num_queries) -> None:
    client, event, _game = running
    page = client.get(reverse("burraco-desk", args=[event.club.slug, event.pk]))
    body = page.content.decode()
    assert "live.js" in body and 'hx-trigger="every 20s"' in body
    first = _poll(client, event)
    assert first.status_code == 200 and 'id="desk-turn"' in first.content.decode()
    etag = first["ETag"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in first.content.decode()
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in body
    with django_assert_num_queries(SIGN_IN_QUERIES):
        again = _poll(client, event, etag)
    assert again.status_code == 304 and again.content == b""
    assert "private" in again["Cache-Control"]


def test_a_hand_entered_changes_the_desks_answer(
    running, django_capture_on_commit_callbacks
) -> None:
    client, event, game = running
    before = _poll(client, event)
    with django_capture_on_commit_callbacks(execute=True):
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": 300, "EW": 100}}, line="NS")
    after = _poll(client, event, before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert '<span class="progress badge' in after.content.decode()
    assert ">1/3<" in after.content.decode()


def test_a_full_page_load_is_never_a_304(running) -> None:
    """Only htmx's poll of the turn part is answered 304: the page's other parts (the
    club's players to enter) change without the evening's version."""
    client, event, _game = running
    etag = _poll(client, event)["ETag"]
    page = client.get(
        reverse("burraco-desk", args=[event.club.slug, event.pk]), HTTP_IF_NONE_MATCH=etag
    )
    assert page.status_code == 200
