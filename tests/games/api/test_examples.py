"""The answers shown in the schema are the answers the API gives (games/api/examples.py)."""

from __future__ import annotations

import json
import re

import pytest

from games.api import examples
from games.api.schema import DEAL_EXAMPLES
from tests.factories import make_game


@pytest.fixture
def game(world):
    return make_game(world.club, names=examples.NAMES, event=world.game.table.round.event)


def _url(game) -> str:
    return f"/api/v1/games/{game.pk}/deals/"


def stored_rows(world, game) -> None:
    answer = world.client("organiser").post(
        _url(game), {**examples.FIRST_DEAL, "number": 1}, format="json"
    )
    assert answer.status_code == 201, answer.json()


def test_the_barbu_request_example_is_the_first_deal_of_the_answers():
    assert DEAL_EXAMPLES[0].value == {**examples.FIRST_DEAL, "number": 1}


def test_stored_answer(world, game):
    answer = world.client("organiser").post(
        _url(game), {**examples.FIRST_DEAL, "number": 1}, format="json"
    )
    assert answer.status_code == 201
    assert answer.json() == {**examples.STORED_ANSWER, "game": game.pk}


def test_refused_deal(world, game):
    stored_rows(world, game)
    answer = world.client("organiser").post(_url(game), examples.MISCOUNTED_DEAL, format="json")
    assert (answer.status_code, answer.json()) == (400, examples.ERROR_ANSWERS[400])


def test_conflict(world, game):
    stored_rows(world, game)
    answer = world.client("organiser").post(
        _url(game), {**DEAL_EXAMPLES[1].value, "number": 1}, format="json"
    )
    assert (answer.status_code, answer.json()) == (409, examples.ERROR_ANSWERS[409])


def test_stale_correction_and_missing_if_match(world, game):
    stored_rows(world, game)
    organiser = world.client("organiser")
    deal_url = f"{_url(game)}1/"
    changed = {**examples.FIRST_DEAL, "result": {"king_of_hearts": "Dario"}}
    assert organiser.put(deal_url, changed, format="json", HTTP_IF_MATCH='"1"').status_code == 200
    back = organiser.put(deal_url, examples.FIRST_DEAL, format="json", HTTP_IF_MATCH='"2"')
    assert back.status_code == 200 and back.json()["version"] == 3
    # Version 3 holds deal 1 as it first was; a client still holding version 1 is stale.
    stale = organiser.put(deal_url, changed, format="json", HTTP_IF_MATCH='"1"')
    expected = json.loads(json.dumps(examples.ERROR_ANSWERS[412]).replace("version 2", "version 3"))
    expected["stored"]["version"] = 3
    expected["params"]["version"] = 3
    assert (stale.status_code, stale.json()) == (412, expected)
    missing = organiser.put(deal_url, changed, format="json")
    assert (missing.status_code, missing.json()) == (428, examples.ERROR_ANSWERS[428])


def test_who_may_not(world, game):
    anonymous = world.client("anonymous").post(_url(game), examples.FIRST_DEAL, format="json")
    assert (anonymous.status_code, anonymous.json()) == (401, examples.ERROR_ANSWERS[401])
    other_key = world.client("other_table_key").post(_url(game), examples.FIRST_DEAL, format="json")
    assert (other_key.status_code, other_key.json()) == (403, examples.ERROR_ANSWERS[403])
    hidden = world.client("anonymous").get(f"/api/v1/games/{world.hidden_game.pk}/")
    assert (hidden.status_code, hidden.json()) == (404, examples.ERROR_ANSWERS[404])


def test_bodies_refused_before_reading_them(world, game):
    organiser = world.client("organiser")
    huge = organiser.post(_url(game), "x" * (1024 * 1024 + 1), content_type="application/json")
    assert (huge.status_code, huge.json()) == (413, examples.ERROR_ANSWERS[413])
    text = organiser.post(_url(game), "barbu", content_type="text/plain")
    assert (text.status_code, text.json()) == (415, examples.ERROR_ANSWERS[415])


def test_idempotency_key_reused(world, game):
    organiser = world.client("organiser")
    first = organiser.post(
        _url(game), examples.FIRST_DEAL, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert first.status_code == 201
    other = organiser.post(
        _url(game), examples.MISCOUNTED_DEAL, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert (other.status_code, other.json()) == (422, examples.ERROR_ANSWERS[422])


def test_throttled_answer_has_the_documented_shape(world, game, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "100/min", "writes": "1/min"},
    }
    organiser = world.client("organiser")
    organiser.post(_url(game), examples.FIRST_DEAL, format="json")
    answer = organiser.post(_url(game), examples.MISCOUNTED_DEAL, format="json")
    assert answer.status_code == 429
    body = answer.json()
    wait = body["params"]["wait"]
    assert 0 < wait <= 60 and int(answer["Retry-After"]) == wait

    def shape(text: str) -> str:
        return re.sub(r"\d+", "N", text)

    documented = examples.ERROR_ANSWERS[429]
    assert shape(json.dumps(body)) == shape(json.dumps(documented))


def test_every_error_status_of_the_schema_has_an_example(client):
    schema = client.get("/api/schema/?format=json").json()
    post = schema["paths"]["/api/v1/games/{id}/deals/"]["post"]["responses"]
    for status, response in post.items():
        shown = response["content"]["application/json"].get("examples", {})
        assert shown, f"no example for {status}"
        values = [example["value"] for example in shown.values()]
        if status in ("200", "201"):
            assert values == [examples.STORED_ANSWER]
        else:
            assert values == [examples.ERROR_ANSWERS[int(status)]]
