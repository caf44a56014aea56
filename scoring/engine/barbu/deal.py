"""One deal: validate it against the rules and score it (raw points and doubles), in one pass."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import Problem
from .cards import CARD_ORDER, CARD_SPELLINGS, HEARTS, QUEENS, RANKS, TRUMPS, parse_card
from .presets import CONTRACT_NAMES, CONTRACTS, POSITIVE_CONTRACTS, Ruleset

_HEART_SET = frozenset(HEARTS)
_QUEEN_SET = frozenset(QUEENS)
_CONTRACT_SET = frozenset(CONTRACTS)
_NO_DOUBLES: list[Any] = []


class DealCheck:
    """What one deal contributed: its contract, raw points, double bets, and who doubled whom."""

    __slots__ = ("adjust", "contract", "doubled_dealer", "doubles_ok", "raw")

    def __init__(self) -> None:
        self.contract: str | None = None
        self.raw: list[int] | None = None
        self.adjust: list[int] | None = None
        # seats of the players who doubled this deal's dealer
        self.doubled_dealer: tuple[int, ...] = ()
        self.doubles_ok = False


def _seat(seats: dict[str, int], value: object) -> int | None:
    return seats.get(value) if type(value) is str else None


def _name(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_deal(
    deal: object,
    number: int,
    ruleset: Ruleset,
    players: list[str],
    seats: dict[str, int],
    dealer: int,
    problems: list[Problem],
) -> DealCheck:
    """Check deal `number` (dealt by seat `dealer` by rotation); append problems, return points."""
    out = DealCheck()
    if type(deal) is not dict:
        problems.append(
            Problem.make(
                number, "deal", "invalid_type", field=f"deal {number}", expected="an object"
            )
        )
        return out
    before = len(problems)

    # dealer
    given = deal.get("dealer")
    if given is None:
        problems.append(Problem.make(number, "dealer", "missing_field", field="dealer"))
    elif given != players[dealer]:
        if _seat(seats, given) is None:
            problems.append(Problem.make(number, "dealer", "unknown_player", name=_name(given)))
        else:
            problems.append(
                Problem.make(
                    number,
                    "dealer",
                    "wrong_dealer",
                    number=number,
                    dealer=given,
                    expected=players[dealer],
                )
            )

    # contract
    contract = deal.get("contract")
    if contract is None:
        problems.append(Problem.make(number, "contract", "missing_field", field="contract"))
        contract = None
    elif type(contract) is not str or contract not in _CONTRACT_SET:
        problems.append(
            Problem.make(number, "contract", "unknown_contract", contract=_name(contract))
        )
        contract = None
    elif contract not in ruleset.contracts:
        problems.append(
            Problem.make(
                number,
                "contract",
                "contract_not_in_ruleset",
                contract=contract,
                contract_name=CONTRACT_NAMES[contract],
            )
        )
        contract = None
    elif contract == "trumps":
        trump = deal.get("trump")
        if trump is None:
            problems.append(Problem.make(number, "trump", "missing_field", field="trump"))
        elif type(trump) is not str or trump.upper() not in TRUMPS:
            problems.append(Problem.make(number, "trump", "unknown_trump", trump=_name(trump)))
        elif trump.upper() == "NT" and not ruleset.trumps_allow_no_trump:
            problems.append(Problem.make(number, "trump", "no_trump_not_allowed"))
    out.contract = contract

    # doubles
    pairs = _check_doubles(deal, number, ruleset, players, seats, dealer, contract, problems, out)

    # result
    raw = None
    if contract is not None:
        result = deal.get("result")
        if result is None:
            problems.append(Problem.make(number, "result", "missing_field", field="result"))
        elif type(result) is not dict:
            problems.append(
                Problem.make(number, "result", "invalid_type", field="result", expected="an object")
            )
        else:
            raw = _RESULT_CHECKS[contract](result, number, ruleset, seats, problems)

    if len(problems) != before or raw is None:
        return out
    out.raw = raw
    adjust = [0, 0, 0, 0]
    for (a, b), mult in pairs.items():
        d = (raw[a] - raw[b]) * mult
        adjust[a] += d
        adjust[b] -= d
    out.adjust = adjust
    return out


def _check_doubles(
    deal: dict[str, Any],
    number: int,
    ruleset: Ruleset,
    players: list[str],
    seats: dict[str, int],
    dealer: int,
    contract: str | None,
    problems: list[Problem],
    out: DealCheck,
) -> dict[tuple[int, int], int]:
    doubles = deal.get("doubles")
    if doubles is None:
        doubles = _NO_DOUBLES
    elif type(doubles) is not list:
        problems.append(
            Problem.make(number, "doubles", "invalid_type", field="doubles", expected="a list")
        )
        return {}
    if not doubles:
        out.doubles_ok = True
        return {}
    before = len(problems)
    pairs: dict[tuple[int, int], int] = {}
    seen = 0  # bit by*4+against set once (by, against) has been read
    shapes = [0, 0, 0, 0]  # per doubler seat: bit set of the seats they doubled
    only_dealer = ruleset.positive_only_dealer and contract in POSITIVE_CONTRACTS
    doubled_dealer = []
    get_seat = seats.get
    for i, entry in enumerate(doubles):
        if type(entry) is not dict:
            where = f"doubles[{i}]"
            problems.append(
                Problem.make(number, where, "invalid_type", field=where, expected="an object")
            )
            continue
        by_name = entry.get("by")
        against_name = entry.get("against")
        by = get_seat(by_name) if type(by_name) is str else None
        against = get_seat(against_name) if type(against_name) is str else None
        redoubled = entry.get("redoubled", False)
        if by is None or against is None or type(redoubled) is not bool:
            _entry_problems(number, i, entry, by, against, problems)
            continue
        if by == against:
            problems.append(
                Problem.make(number, f"doubles[{i}].against", "double_self", player=players[by])
            )
            continue
        bit = 1 << (by * 4 + against)
        if seen & bit:
            problems.append(
                Problem.make(
                    number,
                    f"doubles[{i}]",
                    "double_repeated",
                    by=players[by],
                    against=players[against],
                )
            )
            continue
        seen |= bit
        if by == dealer:
            problems.append(
                Problem.make(
                    number,
                    f"doubles[{i}].by",
                    "dealer_doubles",
                    dealer=players[dealer],
                    against=players[against],
                )
            )
            continue
        if only_dealer and against != dealer:
            problems.append(
                Problem.make(
                    number,
                    f"doubles[{i}].against",
                    "positive_double_not_dealer",
                    by=players[by],
                    against=players[against],
                    contract=contract,
                    contract_name=CONTRACT_NAMES[contract],  # type: ignore[index]
                )
            )
            continue
        if against == dealer:
            doubled_dealer.append(by)
        shapes[by] |= 1 << against
        key = (by, against) if by < against else (against, by)
        # A double in both directions, or a redouble, doubles the bet (never more).
        if key in pairs or redoubled:
            pairs[key] = 2
        else:
            pairs[key] = 1
    if ruleset.double_shape == "german":
        everyone = 15
        for by, mask in enumerate(shapes):
            others = everyone & ~(1 << by)
            family = others & ~(1 << dealer)
            if mask & (mask - 1) and mask != others and mask != family:
                problems.append(
                    Problem.make(
                        number,
                        "doubles",
                        "double_shape",
                        by=players[by],
                        against=", ".join(players[s] for s in range(4) if mask >> s & 1),
                    )
                )
    out.doubled_dealer = tuple(doubled_dealer)
    out.doubles_ok = len(problems) == before
    return pairs


def _entry_problems(
    number: int,
    i: int,
    entry: dict[str, Any],
    by: int | None,
    against: int | None,
    problems: list[Problem],
) -> None:
    where = f"doubles[{i}]"
    for key, seat in (("by", by), ("against", against)):
        name = entry.get(key)
        if name is None:
            problems.append(
                Problem.make(number, f"{where}.{key}", "missing_field", field=f"{where}.{key}")
            )
        elif seat is None:
            problems.append(
                Problem.make(number, f"{where}.{key}", "unknown_player", name=_name(name))
            )
    if type(entry.get("redoubled", False)) is not bool:
        problems.append(
            Problem.make(
                number,
                f"{where}.redoubled",
                "invalid_type",
                field=f"{where}.redoubled",
                expected="true or false",
            )
        )


def _result_player(
    result: dict[str, Any], key: str, number: int, seats: dict[str, int], problems: list[Problem]
) -> int | None:
    name = result.get(key)
    if name is None:
        problems.append(
            Problem.make(number, f"result.{key}", "missing_field", field=f"result.{key}")
        )
        return None
    seat = _seat(seats, name)
    if seat is None:
        problems.append(Problem.make(number, f"result.{key}", "unknown_player", name=_name(name)))
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
        seat = _seat(seats, name)
        if seat is None:
            problems.append(Problem.make(number, where, "unknown_player", name=_name(name)))
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
                        Problem.make(number, f"{where}.{name}", "unknown_card", card=_name(text))
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
        seat = _seat(seats, name)
        if seat is None:
            problems.append(
                Problem.make(number, "result.tricks", "unknown_player", name=_name(name))
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
                    number, f"result.tricks.{name}", "tricks_range", player=name, value=_name(n)
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
        seat = _seat(seats, name)
        if seat is None:
            problems.append(
                Problem.make(number, f"result.order[{i}]", "unknown_player", name=_name(name))
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


_RESULT_CHECKS = {
    "barbu": _result_barbu,
    "hearts": _result_hearts,
    "queens": _result_queens,
    "last_two": _result_last_two,
    "no_tricks": _result_per_trick("no_tricks"),
    "trumps": _result_per_trick("trumps"),
    "domino": _result_domino,
}


def normalise_deal(deal: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """The canonical form of one deal, to compare two submissions of it for equality.

    Cards become upper-case with T for ten and are sorted; doubles get an explicit
    `redoubled` and are sorted in seat order; players left out of a result get their
    empty value; a three-name domino order gets its implied fourth. Best effort: a
    value that cannot be understood is kept as it is, so it still compares unequal.
    """
    if not isinstance(deal, dict):
        return deal
    if not isinstance(players, list) or not all(type(p) is str for p in players):
        players = []
    seats = {name: i for i, name in enumerate(players)}

    def seat_key(name: object) -> tuple[int, str]:
        return (_seat(seats, name) if _seat(seats, name) is not None else 9, repr(name))

    out: dict[str, Any] = {"dealer": deal.get("dealer"), "contract": deal.get("contract")}
    contract = out["contract"]
    if contract == "trumps":
        trump = deal.get("trump")
        out["trump"] = trump.upper() if isinstance(trump, str) else trump
    doubles = deal.get("doubles")
    if doubles is None:
        doubles = []
    if isinstance(doubles, list):
        norm = []
        for entry in doubles:
            if isinstance(entry, dict):
                norm.append(
                    {
                        "by": entry.get("by"),
                        "against": entry.get("against"),
                        "redoubled": entry.get("redoubled", False),
                    }
                )
            else:
                norm.append(entry)
        norm.sort(
            key=lambda e: (
                (seat_key(e.get("by")), seat_key(e.get("against")))
                if isinstance(e, dict)
                else ((9, ""), (9, repr(e)))
            )
        )
        doubles = norm
    out["doubles"] = doubles
    result = deal.get("result")
    out["result"] = (
        _normalise_result(contract, result, players) if isinstance(result, dict) else result
    )
    return out


def _normalise_cards(cards: object) -> object:
    if not isinstance(cards, list):
        return cards
    parsed = [parse_card(c) or c for c in cards]
    if all(isinstance(c, str) and c in CARD_ORDER for c in parsed):
        return sorted(parsed, key=CARD_ORDER.__getitem__)
    return parsed


def _normalise_result(
    contract: object, result: dict[str, Any], players: list[str]
) -> dict[str, Any]:
    out = dict(result)
    if contract in ("hearts", "queens"):
        taken = result.get(contract)
        if isinstance(taken, dict):
            norm = {p: [] for p in players}
            for name, cards in taken.items():
                norm[name] = _normalise_cards(cards)
            out[contract] = norm
    elif contract in ("no_tricks", "trumps"):
        tricks = result.get("tricks")
        if isinstance(tricks, dict):
            norm = {p: 0 for p in players}
            norm.update(tricks)
            out["tricks"] = norm
    elif contract == "domino":
        order = result.get("order")
        if isinstance(order, list) and len(order) == 3:
            rest = [p for p in players if p not in order]
            if len(rest) == 1:
                out["order"] = [*order, rest[0]]
    return out
