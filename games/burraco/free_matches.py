"""A Burraco club evening of free matches (docs/rules/burraco.md "Ways to play a match"): the
evening created with its target, and tables of two pairs formed by the organiser, each
playing a match to the target on the tournaments' score card; a table plays another
match once its match is over.

The rows are the tournament's: a match is a Game (deals_target 0: no fixed number of
hands) with its ScoreCard at a Table of a Round. A Round here is a sitting, not a turn:
a new match goes into the first round after the last one its table and its two pairs
played in, so a table keeps its number, and a pair has one result row per round
(PairTurnResult), as in a tournament.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, GameChoice, League
from games.burraco.results import FREE_MATCH, announce
from games.burraco.tournament_base import TournamentError, closed_error
from games.burraco.tournaments import league_format_check
from games.burraco.turns import _seat_table
from games.core.idempotency import Answer, event_write_once
from games.models import BurracoPair, Event, Game, Round, ScoreCard, Table
from scoring.engine import burraco


class MatchConflict(TournamentError):
    """The table or a pair is still playing a match nobody has won (409 in the API)."""

    status = 409
    code = "match_conflict"  # raised as "table_playing" or "pair_playing"


MOVEMENT = "free"
# A table number a club can print on a card.
TABLE_LIMIT = 200


def free_evening_create(
    *,
    club: Club,
    name: str,
    starts_at: datetime,
    league: League | None = None,
    target: int = 2005,
    published: bool = True,
) -> Event:
    """A new Burraco evening of free matches to `target` (2005, 1505 or 1005), with the
    league's (or the club's) rules frozen in it and the target written into them."""
    if league is not None and league.club_id != club.pk:
        raise TournamentError(_("This league belongs to another club."), code="foreign_league")
    league_format_check(league, Event.BurracoFormat.FREE)
    if target not in burraco.FREE_TARGETS:
        raise TournamentError(
            _("A free match is played to 2005, 1505 or 1005 points."),
            code="invalid_target",
            params={"target": target},
        )
    source = league.effective_ruleset() if league else club.burraco_ruleset
    ruleset = burraco.ruleset_to_json(burraco.ruleset_from_json(source))
    ruleset["options"]["target"] = target
    return Event.objects.create(
        club=club,
        league=league,
        name=name.strip() or _("Burraco free matches"),
        kind=Event.Kind.EVENING,
        game=GameChoice.BURRACO,
        burraco_format=Event.BurracoFormat.FREE,
        starts_at=starts_at,
        planned_rounds=1,
        published=published,
        ruleset=ruleset,
        ranking={"target": target},
    )


def target_of(event: Event) -> int:
    return int(event.ranking.get("target") or burraco.ruleset_from_json(event.ruleset).target)


@dataclass(frozen=True)
class StartedMatch:
    table: Table
    game: Game
    match: int  # the table's n-th match of the evening


def _playing_at(event: Event, pair_ids: list[int]) -> list[tuple[int, int]]:
    """(table number, pair id) of the pairs among `pair_ids` still in a match not won."""
    rows = (
        Table.objects.filter(round__event=event, game__card__status=ScoreCard.Status.OPEN)
        .filter(Q(ns_pair_id__in=pair_ids) | Q(ew_pair_id__in=pair_ids))
        .values_list("number", "ns_pair_id", "ew_pair_id")
    )
    out = []
    for number, ns, ew in rows:
        out.extend((number, p) for p in (ns, ew) if p in pair_ids)
    return out


def match_start(
    *,
    event: Event,
    table_number: int,
    ns: BurracoPair,
    ew: BurracoPair,
    now: datetime | None = None,
) -> StartedMatch:
    """Seat two pairs at a table for a new match: refused while the table or either pair
    is still playing a match that nobody has won yet."""
    now = now or timezone.now()
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not event.is_free_matches:
            raise TournamentError(
                _("This event is not an evening of free matches."), code="not_free_matches"
            )
        if event.status == Event.Status.CLOSED:
            raise closed_error(event)
        if not 1 <= table_number <= TABLE_LIMIT:
            raise TournamentError(
                _("A table number goes from 1 to %(limit)s.") % {"limit": TABLE_LIMIT},
                code="invalid_table",
                params={"table": table_number},
            )
        if ns.event_id != event.pk or ew.event_id != event.pk:
            raise TournamentError(_("Both pairs must be entered in this evening."), code="bad_pair")
        if ns.pk == ew.pk:
            raise TournamentError(_("A pair cannot play against itself."), code="same_pair")
        if not (ns.active and ew.active):
            raise TournamentError(_("This pair has withdrawn."), code="pair_withdrawn")
        busy_table = Table.objects.filter(
            round__event=event, number=table_number, game__card__status=ScoreCard.Status.OPEN
        ).exists()
        if busy_table:
            raise MatchConflict(
                _("Table %(table)s is still playing its match.") % {"table": table_number},
                code="table_playing",
                params={"table": table_number},
            )
        busy = _playing_at(event, [ns.pk, ew.pk])
        if busy:
            table, pair_id = busy[0]
            pair = ns if pair_id == ns.pk else ew
            raise MatchConflict(
                _("Pair %(pair)s is still playing at table %(table)s.")
                % {"pair": pair.number, "table": table},
                code="pair_playing",
                params={"pair": pair.number, "table": table},
            )
        last = (
            Round.objects.filter(event=event)
            .filter(
                Q(tables__number=table_number)
                | Q(tables__ns_pair_id__in=[ns.pk, ew.pk])
                | Q(tables__ew_pair_id__in=[ns.pk, ew.pk])
            )
            .aggregate(last=Max("number"))["last"]
        )
        number = (last or 0) + 1
        rnd, _created = Round.objects.get_or_create(
            event=event,
            number=number,
            defaults={"movement": MOVEMENT, "started_at": now, "hands_per_turn": None},
        )
        if event.status == Event.Status.PLANNED:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
        ns = BurracoPair.objects.select_related("player_a", "player_b").get(pk=ns.pk)
        ew = BurracoPair.objects.select_related("player_a", "player_b").get(pk=ew.pk)
        game = _seat_table(rnd, table_number, ns, ew, event, FREE_MATCH)
        matches = Table.objects.filter(round__event=event, number=table_number).count()
        announce(event.pk, [game.pk])
    return StartedMatch(game.table, game, matches)


def rematch(*, table: Table, now: datetime | None = None) -> StartedMatch:
    """The same two pairs play another match at the same table, once this one is won."""
    return match_start(
        event=table.round.event,
        table_number=table.number,
        ns=table.ns_pair,
        ew=table.ew_pair,
        now=now,
    )


def sit_at(*, table: Table, ns: int, ew: int, now: datetime | None = None) -> StartedMatch:
    """Two pairs of the evening (by their numbers) sit themselves at this table for a new
    match, from the phone of the table's last match (its key): as from the table's card."""
    return sit_down(event=table.round.event, table_number=table.number, ns=ns, ew=ew, now=now)


def sit_down(
    *, event: Event, table_number: int, ns: int, ew: int, now: datetime | None = None
) -> StartedMatch:
    """Two pairs (by their numbers) sit themselves at a table from a phone, the table's card
    (games/burraco/free_tables.py) or its last match's score card: match_start's refusals,
    and each pair must have checked in at the desk (the pairs `ready_pairs` offers)."""
    pairs = {p.number: p for p in BurracoPair.objects.filter(event=event, number__in=(ns, ew))}
    if ns not in pairs or ew not in pairs:
        raise TournamentError(_("Both pairs must be entered in this evening."), code="bad_pair")
    for pair in (pairs[ns], pairs[ew]):
        if pair.active and not pair.checked_in:
            raise TournamentError(
                _("Pair %(pair)s has not checked in: ask the organiser at the desk.")
                % {"pair": pair.number},
                code="pair_not_checked_in",
                params={"pair": pair.number},
            )
    return match_start(event=event, table_number=table_number, ns=pairs[ns], ew=pairs[ew], now=now)


def free_pairs(event: Event) -> list[BurracoPair]:
    """The pairs of the evening not playing a match nobody has won yet (two queries)."""
    busy = {p for _table, p in _playing_at(event, list(event.pairs.values_list("pk", flat=True)))}
    return [
        p
        for p in event.pairs.filter(active=True).select_related("player_a", "player_b")
        if p.pk not in busy
    ]


def ready_pairs(event: Event) -> list[BurracoPair]:
    """The pairs a phone may sit at a table (`sit_down`): checked in, not withdrawn, not in
    a match nobody has won yet (two queries)."""
    return [p for p in free_pairs(event) if p.checked_in]


def match_start_request(
    *,
    event: Event,
    table_number: int,
    ns: int,
    ew: int,
    body_of: Callable[[StartedMatch], dict],
    idempotency_key: str | None = None,
) -> Answer:
    """A match started from the API (pairs by their numbers), with an Idempotency-Key as
    the hands and the turns have it: a retry answers the first answer and starts nothing."""

    def start() -> dict:
        pairs = {p.number: p for p in BurracoPair.objects.filter(event=event, number__in=(ns, ew))}
        if ns not in pairs or ew not in pairs:
            raise TournamentError(_("Both pairs must be entered in this evening."), code="bad_pair")
        return body_of(
            match_start(event=event, table_number=table_number, ns=pairs[ns], ew=pairs[ew])
        )

    return event_write_once(
        event=event,
        what="matches",
        key=idempotency_key,
        request={"table": table_number, "NS": ns, "EW": ew},
        write=start,
    )
