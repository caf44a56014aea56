"""Rejections of a Burraco record as a whole: its game, its pairs, its rule set."""

from __future__ import annotations

from typing import Any

from tests.scoring.engine.burraco.changed import OK_HAND, with_value
from tests.scoring.engine.burraco.records import record, scoring

RECORD_CASES: list[tuple[str, dict[str, Any], list[tuple[Any, ...]]]] = [
    # the record and its game
    (
        "unknown game",
        with_value(["game"], "poker"),
        [(None, "game", "unknown_game", {"game": "poker", "choices": "barbu, burraco"})],
    ),
    (
        "game not a word",
        with_value(["game"], 3),
        [(None, "game", "invalid_type", {"field": "game", "expected": "a word"})],
    ),
    (
        "turn of 5 hands",
        with_value(["hands_per_turn"], 5),
        [(None, "hands_per_turn", "hands_per_turn_range", {"value": 5})],
    ),
    (
        "turn length as text",
        with_value(["hands_per_turn"], "3"),
        [(None, "hands_per_turn", "hands_per_turn_range", {"value": "'3'"})],
    ),
    (
        "turn length true",
        with_value(["hands_per_turn"], True),
        [(None, "hands_per_turn", "hands_per_turn_range", {"value": "True"})],
    ),
    (
        "free preset in a turn",
        with_value(["ruleset"], "free"),
        [(None, "hands_per_turn", "no_vp_table", {"hands": 3})],
    ),
    (
        "club without 3-hand table",
        with_value(["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"3": None}}}),
        [(None, "hands_per_turn", "no_vp_table", {"hands": 3})],
    ),
    (
        "pairs missing",
        with_value(["pairs"], ...),
        [(None, "pairs", "missing_field", {"field": "pairs"})],
    ),
    (
        "pairs a list",
        with_value(["pairs"], [["Anna", "Carla"], ["Bruno", "Dario"]]),
        [(None, "pairs", "invalid_type", {"field": "pairs", "expected": "an object"})],
    ),
    (
        "a third line",
        with_value(["pairs", "NE"], ["Zoe", "Ugo"]),
        [(None, "pairs.NE", "unknown_line", {"line": "NE"})],
    ),
    (
        "pair missing",
        with_value(["pairs", "EW"], ...),
        [(None, "pairs.EW", "missing_field", {"field": "pairs.EW"})],
    ),
    (
        "pair not a list",
        with_value(["pairs", "NS"], "Anna and Carla"),
        [(None, "pairs.NS", "invalid_type", {"field": "pairs.NS", "expected": "a list"})],
    ),
    (
        "pair of one",
        with_value(["pairs", "NS"], ["Anna"]),
        [(None, "pairs.NS", "wrong_pair_size", {"line": "NS", "count": 1})],
    ),
    (
        "name not text",
        with_value(["pairs", "EW", 1], 7),
        [(None, "pairs.EW[1]", "invalid_type", {"field": "pairs.EW[1]", "expected": "a name"})],
    ),
    (
        "empty name",
        with_value(["pairs", "NS", 1], "  "),
        [(None, "pairs.NS[1]", "empty_pair_name", {"line": "NS", "position": 2})],
    ),
    (
        "player twice",
        with_value(["pairs", "EW", 0], "Anna"),
        [(None, "pairs.EW[0]", "duplicate_player", {"name": "Anna"})],
    ),
    (
        "hands missing",
        with_value(["hands"], ...),
        [(None, "hands", "missing_field", {"field": "hands"})],
    ),
    (
        "hands not a list",
        with_value(["hands"], {"1": OK_HAND}),
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
        with_value(["ruleset"], 5),
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
        with_value(["ruleset"], "italian7"),
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
        with_value(["ruleset"], {"options": {}}),
        [(None, "ruleset.preset", "missing_field", {"field": "ruleset.preset"})],
    ),
    (
        "options not an object",
        with_value(["ruleset"], {"preset": "fibur", "options": [1]}),
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
        with_value(["ruleset"], {"preset": "fibur", "options": {"jolly": 1}}),
        [(None, "ruleset.options.jolly", "unknown_option", {"option": "jolly"})],
    ),
    (
        "bonus not a multiple of 5",
        with_value(["ruleset"], {"preset": "fibur", "options": {"bonus": {"clean": 202}}}),
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
        with_value(["ruleset"], {"preset": "fibur", "options": {"bonus": {"melded": 5}}}),
        [(None, "ruleset.options.bonus.melded", "unknown_option", {"option": "bonus.melded"})],
    ),
    (
        "positive pozzetto",
        with_value(["ruleset"], {"preset": "fibur", "options": {"no_pozzetto": 100}}),
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
        with_value(["ruleset"], {"preset": "free", "options": {"target": 0}}),
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
        with_value(["ruleset"], {"preset": "fibur", "options": {"semi_clean": "yes"}}),
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
        with_value(["ruleset"], {"preset": "international", "options": {"semi_clean": True}}),
        [(None, "ruleset.options.bonus", "semi_bonus_missing", {})],
    ),
    (
        "vp tables not an object",
        with_value(["ruleset"], {"preset": "fibur", "options": {"vp_tables": []}}),
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
        with_value(["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"5": [[None, 20]]}}}),
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
        with_value(["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"3": []}}}),
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
        with_value(
            ["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"3": [50, [None, 20]]}}}
        ),
        [(None, "ruleset.options.vp_tables.3", "vp_table_band", {"hands": 3, "band": 1})],
    ),
    (
        "vp bound not a multiple of 5",
        with_value(
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
        with_value(
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
        with_value(["ruleset"], {"preset": "fibur", "options": {"vp_tables": {"2": [[None, 21]]}}}),
        [(None, "ruleset.options.vp_tables.2", "vp_table_vp", {"hands": 2, "band": 1, "vp": 21})],
    ),
    (
        "winner's vp below 10",
        with_value(
            ["ruleset"],
            {"preset": "fibur", "options": {"vp_tables": {"4": [[100, 9], [None, 20]]}}},
        ),
        [(None, "ruleset.options.vp_tables.4", "vp_table_vp", {"hands": 4, "band": 1, "vp": 9})],
    ),
    (
        "winner's vp falling",
        with_value(
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
        with_value(
            ["ruleset"],
            {"preset": "fibur", "options": {"vp_tables": {"3": [[50, 10], [1500, 20]]}}},
        ),
        [(None, "ruleset.options.vp_tables.3", "vp_table_last_open", {"hands": 3})],
    ),
    (
        "open band before the last",
        with_value(
            ["ruleset"],
            {"preset": "fibur", "options": {"vp_tables": {"3": [[None, 10], [None, 20]]}}},
        ),
        [(None, "ruleset.options.vp_tables.3", "vp_table_open_early", {"hands": 3, "band": 1})],
    ),
]
