"""What the demo tests read back: the rows of every model counted, and a tournament's ranking
as its public page shows it."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from clubs.models import Club, League, Membership, Player
from games.models import (
    BurracoHand,
    BurracoPair,
    Event,
    Game,
    PairTurnResult,
    Round,
    ScoreCard,
    ScoreCardRevision,
)
from scoring.models import PairStanding


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def shown_ranking(event: Event) -> list[tuple[int, int]]:
    """(place, pair number) of each row of the public tournament page, top to bottom."""
    page = Client().get(reverse("scoring:event", args=[event.pk]))
    assert page.status_code == 200
    rows = re.findall(r'id="pair-row-(\d+)"[^>]*><td[^>]*>(\d+)', page.content.decode())
    return [(int(place), int(pair)) for pair, place in rows]


MODELS = (
    Club,
    Player,
    Membership,
    League,
    Event,
    Round,
    Game,
    BurracoPair,
    BurracoHand,
    ScoreCard,
    ScoreCardRevision,
    PairTurnResult,
    PairStanding,
)
