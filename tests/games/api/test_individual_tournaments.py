"""What `pairs` and `pair` mean in the API of an individual Burraco tournament (issue 18):
each entry is one player, with that player's id in `player_id` (null for a pair), the
keys kept so that pair clients read both kinds; the OpenAPI schema says so and shows an
example of each kind, in the shapes the API answers; the schema builds without a warning
(no two components of one name)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games.api.tournament_examples import INDIVIDUAL_TOURNAMENT, PAIR_TOURNAMENT
from games.burraco import tournaments
from scoring.burraco import api as api_burraco
from scoring.rebuild import rebuild_event_standings
from tests.games.burraco.builders import individual_tournament, play_turn, tournament

pytestmark = pytest.mark.django_db


def played_individual(event):
    rnd = tournaments.turn_seat(event=event, movement="first", seed=2).round
    play_turn(rnd)
    rebuild_event_standings(event_id=event.pk)
    return event


def _keys(value, path: str = "") -> set[str]:
    """Every key path of a JSON value, lists read through their first item."""
    if isinstance(value, dict):
        return {p for k, v in value.items() for p in {f"{path}.{k}"} | _keys(v, f"{path}.{k}")}
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return _keys(value[0], f"{path}[]")
    return set()


def test_an_individual_tournament_gives_each_players_id(eager_tasks) -> None:
    event = played_individual(individual_tournament(9))
    by_number = {e.number: e.player_a_id for e in event.pairs.all()}
    body = APIClient().get(f"/api/v1/tournaments/{event.pk}/").json()
    assert body["individual"] is True
    assert [(p["number"], p["player_id"], len(p["players"])) for p in body["pairs"]] == [
        (n, by_number[n], 1) for n in sorted(by_number)
    ]
    standings = APIClient().get(f"/api/v1/events/{event.pk}/standings/").json()
    assert standings["individual"] is True
    assert {r["pair"]: r["player_id"] for r in standings["results"]} == by_number
    # The player's own endpoint takes that id.
    first = standings["results"][0]
    mine = APIClient().get(f"/api/v1/players/{first['player_id']}/burraco/")
    assert mine.status_code == 200 and mine.json()["player"] == first["players"][0]


def test_a_pair_tournament_keeps_its_answer_with_no_player_id(eager_tasks) -> None:
    event = played_individual(tournament(5))
    body = APIClient().get(f"/api/v1/tournaments/{event.pk}/").json()
    assert body["individual"] is False
    assert all(p["player_id"] is None and len(p["players"]) == 2 for p in body["pairs"])
    assert all(isinstance(t["NS"], int) for t in body["turns"][0]["tables"])
    standings = APIClient().get(f"/api/v1/events/{event.pk}/standings/").json()
    assert all(r["player_id"] is None for r in standings["results"])


def test_the_examples_have_the_shapes_of_the_answers(eager_tasks) -> None:
    solo = played_individual(individual_tournament(9))
    pairs = played_individual(tournament(5, club=solo.club))
    client = APIClient()
    for event, example in ((solo, INDIVIDUAL_TOURNAMENT), (pairs, PAIR_TOURNAMENT)):
        answer = client.get(f"/api/v1/tournaments/{event.pk}/").json()
        assert _keys(answer) == _keys(example)
        assert answer["individual"] is example["individual"]
        table, shown = answer["turns"][0]["tables"][0], example["turns"][0]["tables"][0]
        assert type(table["NS"]) is type(shown["NS"])
    for event, example in ((solo, api_burraco.INDIVIDUAL_EXAMPLE), (pairs, api_burraco.EXAMPLE)):
        answer = client.get(f"/api/v1/events/{event.pk}/standings/").json()
        assert _keys(answer) == _keys(example.value)
        assert answer["individual"] is example.value["individual"]
        assert (answer["results"][0]["player_id"] is None) is (not event.individual)


def test_the_schema_says_what_pairs_and_pair_mean_for_individuals(client) -> None:
    document = client.get("/api/schema/?format=json").json()
    components = document["components"]["schemas"]
    entry = components["BurracoPair"]
    assert "individual tournament" in entry["description"]
    assert entry["properties"]["player_id"]["nullable"] is True
    assert "players entered alone" in components["Tournament"]["description"]
    place = components["PairPlace"]
    assert "player's number" in place["description"] and "player_id" in place["properties"]
    tournament_get = document["paths"]["/api/v1/tournaments/{id}/"]["get"]
    examples = tournament_get["responses"]["200"]["content"]["application/json"]["examples"]
    assert {e["value"]["individual"] for e in examples.values()} == {True, False}
    standings = document["paths"]["/api/v1/events/{id}/standings/"]["get"]
    examples = standings["responses"]["200"]["content"]["application/json"]["examples"]
    assert {e["value"]["individual"] for e in examples.values()} == {True, False}


def test_the_schema_builds_without_warnings(tmp_path) -> None:
    """`spectacular --fail-on-warn`: a duplicate component name, an unknown field type or
    an example that does not fit would fail here."""
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    assert "BurracoPair:" in (tmp_path / "schema.yml").read_text()


def test_a_players_burraco_history_says_which_tournaments_were_individual(
    eager_tasks, client
) -> None:
    """The player's endpoint lists an individual tournament with no partner (null, as the
    schema allows) and `individual: true`; a pair tournament with the partner."""
    solo = played_individual(individual_tournament(9))
    player_id = solo.pairs.get(number=1).player_a_id
    body = APIClient().get(f"/api/v1/players/{player_id}/burraco/").json()
    [row] = body["tournaments"]
    assert row["individual"] is True and row["partner_id"] is None and row["partner"] is None
    assert row["pair"] == 1 and row["pairs"] == 9
    pairs = played_individual(tournament(5, club=solo.club))
    mine = pairs.pairs.get(number=1)
    body = APIClient().get(f"/api/v1/players/{mine.player_a_id}/burraco/").json()
    [row] = body["tournaments"]
    assert row["individual"] is False and row["partner_id"] == mine.player_b_id
    document = client.get("/api/schema/?format=json").json()
    fields = document["components"]["schemas"]["BurracoTournament"]["properties"]
    assert fields["partner_id"]["nullable"] is True and fields["partner"]["nullable"] is True
    assert "individual tournament" in fields["pair"]["description"]
