"""Random valid game records, for property tests, benchmarks and demo data."""

from __future__ import annotations

import random
from typing import Any

from .cards import HEARTS, QUEENS, SUITS
from .game import dealer_of, deals_of
from .presets import POSITIVE_CONTRACTS, REQUIRED_DOUBLES, Ruleset, parse_ruleset, ruleset_to_json

DEFAULT_NAMES = ("Anna", "Bruno", "Carla", "Dario")


def _spell(rng: random.Random, card: str, messy: bool) -> str:
    if not messy:
        return card
    roll = rng.random()
    if card[0] == "T" and roll < 0.3:
        return "10" + card[1]
    if roll < 0.5:
        return card.lower()
    return card


def _split(rng: random.Random, total: int) -> list[int]:
    counts = [0, 0, 0, 0]
    for _ in range(total):
        counts[rng.randrange(4)] += 1
    return counts


def _result(rng: random.Random, contract: str, players: list[str], messy: bool) -> dict[str, Any]:
    if contract == "barbu":
        return {"king_of_hearts": rng.choice(players)}
    if contract in ("hearts", "queens"):
        cards = HEARTS if contract == "hearts" else QUEENS
        taken: dict[str, list[str]] = {}
        for card in cards:
            taken.setdefault(rng.choice(players), []).append(_spell(rng, card, messy))
        if not messy:
            # a player with none may be listed with an empty list as well as left out
            for p in players:
                if p not in taken and rng.random() < 0.5:
                    taken[p] = []
        return {contract: taken}
    if contract == "last_two":
        return {"twelfth": rng.choice(players), "thirteenth": rng.choice(players)}
    if contract in ("no_tricks", "trumps"):
        counts = _split(rng, 13)
        return {
            "tricks": {
                p: n for p, n in zip(players, counts, strict=True) if n or rng.random() < 0.5
            }
        }
    order = list(players)
    rng.shuffle(order)
    if rng.random() < 0.5:
        order.pop()
    return {"order": order}


def _doubles(
    rng: random.Random,
    ruleset: Ruleset,
    players: list[str],
    dealer: int,
    contract: str,
    must: set[int],
) -> list[dict[str, Any]]:
    """Doubles for one deal; every seat in `must` doubles the dealer."""
    only_dealer = ruleset.positive_only_dealer and contract in POSITIVE_CONTRACTS
    german = ruleset.double_shape == "german"
    targets: dict[int, list[int]] = {}
    for by in range(4):
        if by == dealer:
            continue
        others = [s for s in range(4) if s != by]
        family = [s for s in others if s != dealer]
        if only_dealer:
            options = [[dealer]]
        elif german:
            options = [[s] for s in others] + [family, others]
        else:
            options = [[s] for s in others] + [family, others, [dealer, rng.choice(family)]]
        if by in must:
            options = [o for o in options if dealer in o]
        elif rng.random() < 0.7:
            continue
        targets[by] = rng.choice(options)
    entries = []
    for by, against in targets.items():
        for a in against:
            entry: dict[str, Any] = {"by": players[by], "against": players[a]}
            if rng.random() < 0.15:
                entry["redoubled"] = True
            elif rng.random() < 0.2:
                entry["redoubled"] = False
            entries.append(entry)
    rng.shuffle(entries)
    return entries


def random_game(
    rng: random.Random,
    ruleset_key: str | dict[str, Any] | Ruleset = "italian7",
    *,
    deals: int | None = None,
    players: list[str] | None = None,
    messy: bool = False,
) -> dict[str, Any]:
    """A valid game record under the rule set: a full game, or its first `deals` deals.

    `messy` spells cards in the other accepted ways (lower case, "10H").
    """
    ruleset, problems = parse_ruleset(ruleset_key)
    if ruleset is None:
        raise ValueError(problems)
    names = list(players or DEFAULT_NAMES)
    per_turn = ruleset.deals_per_turn
    total = ruleset.deals_per_game if deals is None else deals
    # Per dealer: a random contract order, and for each opponent the deals where
    # they double the dealer (at least the mandatory count).
    orders = []
    must_at: list[dict[int, set[int]]] = []
    for seat in range(4):
        order = list(ruleset.contracts)
        rng.shuffle(order)
        orders.append(order)
        mine = deals_of(ruleset, seat)
        at: dict[int, set[int]] = {n: set() for n in mine}
        if ruleset.mandatory_doubles:
            for by in range(4):
                if by != seat:
                    # parse_ruleset refuses rules where a dealer deals fewer times
                    for n in rng.sample(mine, REQUIRED_DOUBLES):
                        at[n].add(by)
        must_at.append(at)
    record_deals = []
    for number in range(1, total + 1):
        dealer = dealer_of(ruleset, number)
        position = (
            (number - 1) % per_turn if ruleset.dealer_rotation == "per_turn" else (number - 1) // 4
        )
        contract = orders[dealer][position]
        deal: dict[str, Any] = {"dealer": names[dealer], "contract": contract}
        if contract == "trumps":
            suits = list(SUITS) + (["NT"] if ruleset.trumps_allow_no_trump else [])
            trump = rng.choice(suits)
            deal["trump"] = trump.lower() if messy and rng.random() < 0.3 else trump
        doubles = _doubles(rng, ruleset, names, dealer, contract, must_at[dealer][number])
        if doubles or rng.random() < 0.5:
            deal["doubles"] = doubles
        deal["result"] = _result(rng, contract, names, messy)
        record_deals.append(deal)
    frozen = ruleset_key if isinstance(ruleset_key, str | dict) else ruleset_to_json(ruleset)
    return {"ruleset": frozen, "players": names, "deals": record_deals}
