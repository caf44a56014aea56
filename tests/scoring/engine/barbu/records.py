"""Small game records for the engine tests: players, a one-deal record, a deal per contract."""

from __future__ import annotations

from typing import Any

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
A, B, C, D = PLAYERS

ALL_HEARTS = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]


def game(deals: list[dict[str, Any]], ruleset: Any = "italian7") -> dict[str, Any]:
    return {"ruleset": ruleset, "players": list(PLAYERS), "deals": deals}


def deal(
    contract: str, result: dict[str, Any], doubles: Any = None, dealer: str = A, **extra: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {"dealer": dealer, "contract": contract, **extra}
    if doubles is not None:
        out["doubles"] = doubles
    out["result"] = result
    return out


def dbl(by: str, against: str, redoubled: bool | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"by": by, "against": against}
    if redoubled is not None:
        out["redoubled"] = redoubled
    return out


# One valid result per contract, chosen so every player scores something different.
RESULTS: dict[str, dict[str, Any]] = {
    "barbu": {"king_of_hearts": C},
    "hearts": {"hearts": {A: ["AH"], B: ["KH", "QH", "2H"], C: ALL_HEARTS[3:12]}},
    "queens": {"queens": {B: ["QS", "QH"], D: ["QD", "QC"]}},
    "last_two": {"twelfth": B, "thirteenth": D},
    "no_tricks": {"tricks": {A: 1, B: 3, C: 4, D: 5}},
    "trumps": {"tricks": {A: 1, B: 3, C: 4, D: 5}},
    "domino": {"order": [C, A, D, B]},
}


def one(contract="barbu", result=None, doubles=None, ruleset="italian7", **extra):
    return game([deal(contract, result or RESULTS[contract], doubles, **extra)], ruleset)
