"""What a movement produces: turns of tables (NS against EW) and byes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# A side of a table: one pair number, or (individual tournaments) two player numbers.
Side = int | tuple[int, int]


@dataclass(frozen=True)
class Table:
    """One table of a turn: the NS side against the EW side."""

    number: int
    ns: Side
    ew: Side

    def to_json(self) -> dict[str, Any]:
        def side(value: Side) -> Any:
            return list(value) if isinstance(value, tuple) else value

        return {"table": self.number, "NS": side(self.ns), "EW": side(self.ew)}


@dataclass(frozen=True)
class Turn:
    """One turn: its tables, numbered from 1, and who rests (the bye)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.number,
            "tables": [table.to_json() for table in self.tables],
            "byes": list(self.byes),
        }


@dataclass(frozen=True)
class Schedule:
    """Turns in order; ``to_json`` is what the command prints.

    ``notes`` say in English what the referee should know (a rematch nobody could
    avoid); the command prints them on standard error.
    """

    turns: tuple[Turn, ...]
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"turns": [turn.to_json() for turn in self.turns]}


def make_turn(
    number: int,
    sides: list[tuple[Side, Side]],
    byes: list[int],
    table_numbers: list[int] | None = None,
) -> Turn:
    """A turn whose tables are numbered 1.. in the order given (or by ``table_numbers``)."""
    numbers = table_numbers or list(range(1, len(sides) + 1))
    tables = tuple(Table(n, ns, ew) for n, (ns, ew) in zip(numbers, sides, strict=True))
    return Turn(number, tables, tuple(sorted(byes)))
