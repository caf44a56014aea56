"""Rule sets: presets, options, their JSON form and description."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.engine import InvalidGame
from scoring.engine.barbu import (
    CONTRACTS,
    PRESETS,
    Ruleset,
    describe_ruleset,
    ruleset_from_json,
    ruleset_to_json,
)
from scoring.engine.barbu.presets import parse_ruleset


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_round_trip(key):
    ruleset = PRESETS[key]
    assert ruleset_from_json(key) is ruleset
    frozen = ruleset_to_json(ruleset)
    assert frozen["preset"] == key
    assert ruleset_from_json(frozen) == ruleset
    assert isinstance(ruleset, Ruleset)
    assert all(isinstance(line, str) and line for line in describe_ruleset(ruleset))
    hash(ruleset)


def test_deal_counts():
    assert PRESETS["italian7"].deals_per_turn == 7
    assert PRESETS["italian7"].deals_per_game == 28
    assert PRESETS["italian6"].deals_per_game == 24
    assert CONTRACTS == ("barbu", "hearts", "queens", "last_two", "no_tricks", "trumps", "domino")


def test_options_override_preset():
    ruleset = ruleset_from_json(
        {
            "preset": "german",
            "options": {
                "dealer_rotation": "per_turn",
                "points": {"barbu": -30, "hearts": {"A": -8}, "last_two": [-15, -15]},
                "contracts": ["domino", "barbu"],
            },
        }
    )
    assert ruleset.dealer_rotation == "per_turn"
    assert ruleset.points["barbu"] == -30
    assert ruleset.points["hearts"][:2] == (-8, -2)
    assert ruleset.points["last_two"] == (-15, -15)
    assert ruleset.contracts == ("barbu", "domino")
    assert ruleset.deals_per_game == 8
    assert ruleset.preset == "german"
    assert ruleset_from_json(ruleset_to_json(ruleset)) == ruleset
    assert ruleset != PRESETS["german"]


@pytest.mark.parametrize(
    ("obj", "codes"),
    [
        ("bridge", ["unknown_preset"]),
        (42, ["invalid_type"]),
        ({"options": {}}, ["missing_field"]),
        ({"preset": "french", "options": []}, ["invalid_type"]),
        ({"preset": "french", "extra": 1}, ["unknown_option"]),
        ({"preset": "french", "options": {"dealer_rotation": "sideways"}}, ["invalid_option"]),
        ({"preset": "french", "options": {"domino_points": [1, 2, 3]}}, ["invalid_option"]),
        ({"preset": "french", "options": {"contracts": ["barbu", "barbu"]}}, ["invalid_option"]),
        ({"preset": "french", "options": {"contracts": []}}, ["invalid_option"]),
        ({"preset": "french", "options": {"contracts": ["chess"]}}, ["invalid_option"]),
        ({"preset": "french", "options": {"contracts": "barbu"}}, ["invalid_option"]),
        ({"preset": "french", "options": {"contracts": [["barbu"]]}}, ["invalid_option"]),
        ({"preset": "french", "options": {"mandatory_doubles": "yes"}}, ["invalid_option"]),
        ({"preset": "french", "options": {"double_shape": ["any"]}}, ["invalid_option"]),
        ({"preset": "french", "options": {"turn_settlement": None}}, ["invalid_option"]),
        (
            {"preset": "french", "options": {"points": {"barbu": "x", "chess": 1}}},
            ["invalid_option", "unknown_option"],
        ),
    ],
)
def test_bad_rulesets(obj, codes):
    with pytest.raises(InvalidGame) as caught:
        ruleset_from_json(obj)
    assert [p.code for p in caught.value.problems] == codes


@pytest.mark.parametrize(
    ("options", "ok"),
    [
        # each opponent must double the dealer in 2 of the dealer's deals: 1 deal is too few
        ({"contracts": ["barbu"]}, False),
        ({"contracts": ["domino"], "dealer_rotation": "per_deal"}, False),
        ({"contracts": ["barbu"], "mandatory_doubles": True}, False),
        ({"contracts": ["barbu"], "mandatory_doubles": False}, True),
        ({"contracts": ["barbu", "domino"]}, True),
        ({"mandatory_doubles": True}, True),
    ],
)
def test_mandatory_doubles_need_two_contracts(options, ok):
    ruleset, problems = parse_ruleset({"preset": "french", "options": options})
    if ok:
        assert ruleset is not None and problems == []
        return
    assert ruleset is None
    assert [p.as_dict() for p in problems] == [
        {
            "deal": None,
            "field": "ruleset.options.contracts",
            "code": "mandatory_doubles_impossible",
            "params": {"count": 1, "required": 2},
            "message": (
                "mandatory doubles need at least 2 contracts, because each player must "
                "double every dealer in 2 of that dealer's deals; these rules have only 1: "
                "add contracts or turn mandatory doubles off"
            ),
        }
    ]


def test_an_impossible_ruleset_object_is_refused_too():
    ruleset = replace(PRESETS["italian7"], contracts=("barbu",))
    assert parse_ruleset(ruleset)[1][0].code == "mandatory_doubles_impossible"
    with pytest.raises(InvalidGame):
        ruleset_from_json(ruleset)


def test_ruleset_is_immutable_hashable_and_picklable():
    import pickle

    ruleset = ruleset_from_json({"preset": "italian6", "options": {"points": {"barbu": -50}}})
    assert pickle.loads(pickle.dumps(ruleset)) == ruleset
    assert hash(ruleset) == hash(pickle.loads(pickle.dumps(ruleset)))
    with pytest.raises(TypeError):
        ruleset.points["barbu"] = 0  # type: ignore[index]
    assert PRESETS["italian6"].points["barbu"] == -100
