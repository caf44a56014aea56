"""HTML is gzipped for a client that asks (config/settings.py, GZipMiddleware, issue 35):
the live part of a busy evening shrinks many times, a client that does not ask gets it
plain, and an unchanged poll stays a bodiless 304."""

from __future__ import annotations

import gzip

import pytest
from django.urls import reverse

from games.barbu.submission import deal_submit
from games.models import Event
from scoring import rebuild
from tests.factories import make_club, make_event, make_game

pytestmark = pytest.mark.django_db

DEAL = {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Dario"}}


@pytest.fixture
def busy_evening(eager_tasks) -> Event:
    club = make_club("Bench", language="en")
    event = make_event(club, status=Event.Status.RUNNING)
    for table in range(12):
        names = tuple(f"Player {table:02d}{seat}" for seat in "ABCD")
        game = make_game(club, event=event, names=names)
        deal = {**DEAL, "dealer": names[0], "result": {"king_of_hearts": names[3]}}
        deal_submit(game_id=game.pk, deal=deal, by_label="test")
    rebuild.rebuild_event_standings(event_id=event.pk)
    return event


def test_the_live_part_is_gzipped_for_a_client_that_asks(client, busy_evening) -> None:
    url = reverse("scoring:event-live", args=[busy_evening.pk])
    plain = client.get(url)
    zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert plain.status_code == zipped.status_code == 200
    assert not plain.has_header("Content-Encoding")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert gzip.decompress(zipped.content) == plain.content  # the same page
    # The bytes on the wire, before and after (48 players, 12 tables): several times fewer.
    assert len(plain.content) > 20_000
    assert len(zipped.content) * 4 < len(plain.content)


def test_an_unchanged_poll_stays_a_bodiless_304(client, busy_evening) -> None:
    url = reverse("scoring:event-live", args=[busy_evening.pk])
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    # GZipMiddleware weakens a strong ETag (the body changed); the phone sends it back.
    tag = first["ETag"]
    assert tag.startswith('W/"')
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    assert again.content == b"" and not again.has_header("Content-Encoding")
    # live.js sends the page's data-etag (the strong tag): a 304 too.
    strong = tag.removeprefix("W/")
    revalidated = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=strong)
    assert revalidated.status_code == 304
