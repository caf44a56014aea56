"""The engine against a second, deliberately plain scorer written from docs/rules/barbu.md alone."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.barbu import score_game
from scoring.engine.barbu.randomgame import random_game

# docs/rules/barbu.md "Contracts and points", one row per preset.
TABLE: dict[str, dict[str, Any]] = {
    "italian7": {
        "barbu": -20,
        "heart": lambda rank: -4 if rank in "AKQJT" else -2,
        "queen": -6,
        "last_two": (-12, -12),
        "trick": {"no_tricks": -2, "trumps": 5},
        "domino": (45, 20, 10, -10),
        "contracts": 7,
        "settle": False,
    },
    "italian6": {
        "barbu": -100,
        "heart": lambda rank: -10,
        "queen": -20,
        "last_two": (-50, -50),
        "trick": {"no_tricks": -10},
        "domino": (60, 40, 0, 0),
        "contracts": 6,
        "settle": True,
    },
    "french": {
        "barbu": -20,
        "heart": lambda rank: -6 if rank == "A" else -2,
        "queen": -6,
        "last_two": (-10, -20),
        "trick": {"no_tricks": -2, "trumps": 5},
        "domino": (45, 20, 5, -5),
        "contracts": 7,
        "settle": False,
    },
}
TABLE["german"] = TABLE["french"]


def raw_points(rules: dict[str, Any], players: list[str], deal: dict[str, Any]) -> dict[str, int]:
    contract, result = deal["contract"], deal["result"]
    raw = dict.fromkeys(players, 0)
    if contract == "barbu":
        raw[result["king_of_hearts"]] += rules["barbu"]
    elif contract == "hearts":
        for player, cards in result["hearts"].items():
            for card in cards:
                rank = card.strip().upper()[:-1]
                raw[player] += rules["heart"]("T" if rank == "10" else rank)
    elif contract == "queens":
        for player, cards in result["queens"].items():
            raw[player] += rules["queen"] * len(cards)
    elif contract == "last_two":
        raw[result["twelfth"]] += rules["last_two"][0]
        raw[result["thirteenth"]] += rules["last_two"][1]
    elif contract in ("no_tricks", "trumps"):
        for player, tricks in result["tricks"].items():
            raw[player] += rules["trick"][contract] * tricks
    else:
        order = list(result["order"])
        order += [p for p in players if p not in order]
        for player, points in zip(order, rules["domino"], strict=True):
            raw[player] += points
    return raw


def reference(record: dict[str, Any], preset: str) -> tuple[list[dict[str, int]], dict[str, Any]]:
    rules = TABLE[preset]
    players = record["players"]
    scores = []
    for deal in record["deals"]:
        raw = raw_points(rules, players, deal)
        bets: dict[frozenset[str], int] = {}
        for d in deal.get("doubles") or []:
            pair = frozenset((d["by"], d["against"]))
            bets[pair] = 2 if pair in bets or d.get("redoubled") else 1
        score = dict(raw)
        for pair, times in bets.items():
            a, b = pair
            score[a] += times * (raw[a] - raw[b])
            score[b] -= times * (raw[a] - raw[b])
        scores.append(score)
    turns: dict[str, list[int]] = {}
    for i, deal in enumerate(record["deals"]):
        turns.setdefault(deal["dealer"], []).append(i)
    totals = dict.fromkeys(players, Fraction(0))
    for dealer, numbers in turns.items():
        turn = {p: sum(scores[i][p] for i in numbers) for p in players}
        for p in players:
            totals[p] += turn[p]
        if rules["settle"] and len(numbers) == rules["contracts"]:
            places = (50, 25, -25, -50)
            for p in players:
                higher = sum(turn[q] > turn[p] for q in players)
                tied = sum(turn[q] == turn[p] for q in players)
                totals[p] += 110 + Fraction(sum(places[higher : higher + tied]), tied)
            place = 1 + sum(turn[q] > turn[dealer] for q in players if q != dealer)
            if place >= 3:
                each = 25 if place == 3 else 50
                for p in players:
                    totals[p] += -3 * each if p == dealer else each
    return scores, totals


@settings(max_examples=80, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(sorted(TABLE)),
    st.sampled_from(["per_turn", "per_deal"]),
    st.sampled_from(["any", "german"]),
    st.booleans(),
    st.integers(min_value=0, max_value=28),
)
def test_engine_agrees_with_the_reference(rng, preset, rotation, shape, messy, length):
    ruleset = {"preset": preset, "options": {"dealer_rotation": rotation, "double_shape": shape}}
    record = random_game(rng, ruleset, messy=messy)
    record["deals"] = record["deals"][:length]
    out = score_game(record)
    scores, totals = reference(record, preset)
    assert [d["score"] for d in out["deals"]] == scores
    assert {p: Fraction(v).limit_denominator(6) for p, v in out["totals"].items()} == totals
    ranked = [totals[p] for p in out["ranking"]]
    assert ranked == sorted(ranked, reverse=True)
