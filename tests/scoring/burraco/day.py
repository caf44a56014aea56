"""A tournament day for the room's papers and screens: seven pairs, turn 1 played with a
short card (table 2, time ran out after two hands), pair 7 withdrawn after it, turn 2
seated by Mitchell and not played yet."""

from __future__ import annotations

from clubs.models import Club
from games.burraco import scorecards, tournaments
from games.models import Event
from scoring.rebuild import rebuild_event_standings
from tests.games.burraco.builders import pair, play_table, tournament

LONG = ("Maximiliane Hohenzollern-Sigmaringen", "Donaudampfschifffahrtskapitän Brünhild")


def day(pairs: int = 7, *, long_names: bool = False, club: Club | None = None) -> Event:
    event = tournament(pairs, club=club)
    if long_names:
        first = pair(event, 1)
        for player, name in zip((first.player_a, first.player_b), LONG, strict=True):
            player.name = name
            player.save(update_fields=["name"])
    turn1 = tournaments.turn_seat(event=event, movement="first").round
    for table in turn1.tables.select_related("game").order_by("number"):
        if table.number == 2:  # time ran out after two hands: the referee closes it short
            play_table(table.game, [(300, 100), (250, 150)], confirm=False)
            scorecards.card_correct(
                game_id=table.game.pk,
                hands=[{"mp": {"NS": 300, "EW": 100}}, {"mp": {"NS": 250, "EW": 150}}],
                reason="time",
                by_user=None,
                time_out=True,
            )
        else:
            play_table(table.game, [(200 + 5 * table.number, 100)] * 3)
    tournaments.pair_withdraw(pair=pair(event, pairs))
    tournaments.turn_seat(event=event, movement="mitchell")
    rebuild_event_standings(event_id=event.pk)
    return event
