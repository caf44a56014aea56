"""Stored games the rules now refuse: a table that can no longer finish its game.

Before the engine refused the deal that makes a mandatory double impossible
(`mandatory_double_now`), a table could store such a deal and then find its next deal
could never be saved. stranded_games() finds those games, and the deal an organiser
corrects to free the table (command: `manage.py stranded_games`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import Prefetch

from games.barbu.selectors import game_record
from games.models import Deal, Game
from scoring.engine import barbu


@dataclass(frozen=True)
class StrandedGame:
    game: Game
    # The engine's problems with the stored deals, in deal order (docs/rules/format.md error dicts).
    problems: list[barbu.Problem]
    # {deal number: Deal}: the stored deal each problem points at, to correct it.
    deals: dict[int, Deal]


def stranded_games(
    *, club_slug: str | None = None, event_id: int | None = None
) -> Iterator[StrandedGame]:
    """Every stored game whose deals the engine refuses today, with the problems.

    The games are read in chunks with their deals (two queries per chunk), so a club's
    whole history can be checked.
    """
    games = Game.objects.select_related("table__round__event__club").order_by("pk")
    if club_slug:
        games = games.filter(table__round__event__club__slug=club_slug)
    if event_id:
        games = games.filter(table__round__event_id=event_id)
    deals = Prefetch("deals", queryset=Deal.objects.order_by("number"))
    for game in games.prefetch_related(deals).iterator(chunk_size=200):
        stored = list(game.deals.all())
        problems = barbu.validate_game(game_record(game, stored))
        if problems:
            yield StrandedGame(game, problems, {deal.number: deal for deal in stored})
