"""Benchmark: Burraco tournament turns validated and scored per second, on one core.

Run from the repository root: `.venv/bin/python bench/bench_burraco.py [--turns N]`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine.burraco import score_match
from scoring.engine.burraco.randommatch import random_turn
from scoring.engine.records import score_record

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
SECTION = "## Burraco engine"
TARGET = 20_000  # three-hand turns per second
MAX_RATIO = 3.0  # engine time / JSON round trip time


def _time(func, records: list[dict]) -> float:
    start = time.perf_counter()
    for record in records:
        func(record)
    return time.perf_counter() - start


def _measure(funcs: dict[str, object], records: list[dict], repeat: int) -> dict[str, object]:
    """Each function over all records, `repeat` rounds taking turns (the machine is shared:
    a slower minute falls on all of them alike); the best round of each in records per
    second, and the median over the rounds of engine time / baseline time."""
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(repeat):
        for name, func in funcs.items():
            times[name].append(_time(func, records))  # type: ignore[arg-type]
    rates = {name: len(records) / min(ts) for name, ts in times.items()}
    ratios = sorted(e / b for e, b in zip(times["engine"], times["baseline"], strict=True))
    return {**rates, "ratio": ratios[len(ratios) // 2]}


def _json_round_trip(record: dict) -> object:
    return json.loads(json.dumps(record))


CASES = (
    # (label, preset, hands per turn, cards given by kind: True, False or mixed None)
    ("fibur, 3 hands, mixed", "fibur", 3, None),
    ("fibur, 3 hands, points", "fibur", 3, False),
    ("fibur, 3 hands, cards by kind", "fibur", 3, True),
    ("international, 3 hands, mixed", "international", 3, None),
    ("fibur, 4 hands, mixed", "fibur", 4, None),
)


def run(turns: int, repeat: int, seed: int) -> list[dict]:
    rows = []
    for label, preset, hands, by_kind in CASES:
        rng = random.Random(seed)
        records = [random_turn(rng, preset, hands, by_kind=by_kind) for _ in range(turns)]
        funcs = {"engine": score_record, "direct": score_match, "baseline": _json_round_trip}
        measured = _measure(funcs, records, repeat)
        rows.append({"label": label, "hands": hands, "turns": turns, **measured})
    return rows


def _ok(row: dict) -> bool:
    return row["ratio"] <= MAX_RATIO and (row["hands"] != 3 or row["engine"] >= TARGET)


def _machine() -> str:
    return (
        f"{platform.machine()}, nproc {os.cpu_count()}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()}"
    )


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "unknown"


def _section(rows: list[dict], turns: int, repeat: int, seed: int, load: str) -> str:
    lines = [
        SECTION,
        "",
        f"`bench/bench_burraco.py --turns {turns} --repeat {repeat} --seed {seed}`, "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; machine: {_machine()}; "
        f"one core; load average at start {load}.",
        "",
        "Each record is a random valid complete tournament turn",
        "(`scoring/engine/burraco/randommatch.py`: hands dealt from the 108 cards by kind,",
        "given as card points, as cards by kind, or mixed per item), validated and scored by",
        "`score_record` (the command's entry: picks the game, then one pass of validation and",
        "scores JSON); `score_match` is the Burraco engine called directly. Baseline:",
        "`json.loads(json.dumps(record))` of the same records in the same run. The three",
        f"take turns, {repeat} rounds over all the records: turns/s from each one's best round,",
        "the ratio is the median over the rounds of engine time ÷ baseline time (the",
        "machine is shared, so a slow minute falls on both alike). Target: ≥",
        f"{TARGET:,} three-hand turns/s and engine time ≤ {MAX_RATIO:g}× the baseline's.",
        "",
        "| turns | engine turns/s | score_match turns/s | baseline turns/s "
        "| engine time ÷ baseline time | target |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['label']} | {r['engine']:,.0f} | {r['direct']:,.0f} | {r['baseline']:,.0f} | "
            f"{r['ratio']:.2f}× | {'met' if _ok(r) else 'MISSED'} |"
        )
    return "\n".join(lines) + "\n"


def write_results(section: str) -> None:
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    pattern = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text).rstrip("\n") + "\n"
    else:
        text = text.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args()
    load = _load()
    rows = run(args.turns, args.repeat, args.seed)
    for r in rows:
        print(
            f"{r['label']:32} engine {r['engine']:8,.0f} turns/s  direct {r['direct']:8,.0f}  "
            f"baseline {r['baseline']:8,.0f}  ratio {r['ratio']:.2f}x  "
            f"{'ok' if _ok(r) else 'BELOW TARGET'}"
        )
    if not args.no_write:
        write_results(_section(rows, args.turns, args.repeat, args.seed, load))
    return 0 if all(_ok(r) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
