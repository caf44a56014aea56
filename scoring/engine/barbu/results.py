"""The result of each contract: checked against the cards and tricks, turned into raw points."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import Problem
from .cards import CARD_ORDER, CARD_SPELLINGS, HEARTS, QUEENS, RANKS, parse_card
from .presets import Ruleset

_HEART_SET = frozenset(HEARTS)
_QUEEN_SET = frozenset(QUEENS)


def seat_of(seats: dict[str, int], value: object) -> int | None:
    """The seat of the player named `value`, or None when it names nobody at this table."""
    return seats.get(value) if type(value) is str else None


def shown_value(value: object) -> str:
    """A value as a message quotes it: text as it is, anything else as Python shows it,
    cut to 60 characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _result_player(
    result: dict[str, Any], key: str, number: int, seats: dict[str, int], problems: list[Problem]
) -> int | None:
    name = result.get(key)
    if name is None:
        problems.append(
            Problem.make(number, f"result.{key}", "missing_field", field=f"result.{key}")
        )
        return None
    seat = seat_of(seats, name)
    if seat is None:
        problems.append(
            Problem.make(number, f"result.{key}", "unknown_player", name=shown_value(name))
        )
    return seat


def _result_barbu(
    result: dict[str, Any],
    number: int,
    ruleset: Ruleset,
    seats: dict[str, int],
    problems: list[Problem],
) -> list[int] | None:
    taker = _result_player(result, "king_of_hearts", number, seats, problems)
    if taker is None:
        return None
    raw = [0, 0, 0, 0]
    raw[taker] = ruleset.points["barbu"]
    return raw


def _taken_cards(
    result: dict[str, Any],
    key: str,
    wanted: frozenset[str],
    not_code: str,
    number: int,
    seats: dict[str, int],
    problems: list[Problem],
) -> list[list[str]] | None:
    """Cards per seat for hearts/queens; every wanted card exactly once."""
    taken = result.get(key)
    where = f"result.{key}"
    if taken is None:
        problems.append(Problem.make(number, where, "missing_field", field=where))
        return None
    if type(taken) is not dict:
        problems.append(
            Problem.make(number, where, "invalid_type", field=where, expected="an object")
        )
        return None
    before = len(problems)
    per_seat: list[list[str]] = [[], [], [], []]
    seen: set[str] = set()
    spellings = CARD_SPELLINGS
    for name, cards in taken.items():
        seat = seat_of(seats, name)
        if seat is None:
            problems.append(Problem.make(number, where, "unknown_player", name=shown_value(name)))
            continue
        if type(cards) is not list:
            problems.append(
                Problem.make(
                    number,
                    f"{where}.{name}",
                    "invalid_type",
                    field=f"{where}.{name}",
                    expected="a list of cards",
                )
            )
            continue
        mine = per_seat[seat]
        for text in cards:
            card = spellings.get(text) if type(text) is str else None
            if card is None:
                card = parse_card(text)
                if card is None:
                    problems.append(
                        Problem.make(
                            number, f"{where}.{name}", "unknown_card", card=shown_value(text)
                        )
                    )
                    continue
            if card not in wanted:
                problems.append(Problem.make(number, f"{where}.{name}", not_code, card=card))
            elif card in seen:
                problems.append(Problem.make(number, where, "card_repeated", card=card))
            else:
                seen.add(card)
                mine.append(card)
    if len(seen) != len(wanted) and len(problems) == before:
        missing = sorted(wanted - seen, key=CARD_ORDER.__getitem__)
        problems.append(
            Problem.make(
                number, where, "cards_missing", cards=", ".join(missing), count=len(missing)
            )
        )
    if len(problems) != before:
        return None
    return per_seat


_HEART_INDEX = {rank + "H": i for i, rank in enumerate(RANKS)}


def _result_hearts(
    result: dict[str, Any],
    number: int,
    ruleset: Ruleset,
    seats: dict[str, int],
    problems: list[Problem],
) -> list[int] | None:
    per_seat = _taken_cards(result, "hearts", _HEART_SET, "not_a_heart", number, seats, problems)
    if per_seat is None:
        return None
    values = ruleset.points["hearts"]
    index = _HEART_INDEX
    return [sum(values[index[c]] for c in cards) for cards in per_seat]


def _result_queens(
    result: dict[str, Any],
    number: int,
    ruleset: Ruleset,
    seats: dict[str, int],
    problems: list[Problem],
) -> list[int] | None:
    per_seat = _taken_cards(result, "queens", _QUEEN_SET, "not_a_queen", number, seats, problems)
    if per_seat is None:
        return None
    each = ruleset.points["queens"]
    return [each * len(cards) for cards in per_seat]


def _result_last_two(
    result: dict[str, Any],
    number: int,
    ruleset: Ruleset,
    seats: dict[str, int],
    problems: list[Problem],
) -> list[int] | None:
    twelfth = _result_player(result, "twelfth", number, seats, problems)
    thirteenth = _result_player(result, "thirteenth", number, seats, problems)
    if twelfth is None or thirteenth is None:
        return None
    p12, p13 = ruleset.points["last_two"]
    raw = [0, 0, 0, 0]
    raw[twelfth] += p12
    raw[thirteenth] += p13
    return raw


def _tricks(
    result: dict[str, Any], number: int, seats: dict[str, int], problems: list[Problem]
) -> list[int] | None:
    tricks = result.get("tricks")
    if tricks is None:
        problems.append(
            Problem.make(number, "result.tricks", "missing_field", field="result.tricks")
        )
        return None
    if type(tricks) is not dict:
        problems.append(
            Problem.make(
                number, "result.tricks", "invalid_type", field="result.tricks", expected="an object"
            )
        )
        return None
    before = len(problems)
    counts = [0, 0, 0, 0]
    for name, n in tricks.items():
        seat = seat_of(seats, name)
        if seat is None:
            problems.append(
                Problem.make(number, "result.tricks", "unknown_player", name=shown_value(name))
            )
        elif type(n) is not int:
            problems.append(
                Problem.make(
                    number,
                    f"result.tricks.{name}",
                    "invalid_type",
                    field=f"tricks of {name}",
                    expected="a whole number",
                )
            )
        elif not 0 <= n <= 13:
            problems.append(
                Problem.make(
                    number,
                    f"result.tricks.{name}",
                    "tricks_range",
                    player=name,
                    value=shown_value(n),
                )
            )
        else:
            counts[seat] = n
    if len(problems) != before:
        return None
    total = counts[0] + counts[1] + counts[2] + counts[3]
    if total != 13:
        problems.append(Problem.make(number, "result.tricks", "tricks_total", total=total))
        return None
    return counts


def _result_per_trick(key: str) -> Callable[..., list[int] | None]:
    """The check of `no_tricks` or `trumps`: points per trick taken."""

    def check(
        result: dict[str, Any],
        number: int,
        ruleset: Ruleset,
        seats: dict[str, int],
        problems: list[Problem],
    ) -> list[int] | None:
        counts = _tricks(result, number, seats, problems)
        if counts is None:
            return None
        each = ruleset.points[key]
        return [each * n for n in counts]

    return check


def _domino_order(
    result: dict[str, Any], number: int, seats: dict[str, int], problems: list[Problem]
) -> list[int] | None:
    order = result.get("order")
    if order is None:
        problems.append(Problem.make(number, "result.order", "missing_field", field="result.order"))
        return None
    if type(order) is not list:
        problems.append(
            Problem.make(
                number,
                "result.order",
                "invalid_type",
                field="result.order",
                expected="a list of names",
            )
        )
        return None
    if len(order) not in (3, 4):
        problems.append(
            Problem.make(number, "result.order", "domino_order_length", count=len(order))
        )
        return None
    before = len(problems)
    places: list[int] = []
    for i, name in enumerate(order):
        seat = seat_of(seats, name)
        if seat is None:
            problems.append(
                Problem.make(number, f"result.order[{i}]", "unknown_player", name=shown_value(name))
            )
        elif seat in places:
            problems.append(
                Problem.make(number, f"result.order[{i}]", "domino_order_repeated", name=name)
            )
        else:
            places.append(seat)
    if len(problems) != before:
        return None
    if len(places) == 3:
        places.append(6 - places[0] - places[1] - places[2])
    return places


def _result_domino(
    result: dict[str, Any],
    number: int,
    ruleset: Ruleset,
    seats: dict[str, int],
    problems: list[Problem],
) -> list[int] | None:
    places = _domino_order(result, number, seats, problems)
    if places is None:
        return None
    raw = [0, 0, 0, 0]
    for seat, pts in zip(places, ruleset.domino_points, strict=True):
        raw[seat] = pts
    return raw


RESULT_CHECKS = {
    "barbu": _result_barbu,
    "hearts": _result_hearts,
    "queens": _result_queens,
    "last_two": _result_last_two,
    "no_tricks": _result_per_trick("no_tricks"),
    "trumps": _result_per_trick("trumps"),
    "domino": _result_domino,
}
