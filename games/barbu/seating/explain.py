"""Why a seating has the repeat meetings it has: lower bounds and plain sentences."""

from __future__ import annotations

import math
from collections.abc import Sequence

# The most rounds without a repeat meeting, tables of four, everybody playing
# (published social golfer results; 8 and 12 follow from the pigeonhole below).
KNOWN_MAX_ROUNDS = {8: 1, 12: 1, 16: 5, 20: 5, 24: 7, 28: 9, 32: 10}


def repeat_lower_bound(player_count: int, seated: Sequence[Sequence[int]]) -> tuple[int, list[str]]:
    """The fewest repeat meetings any seating of these rounds must have, and why."""
    n = player_count
    rounds = len(seated)
    plays = [0] * n
    for players in seated:
        for p in players:
            plays[p] += 1
    excess = sum(max(0, 3 * s - (n - 1)) for s in plays)
    bound = math.ceil(excess / 2)
    reasons = []
    if bound:
        free = (n - 1) // 3
        reasons.append(
            f"each player meets three others per round but only {n - 1} others are present, "
            f"so at most {free} round{'s' if free != 1 else ''} can be free of repeats and "
            f"these {rounds} rounds force at least {bound}"
        )
    everyone = all(len(players) == n for players in seated)
    tables = n // 4
    if everyone and rounds >= 2 and tables < 4:
        # four players from `tables` first-round tables: spread evenly, they still share
        share = [4 // tables + (1 if i < 4 % tables else 0) for i in range(tables)]
        pairs = sum(k * (k - 1) // 2 for k in share)
        forced = tables * (rounds - 1) * pairs
        reasons.append(
            f"with only {tables} table{'s' if tables > 1 else ''}, every table after the first "
            f"round holds at least {pairs} pair{'s' if pairs > 1 else ''} who already shared "
            f"a table in the first round (at least {forced} in all)"
        )
        bound = max(bound, forced)
    known = KNOWN_MAX_ROUNDS.get(n)
    if everyone and known is not None and rounds > known and bound == 0:
        reasons.append(
            f"no seating of {n} players for more than {known} rounds avoids every repeat "
            "(a known result for the social golfer problem)"
        )
        bound = 1
    return bound, reasons


def repeat_sentences(repeats: int, bound: int, reasons: list[str], remedy: str) -> list[str]:
    """Sentences on how many repeat meetings the plan has and whether they were avoidable."""
    if repeats == 0:
        return ["No pair of players meets twice in this plan."]
    count = f"{repeats} repeat meeting{'s' if repeats > 1 else ''}"
    why = "; ".join(reasons)
    if repeats <= bound:
        return [f"The plan has {count}, the fewest possible: {why}."]
    if bound:
        sentence = f"The plan has {count}. At least {bound} cannot be avoided: {why}."
    else:
        sentence = f"The plan has {count}; none is forced by counting alone."
    return [f"{sentence} {remedy}"]
