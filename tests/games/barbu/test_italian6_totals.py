"""Italian 6-deal totals with a three-way tie: thirds of a point survive storage."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from games.barbu.corrections import rename_in_deal
from games.barbu.submission import deal_submit
from games.models import Game, GameScore
from scoring.engine import barbu
from scoring.engine.barbu.randomgame import random_game
from tests.factories import NAMES, make_game

pytestmark = pytest.mark.django_db


def _thirds_game() -> dict:
    """A random italian6 game whose totals are not whole or half points (a three-way tie)."""
    for seed in range(5000):
        record = random_game(random.Random(seed), "italian6")
        totals = barbu.score_game(record)["totals"].values()
        if any(isinstance(v, float) and (v * 2) % 1 for v in totals):
            mapping = dict(zip(record["players"], NAMES, strict=True))
            return {
                **record,
                "players": list(NAMES),
                "deals": [rename_in_deal(d, mapping) for d in record["deals"]],
            }
    raise AssertionError("no italian6 game with a three-way tie among 5000 seeds")


def test_stored_totals_equal_the_engines_to_the_hundredth():
    record = _thirds_game()
    game = make_game(ruleset="italian6")
    for deal in record["deals"]:
        assert deal_submit(game_id=game.pk, deal=deal).status_code == 201
    expected = barbu.score_game(record)["totals"]
    game.refresh_from_db()
    assert game.status == Game.Status.COMPLETE
    stored = {s.player.name: s.total for s in GameScore.objects.filter(game=game)}
    assert stored == {name: Decimal(str(value)) for name, value in expected.items()}
    assert any(value % Decimal("0.5") for value in stored.values())
