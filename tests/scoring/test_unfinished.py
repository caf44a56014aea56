"""Unfinished games never pass for finished ones: wins, marks, provisional exports, closing."""

from __future__ import annotations

import csv
import io
import random

import pytest
from django.urls import reverse

from games.core import closing
from games.models import Event
from scoring import exports
from scoring.models import EventStanding
from tests.factories import make_club, make_event
from tests.scoring.evenings import play, players, seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _commit(monkeypatch):
    """Run what a commit sends (the standings' rebuild) as each change commits."""
    from django.db import transaction

    monkeypatch.setattr(transaction, "on_commit", lambda func, *a, **kw: func())


@pytest.fixture
def evening():
    """Two tables: table 1 complete, table 2 at deal 5 (running)."""
    club = make_club("Circolo", language="en")
    people = players(club, 8)
    event = make_event(club, name="Tuesday", status=Event.Status.RUNNING)
    done = seat(event, people[:4])
    play(done, random.Random(1))
    running = seat(event, people[4:])
    play(running, random.Random(2), 5)
    return event, done, running


def rows(event) -> dict[str, EventStanding]:
    return {
        s.player.name: s for s in EventStanding.objects.filter(event=event).select_related("player")
    }


def test_an_unfinished_game_is_nobodys_win_and_is_marked(evening, client):
    event, done, running = evening
    standing = rows(event)
    for name in running.player_names:
        assert standing[name].details["wins"] == 0, name  # first at a running table: no win
        assert standing[name].details["unfinished"] == 1
    assert sum(standing[name].details["wins"] for name in done.player_names) >= 1
    assert all(standing[name].details["unfinished"] == 0 for name in done.player_names)

    page = client.get(reverse("scoring:event", args=[event.pk])).content.decode()
    assert "Provisional standings: the evening is still being played." in page
    assert "1 not finished" in page  # the running table's players' rows
    assert page.count('class="unfinished"') == 4 + 1  # four rows, one table


def test_wins_count_complete_games_under_placement_too(evening):
    event, done, running = evening
    event.ranking = {"method": "placement"}
    event.save()
    from scoring.rebuild import rebuild_event_standings

    rebuild_event_standings(event_id=event.pk)
    standing = rows(event)
    assert all(standing[name].details["wins"] == 0 for name in running.player_names)
    assert sum(standing[name].details["wins"] for name in done.player_names) >= 1


def _csv(client, event) -> list[list[str]]:
    answer = client.get(reverse("scoring:event-csv", args=[event.pk]))
    return list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))


def _pdf_texts(client, event, monkeypatch) -> list[str]:
    written: list[str] = []
    original = exports._Sheet.text_of

    def spy(self, value):
        text = original(self, value)
        written.append(text)
        return text

    monkeypatch.setattr(exports._Sheet, "text_of", spy)
    answer = client.get(reverse("scoring:event-pdf", args=[event.pk]))
    assert answer.content.startswith(b"%PDF")
    return written


def test_exports_say_provisional_while_running_or_unfinished(evening, client, monkeypatch):
    event, _done, running = evening
    table = _csv(client, event)
    assert table[0][-2:] == ["Games not finished", "Standings"]
    assert {row[-1] for row in table[1:]} == {"provisional"}
    texts = _pdf_texts(client, event, monkeypatch)
    assert "Provisional standings: the evening is still being played." in texts

    # Closed with the unfinished game counting as it stands: still provisional, and says so.
    closing.event_close(event=event, unfinished="count")
    table = _csv(client, event)
    assert {row[-1] for row in table[1:]} == {"provisional"}
    unfinished = {row[1]: row[-2] for row in table[1:]}
    assert all(unfinished[name] == "1" for name in running.player_names)
    texts = _pdf_texts(client, event, monkeypatch)
    assert "Provisional standings: 1 game is not finished and counts as it stands." in texts
    page = client.get(reverse("scoring:event", args=[event.pk])).content.decode()
    assert "1 game is not finished and counts as it stands" in page
    assert len(rows(event)) == 8


def test_closing_can_leave_unfinished_games_out(evening, client):
    event, done, _running = evening
    closing.event_close(event=event, unfinished="exclude")
    standing = rows(event)
    assert set(standing) == set(done.player_names)  # the running table's players: no game
    page = client.get(reverse("scoring:event", args=[event.pk])).content.decode()
    assert "1 game is not finished and does not count" in page
    # Reopened: the game counts again while it is played.
    closing.event_reopen(event=event)
    assert len(rows(event)) == 8


def test_final_when_closed_with_every_game_complete(client):
    club = make_club("Circolo", language="en")
    event = make_event(club, name="Done", status=Event.Status.RUNNING)
    game = seat(event, players(club, 4))
    play(game, random.Random(3))
    closing.event_close(event=event)
    table = _csv(client, event)
    assert {row[-1] for row in table[1:]} == {"final"}
    page = client.get(reverse("scoring:event", args=[event.pk])).content.decode()
    assert "Final standings: every game is complete." in page


def test_the_api_standings_mark_unfinished_games_and_count_no_win_for_them(evening, client):
    event, _done, running = evening
    body = client.get(f"/api/v1/events/{event.pk}/standings/").json()
    rows = {row["player"]: row for row in body["results"]}
    for name in running.player_names:
        assert rows[name]["details"]["unfinished"] == 1
        assert rows[name]["details"]["wins"] == 0
