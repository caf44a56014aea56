"""One entry for every game record: the record's "game" key picks the engine (none = Barbu)."""

from __future__ import annotations

from typing import Any

from .barbu import score_game as _score_barbu
from .barbu import validate_game as _validate_barbu
from .burraco import score_match as _score_burraco
from .burraco import validate_match as _validate_burraco
from .errors import InvalidGame, Problem

GAMES = ("barbu", "burraco")


def game_of(record: object) -> tuple[str | None, list[Problem]]:
    """The game a record is of ("barbu" when it does not say), or the problem with its "game"."""
    if type(record) is not dict or "game" not in record:
        return "barbu", []
    game = record["game"]
    if type(game) is not str:
        return None, [Problem.make(None, "game", "invalid_type", field="game", expected="a word")]
    if game not in GAMES:
        problem = Problem.make(
            None, "game", "unknown_game", game=game[:60], choices=", ".join(GAMES)
        )
        return None, [problem]
    return game, []


def validate_record(record: object) -> list[Problem]:
    """Every problem with a record of any game (an empty list when it is valid); never raises."""
    game, problems = game_of(record)
    if game is None:
        return problems
    return _validate_burraco(record) if game == "burraco" else _validate_barbu(record)


def score_record(record: object) -> dict[str, Any]:
    """The scores JSON (docs/rules/format.md) of a record of any game; raises InvalidGame (every
    problem)."""
    game, problems = game_of(record)
    if game is None:
        raise InvalidGame(problems)
    if game == "burraco":
        return _score_burraco(record)
    return _score_barbu(record)  # type: ignore[arg-type]
