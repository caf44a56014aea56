"""Every check of docs/rules/burraco.md and every rejection, each with its hand, field, code and
params."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import InvalidGame
from scoring.engine.burraco import score_match, validate_match
from scoring.engine.errors import BURRACO_FIELD_MESSAGES, BURRACO_MESSAGES, field_shape
from scoring.engine.records import score_record, validate_record
from tests.scoring.engine.burraco.changed import INTERNATIONAL, OK_HAND, with_hand, with_value
from tests.scoring.engine.burraco.hand_cases import HAND_CASES
from tests.scoring.engine.burraco.record_cases import RECORD_CASES
from tests.scoring.engine.burraco.records import PAIRS, hand, line, record, scoring

CASES = RECORD_CASES + HAND_CASES


def _found(rec: Any) -> list[tuple[Any, ...]]:
    return [(p.deal, p.field, p.code, p.params) for p in validate_record(rec)]


@pytest.mark.parametrize(("name", "rec", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_rejection(name, rec, expected):
    assert _found(rec) == expected
    with pytest.raises(InvalidGame) as caught:
        score_record(rec)
    assert [(p.deal, p.field, p.code, p.params) for p in caught.value.problems] == expected


def test_every_burraco_code_is_exercised():
    tested = {code for _, _, expected in CASES for _, _, code, _ in expected}
    assert set(BURRACO_MESSAGES) <= tested


def test_every_burraco_field_message_is_exercised():
    tested = set()
    for _, rec, _expected in CASES:
        for problem in validate_record(rec):
            field = problem.params.get("field")
            if isinstance(field, str):
                tested.add((problem.code, field_shape(field)[0]))
    assert set(BURRACO_FIELD_MESSAGES) <= tested


def test_problems_say_hand_in_their_json():
    rec = with_value(["hands", 0, "EW", "penalty"], 12)
    (problem,) = validate_match(rec)
    assert problem.hand == 1
    assert problem.as_dict() == {
        "hand": 1,
        "field": "EW.penalty",
        "code": "points_step",
        "params": {"line": "EW", "item": "penalty", "value": 12},
        "message": (
            "EW: the penalised cards (12) should be a multiple of 5, as every card is worth "
            "5, 10, 15, 20 or 30"
        ),
    }


def test_every_problem_at_once_with_itswith_hand():
    rec = record(
        [
            scoring(100, 0),
            hand("NS", line(12, 0), line(-5, {"jokers": 5})),
            "oops",
            hand(None, line(0, 0, clean=1), line(0, 0, semi=-1)),
        ],
        hands_per_turn=4,
    )
    rec["pairs"]["EW"] = ["Anna", "Dario"]
    assert [(p.deal, p.field, p.code) for p in validate_record(rec)] == [
        (None, "pairs.EW[0]", "duplicate_player"),
        (2, "NS.melded", "points_step"),
        (2, "EW.melded", "invalid_points"),
        (2, "closed", "close_without_pozzetto"),
        (2, "closed", "close_without_burraco"),
        (2, "hand", "card_kind_over_total"),
        (3, "hand", "invalid_type"),
        (4, "EW.semi", "invalid_burraco_count"),
        (4, "NS.melded", "melded_below_burracos"),
    ]


def test_every_message_is_in_words():
    for _, rec, _expected in CASES:
        for problem in validate_record(rec):
            assert problem.message and "{" not in problem.message, problem
            # keys the record uses are said in words where the engine has them
            assert "in_hand should" not in problem.message


def test_a_valid_record_has_no_problem():
    rec = record([OK_HAND, scoring(0, 300)], hands_per_turn=2)
    assert validate_record(rec) == []
    assert score_match(rec)["complete"] is True


def test_defaults_penalty_burracos_pozzetto_and_ruleset():
    rec = record([hand(None, {"melded": 50, "in_hand": 0}, {"melded": 0, "in_hand": 5})])
    del rec["ruleset"]  # fibur, the default preset of docs/rules/burraco.md
    scores = score_match(rec)
    assert scores["ruleset"]["preset"] == "fibur"
    assert scores["hands"][0]["NS"] == {"cards": 50, "bonus": 0, "pozzetto": -100, "score": -50}


def test_semi_zero_is_harmless_without_semi_clean():
    rec = with_hand(hand(None, line(0, 0, semi=0), line(0, 0)), INTERNATIONAL)
    assert validate_record(rec) == []


def test_no_cascade_without_rules():
    rec = with_value(["ruleset"], "bridge")
    rec["hands"].append("not a hand")
    assert [p.code for p in validate_record(rec)] == ["unknown_preset"]


def test_no_match_over_after_an_invalidwith_hand():
    # The totals are unknown after an invalid hand: no guess about the end of the match.
    hands = [scoring(1000, 0), hand(None, line(7, 0), line(0, 0)), scoring(1500, 0)]
    codes = [p.code for p in validate_record(record(hands, hands_per_turn=None))]
    assert codes == ["points_step"]


def test_pairs_are_checked_with_four_distinct_names():
    rec = record([OK_HAND])
    assert rec["pairs"] == PAIRS
    rec["pairs"] = {"NS": ["Anna", "Anna"], "EW": ["Bruno", "Dario"]}
    assert [p.code for p in validate_record(rec)] == ["duplicate_player"]


def test_a_record_without_game_stays_barbu():
    rec = record([OK_HAND])
    del rec["game"]
    codes = {p.code for p in validate_record(rec)}
    assert "missing_field" in codes  # Barbu's: no players, no deals
    assert all(p.as_dict().get("deal", 0) is None for p in validate_record(rec))
