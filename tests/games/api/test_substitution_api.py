"""A substitute through the API: the game detail says who played which deals, a deal sent
after the substitution counts for the substitute, the player's history has the note."""

from __future__ import annotations

import pytest

from games.barbu import substitutions
from games.models import Deal, DealScore, EventPlayer, GameScore, Seat
from tests.factories import make_player
from tests.games.api.world import World

pytestmark = pytest.mark.django_db


def substitute(world: World):
    game = world.game
    rnd = game.table.round
    newcomer = make_player(world.club, "Elena Verdi")
    EventPlayer.objects.create(event=rnd.event, player=newcomer)
    seat = Seat.objects.select_related("player").get(table=game.table, position=0)
    substitutions.substitute(rnd=rnd, seat_id=seat.pk, player_id=newcomer.pk, from_deal=3)
    return seat.player, newcomer


def test_the_game_detail_lists_substitutions(world):
    url = f"/api/v1/games/{world.game.pk}/"
    assert world.client("anonymous").get(url).json()["substitutions"] == []
    starter, newcomer = substitute(world)
    body = world.client("anonymous").get(url).json()
    assert [{k: v for k, v in s.items() if k != "at"} for s in body["substitutions"]] == [
        {
            "seat": 0,
            "seat_name": "Anna",
            "from_deal": 3,
            "player_out": {"id": starter.pk, "name": "Anna"},
            "player_in": {"id": newcomer.pk, "name": "Elena Verdi"},
        }
    ]
    # The record still names the seat by its first player: the engine sees the same game.
    assert body["record"]["players"] == list(world.game.player_names)


def test_a_deal_sent_after_a_substitution_counts_for_the_substitute(world):
    starter, newcomer = substitute(world)
    answer = world.client("table_key").post(
        f"/api/v1/games/{world.game.pk}/deals/", {**world.deals[2], "number": 3}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    deal = Deal.objects.get(game=world.game, number=3)
    assert deal.dealer == newcomer  # Anna's seat deals the first seven deals
    players = set(DealScore.objects.filter(deal=deal).values_list("player_id", flat=True))
    assert newcomer.pk in players and starter.pk not in players
    assert DealScore.objects.filter(player=starter).count() == 2
    # Two deals against one: the seat's result stays the starter's.
    assert GameScore.objects.get(game=world.game, seat=0).player == starter

    history = world.client("anonymous").get(f"/api/v1/players/{newcomer.pk}/history/").json()
    (row,) = history["results"]
    assert row["total"] is None and row["place"] is None and row["deals"] == 1
    assert row["note"] == "played deals 3; substitute for Anna from deal 3"
    history = world.client("anonymous").get(f"/api/v1/players/{starter.pk}/history/").json()
    (row,) = history["results"]
    assert row["total"] is not None and row["deals"] == 2
    assert row["note"] == "played deals 1–2; substituted by Elena Verdi from deal 3"


def test_the_schema_documents_substitutions(world):
    schema = world.client("anonymous").get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200
    text = schema.content.decode()
    assert '"substitutions"' in text and "Substitution" in text
