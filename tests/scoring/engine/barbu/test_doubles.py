"""Who may double whom in each rule set, the mandatory doubles of a dealer's turn, no-trump
where the rules allow it, and random games of the smallest rule sets."""

from __future__ import annotations

import random

import pytest

from scoring.engine.barbu import validate_game
from scoring.engine.barbu.randomgame import random_game
from tests.scoring.engine.barbu.records import (
    A,
    B,
    C,
    D,
    dbl,
    one,
)

GERMAN_SHAPES = {"preset": "french", "options": {"double_shape": "german"}}
ANY_SHAPE = {"preset": "german", "options": {"double_shape": "any"}}
POSITIVE_ANYONE = {"preset": "french", "options": {"positive_only_dealer": False}}
POSITIVE_DEALER = {"preset": "german", "options": {"positive_only_dealer": True}}
ALL_PRESETS = ("italian7", "italian6", "french", "german")


# docs/rules/barbu.md "Who may double whom", A deals: (rule sets, contract, doubles, codes).
WHO_MAY_DOUBLE = [
    # the dealer may not double, but may redouble
    (ALL_PRESETS, "barbu", [dbl(A, B)], ["dealer_doubles"]),
    (ALL_PRESETS, "barbu", [dbl(B, A, True), dbl(C, A, True)], []),
    # what one announcement may cover: italian and french any set of opponents ...
    (("italian7", "italian6", "french"), "barbu", [dbl(B, A), dbl(C, B)], []),
    (("italian7", "italian6", "french"), "barbu", [dbl(B, A), dbl(B, C)], []),
    (("italian7", "italian6", "french"), "hearts", [dbl(D, A), dbl(D, B)], []),
    # ... german exactly one player, the family (the two other non-dealers) or the table
    (("german", GERMAN_SHAPES), "barbu", [dbl(B, A)], []),
    (("german", GERMAN_SHAPES), "barbu", [dbl(B, C)], []),
    (("german", GERMAN_SHAPES), "barbu", [dbl(B, C), dbl(B, D)], []),
    (("german", GERMAN_SHAPES), "barbu", [dbl(B, A), dbl(B, C), dbl(B, D)], []),
    (("german", GERMAN_SHAPES), "barbu", [dbl(B, A), dbl(B, C)], ["double_shape"]),
    (("german", GERMAN_SHAPES), "barbu", [dbl(D, A), dbl(D, B)], ["double_shape"]),
    ((ANY_SHAPE,), "barbu", [dbl(B, A), dbl(B, C)], []),
    # in trumps and domino only the dealer may be doubled, except german
    (("italian7", "french"), "trumps", [dbl(B, A), dbl(C, A), dbl(D, A, True)], []),
    (
        ("italian7", "french", POSITIVE_DEALER),
        "trumps",
        [dbl(B, C)],
        ["positive_double_not_dealer"],
    ),
    (ALL_PRESETS[:3], "domino", [dbl(C, D)], ["positive_double_not_dealer"]),
    (("german", POSITIVE_ANYONE), "domino", [dbl(C, D)], []),
    (("german", POSITIVE_ANYONE), "trumps", [dbl(B, C), dbl(C, B)], []),
    (("german",), "domino", [dbl(B, C), dbl(B, D)], []),
    (("german",), "domino", [dbl(B, A), dbl(B, D)], ["double_shape"]),
]


@pytest.mark.parametrize(
    ("ruleset", "contract", "doubles", "codes"),
    [(r, c, d, codes) for rulesets, c, d, codes in WHO_MAY_DOUBLE for r in rulesets],
)
def test_who_may_double_whom(ruleset, contract, doubles, codes):
    extra = {"trump": "S"} if contract == "trumps" else {}
    record = one(contract, doubles=doubles, ruleset=ruleset, **extra)
    assert [p.code for p in validate_game(record)] == codes


def _first_turn(ruleset, doubles_by_deal):
    """Anna's first 7 deals (per_turn) with the given doubles in each, none elsewhere."""
    record = random_game(random.Random(9), ruleset, deals=7)
    for number, d in enumerate(record["deals"], 1):
        d["doubles"] = doubles_by_deal.get(number, [])
        if d["contract"] in ("trumps", "domino"):
            d["doubles"] = [x for x in d["doubles"] if x["against"] == A]
    return record


_TWICE = {n: [dbl(p, A) for p in (B, C, D)] for n in (1, 2)}


# (rule set, doubles per deal number, (deal, by, count) of each problem)
MANDATORY = [
    ("italian7", _TWICE, []),
    ("italian7", {**_TWICE, 2: [dbl(B, A), dbl(C, A)]}, [(7, D, 1)]),
    ("italian7", {**_TWICE, 2: [dbl(B, A, True), dbl(C, A), dbl(D, A)]}, []),
    # doubling the table counts as doubling the dealer; doubling someone else does not
    ("italian7", {**_TWICE, 2: [dbl(B, A), dbl(C, A), dbl(D, A), dbl(D, B), dbl(D, C)]}, []),
    ("italian7", {**_TWICE, 2: [dbl(B, A), dbl(C, A), dbl(D, B)]}, [(7, D, 1)]),
    # nobody doubled in five deals: the sixth is the last chance for both doubles
    ("italian7", {}, [(6, B, 0), (6, C, 0), (6, D, 0)]),
    ("italian7", {5: [dbl(B, A)]}, [(6, C, 0), (6, D, 0), (7, B, 1)]),
    ("italian7", {5: [dbl(B, A)], 6: [dbl(B, A), dbl(C, A), dbl(D, A)]}, [(7, C, 1), (7, D, 1)]),
    (
        {"preset": "german", "options": {"dealer_rotation": "per_turn"}},
        {},
        [(6, p, 0) for p in (B, C, D)],
    ),
    ({"preset": "italian7", "options": {"mandatory_doubles": False}}, {}, []),
]


@pytest.mark.parametrize(("ruleset", "doubles", "expected"), MANDATORY)
def test_mandatory_doubles_of_a_turn(ruleset, doubles, expected):
    problems = validate_game(_first_turn(ruleset, doubles))
    got = [(p.deal, p.params["by"], p.params["count"]) for p in problems]
    assert got == expected
    assert all(p.code == "mandatory_double_now" and p.params["dealer"] == A for p in problems)
    for p in problems:  # the deal refused is the one that must hold the double
        assert p.params["required"] - p.params["count"] == p.params["deals_left"] + 1
        assert p.message.startswith(f"{p.params['by']} must double {A} in this deal")


def test_mandatory_doubles_refuse_the_deal_that_strands_the_table():
    # Five of Anna's seven deals without a double: both doubles still fit in deals 6 and 7.
    record = _first_turn("italian7", {})
    record["deals"] = record["deals"][:5]
    assert validate_game(record) == []
    # The sixth without them would leave deal 7 needing two doubles from each: refused.
    record = _first_turn("italian7", {})
    record["deals"] = record["deals"][:6]
    assert [(p.deal, p.code, p.params["by"]) for p in validate_game(record)] == [
        (6, "mandatory_double_now", p) for p in (B, C, D)
    ]
    # per_deal: Anna's deals are 1, 5, ..., 25; Carla's last chance is deal 21.
    per_deal = random_game(
        random.Random(9), {"preset": "italian7", "options": {"dealer_rotation": "per_deal"}}
    )
    for d in per_deal["deals"]:
        if d["dealer"] == A:
            d["doubles"] = [x for x in d.get("doubles", []) if x["by"] != C]
    problems = validate_game(per_deal)
    assert [(p.deal, p.params["by"], p.params["dealer"]) for p in problems] == [(21, C, A)]
    per_deal["deals"] = per_deal["deals"][:20]
    assert validate_game(per_deal) == []


@pytest.mark.parametrize(
    ("ruleset", "trump", "codes"),
    [
        ("italian7", "NT", []),
        ("italian7", "nt", []),
        ("french", "NT", ["no_trump_not_allowed"]),
        ("german", "NT", ["no_trump_not_allowed"]),
        ({"preset": "french", "options": {"trumps_allow_no_trump": True}}, "NT", []),
        (
            {"preset": "italian7", "options": {"trumps_allow_no_trump": False}},
            "NT",
            ["no_trump_not_allowed"],
        ),
        ("german", "d", []),
    ],
)
def test_no_trump_where_the_rules_allow_it(ruleset, trump, codes):
    assert [p.code for p in validate_game(one("trumps", ruleset=ruleset, trump=trump))] == codes


@pytest.mark.parametrize(
    "options",
    [
        {"contracts": ["barbu", "domino"]},
        {"contracts": ["trumps", "domino"], "dealer_rotation": "per_deal"},
        {"contracts": ["hearts", "queens", "trumps"], "double_shape": "german"},
        {"contracts": ["barbu"], "mandatory_doubles": False},
    ],
)
def test_random_games_of_small_rulesets_are_valid(options):
    ruleset = {"preset": "french", "options": options}
    for seed in range(5):
        assert validate_game(random_game(random.Random(seed), ruleset)) == []


def test_random_game_refuses_a_ruleset_that_cannot_be_played():
    with pytest.raises(ValueError, match="mandatory_doubles_impossible"):
        random_game(random.Random(1), {"preset": "french", "options": {"contracts": ["barbu"]}})
