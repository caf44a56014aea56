"""Small builders for Burraco records in tests."""

from __future__ import annotations

import copy
from typing import Any

PAIRS = {"NS": ["Anna", "Carla"], "EW": ["Bruno", "Dario"]}

# The example of docs/rules/format.md ("Match record"), and its scores ("Scores").
FORMAT_HAND = {
    "closed": "NS",
    "NS": {"melded": 560, "in_hand": 25, "clean": 1, "dirty": 1, "pozzetto": True},
    "EW": {"melded": 235, "in_hand": 85, "pozzetto": False},
}


def line(melded: Any = 0, in_hand: Any = 0, **rest: Any) -> dict[str, Any]:
    return {"melded": melded, "in_hand": in_hand, **rest}


def hand(closed: str | None, ns: dict[str, Any], ew: dict[str, Any]) -> dict[str, Any]:
    return {"closed": closed, "NS": ns, "EW": ew}


def scoring(ns: int, ew: int) -> dict[str, Any]:
    """A valid hand, nobody closing, whose scores are ns and ew (multiples of 5, >= -100).

    Each line takes its pozzetto; a gain is clean burracos (200 and 35 card points each, as
    many as fit) and melded cards, a loss is cards left in hand.
    """

    def one(score: int) -> dict[str, Any]:
        if score >= 0:
            clean = score // 235
            return line(score - 200 * clean, 0, pozzetto=True, clean=clean)
        return line(0, -score, pozzetto=True)

    return hand(None, one(ns), one(ew))


def record(
    hands: list[dict[str, Any]],
    hands_per_turn: int | None = 3,
    ruleset: Any = "fibur",
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": "burraco",
        "ruleset": ruleset,
        "pairs": copy.deepcopy(PAIRS),
        "hands": hands,
    }
    if hands_per_turn is not None:
        out["hands_per_turn"] = hands_per_turn
    return out


def swap(rec: dict[str, Any]) -> dict[str, Any]:
    """The same record with the lines' names and entries exchanged."""
    out = copy.deepcopy(rec)
    out["pairs"] = {"NS": rec["pairs"]["EW"], "EW": rec["pairs"]["NS"]}
    out["hands"] = [
        {
            "closed": {"NS": "EW", "EW": "NS"}.get(h["closed"]),
            "NS": copy.deepcopy(h["EW"]),
            "EW": copy.deepcopy(h["NS"]),
        }
        for h in rec["hands"]
    ]
    return out
