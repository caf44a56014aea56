"""The demo's individual Burraco tournament: thirteen players of the Burraco club, three
turns of three hands, played and closed; not for production.

Players enter alone and every turn seats two players a side with new partners (the
individual movement), one player resting each turn with the bye score. It is played
through the same services as the desk and the tables (games.burraco.tournaments,
games.burraco.scorecards, games.core.closing), outside the club's pair league (its season
ranks pairs). `load_burraco_individual()` is idempotent: it does nothing once the
tournament is there, or while the Burraco club is missing (demo/burraco/tournaments.py builds it
first). Deterministic: the hands come from a seeded random generator; only the date
follows the clock (last Thursday before the demo is loaded).
"""

from __future__ import annotations

import datetime
import random

from django.utils import timezone

from clubs.models import Club, Membership, Player
from demo.burraco.tournaments import BURRACO_SLUG, PARTNERS, hand_mp
from games.burraco import scorecards, tournaments
from games.core.closing import event_close
from games.models import Event, Table

NAME = "Torneo individuale"
PLAYERS = 13  # three tables a turn, one player resting
TURNS = 3
HANDS = 3
TURN_MINUTES = 50
SEED = 1307
STARTS = datetime.time(21, 0)
THURSDAY = 3


def load_burraco_individual(organiser: Player, now: datetime.datetime) -> bool:
    """Play the individual tournament if it is missing; True when it was created."""
    club = Club.objects.filter(slug=BURRACO_SLUG).first()
    if club is None or Event.objects.filter(club=club, name=NAME, individual=True).exists():
        return False
    players = _players(club, organiser)
    rng = random.Random(SEED)
    # Each player's strength (MP a hand): a line's edge is its two players' sum.
    strength = {p.pk: rng.randrange(-20, 21, 5) for p in players}
    starts = _starts(now)
    event = tournaments.tournament_create(
        club=club, name=NAME, starts_at=starts, turns=TURNS, hands_per_turn=HANDS, individual=True
    )
    for player in players:
        tournaments.pair_checkin(pair=tournaments.player_enter(event=event, player=player))
    for turn in range(1, TURNS + 1):
        seated = tournaments.turn_seat(
            event=event,
            movement="first" if turn == 1 else "individual",
            time_limit=TURN_MINUTES,
            seed=SEED + turn,
            now=starts + datetime.timedelta(minutes=TURN_MINUTES * (turn - 1)),
        )
        tables = seated.round.tables.select_related(
            "game", "ns_pair", "ns_partner", "ew_pair", "ew_partner"
        ).order_by("number")
        for table in tables:
            _play(table, rng, strength)
    event_close(event=event, by_user=organiser.user)
    return True


def _players(club: Club, organiser: Player) -> list[Player]:
    """The organiser and the first twelve partners of the pair season, members already."""
    by_name = {
        m.player.name: m.player
        for m in Membership.objects.filter(club=club, player__name__in=PARTNERS).select_related(
            "player"
        )
    }
    return [organiser, *(by_name[name] for name in PARTNERS[: PLAYERS - 1])]


def _starts(now: datetime.datetime) -> datetime.datetime:
    """Last Thursday at 21:00 (a week ago when today is Thursday)."""
    today = timezone.localtime(now)
    back = (today.weekday() - THURSDAY) % 7 or 7
    day = today.date() - datetime.timedelta(days=back)
    return datetime.datetime.combine(day, STARTS, tzinfo=today.tzinfo)


def _play(table: Table, rng: random.Random, strength: dict[int, int]) -> None:
    """NS's phone enters the hands, one of EW's players confirms the card."""
    ns = strength[table.ns_pair.player_a_id] + strength[table.ns_partner.player_a_id]
    ew = strength[table.ew_pair.player_a_id] + strength[table.ew_partner.player_a_id]
    for _ in range(HANDS):
        ns_mp, ew_mp = hand_mp(rng, ns - ew)
        scorecards.hand_submit(
            game_id=table.game.pk,
            hand={"mp": {"NS": ns_mp, "EW": ew_mp}},
            line="NS",
            by_label=f"Tavolo {table.number}, NS",
        )
    scorecards.card_confirm(
        game_id=table.game.pk, line="EW", agree=True, by_label=f"Tavolo {table.number}, EW"
    )
