"""plan_seating: validate a request, choose byes, seat the tables, explain the result."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence

from . import mixing
from .byes import BYE_RULE, choose_byes
from .constructions import known_rounds
from .errors import SeatingError
from .explain import repeat_lower_bound, repeat_sentences
from .plan import METHODS, Player, RoundPlan, SeatingPlan, SeatingRequest
from .seats import rotate_tables
from .swiss import swiss_tables

Tables = list[list[list[int]]]

# The search keeps a few players-by-players matrices: 1,000 players take ~25 MB.
MAX_PLAYERS = 1000


# How far past its time limit a search may run before the clock stops it (a busy
# machine), so that the same seed gives the same plan whenever at all possible.
SAFETY_FACTOR = 3.0


def plan_seating(request: SeatingRequest) -> SeatingPlan:
    """Seat ``request.rounds`` rounds of tables of four; see ``games.barbu.seating`` for the
    rules."""
    started = time.perf_counter()
    players = _check_players(request.players)
    n = len(players)
    index = {p: i for i, p in enumerate(players)}
    method, rounds = _check_options(request)
    history = _check_history(request.history, index)
    weights = mixing.pair_weights(n, history)
    rng = random.Random(request.seed)
    byes_so_far = [_count(request.byes_so_far, p, "byes_so_far") for p in players]
    dealt = [_count(request.dealt_first_so_far, p, "dealt_first_so_far") for p in players]
    explanation = []
    timed_out = False

    if method == "fixed":
        tables, byes = _fixed_round(request, index)
        tables_by_round, byes_by_round = [tables], [byes]
    else:
        rank = _ranks(request.standings, index) if method == "swiss" else None
        byes_by_round = choose_byes(
            player_count=n,
            rounds=rounds,
            byes_so_far=byes_so_far,
            rank=rank,
            rng=rng,
        )
        seated = [_seated(n, byes) for byes in byes_by_round]
        if method == "mix":
            bound, _ = repeat_lower_bound(n, seated)
            tables_by_round = mixing.starting_tables(seated, n, weights, rng)
            _, _, timed_out = mixing.tabu_search(
                tables_by_round,
                n,
                weights,
                rng,
                max_work=int(request.time_limit * mixing.WORK_PER_SECOND),
                lower_bound=bound,
                # The work budget is what makes a plan reproducible; the clock is only a
                # safety cap for a machine far slower or busier than the budget assumes.
                deadline=started + SAFETY_FACTOR * request.time_limit + 1.0,
            )
        elif method == "swiss":
            assert rank is not None
            met = list(weights)
            tables_by_round = []
            for players_in in seated:
                tables = swiss_tables(players_in, rank, n, met)
                for table in tables:
                    for i, a in enumerate(table):
                        for b in table[i + 1 :]:
                            met[a * n + b] += 1
                            met[b * n + a] += 1
                tables_by_round.append(tables)
        else:
            tables_by_round = []
            for players_in in seated:
                order = list(players_in)
                rng.shuffle(order)
                tables_by_round.append([order[i : i + 4] for i in range(0, len(order), 4)])
        rotate_tables(tables_by_round, dealt)

    repeats, history_weight = _meetings(tables_by_round, n, weights)
    seated = [[p for table in tables for p in table] for tables in tables_by_round]
    bound, reasons = repeat_lower_bound(n, seated)
    explanation.append(_summary(n, tables_by_round, byes_by_round))
    if any(byes_by_round) and method != "fixed":
        explanation.append(BYE_RULE)
    explanation.append(_METHOD_SENTENCES[method])
    design = len(known_rounds(n)) if method == "mix" and n % 4 == 0 else 0
    if design:
        explanation.append(
            f"The search starts from a known design seating {n} players for {design} rounds "
            "without any repeat meeting."
        )
    remedy = _REMEDIES[method]
    if method != "fixed" and all(len(tables) <= 1 for tables in tables_by_round):
        remedy = "With one table per round, the byes decide who plays together."
    explanation += repeat_sentences(repeats, bound, reasons, remedy)
    if history:
        explanation.append(_history_sentence(tables_by_round, n, weights))
    if method != "fixed":
        explanation.append(
            "At each table the player who has dealt first least often sits in seat 1 and "
            "deals first."
        )
    if timed_out:
        explanation.append(
            "The search was stopped by the time limit, so running it again may give a "
            "different seating."
        )
    return SeatingPlan(
        rounds=[
            RoundPlan(
                tables=[tuple(players[p] for p in table) for table in tables],
                byes=[players[p] for p in byes],
            )
            for tables, byes in zip(tables_by_round, byes_by_round, strict=True)
        ],
        repeats=repeats,
        history_repeats=history_weight,
        explanation=explanation,
        stopped_by_time_limit=timed_out,
    )


_METHOD_SENTENCES = {
    "mix": "Tables mix the players so that as few pairs as possible meet again, in this "
    "plan and since earlier meetings.",
    "swiss": "Tables follow the standings, the top four together and so on, with players "
    "swapped between nearby tables to avoid rematches.",
    "random": "Tables were drawn at random from the seed.",
    "fixed": "The organiser's tables are kept as given, seat order included.",
}


_REMEDIES = {
    "mix": "The search found no better seating within its budget; a longer time limit may.",
    "swiss": "Swiss seating keeps players near their standing, so it accepts some rematches.",
    "random": "A random seating does not try to avoid repeats; use mix for that.",
    "fixed": "The organiser's tables are not changed.",
}


def _check_players(given: Sequence[Player]) -> list[Player]:
    players = list(given)
    seen: set[Hashable] = set()
    for p in players:
        if p in seen:
            raise SeatingError(
                "duplicate_player", f"Player {p!r} is listed more than once.", player=p
            )
        seen.add(p)
    if len(players) > MAX_PLAYERS:
        raise SeatingError(
            "too_many_players",
            f"At most {MAX_PLAYERS} players can be seated at once; there are {len(players)}.",
            count=len(players),
            maximum=MAX_PLAYERS,
        )
    if len(players) < 4:
        raise SeatingError(
            "too_few_players",
            f"At least 4 players are needed for a table; there are {len(players)}.",
            count=len(players),
        )
    return players


def _check_options(request: SeatingRequest) -> tuple[str, int]:
    if request.method not in METHODS:
        raise SeatingError(
            "unknown_method",
            f"Unknown seating method {request.method!r}; use one of {', '.join(METHODS)}.",
            method=request.method,
            methods=list(METHODS),
        )
    rounds = request.rounds
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SeatingError(
            "invalid_rounds",
            f"The number of rounds must be 1 or more, not {rounds!r}.",
            rounds=rounds,
        )
    if request.method == "fixed" and rounds != 1:
        raise SeatingError(
            "fixed_rounds",
            "Fixed tables are given for one round at a time.",
            rounds=rounds,
        )
    limit = request.time_limit
    if not isinstance(limit, int | float) or not math.isfinite(limit) or limit <= 0:
        raise SeatingError(
            "invalid_time_limit",
            f"The time limit must be a positive number of seconds, not {limit!r}.",
            time_limit=limit,
        )
    return request.method, rounds


def _check_history(history, index: dict[Player, int]) -> dict[tuple[int, int], float]:
    pairs: dict[tuple[int, int], float] = {}
    for key, weight in history.items():
        members = list(key)
        if len(members) != 2 or members[0] == members[1]:
            raise SeatingError(
                "invalid_history",
                f"History must be keyed by pairs of two different players, not {key!r}.",
                key=key,
            )
        if (
            isinstance(weight, bool)
            or not isinstance(weight, int | float)
            or not math.isfinite(weight)
            or weight < 0
        ):
            raise SeatingError(
                "invalid_history",
                f"The history weight of {key!r} must be a number of 0 or more, not {weight!r}.",
                key=key,
                weight=weight,
            )
        a, b = (index.get(m) for m in members)
        if a is None or b is None or not weight:
            continue  # someone not here tonight
        pair = (a, b) if a < b else (b, a)
        pairs[pair] = pairs.get(pair, 0.0) + float(weight)
    return pairs


def _count(counts, player: Player, field: str) -> int:
    value = counts.get(player, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SeatingError(
            f"invalid_{field}",
            f"{field} for player {player!r} must be a whole number of 0 or more, not {value!r}.",
            player=player,
            value=value,
        )
    return value


def _ranks(standings: Sequence[Player], index: dict[Player, int]) -> list[int]:
    """Standings position per player; players not in the standings follow, in their given order."""
    rank = [-1] * len(index)
    position = 0
    for p in standings:
        i = index.get(p)
        if i is not None and rank[i] < 0:
            rank[i] = position
            position += 1
    for i in range(len(index)):
        if rank[i] < 0:
            rank[i] = position
            position += 1
    return rank


def _seated(player_count: int, byes: list[int]) -> list[int]:
    out = set(byes)
    return [p for p in range(player_count) if p not in out]


def _fixed_round(
    request: SeatingRequest, index: dict[Player, int]
) -> tuple[list[list[int]], list[int]]:
    tables: list[list[int]] = []
    seen: set[int] = set()
    for number, table in enumerate(request.fixed_tables, start=1):
        table = list(table)
        if len(table) != 4:
            raise SeatingError(
                "fixed_table_size",
                f"Table {number} has {len(table)} players; every table needs exactly 4.",
                table=number,
                size=len(table),
            )
        for p in table:
            i = index.get(p)
            if i is None:
                raise SeatingError(
                    "fixed_unknown_player",
                    f"Table {number} seats {p!r}, who is not among the players present.",
                    table=number,
                    player=p,
                )
            if i in seen:
                raise SeatingError(
                    "fixed_duplicate_player",
                    f"Player {p!r} is seated at more than one place.",
                    table=number,
                    player=p,
                )
            seen.add(i)
        tables.append([index[p] for p in table])
    byes = [i for i in range(len(index)) if i not in seen]
    if len(byes) >= 4 or len(byes) != len(index) % 4:
        raise SeatingError(
            "fixed_not_covering",
            f"The tables leave {len(byes)} players unseated; only {len(index) % 4} may sit out.",
            unseated=len(byes),
            allowed=len(index) % 4,
        )
    return tables, byes


def _meetings(tables_by_round: Tables, n: int, weights: list[float]) -> tuple[int, float]:
    """Extra meetings inside the plan, and the history weight of the pairs seated together."""
    counts: dict[int, int] = {}
    history_weight = 0.0
    for tables in tables_by_round:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    key = a * n + b if a < b else b * n + a
                    counts[key] = counts.get(key, 0) + 1
                    history_weight += weights[key]
    repeats = sum(c - 1 for c in counts.values())
    return repeats, history_weight


def _history_sentence(tables_by_round: Tables, n: int, weights: list[float]) -> str:
    """How many pairs seated together have met before, in words (not the weights' sum)."""
    again = {
        (a, b) if a < b else (b, a)
        for tables in tables_by_round
        for table in tables
        for i, a in enumerate(table)
        for b in table[i + 1 :]
        if weights[a * n + b if a < b else b * n + a] > 0
    }
    if not again:
        return "No pair seated together has met at an earlier evening."
    pairs = f"{len(again)} pair{'s' if len(again) > 1 else ''}"
    return (
        f"{pairs} seated together met at earlier evenings; recent meetings count more than "
        "old ones, and the seating keeps such pairs as few as it can."
    )


def _summary(n: int, tables_by_round: Tables, byes_by_round: list[list[int]]) -> str:
    rounds = len(tables_by_round)
    tables = len(tables_by_round[0])
    sentence = (
        f"{n} players, {rounds} round{'s' if rounds > 1 else ''} of {tables} "
        f"table{'s' if tables > 1 else ''} of four"
    )
    byes = len(byes_by_round[0])
    if byes:
        sentence += f"; {byes} player{'s sit' if byes > 1 else ' sits'} out each round"
    return sentence + "."
