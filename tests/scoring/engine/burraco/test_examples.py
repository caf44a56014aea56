"""Every example and figure of docs/rules/burraco.md and docs/rules/format.md, as the engine scores
it."""

from __future__ import annotations

import pytest

from scoring.engine.burraco import (
    CARD_VALUES,
    DECK_COUNTS,
    PRESETS,
    card_points,
    ruleset_to_json,
    score_hand,
    score_match,
    vp_of,
)
from scoring.engine.records import score_record
from tests.scoring.engine.burraco.records import FORMAT_HAND, hand, line, record, scoring


def test_format_md_example_scores_exactly():
    scores = score_record(record([FORMAT_HAND], hands_per_turn=3))
    assert scores == {
        "game": "burraco",
        "ruleset": ruleset_to_json(PRESETS["fibur"]),
        "hands": [
            {
                "number": 1,
                "closed": "NS",
                "NS": {"cards": 535, "bonus": 400, "pozzetto": 0, "score": 935},
                "EW": {"cards": 150, "bonus": 0, "pozzetto": -100, "score": 50},
            }
        ],
        "totals": {"NS": 935, "EW": 50},
        "complete": False,
        "result": {"difference": 885, "winner": "NS", "vp": {"NS": 17, "EW": 3}},
    }


def test_format_md_ruleset_json_shape():
    options = ruleset_to_json(PRESETS["fibur"])["options"]
    assert options["vp_tables"]["3"][0] == [50, 10]
    assert options["vp_tables"]["3"][1] == [150, 11]
    assert options["vp_tables"]["3"][-1] == [None, 20]


def test_card_values_and_the_whole_deck():
    # joker 30, two 20, ace 15, K-8 10, 7-3 5; all the cards 1,080 (each deck 480, jokers 120)
    assert CARD_VALUES == {"jokers": 30, "twos": 20, "aces": 15, "high": 10, "low": 5}
    assert card_points(DECK_COUNTS) == 1080
    one_deck = {"twos": 4, "aces": 4, "high": 24, "low": 20}
    assert card_points(one_deck) == 480
    assert card_points({"jokers": 4}) == 120
    assert sum(DECK_COUNTS.values()) == 108


@pytest.mark.parametrize(("kind", "bonus"), [("clean", 200), ("semi", 150), ("dirty", 100)])
def test_burraco_bonuses_count_for_both_pairs(kind, bonus):
    # "I punti per i Burraco vengono assegnati sia alla coppia che ha chiuso che all'altra."
    closer = line(200, 0, clean=1, pozzetto=True)
    other = line(100, 0, pozzetto=True, **{kind: 1})
    scores = score_hand(hand("NS", closer, other))
    assert scores["NS"]["bonus"] == 200 + 100
    assert scores["EW"]["bonus"] == bonus


def test_closing_bonus_and_cards_left_in_hand():
    closer = line(300, 40, clean=1, pozzetto=True)  # the partner still held 40 points
    scores = score_hand(hand("EW", line(100, 65, pozzetto=True), closer))
    assert scores["EW"] == {"cards": 260, "bonus": 300, "pozzetto": 0, "score": 560}
    assert scores["NS"] == {"cards": 35, "bonus": 0, "pozzetto": 0, "score": 35}


def test_penalised_cards_count_against():
    scores = score_hand(hand(None, line(100, 0, penalty=20, pozzetto=True), line(0, 0)))
    assert scores["NS"]["cards"] == 80


def test_pozzetto_not_taken_costs_100_however_the_hand_ended():
    # Decision (docs/rules/burraco.md): close, stock or time-out alike.
    for closed in ("NS", None):
        scores = score_hand(hand(closed, line(100, 0, dirty=1, pozzetto=True), line(30, 10)))
        assert scores["EW"] == {"cards": 20, "bonus": 0, "pozzetto": -100, "score": -80}


def test_no_close_no_closing_bonus():
    scores = score_hand(hand(None, line(300, 0, clean=1, pozzetto=True), line(0, 0)))
    assert scores["NS"]["bonus"] == 200


def test_a_pair_may_go_negative():
    scores = score_match(record([scoring(-100, 50)], hands_per_turn=2))
    assert scores["totals"] == {"NS": -100, "EW": 50}


FIBUR_3 = [
    (0, 50, 10),
    (55, 150, 11),
    (155, 250, 12),
    (255, 350, 13),
    (355, 500, 14),
    (505, 650, 15),
    (655, 800, 16),
    (805, 1000, 17),
    (1005, 1250, 18),
    (1255, 1500, 19),
    (1505, 5000, 20),
]
FIBUR_4 = [
    (0, 100, 10),
    (105, 300, 11),
    (305, 500, 12),
    (505, 700, 13),
    (705, 900, 14),
    (905, 1100, 15),
    (1105, 1300, 16),
    (1305, 1500, 17),
    (1505, 1700, 18),
    (1705, 2000, 19),
    (2005, 5000, 20),
]
FIBUR_2 = [
    (0, 30, 10),
    (35, 100, 11),
    (105, 165, 12),
    (170, 230, 13),
    (235, 330, 14),
    (335, 430, 15),
    (435, 530, 16),
    (535, 665, 17),
    (670, 830, 18),
    (835, 1000, 19),
    (1005, 5000, 20),
]


@pytest.mark.parametrize(("hands", "bands"), [(2, FIBUR_2), (3, FIBUR_3), (4, FIBUR_4)])
@pytest.mark.parametrize("preset", ["fibur", "international"])
def test_vp_tables_of_burraco_md(preset, hands, bands):
    table = PRESETS[preset].vp_tables[hands]
    for low, high, vp in bands:
        for difference in (low, high):
            assert vp_of(table, difference) == vp, (hands, difference)


def test_two_hand_table_is_the_three_hand_one_times_two_thirds():
    # Decision (docs/rules/burraco.md): every bound x 2/3, rounded down to a multiple of 5.
    three = PRESETS["fibur"].vp_tables[3]
    two = PRESETS["fibur"].vp_tables[2]
    expected = [(None if b is None else (b * 2 // 3) // 5 * 5, vp) for b, vp in three]
    assert list(two) == expected


def test_free_preset_has_no_vp_tables():
    assert dict(PRESETS["free"].vp_tables) == {}


def test_bye_band_of_a_three_hand_turn():
    # A bye: 14 VP and the lowest difference of the 14-6 band, +355 for 3 hands.
    table = PRESETS["fibur"].vp_tables[3]
    assert vp_of(table, 355) == 14
    assert vp_of(table, 350) == 13


@pytest.mark.parametrize(
    ("preset", "bonus", "semi", "needs_clean"),
    [
        ("fibur", {"clean": 200, "semi": 150, "dirty": 100, "close": 100}, True, False),
        ("international", {"clean": 200, "dirty": 100, "close": 100}, False, True),
        ("free", {"clean": 200, "semi": 150, "dirty": 100, "close": 100}, True, False),
    ],
)
def test_presets_of_burraco_md(preset, bonus, semi, needs_clean):
    ruleset = PRESETS[preset]
    assert dict(ruleset.bonus) == bonus
    assert ruleset.no_pozzetto == -100
    assert ruleset.semi_clean is semi
    assert ruleset.close_needs_clean is needs_clean
    assert ruleset.target == 2005


def test_turn_result_level_is_ten_each():
    scores = score_match(record([scoring(100, 100)], hands_per_turn=3))
    assert scores["result"] == {"difference": 0, "winner": None, "vp": {"NS": 10, "EW": 10}}


def test_turn_complete_after_its_hands_and_vp_from_its_table():
    hands = [scoring(400, 0), scoring(0, 100), scoring(300, 0)]
    scores = score_match(record(hands, hands_per_turn=3))
    assert scores["complete"] is True
    assert scores["totals"] == {"NS": 700, "EW": 100}
    assert scores["result"] == {"difference": 600, "winner": "NS", "vp": {"NS": 15, "EW": 5}}


def test_the_planned_table_applies_when_time_ran_out():
    # 600 after 2 hands of a planned 4-hand turn: the 4-hand table (505-700: 13-7).
    scores = score_match(record([scoring(0, 400), scoring(0, 200)], hands_per_turn=4))
    assert scores["complete"] is False
    assert scores["result"] == {"difference": 600, "winner": "EW", "vp": {"NS": 7, "EW": 13}}


def test_free_match_to_2005():
    hands = [scoring(1000, 200), scoring(1000, 300)]
    scores = score_match(record(hands[:1], hands_per_turn=None))
    assert (scores["complete"], scores["result"]) == (False, None)
    scores = score_match(record(hands, hands_per_turn=None))
    assert scores["totals"] == {"NS": 2000, "EW": 500}
    assert (scores["complete"], scores["result"]) == (False, None)
    scores = score_match(record([*hands, scoring(5, 0)], hands_per_turn=None))
    assert (scores["complete"], scores["result"]) == (True, {"winner": "NS"})


def test_free_match_both_past_the_target_the_higher_wins():
    hands = [scoring(1000, 1000), scoring(1000, 1000), scoring(5, 10)]
    scores = score_match(record(hands, hands_per_turn=None))
    assert scores["totals"] == {"NS": 2005, "EW": 2010}
    assert scores["result"] == {"winner": "EW"}


def test_free_match_level_past_the_target_plays_on():
    # Decision (docs/rules/burraco.md): level totals past the target: another hand.
    hands = [scoring(1000, 1000), scoring(1010, 1010)]
    scores = score_match(record(hands, hands_per_turn=None))
    assert (scores["complete"], scores["result"]) == (False, None)
    scores = score_match(record([*hands, scoring(0, 5)], hands_per_turn=None))
    assert scores["result"] == {"winner": "EW"}


@pytest.mark.parametrize("target", [1005, 1505])
def test_free_match_club_targets(target):
    ruleset = {"preset": "free", "options": {"target": target}}
    hands = [scoring(target - 5, 0)]
    assert score_match(record(hands, None, ruleset))["complete"] is False
    hands.append(scoring(5, 0))
    assert score_match(record(hands, None, ruleset))["result"] == {"winner": "NS"}


def test_extra_burraco_kinds_of_other_federations():
    ruleset = {"preset": "fibur", "options": {"bonus": {"reale": 300, "super": 250}}}
    scores = score_hand(
        hand("NS", line(400, 0, reale=1, pozzetto=True), line(100, 0, super=1)), ruleset
    )
    assert scores["NS"]["bonus"] == 400
    assert scores["EW"]["bonus"] == 250
