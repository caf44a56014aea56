"""The `python -m scoring` command: read a game record, print its scores or its errors as JSON."""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO

from .engine import InvalidGame, Problem
from .engine.records import score_record

HELP = """\
usage: python -m scoring score FILE
       python -m scoring score -          (read the game record from standard input)

Prints the scores of a game record (docs/rules/format.md) as JSON on standard output:
a Barbu game, or a Burraco match or tournament turn ("game": "burraco").

Exit status:
  0  the game is valid; standard output holds the scores
  2  the record is invalid, unreadable or not JSON, or the command line is wrong;
     standard output holds {"errors": [{"deal", "field", "code", "params", "message"}, ...]}
     (a Burraco record's errors give "hand" instead of "deal")

Nothing but JSON is printed on standard output (except this help).
"""

EXIT_OK = 0
EXIT_INVALID = 2


def _emit(stdout: BinaryIO, payload: dict[str, Any]) -> None:
    try:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate ("\ud800" in the record) has no UTF-8 form: escape it.
        data = json.dumps(payload).encode("ascii")
    stdout.write(data)
    stdout.write(b"\n")
    stdout.flush()


def _errors(*problems: Problem) -> dict[str, Any]:
    return InvalidGame(list(problems)).as_dict()


def _not_json(constant: str) -> Any:
    """Python reads NaN and Infinity, but they are not JSON: refuse them."""
    raise ValueError(f"{constant} is not a JSON value")


def _read(path: str, stdin: BinaryIO) -> bytes:
    if path == "-":
        return stdin.read()
    with open(path, "rb") as handle:
        return handle.read()


def score_command(path: str, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Score the record at `path` ("-" for stdin); write JSON to stdout; return the exit status."""
    try:
        data = _read(path, stdin)
    except OSError as exc:
        _emit(
            stdout,
            _errors(
                Problem.make(None, "", "file_not_found", path=path, detail=exc.strerror or str(exc))
            ),
        )
        return EXIT_INVALID
    try:
        record = json.loads(data.decode("utf-8-sig"), parse_constant=_not_json)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        detail = str(exc) if not isinstance(exc, UnicodeDecodeError) else "it is not UTF-8 text"
        _emit(stdout, _errors(Problem.make(None, "", "invalid_json", detail=detail)))
        return EXIT_INVALID
    try:
        scores = score_record(record)
    except InvalidGame as exc:
        _emit(stdout, exc.as_dict())
        return EXIT_INVALID
    _emit(stdout, scores)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m scoring`; returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    stdout = sys.stdout.buffer
    if args and args[0] in ("-h", "--help", "help"):
        stdout.write(HELP.encode("utf-8"))
        stdout.flush()
        return EXIT_OK
    if len(args) != 2 or args[0] != "score":
        detail = "expected the command score and one file" if args else "no command given"
        sys.stderr.write(HELP)
        _emit(stdout, _errors(Problem.make(None, "", "usage", detail=detail)))
        return EXIT_INVALID
    return score_command(args[1], sys.stdin.buffer, stdout)
