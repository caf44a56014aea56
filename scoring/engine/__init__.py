"""The scoring engines: pure Python, no Django; one subpackage per game, rules as data.

`barbu/` scores Barbu games (docs/rules/barbu.md), `burraco/` Burraco matches and
tournament turns (docs/rules/burraco.md); `records.py` picks one by the record's "game"
key (none: Barbu). The problems a player can fix are shared by every game (`errors.py`).
"""

from .errors import MESSAGES, HandProblem, InvalidGame, Problem

__all__ = ["MESSAGES", "HandProblem", "InvalidGame", "Problem"]
