"""URLs of a table's pages, as its phones open them."""

from __future__ import annotations

import random

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.models import Game
from scoring.engine.barbu.randomgame import random_game
from tests.factories import NAMES
from tests.games.barbu.deal_forms import form_data


def entry_url(game: Game, name: str = "table-entry", **kw) -> str:
    """The page's path without a language prefix (whatever a previous request activated)."""
    with translation.override(settings.LANGUAGE_CODE):
        return reverse(name, kwargs={"key": game.table.key, **kw})


HEARTS_DEAL = {
    "dealer": "Anna",
    "contract": "hearts",
    "doubles": [{"by": "Bruno", "against": "Anna", "redoubled": True}],
    "result": {
        "hearts": {
            "Anna": ["AH", "KH", "QH"],
            "Bruno": ["JH", "TH", "9H", "8H"],
            "Carla": ["7H", "6H", "5H"],
            "Dario": ["4H", "3H", "2H"],
        }
    },
}


def post_deal(client, game: Game, deal: dict, number: int):
    return client.post(entry_url(game, "table-deal"), form_data(deal, game.player_names, number))


def anna_without_doubles() -> list[dict]:
    """A valid italian7 game, but nobody doubles Anna in her first five deals (still valid)."""
    deals = random_game(random.Random(7), "italian7", players=list(NAMES))["deals"]
    for deal in deals[:5]:
        deal["doubles"] = []
    return deals
