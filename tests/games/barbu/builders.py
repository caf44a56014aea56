"""Barbu games played by the services for a test: the deals of a seeded game stored up to a
number."""

from __future__ import annotations

import random

from games.barbu.corrections import rename_in_deal
from games.barbu.submission import deal_submit
from games.models import (
    Game,
)
from scoring.engine.barbu.randomgame import random_game


def play(game: Game, upto: int, seed: int = 2) -> None:
    """Store the game's deals up to number `upto` (from its next one)."""
    game.refresh_from_db()
    for deal in deals_for(game, seed)[game.deals_count : upto]:
        deal_submit(game_id=game.pk, deal=deal)
    game.refresh_from_db()


def deals_for(game: Game, seed: int = 2) -> list[dict]:
    record = random_game(random.Random(seed), "italian7")
    mapping = dict(zip(record["players"], game.player_names, strict=True))
    return [rename_in_deal(d, mapping) for d in record["deals"]]
