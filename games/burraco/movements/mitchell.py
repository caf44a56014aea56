"""Mitchell movement: NS pairs stay at their table, EW pairs move k tables a turn.

Pairs 1..N. With T = ceil(N / 2) tables, pairs 1..T sit NS at tables 1..T and
never move; pairs T+1..N are EW and start at tables 1, 2, ...; each turn every
EW pair moves ``step`` tables up (from the last table back to table 1). With an
odd N the last EW place is empty: the NS pair it reaches rests that turn (the
bye, a "tavolo zoppo"), so the byes go round the NS line, one pair a turn, and
nobody rests twice before every NS pair has rested once.

Tables keep their numbers: the NS pair of table t is pair t all evening, and the
table of the pair on a bye is left out of that turn's list.

Two NS (or two EW) pairs never meet. An EW pair meets a new NS pair each turn
for T / gcd(step, T) turns; asking for more turns is refused, since from then
on pairs would meet again (and, with an odd N, rest twice while the EW pairs
never rest).
"""

from __future__ import annotations

from math import gcd

from .errors import MovementError
from .schedule import Schedule, make_turn


def mitchell_turns(pairs: int, step: int = 1) -> int:
    """How many turns a Mitchell of ``pairs`` pairs with this step has without a rematch."""
    tables = (pairs + 1) // 2
    return tables // gcd(step, tables)


def mitchell(pairs: int, turns: int, step: int = 1) -> Schedule:
    """The ``turns`` turns of a Mitchell movement for pairs 1..``pairs``."""
    if pairs < 2:
        raise MovementError(
            "too_few_pairs",
            f"a Mitchell needs at least 2 pairs, not {pairs}",
            count=pairs,
            minimum=2,
        )
    if turns < 1:
        raise MovementError("invalid_turns", f"turns must be 1 or more, not {turns}", turns=turns)
    tables = (pairs + 1) // 2
    if step < 1 or (tables > 1 and step >= tables):
        raise MovementError(
            "invalid_step",
            f"the step must be between 1 and {max(tables - 1, 1)} "
            f"(the number of tables less one), not {step}",
            step=step,
            tables=tables,
        )
    maximum = mitchell_turns(pairs, step)
    if turns > maximum:
        raise MovementError(
            "too_many_turns",
            f"a Mitchell of {pairs} pairs at {tables} tables with step {step} has only "
            f"{maximum} turns without pairs meeting again; ask for at most {maximum}"
            + (
                " or choose a step with no common factor with the tables"
                if maximum < tables
                else ""
            ),
            turns=turns,
            maximum=maximum,
            reason="rematch",
        )
    result = []
    for turn in range(turns):
        sides = []
        numbers = []
        byes = []
        for table in range(tables):
            ns = table + 1
            # The EW place that reaches this table: start place + step * turn = table (mod T).
            start = (table - step * turn) % tables
            ew = tables + start + 1
            if ew > pairs:
                byes.append(ns)
                continue
            sides.append((ns, ew))
            numbers.append(table + 1)
        result.append(make_turn(turn + 1, sides, byes, numbers))
    return Schedule(tuple(result))
