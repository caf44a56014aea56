"""The live part of a Burraco tournament's public page: polled with its ETag like a Barbu
evening's (games/core/live.py), 304 without a database query while nothing changed, a new
answer once a hand, a confirmation, a penalty, a pair's change or the standings change."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.burraco import scorecards, tournaments
from tests.games.burraco.builders import pair, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    """A tournament's first turn seated (a cache of the test's own: tests/scoring/conftest.py)."""
    event = tournament(5)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    return event, rnd.tables.select_related("game").get(number=1).game


def _poll(client, event, etag: str = ""):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(reverse("scoring:event-live", args=[event.pk]), **headers)


def test_an_unchanged_poll_is_304_without_a_query(client, running, django_assert_num_queries):
    event, _game = running
    first = _poll(client, event)
    assert first.status_code == 200 and 'id="pair-ranking"' in first.content.decode()
    etag = first["ETag"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in first.content.decode()
    assert 'hx-trigger="every 1s"' in first.content.decode()
    with django_assert_num_queries(0):
        again = _poll(client, event, etag)
    assert again.status_code == 304 and again.content == b""


def test_the_public_page_hands_the_first_poll_its_etag(client, running):
    event, _game = running
    page = client.get(reverse("scoring:event", args=[event.pk])).content.decode()
    etag = _poll(client, event)["ETag"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in page and "live.js" in page


def test_a_hand_and_its_confirmation_change_the_answer(
    client, running, django_capture_on_commit_callbacks
):
    event, game = running
    before = _poll(client, event)
    assert "not started" in before.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": 300, "EW": 100}}, line="NS")
    after = _poll(client, event, before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert "1 of 3 hands" in after.content.decode()


def test_a_pair_renamed_or_withdrawn_changes_the_answer(
    client, running, django_capture_on_commit_callbacks
):
    event, _game = running
    before = _poll(client, event)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.pair_withdraw(pair=pair(event, 5))
    assert _poll(client, event, before["ETag"]).status_code == 200


def test_a_standings_rebuild_changes_the_answer(
    client, running, monkeypatch, django_capture_on_commit_callbacks
):
    from scoring import tasks
    from scoring.burraco.rebuild import rebuild_pair_standings
    from tests.games.burraco.builders import play_table

    monkeypatch.setattr(tasks, "queue_after_deals", lambda *args, **kwargs: None)
    event, game = running
    with django_capture_on_commit_callbacks(execute=True):
        play_table(game, [(300, 100)] * 3)
    before = _poll(client, event)
    assert "No result yet." in before.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        rebuild_pair_standings(event_id=event.pk)
    after = _poll(client, event, before["ETag"])
    assert after.status_code == 200 and "No result yet." not in after.content.decode()
    # Nothing changed: the same version, a 304.
    with django_capture_on_commit_callbacks(execute=True):
        rebuild_pair_standings(event_id=event.pk)
    assert _poll(client, event, after["ETag"]).status_code == 304
