"""Seating for Barbu evenings: players, history and standings in, tables of four out.

Pure Python, no Django: the evening pages load rows, call ``plan_seating`` and
save the result.

Methods
    ``mix``: the fewest repeat meetings over all the rounds of the plan, counting
    the history the caller passes (older meetings weigh less). Known
    constructions (social golfer solutions: 5 rounds for 16 and 20 players, 7
    for 24, 9 for 28 and 32) seed a tabu search over all rounds at once; see
    ``games.barbu.seating.mixing``.
    ``swiss``: tables by standings (top four together), swapping players between
    nearby tables to avoid rematches.
    ``random``: a shuffle drawn from the seed.
    ``fixed``: the organiser's tables, checked and kept as given.

Byes (when the players are not a multiple of four, ``n % 4`` sit out each round)
    to the players with the fewest byes so far, counting this plan's earlier
    rounds; nobody gets a second bye in the plan while someone else has had none
    in it; ties go to the player whose last bye in this plan is longest ago, then
    (swiss) to the lowest in the standings, then by a draw from the seed.

Seat order
    seat 0 deals first; each table is rotated so that its player who has dealt
    first least often (``dealt_first_so_far`` plus this plan's earlier rounds)
    sits there.

Determinism
    the same request gives the same plan. The search stops after an amount of
    work proportional to ``time_limit`` (``mixing.WORK_PER_SECOND`` per
    second), or earlier when no seating can be better; the clock only cuts in
    on a machine several times slower than expected, and the plan then says so
    (``stopped_by_time_limit``).
"""

from .errors import SeatingError
from .plan import RoundPlan, SeatingPlan, SeatingRequest
from .planner import plan_seating

__all__ = ["RoundPlan", "SeatingError", "SeatingPlan", "SeatingRequest", "plan_seating"]
