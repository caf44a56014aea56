"""Benchmark: a Danese no_rematch turn seated for 200 pairs, against a greedy pairing.

Run from the repository root: `python bench/bench_movements.py [--pairs 200] [--repeat 5]`.
Writes the "## Movements" section of bench/RESULTS.md (other sections are kept).
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx

from bench.report import machine, write_section
from games.burraco.movements import PairStanding, Standings, mitchell, next_danese_turn
from games.burraco.movements.matching import _edge_cost

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
SECTION = "## Movements"
TARGET = 1.0  # seconds for one no_rematch turn of 200 pairs


def tournament(pairs: int, danese_turns: int, seed: int) -> Standings:
    """Standings after two Mitchell turns and ``danese_turns`` no_rematch turns, random results."""
    rng = random.Random(seed)
    vp = dict.fromkeys(range(1, pairs + 1), 0)
    mp = dict.fromkeys(range(1, pairs + 1), 0)
    met: dict[int, set[int]] = {p: set() for p in vp}
    previous: dict[int, int | None] = dict.fromkeys(vp)
    byes = dict.fromkeys(vp, 0)

    def play(tables: list[tuple[int, int]], resting: list[int]) -> None:
        for a, b in tables:
            won = rng.randint(0, 20)
            vp[a] += won
            vp[b] += 20 - won
            diff = rng.randrange(-1500, 1505, 5)
            mp[a] += diff
            mp[b] -= diff
            met[a].add(b)
            met[b].add(a)
            previous[a], previous[b] = b, a
        for p in resting:
            vp[p] += 14
            byes[p] += 1
            previous[p] = None

    def standings() -> Standings:
        order = sorted(vp, key=lambda p: (-vp[p], -mp[p], p))
        return Standings(
            tuple(
                PairStanding(p, vp[p], mp[p], previous[p], frozenset(met[p]), byes[p])
                for p in order
            )
        )

    for turn in mitchell(pairs, 2).turns:
        play([(t.ns, t.ew) for t in turn.tables], list(turn.byes))  # type: ignore[misc]
    for _ in range(danese_turns):
        (turn,) = next_danese_turn(standings(), "no_rematch").turns
        play([(t.ns, t.ew) for t in turn.tables], list(turn.byes))  # type: ignore[misc]
    return standings()


def greedy(standings: Standings) -> list[tuple[int, int]]:
    """One pass top down: each pair takes the next one below it not met before, if any."""
    fewest = min(p.byes for p in standings.pairs)
    bye = [p for p in standings.pairs if p.byes == fewest][-1] if len(standings.pairs) % 2 else None
    playing = [p for p in standings.pairs if p is not bye]
    free = list(range(len(playing)))
    tables = []
    while free:
        first = free.pop(0)
        pick = next((i for i in free if playing[i].pair not in playing[first].met), free[0])
        free.remove(pick)
        tables.append((playing[first].pair, playing[pick].pair))
    return tables


def quality(standings: Standings, tables: list[tuple[int, int]]) -> tuple[int, int]:
    """(rematches, sum of rank distances between opponents), ranks among the pairs playing."""
    seated = {p for table in tables for p in table}
    playing = [p for p in standings.pairs if p.pair in seated]
    rank = {p.pair: r for r, p in enumerate(playing)}
    met = {p.pair: p.met for p in playing}
    return (
        sum(b in met[a] for a, b in tables),
        sum(abs(rank[a] - rank[b]) for a, b in tables),
    )


def full_graph(standings: Standings) -> float:
    """Seconds for networkx's blossom on the complete graph (no pruning), for comparison."""
    playing = list(standings.pairs)[: len(standings.pairs) // 2 * 2]
    count = len(playing)
    graph = nx.Graph()
    for a in range(count):
        for b in range(a + 1, count):
            rematch = playing[b].pair in playing[a].met
            graph.add_edge(a, b, weight=-_edge_cost(b - a, rematch, count))
    started = time.perf_counter()
    nx.max_weight_matching(graph, maxcardinality=True)
    return time.perf_counter() - started


def _timed(func, repeat: int) -> tuple[float, float, object]:
    samples, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = func()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples), max(samples), result


def run(pairs: int, repeat: int, seed: int) -> list[dict]:
    rows = []
    for danese_turns in (2, 6):
        standings = tournament(pairs, danese_turns, seed)
        ours, ours_worst, schedule = _timed(
            lambda s=standings: next_danese_turn(s, "no_rematch"), repeat
        )
        (turn,) = schedule.turns  # type: ignore[attr-defined]
        tables = [(t.ns, t.ew) for t in turn.tables]
        base, _, base_tables = _timed(lambda s=standings: greedy(s), repeat)
        rows.append(
            {
                "played": 2 + danese_turns,
                "ours": ours,
                "ours_worst": ours_worst,
                "ours_quality": quality(standings, tables),
                "greedy": base,
                "greedy_quality": quality(standings, base_tables),  # type: ignore[arg-type]
                "full": full_graph(standings),
            }
        )
    return rows


def _section(rows: list[dict], pairs: int, repeat: int, seed: int) -> str:
    lines = [
        SECTION,
        "",
        f"`bench/bench_movements.py --pairs {pairs} --repeat {repeat} --seed {seed}`, "
        f"{datetime.date.today().isoformat()}; machine: {machine()}, networkx {nx.__version__}; "
        "load average at start "
        f"{os.getloadavg()[0]:.1f} (the machine is shared: times move between runs).",
        "",
        f"Standings of {pairs} pairs after two Mitchell turns and then no_rematch Danese turns",
        "with random results; measured: the next no_rematch turn (`next_danese_turn`, an exact",
        "minimum-cost matching on the pruned graph, `games/burraco/movements/matching.py`),",
        "median and",
        f"worst of {repeat}. Baseline in the same run: a greedy pass over the same standings",
        "(each pair takes the next one below it not met before; what is left meets whoever is",
        "left). Quality: rematches / sum of rank distances between opponents (lower is better).",
        "`complete graph`: the same matching without the pruning (one run), for comparison.",
        f"Target: under {TARGET:g} s.",
        "",
        "| turns played | no_rematch | worst | quality | greedy | greedy quality "
        "| complete graph | target |",
        "|---:|---:|---:|---|---:|---|---:|---|",
    ]
    for r in rows:
        ok = "met" if r["ours_worst"] < TARGET else "MISSED"
        lines.append(
            f"| {r['played']} | {r['ours'] * 1000:.0f} ms | {r['ours_worst'] * 1000:.0f} ms "
            f"| {r['ours_quality'][0]} / {r['ours_quality'][1]} | {r['greedy'] * 1000:.2f} ms "
            f"| {r['greedy_quality'][0]} / {r['greedy_quality'][1]} "
            f"| {r['full'] * 1000:.0f} ms | {ok} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args()
    rows = run(args.pairs, args.repeat, args.seed)
    for r in rows:
        print(
            f"{r['played']} turns played: no_rematch {r['ours'] * 1000:.0f} ms (worst "
            f"{r['ours_worst'] * 1000:.0f} ms) quality {r['ours_quality']}; greedy "
            f"{r['greedy'] * 1000:.2f} ms quality {r['greedy_quality']}; complete graph "
            f"{r['full'] * 1000:.0f} ms"
        )
    if not args.no_write:
        write_section(SECTION, _section(rows, args.pairs, args.repeat, args.seed))
    return 0 if all(r["ours_worst"] < TARGET for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
