"""Many phones at once on PostgreSQL: one deal per number, identical idempotent answers."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Deal, DealRevision, IdempotencyRecord
from tests.games.api.world import build_world

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 20


def _post_together(url: str, key: str, body: dict, headers: dict) -> list[tuple[int, dict]]:
    """POST the same body from THREADS threads released at once, each on its own connection."""
    barrier = threading.Barrier(THREADS)
    answers: list[tuple[int, dict]] = []
    lock = threading.Lock()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            client = APIClient()
            client.credentials(HTTP_X_TABLE_KEY=key)
            barrier.wait(timeout=30)
            response = client.post(url, body, format="json", **headers)
            with lock:
                answers.append((response.status_code, response.json()))
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    assert len(answers) == THREADS
    return answers


@pytest.fixture
def api_world(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "1000/min", "writes": "100000/min"},
    }
    return build_world()


def test_twenty_clients_post_the_same_next_deal(api_world):
    world = api_world
    url = f"/api/v1/games/{world.game.pk}/deals/"
    body = {**world.deals[2], "number": 3}
    answers = _post_together(url, world.table.key, body, {})
    codes = Counter(code for code, _ in answers)
    assert codes[201] == 1, codes
    # The others are told the deal is already stored (same content): 200 with it.
    assert codes[200] == THREADS - 1, codes
    assert {a["number"] for _, a in answers} == {3}
    assert Deal.objects.filter(game=world.game).count() == 3
    assert DealRevision.objects.filter(game=world.game, number=3).count() == 1


def test_twenty_clients_post_without_number_one_is_stored(api_world):
    world = api_world
    url = f"/api/v1/games/{world.game.pk}/deals/"
    answers = _post_together(url, world.table.key, world.deals[2], {})
    codes = Counter(code for code, _ in answers)
    assert codes[201] == 1, codes
    # Without a number the others learn it is already stored as deal 3 (409 + stored).
    others = [a for code, a in answers if code != 201]
    assert all(a["code"] in ("deal_conflict", "deal_rejected") for a in others), others
    assert Deal.objects.filter(game=world.game).count() == 3


def test_twenty_clients_share_one_idempotency_key(api_world):
    world = api_world
    url = f"/api/v1/games/{world.game.pk}/deals/"
    answers = _post_together(
        url, world.table.key, world.deals[2], {"HTTP_IDEMPOTENCY_KEY": "one-key"}
    )
    codes = Counter(code for code, _ in answers)
    assert codes == {201: THREADS}, codes
    bodies = [body for _, body in answers]
    assert all(body == bodies[0] for body in bodies)
    assert Deal.objects.filter(game=world.game).count() == 3
    assert IdempotencyRecord.objects.count() == 1
