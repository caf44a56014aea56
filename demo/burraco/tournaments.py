"""The demo's Burraco club: a season of pair tournaments and one in progress; not for production.

`load_burraco()` is idempotent as the rest of the demo (demo/loader.py): it builds what is
missing (club, memberships, league, tournaments) and leaves existing data alone. Every
tournament is run through the same services the referee's desk and the tables use
(games.burraco.tournaments, games.burraco.scorecards, games.core.closing), so pair results,
score card revisions and the standings derived from them all exist. Deterministic: the
hands come from a seeded random generator; only the dates follow the clock.

The club's social evening of free matches to 2005 (load_free_evening) is played and
closed in a league of its own: eight of the pairs, four tables, two matches each.

13 pairs (an odd number: one pair rests every turn), four turns of three hands: two
Mitchell turns, then two Danese turns seated by the standings. Three tournaments are
played and closed; the fourth is running: turns 1 and 2 played and confirmed, turn 3
(Danese) seated with two cards confirmed, one entered and waiting for the other pair's
confirmation, one half entered and two tables that have not entered anything yet.
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from clubs.models import Club, GameChoice, League, Membership, Player
from games.burraco import free_matches, scorecards, tournaments
from games.core.closing import event_close
from games.models import Event, Round, Table

BURRACO_SLUG = "burraco-demo"
CLUB_NAME = "Circolo Burraco Demo"
LEAGUE_NAME = "Campionato Burraco"
SEASON = "2026"
SEED = 2018
HANDS = 3
# The movement of each of the four turns (FIBUR's usual evening: two Mitchell, two Danese).
MOVEMENTS = ("mitchell", "mitchell", "danese", "danese")
PLAYED_TOURNAMENTS = 3
# Turn 3 of the running tournament, table by table: (hands entered, card confirmed).
RUNNING_TABLES = ((3, True), (3, True), (3, False), (2, False), (0, False), (0, False))
# The demo organiser (demo/loader.py) plays too, with the first partner below.
PARTNERS = (
    "Roberta Esposito",
    "Giorgio Villa",
    "Anna Fontana",
    "Pietro Caruso",
    "Laura Santoro",
    "Franco Marchetti",
    "Rita Barbieri",
    "Claudio Ferrara",
    "Teresa Rinaldi",
    "Mario Longo",
    "Lucia Pellegrini",
    "Bruno Leone",
    "Carla Gentile",
    "Enzo Martini",
    "Daniela Serra",
    "Vittorio Testa",
    "Gabriella Vitale",
    "Sergio Farina",
    "Patrizia Cattaneo",
    "Renato Morelli",
    "Antonella Sala",
    "Fabio D'Angelo",
    "Simona Parisi",
    "Massimo Amato",
    "Ornella Fabbri",
)
TOURNAMENT_STARTS = datetime.time(21, 0)
# The club's evening of free matches (docs/rules/burraco.md "Ways to play a match"), in a
# league of its own: eight pairs at four tables, each table playing two matches to 2005.
FREE_LEAGUE_NAME = "Serate libere"
FREE_EVENING_NAME = "Serata libera"
FREE_PAIRS = 8
FREE_TARGET = 2005
# (table, NS pair, EW pair) of each match, in the order the tables sat down.
FREE_MATCHES = (
    (1, 1, 2),
    (2, 3, 4),
    (3, 5, 6),
    (4, 7, 8),
    (1, 1, 4),
    (2, 3, 6),
    (3, 5, 8),
    (4, 7, 2),
)
# A match to 2005 takes a handful of hands; far past that, the generator is broken.
FREE_HAND_LIMIT = 40
TURN_MINUTES = 50


def load_burraco(organiser: Player, now: datetime.datetime) -> bool:
    """Build what is missing of the Burraco club; True when its tournaments were created."""
    club = _club()
    Membership.objects.get_or_create(
        club=club, player=organiser, defaults={"role": Membership.Role.ORGANISER}
    )
    pairs = _pairs(club, organiser)
    free = load_free_evening(club, pairs, organiser, now)
    league = _league(club)
    if league.events.exists():
        return free
    rng = random.Random(SEED)
    # Each pair's strength: the better pairs win more hands, so the season has a shape.
    strength = {index: rng.randrange(-30, 31, 5) for index in range(len(pairs))}
    user = organiser.user
    running_start = _running_start(now)
    for index in range(PLAYED_TOURNAMENTS):
        day = timezone.localtime(now).date() - datetime.timedelta(weeks=PLAYED_TOURNAMENTS - index)
        starts = datetime.datetime.combine(day, TOURNAMENT_STARTS, tzinfo=running_start.tzinfo)
        event = _tournament(club, league, pairs, f"Torneo {index + 1}", starts)
        for turn in range(1, len(MOVEMENTS) + 1):
            rnd = _seat(event, turn, starts + datetime.timedelta(minutes=TURN_MINUTES * (turn - 1)))
            for table in _tables(rnd):
                _play(table, rng, strength, HANDS, confirm=True)
        if index == 0:
            _referee_work(event, user)
        event_close(event=event, by_user=user)
    event = _tournament(club, league, pairs, f"Torneo {PLAYED_TOURNAMENTS + 1}", running_start)
    for turn in (1, 2, 3):
        started = running_start + datetime.timedelta(minutes=TURN_MINUTES * (turn - 1))
        rnd = _seat(event, turn, started)
        for table, (hands, confirm) in zip(_tables(rnd), _plan(turn), strict=False):
            _play(table, rng, strength, hands, confirm=confirm)
    return True


def load_free_evening(
    club: Club, pairs: list[tuple[Player, Player]], organiser: Player, now: datetime.datetime
) -> bool:
    """The club's played and closed evening of free matches to 2005, in its own league;
    True when it was created (nothing is done when its league has it already)."""
    league, _ = League.objects.get_or_create(
        club=club,
        name=FREE_LEAGUE_NAME,
        season=SEASON,
        defaults={
            "game": GameChoice.BURRACO,
            "published": True,
            "starts_on": datetime.date(2026, 1, 1),
        },
    )
    if league.events.exists():
        return False
    day = timezone.localtime(now).date() - datetime.timedelta(days=4)
    starts = datetime.datetime.combine(
        day, TOURNAMENT_STARTS, tzinfo=timezone.get_current_timezone()
    )
    event = free_matches.free_evening_create(
        club=club, league=league, name=FREE_EVENING_NAME, starts_at=starts, target=FREE_TARGET
    )
    entered = [
        tournaments.pair_enter(event=event, player_a=a, player_b=b) for a, b in pairs[:FREE_PAIRS]
    ]
    rng = random.Random(SEED + 1)
    strength = {index: rng.randrange(-30, 31, 5) for index in range(FREE_PAIRS)}
    for table, ns, ew in FREE_MATCHES:
        started = free_matches.match_start(
            event=event,
            table_number=table,
            ns=entered[ns - 1],
            ew=entered[ew - 1],
            now=starts,
        )
        _play_match(started.table, rng, strength[ns - 1] - strength[ew - 1])
    event_close(event=event, unfinished="exclude", by_user=organiser.user)
    return True


def _play_match(table: Table, rng: random.Random, edge: int) -> None:
    """Hands until the engine says the match is won, then the other pair confirms."""
    for _ in range(FREE_HAND_LIMIT):
        ns, ew = hand_mp(rng, edge)
        answer = scorecards.hand_submit(
            game_id=table.game.pk,
            hand={"mp": {"NS": ns, "EW": ew}},
            line="NS",
            by_label=f"Tavolo {table.number}, NS",
        )
        if answer.body["complete"]:
            break
    else:
        raise RuntimeError(f"A demo match went past {FREE_HAND_LIMIT} hands.")
    scorecards.card_confirm(
        game_id=table.game.pk, line="EW", agree=True, by_label=f"Tavolo {table.number}, EW"
    )


def _running_start(now: datetime.datetime) -> datetime.datetime:
    """The running tournament began two turns and twenty minutes ago (to the five minutes),
    so its third turn has about half its time left when the demo is loaded."""
    local = timezone.localtime(now).replace(second=0, microsecond=0)
    began = local - datetime.timedelta(minutes=2 * TURN_MINUTES + 20)
    return began - datetime.timedelta(minutes=began.minute % 5)


def _plan(turn: int) -> tuple[tuple[int, bool], ...]:
    if turn < 3:
        return ((HANDS, True),) * 6
    return RUNNING_TABLES


def _club() -> Club:
    club, _ = Club.objects.get_or_create(
        slug=BURRACO_SLUG,
        defaults={
            "name": CLUB_NAME,
            "language": "it",
            "game": Club.Games.BURRACO,
            "burraco_ruleset": {"preset": "fibur", "options": {}},
            "published": True,
        },
    )
    return club


def _pairs(club: Club, organiser: Player) -> list[tuple[Player, Player]]:
    """The 13 pairs of the season (the same every tournament), members of the club."""
    players = [organiser]
    for name in PARTNERS:
        membership = (
            Membership.objects.filter(club=club, player__name=name).select_related("player").first()
        )
        if membership is None:
            email = name.lower().replace(" ", ".").replace("'", "") + "@example.org"
            player = Player.objects.create(name=name, email=email)
            membership = Membership.objects.create(
                club=club, player=player, role=Membership.Role.MEMBER
            )
        players.append(membership.player)
    return [(players[i], players[i + 1]) for i in range(0, len(players), 2)]


def _league(club: Club) -> League:
    league, _ = League.objects.get_or_create(
        club=club,
        name=LEAGUE_NAME,
        season=SEASON,
        defaults={
            "game": GameChoice.BURRACO,
            "published": True,
            "starts_on": datetime.date(2026, 1, 1),
            # The season: the sum of each pair's VP over its tournaments.
            "ranking": {"method": "total"},
        },
    )
    return league


def _tournament(
    club: Club,
    league: League,
    pairs: list[tuple[Player, Player]],
    name: str,
    starts: datetime.datetime,
) -> Event:
    event = tournaments.tournament_create(
        club=club,
        league=league,
        name=name,
        starts_at=starts,
        turns=len(MOVEMENTS),
        hands_per_turn=HANDS,
    )
    for a, b in pairs:
        pair = tournaments.pair_enter(event=event, player_a=a, player_b=b)
        tournaments.pair_checkin(pair=pair)
    return event


def _seat(event: Event, turn: int, started: datetime.datetime) -> Round:
    movement = MOVEMENTS[turn - 1]
    seated = tournaments.turn_seat(
        event=event,
        movement="first" if turn == 1 else movement,
        time_limit=TURN_MINUTES,
        seed=SEED + turn,
        now=started,
    )
    return seated.round


def _tables(rnd: Round) -> list[Table]:
    return list(rnd.tables.select_related("game", "ns_pair", "ew_pair").order_by("number"))


def hand_mp(rng: random.Random, edge: int) -> tuple[int, int]:
    """One hand's MP for NS and EW: the side that closes scores 100 for closing, its
    burracos and its cards; the other its burracos and cards, less 100 without the
    pozzetto. `edge` (MP) tilts the hand towards NS. Every score a multiple of 5."""
    ns_closes = rng.random() < 0.5 + edge / 400

    def side(closes: bool) -> int:
        burracos = rng.choice((1, 2, 2, 3)) if closes else rng.choice((0, 0, 1, 1, 2))
        clean = sum(rng.choice((100, 200)) for _ in range(burracos))
        cards = rng.randrange(40, 360, 5) if closes else rng.randrange(-120, 240, 5)
        pozzetto = 0 if closes or rng.random() < 0.8 else -100
        return (100 if closes else 0) + clean + cards + pozzetto

    ns, ew = side(ns_closes), side(not ns_closes)
    return ns + edge, ew - edge


def _play(
    table: Table, rng: random.Random, strength: dict[int, int], hands: int, *, confirm: bool
) -> None:
    """NS's phone enters the hands, EW's confirms the card, as at the tables."""
    edge = strength[table.ns_pair.number - 1] - strength[table.ew_pair.number - 1]
    label = f"Tavolo {table.number}, NS"
    for _ in range(hands):
        ns, ew = hand_mp(rng, edge)
        scorecards.hand_submit(
            game_id=table.game.pk, hand={"mp": {"NS": ns, "EW": ew}}, line="NS", by_label=label
        )
    if confirm and hands == HANDS:
        scorecards.card_confirm(
            game_id=table.game.pk, line="EW", agree=True, by_label=f"Tavolo {table.number}, EW"
        )


def _referee_work(event: Event, user: AbstractBaseUser | None) -> None:
    """The referee's corrections of the first tournament, so its history shows them: the
    second hand of a card entered the wrong way round, and a pair late at the table."""
    rnd = event.rounds.get(number=1)
    game = rnd.tables.get(number=2).game
    hands = [{"mp": {"NS": h.ns_mp, "EW": h.ew_mp}} for h in game.hands.order_by("number")]
    second = hands[1]["mp"]
    hands[1] = {"mp": {"NS": second["EW"], "EW": second["NS"]}}
    scorecards.card_correct(
        game_id=game.pk,
        hands=hands,
        reason="Punti della seconda mano scritti a linee invertite",
        by_user=user,
    )
    late = event.rounds.get(number=2).tables.get(number=4).ew_pair
    scorecards.penalty_set(
        round_id=event.rounds.get(number=2).pk,
        pair_id=late.pk,
        vp=1,
        mp=0,
        reason="Ritardo al tavolo",
        by_user=user,
    )
