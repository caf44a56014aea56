"""A record of the wrong shape: each problem names its field and says in words what is wrong."""

from __future__ import annotations

import pytest

from scoring.engine.barbu import validate_game
from tests.scoring.engine.barbu.records import (
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
