"""One deal: validate it against the rules and score it (raw points and doubles), in one pass."""

from __future__ import annotations

from typing import Any

from ..errors import Problem
from .cards import TRUMPS
from .presets import CONTRACT_NAMES, CONTRACTS, POSITIVE_CONTRACTS, Ruleset
from .results import RESULT_CHECKS, seat_of, shown_value

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
        if seat_of(seats, given) is None:
            problems.append(
                Problem.make(number, "dealer", "unknown_player", name=shown_value(given))
            )
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
            Problem.make(number, "contract", "unknown_contract", contract=shown_value(contract))
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
            problems.append(
                Problem.make(number, "trump", "unknown_trump", trump=shown_value(trump))
            )
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
            raw = RESULT_CHECKS[contract](result, number, ruleset, seats, problems)

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
                Problem.make(number, f"{where}.{key}", "unknown_player", name=shown_value(name))
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
