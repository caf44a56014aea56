"""The OpenAPI schema is valid and honest: schemathesis finds no 5xx and no answer that
disagrees with it, called with an organiser's token and with a table's key of each game
(bounded, derandomised: a CI run, not a fuzzing campaign)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.validation import validate_schema
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from clubs.models import Club, League, Player
from games.models import Deal, Event, Game, Round, Table
from tests.games.api.world import Side, barbu_side, burraco_side

pytestmark = pytest.mark.django_db

# schemathesis's lazy pytest integration (from_fixture + parametrize) breaks on pytest 9
# (it reads Function._nodeid); one test drives each operation's strategy instead.
# 12 examples an operation and mode: at 25 each caller took half a minute of the suite.
# Derandomised: every run sends the same requests, so what one run found, each run finds.
HYPOTHESIS = hypothesis_settings(
    max_examples=12,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


# A schema cannot say which deal is legal after the deals already stored (nor which
# password is right): schema-valid requests are refused with the documented 400 listing
# the engine's problems, so "positive data is accepted" does not hold by design.
# negative_data_rejection stays on: unknown query parameters are refused (filters.py).
EXCLUDED = [positive_data_acceptance]


# Who calls: an organiser's token (the Barbu club's), and the key of a table of each game
# (X-Table-Key), each over the whole schema, in a world holding both games.
CALLERS = ["organiser", "barbu_table_key", "burraco_table_key"]
# What the id in a path names, by the path's first segment.
RESOURCES = {
    "clubs": Club,
    "players": Player,
    "leagues": League,
    "events": Event,
    "tournaments": Event,
    "rounds": Round,
    "tables": Table,
    "games": Game,
    "deals": Deal,
}


@dataclass
class World:
    headers: dict[str, dict[str, str]]  # by caller
    own: dict[str, dict[str, int]]  # by caller: the event, table and game it may write to
    ids: dict[str, list[int]]  # by resource: every stored object's id


@pytest.fixture
def api_world(settings) -> Iterator[World]:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "100000/min", "writes": "100000/min"},
    }
    # A real WSGI app closes the database connection after each request; the test's
    # transaction must survive (Django's test client disconnects the same handler).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    barbu, burraco = barbu_side(), burraco_side()

    def own(side: Side) -> dict[str, int]:
        event, table, game = side.event.pk, side.table.pk, side.game.pk
        return {"events": event, "tournaments": event, "tables": table, "games": game}

    yield World(
        headers={
            "organiser": {"Authorization": f"Token {barbu.token}"},
            "barbu_table_key": {"X-Table-Key": barbu.table.key},
            "burraco_table_key": {"X-Table-Key": burraco.table.key},
        },
        own={
            "organiser": own(barbu),
            "barbu_table_key": own(barbu),
            "burraco_table_key": own(burraco),
        },
        ids={
            name: sorted(model.objects.values_list("pk", flat=True))
            for name, model in RESOURCES.items()
        },
    )
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def _path_id(world: World, caller: str, operation) -> st.SearchStrategy[int | None]:
    """The id a valid request puts in its path: None (the generated one, nearly always a
    404), the caller's own object, or any stored object of the kind the path names."""
    resource = operation.path.removeprefix("/api/v1/").split("/")[0]
    choices = [st.none()]
    if resource in world.own[caller]:
        choices.append(st.just(world.own[caller][resource]))
    if world.ids.get(resource):
        choices.append(st.sampled_from(world.ids[resource]))
    return st.one_of(*choices)


def _examples(operation, mode: GenerationMode, headers: dict, path_id) -> None:
    """HYPOTHESIS's examples of one operation in one mode, each called and validated."""

    @HYPOTHESIS
    @given(case=operation.as_strategy(mode), pk=path_id, number=st.integers(1, 3))
    def check(case, pk, number):
        if "X-Table-Key" in headers:
            # A table's phone carries its key and nothing else. schemathesis generates a
            # value for each declared scheme; a junk Authorization of another scheme than
            # "Token" is not a token (DRF leaves it to the next way in, the key), and the
            # key in `headers` answers for the request, while schemathesis takes the junk
            # for the request's credentials and expects a refusal.
            for generated in (case.headers, case.cookies):
                for name in ("Authorization", "sessionid"):
                    (generated or {}).pop(name, None)
        if mode is GenerationMode.POSITIVE and pk is not None:
            if "id" in case.path_parameters:
                case.path_parameters["id"] = pk
            if "number" in case.path_parameters:
                case.path_parameters["number"] = number
        # schemathesis's WSGI transport asks for gzip (requests' default Accept-Encoding)
        # but does not undo it, as an HTTP client does: the answers are read uncompressed
        # (tests/config/test_compression.py covers the gzipped ones).
        plain = {"Accept-Encoding": "identity", **headers}
        case.call_and_validate(headers=plain, excluded_checks=EXCLUDED)

    check()


@pytest.mark.slow  # every endpoint against the schema, a minute or so each caller
@pytest.mark.parametrize("caller", CALLERS)
def test_api_agrees_with_its_schema(api_world, caller):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    failures = {}
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        path_id = _path_id(api_world, caller, operation)
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                _examples(operation, mode, api_world.headers[caller], path_id)
            except Exception as exc:  # every operation is tried; all failures are reported
                failures[f"{operation.label} ({mode.value})"] = exc
    assert operations >= 15
    assert not failures, "\n\n".join(f"{label}: {exc}" for label, exc in failures.items())


def test_schema_is_valid_openapi(client, settings):
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    document = response.json()
    validate_schema(document)
    assert document["components"]["securitySchemes"]["tableKey"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-Table-Key",
        "description": document["components"]["securitySchemes"]["tableKey"]["description"],
    }
    submit = document["paths"]["/api/v1/games/{id}/deals/"]["post"]
    assert {"201", "400", "401", "403", "404", "409", "429"} <= set(submit["responses"])
    examples = submit["requestBody"]["content"]["application/json"]["examples"]
    assert {"Barbu", "Hearts", "Queens", "LastTwo", "NoTricks", "Trumps", "Domino"} <= set(
        examples
    ) or len(examples) == 7
    correct = document["paths"]["/api/v1/games/{id}/deals/{number}/"]["put"]
    assert {"412", "428"} <= set(correct["responses"])


def test_the_schema_states_the_idempotency_key_format():
    from django.test import Client

    schema = Client().get("/api/schema/?format=json").json()
    post = schema["paths"]["/api/v1/games/{id}/deals/"]["post"]
    (param,) = [p for p in post["parameters"] if p["name"] == "Idempotency-Key"]
    assert param["in"] == "header"
    assert param["schema"] == {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": "^[\\x20-\\x7E]{1,200}$",
    }
