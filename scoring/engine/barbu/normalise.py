"""The canonical form of a deal, to tell whether two submissions of it are the same deal."""

from __future__ import annotations

from typing import Any

from .cards import CARD_ORDER, parse_card
from .results import seat_of


def normalise_deal(deal: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """The canonical form of one deal, to compare two submissions of it for equality.

    Cards become upper-case with T for ten and are sorted; doubles get an explicit
    `redoubled` and are sorted in seat order; players left out of a result get their
    empty value; a three-name domino order gets its implied fourth. Best effort: a
    value that cannot be understood is kept as it is, so it still compares unequal.
    """
    if not isinstance(deal, dict):
        return deal
    if not isinstance(players, list) or not all(type(p) is str for p in players):
        players = []
    seats = {name: i for i, name in enumerate(players)}

    def seat_key(name: object) -> tuple[int, str]:
        return (seat_of(seats, name) if seat_of(seats, name) is not None else 9, repr(name))

    out: dict[str, Any] = {"dealer": deal.get("dealer"), "contract": deal.get("contract")}
    contract = out["contract"]
    if contract == "trumps":
        trump = deal.get("trump")
        out["trump"] = trump.upper() if isinstance(trump, str) else trump
    doubles = deal.get("doubles")
    if doubles is None:
        doubles = []
    if isinstance(doubles, list):
        norm = []
        for entry in doubles:
            if isinstance(entry, dict):
                norm.append(
                    {
                        "by": entry.get("by"),
                        "against": entry.get("against"),
                        "redoubled": entry.get("redoubled", False),
                    }
                )
            else:
                norm.append(entry)
        norm.sort(
            key=lambda e: (
                (seat_key(e.get("by")), seat_key(e.get("against")))
                if isinstance(e, dict)
                else ((9, ""), (9, repr(e)))
            )
        )
        doubles = norm
    out["doubles"] = doubles
    result = deal.get("result")
    out["result"] = (
        _normalise_result(contract, result, players) if isinstance(result, dict) else result
    )
    return out


def _normalise_cards(cards: object) -> object:
    if not isinstance(cards, list):
        return cards
    parsed = [parse_card(c) or c for c in cards]
    if all(isinstance(c, str) and c in CARD_ORDER for c in parsed):
        return sorted(parsed, key=CARD_ORDER.__getitem__)
    return parsed


def _normalise_result(
    contract: object, result: dict[str, Any], players: list[str]
) -> dict[str, Any]:
    out = dict(result)
    if contract in ("hearts", "queens"):
        taken = result.get(contract)
        if isinstance(taken, dict):
            norm = {p: [] for p in players}
            for name, cards in taken.items():
                norm[name] = _normalise_cards(cards)
            out[contract] = norm
    elif contract in ("no_tricks", "trumps"):
        tricks = result.get("tricks")
        if isinstance(tricks, dict):
            norm = {p: 0 for p in players}
            norm.update(tricks)
            out["tricks"] = norm
    elif contract == "domino":
        order = result.get("order")
        if isinstance(order, list) and len(order) == 3:
            rest = [p for p in players if p not in order]
            if len(rest) == 1:
                out["order"] = [*order, rest[0]]
    return out
