"""One Burraco hand: its checks (docs/rules/burraco.md), its score for both lines, and the card
calculator."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...engine.errors import HandProblem, InvalidGame, Problem
from .presets import Ruleset, parse_ruleset

LINES = ("NS", "EW")
OTHER_LINE = {"NS": "EW", "EW": "NS"}
# Card points by kind (high = K to 8, low = 7 to 3) and how many of each two decks hold.
CARD_VALUES: dict[str, int] = {"jokers": 30, "twos": 20, "aces": 15, "high": 10, "low": 5}
DECK_COUNTS: dict[str, int] = {"jokers": 4, "twos": 8, "aces": 8, "high": 48, "low": 40}
ALL_CARDS_POINTS = 1080
BURRACO_CARDS = 7
# The fewest card points a burraco of each kind holds: 7 cards of 5+ (clean); 6 naturals
# and a wild card of 20+ (dirty); 7 naturals and a wild card (semi). A club's own kind
# counts as a clean one (7 cards, no wild card needed).
MIN_POINTS: dict[str, int] = {"clean": 35, "semi": 55, "dirty": 50}
MIN_POINTS_OTHER = 35
WILD_KINDS = ("semi", "dirty")
ITEMS = ("melded", "in_hand", "penalty")
KIND_ORDER = ("jokers", "twos", "aces", "high", "low")
_KIND_SET = frozenset(KIND_ORDER)
# kind -> (its index in KIND_ORDER, its card points)
_KIND_INFO = {kind: (index, CARD_VALUES[kind]) for index, kind in enumerate(KIND_ORDER)}


def card_points(cards: Mapping[str, int]) -> int:
    """The card points of cards counted by kind: {"jokers": 1, "aces": 2} -> 60.

    The calculator's sum: unknown kinds and counts are not checked here (check_hand does).
    """
    return sum(CARD_VALUES[kind] * count for kind, count in cards.items())


class _Line:
    """One line's entries once read: points per item, burracos, pozzetto, cards by kind."""

    __slots__ = (
        "bonus",
        "burracos",
        "by_kind",
        "cards",
        "counts",
        "counts_ok",
        "minimum",
        "ok",
        "points",
        "points_ok",
        "pozzetto",
        "pozzetto_ok",
        "wild",
    )

    def __init__(self) -> None:
        # ok: the whole line can be scored; the others: that part of it was read.
        self.ok = self.points_ok = self.counts_ok = self.pozzetto_ok = True
        self.points = [0, 0, 0]  # melded, in hand, penalty
        self.counts: dict[str, int] = {}
        self.burracos = 0
        self.bonus = 0  # the burracos' bonus (the closing bonus aside)
        self.minimum = 0  # the fewest card points the burracos hold (MIN_POINTS)
        self.pozzetto = False
        # Melded cards and wild cards, when the melded cards are given by kind.
        self.cards: int | None = None
        self.wild: int | None = None
        # Cards of each kind (KIND_ORDER) given by kind on this line, table, hand and
        # penalty together, for the deck limits; None while no item gave them by kind.
        self.by_kind: list[int] | None = None


def _problem(number: int, field_: str, code: str, **params: Any) -> Problem:
    return HandProblem.make(number, field_, code, **params)


def _shown(value: object) -> object:
    """A parameter value as given when it is a whole number, else its short repr."""
    return value if type(value) is int else repr(value)[:60]


def _kinds(
    value: dict[Any, Any], line: str, item: str, number: int, out: _Line, problems: list[Problem]
) -> int | None:
    """Card points of cards given by kind, or None after recording what is wrong."""
    acc = out.by_kind
    if acc is None:
        acc = [0, 0, 0, 0, 0]
    total = cards = wild = 0
    for kind, count in value.items():
        info = _KIND_INFO.get(kind)
        if info is None or type(count) is not int or count < 0:
            break
        index, points = info
        acc[index] += count
        total += points * count
        cards += count
        if index < 2:  # jokers and twos
            wild += count
    else:
        out.by_kind = acc
        if item == "melded":
            out.cards = cards
            out.wild = wild
        return total
    for kind, count in value.items():
        where = f"{line}.{item}.{kind}"
        if kind not in _KIND_SET:
            problems.append(_problem(number, where, "unknown_card_kind", card_kind=str(kind)[:60]))
        elif type(count) is not int or count < 0:
            problems.append(
                _problem(
                    number,
                    where,
                    "invalid_card_count",
                    line=line,
                    item=item,
                    card_kind=kind,
                    value=_shown(count),
                )
            )
    return None


def _item(
    value: object, line: str, item: str, number: int, out: _Line, problems: list[Problem]
) -> int:
    """The card points of one item (melded, in_hand, penalty); 0 after recording a problem."""
    if type(value) is int:
        if value < 0:
            problems.append(
                _problem(
                    number, f"{line}.{item}", "invalid_points", line=line, item=item, value=value
                )
            )
        elif value % 5:
            problems.append(
                _problem(number, f"{line}.{item}", "points_step", line=line, item=item, value=value)
            )
        else:
            return value
    elif type(value) is dict:
        counted = _kinds(value, line, item, number, out, problems)
        if counted is not None:
            return counted
    elif value is None:
        if item == "penalty":
            return 0
        where = f"{line}.{item}"
        problems.append(_problem(number, where, "missing_field", field=where))
    else:
        where = f"{line}.{item}"
        problems.append(
            _problem(number, where, "invalid_type", field=where, expected="card points or cards")
        )
    out.points_ok = False
    return 0


def _read_line(
    entry: object,
    line: str,
    number: int,
    ruleset: Ruleset,
    problems: list[Problem],
) -> _Line | None:
    if entry is None:
        problems.append(_problem(number, line, "missing_field", field=line))
        return None
    if type(entry) is not dict:
        problems.append(_problem(number, line, "invalid_type", field=line, expected="an object"))
        return None
    out = _Line()
    known = ruleset.line_fields
    if not entry.keys() <= known:
        for key in entry:
            if key not in known:
                problems.append(
                    _problem(
                        number,
                        f"{line}.{key}",
                        "unknown_hand_field",
                        line=line,
                        key=str(key)[:60],
                        kinds=", ".join(ruleset.kinds),
                    )
                )
        out.ok = False
    # The common case inline (points as a whole multiple of 5); the rest in _item.
    points = out.points
    value = entry.get("melded")
    if type(value) is int and value >= 0 and not value % 5:
        points[0] = value
    else:
        points[0] = _item(value, line, "melded", number, out, problems)
    value = entry.get("in_hand")
    if type(value) is int and value >= 0 and not value % 5:
        points[1] = value
    else:
        points[1] = _item(value, line, "in_hand", number, out, problems)
    value = entry.get("penalty")
    if value is not None:
        points[2] = _item(value, line, "penalty", number, out, problems)
    counts = out.counts
    bonus = ruleset.bonus
    for kind in ruleset.kinds:
        value = entry.get(kind, 0)
        if type(value) is not int or value < 0:
            problems.append(
                _problem(
                    number,
                    f"{line}.{kind}",
                    "invalid_burraco_count",
                    line=line,
                    kind=kind,
                    value=_shown(value),
                )
            )
            out.counts_ok = False
        elif value:
            counts[kind] = value
            out.burracos += value
            out.bonus += bonus[kind] * value
            out.minimum += MIN_POINTS.get(kind, MIN_POINTS_OTHER) * value
    if not ruleset.semi_clean and "semi" in entry:
        semi = entry["semi"]
        if type(semi) is int and semi > 0:
            problems.append(
                _problem(number, f"{line}.semi", "semi_not_allowed", line=line, count=semi)
            )
            out.counts_ok = False
        elif type(semi) is not int or semi < 0:
            problems.append(
                _problem(
                    number,
                    f"{line}.semi",
                    "invalid_burraco_count",
                    line=line,
                    kind="semi",
                    value=_shown(semi),
                )
            )
            out.counts_ok = False
    pozzetto = entry.get("pozzetto", False)
    if type(pozzetto) is not bool:
        where = f"{line}.pozzetto"
        problems.append(
            _problem(number, where, "invalid_type", field=where, expected="true or false")
        )
        out.pozzetto_ok = False
    else:
        out.pozzetto = pozzetto
    out.ok = out.ok and out.points_ok and out.counts_ok and out.pozzetto_ok
    return out


def _check_line(line: str, out: _Line, number: int, problems: list[Problem]) -> None:
    """A line's melds against its burracos (points always; cards and wild cards by kind)."""
    counts = out.counts
    if not counts or not out.points_ok or not out.counts_ok:
        return
    minimum = out.minimum
    melded = out.points[0]
    if melded < minimum:
        problems.append(
            _problem(
                number,
                f"{line}.melded",
                "melded_below_burracos",
                line=line,
                melded=melded,
                minimum=minimum,
            )
        )
    if out.cards is not None and out.cards < BURRACO_CARDS * out.burracos:
        problems.append(
            _problem(
                number,
                f"{line}.melded",
                "too_few_melded_cards",
                line=line,
                cards=out.cards,
                burracos=out.burracos,
            )
        )
    wild_needed = counts.get("semi", 0) + counts.get("dirty", 0)
    if out.wild is not None and out.wild < wild_needed:
        problems.append(
            _problem(
                number,
                f"{line}.melded",
                "too_few_wild_cards",
                line=line,
                wild=out.wild,
                burracos=wild_needed,
            )
        )


def _score_line(line: str, out: _Line, closed: object, ruleset: Ruleset) -> dict[str, int]:
    melded, in_hand, penalty = out.points
    cards = melded - in_hand - penalty
    bonus = out.bonus + ruleset.bonus["close"] if closed == line else out.bonus
    pozzetto = 0 if out.pozzetto else ruleset.no_pozzetto
    return {"cards": cards, "bonus": bonus, "pozzetto": pozzetto, "score": cards + bonus + pozzetto}


def check_hand(
    hand: object, number: int, ruleset: Ruleset, problems: list[Problem]
) -> dict[str, Any] | None:
    """The hand's scores JSON (docs/rules/format.md), or None after adding every problem to
    `problems`."""
    if type(hand) is not dict:
        problems.append(
            _problem(number, "hand", "invalid_type", field=f"hand {number}", expected="an object")
        )
        return None
    before = len(problems)
    closed = hand.get("closed", problems)  # `problems` stands for "absent" (None means nobody)
    if closed is problems:
        problems.append(_problem(number, "closed", "missing_field", field="closed"))
    elif closed is not None and (type(closed) is not str or closed not in OTHER_LINE):
        problems.append(
            _problem(number, "closed", "invalid_type", field="closed", expected="NS, EW or null")
        )
    ns = _read_line(hand.get("NS"), "NS", number, ruleset, problems)
    ew = _read_line(hand.get("EW"), "EW", number, ruleset, problems)
    for line, out in (("NS", ns), ("EW", ew)):
        if out is None:
            continue
        _check_line(line, out, number, problems)
        if closed != line:
            continue
        if out.pozzetto_ok and not out.pozzetto:
            problems.append(_problem(number, "closed", "close_without_pozzetto", line=line))
        if out.counts_ok:
            if not out.burracos:
                problems.append(_problem(number, "closed", "close_without_burraco", line=line))
            elif ruleset.close_needs_clean and not out.counts.get("clean"):
                problems.append(_problem(number, "closed", "close_without_clean", line=line))
    _check_cards(ns, ew, number, problems)
    if len(problems) != before:
        return None
    assert ns is not None and ew is not None
    return {
        "number": number,
        "closed": closed,
        "NS": _score_line("NS", ns, closed, ruleset),
        "EW": _score_line("EW", ew, closed, ruleset),
    }


def _check_cards(ns: _Line | None, ew: _Line | None, number: int, problems: list[Problem]) -> None:
    """Both lines together: no more card points, nor cards of a kind, than two decks hold.

    The points need both lines read; the kinds are counted wherever they were given (a
    kind already over the limit on what was read is over it whatever the rest says).
    """
    if ns is not None and ew is not None and ns.points_ok and ew.points_ok:
        total = sum(ns.points) + sum(ew.points)
        if total > ALL_CARDS_POINTS:
            problems.append(
                _problem(number, "hand", "cards_over_total", total=total, limit=ALL_CARDS_POINTS)
            )
    ns_kinds = ns.by_kind if ns is not None else None
    ew_kinds = ew.by_kind if ew is not None else None
    if ns_kinds is None and ew_kinds is None:
        return
    for index, kind in enumerate(KIND_ORDER):
        count = (ns_kinds[index] if ns_kinds else 0) + (ew_kinds[index] if ew_kinds else 0)
        limit = DECK_COUNTS[kind]
        if count > limit:
            problems.append(
                _problem(
                    number,
                    "hand",
                    "card_kind_over_total",
                    count=count,
                    card_kind=kind,
                    limit=limit,
                )
            )


@dataclass(frozen=True)
class HandCalculation:
    """The calculator's answer: the hand's scores, or every problem that stops them."""

    score: dict[str, Any] | None
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.score is not None


def calculate_hand(
    closed: str | None,
    ns: Mapping[str, Any],
    ew: Mapping[str, Any],
    ruleset: Ruleset | str | dict[str, Any] = "fibur",
    number: int = 1,
) -> HandCalculation:
    """The table's calculator: each line's cards counted by kind (or points) -> the hand's score.

    `ns`/`ew` hold what a scorer counts: {"melded": {"jokers": 1, "twos": 2, "aces": 3,
    "high": 10, "low": 8}, "in_hand": {...}, "penalty": {...}, "clean": 1, "dirty": 0,
    "semi": 0, "pozzetto": True}. Never raises for bad counts: they come back as problems,
    each with its field and message, so the entry page can show them beside the inputs.
    """
    problems: list[Problem] = []
    parsed, ruleset_problems = parse_ruleset(ruleset)
    if parsed is None:
        return HandCalculation(None, ruleset_problems)
    hand = {"closed": closed, "NS": dict(ns), "EW": dict(ew)}
    score = check_hand(hand, number, parsed, problems)
    return HandCalculation(score, problems)


def score_hand(
    hand: object, ruleset: Ruleset | str | dict[str, Any] = "fibur", number: int = 1
) -> dict[str, Any]:
    """One hand's scores (a docs/rules/format.md "hands" entry); raises InvalidGame listing every
    problem."""
    parsed, problems = parse_ruleset(ruleset)
    if parsed is None:
        raise InvalidGame(problems)
    score = check_hand(hand, number, parsed, problems)
    if score is None:
        raise InvalidGame(problems)
    return score
