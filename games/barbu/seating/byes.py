"""Who sits out each round when the players present are not a multiple of four."""

from __future__ import annotations

import random
from collections.abc import Sequence

BYE_RULE = (
    "Byes go to the players with the fewest byes so far, counting this plan's earlier "
    "rounds; nobody gets a second bye in this plan while someone else has had none in it; "
    "ties go to the player whose last bye in this plan is longest ago, then (swiss) to "
    "the lowest in the standings, then by a draw from the seed."
)


def choose_byes(
    *,
    player_count: int,
    rounds: int,
    byes_so_far: Sequence[int],
    rank: Sequence[int] | None,
    rng: random.Random,
) -> list[list[int]]:
    """The players (indexes) sitting out in each round, following ``BYE_RULE``.

    ``rank[i]`` is the standings position of player ``i`` (0 = best) or None
    when standings do not matter.
    """
    per_round = player_count % 4
    if per_round == 0:
        return [[] for _ in range(rounds)]
    draw = list(range(player_count))
    rng.shuffle(draw)
    lot = [0] * player_count
    for position, index in enumerate(draw):
        lot[index] = position
    in_plan = [0] * player_count
    last = [-1] * player_count
    result = []
    for round_index in range(rounds):

        def key(i: int) -> tuple[int, int, int, int, int]:
            return (
                in_plan[i],
                byes_so_far[i] + in_plan[i],
                last[i],
                -rank[i] if rank is not None else 0,
                lot[i],
            )

        chosen = sorted(sorted(range(player_count), key=key)[:per_round])
        for i in chosen:
            in_plan[i] += 1
            last[i] = round_index
        result.append(chosen)
    return result
