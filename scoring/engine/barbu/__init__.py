"""Barbu: presets and options, one deal checked and scored, a whole game judged."""

from ..errors import MESSAGES, InvalidGame, Problem
from .game import Judgement, game_state, judge_game, score_game, validate_game
from .normalise import normalise_deal
from .presets import (
    CONTRACTS,
    PRESETS,
    Ruleset,
    describe_ruleset,
    ruleset_from_json,
    ruleset_to_json,
)

__all__ = [
    "CONTRACTS",
    "MESSAGES",
    "PRESETS",
    "InvalidGame",
    "Judgement",
    "Problem",
    "Ruleset",
    "describe_ruleset",
    "game_state",
    "judge_game",
    "normalise_deal",
    "ruleset_from_json",
    "ruleset_to_json",
    "score_game",
    "validate_game",
]
