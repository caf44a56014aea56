"""The values going in and out of the seating: request, round plans, whole plan."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Player = Hashable

METHODS = ("mix", "swiss", "random", "fixed")


@dataclass(frozen=True)
class SeatingRequest:
    """Everything the seating needs to know, as plain values.

    ``history`` maps a pair of players (``frozenset({a, b})`` or ``(a, b)``) to
    the weight of their past meetings; the caller applies the decay (older
    meetings count less). ``byes_so_far`` and ``dealt_first_so_far`` count what
    happened before this plan. ``standings`` lists players best first (swiss).
    ``fixed_tables`` are the organiser's own tables (fixed). ``time_limit`` is a
    safety cap in seconds; see ``games.barbu.seating`` on determinism.
    """

    players: Sequence[Player]
    rounds: int = 1
    method: str = "mix"
    seed: int = 0
    history: Mapping[Any, float] = field(default_factory=dict)
    byes_so_far: Mapping[Player, int] = field(default_factory=dict)
    dealt_first_so_far: Mapping[Player, int] = field(default_factory=dict)
    standings: Sequence[Player] = ()
    fixed_tables: Sequence[Sequence[Player]] = ()
    time_limit: float = 2.0


@dataclass(frozen=True)
class RoundPlan:
    """One round: tables of exactly four in seat order (seat 0 deals first), and the byes."""

    tables: list[tuple[Player, ...]]
    byes: list[Player]


@dataclass(frozen=True)
class SeatingPlan:
    """A seating for one or more rounds, with how good it is and why.

    ``repeats`` counts the extra meetings inside the plan (a pair meeting three
    times counts two). ``history_repeats`` is the summed history weight of the
    pairs the plan seats together. ``explanation`` holds plain English sentences.
    ``stopped_by_time_limit`` is true when the clock, not the iteration budget,
    ended the search: only then may a rerun give a different plan.
    """

    rounds: list[RoundPlan]
    repeats: int
    history_repeats: float
    explanation: list[str]
    stopped_by_time_limit: bool = False

    def to_json(
        self, number_map: Mapping[Player, Any] | Callable[[Player], Any] | None = None
    ) -> dict[str, Any]:
        """The plan in the command's JSON shape, players renamed by ``number_map`` if given."""
        if number_map is None:

            def name(player: Player) -> Any:
                return player
        elif callable(number_map):
            name = number_map
        else:
            name = number_map.__getitem__
        return {
            "rounds": [
                {
                    "tables": [[name(p) for p in table] for table in round_plan.tables],
                    "byes": [name(p) for p in round_plan.byes],
                }
                for round_plan in self.rounds
            ],
            "repeats": self.repeats,
            "history_repeats": self.history_repeats,
            "explanation": list(self.explanation),
            "stopped_by_time_limit": self.stopped_by_time_limit,
        }
