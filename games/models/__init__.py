"""The games app's models: what both games share (core), each game's own rows (barbu,
burraco), under the one app label "games"."""

from games.models.barbu import Deal, DealRevision, DealScore, GameScore, Substitution
from games.models.burraco import (
    BurracoHand,
    BurracoPair,
    BurracoTableKey,
    PairTurnResult,
    ScoreCard,
    ScoreCardRevision,
)
from games.models.core import (
    Event,
    EventLog,
    EventPlayer,
    Game,
    IdempotencyRecord,
    Round,
    Seat,
    Table,
    new_table_key,  # named by the migrations (Table.key's default)
)

__all__ = [
    "BurracoHand",
    "BurracoPair",
    "BurracoTableKey",
    "Deal",
    "DealRevision",
    "DealScore",
    "Event",
    "EventLog",
    "EventPlayer",
    "Game",
    "GameScore",
    "IdempotencyRecord",
    "PairTurnResult",
    "Round",
    "ScoreCard",
    "ScoreCardRevision",
    "Seat",
    "Substitution",
    "Table",
    "new_table_key",
]
