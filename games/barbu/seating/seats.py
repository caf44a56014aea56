"""Seat order at a table: who deals first rotates over the evening."""

from __future__ import annotations


def rotate_tables(tables_by_round: list[list[list[int]]], dealt_first: list[int]) -> None:
    """Rotate each table in place so its player who dealt first least often sits in seat 0.

    The cyclic order found by the search is kept; ties go to the earlier seat.
    ``dealt_first`` (indexed by player) is updated round by round, so the plan's
    own earlier rounds count.
    """
    for tables in tables_by_round:
        for table in tables:
            start = min(range(len(table)), key=lambda seat: (dealt_first[table[seat]], seat))
            table[:] = list(table[start:]) + list(table[:start])
        for table in tables:
            dealt_first[table[0]] += 1
