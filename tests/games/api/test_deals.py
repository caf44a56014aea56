"""Deal submission, correction and confirmation through the API, and the game detail."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.barbu.selectors import game_record
from games.models import Deal, DealRevision, Game
from scoring.engine import barbu
from tests.factories import make_game
from tests.games.api.world import build_world, url

pytestmark = pytest.mark.django_db


def test_game_detail_is_record_scores_and_next(world):
    body = world.client("anonymous").get(f"/api/v1/games/{world.game.pk}/").json()
    record = game_record(world.game)
    assert set(body) == {"id", "game", "status", "record", "scores", "next", "substitutions"}
    assert body["substitutions"] == []
    assert body["record"] == record
    assert body["scores"] == barbu.score_game(record)
    assert body["next"] == barbu.game_state(record)["next"]
    assert body["next"]["number"] == 3
    assert body["status"] == "in_progress"


def test_submission_answers_201_with_scores_and_totals(world):
    deal = {**world.deals[2], "number": 3}
    response = world.client("table_key").post(url(world), deal, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 3 and body["status"] == "confirmed"
    assert response["ETag"] == '"1"'
    expected = barbu.score_game({**game_record(world.game)})
    assert body["totals"] == expected["totals"]
    assert body["scores"]["score"] == expected["deals"][2]["score"]
    assert Deal.objects.get(game=world.game, number=3).entered_from == "table 1"


def test_the_entering_seat_is_recorded_numbered_from_one(world):
    # The API's seat 0 is the first seat: people read "seat 1" in the audit trail.
    deal = {**world.deals[2], "number": 3, "seat": 0}
    response = world.client("table_key").post(url(world), deal, format="json")
    assert response.status_code == 201, response.json()
    assert Deal.objects.get(game=world.game, number=3).entered_from == "table 1, seat 1"


def test_same_deal_twice_is_200_other_content_is_409_with_stored(world):
    client = world.client("organiser")
    again = client.post(url(world), {**world.deals[1], "number": 2}, format="json")
    assert again.status_code == 200
    other = {**world.deals[2], "number": 2}
    conflict = client.post(url(world), other, format="json")
    assert conflict.status_code == 409
    body = conflict.json()
    assert body["code"] == "deal_conflict"
    assert body["stored"]["number"] == 2
    assert body["stored"]["deal"] == Deal.objects.get(game=world.game, number=2).data
    assert Deal.objects.filter(game=world.game).count() == 2


def test_idempotency_key_replays_the_first_answer(world):
    client = world.client("table_key")
    deal = world.deals[2]
    first = client.post(url(world), deal, format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    second = client.post(url(world), deal, format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert Deal.objects.filter(game=world.game).count() == 3
    reused = client.post(url(world), world.deals[3], format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    assert reused.status_code == 422
    assert reused.json()["code"] == "idempotency_key_reused"
    assert Deal.objects.filter(game=world.game).count() == 3


@pytest.mark.parametrize("role", ["table_key", "organiser"])
def test_a_retry_gets_the_first_answer_byte_for_byte_keys_sorted(world, role):
    """The record's body comes back from PostgreSQL's jsonb in its own key order: both
    answers are written with every object's keys sorted."""
    import json

    client = world.client(role)
    deal = {**world.deals[2], "number": 3}
    first = client.post(url(world), deal, format="json", HTTP_IDEMPOTENCY_KEY="bytes-1")
    second = client.post(url(world), deal, format="json", HTTP_IDEMPOTENCY_KEY="bytes-1")
    assert (first.status_code, second.status_code) == (201, 201)
    assert first.content == second.content
    assert first["Content-Type"] == second["Content-Type"] == "application/json"

    def sorted_throughout(value) -> bool:
        if isinstance(value, dict):
            return list(value) == sorted(value) and all(map(sorted_throughout, value.values()))
        if isinstance(value, list):
            return all(map(sorted_throughout, value))
        return True

    assert sorted_throughout(json.loads(first.content))
    assert first["ETag"] == second["ETag"] == f'"{first.json()["version"]}"'
    # The browsable API shows the same answer.
    page = client.post(
        url(world), deal, format="json", HTTP_IDEMPOTENCY_KEY="bytes-1", HTTP_ACCEPT="text/html"
    )
    assert page.status_code == 201 and b"&quot;totals&quot;" in page.content


def test_refused_deal_lists_every_problem_with_deal_and_field(world):
    bad = {"dealer": "Anna", "contract": "no_tricks", "result": {"tricks": {"Anna": 12}}}
    response = world.client("organiser").post(url(world), bad, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["status"] == 400 and body["code"] == "deal_rejected"
    assert body["errors"], body
    for problem in body["errors"]:
        assert set(problem) >= {"deal", "field", "code", "params", "message"}
    assert {p["deal"] for p in body["errors"]} == {3}
    assert Deal.objects.filter(game=world.game).count() == 2


def test_confirm_deals_club_stores_table_key_deals_pending_then_confirmed():
    world = build_world(confirm_deals=True)
    client = world.client("table_key")
    body = {**world.deals[2], "seat": 0}
    response = client.post(url(world), body, format="json")
    assert response.status_code == 201
    assert response.json()["status"] == "pending"
    same_seat = client.post(url(world, "3/confirm/"), {"agree": True, "seat": 0}, format="json")
    assert same_seat.status_code == 400
    assert same_seat.json()["code"] == "confirm_same_seat"
    ok = client.post(url(world, "3/confirm/"), {"agree": True, "seat": 2}, format="json")
    assert ok.status_code == 200 and ok.json()["status"] == "confirmed"
    again = client.post(url(world, "3/confirm/"), {"agree": True, "seat": 1}, format="json")
    assert again.status_code == 409
    # an organiser's deal needs no confirmation
    organiser = world.client("organiser")
    assert organiser.post(url(world), world.deals[3], format="json").json()["status"] == "confirmed"


def test_dispute(world):
    Deal.objects.filter(game=world.game, number=2).update(status=Deal.Status.PENDING)
    response = world.client("table_key").post(
        url(world, "2/confirm/"), {"agree": False, "seat": 3}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["status"] == "disputed"
    assert DealRevision.objects.filter(game=world.game, action="disputed").count() == 1


def test_correction_needs_if_match_and_refuses_stale_versions(world):
    client = world.client("organiser")
    deal_url = url(world, "1/")
    read = client.get(deal_url)
    assert read["ETag"] == '"1"'
    stored = read.json()["deal"]
    changed = dict(stored)
    changed["doubles"] = []
    assert changed != stored, "the seed's deal 1 must have doubles for this test"
    missing = client.put(deal_url, changed, format="json")
    assert missing.status_code == 428
    ok = client.put(deal_url, {**changed, "reason": "typo"}, format="json", HTTP_IF_MATCH='"1"')
    assert ok.status_code == 200, ok.json()
    assert ok["ETag"] == '"2"' and ok.json()["version"] == 2
    stale = client.put(deal_url, stored, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 412
    assert stale.json()["stored"]["version"] == 2
    revision = DealRevision.objects.get(game=world.game, action="corrected")
    assert revision.before == stored and revision.reason == "typo"
    world.game.refresh_from_db()
    assert world.game.totals == barbu.score_game(game_record(world.game))["totals"]


def test_patch_merges_top_level_keys(world):
    client = world.client("organiser")
    stored = Deal.objects.get(game=world.game, number=1).data
    detail = f"/api/v1/games/{world.game.pk}/"
    assert client.get(detail).json()["record"]["deals"][0] == stored  # now cached
    response = client.patch(url(world, "1/"), {"doubles": []}, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 200, response.json()
    assert response.json()["deal"] == {**stored, "doubles": []}
    # the game detail shows the correction (its cache key follows the game's version)
    body = client.get(detail).json()
    assert body["record"]["deals"][0] == {**stored, "doubles": []}
    assert body["scores"] == barbu.score_game(game_record(world.game))


def test_correction_that_breaks_a_later_deal_is_refused(world):
    client = world.client("organiser")
    first = Deal.objects.get(game=world.game, number=1).data
    second = Deal.objects.get(game=world.game, number=2).data
    # Deal 1 corrected to deal 2's contract: the same dealer cannot play it twice.
    broken = {**second, "dealer": first["dealer"]}
    assert first["dealer"] == second["dealer"], "the seed must give one dealer to deals 1, 2"
    response = client.put(url(world, "1/"), broken, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 400
    assert any(p["deal"] == 2 for p in response.json()["errors"]), response.json()
    assert Deal.objects.get(game=world.game, number=1).data == first


def test_complete_game_refuses_more_deals_and_has_no_next(world):
    client = world.client("organiser")
    for deal in world.deals[2:]:
        assert client.post(url(world), deal, format="json").status_code == 201
    detail = client.get(f"/api/v1/games/{world.game.pk}/").json()
    assert detail["status"] == "complete" and detail["next"] is None
    more = client.post(url(world), world.deals[0], format="json")
    assert more.status_code == 409
    assert more.json()["code"] == "game_closed"


def test_games_filter_by_event_and_status(world):
    client = world.client("organiser")
    event = world.table.round.event_id
    rows = client.get(f"/api/v1/games/?event={event}").json()["results"]
    assert {r["id"] for r in rows} == {world.game.pk, world.other_game.pk}
    Game.objects.filter(pk=world.other_game.pk).update(status=Game.Status.COMPLETE)
    rows = client.get(f"/api/v1/games/?event={event}&status=complete").json()["results"]
    assert [r["id"] for r in rows] == [world.other_game.pk]
    rows = client.get(f"/api/v1/games/?status=in_progress&event={event}").json()["results"]
    assert [r["id"] for r in rows] == [world.game.pk]
    bad = client.get("/api/v1/games/?status=finished")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "status"
    unknown = client.get("/api/v1/games/?stauts=complete")
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "stauts"


def test_token_endpoint_and_its_throttle(world, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "writes": "1000/min"},
    }
    client = world.client("anonymous")
    good = client.post(
        "/api/v1/auth/token/", {"username": "organiser", "password": "tavolo-test"}, format="json"
    )
    assert good.status_code == 200
    assert good.json()["token"] == world.tokens["organiser"]
    wrong = client.post(
        "/api/v1/auth/token/", {"username": "organiser", "password": "nope"}, format="json"
    )
    assert wrong.status_code == 400 and wrong.json()["message"]
    client.post("/api/v1/auth/token/", {"username": "x", "password": "y"}, format="json")
    throttled = client.post(
        "/api/v1/auth/token/", {"username": "organiser", "password": "tavolo-test"}, format="json"
    )
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "throttled"
    assert int(throttled["Retry-After"]) > 0


@pytest.fixture
def mid_window(monkeypatch):
    """The throttles' clock stopped in the middle of a minute: on Redis the writes
    throttle is a fixed window, and a test crossing its boundary would start afresh."""
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: 1_800_000_030.0)


def test_writes_are_throttled_per_client(world, settings, mid_window):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "100/min", "writes": "2/min"},
    }
    client = world.client("table_key")
    codes = [client.post(url(world), world.deals[2], format="json").status_code for _ in range(3)]
    assert codes[:2] != [429, 429] and codes[2] == 429
    # reads are not counted
    assert client.get(f"/api/v1/games/{world.game.pk}/").status_code == 200


def _count_queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/clubs/",
        "/api/v1/players/",
        "/api/v1/events/",
        "/api/v1/rounds/",
        "/api/v1/tables/",
        "/api/v1/games/",
        "/api/v1/deals/",
    ],
)
def test_lists_make_the_same_queries_for_few_and_many_rows(world, path):
    client = world.client("organiser")
    few = _count_queries(client, path)
    event = world.table.round.event
    for _ in range(4):
        make_game(world.club, event=event)
    Deal.objects.filter(game=world.game).update(status=Deal.Status.CONFIRMED)
    for deal in world.deals[2:6]:
        client.post(url(world), deal, format="json")
    assert _count_queries(client, path) == few


def test_game_detail_queries_do_not_grow_with_deals(world):
    client = world.client("anonymous")
    path = f"/api/v1/games/{world.game.pk}/"
    few = _count_queries(client, path)
    for deal in world.deals[2:20]:
        world.client("organiser").post(url(world), deal, format="json")
    assert _count_queries(client, path) == few <= 2


@pytest.mark.parametrize("with_key", [False, True])
def test_a_submission_makes_a_fixed_number_of_statements(world, with_key):
    """Pinned, and the same for the 3rd deal as for the 10th: a change in the write's
    statements must change this test.

    The token with its user; the game as the client may read it; the clubs the user
    organises (the permission); the test transaction's SAVEPOINT and RELEASE around the
    submission's atomic block (BEGIN and COMMIT in production); the game locked; its
    seats; the stored deals; then the deal, its DealScore rows, the game, its GameScore
    rows and the audit row = 13; with a key, its lookup and its record too = 15.
    """
    client = world.client("organiser")
    counts = []
    for number in range(3, 11):
        headers = {"HTTP_IDEMPOTENCY_KEY": f"k{number}"} if with_key else {}
        with CaptureQueriesContext(connection) as queries:
            deal = {**world.deals[number - 1], "number": number}
            response = client.post(url(world), deal, format="json", **headers)
        assert response.status_code == 201, response.json()
        counts.append(len(queries))
    expected = 15 if with_key else 13
    assert counts == [expected] * len(counts), [q["sql"][:70] for q in queries]


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)  # the submission's own commit, as in production
def test_a_phone_s_deal_drops_the_live_versions_and_queues_the_standings():
    """Once the deal is committed: the game's and the evening's live versions dropped (their
    pollers read again), the evening's standings marked queued."""
    from django.core.cache import cache

    from games.core import live
    from scoring.tasks import dirty_key

    world = build_world()
    event_id = world.table.round.event_id
    scopes = [("game", world.game.pk), ("event", event_id)]
    before = [live.version(kind, ident) for kind, ident in scopes]
    assert all(before)
    cache.delete(dirty_key("event", event_id))
    response = world.client("table_key").post(url(world), world.deals[2], format="json")
    assert response.status_code == 201, response.json()
    assert [cache.get(live._key(kind, ident)) for kind, ident in scopes] == [None, None]
    assert cache.get(dirty_key("event", event_id)) is not None


@pytest.mark.redis  # the fixed window is Redis only
def test_writes_throttle_is_a_fixed_window_counter_on_redis(world, settings, mid_window):
    """On Redis: one counter per client and window; a refusal says when the window ends."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    assert isinstance(caches["default"], RedisCache)
    caches["default"].clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "100/min", "writes": "3/min"},
    }
    organiser, table = world.client("organiser"), world.client("table_key")
    codes = [organiser.post(url(world), {}, format="json").status_code for _ in range(4)]
    assert 429 not in codes[:3] and codes[3] == 429
    refused = organiser.post(url(world), {}, format="json")
    assert refused.status_code == 429
    wait = refused.json()["params"]["wait"]
    assert wait == 30 and int(refused["Retry-After"]) == wait  # the minute's second half
    # another client has a counter of its own
    assert table.post(url(world), world.deals[2], format="json").status_code == 201
    client = caches["default"]._cache.get_client(write=True)
    keys = client.keys(f"{caches['default'].key_prefix}:*throttle_writes_*")  # this worker's
    assert len(keys) == 2 and all(0 < client.ttl(k) <= 61 for k in keys)
