"""Every rejection code, table-driven; all problems listed; no cascades; never a crash."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import MESSAGES, InvalidGame, Problem
from scoring.engine.barbu import score_game, validate_game
from scoring.engine.barbu.randomgame import random_game
from scoring.engine.errors import BURRACO_MESSAGES, message_for
from tests.scoring.engine.barbu.records import (
    ALL_HEARTS,
    PLAYERS,
    RESULTS,
    A,
    B,
    C,
    D,
    dbl,
    deal,
    game,
)


def one(contract="barbu", result=None, doubles=None, ruleset="italian7", **extra):
    return game([deal(contract, result or RESULTS[contract], doubles, **extra)], ruleset)


def full(preset="italian7", seed=1):
    return random_game(random.Random(seed), preset)


def _too_many():
    record = full()
    record["deals"].append(copy.deepcopy(record["deals"][0]))
    return record


def _repeated_contract():
    return game([deal("barbu", RESULTS["barbu"]), deal("barbu", RESULTS["barbu"])])


def _no_doubles_for_dealer():
    record = full()
    for d in record["deals"][:7]:
        d["doubles"] = [x for x in d.get("doubles", []) if x["by"] != B]
    return record


def _german_per_deal_missing():
    record = full("german")
    for d in record["deals"]:
        if d["dealer"] == C:
            d["doubles"] = [x for x in d.get("doubles", []) if x["by"] != D]
    return record


# (name, record, [(deal, field, code, params subset)])
CASES = [
    ("record not an object", [], [(None, "", "invalid_type", {"expected": "an object"})]),
    (
        "ruleset missing",
        {"players": PLAYERS, "deals": []},
        [(None, "ruleset", "missing_field", {})],
    ),
    (
        "unknown preset",
        game([], "bridge"),
        [(None, "ruleset", "unknown_preset", {"preset": "bridge"})],
    ),
    (
        "unknown option",
        game([], {"preset": "french", "options": {"colour": 1}}),
        [(None, "ruleset.options.colour", "unknown_option", {"option": "colour"})],
    ),
    (
        "bad option value",
        game([], {"preset": "french", "options": {"mandatory_doubles": "yes"}}),
        [
            (
                None,
                "ruleset.options.mandatory_doubles",
                "invalid_option",
                {"option": "mandatory_doubles"},
            )
        ],
    ),
    (
        # one contract per dealer: nobody can double the dealer in 2 of the dealer's deals
        "mandatory doubles impossible",
        game([], {"preset": "french", "options": {"contracts": ["barbu"]}}),
        [
            (
                None,
                "ruleset.options.contracts",
                "mandatory_doubles_impossible",
                {"count": 1, "required": 2},
            )
        ],
    ),
    (
        "players not a list",
        {"ruleset": "french", "players": "ABCD", "deals": []},
        [(None, "players", "invalid_type", {})],
    ),
    (
        "three players",
        {"ruleset": "french", "players": PLAYERS[:3], "deals": []},
        [(None, "players", "wrong_player_count", {"count": 3})],
    ),
    (
        "empty name",
        {"ruleset": "french", "players": [A, B, " ", D], "deals": []},
        [(None, "players[2]", "empty_player_name", {"position": 3})],
    ),
    (
        "duplicate name",
        {"ruleset": "french", "players": [A, B, A, D], "deals": []},
        [(None, "players[2]", "duplicate_player", {"name": A})],
    ),
    (
        "deals missing",
        {"ruleset": "french", "players": PLAYERS},
        [(None, "deals", "missing_field", {})],
    ),
    (
        "too many deals",
        _too_many(),
        [(None, "deals", "too_many_deals", {"count": 29, "limit": 28})],
    ),
    ("deal not an object", game(["barbu"]), [(1, "deal", "invalid_type", {})]),
    (
        "dealer missing",
        game([{"contract": "barbu", "result": RESULTS["barbu"]}]),
        [(1, "dealer", "missing_field", {})],
    ),
    ("dealer unknown", one(dealer="Zoe"), [(1, "dealer", "unknown_player", {"name": "Zoe"})]),
    ("wrong dealer", one(dealer=B), [(1, "dealer", "wrong_dealer", {"dealer": B, "expected": A})]),
    (
        "wrong dealer per_deal",
        game([deal("barbu", RESULTS["barbu"]), deal("hearts", RESULTS["hearts"])], "german"),
        [(2, "dealer", "wrong_dealer", {"dealer": A, "expected": B})],
    ),
    (
        "unknown contract",
        one("misere", {"tricks": {}}),
        [(1, "contract", "unknown_contract", {"contract": "misere"})],
    ),
    (
        "contract not in ruleset",
        one("trumps", ruleset="italian6", trump="S"),
        [(1, "contract", "contract_not_in_ruleset", {"contract": "trumps"})],
    ),
    (
        "contract repeated",
        _repeated_contract(),
        [(2, "contract", "contract_repeated", {"contract": "barbu", "dealer": A, "first_deal": 1})],
    ),
    ("trump missing", one("trumps"), [(1, "trump", "missing_field", {})]),
    ("unknown trump", one("trumps", trump="X"), [(1, "trump", "unknown_trump", {"trump": "X"})]),
    (
        "no-trump not allowed",
        one("trumps", ruleset="french", trump="NT"),
        [(1, "trump", "no_trump_not_allowed", {})],
    ),
    (
        "result missing",
        game([{"dealer": A, "contract": "barbu"}]),
        [(1, "result", "missing_field", {})],
    ),
    ("result not an object", one("barbu", result=["x"]), [(1, "result", "invalid_type", {})]),
    (
        "king taker unknown",
        one("barbu", {"king_of_hearts": "Zoe"}),
        [(1, "result.king_of_hearts", "unknown_player", {"name": "Zoe"})],
    ),
    (
        "unknown card",
        one("hearts", {"hearts": {A: [*ALL_HEARTS[:12], "1H"]}}),
        [(1, "result.hearts.Anna", "unknown_card", {"card": "1H"})],
    ),
    (
        "not a heart",
        one("hearts", {"hearts": {A: [*ALL_HEARTS, "QS"]}}),
        [(1, "result.hearts.Anna", "not_a_heart", {"card": "QS"})],
    ),
    (
        "heart twice",
        one("hearts", {"hearts": {A: ALL_HEARTS, B: ["th"]}}),
        [(1, "result.hearts", "card_repeated", {"card": "TH"})],
    ),
    (
        "hearts missing",
        one("hearts", {"hearts": {A: ALL_HEARTS[:11]}}),
        [(1, "result.hearts", "cards_missing", {"cards": "3H, 2H", "count": 2})],
    ),
    (
        "hearts cards not a list",
        one("hearts", {"hearts": {A: "AH"}}),
        [(1, "result.hearts.Anna", "invalid_type", {})],
    ),
    (
        "not a queen",
        one("queens", {"queens": {A: ["QS", "QH", "QD", "KC"]}}),
        [(1, "result.queens.Anna", "not_a_queen", {"card": "KC"})],
    ),
    (
        "twelfth missing",
        one("last_two", {"thirteenth": A}),
        [(1, "result.twelfth", "missing_field", {})],
    ),
    (
        "tricks out of range",
        one("no_tricks", {"tricks": {A: 14, B: -1}}),
        [
            (1, "result.tricks.Anna", "tricks_range", {"player": A, "value": "14"}),
            (1, "result.tricks.Bruno", "tricks_range", {"player": B, "value": "-1"}),
        ],
    ),
    (
        "tricks not a number",
        one("no_tricks", {"tricks": {A: "13"}}),
        [(1, "result.tricks.Anna", "invalid_type", {"expected": "a whole number"})],
    ),
    (
        "tricks total",
        one("trumps", {"tricks": {A: 5, B: 7}}, trump="H"),
        [(1, "result.tricks", "tricks_total", {"total": 12})],
    ),
    (
        "tricks unknown player",
        one("no_tricks", {"tricks": {A: 12, "Zoe": 1}}),
        [(1, "result.tricks", "unknown_player", {"name": "Zoe"})],
    ),
    (
        "domino short",
        one("domino", {"order": [A, B]}),
        [(1, "result.order", "domino_order_length", {"count": 2})],
    ),
    (
        "domino repeated",
        one("domino", {"order": [A, B, A]}),
        [(1, "result.order[2]", "domino_order_repeated", {"name": A})],
    ),
    (
        "domino unknown",
        one("domino", {"order": [A, B, "Zoe"]}),
        [(1, "result.order[2]", "unknown_player", {"name": "Zoe"})],
    ),
    ("doubles not a list", one(doubles={"by": B}), [(1, "doubles", "invalid_type", {})]),
    (
        "double missing against",
        one(doubles=[{"by": B}]),
        [(1, "doubles[0].against", "missing_field", {})],
    ),
    (
        "double unknown player",
        one(doubles=[dbl("Zoe", A)]),
        [(1, "doubles[0].by", "unknown_player", {"name": "Zoe"})],
    ),
    (
        "redoubled not a bool",
        one(doubles=[{"by": B, "against": A, "redoubled": "yes"}]),
        [(1, "doubles[0].redoubled", "invalid_type", {})],
    ),
    (
        "double self",
        one(doubles=[dbl(B, B)]),
        [(1, "doubles[0].against", "double_self", {"player": B})],
    ),
    (
        "double repeated",
        one(doubles=[dbl(B, A), dbl(B, A, True)]),
        [(1, "doubles[1]", "double_repeated", {"by": B, "against": A})],
    ),
    (
        "dealer doubles",
        one(doubles=[dbl(A, B)]),
        [(1, "doubles[0].by", "dealer_doubles", {"dealer": A, "against": B})],
    ),
    (
        "positive: only the dealer",
        one("domino", doubles=[dbl(B, C)]),
        [
            (
                1,
                "doubles[0].against",
                "positive_double_not_dealer",
                {"by": B, "against": C, "contract": "domino"},
            )
        ],
    ),
    (
        "german shape",
        one(doubles=[dbl(B, A), dbl(B, C)], ruleset="german"),
        [(1, "doubles", "double_shape", {"by": B, "against": "Anna, Carla"})],
    ),
    (
        "mandatory doubles per turn",
        _no_doubles_for_dealer(),
        [
            (
                6,
                "doubles",
                "mandatory_double_now",
                {"by": B, "dealer": A, "count": 0, "required": 2, "deals_left": 1},
            )
        ],
    ),
    (
        "mandatory doubles per deal",
        _german_per_deal_missing(),
        [
            (
                23,
                "doubles",
                "mandatory_double_now",
                {"by": D, "dealer": C, "count": 0, "required": 2, "deals_left": 1},
            )
        ],
    ),
]


@pytest.mark.parametrize(("record", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rejections(record, expected):
    problems = validate_game(record)
    got = [(p.deal, p.field, p.code) for p in problems]
    assert got == [(d, f, c) for d, f, c, _ in expected], [p.message for p in problems]
    for problem, (_, _, _, params) in zip(problems, expected, strict=True):
        assert params.items() <= problem.params.items()
        assert problem.message == message_for(problem.code, problem.params)
    with pytest.raises(InvalidGame) as caught:
        score_game(record)
    assert caught.value.problems == problems


CLI_CODES = {"invalid_json", "file_not_found", "usage"}


def test_every_code_is_exercised():
    # Burraco's own codes are exercised in tests/burraco/.
    tested = {code for _, _, expected in CASES for _, _, code, _ in expected}
    assert tested | CLI_CODES == set(MESSAGES) - set(BURRACO_MESSAGES)


def test_tricks_total_matches_format_md():
    (problem,) = validate_game(one("no_tricks", {"tricks": {A: 12}}))
    assert problem.as_dict() == {
        "deal": 1,
        "field": "result.tricks",
        "code": "tricks_total",
        "params": {"total": 12},
        "message": "tricks add up to 12, not 13",
    }


def test_all_problems_are_listed():
    record = game(
        [
            deal("barbu", {"king_of_hearts": "Zoe"}, [dbl(A, B)]),
            deal("queens", {"queens": {A: ["QS"]}}, dealer=C),
            deal("no_tricks", {"tricks": {A: 2}}),
        ]
    )
    codes = [(p.deal, p.code) for p in validate_game(record)]
    assert codes == [
        (1, "dealer_doubles"),
        (1, "unknown_player"),
        (2, "wrong_dealer"),
        (2, "cards_missing"),
        (3, "tricks_total"),
    ]


def test_no_cascade_when_players_are_bad():
    record = {"ruleset": "french", "players": [A, B], "deals": [{"dealer": "x"}]}
    assert [p.code for p in validate_game(record)] == ["wrong_player_count"]


def test_no_cascade_inside_a_result():
    # An unknown card is one problem, not also "cards missing".
    problems = validate_game(one("queens", {"queens": {A: ["QS", "QH", "QD", "QX"]}}))
    assert [p.code for p in problems] == ["unknown_card"]


def test_no_mandatory_problem_when_doubles_were_unreadable():
    record = _no_doubles_for_dealer()
    record["deals"][0]["doubles"] = "oops"
    assert [p.code for p in validate_game(record)] == ["invalid_type"]


def test_german_allows_family_and_table():
    # B doubles the family (C and D); C doubles the table; D doubles only A.
    doubles = [dbl(B, C), dbl(B, D), dbl(C, A), dbl(C, B), dbl(C, D), dbl(D, A)]
    assert validate_game(one(doubles=doubles, ruleset="german")) == []
    # german allows doubling non-dealers in positive contracts
    assert validate_game(one("domino", doubles=[dbl(B, C)], ruleset="german")) == []


def test_dealer_may_redouble():
    assert validate_game(one(doubles=[dbl(B, A, True)])) == []


def test_mandatory_off_by_option():
    record = _no_doubles_for_dealer()
    record["ruleset"] = {"preset": "italian7", "options": {"mandatory_doubles": False}}
    assert validate_game(record) == []


def test_card_spellings_accepted():
    result = {"hearts": {A: ["ah", "Kh", "10h"], B: ["qH", " JH ", *ALL_HEARTS[5:]]}}
    assert validate_game(one("hearts", result)) == []


def test_problem_as_dict_shape():
    problem = Problem.make(3, "result.tricks", "tricks_total", total=12)
    assert list(problem.as_dict()) == ["deal", "field", "code", "params", "message"]


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(JSONISH)
def test_validate_never_raises_on_junk(junk):
    assert validate_game(junk)


@settings(max_examples=200, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(["barbu", "dealer", "contract", "result", "doubles", "trump", "hearts"]),
    JSONISH,
)
def test_validate_never_raises_on_junk_inside_a_game(rng, key, junk):
    record = random_game(rng, "italian7", deals=3)
    target = record["deals"][rng.randrange(3)]
    if key == "hearts":
        target["result"] = {"hearts": junk}
    elif key == "barbu":
        target["result"] = {"king_of_hearts": junk}
    else:
        target[key] = junk
    validate_game(record)
    record["players"][rng.randrange(4)] = junk
    validate_game(record)
    record["ruleset"] = junk
    assert validate_game(record)


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


def _deal_record(**fields):
    """One barbu deal by Anna with some fields replaced (None: left out)."""
    out = deal("barbu", RESULTS["barbu"])
    for key, value in fields.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return game([out])


# Shape problems said in a player's words: (record, field, code, message). The field
# stays the path (API clients use it); the message says what the path means.
SHAPE_CASES = [
    (
        [],
        "",
        "invalid_type",
        "this is not a game record: it should give the rules, the players and the deals",
    ),
    (
        {"players": PLAYERS, "deals": []},
        "ruleset",
        "missing_field",
        "the game does not say which rules it is played by",
    ),
    (
        game([], 7),
        "ruleset",
        "invalid_type",
        "the rules should be a preset name, or a preset with options",
    ),
    (
        game([], {"options": {}}),
        "ruleset.preset",
        "missing_field",
        "the rules do not say which preset they start from",
    ),
    (
        game([], {"preset": "french", "options": 1}),
        "ruleset.options",
        "invalid_type",
        "the rule options should give each option its value",
    ),
    (
        {"ruleset": "french", "deals": []},
        "players",
        "missing_field",
        "the game does not list its players",
    ),
    (
        {"ruleset": "french", "players": "ABCD", "deals": []},
        "players",
        "invalid_type",
        "the players should be a list of four names",
    ),
    (
        {"ruleset": "french", "players": [A, B, None, D], "deals": []},
        "players[2]",
        "invalid_type",
        "player 3 has no name",
    ),
    (
        {"ruleset": "french", "players": PLAYERS},
        "deals",
        "missing_field",
        "the game does not list its deals",
    ),
    (
        {"ruleset": "french", "players": PLAYERS, "deals": {}},
        "deals",
        "invalid_type",
        "the deals should be a list, in the order they were played",
    ),
    (game(["barbu"]), "deal", "invalid_type", "deal 1 should give its dealer, contract and result"),
    (_deal_record(dealer=None), "dealer", "missing_field", "the deal does not say who dealt"),
    (
        _deal_record(contract=None),
        "contract",
        "missing_field",
        "the deal does not say which contract was played",
    ),
    (
        one("trumps"),
        "trump",
        "missing_field",
        "the deal does not say which suit the dealer named as trumps",
    ),
    (_deal_record(result=None), "result", "missing_field", "the deal has no result"),
    (
        _deal_record(result=["x"]),
        "result",
        "invalid_type",
        "the result is not written the right way for this contract",
    ),
    (
        one(doubles={"by": B}),
        "doubles",
        "invalid_type",
        "the doubles should be a list, one entry per double",
    ),
    (
        one(doubles=[dbl(B, A), "C"]),
        "doubles[1]",
        "invalid_type",
        "double 2 should say who doubled whom",
    ),
    (
        one(doubles=[{"against": A}]),
        "doubles[0].by",
        "missing_field",
        "double 1 does not say who doubled",
    ),
    (
        one(doubles=[{"by": B}]),
        "doubles[0].against",
        "missing_field",
        "double 1 does not say who was doubled",
    ),
    (
        one(doubles=[dbl(B, A, "yes")]),
        "doubles[0].redoubled",
        "invalid_type",
        "double 1 should say whether it was redoubled: true or false",
    ),
    (
        one("barbu", {"x": 1}),
        "result.king_of_hearts",
        "missing_field",
        "the result does not say who took the king of hearts",
    ),
    (
        one("last_two", {"thirteenth": A}),
        "result.twelfth",
        "missing_field",
        "the result does not say who took the 12th trick",
    ),
    (
        one("last_two", {"twelfth": A}),
        "result.thirteenth",
        "missing_field",
        "the result does not say who took the 13th trick",
    ),
    (
        one("hearts", {"x": 1}),
        "result.hearts",
        "missing_field",
        "the result does not say who took the hearts",
    ),
    (
        one("queens", {"x": 1}),
        "result.queens",
        "missing_field",
        "the result does not say who took the queens",
    ),
    (
        one("hearts", {"hearts": []}),
        "result.hearts",
        "invalid_type",
        "the result should list, player by player, the hearts each one took",
    ),
    (
        one("queens", {"queens": "QS"}),
        "result.queens",
        "invalid_type",
        "the result should list, player by player, the queens each one took",
    ),
    (
        one("hearts", {"hearts": {A: "AH"}}),
        "result.hearts.Anna",
        "invalid_type",
        "the hearts Anna took should be a list of cards",
    ),
    (
        one("queens", {"queens": {B: "QS"}}),
        "result.queens.Bruno",
        "invalid_type",
        "the queens Bruno took should be a list of cards",
    ),
    (
        one("no_tricks", {"x": 1}),
        "result.tricks",
        "missing_field",
        "the result does not say how many tricks each player took",
    ),
    (
        one("trumps", {"tricks": [13]}, trump="S"),
        "result.tricks",
        "invalid_type",
        "the result should give, player by player, how many tricks each one took",
    ),
    (
        one("no_tricks", {"tricks": {C: "13"}}),
        "result.tricks.Carla",
        "invalid_type",
        "the tricks Carla took should be a whole number",
    ),
    (
        one("domino", {"x": 1}),
        "result.order",
        "missing_field",
        "the result does not say in which order the players went out",
    ),
    (
        one("domino", {"order": "ABCD"}),
        "result.order",
        "invalid_type",
        "the domino order should be a list of names, first out first",
    ),
]


@pytest.mark.parametrize(("record", "field", "code", "message"), SHAPE_CASES)
def test_shape_problems_say_what_is_wrong_in_words(record, field, code, message):
    problems = [p for p in validate_game(record) if p.code == code]
    assert [(p.field, p.message) for p in problems] == [(field, message)]
    # the params stay as they were: the site translates from them
    assert set(problems[0].params) <= {"field", "expected"}


def test_every_field_message_is_exercised():
    from scoring.engine.errors import BURRACO_FIELD_MESSAGES, FIELD_MESSAGES, field_shape

    tested = set()
    for record, _field, code, _message in SHAPE_CASES:
        for problem in validate_game(record):
            if problem.code == code:
                tested.add((code, field_shape(problem.params["field"])[0]))
    assert tested == set(FIELD_MESSAGES) - set(BURRACO_FIELD_MESSAGES)
