"""Burraco (docs/rules/burraco.md): rule sets, one hand and its calculator, matches and turns."""

from ..errors import MESSAGES, HandProblem, InvalidGame, Problem
from .hand import (
    CARD_VALUES,
    DECK_COUNTS,
    HandCalculation,
    calculate_hand,
    card_points,
    check_hand,
    score_hand,
)
from .match import (
    FREE_TARGETS,
    MatchState,
    analyse,
    free_match_state,
    score_match,
    turn_result,
    validate_match,
)
from .presets import (
    DEFAULT_PRESET,
    PRESETS,
    Ruleset,
    parse_ruleset,
    ruleset_from_json,
    ruleset_to_json,
    vp_of,
)

__all__ = [
    "CARD_VALUES",
    "DECK_COUNTS",
    "DEFAULT_PRESET",
    "FREE_TARGETS",
    "MESSAGES",
    "PRESETS",
    "HandCalculation",
    "HandProblem",
    "InvalidGame",
    "MatchState",
    "Problem",
    "Ruleset",
    "analyse",
    "calculate_hand",
    "card_points",
    "check_hand",
    "free_match_state",
    "parse_ruleset",
    "ruleset_from_json",
    "ruleset_to_json",
    "score_hand",
    "score_match",
    "turn_result",
    "validate_match",
    "vp_of",
]
