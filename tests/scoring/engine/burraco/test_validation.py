"""Every check of docs/rules/burraco.md and every rejection, each with its hand, field, code and
params."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring.engine import InvalidGame
from scoring.engine.burraco import score_match, validate_match
from scoring.engine.errors import BURRACO_FIELD_MESSAGES, BURRACO_MESSAGES, field_shape
from scoring.engine.records import score_record, validate_record
from tests.scoring.engine.burraco.records import FORMAT_HAND, PAIRS, hand, line, record, scoring

OK_HAND = FORMAT_HAND


def _with(path: list[Any], value: Any, base: dict[str, Any] | None = None) -> dict[str, Any]:
    """A valid one-hand turn with the value at path replaced (a missing key: value ...)."""
    out = copy.deepcopy(base or record([OK_HAND]))
    target = out
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


def _hand(h: dict[str, Any], ruleset: Any = "fibur") -> dict[str, Any]:
    return record([h], ruleset=ruleset)


INTERNATIONAL = "international"
CASES: list[tuple[str, dict[str, Any], list[tuple[Any, ...]]]] = [
    # the record and its game
    (
        "unknown game",
        _with(["game"], "poker"),
        [(None, "game", "unknown_game", {"game": "poker", "choices": "barbu, burraco"})],
    ),
    (
        "game not a word",
        _with(["game"], 3),
        [(None, "game", "invalid_type", {"field": "game", "expected": "a word"})],
    ),
    (
        "turn of 5 hands",
        _with(["hands_per_turn"], 5),
        [(None, "hands_per_turn", "hands_per_turn_range", {"value": 5})],
    ),
    (
        "turn length as text",
        _with(["hands_per_turn"], "3"),
        [(None, "hands_per_turn", "hands_per_turn_range", {"value": "'3'"})],
    ),
    (
        "turn length true",
        _with(["hands_per_turn"], True),
        [(None, "hands_per_turn", "hands_per_turn_range", {"value": "True"})],
    ),
    (
        "free preset in a turn",
        _with(["ruleset"], "free"),
        [(None, "hands_per_turn", "no_vp_table", {"hands": 3})],
    ),
    (
        "club without 3-hand table",
        _with(["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"3": None}}}),
        [(None, "hands_per_turn", "no_vp_table", {"hands": 3})],
    ),
    (
        "pairs missing",
        _with(["pairs"], ...),
        [(None, "pairs", "missing_field", {"field": "pairs"})],
    ),
    (
        "pairs a list",
        _with(["pairs"], [["Anna", "Carla"], ["Bruno", "Dario"]]),
        [(None, "pairs", "invalid_type", {"field": "pairs", "expected": "an object"})],
    ),
    (
        "a third line",
        _with(["pairs", "NE"], ["Zoe", "Ugo"]),
        [(None, "pairs.NE", "unknown_line", {"line": "NE"})],
    ),
    (
        "pair missing",
        _with(["pairs", "EW"], ...),
        [(None, "pairs.EW", "missing_field", {"field": "pairs.EW"})],
    ),
    (
        "pair not a list",
        _with(["pairs", "NS"], "Anna and Carla"),
        [(None, "pairs.NS", "invalid_type", {"field": "pairs.NS", "expected": "a list"})],
    ),
    (
        "pair of one",
        _with(["pairs", "NS"], ["Anna"]),
        [(None, "pairs.NS", "wrong_pair_size", {"line": "NS", "count": 1})],
    ),
    (
        "name not text",
        _with(["pairs", "EW", 1], 7),
        [(None, "pairs.EW[1]", "invalid_type", {"field": "pairs.EW[1]", "expected": "a name"})],
    ),
    (
        "empty name",
        _with(["pairs", "NS", 1], "  "),
        [(None, "pairs.NS[1]", "empty_pair_name", {"line": "NS", "position": 2})],
    ),
    (
        "player twice",
        _with(["pairs", "EW", 0], "Anna"),
        [(None, "pairs.EW[0]", "duplicate_player", {"name": "Anna"})],
    ),
    (
        "hands missing",
        _with(["hands"], ...),
        [(None, "hands", "missing_field", {"field": "hands"})],
    ),
    (
        "hands not a list",
        _with(["hands"], {"1": OK_HAND}),
        [(None, "hands", "invalid_type", {"field": "hands", "expected": "a list"})],
    ),
    (
        "a hand beyond the turn",
        record([scoring(5, 0)] * 4, hands_per_turn=3),
        [(None, "hands", "too_many_hands", {"count": 4, "limit": 3})],
    ),
    (
        "a hand after the match",
        record([scoring(1000, 0), scoring(1010, 0), scoring(5, 0)], hands_per_turn=None),
        [(3, "hand", "match_over", {"last": 2, "winner": "NS"})],
    ),
    # the rule set
    (
        "ruleset not text",
        _with(["ruleset"], 5),
        [
            (
                None,
                "ruleset",
                "invalid_type",
                {"field": "ruleset", "expected": "a preset name or an object"},
            )
        ],
    ),
    (
        "unknown preset",
        _with(["ruleset"], "italian7"),
        [
            (
                None,
                "ruleset",
                "unknown_preset",
                {"preset": "italian7", "choices": "fibur, international, free"},
            )
        ],
    ),
    (
        "preset missing",
        _with(["ruleset"], {"options": {}}),
        [(None, "ruleset.preset", "missing_field", {"field": "ruleset.preset"})],
    ),
    (
        "options not an object",
        _with(["ruleset"], {"preset": "fibur", "options": [1]}),
        [
            (
                None,
                "ruleset.options",
                "invalid_type",
                {"field": "ruleset.options", "expected": "an object"},
            )
        ],
    ),
    (
        "unknown option",
        _with(["ruleset"], {"preset": "fibur", "options": {"jolly": 1}}),
        [(None, "ruleset.options.jolly", "unknown_option", {"option": "jolly"})],
    ),
    (
        "bonus not a multiple of 5",
        _with(["ruleset"], {"preset": "fibur", "options": {"bonus": {"clean": 202}}}),
        [
            (
                None,
                "ruleset.options.bonus.clean",
                "invalid_option",
                {
                    "option": "bonus.clean",
                    "value": "202",
                    "expected": "it must be a whole multiple of 5, 0 or more",
                },
            )
        ],
    ),
    (
        "bonus kind named like a field",
        _with(["ruleset"], {"preset": "fibur", "options": {"bonus": {"melded": 5}}}),
        [(None, "ruleset.options.bonus.melded", "unknown_option", {"option": "bonus.melded"})],
    ),
    (
        "positive pozzetto",
        _with(["ruleset"], {"preset": "fibur", "options": {"no_pozzetto": 100}}),
        [
            (
                None,
                "ruleset.options.no_pozzetto",
                "invalid_option",
                {
                    "option": "no_pozzetto",
                    "value": "100",
                    "expected": "it must be a whole multiple of 5, 0 or less",
                },
            )
        ],
    ),
    (
        "target 0",
        _with(["ruleset"], {"preset": "free", "options": {"target": 0}}),
        [
            (
                None,
                "ruleset.options.target",
                "invalid_option",
                {"option": "target", "value": "0", "expected": "it must be a whole number above 0"},
            )
        ],
    ),
    (
        "semi_clean as text",
        _with(["ruleset"], {"preset": "fibur", "options": {"semi_clean": "yes"}}),
        [
            (
                None,
                "ruleset.options.semi_clean",
                "invalid_option",
                {"option": "semi_clean", "value": "yes", "expected": "it must be true or false"},
            )
        ],
    ),
    (
        "semi allowed without its bonus",
        _with(["ruleset"], {"preset": "international", "options": {"semi_clean": True}}),
        [(None, "ruleset.options.bonus", "semi_bonus_missing", {})],
    ),
    (
        "vp tables not an object",
        _with(["ruleset"], {"preset": "fibur", "options": {"vp_tables": []}}),
        [
            (
                None,
                "ruleset.options.vp_tables",
                "invalid_type",
                {"field": "ruleset.options.vp_tables", "expected": "an object"},
            )
        ],
    ),
    (
        "vp table for 5 hands",
        _with(["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"5": [[None, 20]]}}}),
        [
            (
                None,
                "ruleset.options.vp_tables.5",
                "invalid_option",
                {
                    "option": "vp_tables.5",
                    "value": "[[None, 20]]",
                    "expected": "turns have 2, 3 or 4 hands",
                },
            )
        ],
    ),
    (
        "vp table empty",
        _with(["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"3": []}}}),
        [
            (
                None,
                "ruleset.options.vp_tables.3",
                "invalid_option",
                {
                    "option": "vp_tables.3",
                    "value": "[]",
                    "expected": "it must list bands [highest difference, VP]",
                },
            )
        ],
    ),
    (
        "vp band not a pair",
        _with(["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"3": [50, [None, 20]]}}}),
        [(None, "ruleset.options.vp_tables.3", "vp_table_band", {"hands": 3, "band": 1})],
    ),
    (
        "vp bound not a multiple of 5",
        _with(
            ["ruleset"],
            {"preset": "fibur", "options": {"vp_tables": {"3": [[52, 10], [None, 20]]}}},
        ),
        [
            (
                None,
                "ruleset.options.vp_tables.3",
                "vp_table_bound",
                {"hands": 3, "band": 1, "bound": 52},
            )
        ],
    ),
    (
        "vp bounds not increasing",
        _with(
            ["ruleset"],
            {"preset": "fibur", "options": {"vp_tables": {"3": [[50, 10], [50, 11], [None, 20]]}}},
        ),
        [
            (
                None,
                "ruleset.options.vp_tables.3",
                "vp_table_order",
                {"hands": 3, "band": 2, "bound": 50, "previous": 50},
            )
        ],
    ),
    (
        "winner's vp above 20",
        _with(["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"2": [[None, 21]]}}}),
        [(None, "ruleset.options.vp_tables.2", "vp_table_vp", {"hands": 2, "band": 1, "vp": 21})],
    ),
    (
        "winner's vp below 10",
        _with(
            ["ruleset"],
            {"preset": "fibur", "options": {"vp_tables": {"4": [[100, 9], [None, 20]]}}},
        ),
        [(None, "ruleset.options.vp_tables.4", "vp_table_vp", {"hands": 4, "band": 1, "vp": 9})],
    ),
    (
        "winner's vp falling",
        _with(
            ["ruleset"],
            {"preset": "fibur", "options": {"vp_tables": {"3": [[100, 12], [None, 11]]}}},
        ),
        [
            (
                None,
                "ruleset.options.vp_tables.3",
                "vp_table_vp_order",
                {"hands": 3, "band": 2, "vp": 11, "previous": 12},
            )
        ],
    ),
    (
        "last band closed",
        _with(
            ["ruleset"],
            {"preset": "fibur", "options": {"vp_tables": {"3": [[50, 10], [1500, 20]]}}},
        ),
        [(None, "ruleset.options.vp_tables.3", "vp_table_last_open", {"hands": 3})],
    ),
    (
        "open band before the last",
        _with(
            ["ruleset"],
            {"preset": "fibur", "options": {"vp_tables": {"3": [[None, 10], [None, 20]]}}},
        ),
        [(None, "ruleset.options.vp_tables.3", "vp_table_open_early", {"hands": 3, "band": 1})],
    ),
    # one hand: its shape
    (
        "hand not an object",
        record(["NS closed"]),
        [(1, "hand", "invalid_type", {"field": "hand 1", "expected": "an object"})],
    ),
    (
        "closed missing",
        _with(["hands", 0, "closed"], ...),
        [(1, "closed", "missing_field", {"field": "closed"})],
    ),
    (
        "closed by north",
        _with(["hands", 0, "closed"], "North"),
        [(1, "closed", "invalid_type", {"field": "closed", "expected": "NS, EW or null"})],
    ),
    (
        "closed a list",
        _with(["hands", 0, "closed"], ["NS"]),
        [(1, "closed", "invalid_type", {"field": "closed", "expected": "NS, EW or null"})],
    ),
    ("line missing", _with(["hands", 0, "EW"], ...), [(1, "EW", "missing_field", {"field": "EW"})]),
    (
        "line not an object",
        _with(["hands", 0, "EW"], 50),
        [(1, "EW", "invalid_type", {"field": "EW", "expected": "an object"})],
    ),
    (
        "melded missing",
        _with(["hands", 0, "EW", "melded"], ...),
        [(1, "EW.melded", "missing_field", {"field": "EW.melded"})],
    ),
    (
        "in hand missing",
        _with(["hands", 0, "NS", "in_hand"], ...),
        [(1, "NS.in_hand", "missing_field", {"field": "NS.in_hand"})],
    ),
    (
        "melded as text",
        _with(["hands", 0, "EW", "melded"], "235"),
        [
            (
                1,
                "EW.melded",
                "invalid_type",
                {"field": "EW.melded", "expected": "card points or cards"},
            )
        ],
    ),
    (
        "in hand a fraction",
        _with(["hands", 0, "EW", "in_hand"], 85.0),
        [
            (
                1,
                "EW.in_hand",
                "invalid_type",
                {"field": "EW.in_hand", "expected": "card points or cards"},
            )
        ],
    ),
    (
        "penalty a list",
        _with(["hands", 0, "EW", "penalty"], [10]),
        [
            (
                1,
                "EW.penalty",
                "invalid_type",
                {"field": "EW.penalty", "expected": "card points or cards"},
            )
        ],
    ),
    (
        "pozzetto as text",
        _with(["hands", 0, "NS", "pozzetto"], "yes"),
        [(1, "NS.pozzetto", "invalid_type", {"field": "NS.pozzetto", "expected": "true or false"})],
    ),
    (
        "unknown field of a line",
        _with(["hands", 0, "NS", "clen"], 1),
        [
            (
                1,
                "NS.clen",
                "unknown_hand_field",
                {"line": "NS", "key": "clen", "kinds": "clean, semi, dirty"},
            )
        ],
    ),
    # one hand: its numbers
    (
        "negative points",
        _with(["hands", 0, "EW", "in_hand"], -5),
        [(1, "EW.in_hand", "invalid_points", {"line": "EW", "item": "in_hand", "value": -5})],
    ),
    (
        "points not a multiple of 5",
        _with(["hands", 0, "EW", "penalty"], 12),
        [(1, "EW.penalty", "points_step", {"line": "EW", "item": "penalty", "value": 12})],
    ),
    (
        "unknown card kind",
        _with(["hands", 0, "EW", "in_hand"], {"kings": 2}),
        [(1, "EW.in_hand.kings", "unknown_card_kind", {"card_kind": "kings"})],
    ),
    (
        "negative card count",
        _with(["hands", 0, "EW", "in_hand"], {"aces": -1}),
        [
            (
                1,
                "EW.in_hand.aces",
                "invalid_card_count",
                {"line": "EW", "item": "in_hand", "card_kind": "aces", "value": -1},
            )
        ],
    ),
    (
        "card count a fraction",
        _with(["hands", 0, "EW", "in_hand"], {"low": 1.5}),
        [
            (
                1,
                "EW.in_hand.low",
                "invalid_card_count",
                {"line": "EW", "item": "in_hand", "card_kind": "low", "value": "1.5"},
            )
        ],
    ),
    (
        "negative burraco count",
        _with(["hands", 0, "EW", "dirty"], -1),
        [(1, "EW.dirty", "invalid_burraco_count", {"line": "EW", "kind": "dirty", "value": -1})],
    ),
    (
        "burraco count true",
        _with(["hands", 0, "EW", "clean"], True),
        [
            (
                1,
                "EW.clean",
                "invalid_burraco_count",
                {"line": "EW", "kind": "clean", "value": "True"},
            )
        ],
    ),
    (
        "semi-clean under international rules",
        _hand(hand(None, line(200, 0, semi=1, pozzetto=True), line(0, 0)), INTERNATIONAL),
        [(1, "NS.semi", "semi_not_allowed", {"line": "NS", "count": 1})],
    ),
    (
        "semi count as text under international rules",
        _hand(hand(None, line(200, 0, semi="0"), line(0, 0)), INTERNATIONAL),
        [(1, "NS.semi", "invalid_burraco_count", {"line": "NS", "kind": "semi", "value": "'0'"})],
    ),
    # one hand: its close
    (
        "closed without the pozzetto",
        _hand(hand("EW", line(0, 0), line(200, 0, clean=1))),
        [(1, "closed", "close_without_pozzetto", {"line": "EW"})],
    ),
    (
        "closed without a burraco",
        _hand(hand("NS", line(200, 0, pozzetto=True), line(0, 0))),
        [(1, "closed", "close_without_burraco", {"line": "NS"})],
    ),
    (
        "closed with a dirty burraco only, international",
        _hand(hand("NS", line(200, 0, dirty=1, pozzetto=True), line(0, 0)), INTERNATIONAL),
        [(1, "closed", "close_without_clean", {"line": "NS"})],
    ),
    # one hand: melds against burracos
    (
        "melded too little for two clean burracos",
        _hand(hand(None, line(65, 0, clean=2), line(0, 0))),
        [(1, "NS.melded", "melded_below_burracos", {"line": "NS", "melded": 65, "minimum": 70})],
    ),
    (
        "melded too little for a dirty one",
        _hand(hand(None, line(0, 0), line(45, 0, dirty=1))),
        [(1, "EW.melded", "melded_below_burracos", {"line": "EW", "melded": 45, "minimum": 50})],
    ),
    (
        "melded too little for a semi-clean one",
        _hand(hand(None, line(0, 0), line(50, 0, semi=1))),
        [(1, "EW.melded", "melded_below_burracos", {"line": "EW", "melded": 50, "minimum": 55})],
    ),
    (
        "six cards for a burraco",
        _hand(hand(None, line({"aces": 6}, 0, clean=1), line(0, 0))),
        [(1, "NS.melded", "too_few_melded_cards", {"line": "NS", "cards": 6, "burracos": 1})],
    ),
    (
        "no wild card for a dirty burraco",
        _hand(hand(None, line({"high": 7}, 0, dirty=1), line(0, 0))),
        [(1, "NS.melded", "too_few_wild_cards", {"line": "NS", "wild": 0, "burracos": 1})],
    ),
    # one hand: the two decks
    (
        "more points than all the cards",
        _hand(hand(None, line(1000, 0, pozzetto=True), line(50, 35))),
        [(1, "hand", "cards_over_total", {"total": 1085, "limit": 1080})],
    ),
    (
        "five jokers",
        _hand(hand(None, line({"jokers": 3}, 0), line(0, {"jokers": 2}))),
        [(1, "hand", "card_kind_over_total", {"count": 5, "card_kind": "jokers", "limit": 4})],
    ),
    (
        "nine aces, table and hand",
        _hand(hand(None, line({"aces": 5}, {"aces": 2}), line(0, 0, penalty={"aces": 2}))),
        [(1, "hand", "card_kind_over_total", {"count": 9, "card_kind": "aces", "limit": 8})],
    ),
]


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
    rec = _with(["hands", 0, "EW", "penalty"], 12)
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


def test_every_problem_at_once_with_its_hand():
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
    rec = _hand(hand(None, line(0, 0, semi=0), line(0, 0)), INTERNATIONAL)
    assert validate_record(rec) == []


def test_no_cascade_without_rules():
    rec = _with(["ruleset"], "bridge")
    rec["hands"].append("not a hand")
    assert [p.code for p in validate_record(rec)] == ["unknown_preset"]


def test_no_match_over_after_an_invalid_hand():
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
