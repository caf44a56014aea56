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
    one,
)


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
