"""game_state on empty, partial and complete games."""

from __future__ import annotations

import random

import pytest

from scoring.engine import InvalidGame
from scoring.engine.barbu import game_state
from scoring.engine.barbu.randomgame import random_game
from tests.scoring.engine.barbu.records import RESULTS, A, B, C, D, dbl, deal, game


def test_empty_game():
    state = game_state(game([]))
    assert state["complete"] is False
    assert state["deals_played"] == 0
    assert state["deals_total"] == 28
    nxt = state["next"]
    assert nxt["number"] == 1
    assert nxt["dealer"] == A
    assert nxt["contracts_left"] == [
        "barbu",
        "hearts",
        "queens",
        "last_two",
        "no_tricks",
        "trumps",
        "domino",
    ]
    assert {"by": A, "against": B} not in nxt["doubles_allowed"]["barbu"]
    assert len(nxt["doubles_allowed"]["barbu"]) == 9
    assert nxt["doubles_allowed"]["domino"] == [
        {"by": B, "against": A},
        {"by": C, "against": A},
        {"by": D, "against": A},
    ]
    assert nxt["doubles_owed"] == [
        {"by": p, "against": A, "needed": 2, "deals_left": 7} for p in (B, C, D)
    ]
    assert nxt["must_double_now"] == []
    assert "double_shapes" not in nxt


def test_partial_turn_contracts_and_owed_doubles():
    deals = [
        deal("barbu", RESULTS["barbu"], [dbl(B, A), dbl(C, A)]),
        deal("hearts", RESULTS["hearts"], [dbl(B, A)]),
        deal("queens", RESULTS["queens"]),
        deal("last_two", RESULTS["last_two"]),
        deal("no_tricks", RESULTS["no_tricks"]),
    ]
    nxt = game_state(game(deals))["next"]
    assert nxt["number"] == 6
    assert nxt["dealer"] == A
    assert nxt["contracts_left"] == ["trumps", "domino"]
    assert nxt["doubles_owed"] == [
        {"by": C, "against": A, "needed": 1, "deals_left": 2},
        {"by": D, "against": A, "needed": 2, "deals_left": 2},
    ]
    assert nxt["must_double_now"] == [{"by": D, "against": A}]


def test_next_turn_starts_with_the_next_player():
    record = random_game(random.Random(3), "italian6", deals=6)
    nxt = game_state(record)["next"]
    assert nxt["number"] == 7
    assert nxt["dealer"] == B
    assert "trumps" not in nxt["contracts_left"]
    assert len(nxt["contracts_left"]) == 6
    assert game_state(record)["deals_total"] == 24


def test_german_per_deal_rotation_and_shapes():
    record = random_game(random.Random(4), "german", deals=5)
    state = game_state(record)
    nxt = state["next"]
    assert nxt["number"] == 6
    assert nxt["dealer"] == B
    chosen = record["deals"][1]["contract"]
    assert chosen not in nxt["contracts_left"]
    assert len(nxt["contracts_left"]) == 6
    # german: non-dealers may be doubled in positive contracts too
    assert {"by": A, "against": C} in nxt["doubles_allowed"]["domino"]
    shapes = dict((by, s) for by, s in nxt["double_shapes"]["barbu"])
    assert shapes[A] == [[B], [C], [D], [C, D], [B, C, D]]
    assert B not in shapes
    owed = {o["by"]: o for o in nxt["doubles_owed"]}
    for o in owed.values():
        assert o["deals_left"] == 6
        assert o["against"] == B


def test_complete_game():
    state = game_state(random_game(random.Random(5), "french"))
    assert state == {"complete": True, "deals_played": 28, "deals_total": 28, "next": None}


def test_mandatory_off_owes_nothing():
    record = game([], {"preset": "french", "options": {"mandatory_doubles": False}})
    nxt = game_state(record)["next"]
    assert nxt["doubles_owed"] == []
    assert nxt["must_double_now"] == []


def test_invalid_game_raises():
    with pytest.raises(InvalidGame) as caught:
        game_state(game([deal("barbu", RESULTS["barbu"], dealer=B)]))
    assert [p.code for p in caught.value.problems] == ["wrong_dealer"]
