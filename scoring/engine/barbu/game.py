"""A whole game: rotation, contract and mandatory-double bookkeeping, turns, settlement, totals."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import InvalidGame, Problem
from .deal import DealCheck, check_deal
from .presets import (
    CONTRACT_NAMES,
    POSITIVE_CONTRACTS,
    REQUIRED_DOUBLES,
    SETTLEMENT_BASE,
    SETTLEMENT_PENALTY,
    SETTLEMENT_PLACES,
    Ruleset,
    parse_ruleset,
    ruleset_to_json,
)

Number = int | Fraction


class Analysis:
    """A record read once: its rule set, players, per-deal checks and every problem."""

    __slots__ = ("deals", "players", "problems", "ruleset")

    def __init__(self) -> None:
        self.ruleset: Ruleset | None = None
        self.players: list[str] = []
        self.deals: list[DealCheck] = []
        self.problems: list[Problem] = []


def dealer_of(ruleset: Ruleset, number: int) -> int:
    """Seat of the dealer of deal `number` (1-based)."""
    if ruleset.dealer_rotation == "per_turn":
        return (number - 1) // ruleset.deals_per_turn
    return (number - 1) % 4


def deals_of(ruleset: Ruleset, seat: int) -> list[int]:
    """Numbers of the deals the player in `seat` deals over a full game."""
    per_turn = ruleset.deals_per_turn
    if ruleset.dealer_rotation == "per_turn":
        return list(range(seat * per_turn + 1, (seat + 1) * per_turn + 1))
    return list(range(seat + 1, 4 * per_turn + 1, 4))


def _check_players(players: object, problems: list[Problem]) -> list[str] | None:
    if players is None:
        problems.append(Problem.make(None, "players", "missing_field", field="players"))
        return None
    if type(players) is not list:
        problems.append(
            Problem.make(None, "players", "invalid_type", field="players", expected="a list")
        )
        return None
    if len(players) != 4:
        problems.append(Problem.make(None, "players", "wrong_player_count", count=len(players)))
        return None
    before = len(problems)
    for i, name in enumerate(players):
        where = f"players[{i}]"
        if type(name) is not str:
            problems.append(
                Problem.make(None, where, "invalid_type", field=where, expected="a name")
            )
        elif not name.strip():
            problems.append(Problem.make(None, where, "empty_player_name", position=i + 1))
        elif name in players[:i]:
            problems.append(Problem.make(None, where, "duplicate_player", name=name))
    return players if len(problems) == before else None


def analyse(record: object) -> Analysis:
    """Read a record once: every problem, and the points of each deal that has none."""
    out = Analysis()
    problems = out.problems
    if type(record) is not dict:
        problems.append(
            Problem.make(None, "", "invalid_type", field="the game record", expected="an object")
        )
        return out
    if "ruleset" not in record:
        problems.append(Problem.make(None, "ruleset", "missing_field", field="ruleset"))
        ruleset = None
    else:
        ruleset, ruleset_problems = parse_ruleset(record["ruleset"])
        problems.extend(ruleset_problems)
    players = _check_players(record.get("players"), problems)
    deals = record.get("deals")
    if deals is None:
        problems.append(Problem.make(None, "deals", "missing_field", field="deals"))
        return out
    if type(deals) is not list:
        problems.append(
            Problem.make(None, "deals", "invalid_type", field="deals", expected="a list")
        )
        return out
    if ruleset is None or players is None:
        # Without rules or players no deal can be judged; say nothing rather than nonsense.
        return out
    out.ruleset = ruleset
    out.players = players
    limit = ruleset.deals_per_game
    if len(deals) > limit:
        problems.append(
            Problem.make(None, "deals", "too_many_deals", count=len(deals), limit=limit)
        )
        deals = deals[:limit]
    seats = {name: i for i, name in enumerate(players)}
    mandatory = ruleset.mandatory_doubles
    first_use: dict[tuple[int, str], int] = {}
    # doubles_count[dealer][doubler]: deals of that dealer in which doubler doubled them
    doubles_count = [[0, 0, 0, 0] for _ in range(4)]
    doubles_known = [True, True, True, True]
    # dealt[dealer]: that dealer's deals so far; stranded: (dealer, doubler) pairs reported
    dealt = [0, 0, 0, 0]
    per_dealer = ruleset.deals_per_turn
    stranded: set[tuple[int, int]] = set()
    checks = out.deals
    for index, deal in enumerate(deals):
        number = index + 1
        dealer = dealer_of(ruleset, number)
        check = check_deal(deal, number, ruleset, players, seats, dealer, problems)
        checks.append(check)
        contract = check.contract
        if contract is not None:
            key = (dealer, contract)
            first = first_use.get(key)
            if first is None:
                first_use[key] = number
            else:
                problems.append(
                    Problem.make(
                        number,
                        "contract",
                        "contract_repeated",
                        dealer=players[dealer],
                        contract=contract,
                        contract_name=CONTRACT_NAMES[contract],
                        first_deal=first,
                    )
                )
                check.raw = None
        dealt[dealer] += 1
        if not mandatory:
            continue
        if check.doubles_ok:
            row = doubles_count[dealer]
            for by in check.doubled_dealer:
                row[by] += 1
        else:
            doubles_known[dealer] = False
        if not doubles_known[dealer]:
            continue
        _check_mandatory(
            number,
            dealer,
            per_dealer - dealt[dealer],
            doubles_count[dealer],
            players,
            stranded,
            problems,
        )
    return out


def _check_mandatory(
    number: int,
    dealer: int,
    deals_left: int,
    row: list[int],
    players: list[str],
    stranded: set[tuple[int, int]],
    problems: list[Problem],
) -> None:
    """Refuse deal `number` if after it a player can no longer double its dealer enough.

    docs/rules/barbu.md: each other player doubles the dealer in REQUIRED_DOUBLES of the dealer's
    deals. After this deal the dealer still deals `deals_left` times (every preset, both
    rotations: a dealer deals deals_per_turn times in a game); a player who still needs
    more doubles than that can never catch up, so the table would be stranded. The doubles
    still needed exceed the deals left by one at most at the first such deal (one deal
    earlier it was fine, and each deal lowers the deals left by one), so one more double in
    this very deal is the fix: the message says who must double whom here. Reported once
    per pair, at the first deal where it happens.
    """
    for by in range(4):
        if by == dealer or (dealer, by) in stranded:
            continue
        needed = REQUIRED_DOUBLES - row[by]
        if needed > deals_left:
            stranded.add((dealer, by))
            problems.append(
                Problem.make(
                    number,
                    "doubles",
                    "mandatory_double_now",
                    by=players[by],
                    dealer=players[dealer],
                    count=row[by],
                    required=REQUIRED_DOUBLES,
                    deals_left=deals_left,
                )
            )


def validate_game(record: object) -> list[Problem]:
    """Every problem with a game record (an empty list when it is valid); never raises."""
    return analyse(record).problems


def _json_number(value: Number) -> int | float:
    if type(value) is int:
        return value
    if value.denominator == 1:
        return int(value)
    if value.denominator == 2:
        return float(value)
    # Cents (in_cents): a three-way tie shares 50 points three ways.
    return round(float(value), 2)


def in_cents(values: list[Number]) -> list[Number]:
    """Exact values as a score sheet writes them: to the cent, with the same sum.

    Only three-way ties in the italian6 settlement need it (50 or -50 placement points
    shared three ways). Each value is rounded down to the cent and the cents still
    missing from the exact sum go, one each, to the largest remainders, the earlier seat
    first among equal ones: the turn still sums to zero ("dovrà essere in parità"), and
    a tied player gets at most one cent more than another.
    """
    if all(100 % Fraction(v).denominator == 0 for v in values):
        return values
    cents = [Fraction(v) * 100 for v in values]
    floors = [c.numerator // c.denominator for c in cents]
    missing = sum(cents) - sum(floors)
    if missing.denominator != 1:  # the sum itself is not whole cents: nothing to keep
        return [Fraction(round(c), 100) for c in cents]
    order = sorted(range(len(values)), key=lambda i: (floors[i] - cents[i], i))
    for i in order[: int(missing)]:
        floors[i] += 1
    return [Fraction(f, 100) if f % 100 else f // 100 for f in floors]


def settle_turn(scores: list[Number], dealer: int) -> list[Number]:
    """The italian6 settlement added to each player's turn score (+110, placement, penalty)."""
    settlement: list[Number] = []
    for seat in range(4):
        mine = scores[seat]
        higher = sum(1 for s in scores if s > mine)
        tied = sum(1 for s in scores if s == mine)
        shared = sum(SETTLEMENT_PLACES[higher : higher + tied])
        placement: Number = shared // tied if shared % tied == 0 else Fraction(shared, tied)
        settlement.append(SETTLEMENT_BASE + placement)
    dealer_place = 1 + sum(1 for s in range(4) if s != dealer and scores[s] > scores[dealer])
    penalty = SETTLEMENT_PENALTY.get(dealer_place)
    if penalty is not None:
        pay, receive = penalty
        for seat in range(4):
            settlement[seat] += pay if seat == dealer else receive
    return settlement


def score_game(record: dict[str, Any]) -> dict[str, Any]:
    """The docs/rules/format.md "Scores" JSON of a record; raises InvalidGame listing every
    problem."""
    analysis = analyse(record)
    if analysis.problems:
        raise InvalidGame(analysis.problems)
    return _scores(analysis)


def _scores(analysis: Analysis) -> dict[str, Any]:
    ruleset = analysis.ruleset
    assert ruleset is not None
    players = analysis.players
    per_turn = ruleset.deals_per_turn
    settles = ruleset.turn_settlement == "italian6"
    deals_out = []
    turn_deals: list[list[int]] = [[], [], [], []]
    turn_scores: list[list[int]] = [[0, 0, 0, 0] for _ in range(4)]
    p0, p1, p2, p3 = players
    for index, check in enumerate(analysis.deals):
        dealer = dealer_of(ruleset, index + 1)
        r0, r1, r2, r3 = check.raw  # type: ignore[misc]
        a0, a1, a2, a3 = check.adjust  # type: ignore[misc]
        s0, s1, s2, s3 = r0 + a0, r1 + a1, r2 + a2, r3 + a3
        # Literal dicts, not dict(zip()): this loop is most of the time spent scoring.
        deals_out.append(
            {
                "number": index + 1,
                "dealer": players[dealer],
                "contract": check.contract,
                "raw": {p0: r0, p1: r1, p2: r2, p3: r3},
                "doubles": {p0: a0, p1: a1, p2: a2, p3: a3},
                "score": {p0: s0, p1: s1, p2: s2, p3: s3},
            }
        )
        turn_deals[dealer].append(index + 1)
        total = turn_scores[dealer]
        total[0] += s0
        total[1] += s1
        total[2] += s2
        total[3] += s3
    totals: list[Number] = [0, 0, 0, 0]
    turns_out = []
    for dealer in range(4):
        numbers = turn_deals[dealer]
        if not numbers:
            continue
        score = turn_scores[dealer]
        turn: dict[str, Any] = {
            "dealer": players[dealer],
            "deals": numbers,
            "score": dict(zip(players, score, strict=True)),
        }
        turn_total: list[Number] = list(score)
        if settles and len(numbers) == per_turn:
            settlement = in_cents(settle_turn(score, dealer))
            turn_total = [score[s] + settlement[s] for s in range(4)]
            turn["settlement"] = {
                p: _json_number(v) for p, v in zip(players, settlement, strict=True)
            }
        turn["total"] = {p: _json_number(v) for p, v in zip(players, turn_total, strict=True)}
        turns_out.append(turn)
        for seat in range(4):
            totals[seat] += turn_total[seat]
    order = sorted(range(4), key=lambda s: -totals[s])
    return {
        "ruleset": ruleset_to_json(ruleset),
        "complete": len(analysis.deals) == ruleset.deals_per_game,
        "deals": deals_out,
        "turns": turns_out,
        "totals": {p: _json_number(v) for p, v in zip(players, totals, strict=True)},
        "ranking": [players[s] for s in order],
    }


def allowed_doubles(
    ruleset: Ruleset, players: list[str], dealer: int, contract: str
) -> list[dict[str, str]]:
    """Every single (by, against) double the rules allow in this contract."""
    only_dealer = ruleset.positive_only_dealer and contract in POSITIVE_CONTRACTS
    return [
        {"by": players[by], "against": players[against]}
        for by in range(4)
        if by != dealer
        for against in range(4)
        if against != by and (not only_dealer or against == dealer)
    ]


def german_shapes(players: list[str], dealer: int) -> list[list[Any]]:
    """For each non-dealer, the sets of players one German announcement may cover."""
    out: list[list[Any]] = []
    for by in range(4):
        if by == dealer:
            continue
        others = [s for s in range(4) if s != by]
        family = [s for s in others if s != dealer]
        shapes = [[players[s]] for s in others]
        shapes.append([players[s] for s in family])
        shapes.append([players[s] for s in others])
        out.append([players[by], shapes])
    return out


def game_state(record: dict[str, Any]) -> dict[str, Any]:
    """Where a game stands: done or not, and what the next deal's dealer may choose and owes."""
    analysis = analyse(record)
    if analysis.problems:
        raise InvalidGame(analysis.problems)
    return _state(analysis)


class Judgement:
    """A record judged once: its problems; when it has none, its scores and state too."""

    __slots__ = ("problems", "scores", "state")

    def __init__(
        self,
        problems: list[Problem],
        scores: dict[str, Any] | None,
        state: dict[str, Any] | None,
    ) -> None:
        self.problems = problems
        self.scores = scores
        self.state = state


def judge_game(record: object) -> Judgement:
    """validate_game, score_game and game_state of one record, reading it once.

    `problems` is what validate_game returns (never raises); `scores` and `state` are
    what score_game and game_state return, or None when there are problems. A deal
    submission needs all three: this is its single pass over the game.
    """
    analysis = analyse(record)
    if analysis.problems:
        return Judgement(analysis.problems, None, None)
    return Judgement([], _scores(analysis), _state(analysis))


def _state(analysis: Analysis) -> dict[str, Any]:
    ruleset = analysis.ruleset
    assert ruleset is not None
    players = analysis.players
    played = len(analysis.deals)
    total = ruleset.deals_per_game
    state: dict[str, Any] = {
        "complete": played == total,
        "deals_played": played,
        "deals_total": total,
    }
    if played == total:
        state["next"] = None
        return state
    number = played + 1
    dealer = dealer_of(ruleset, number)
    own = [n for n in deals_of(ruleset, dealer) if n <= played]
    used = {analysis.deals[n - 1].contract for n in own}
    left = [c for c in ruleset.contracts if c not in used]
    nxt: dict[str, Any] = {
        "number": number,
        "dealer": players[dealer],
        "contracts_left": left,
        "doubles_allowed": {c: allowed_doubles(ruleset, players, dealer, c) for c in left},
    }
    if ruleset.double_shape == "german":
        shapes = german_shapes(players, dealer)
        nxt["double_shapes"] = {c: shapes for c in left}
    owed = []
    must = []
    if ruleset.mandatory_doubles:
        deals_left = ruleset.deals_per_turn - len(own)
        for by in range(4):
            if by == dealer:
                continue
            count = sum(1 for n in own if by in analysis.deals[n - 1].doubled_dealer)
            needed = REQUIRED_DOUBLES - count
            if needed <= 0:
                continue
            owed.append(
                {
                    "by": players[by],
                    "against": players[dealer],
                    "needed": needed,
                    "deals_left": deals_left,
                }
            )
            if deals_left <= needed:
                must.append({"by": players[by], "against": players[dealer]})
    nxt["doubles_owed"] = owed
    nxt["must_double_now"] = must
    state["next"] = nxt
    return state
