"""A player's Burraco statistics from their hands (scoring/engine/burraco/stats.py, no database)."""

from __future__ import annotations

from decimal import Decimal

from scoring.engine.burraco import stats as bs

KINDS = ("clean", "dirty", "semi")


def test_burracos_are_the_kinds_the_rules_count():
    entry = {"melded": 400, "in_hand": 0, "clean": 1, "dirty": 2, "pozzetto": True, "other": 5}
    assert bs.burracos_of(entry, KINDS) == 3
    assert bs.burracos_of(entry, ("clean", "dirty", "other")) == 8  # a club's own kind


def test_a_hand_entered_as_mp_says_nothing_of_burracos_or_closing():
    hand = bs.played_hand("EW", 120, -40, None, KINDS)
    assert hand == bs.PlayedHand(-40)
    counted = bs.played_hand(
        "NS", 300, 20, {"closed": "NS", "NS": {"clean": 2}, "EW": {"dirty": 1}}, KINDS
    )
    assert counted == bs.PlayedHand(300, burracos=2, closed=True)
    other = bs.played_hand(
        "EW", 300, 20, {"closed": "NS", "NS": {"clean": 2}, "EW": {"dirty": 1}}, KINDS
    )
    assert other == bs.PlayedHand(20, burracos=1, closed=False)


def test_statistics_take_burracos_and_closings_from_counted_hands_only():
    stats = bs.hand_statistics(
        [bs.PlayedHand(100), bs.PlayedHand(200, 2, True), bs.PlayedHand(-30, 1, False)]
    )
    assert stats.hands == 3 and stats.average_mp == 90
    assert stats.counted == 2 and stats.burracos_per_hand == 1.5 and stats.closing_rate == 0.5


def test_without_counted_hands_the_card_figures_are_unknown_not_zero():
    stats = bs.hand_statistics([bs.PlayedHand(100), bs.PlayedHand(50)])
    assert stats.average_mp == 75
    assert stats.counted == 0 and stats.burracos_per_hand is None and stats.closing_rate is None
    empty = bs.hand_statistics([])
    assert empty.hands == 0 and empty.average_mp is None


def test_vp_per_turn():
    assert bs.vp_per_turn([]) == (0, None)
    assert bs.vp_per_turn([Decimal("18"), Decimal("4.5"), Decimal("10")]) == (
        3,
        Decimal("32.5") / 3,
    )
