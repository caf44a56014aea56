"""The worked examples of docs/rules/barbu.md, every contract's raw points per preset, and
settlement."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine.barbu import PRESETS, score_game
from scoring.engine.barbu.game import in_cents, settle_turn
from tests.scoring.engine.barbu.records import ALL_HEARTS, RESULTS, A, B, C, D, dbl, deal, game


def scores_of(record):
    return score_game(record)["deals"][0]


def test_example_1_barbu_two_doubles():
    # A deals, B and C double D, D takes the K♥.
    out = scores_of(game([deal("barbu", {"king_of_hearts": D}, [dbl(B, D), dbl(C, D)])]))
    assert out["raw"] == {A: 0, B: 0, C: 0, D: -20}
    assert out["doubles"] == {A: 0, B: 20, C: 20, D: -40}
    assert out["score"] == {A: 0, B: 20, C: 20, D: -60}


def test_example_2_barbu_redoubled():
    record = game([deal("barbu", {"king_of_hearts": D}, [dbl(B, D, True), dbl(C, D, True)])])
    assert scores_of(record)["score"] == {A: 0, B: 40, C: 40, D: -100}


def test_example_3_hearts_one_player_doubles_three():
    result = {"hearts": {B: ["AH", "KH"], C: ALL_HEARTS[2:]}}
    record = game([deal("hearts", result, [dbl(B, A), dbl(B, C), dbl(B, D)])])
    out = scores_of(record)
    assert out["raw"] == {A: 0, B: -8, C: -28, D: 0}
    assert out["score"] == {A: 8, B: -4, C: -48, D: 8}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_doubles_both_ways_count_as_one_redouble(preset):
    # docs/rules/barbu.md Decision: in every variant, never more than one redoubled bet per pair.
    both = [dbl(B, D), dbl(D, B)]
    one_redoubled = [dbl(B, D, True)]
    all_three = [dbl(D, B, True), dbl(B, D, True)]
    taker = PRESETS[preset].points["barbu"]
    expected = {A: 0, B: -2 * taker, C: 0, D: 3 * taker}
    for doubles in (both, one_redoubled, all_three):
        record = game([deal("barbu", {"king_of_hearts": D}, doubles)], preset)
        assert scores_of(record)["score"] == expected


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_two_players_doubling_the_table_are_redoubled_between_them(preset):
    # Italian source: two players who doubled the table are redoubled among themselves.
    doubles = [dbl(p, q) for p in (B, C) for q in (A, B, C, D) if q != p]
    result = {"tricks": {A: 1, B: 2, C: 4, D: 6}}
    out = scores_of(game([deal("no_tricks", result, doubles)], preset))
    each = PRESETS[preset].points["no_tricks"]
    raw = {A: each, B: 2 * each, C: 4 * each, D: 6 * each}
    assert out["raw"] == raw
    bets = {(B, A): 1, (B, C): 2, (B, D): 1, (C, A): 1, (C, D): 1}
    expected = dict.fromkeys(raw, 0)
    for (x, y), times in bets.items():
        expected[x] += times * (raw[x] - raw[y])
        expected[y] -= times * (raw[x] - raw[y])
    assert out["doubles"] == expected


RAW = {
    "italian7": {
        "barbu": {A: 0, B: 0, C: -20, D: 0},
        "hearts": {A: -4, B: -10, C: -22, D: 0},
        "queens": {A: 0, B: -12, C: 0, D: -12},
        "last_two": {A: 0, B: -12, C: 0, D: -12},
        "no_tricks": {A: -2, B: -6, C: -8, D: -10},
        "trumps": {A: 5, B: 15, C: 20, D: 25},
        "domino": {A: 20, B: -10, C: 45, D: 10},
    },
    "italian6": {
        "barbu": {A: 0, B: 0, C: -100, D: 0},
        "hearts": {A: -10, B: -30, C: -90, D: 0},
        "queens": {A: 0, B: -40, C: 0, D: -40},
        "last_two": {A: 0, B: -50, C: 0, D: -50},
        "no_tricks": {A: -10, B: -30, C: -40, D: -50},
        "domino": {A: 40, B: 0, C: 60, D: 0},
    },
    "french": {
        "barbu": {A: 0, B: 0, C: -20, D: 0},
        "hearts": {A: -6, B: -6, C: -18, D: 0},
        "queens": {A: 0, B: -12, C: 0, D: -12},
        "last_two": {A: 0, B: -10, C: 0, D: -20},
        "no_tricks": {A: -2, B: -6, C: -8, D: -10},
        "trumps": {A: 5, B: 15, C: 20, D: 25},
        "domino": {A: 20, B: -5, C: 45, D: 5},
    },
}
RAW["german"] = RAW["french"]


@pytest.mark.parametrize(
    ("preset", "contract"),
    [(p, c) for p in RAW for c in RAW[p]],
)
def test_raw_points(preset, contract):
    extra = {"trump": "S"} if contract == "trumps" else {}
    record = game([deal(contract, RESULTS[contract], **extra)], preset)
    out = scores_of(record)
    assert out["raw"] == RAW[preset][contract]
    assert out["score"] == RAW[preset][contract]
    assert out["doubles"] == {A: 0, B: 0, C: 0, D: 0}


def test_last_two_same_taker_scores_both():
    record = game([deal("last_two", {"twelfth": B, "thirteenth": B})], "french")
    assert scores_of(record)["raw"][B] == -30


def test_domino_three_names_imply_the_fourth():
    record = game([deal("domino", {"order": [C, A, D]})])
    assert scores_of(record)["raw"] == RAW["italian7"]["domino"]


def test_every_preset_covered():
    assert set(RAW) == set(PRESETS)


# italian6 settlement ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "dealer", "totals"),
    [
        # the source's example: -200 in the turn, 3rd -> -200 + 110 - 25 = -115
        ([-20, -200, -10, -210], 0, [-20 + 135, -115, -10 + 160, -210 + 60]),
        # dealer 3rd: dealer -75, each opponent +25
        ([-100, -20, -40, -280], 0, [-90, 165, 120, -195]),
        # dealer 4th: dealer -150, each opponent +50
        ([-280, -20, -40, -100], 0, [-370, 190, 145, 35]),
        # two tied first share (50 + 25) / 2 = 37.5; the dealer is 4th
        ([-100, -100, -110, -130], 3, [97.5, 97.5, 25, -220]),
        # all tied: placement 0 each, and the dealer is 1st
        ([-110, -110, -110, -110], 1, [0, 0, 0, 0]),
    ],
)
def test_settlement_cases(scores, dealer, totals):
    settlement = settle_turn(scores, dealer)
    assert [s + t for s, t in zip(scores, settlement, strict=True)] == totals
    assert sum(totals) == 0


def test_settlement_dealer_tied_takes_the_better_place():
    # Dealer tied with one opponent for 3rd-4th: the dealer is 3rd (1 + strictly higher).
    scores = [-150, -20, -120, -150]
    settlement = settle_turn(scores, dealer=0)
    assert settlement == [110 - 37.5 - 75, 110 + 50 + 25, 110 + 25 + 25, 110 - 37.5 + 25]
    assert sum(s + t for s, t in zip(scores, settlement, strict=True)) == 0


def test_settlement_three_way_tie_is_exact():
    scores = [-20, -140, -140, -140]
    settlement = settle_turn(scores, dealer=0)
    assert settlement[1] == 110 + Fraction(-50, 3)
    assert sum(s + t for s, t in zip(scores, settlement, strict=True)) == 0


def test_three_way_tie_is_shown_in_cents_and_still_sums_to_zero():
    # 2nd-4th tied: each shares (25 - 25 - 50) / 3 = -16.666...; to the cent, the earlier
    # seat among them takes the cent the sum needs.
    scores = [-20, -140, -140, -140]
    settlement = in_cents(settle_turn(scores, dealer=0))
    assert settlement == [160, Fraction("93.34"), Fraction("93.33"), Fraction("93.33")]
    assert sum(s + t for s, t in zip(scores, settlement, strict=True)) == 0


def test_a_real_game_with_a_three_way_tie_sums_to_zero_to_the_cent():
    import random
    from decimal import Decimal

    from scoring.engine.barbu.randomgame import random_game

    out = score_game(random_game(random.Random(83), "italian6"))
    tied = [t["total"] for t in out["turns"] if 66.67 in t["total"].values()]
    assert tied == [{"Anna": 66.67, "Bruno": 66.67, "Carla": 66.66, "Dario": -200}]
    for totals in [t["total"] for t in out["turns"]] + [out["totals"]]:
        assert sum(Decimal(str(v)) for v in totals.values()) == 0


def test_settlement_in_scores_json():
    # italian6 turn with half points: numbers stay ints except the .5
    import random

    from scoring.engine.barbu.randomgame import random_game

    record = random_game(random.Random(5), "italian6", deals=6)
    out = score_game(record)
    (turn,) = out["turns"]
    assert set(turn) == {"dealer", "deals", "score", "settlement", "total"}
    assert sum(turn["total"].values()) == 0
    for name, total in turn["total"].items():
        assert total == turn["score"][name] + turn["settlement"][name]
    partial = score_game(random_game(random.Random(5), "italian6", deals=5))
    assert "settlement" not in partial["turns"][0]
    assert partial["turns"][0]["total"] == partial["turns"][0]["score"]


# docs/rules/format.md
# ---------------------------------------------------------------------------------


def test_format_md_example():
    # The record and the scores of docs/rules/format.md, key for key.
    record = {
        "ruleset": "italian7",
        "players": [A, B, C, D],
        "deals": [
            {
                "dealer": A,
                "contract": "barbu",
                "doubles": [{"by": B, "against": A, "redoubled": True}],
                "result": {"king_of_hearts": C},
            }
        ],
    }
    out = score_game(record)
    assert list(out) == ["ruleset", "complete", "deals", "turns", "totals", "ranking"]
    assert out["ruleset"]["preset"] == "italian7"
    assert set(out["ruleset"]["options"]) == {
        "contracts",
        "points",
        "trumps_allow_no_trump",
        "domino_points",
        "dealer_rotation",
        "double_shape",
        "positive_only_dealer",
        "mandatory_doubles",
        "turn_settlement",
        "barbu_discard_first_chance",
        "domino_pass_when_able",
    }
    assert out["complete"] is False
    assert out["deals"] == [
        {
            "number": 1,
            "dealer": A,
            "contract": "barbu",
            "raw": {A: 0, B: 0, C: -20, D: 0},
            "doubles": {A: 0, B: 0, C: 0, D: 0},
            "score": {A: 0, B: 0, C: -20, D: 0},
        }
    ]
    # no settlement key outside italian6; total is the plain score
    assert out["turns"] == [
        {
            "dealer": A,
            "deals": [1],
            "score": {A: 0, B: 0, C: -20, D: 0},
            "total": {A: 0, B: 0, C: -20, D: 0},
        }
    ]
    assert out["totals"] == {A: 0, B: 0, C: -20, D: 0}
    # best first, ties in seat order
    assert out["ranking"] == [A, B, D, C]


def test_turns_per_deal_rotation_settle_when_the_dealers_deals_are_done():
    import random

    from scoring.engine.barbu.randomgame import random_game

    ruleset = {"preset": "italian6", "options": {"dealer_rotation": "per_deal"}}
    record = random_game(random.Random(2), ruleset, deals=21)
    out = score_game(record)
    assert [t["deals"] for t in out["turns"]] == [
        [1, 5, 9, 13, 17, 21],
        [2, 6, 10, 14, 18],
        [3, 7, 11, 15, 19],
        [4, 8, 12, 16, 20],
    ]
    assert ["settlement" in t for t in out["turns"]] == [True, False, False, False]
    assert sum(out["turns"][0]["total"].values()) == 0
    for turn in out["turns"]:
        assert all(type(v) is int or v % 1 == 0.5 for v in turn["total"].values())
