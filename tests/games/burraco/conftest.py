"""Fixtures of the Burraco score card tests: a tournament seated (helpers: phones.py)."""

from __future__ import annotations

import pytest

from games.burraco import tournaments
from tests.games.burraco.builders import tournament


@pytest.fixture
def seated():
    """A five-pair tournament of four turns of three hands, turn 1 seated: (event, turn,
    table 1)."""
    event = tournament(5)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    return event, rnd, rnd.tables.get(number=1)
