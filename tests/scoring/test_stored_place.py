"""GameScore.above and place, stored with each deal, against the window functions over the
stored totals they replace (RANK() and COUNT() over each game by total, descending):
random games with ties, partial games, after a correction, after a player merge, and the
migration that fills them for existing rows."""

from __future__ import annotations

import importlib
import random
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.db import connection
from django.db.models import Count, F, Window
from django.db.models.functions import Rank

from clubs.services import player_merge
from games.barbu.corrections import deals_correct, rename_in_deal
from games.barbu.submission import deal_submit
from games.core.errors import DealRejected
from games.models import Game, GameScore
from scoring.engine import barbu
from scoring.engine.barbu.randomgame import random_game
from tests.factories import NAMES, make_club, make_event, make_game, make_player

pytestmark = pytest.mark.django_db


def _window_rows() -> dict[int, tuple[int, Decimal]]:
    """Every GameScore row's (above, place) as the window functions give them."""
    over = {"partition_by": [F("game_id")], "order_by": F("total").desc()}
    rows = GameScore.objects.annotate(
        w_rank=Window(Rank(), **over), w_upto=Window(Count("id"), **over)
    ).values_list("id", "w_rank", "w_upto")
    out = {}
    for pk, rank, upto in rows:
        above = rank - 1
        out[pk] = (above, Decimal(above + upto + 1) / 2)  # above + (level + 1) / 2
    return out


def _stored_rows() -> dict[int, tuple[int, Decimal]]:
    return {
        pk: (above, Decimal(place))
        for pk, above, place in GameScore.objects.values_list("id", "above", "place")
    }


def assert_stored_equal_window() -> None:
    stored = _stored_rows()
    assert stored
    assert stored == _window_rows()


def _named(record: dict) -> dict:
    mapping = dict(zip(record["players"], NAMES, strict=True))
    return {
        **record,
        "players": list(NAMES),
        "deals": [rename_in_deal(d, mapping) for d in record["deals"]],
    }


def _tied(record: dict) -> bool:
    totals = list(barbu.score_game(record)["totals"].values())
    return len(set(totals)) < len(totals)


def _records(ruleset: str, seeds: range, ties: int, others: int, **kw) -> list[dict]:
    """Random records, `ties` of them with tied totals and `others` without."""
    with_tie, without = [], []
    for seed in seeds:
        record = random_game(random.Random(seed), ruleset, **kw)
        (with_tie if _tied(record) else without).append(record)
        if len(with_tie) >= ties and len(without) >= others:
            break
    assert len(with_tie) >= ties
    return with_tie[:ties] + without[:others]


def _play(club, event, record: dict) -> Game:
    game = make_game(club, event=event)
    for deal in _named(record)["deals"]:
        assert deal_submit(game_id=game.pk, deal=deal).status_code == 201
    return game


@pytest.mark.parametrize("ruleset", ["italian6", "italian7"])
def test_stored_above_and_place_equal_the_window_functions(ruleset):
    club = make_club(ruleset=ruleset)
    event = make_event(club)
    for record in _records(ruleset, range(3000), ties=3, others=2):
        _play(club, event, record)
    # Games in progress too: their rows are rewritten at each deal.
    for record in _records(ruleset, range(3000, 6000), ties=2, others=1, deals=5):
        _play(club, event, record)
    assert GameScore.objects.filter(above__gt=0).exists()
    assert GameScore.objects.filter(place__in=[Decimal("1.5"), Decimal("2.5")]).exists()
    assert_stored_equal_window()


def test_after_a_correction():
    club = make_club(ruleset="italian6")
    event = make_event(club)
    record = _named(_records("italian6", range(3000), ties=1, others=0)[0])
    game = _play(club, event, record)
    before = _stored_rows()
    # Deal 1 replaced by the deal 1 of other random games (same dealer), until the
    # engine accepts one that changes the totals.
    for seed in range(200):
        other = _named(random_game(random.Random(10_000 + seed), "italian6"))
        deal = other["deals"][0]
        if deal == record["deals"][0] or deal["contract"] != record["deals"][0]["contract"]:
            continue
        try:
            deals_correct(game_id=game.pk, changes={1: deal}, reason="test")
        except DealRejected:
            continue
        if _stored_rows() != before:
            break
    assert _stored_rows() != before
    assert_stored_equal_window()


def test_after_a_player_merge():
    club = make_club(ruleset="italian6")
    event = make_event(club)
    for record in _records("italian6", range(3000), ties=2, others=1):
        _play(club, event, record)
    duplicate = GameScore.objects.order_by("id").first().player
    keep = make_player(club, "Anna Bis")
    before = _stored_rows()
    player_merge(club=club, keep=keep, duplicate=duplicate)
    assert GameScore.objects.filter(player=keep).exists()
    assert _stored_rows() == before
    assert_stored_equal_window()


def test_the_migration_fills_above_and_place_from_the_stored_totals():
    club = make_club(ruleset="italian6")
    event = make_event(club)
    for record in _records("italian6", range(3000), ties=3, others=2):
        _play(club, event, record)
    expected = _stored_rows()
    GameScore.objects.update(above=0, place=Decimal(1))
    migration = importlib.import_module("games.migrations.0004_gamescore_above")
    with connection.cursor() as cursor:  # what RunPython's schema editor offers it
        editor = SimpleNamespace(connection=connection, execute=cursor.execute)
        migration.fill_above(None, editor)
    assert _stored_rows() == expected == _window_rows()


def test_places_come_from_the_totals_as_stored():
    """Totals that differ only past the hundredths are stored level: level places too."""
    from games.barbu.game_scores import seat_places

    totals = {"Anna": 10.004, "Bruno": 10.001, "Carla": 0, "Dario": -20.005}
    places, aboves = seat_places(totals)
    assert places == {"Anna": 1.5, "Bruno": 1.5, "Carla": 3.0, "Dario": 4.0}
    assert aboves == {"Anna": 0, "Bruno": 0, "Carla": 2, "Dario": 3}
