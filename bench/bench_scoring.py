"""Benchmark: random valid full games validated and scored per second, per preset, on one core."""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.report import machine, write_section
from scoring.engine.barbu import PRESETS, score_game
from scoring.engine.barbu.randomgame import random_game

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
SECTION = "## Scoring engine"
TARGET = 2000


def _rate(func, records: list[dict], repeat: int) -> float:
    """Best-of-`repeat` records per second for func over all records."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for record in records:
            func(record)
        best = min(best, time.perf_counter() - start)
    return len(records) / best


def _json_round_trip(record: dict) -> object:
    return json.loads(json.dumps(record))


def run(games: int, repeat: int, seed: int) -> list[dict]:
    rows = []
    for key in PRESETS:
        rng = random.Random(seed)
        records = [random_game(rng, key, messy=i % 4 == 0) for i in range(games)]
        engine = _rate(score_game, records, repeat)
        baseline = _rate(_json_round_trip, records, repeat)
        rows.append(
            {
                "preset": key,
                "games": games,
                "deals": len(records[0]["deals"]),
                "engine": engine,
                "baseline": baseline,
                "ratio": baseline / engine,
            }
        )
    return rows


def _section(rows: list[dict], games: int, repeat: int, seed: int) -> str:
    lines = [
        SECTION,
        "",
        f"`bench/bench_scoring.py --games {games} --repeat {repeat} --seed {seed}`, "
        f"{datetime.date.today().isoformat()}; machine: {machine()}; one core.",
        "",
        "Each game is a random valid full game (`scoring/engine/barbu/randomgame.py`, a quarter of",
        "them with messy card spellings), validated and scored by `score_game` (one pass:",
        "validation + scores JSON). Baseline: `json.loads(json.dumps(record))` of the same",
        f"records in the same run. Best of {repeat} runs. Target: ≥ {TARGET:,} games/s.",
        "The machine is shared with other jobs, so figures move by about ±30% between runs.",
        "",
        "| preset | deals/game | engine games/s | baseline games/s "
        "| engine time ÷ baseline time | target |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        ok = "met" if r["engine"] >= TARGET else "MISSED"
        lines.append(
            f"| {r['preset']} | {r['deals']} | {r['engine']:,.0f} | {r['baseline']:,.0f} | "
            f"{r['ratio']:.2f}× | {ok} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args()
    rows = run(args.games, args.repeat, args.seed)
    for r in rows:
        print(
            f"{r['preset']:9} engine {r['engine']:8,.0f} games/s  baseline {r['baseline']:8,.0f} "
            f"games/s  ratio {r['ratio']:.2f}x  {'ok' if r['engine'] >= TARGET else 'BELOW TARGET'}"
        )
    if not args.no_write:
        write_section(SECTION, _section(rows, args.games, args.repeat, args.seed))
    return 0 if all(r["engine"] >= TARGET for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
