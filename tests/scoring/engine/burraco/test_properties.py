"""Properties over random valid hands and turns (hypothesis)."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.burraco import (
    CARD_VALUES,
    PRESETS,
    card_points,
    ruleset_from_json,
    score_hand,
    score_match,
    turn_result,
    validate_match,
    vp_of,
)
from scoring.engine.burraco.randommatch import random_hand, random_turn
from tests.scoring.engine.burraco.records import swap

# A seeded random.Random: hypothesis shrinks the seed (its own Random records every call).
rngs = st.integers(0, 2**32).map(random.Random)
tournament_presets = st.sampled_from(["fibur", "international"])
turn_lengths = st.sampled_from([2, 3, 4])


@settings(max_examples=150, deadline=None)
@given(rngs, tournament_presets, turn_lengths)
def test_random_turns_are_valid_and_add_up(rng, preset, hands):
    rec = random_turn(rng, preset, hands, played=rng.randint(0, hands))
    assert validate_match(rec) == []
    scores = score_match(rec)
    for line in ("NS", "EW"):
        assert scores["totals"][line] == sum(h[line]["score"] for h in scores["hands"])
        for h in scores["hands"]:
            part = h[line]
            assert part["score"] == part["cards"] + part["bonus"] + part["pozzetto"]
            assert part["score"] % 5 == 0
    result = scores["result"]
    assert result["vp"]["NS"] + result["vp"]["EW"] == 20
    assert result["difference"] == abs(scores["totals"]["NS"] - scores["totals"]["EW"])
    assert scores["complete"] is (len(rec["hands"]) == hands)


@st.composite
def vp_tables(draw):
    """A valid club VP table: increasing bounds (multiples of 5), VP 10..20 never falling."""
    steps = draw(st.lists(st.integers(1, 60), min_size=0, max_size=12))
    bounds, bound = [], -5
    for step in steps:
        bound += 5 * step
        bounds.append(bound)
    vps = sorted(
        draw(st.lists(st.integers(10, 20), min_size=len(bounds) + 1, max_size=len(bounds) + 1))
    )
    return [[b, v] for b, v in zip([*bounds, None], vps, strict=True)]


@settings(max_examples=150, deadline=None)
@given(vp_tables(), st.integers(0, 800), st.integers(0, 800), turn_lengths)
def test_vp_sum_to_20_and_grow_with_the_difference(table_json, a, b, hands):
    ruleset = ruleset_from_json(
        {"preset": "fibur", "options": {"vp_tables": {str(hands): table_json}}}
    )
    table = ruleset.vp_tables[hands]
    ns, ew = 5 * a, 5 * b
    result = turn_result(ns, ew, table)
    assert result["vp"]["NS"] + result["vp"]["EW"] == 20
    d = result["difference"]
    winner_vp = vp_of(table, d)
    assert 10 <= winner_vp <= 20
    assert vp_of(table, d + 5) >= winner_vp  # growing with the difference
    if d == 0:
        assert result == {"difference": 0, "winner": None, "vp": {"NS": 10, "EW": 10}}
    else:
        assert result["vp"][result["winner"]] == winner_vp


@settings(max_examples=60, deadline=None)
@given(tournament_presets, turn_lengths)
def test_preset_tables_grow_with_the_difference(preset, hands):
    table = PRESETS[preset].vp_tables[hands]
    vps = [vp_of(table, d) for d in range(0, 2500, 5)]
    assert vps == sorted(vps)
    assert vps[0] == 10 and vps[-1] == 20


def _as_points(h: dict) -> dict:
    out = copy.deepcopy(h)
    for line in ("NS", "EW"):
        for item in ("melded", "in_hand", "penalty"):
            value = out[line].get(item)
            if isinstance(value, dict):
                out[line][item] = card_points(value)
    return out


@settings(max_examples=200, deadline=None)
@given(rngs, tournament_presets)
def test_cards_by_kind_equal_the_same_cards_as_numbers(rng, preset):
    by_kind = random_hand(rng, PRESETS[preset], by_kind=True)
    as_points = _as_points(by_kind)
    assert score_hand(by_kind, preset) == score_hand(as_points, preset)
    cards = by_kind["NS"]["melded"]
    assert card_points(cards) == sum(CARD_VALUES[k] * n for k, n in cards.items())


@settings(max_examples=150, deadline=None)
@given(rngs, tournament_presets, turn_lengths)
def test_swapping_ns_and_ew_swaps_the_results(rng, preset, hands):
    rec = random_turn(rng, preset, hands, played=rng.randint(0, hands))
    straight = score_match(rec)
    swapped = score_match(swap(rec))
    other = {"NS": "EW", "EW": "NS", None: None}
    for a, b in zip(straight["hands"], swapped["hands"], strict=True):
        assert (a["NS"], a["EW"], other[a["closed"]]) == (b["EW"], b["NS"], b["closed"])
    assert straight["totals"] == {"NS": swapped["totals"]["EW"], "EW": swapped["totals"]["NS"]}
    r, s = straight["result"], swapped["result"]
    assert r["difference"] == s["difference"]
    assert other[r["winner"]] == s["winner"]
    assert r["vp"] == {"NS": s["vp"]["EW"], "EW": s["vp"]["NS"]}


@settings(max_examples=60, deadline=None)
@given(rngs)
def test_a_free_match_ends_once_and_never_goes_on(rng):
    ruleset = PRESETS["free"]
    hands = []
    ns = ew = 0
    while True:
        h = random_hand(rng, ruleset)
        hands.append(h)
        scored = score_hand(h, "free")
        ns += scored["NS"]["score"]
        ew += scored["EW"]["score"]
        if ns != ew and max(ns, ew) >= 2005:
            break
        assert len(hands) < 200
    rec = random_turn(random.Random(0), "free", 2, played=0)
    del rec["hands_per_turn"]
    rec["hands"] = hands
    scores = score_match(rec)
    assert scores["complete"] is True
    assert scores["result"] == {"winner": "NS" if ns > ew else "EW"}
    rec["hands"] = [*hands, hands[0]]
    assert [p.code for p in validate_match(rec)] == ["match_over"]
    rec["hands"] = hands[:-1]
    assert score_match(rec)["complete"] is False
