"""The movements command: `python -m games.burraco.movements --method ...` prints the turns as JSON.

Exit status 0 with ``{"turns": [...]}`` on standard output; 2 for a bad command
line or bad input, with the message on standard error and
``{"errors": [{"code", "params", "message"}]}`` on standard output.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from . import (
    VARIANTS,
    MovementError,
    individual,
    mitchell,
    next_danese_turn,
    parse_standings_text,
    round_robin,
)

PROG = "python -m games.burraco.movements"
METHODS = ("mitchell", "round_robin", "individual", "danese")
EXIT_INVALID = 2

# Which options each method takes (beyond --method); the first list is required.
OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "mitchell": (("pairs", "turns"), ("step",)),
    "round_robin": (("pairs", "turns"), ("groups",)),
    "individual": (("players", "turns"), ("seed",)),
    "danese": (("variant", "standings"), ()),
}


def _fail(code: str, message: str, **params: Any) -> NoReturn:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    json.dump({"errors": [{"code": code, "params": params, "message": message}]}, sys.stdout)
    sys.stdout.write("\n")
    sys.exit(EXIT_INVALID)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        _fail("usage", message, detail=message)


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except OSError as exc:
        _fail(
            "file_not_found",
            f"cannot read the standings file {path}: {exc.strerror or exc}",
            path=path,
        )
    except UnicodeDecodeError:
        _fail("invalid_standings", f"the standings file {path} is not UTF-8 text", path=path)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, seat the turns, print the JSON; 2 for bad input."""
    parser = _Parser(
        prog=PROG,
        description="Seat the turns of a Burraco tournament and print them as JSON.",
        epilog="Exit status: 0, the turns on standard output; 2, bad input (the message on "
        'standard error, {"errors": [...]} on standard output).',
    )
    parser.add_argument("--method", choices=METHODS, required=True)
    parser.add_argument("--pairs", type=_whole, help="pairs 1..N (mitchell, round_robin)")
    parser.add_argument("--players", type=_whole, help="players 1..N (individual)")
    parser.add_argument("--turns", type=_whole, help="number of turns")
    parser.add_argument("--step", type=_whole, help="tables the EW pairs move (mitchell; 1)")
    parser.add_argument("--groups", type=_whole, help="groups (round_robin; 1)")
    parser.add_argument("--seed", type=_whole, help="draw for the players' order (individual; 0)")
    parser.add_argument("--variant", choices=VARIANTS, help="Danese variant")
    parser.add_argument("--standings", metavar="FILE", help="Danese standings JSON ('-': stdin)")
    args = parser.parse_args(argv)
    required, optional = OPTIONS[args.method]
    for name in ("pairs", "players", "turns", "step", "groups", "seed", "variant", "standings"):
        given = getattr(args, name) is not None
        if name in required and not given:
            parser.error(f"--method {args.method} needs --{name}")
        if given and name not in required + optional:
            parser.error(f"--{name} does not apply to --method {args.method}")
    try:
        if args.method == "mitchell":
            schedule = mitchell(args.pairs, args.turns, 1 if args.step is None else args.step)
        elif args.method == "round_robin":
            schedule = round_robin(args.pairs, args.turns, args.groups or 1)
        elif args.method == "individual":
            schedule = individual(args.players, args.turns, args.seed or 0)
        else:
            standings = parse_standings_text(_read(args.standings))
            schedule = next_danese_turn(standings, args.variant)
    except MovementError as error:
        _fail(error.code, error.message, **error.params)
    for note in schedule.notes:
        print(f"{PROG}: note: {note}", file=sys.stderr)
    json.dump(schedule.to_json(), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
