"""The table's calculator: cards counted by kind per line -> the hand's score, or its problems."""

from __future__ import annotations

import pytest

from scoring.engine import InvalidGame
from scoring.engine.burraco import calculate_hand, card_points, score_hand


def test_cards_by_kind_give_the_hand_score():
    ns = {
        "melded": {"jokers": 1, "twos": 2, "aces": 3, "high": 10, "low": 8},  # 255
        "in_hand": {},
        "clean": 1,
        "dirty": 1,
        "pozzetto": True,
    }
    ew = {"melded": {"high": 4, "low": 3}, "in_hand": {"aces": 1, "high": 2}, "pozzetto": False}
    result = calculate_hand("NS", ns, ew)
    assert result.ok and result.problems == []
    assert result.score == {
        "number": 1,
        "closed": "NS",
        "NS": {"cards": 255, "bonus": 400, "pozzetto": 0, "score": 655},
        "EW": {"cards": 55 - 35, "bonus": 0, "pozzetto": -100, "score": -80},
    }


def test_card_points_of_a_count():
    assert card_points({"jokers": 1, "twos": 2, "aces": 3, "high": 10, "low": 8}) == 255
    assert card_points({}) == 0


def test_the_calculator_says_what_is_wrong_without_raising():
    result = calculate_hand(
        "EW",
        {"melded": {"jokers": 3}, "in_hand": {"jokers": 2}},
        {"melded": {"high": 6}, "in_hand": 0, "clean": 1, "pozzetto": True},
    )
    assert not result.ok and result.score is None
    assert [(p.hand, p.field, p.code) for p in result.problems] == [
        (1, "EW.melded", "too_few_melded_cards"),
        (1, "hand", "card_kind_over_total"),
    ]


def test_the_calculator_follows_the_club_rules():
    ruleset = {"preset": "international", "options": {"bonus": {"clean": 300}}}
    line = {"melded": {"high": 7}, "in_hand": {}, "clean": 1, "pozzetto": True}
    result = calculate_hand(None, line, {"melded": {}, "in_hand": {}}, ruleset)
    assert result.score["NS"]["bonus"] == 300
    bad = calculate_hand(None, line, {"melded": {}, "in_hand": {}}, "nope")
    assert [p.code for p in bad.problems] == ["unknown_preset"]


def test_score_hand_raises_with_every_problem():
    with pytest.raises(InvalidGame) as caught:
        score_hand({"closed": "NS", "NS": {"melded": 3}, "EW": {}})
    assert [(p.field, p.code) for p in caught.value.problems] == [
        ("NS.melded", "points_step"),
        ("NS.in_hand", "missing_field"),
        ("EW.melded", "missing_field"),
        ("EW.in_hand", "missing_field"),
        ("closed", "close_without_pozzetto"),
        ("closed", "close_without_burraco"),
    ]
