"""Swiss: tables by standings (top four together, and so on), swapping to avoid rematches."""

from __future__ import annotations

from collections.abc import Sequence

# A swap may reach this many tables up or down the standings.
_REACH = 2


def swiss_tables(
    seated: Sequence[int], rank: Sequence[int], player_count: int, met: list[float]
) -> list[list[int]]:
    """Tables of four for one round, best players first.

    ``met`` is the flat ``n * n`` weight of earlier meetings (history plus this
    plan's earlier rounds). At a table where players have met before, a player
    is swapped with one at most two tables away when that lowers the meetings at
    the two tables: the swap removing the most wins, then the one between the
    closest standings. Passes repeat until no swap helps; no randomness.
    """
    n = player_count
    order = sorted(seated, key=lambda p: rank[p])
    tables = [order[i : i + 4] for i in range(0, len(order), 4)]

    def table_cost(table: list[int]) -> float:
        return sum(met[a * n + b] for i, a in enumerate(table) for b in table[i + 1 :])

    for _ in range(4 * len(tables)):
        improved = False
        for ti, table in enumerate(tables):
            if table_cost(table) <= 0:
                continue
            best = None
            for si, a in enumerate(table):
                for tj in range(max(0, ti - _REACH), min(len(tables), ti + _REACH + 1)):
                    if tj == ti:
                        continue
                    other = tables[tj]
                    before = table_cost(table) + table_cost(other)
                    for sj, b in enumerate(other):
                        table[si], other[sj] = b, a
                        gain = before - table_cost(table) - table_cost(other)
                        table[si], other[sj] = a, b
                        if gain > 1e-9:
                            key = (-gain, abs(rank[a] - rank[b]), tj, sj)
                            if best is None or key < best[0]:
                                best = (key, si, tj, sj)
            if best is not None:
                _, si, tj, sj = best
                table[si], tables[tj][sj] = tables[tj][sj], table[si]
                improved = True
        if not improved:
            break
    for table in tables:
        table.sort(key=lambda p: rank[p])
    return tables
