"""The demo clubs of `make demo`: a Barbu league of played evenings, one in progress, and a
Burraco season of tournaments, one in progress (demo/burraco/tournaments.py); not for production.

`load_demo()` is idempotent: it builds whatever part of the demo is missing (clubs,
organiser login, players, leagues, evenings, tournaments) and leaves existing data alone, so running
`make demo` again changes nothing. Games are stored through games.barbu.submission, exactly as
tables submit them, so every derived row and the audit trail exist.
"""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from clubs.models import Club, League, Membership, Player
from demo.burraco.individual import load_burraco_individual
from demo.burraco.tournaments import load_burraco
from games.barbu.corrections import deal_correct
from games.barbu.game_creation import game_create
from games.barbu.seating import SeatingRequest, plan_seating
from games.barbu.seating_words import seating_notes
from games.barbu.submission import deal_submit
from games.core.signals import deals_changed
from games.models import Deal, Event, EventPlayer, Game, Round, Seat, Table
from scoring.engine.barbu.randomgame import random_game

DEMO_SLUG = "circolo-demo"
DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "tavolo-demo"
RULESET = "italian7"
SEED = 2026

# The organiser plays too; three players are guests, the rest members.
ORGANISER_NAME = "Giulia Ferri"
MEMBERS = (
    "Marco Rossi",
    "Francesca Bianchi",
    "Luca Romano",
    "Chiara Colombo",
    "Alessandro Ricci",
    "Sara Marino",
    "Davide Greco",
    "Elena Bruno",
    "Matteo Gallo",
    "Valentina Conti",
    "Andrea De Luca",
    "Martina Mancini",
    "Stefano Costa",
    "Paola Giordano",
)
GUESTS = ("Roberto Rizzo", "Silvia Lombardi", "Tommaso Moretti")
PLAYED_EVENINGS = 3
# The running evening: deals already entered at each of its tables.
RUNNING_DEALS = (12, 9, 10, 0)
# When the club's evenings begin (the site's time zone).
EVENING_STARTS = datetime.time(20, 30)


class DemoRefused(Exception):
    """The demo would be loaded into a site that is not in DEBUG mode."""


def load_demo(*, force: bool = False, now: datetime.datetime | None = None) -> str:
    """Create the demo club (what is missing of it) and say what was done.

    Refuses unless settings.DEBUG is on or `force` is given: demo logins with a
    published password must never reach a production database by accident.
    """
    if not settings.DEBUG and not force:
        raise DemoRefused(
            "DEBUG is off: this looks like a production site. The demo club has a login "
            "with a published password; load it only on a development machine "
            "(DEBUG=1), or pass --force if you really mean it."
        )
    now = now or timezone.now()
    with _standings_once(), transaction.atomic():
        club, created = _club()
        players = _players(club)
        league = _league(club)
        barbu = not league.events.exists()
        if barbu:
            _evenings(club, league, players, now)
            _correct_one_deal(club, players[ORGANISER_NAME])
        # The Burraco club, organised by the same login (demo/burraco/tournaments.py).
        burraco = load_burraco(players[ORGANISER_NAME], now)
        burraco = load_burraco_individual(players[ORGANISER_NAME], now) or burraco
    if not barbu and not burraco:
        return "The demo clubs are already there; nothing changed."
    if created:
        return "Demo clubs created (Barbu and Burraco)."
    return "Demo clubs completed with their leagues, evenings and tournaments."


def _club() -> tuple[Club, bool]:
    return Club.objects.get_or_create(
        slug=DEMO_SLUG,
        defaults={
            "name": "Circolo Barbu Demo",
            "language": "it",
            "ruleset": {"preset": RULESET, "options": {}},
            "published": True,
        },
    )


def _players(club: Club) -> dict[str, Player]:
    """The club's players by name; the organiser's login and player are created here."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    if user is None:
        user = user_model.objects.create_user(
            username=DEMO_USERNAME, password=DEMO_PASSWORD, first_name="Giulia", last_name="Ferri"
        )
    organiser = Player.objects.filter(user=user).first()
    if organiser is None:
        organiser = Player.objects.create(name=ORGANISER_NAME, user=user)
    Membership.objects.get_or_create(
        club=club, player=organiser, defaults={"role": Membership.Role.ORGANISER}
    )
    players = {organiser.name: organiser}
    roles = [(name, Membership.Role.MEMBER) for name in MEMBERS]
    roles += [(name, Membership.Role.GUEST) for name in GUESTS]
    for name, role in roles:
        membership = (
            Membership.objects.filter(club=club, player__name=name).select_related("player").first()
        )
        if membership is None:
            email = name.lower().replace(" ", ".") + "@example.org"
            player = Player.objects.create(name=name, email=email)
            membership = Membership.objects.create(club=club, player=player, role=role)
        players[name] = membership.player
    return players


def _league(club: Club) -> League:
    league, _ = League.objects.get_or_create(
        club=club,
        name="Campionato sociale",
        season="2026",
        defaults={"published": True, "starts_on": datetime.date(2026, 1, 1)},
    )
    return league


def running_evening_start(now: datetime.datetime) -> datetime.datetime:
    """When the demo's running evening began: today at EVENING_STARTS in the site's time
    zone, or yesterday's if that time has not come yet (last night's evening goes on)."""
    local = timezone.localtime(now)
    day = local.date()
    if local.time() < EVENING_STARTS:
        day -= datetime.timedelta(days=1)
    return datetime.datetime.combine(day, EVENING_STARTS, tzinfo=local.tzinfo)


def _evenings(
    club: Club, league: League, players: dict[str, Player], now: datetime.datetime
) -> None:
    """Seat the league's evenings so that pairs meet as rarely as possible, then play them."""
    names = sorted(players)
    evenings = PLAYED_EVENINGS + 1
    plan = plan_seating(SeatingRequest(players=names, rounds=evenings, method="mix", seed=SEED))
    rng = random.Random(SEED)
    running_start = running_evening_start(now)
    met_before: set[frozenset[int]] = set()
    for index, round_plan in enumerate(plan.rounds):
        running = index == evenings - 1
        # The played evenings weekly before the running one, at the same hour: subtracting
        # weeks from a time in the site's zone keeps its wall clock across a DST change.
        starts_at = running_start - datetime.timedelta(weeks=evenings - 1 - index)
        event = Event.objects.create(
            club=club,
            league=league,
            name=f"Serata {index + 1}",
            starts_at=starts_at,
            # Played first, closed after: a closed evening takes no more deals.
            status=Event.Status.RUNNING,
            ruleset=league.effective_ruleset(),
            seating_method=Event.Seating.MIX,
        )
        EventPlayer.objects.bulk_create(
            [EventPlayer(event=event, player=players[name]) for name in names]
        )
        rnd = Round.objects.create(
            event=event,
            number=1,
            status=Round.Status.OPEN,
            seating_seed=SEED,
            seating_explanation=demo_seating_notes(round_plan, players, met_before),
        )
        rnd.byes.set([players[name] for name in round_plan.byes])
        for number, seated in enumerate(round_plan.tables, start=1):
            table = Table.objects.create(round=rnd, number=number)
            Seat.objects.bulk_create(
                [
                    Seat(table=table, position=position, player=players[name])
                    for position, name in enumerate(seated)
                ]
            )
            game = game_create(table=table)
            deals = RUNNING_DEALS[(number - 1) % len(RUNNING_DEALS)] if running else None
            _play(game, rng, deals, label=f"Tavolo {number}")
        if not running:
            Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
            Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)


def _play(game: Game, rng: random.Random, deals: int | None, *, label: str) -> None:
    """Enter a random valid game of the game's ruleset, deal by deal, as a table would."""
    if deals == 0:
        return
    record = random_game(rng, game.ruleset, deals=deals, players=list(game.player_names))
    for deal in record["deals"]:
        deal_submit(game_id=game.pk, deal=deal, by_label=label)


def _correct_one_deal(club: Club, organiser: Player) -> None:
    """The organiser's correction of a deal of the first evening, so the audit trail shows one.

    The hearts of two players were entered under each other's names: swapping them keeps
    the deal valid and changes its scores.
    """
    deals = Deal.objects.filter(game__table__round__event__club=club).order_by(
        "game__table__round__event__starts_at", "game_id", "number"
    )
    for deal in deals:
        hearts = (deal.data.get("result") or {}).get("hearts")
        if deal.data.get("contract") != "hearts" or not isinstance(hearts, dict):
            continue
        takers = sorted(hearts, key=lambda name: (len(hearts[name]), name))
        low, high = takers[0], takers[-1]
        if len(hearts[low]) == len(hearts[high]):
            continue
        corrected = json.loads(json.dumps(deal.data))
        corrected["result"]["hearts"][low], corrected["result"]["hearts"][high] = (
            hearts[high],
            hearts[low],
        )
        deal_correct(
            deal_id=deal.pk,
            data=corrected,
            by_user=organiser.user,
            expected_version=deal.version,
            reason="Cuori segnati al giocatore sbagliato",
        )
        return


@contextmanager
def _standings_once() -> Iterator[None]:
    """Hold back deals_changed during the load and send it once for everything at the end.

    Each stored deal announces itself so that standings and ratings are recomputed; for
    hundreds of demo deals one recomputation at the end gives the same rows far sooner.
    """
    all_games: set[int] = set()
    all_events: set[int] = set()
    rated: list[bool] = []

    def collect(sender: Any, *, game_ids: list[int], event_ids: list[int], **kw: Any) -> None:
        all_games.update(game_ids)
        all_events.update(event_ids)
        rated.append(bool(kw.get("burraco_rated")))

    saved = deals_changed.receivers
    deals_changed.receivers = []
    deals_changed.sender_receivers_cache.clear()
    deals_changed.connect(collect, weak=False)
    try:
        yield
    finally:
        deals_changed.receivers = saved
        deals_changed.sender_receivers_cache.clear()
    if all_games:
        deals_changed.send(
            sender=Game,
            game_ids=sorted(all_games),
            event_ids=sorted(all_events),
            burraco_rated=any(rated),
        )


def demo_seating_notes(round_plan: Any, players: dict[str, Any], met_before: set) -> list:
    """How the demo evening's tables were chosen, as the site stores it (games.barbu.seating_words);
    `met_before` (the pairs of the earlier evenings) grows with this evening's tables."""
    tables = [[players[name].pk for name in seated] for seated in round_plan.tables]
    notes = seating_notes(
        method="mix",
        tables=tables,
        byes=[players[name].pk for name in round_plan.byes],
        met_tonight=set(),
        met_before=set(met_before),
        earlier_rounds=False,
        stopped_by_time_limit=False,
    )
    met_before.update(frozenset((a, b)) for t in tables for a in t for b in t if a < b)
    return notes
