"""An individual Burraco tournament's turns (docs/rules/burraco.md "Individual tournament"):
players enter alone and each turn seats two players a side, partners changing every turn.

While the players are those of the first turn, the turns follow the pure schedule of
games.burraco.movements.individual for the planned turns, drawn once from the first turn's seed
(everyone partners everyone as evenly as possible, byes rotated). Once the players
changed (a late entry, a withdrawal), each turn is seated from what was played: byes to
the fewest byes, partners and opponents not repeated where possible
(games.burraco.movements.next_individual_turn). No turn is seated past the planned
turns (games/burraco/turns.py refuses it).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.burraco import movements
from games.models import BurracoPair, Event, PairTurnResult

# A table of an individual turn: (table number, NS entry numbers, EW entry numbers).
IndividualTable = tuple[int, tuple[int, int], tuple[int, int]]


def _key(a: int, b: int) -> tuple[int, int]:
    return (min(a, b), max(a, b))


def _history(event: Event) -> dict[str, Any]:
    """Partnerships, oppositions and byes played so far, by entry number (one query)."""
    partnered: Counter[tuple[int, int]] = Counter()
    opposed: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    last_bye: dict[int, int] = {}
    rows = PairTurnResult.objects.filter(round__event=event).values_list(
        "round__number", "pair__number", "partner__number", "opponent__number",
        "opponent_b__number", "bye",
    )  # fmt: skip
    for turn, entry, partner, opponent, opponent_b, bye in rows:
        if bye:
            byes[entry] += 1
            last_bye[entry] = max(last_bye.get(entry, 0), turn)
            continue
        if partner is not None and entry < partner:
            partnered[_key(entry, partner)] += 1
        for other in (opponent, opponent_b):
            if other is not None and entry < other:
                opposed[_key(entry, other)] += 1
    return {"partnered": partnered, "opposed": opposed, "byes": byes, "last_bye": last_bye}


def individual_turn(
    event: Event, playing: list[BurracoPair], number: int, seed: int
) -> tuple[list[IndividualTable], list[int], dict[str, Any]]:
    """Turn ``number``'s tables and byes (entry numbers), and the schedule's state to keep
    in ``event.ranking["individual"]``. Raises movements.MovementError (too few players)."""
    numbers = sorted(p.number for p in playing)
    state = event.ranking.get("individual") or {}
    if number == 1 or not state:
        state = {"seed": seed, "players": numbers}
    planned = int(event.ranking.get("turns") or number)
    if state["players"] == numbers and number <= planned:
        schedule = movements.individual(len(numbers), planned, int(state["seed"]))
        turn = schedule.turns[number - 1]

        def label(side: Any) -> tuple[int, int]:
            return (numbers[side[0] - 1], numbers[side[1] - 1])

        tables = [(t.number, label(t.ns), label(t.ew)) for t in turn.tables]
        return tables, [numbers[b - 1] for b in turn.byes], state
    turn = movements.next_individual_turn(
        numbers, number, seed=int(state["seed"]), **_history(event)
    )
    tables = [(t.number, tuple(t.ns), tuple(t.ew)) for t in turn.tables]  # type: ignore[arg-type]
    return tables, list(turn.byes), state  # type: ignore[return-value]
