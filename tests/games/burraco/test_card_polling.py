"""The other phone follows the card (issue 31, item 2): the score card page polls a cheap
state of its card with the version it shows as ETag (games/core/live.py): 304 without a
database query while nothing changed, a new stamp once the other line's hand, a
confirmation, a dispute, the referee's correction, the turn closed or the next one seated
change what the page shows."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games.burraco import scorecards, tournaments
from games.core import closing, live
from tests.games.burraco.builders import play_turn
from tests.games.burraco.phones import phone

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_cache(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"burraco-card-poll-{uuid.uuid4().hex}",
        }
    }


def _attribute(page: str, name: str) -> str:
    found = re.search(rf'id="score-card"[^>]* {name}="([^"]*)"', page)
    assert found, f"no {name} on the score card"
    return html.unescape(found.group(1))


def _poll(client: Client, table, etag: str = ""):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(reverse("burraco-card-state", args=[table.key]), **headers)


def _page(client: Client, table) -> str:
    return client.get(reverse("burraco-card", args=[table.key])).content.decode()


def test_the_page_hands_its_poll_the_url_its_etag_and_its_stamp(seated) -> None:
    _event, _rnd, table = seated
    ew = phone(table, "EW")
    page = _page(ew, table)
    assert _attribute(page, "data-state-url") == reverse("burraco-card-state", args=[table.key])
    state = _poll(ew, table)
    assert state.status_code == 200
    assert _attribute(page, "data-etag") == state["ETag"]
    assert _attribute(page, "data-stamp") == state.json()["stamp"]


def test_an_unchanged_card_is_a_304_without_a_query(seated, django_assert_num_queries) -> None:
    _event, _rnd, table = seated
    ew = phone(table, "EW")
    etag = _poll(ew, table)["ETag"]
    with django_assert_num_queries(0):
        again = _poll(ew, table, etag)
    assert again.status_code == 304 and again.content == b""


def test_the_other_lines_hand_and_the_confirmation_change_the_answer(
    seated, django_capture_on_commit_callbacks
) -> None:
    _event, _rnd, table = seated
    ns, ew = phone(table, "NS"), phone(table, "EW")
    seen = _poll(ew, table)
    url = reverse("burraco-card-hand", args=[table.key])
    for number in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            ns.post(url, {"mode": "mp", "NS-mp": "300", "EW-mp": "100", "number": str(number)})
        now = _poll(ew, table, seen["ETag"])
        assert now.status_code == 200, f"hand {number} unseen"
        assert now.json()["stamp"] != seen.json()["stamp"]
        seen = now
    # The confirm button is on the page the poll leads to.
    assert 'id="confirm-card"' in _page(ew, table)
    with django_capture_on_commit_callbacks(execute=True):
        ew.post(reverse("burraco-card-confirm", args=[table.key]), {"agree": "1"})
    assert _poll(ns, table, seen["ETag"]).status_code == 200


def test_a_dispute_and_the_referees_correction_change_the_answer(
    seated, django_capture_on_commit_callbacks
) -> None:
    _event, _rnd, table = seated
    game = table.game
    for _ in range(3):
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": 300, "EW": 100}}, line="NS")
    seen = _poll(Client(), table)
    with django_capture_on_commit_callbacks(execute=True):
        scorecards.card_confirm(game_id=game.pk, line="EW", agree=False, note="hand 2")
    disputed = _poll(Client(), table, seen["ETag"])
    assert disputed.status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        scorecards.card_correct(
            game_id=game.pk,
            hands=[{"mp": {"NS": 300, "EW": 100}}] * 3,
            reason="hand 2 checked",
            by_user=None,
        )
    corrected = _poll(Client(), table, disputed["ETag"])
    assert corrected.status_code == 200
    assert corrected.json()["stamp"] != disputed.json()["stamp"]


def test_the_next_turn_seated_and_the_tournament_closed_change_the_answer(
    seated, django_capture_on_commit_callbacks
) -> None:
    event, rnd, table = seated
    play_turn(rnd)
    seen = _poll(Client(), table)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.turn_seat(event=event, movement="mitchell")
    seated_now = _poll(Client(), table, seen["ETag"])
    assert seated_now.status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        closing.event_close(event=event, force=True)
    closed = _poll(Client(), table, seated_now["ETag"])
    assert closed.status_code == 200
    assert closed.json()["stamp"] != seated_now.json()["stamp"]


def test_a_wrong_key_is_a_404(client: Client) -> None:
    assert client.get(reverse("burraco-card-state", args=["no-such-key"])).status_code == 404


def test_a_hand_at_another_table_and_the_standings_leave_this_card_a_304(
    seated, eager_tasks, django_capture_on_commit_callbacks, django_assert_num_queries
) -> None:
    """What changes elsewhere in the tournament (another table's hand, the ranking rebuilt
    after it, in-process here) is not on this card: its phone's poll stays a 304 without a
    query (issue 35: at 60 tables every hand anywhere made every card's poll read its card
    again), while the tournament's own pages did change."""
    event, rnd, table = seated
    other = rnd.tables.exclude(pk=table.pk).order_by("number").first()
    ew = phone(table, "EW")
    etag = _poll(ew, table)["ETag"]
    tournament_version = live.version("event", event.pk)
    with django_capture_on_commit_callbacks(execute=True):
        phone(other, "NS").post(
            reverse("burraco-card-hand", args=[other.key]),
            {"mode": "mp", "NS-mp": "300", "EW-mp": "100", "number": "1"},
        )
    assert other.game.hands.filter(number=1).exists()
    assert live.version("event", event.pk) != tournament_version
    with django_assert_num_queries(0):
        again = _poll(ew, table, etag)
    assert again.status_code == 304
