"""Mixing: tables for all rounds at once with the fewest repeat meetings (tabu search).

The state is every round's tables at once. A move swaps two players sitting at
different tables in the same round, one of them in conflict (sitting with
someone already met in the plan or in the history), as in Dotú and Van
Hentenryck's local search for the social golfer problem. The cost is

    sum over pairs of  c * (c - 1) / 2 + c * h

where c is how often the pair meets in the plan and h its history weight, so a
third meeting costs more than a second and older meetings (small h) cost less.
The search starts from a known construction where one fits (see
``constructions``), stops after a fixed amount of work, or as soon as the cost
reaches the proven lower bound; the clock is only a safety cap.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from .constructions import known_rounds

# Work (swaps scored, players scanned) per second of time limit: about a tenth
# of what one core of a 2020s laptop manages, so the budget, not the clock, ends
# the search.
WORK_PER_SECOND = 400_000
# Steps without a new best before restarting from the best; tabu tenure range.
STALL = 60
TENURE = (2, 6)

Tables = list[list[list[int]]]


def pair_weights(player_count: int, history: dict[tuple[int, int], float]) -> list[float]:
    """A flat ``n * n`` matrix of history weights, symmetric, for fast lookups."""
    weights = [0.0] * (player_count * player_count)
    for (a, b), weight in history.items():
        weights[a * player_count + b] += weight
        weights[b * player_count + a] += weight
    return weights


def plan_cost(tables: Tables, player_count: int, history: list[float]) -> float:
    """The search's cost of a seating (see the module docstring)."""
    counts: dict[int, int] = {}
    cost = 0.0
    for round_tables in tables:
        for table in round_tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    key = a * player_count + b if a < b else b * player_count + a
                    c = counts.get(key, 0)
                    cost += c + history[key]
                    counts[key] = c + 1
    return cost


def starting_tables(
    seated: Sequence[Sequence[int]],
    player_count: int,
    history: list[float],
    rng: random.Random,
    use_constructions: bool = True,
) -> Tables:
    """Tables to start the search from: a known construction where one fits, else greedy.

    A construction applies when everybody plays every round. Its players are
    relabelled by a few seeded draws, keeping the draw that sits best with the
    history.
    """
    rounds = len(seated)
    known = known_rounds(player_count) if use_constructions else []
    full = all(len(s) == player_count for s in seated)
    tables: Tables = []
    if known and full:
        has_history = any(history)
        best_labels: list[int] = []
        best_cost = math.inf
        for _ in range(24 if has_history else 1):
            labels = list(range(player_count))
            rng.shuffle(labels)
            if not has_history:
                best_labels = labels
                break
            cost = sum(
                history[labels[a] * player_count + labels[b]]
                for round_tables in known[:rounds]
                for table in round_tables
                for i, a in enumerate(table)
                for b in table[i + 1 :]
            )
            if cost < best_cost:
                best_cost, best_labels = cost, labels
        tables = [
            [[best_labels[p] for p in table] for table in round_tables]
            for round_tables in known[:rounds]
        ]
    met = list(history)
    for round_tables in tables:
        _meet(round_tables, player_count, met)
    for players in seated[len(tables) :]:
        round_tables = _greedy_round(players, player_count, met, rng)
        _meet(round_tables, player_count, met)
        tables.append(round_tables)
    return tables


def _meet(round_tables: list[list[int]], n: int, met: list[float]) -> None:
    for table in round_tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                met[a * n + b] += 1
                met[b * n + a] += 1


def _greedy_round(
    players: Sequence[int], n: int, met: list[float], rng: random.Random
) -> list[list[int]]:
    """One round seated greedily: each player, in a seeded order, joins the first open
    table where they meet nobody again, else the one where they meet the fewest again."""
    order = list(players)
    rng.shuffle(order)
    count = len(order) // 4
    round_tables: list[list[int]] = [[] for _ in range(count)]
    open_tables = list(range(count))
    for p in order:
        base = p * n
        best, best_cost = -1, math.inf
        for t in open_tables:
            cost = 0.0
            for q in round_tables[t]:
                cost += met[base + q]
            if cost < best_cost:
                best, best_cost = t, cost
                if cost <= 0:
                    break
        round_tables[best].append(p)
        if len(round_tables[best]) == 4:
            open_tables.remove(best)
    return round_tables


def tabu_search(
    tables: Tables,
    player_count: int,
    history: list[float],
    rng: random.Random,
    *,
    max_work: int,
    lower_bound: float = 0.0,
    deadline: float | None = None,
) -> tuple[float, int, bool]:
    """Improve ``tables`` in place by tabu search; returns (cost, work done, stopped by clock).

    Each step takes the best swap, over all rounds, of a player in conflict with
    a player at another table (ties drawn from ``rng``). A player just swapped
    in a round is not moved again there as the one in conflict for a few steps,
    unless the swap beats the best seating found. After a stall the search
    restarts from the best seating with a few random swaps.
    ``sums[r][p * tables_r + t]`` holds the weight of ``p``'s meetings with
    table ``t`` of round ``r``, so a swap is scored in O(1). Work counts swaps
    scored and players scanned, so the budget, not the clock, ends the search.
    """
    if plan_cost(tables, player_count, history) <= lower_bound + 1e-9:
        return plan_cost(tables, player_count, history), 0, False
    n = player_count
    rounds = len(tables)
    width = [len(round_tables) for round_tables in tables]
    reload_work = n * sum(width) * 4
    weight: list[float] = []
    where: list[list[int]] = []
    sums: list[list[float]] = []

    def load() -> float:
        """Rebuild weights, positions and sums from ``tables``; returns the cost."""
        weight[:] = history
        cost = 0.0
        for round_tables in tables:
            for table in round_tables:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        cost += weight[a * n + b]
                        weight[a * n + b] += 1
                        weight[b * n + a] += 1
        where[:] = [[-1] * n for _ in range(rounds)]
        for r, round_tables in enumerate(tables):
            for t, table in enumerate(round_tables):
                for p in table:
                    where[r][p] = t
        sums[:] = []
        for r, round_tables in enumerate(tables):
            row = [0.0] * (n * width[r])
            for p in range(n):
                base = p * n
                for t, table in enumerate(round_tables):
                    row[p * width[r] + t] = sum(weight[base + q] for q in table)
            sums.append(row)
        return cost

    cost = load()
    work = reload_work
    movable = [r for r in range(rounds) if width[r] > 1]
    target = lower_bound + 1e-9
    best_cost = cost
    best_tables = [[list(t) for t in round_tables] for round_tables in tables]
    tabu = [[0] * n for _ in range(rounds)]
    step = 0
    last_gain = 0
    stall = STALL
    timed_out = False

    def change(p: int, q: int, d: int) -> None:
        weight[p * n + q] += d
        weight[q * n + p] += d
        for r2 in range(rounds):
            tp, tq = where[r2][p], where[r2][q]
            w2 = width[r2]
            row = sums[r2]
            if tq >= 0:
                row[p * w2 + tq] += d
            if tp >= 0:
                row[q * w2 + tp] += d

    def swap(r: int, a: int, b: int) -> None:
        round_tables = tables[r]
        ga, gb = where[r][a], where[r][b]
        table_a, table_b = round_tables[ga], round_tables[gb]
        for x in table_a:
            if x != a:
                change(a, x, -1)
                change(b, x, 1)
        for y in table_b:
            if y != b:
                change(b, y, -1)
                change(a, y, 1)
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[r][a], where[r][b] = gb, ga
        w2 = width[r]
        row = sums[r]
        for p in range(n):
            d = weight[p * n + b] - weight[p * n + a]
            row[p * w2 + ga] += d
            row[p * w2 + gb] -= d

    while cost > target and work < max_work and movable:
        step += 1
        if deadline is not None and not step & 63 and time.perf_counter() > deadline:
            timed_out = True
            break
        best_delta = math.inf
        choice = None
        ties = 0
        for r in movable:
            w2 = width[r]
            row = sums[r]
            at = where[r]
            banned = tabu[r]
            work += n
            for a in range(n):
                ga = at[a]
                if ga < 0 or row[a * w2 + ga] <= 3 + 1e-9:
                    continue
                own_a = row[a * w2 + ga]
                an = a * n
                a_tabu = banned[a] > step
                for b in range(n):
                    gb = at[b]
                    if gb < 0 or gb == ga:
                        continue
                    work += 1
                    delta = (
                        row[a * w2 + gb]
                        - own_a
                        + row[b * w2 + ga]
                        - row[b * w2 + gb]
                        - 2 * weight[an + b]
                        + 6
                    )
                    if a_tabu and cost + delta >= best_cost - 1e-9:
                        continue
                    if delta < best_delta - 1e-9:
                        best_delta, choice, ties = delta, (r, a, b), 1
                    elif delta <= best_delta + 1e-9:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            choice = (r, a, b)
        if choice is None:
            step_tabu_reset = True
        else:
            step_tabu_reset = False
            r, a, b = choice
            swap(r, a, b)
            work += n + 24 * rounds
            cost += best_delta
            tabu[r][a] = step + rng.randint(*TENURE)
            tabu[r][b] = step + rng.randint(*TENURE)
            if cost < best_cost - 1e-9:
                best_cost = cost
                best_tables = [[list(t) for t in round_tables] for round_tables in tables]
                last_gain = step
        if step_tabu_reset or step - last_gain > stall:
            # Restart from the best seating, shaken by a few random swaps.
            for r in range(rounds):
                tables[r] = [list(t) for t in best_tables[r]]
            cost = load()
            work += reload_work
            for _ in range(1 + rng.randrange(3)):
                r = movable[rng.randrange(len(movable))]
                a = rng.randrange(n)
                b = rng.randrange(n)
                if where[r][a] >= 0 and where[r][b] >= 0 and where[r][a] != where[r][b]:
                    w2, row = width[r], sums[r]
                    ga, gb = where[r][a], where[r][b]
                    delta = (
                        row[a * w2 + gb]
                        - row[a * w2 + ga]
                        + row[b * w2 + ga]
                        - row[b * w2 + gb]
                        - 2 * weight[a * n + b]
                        + 6
                    )
                    swap(r, a, b)
                    cost += delta
            tabu = [[0] * n for _ in range(rounds)]
            last_gain = step
    if best_cost < cost:
        cost = best_cost
        for r in range(rounds):
            tables[r] = [list(t) for t in best_tables[r]]
    return cost, work, timed_out
