"""A Burraco record: pairs, hands in order, the result of a free match or a tournament turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.errors import HandProblem, InvalidGame, Problem
from .hand import LINES, check_hand
from .presets import DEFAULT_PRESET, TURN_HANDS, VP_SCALE, Ruleset, parse_ruleset, vp_of
from .presets import ruleset_to_json as _ruleset_to_json


class Analysis:
    """A record read once: its rule set, turn length, each hand's scores and every problem."""

    __slots__ = ("hands", "hands_per_turn", "problems", "ruleset")

    def __init__(self) -> None:
        self.ruleset: Ruleset | None = None
        self.hands_per_turn: int | None = None
        self.hands: list[dict[str, Any]] = []
        self.problems: list[Problem] = []


def _make(field_: str, code: str, **params: Any) -> Problem:
    return HandProblem.make(None, field_, code, **params)


def _check_pairs(pairs: object, problems: list[Problem]) -> None:
    if pairs is None:
        problems.append(_make("pairs", "missing_field", field="pairs"))
        return
    if type(pairs) is not dict:
        problems.append(_make("pairs", "invalid_type", field="pairs", expected="an object"))
        return
    for key in pairs:
        if key not in LINES:
            problems.append(_make(f"pairs.{key}", "unknown_line", line=str(key)[:60]))
    seen: set[str] = set()
    for line in LINES:
        where = f"pairs.{line}"
        names = pairs.get(line)
        if names is None:
            problems.append(_make(where, "missing_field", field=where))
            continue
        if type(names) is not list:
            problems.append(_make(where, "invalid_type", field=where, expected="a list"))
            continue
        if len(names) != 2:
            problems.append(_make(where, "wrong_pair_size", line=line, count=len(names)))
            continue
        for i, name in enumerate(names):
            at = f"{where}[{i}]"
            if type(name) is not str:
                problems.append(_make(at, "invalid_type", field=at, expected="a name"))
            elif not name.strip():
                problems.append(_make(at, "empty_pair_name", line=line, position=i + 1))
            elif name in seen:
                problems.append(_make(at, "duplicate_player", name=name))
            else:
                seen.add(name)


def _turn_length(value: object, ruleset: Ruleset | None, problems: list[Problem]) -> int | None:
    if value is None:
        return None
    if type(value) is not int or value not in TURN_HANDS:
        shown = value if type(value) is int else repr(value)[:60]
        problems.append(_make("hands_per_turn", "hands_per_turn_range", value=shown))
        return None
    if ruleset is not None and value not in ruleset.vp_tables:
        problems.append(_make("hands_per_turn", "no_vp_table", hands=value))
        return None
    return value


def analyse(record: object) -> Analysis:
    """Read a record once: every problem, and the scores of each hand that has none."""
    out = Analysis()
    problems = out.problems
    if type(record) is not dict:
        problems.append(_make("", "invalid_type", field="the game record", expected="an object"))
        return out
    # docs/rules/burraco.md: `fibur` is the default preset, so a record may leave its rule set out.
    ruleset, ruleset_problems = parse_ruleset(record.get("ruleset", DEFAULT_PRESET))
    problems.extend(ruleset_problems)
    _check_pairs(record.get("pairs"), problems)
    before = len(problems)
    hands_per_turn = _turn_length(record.get("hands_per_turn"), ruleset, problems)
    turn_ok = len(problems) == before
    hands = record.get("hands")
    if hands is None:
        problems.append(_make("hands", "missing_field", field="hands"))
        return out
    if type(hands) is not list:
        problems.append(_make("hands", "invalid_type", field="hands", expected="a list"))
        return out
    if ruleset is None or not turn_ok:
        # Without rules, or not knowing the kind of match, no hand can be judged.
        return out
    out.ruleset = ruleset
    out.hands_per_turn = hands_per_turn
    if hands_per_turn is not None and len(hands) > hands_per_turn:
        problems.append(_make("hands", "too_many_hands", count=len(hands), limit=hands_per_turn))
        hands = hands[:hands_per_turn]
    target = ruleset.target
    free = hands_per_turn is None
    ns_total = ew_total = 0
    known = True  # the totals so far are known (every hand before was valid)
    scored = out.hands
    for index, hand in enumerate(hands):
        number = index + 1
        score = check_hand(hand, number, ruleset, problems)
        if score is None:
            known = False
            continue
        scored.append(score)
        if not (free and known):
            continue
        ns_total += score["NS"]["score"]
        ew_total += score["EW"]["score"]
        if ns_total != ew_total and max(ns_total, ew_total) >= target and number < len(hands):
            problems.append(
                HandProblem.make(
                    number + 1,
                    "hand",
                    "match_over",
                    last=number,
                    winner="NS" if ns_total > ew_total else "EW",
                )
            )
            break
    return out


def validate_match(record: object) -> list[Problem]:
    """Every problem with a Burraco record (an empty list when it is valid); never raises."""
    return analyse(record).problems


def score_match(record: object) -> dict[str, Any]:
    """The docs/rules/format.md Burraco "Scores" JSON of a record; raises InvalidGame listing every
    problem."""
    analysis = analyse(record)
    if analysis.problems:
        raise InvalidGame(analysis.problems)
    return _scores(analysis)


def turn_result(ns: int, ew: int, table: tuple[tuple[int | None, int], ...]) -> dict[str, Any]:
    """A tournament turn's result from its totals: difference, winner (None when level), VP."""
    difference = abs(ns - ew)
    vp = vp_of(table, difference)
    if ns == ew:
        winner = None
        vps = {"NS": vp, "EW": VP_SCALE - vp}
    elif ns > ew:
        winner = "NS"
        vps = {"NS": vp, "EW": VP_SCALE - vp}
    else:
        winner = "EW"
        vps = {"NS": VP_SCALE - vp, "EW": vp}
    return {"difference": difference, "winner": winner, "vp": vps}


# docs/rules/burraco.md "Ways to play a match": the free match's target (2005; clubs also play 1005
# or 1505 on short evenings).
FREE_TARGETS = (2005, 1505, 1005)


@dataclass(frozen=True)
class MatchState:
    """Where a free match stands after its hands: complete once a pair has reached the
    target with the higher total; `needs` is what each line still lacks to reach it (0
    once there; both 0 and level: another hand is played)."""

    ns: int
    ew: int
    target: int
    complete: bool
    winner: str | None
    needs: dict[str, int]


def free_match_state(ns: int, ew: int, target: int) -> MatchState:
    """A free match's state from its totals (docs/rules/burraco.md Decision: if both pairs pass the
    target the higher total wins; level, another hand is played)."""
    complete = ns != ew and max(ns, ew) >= target
    winner = ("NS" if ns > ew else "EW") if complete else None
    return MatchState(
        ns=ns,
        ew=ew,
        target=target,
        complete=complete,
        winner=winner,
        needs={"NS": max(target - ns, 0), "EW": max(target - ew, 0)},
    )


def _scores(analysis: Analysis) -> dict[str, Any]:
    ruleset = analysis.ruleset
    assert ruleset is not None
    hands = analysis.hands
    ns = ew = 0
    for hand in hands:
        ns += hand["NS"]["score"]
        ew += hand["EW"]["score"]
    per_turn = analysis.hands_per_turn
    result: dict[str, Any] | None
    if per_turn is not None:
        complete = len(hands) == per_turn
        result = turn_result(ns, ew, ruleset.vp_tables[per_turn])
    else:
        state = free_match_state(ns, ew, ruleset.target)
        complete = state.complete
        result = {"winner": state.winner} if complete else None
    return {
        "game": "burraco",
        "ruleset": _ruleset_to_json(ruleset),
        "hands": hands,
        "totals": {"NS": ns, "EW": ew},
        "complete": complete,
        "result": result,
    }
