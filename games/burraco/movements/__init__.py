"""Burraco movements: who plays whom, turn by turn, and who rests (docs/rules/burraco.md).

Pure Python, no Django: the tournament pages load entries and standings, call
one of these and save the tables. Each returns a ``Schedule`` whose ``to_json``
is ``{"turns": [{"turn": 1, "tables": [{"table": 1, "NS": 1, "EW": 8}, ...],
"byes": [15]}, ...]}``; ``MovementError`` carries a stable code for the site.

``mitchell(pairs, turns, step=1)``
    NS pairs stay, EW pairs move ``step`` tables a turn (``games.burraco.movements.mitchell``).
``round_robin(pairs, turns, groups=1)``
    everyone meets everyone of their group once, on a fixed calendar.
``individual(players, turns, seed=0)``
    new partners every turn, two players a side; ``next_individual_turn`` seats
    one turn from what was played before it (players changed since the start).
``next_danese_turn(standings, variant)``
    the next turn by the standings: ``pure``, ``modified`` or ``no_rematch``.

Byes rotate: nobody rests twice while another has not rested (Mitchell and round
robin within the turns they allow; individual always); in Danese the bye goes to
the lowest-ranked pair among those with the fewest byes.
"""

from .danese import VARIANTS, PairStanding, Standings, next_danese_turn
from .errors import MovementError
from .individual import individual, next_individual_turn
from .mitchell import mitchell, mitchell_turns
from .round_robin import round_robin
from .schedule import Schedule, Table, Turn
from .standings import parse_standings, parse_standings_text

__all__ = [
    "VARIANTS",
    "MovementError",
    "PairStanding",
    "Schedule",
    "Standings",
    "Table",
    "Turn",
    "individual",
    "mitchell",
    "mitchell_turns",
    "next_danese_turn",
    "next_individual_turn",
    "parse_standings",
    "parse_standings_text",
    "round_robin",
]
