"""The live evening page, a table's second phone and the API's standings of an evening:
conditional polls (games/core/live.py).

A poll with the ETag of what the page shows is answered 304 without any database query
while nothing changed (the API's after one query: who may see the evening); a deal, a
correction, a standings rebuild, a round seated or the evening closed changes the ETag;
the language is part of it; a cached answer never reaches a visitor who may not see the
evening.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from games.barbu.corrections import deal_correct
from games.barbu.submission import deal_submit
from games.core import closing, live
from games.models import Deal, Event
from scoring import rebuild, tasks
from tests.factories import make_club, make_event, make_game, make_organiser, make_player
from tests.scoring.evenings import seat

pytestmark = pytest.mark.django_db

BARBU = {
    "dealer": "Anna",
    "contract": "barbu",
    "doubles": [],
    "result": {"king_of_hearts": "Dario"},
}
BARBU_CARLA = {**BARBU, "result": {"king_of_hearts": "Carla"}}


@pytest.fixture
def no_standings_tasks(monkeypatch):
    """Deals stored without their standings rebuilt: the test rebuilds when it means to."""
    monkeypatch.setattr(tasks, "queue_after_deals", lambda *args, **kwargs: None)


@pytest.fixture
def evening():
    club = make_club("Circolo", language="en")
    event = make_event(club, status=Event.Status.RUNNING)
    game = make_game(club, event=event)
    return club, event, game


def live_url(event: Event, language: str = "en") -> str:
    from django.utils import translation

    with translation.override(language):
        return reverse("scoring:event-live", args=[event.pk])


def poll(client, url: str, etag: str = "", **headers):
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(url, **headers)


def submit(game, deal, capture) -> Deal:
    with capture(execute=True):
        return deal_submit(game_id=game.pk, deal=deal, by_label="test").deal


def test_an_unchanged_poll_is_304_without_a_query(client, evening, django_assert_num_queries):
    _club, event, _game = evening
    first = poll(client, live_url(event))
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"') and 'id="live"' in first.content.decode()
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in first.content.decode()
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    with django_assert_num_queries(0):
        again = poll(client, live_url(event), etag)
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    # A proxy may weaken the tag; a list of tags is a list.
    assert poll(client, live_url(event), f'"x", W/{etag}').status_code == 304


def test_a_logged_in_organiser_polls_without_a_query_too(
    client, evening, django_assert_num_queries
):
    club, event, _game = evening
    make_organiser(club)
    assert client.login(username="organiser", password="tavolo-test")
    etag = poll(client, live_url(event))["ETag"]
    with django_assert_num_queries(0):
        assert poll(client, live_url(event), etag).status_code == 304


def test_the_event_page_hands_the_first_poll_its_etag(client, evening):
    _club, event, _game = evening
    page = client.get(reverse("scoring:event", args=[event.pk])).content.decode()
    etag = poll(client, live_url(event))["ETag"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in page
    assert 'hx-trigger="every 1s"' in page and "live.js" in page


def test_a_deal_changes_the_etag_and_the_answer_shows_it(
    client, evening, no_standings_tasks, django_capture_on_commit_callbacks
):
    _club, event, game = evening
    before = poll(client, live_url(event))
    assert "0/28" in before.content.decode()
    submit(game, BARBU, django_capture_on_commit_callbacks)
    after = poll(client, live_url(event), before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert "1/28" in after.content.decode()


def test_a_correction_changes_the_etag(
    client, evening, no_standings_tasks, django_capture_on_commit_callbacks
):
    club, event, game = evening
    deal = submit(game, BARBU, django_capture_on_commit_callbacks)
    before = poll(client, live_url(event))
    organiser = make_organiser(club)
    with django_capture_on_commit_callbacks(execute=True):
        deal_correct(deal_id=deal.pk, data=BARBU_CARLA, by_user=organiser)
    after = poll(client, live_url(event), before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]


def test_a_standings_rebuild_changes_the_etag_and_one_that_changes_nothing_does_not(
    client, evening, no_standings_tasks, django_capture_on_commit_callbacks
):
    _club, event, game = evening
    submit(game, BARBU, django_capture_on_commit_callbacks)
    before = poll(client, live_url(event))
    assert "Dario" not in before.content.decode().split("<h2>")[0]  # no standings yet
    with django_capture_on_commit_callbacks(execute=True):
        rebuild.rebuild_event_standings(event_id=event.pk)
    after = poll(client, live_url(event), before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert "Dario" in after.content.decode().split("<h2>")[0]  # Dario took the K♥
    with django_capture_on_commit_callbacks(execute=True):
        rebuild.rebuild_event_standings(event_id=event.pk)  # nothing new to write
    assert poll(client, live_url(event), after["ETag"]).status_code == 304


def test_a_round_seated_or_the_evening_closed_changes_the_etag(
    client, evening, django_capture_on_commit_callbacks
):
    club, event, _game = evening
    etag = poll(client, live_url(event))["ETag"]
    with django_capture_on_commit_callbacks(execute=True):  # a second round is seated
        seat(
            event,
            [make_player(club, name) for name in ("Elena", "Fabio", "Gina", "Ivo")],
            round_number=2,
        )
    seated = poll(client, live_url(event), etag)
    assert seated.status_code == 200 and "Elena" in seated.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        closing.event_close(event=Event.objects.get(pk=event.pk), force=True)
    closed = poll(client, live_url(event), seated["ETag"])
    assert closed.status_code == 200 and "hx-get" not in closed.content.decode()


def test_a_page_in_one_language_is_never_a_304_for_another(client):
    club = make_club("Circolo")  # Italian, the default
    event = make_event(club, status=Event.Status.RUNNING)
    make_game(club, event=event)
    italian = poll(client, live_url(event), HTTP_ACCEPT_LANGUAGE="it")
    assert "Tavoli" in italian.content.decode()  # the browser's language: Italian
    # ...and it polls on in Italian, under /it/, with the tag it was given.
    assert f'hx-get="{live_url(event, "it")}"' in italian.content.decode()
    etag = italian["ETag"]
    assert poll(client, live_url(event, "it"), etag, HTTP_ACCEPT_LANGUAGE="en").status_code == 304
    # An English browser is not switched to the club's Italian (it is only offered).
    assert "Tables" in poll(client, live_url(event), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # The visitor chose English (the switcher's cookie): the same tag is not enough.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = poll(client, live_url(event), etag)
    assert english.status_code == 200 and english["ETag"] != etag
    assert "Tables" in english.content.decode()
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]
    german = poll(client, live_url(event, "de"), etag)
    assert german.status_code == 200 and "Tische" in german.content.decode()
    assert "Accept-Language" in english["Vary"] and "Cookie" in english["Vary"]


def test_the_club_changing_its_language_changes_the_etag_not_the_visitors_language(
    client, evening, django_capture_on_commit_callbacks
):
    club, event, _game = evening
    english = poll(client, live_url(event))
    assert "Tables" in english.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        club.language = "it"
        club.save()
    again = poll(client, live_url(event), english["ETag"])
    assert again.status_code == 200 and again["ETag"] != english["ETag"]
    # The club's language is offered on its pages, never forced on an English browser.
    assert "Tables" in again.content.decode()


def test_a_cached_answer_never_reaches_a_visitor_who_may_not_see_it(
    client, evening, django_capture_on_commit_callbacks
):
    club, event, _game = evening
    assert poll(client, live_url(event)).status_code == 200  # cached for every visitor
    with django_capture_on_commit_callbacks(execute=True):
        event.published = False
        event.save()
    assert poll(client, live_url(event)).status_code == 404
    # An organiser sees the unpublished evening; the answer made for them is not kept.
    make_organiser(club)
    organiser = client.__class__()
    assert organiser.login(username="organiser", password="tavolo-test")
    assert poll(organiser, live_url(event)).status_code == 200
    assert poll(client, live_url(event)).status_code == 404


def test_a_change_is_one_render_for_every_viewer(client, evening, django_assert_num_queries):
    _club, event, _game = evening
    first = poll(client, live_url(event))
    other = client.__class__()
    with django_assert_num_queries(0):  # another viewer, no tag yet: from the cache
        answer = poll(other, live_url(event))
    assert answer.status_code == 200 and answer.content == first.content


def closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("backend", ["redis down", "no cache"])
def test_without_the_cache_every_poll_is_answered_in_full(client, settings, backend):
    club = make_club("Circolo", language="en")
    event = make_event(club, status=Event.Status.RUNNING)
    game = make_game(club, event=event)
    own = settings.CACHES  # given back before the teardown clears the cache
    if backend == "redis down":  # clubs/cache.py answers every read as a miss
        location = f"redis://127.0.0.1:{closed_port()}/0"
        settings.CACHES = {
            "default": {
                "BACKEND": "clubs.cache.RedisCache",
                "LOCATION": location,
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            }
        }
    else:
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    first = poll(client, live_url(event))
    assert first.status_code == 200 and not first.has_header("ETag")
    assert 'data-etag=""' in first.content.decode() and "0/28" in first.content.decode()
    assert poll(client, live_url(event), '"anything"').status_code == 200
    state = poll(client, state_url(game), '"anything"')
    settings.CACHES = own
    assert state.status_code == 200 and state.json() == {"stamp": "0.0.0"}


# --- The table's second phone -------------------------------------------------------------


def state_url(game) -> str:
    return reverse("table-state", args=[game.table.key])


def test_the_second_phone_polls_without_a_query_until_a_deal(
    client,
    evening,
    no_standings_tasks,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    _club, _event, game = evening
    page = client.get(reverse("table-entry", args=[game.table.key])).content.decode()
    first = client.get(state_url(game))
    assert first.status_code == 200 and first.json() == {"stamp": "0.0.0"}
    etag = first["ETag"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in page
    with django_assert_num_queries(0):
        assert poll(client, state_url(game), etag).status_code == 304
    submit(game, BARBU, django_capture_on_commit_callbacks)  # from the other phone
    after = poll(client, state_url(game), etag)
    assert after.status_code == 200 and after.json() == {"stamp": "1.1.0"}
    assert after["ETag"] != etag
    with django_assert_num_queries(0):
        assert poll(client, state_url(game), after["ETag"]).status_code == 304


def test_an_unknown_table_key_is_still_a_404(client):
    response = poll(client, reverse("table-state", args=["no-such-key"]), '"x"')
    assert response.status_code == 404


def test_versions_are_random_and_dropped_on_touch():
    first = live.version("event", 1)
    assert first == live.version("event", 1) and len(first) == 32
    live.touch("event", [1, None])
    assert live.version("event", 1) != first
    assert live.etag(None, "x") == "" and live.etag("abc") == '"abc"'


def test_several_kinds_are_dropped_in_one_round_trip(monkeypatch):
    from django.core.cache import caches

    versions = {kind: live.version(kind, 7) for kind in ("event", "status", "game")}
    backend = caches["default"]
    calls = []
    delete_many = backend.delete_many
    monkeypatch.setattr(
        backend, "delete_many", lambda keys: calls.append(keys) or delete_many(keys)
    )
    live.touch(("event", "status"), [7, None])
    assert len(calls) == 1
    assert live.version("event", 7) != versions["event"]
    assert live.version("status", 7) != versions["status"]
    assert live.version("game", 7) == versions["game"]


# --- The API's standings of an evening ------------------------------------------------------


def api_url(event: Event, kind: str = "events") -> str:
    return f"/api/v1/{kind}/{event.pk}/standings/"


def test_the_api_standings_are_304_while_nothing_changed_then_show_the_deal(
    client, evening, django_assert_num_queries, django_capture_on_commit_callbacks
):
    _club, event, game = evening
    submit(game, BARBU, django_capture_on_commit_callbacks)  # rebuilt on commit
    first = poll(client, api_url(event))
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"')
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    assert [r["games"] for r in first.json()["results"]] == [1] * 4
    # One query: whether the visitor may see the evening, and the rankings it is shown by.
    with django_assert_num_queries(1):
        again = poll(client, api_url(event), etag)
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    tricks = {"Anna": 4, "Bruno": 3, "Carla": 3, "Dario": 3}
    second = {
        "dealer": "Anna",
        "contract": "no_tricks",
        "doubles": [],
        "result": {"tricks": tricks},
    }
    submit(game, second, django_capture_on_commit_callbacks)
    after = poll(client, api_url(event), etag)
    assert after.status_code == 200 and after["ETag"] != etag
    assert after.content != first.content
    assert poll(client, api_url(event), after["ETag"]).status_code == 304


def test_the_api_etag_follows_the_page_the_language_the_rendering_and_the_rankings(
    client, evening, django_capture_on_commit_callbacks
):
    from clubs.models import League

    club, event, game = evening
    submit(game, BARBU, django_capture_on_commit_callbacks)
    etag = poll(client, api_url(event))["ETag"]
    for url, headers in (
        (api_url(event) + "?page_size=2", {}),
        (api_url(event), {"HTTP_ACCEPT_LANGUAGE": "de"}),
        (api_url(event), {"HTTP_ACCEPT": "application/json; indent=2"}),
    ):
        other = poll(client, url, etag, **headers)
        assert other.status_code == 200 and other["ETag"] != etag, (url, headers)
    # A league's ranking is saved apart from its evenings: the evening's answer changes.
    league = League.objects.create(club=club, name="L", ranking={"method": "total"})
    with django_capture_on_commit_callbacks(execute=True):
        event.league = league
        event.save()
    etag = poll(client, api_url(event))["ETag"]
    league.ranking = {"method": "average", "min_games": 3}
    league.save()
    changed = poll(client, api_url(event), etag)
    assert changed.status_code == 200 and changed.json()["ranking"]["method"] == "average"


def test_an_api_etag_never_answers_for_an_evening_the_visitor_may_not_see(
    client, evening, django_capture_on_commit_callbacks
):
    club, event, _game = evening
    etag = poll(client, api_url(event))["ETag"]
    Event.objects.filter(pk=event.pk).update(published=False)  # no version dropped
    assert poll(client, api_url(event), etag).status_code == 404
    make_organiser(club)
    organiser = client.__class__()
    assert organiser.login(username="organiser", password="tavolo-test")
    assert poll(organiser, api_url(event), etag).status_code == 304


@pytest.mark.parametrize("kind", ["events", "tournaments"])
def test_a_tournaments_api_ranking_is_304_until_a_card_is_confirmed(
    client, kind, django_capture_on_commit_callbacks
):
    from games.burraco import tournaments
    from tests.games.burraco.builders import play_table, play_turn, tournament

    event = tournament(5)
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(tournaments.turn_seat(event=event, movement="first").round)
    first = poll(client, api_url(event, kind))
    assert first.status_code == 200 and first.json()["count"] == 5
    assert poll(client, api_url(event, kind), first["ETag"]).status_code == 304
    second = tournaments.turn_seat(event=event, movement="mitchell").round
    table = second.tables.order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        play_table(table.game, [(900, 0)] * 3)
    after = poll(client, api_url(event, kind), first["ETag"])
    assert after.status_code == 200 and after.content != first.content
    results = after.json()["results"]
    pair = table.ns_pair.number
    row = next(r for r in results if r["pair"] == pair)
    assert row["turns"] == 2
