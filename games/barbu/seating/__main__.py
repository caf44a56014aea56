"""The seating command: `python -m games.barbu.seating --players N --rounds R` prints a plan as
JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import SeatingError, SeatingRequest, plan_seating
from .plan import METHODS


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, plan, print the JSON; 2 for bad arguments."""
    parser = argparse.ArgumentParser(
        prog="python -m games.barbu.seating",
        description="Seat players 1..N at tables of four for R rounds and print the plan as JSON.",
    )
    parser.add_argument("--players", type=_positive_int, required=True, help="number of players")
    parser.add_argument("--rounds", type=_positive_int, default=1, help="number of rounds")
    parser.add_argument("--seed", type=int, default=0, help="seed for reproducible plans")
    parser.add_argument(
        "--time-limit", type=_positive_float, default=2.0, help="search budget in seconds"
    )
    parser.add_argument("--method", choices=[m for m in METHODS if m != "fixed"], default="mix")
    args = parser.parse_args(argv)
    request = SeatingRequest(
        players=list(range(1, args.players + 1)),
        rounds=args.rounds,
        method=args.method,
        seed=args.seed,
        time_limit=args.time_limit,
    )
    try:
        plan = plan_seating(request)
    except SeatingError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    json.dump(plan.to_json(), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
