"""Reading a Danese standings file: ``{"pairs": [...best first], "last_turn": false}``."""

from __future__ import annotations

import json
import math
from typing import Any

from .danese import PairStanding, Standings
from .errors import MovementError

FIELDS = ("pair", "vp", "mp", "previous", "met", "byes")


def _bad(where: str, detail: str) -> MovementError:
    return MovementError(
        "invalid_standings", f"standings {where}: {detail}", where=where, detail=detail
    )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON value")


def parse_standings_text(text: str) -> Standings:
    """Standings from JSON text; ``MovementError`` naming the first problem."""
    try:
        data = json.loads(text, parse_constant=_not_json)
    except (ValueError, RecursionError) as exc:
        raise MovementError(
            "invalid_standings", f"the standings are not JSON: {exc}", where="", detail=str(exc)
        ) from exc
    return parse_standings(data)


def parse_standings(data: Any) -> Standings:
    """Standings from decoded JSON; ``MovementError`` naming the first problem."""
    if not isinstance(data, dict):
        raise _bad("file", 'expected an object {"pairs": [...], "last_turn": false}')
    unknown = sorted(set(data) - {"pairs", "last_turn"})
    if unknown:
        raise _bad("file", f"unknown key {unknown[0]!r} (expected pairs and last_turn)")
    last_turn = data.get("last_turn", False)
    if not isinstance(last_turn, bool):
        raise _bad("last_turn", f"must be true or false, not {last_turn!r}")
    rows = data.get("pairs")
    if not isinstance(rows, list) or not rows:
        raise _bad("pairs", "must be a non-empty list of pairs, best first")
    pairs: list[PairStanding] = []
    seen: set[int] = set()
    for index, row in enumerate(rows):
        where = f"pairs[{index}]"
        if not isinstance(row, dict):
            raise _bad(where, "must be an object with a pair number")
        unknown = sorted(set(row) - set(FIELDS))
        if unknown:
            raise _bad(where, f"unknown key {unknown[0]!r} (expected {', '.join(FIELDS)})")
        pair = row.get("pair")
        if not _whole(pair) or pair < 1:
            raise _bad(f"{where}.pair", f"must be a pair number of 1 or more, not {pair!r}")
        if pair in seen:
            raise MovementError(
                "duplicate_pair", f"pair {pair} is listed twice in the standings", pair=pair
            )
        seen.add(pair)
        for key in ("vp", "mp"):
            if key in row and not _number(row[key]):
                raise _bad(f"{where}.{key}", f"must be a number, not {row[key]!r}")
        previous = row.get("previous")
        if previous is not None and (not _whole(previous) or previous < 1 or previous == pair):
            raise _bad(
                f"{where}.previous",
                f"must be another pair's number or null, not {previous!r}",
            )
        met = row.get("met", [])
        if not isinstance(met, list) or any(
            not _whole(other) or other < 1 or other == pair for other in met
        ):
            raise _bad(f"{where}.met", f"must be a list of other pairs' numbers, not {met!r}")
        byes = row.get("byes", 0)
        if not _whole(byes) or byes < 0:
            raise _bad(f"{where}.byes", f"must be a whole number of 0 or more, not {byes!r}")
        pairs.append(
            PairStanding(
                pair=pair,
                vp=row.get("vp", 0),
                mp=row.get("mp", 0),
                previous=previous,
                met=frozenset(met) | ({previous} if previous is not None else frozenset()),
                byes=byes,
            )
        )
    return Standings(tuple(pairs), last_turn)
