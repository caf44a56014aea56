"""Rule sets: presets, options, their JSON form and description."""

from __future__ import annotations

import pytest

from scoring.engine import (
    CONTRACTS,
    PRESETS,
    InvalidGame,
    Ruleset,
    describe_ruleset,
    ruleset_from_json,
    ruleset_to_json,
)


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


def test_ruleset_is_immutable_hashable_and_picklable():
    import pickle

    ruleset = ruleset_from_json({"preset": "italian6", "options": {"points": {"barbu": -50}}})
    assert pickle.loads(pickle.dumps(ruleset)) == ruleset
    assert hash(ruleset) == hash(pickle.loads(pickle.dumps(ruleset)))
    with pytest.raises(TypeError):
        ruleset.points["barbu"] = 0  # type: ignore[index]
    assert PRESETS["italian6"].points["barbu"] == -100
