"""Tables with games for the entry-page tests; tests/games/barbu/deal_forms.py posts their deals."""

from __future__ import annotations

import random

import pytest
from django.utils.translation import trans_real

from games.models import Game
from scoring.engine.barbu.randomgame import random_game
from tests.factories import NAMES, make_club, make_game


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues() -> None:
    """Django's cache of the .mo files forgotten (they are compiled once before the run,
    and before any xdist worker starts: tests/conftest.py's pytest_sessionstart)."""
    trans_real._translations = {}
    trans_real._default = None


@pytest.fixture
def club(db):
    # English pages unless a test asks otherwise (a club's default language is Italian).
    return make_club(language="en")


@pytest.fixture
def game(club) -> Game:
    return make_game(club)


@pytest.fixture
def full_game() -> dict:
    """A valid random italian7 game between NAMES, with doubles and redoubles."""
    return random_game(random.Random(7), "italian7", players=list(NAMES))
