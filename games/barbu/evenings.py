"""Running an evening: create the event, check players in, seat rounds, swap seats, close.

The one place that loads rows for games.barbu.seating, runs it and saves the result (the
seating itself knows nothing of Django). Every function owns its transaction; a mistake
the organiser can fix raises EveningError with a stable code and a translated message.

Seating history: two players who met at a table earlier this evening weigh 1 per
meeting; a meeting at an earlier evening of the same league weighs 0.5 ** age, where
age is how many league evenings ago it was (1 for the previous one), so last week's
table mates are avoided more than last month's.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, League, Membership, Player
from games.barbu.corrections import rename_in_deal
from games.barbu.game_creation import game_create
from games.barbu.game_scores import write_scores
from games.barbu.seating import SeatingError, SeatingRequest, plan_seating
from games.barbu.seating_words import met_this_evening, seating_notes, seating_sentences
from games.core.errors import EveningError
from games.core.short_names import unique_names
from games.core.signals import deals_changed
from games.models import (
    Deal,
    DealRevision,
    Event,
    EventPlayer,
    Game,
    GameScore,
    Round,
    Seat,
    Substitution,
    Table,
)
from scoring.engine import barbu

LEAGUE_DECAY = 0.5
SEATING_TIME_LIMIT = 2.0


def _frozen_ruleset(club: Club, league: League | None) -> dict:
    source = league.effective_ruleset() if league else club.ruleset
    return barbu.ruleset_to_json(barbu.ruleset_from_json(source))


def event_create(
    *,
    club: Club,
    name: str,
    starts_at: datetime,
    league: League | None = None,
    kind: str = Event.Kind.EVENING,
    seating_method: str = Event.Seating.MIX,
    turns_per_round: int | None = None,
    planned_rounds: int = 1,
    published: bool = True,
) -> Event:
    """A new event with the league's (or the club's) rules frozen in it."""
    if league is not None and league.club_id != club.pk:
        raise EveningError(_("This league belongs to another club."), code="foreign_league")
    if turns_per_round is not None and not 1 <= turns_per_round <= 4:
        raise EveningError(
            _("A round plays from 1 to 4 dealer turns."), code="invalid_turns", params={}
        )
    return Event.objects.create(
        club=club,
        league=league,
        name=name.strip() or _("Evening"),
        kind=kind,
        starts_at=starts_at,
        seating_method=seating_method,
        turns_per_round=turns_per_round,
        planned_rounds=max(1, planned_rounds),
        published=published,
        ruleset=_frozen_ruleset(club, league),
        ranking=dict(league.ranking) if league and league.ranking else {},
    )


def _check_open(event: Event) -> None:
    if event.status == Event.Status.CLOSED:
        raise EveningError(_("This event is closed."), code="event_closed")


def checkin_set(*, event: Event, player_ids: list[int]) -> list[EventPlayer]:
    """The players present are exactly these club players (and guests already added).

    Players no longer ticked are marked absent, not deleted: they may have played already.
    """
    _check_open(event)
    ids = set(player_ids)
    with transaction.atomic():
        allowed = set(
            Player.objects.filter(
                memberships__club=event.club, merged_into__isnull=True, pk__in=ids
            ).values_list("pk", flat=True)
        )
        unknown = ids - allowed
        if unknown:
            raise EveningError(
                _("Some players are not players of this club."),
                code="unknown_players",
                params={"players": sorted(unknown)},
            )
        existing = {ep.player_id: ep for ep in EventPlayer.objects.filter(event=event)}
        EventPlayer.objects.bulk_create(
            [EventPlayer(event=event, player_id=pid) for pid in sorted(ids - set(existing))]
        )
        EventPlayer.objects.filter(event=event, player_id__in=ids).update(active=True)
        EventPlayer.objects.filter(event=event).exclude(player_id__in=ids).update(active=False)
    return list(EventPlayer.objects.filter(event=event, active=True))


def guest_add(*, event: Event, name: str) -> Player:
    """A guest who is not a member, added on the spot and checked in."""
    _check_open(event)
    name = name.strip()
    if not name:
        raise EveningError(_("Write the guest's name."), code="name_missing")
    with transaction.atomic():
        player = Player.objects.create(name=name[:80])
        Membership.objects.create(club=event.club, player=player, role=Membership.Role.GUEST)
        EventPlayer.objects.create(event=event, player=player)
    return player


def _pair(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def seating_history(event: Event) -> dict[frozenset[int], float]:
    """Who met whom: this evening weight 1 per meeting, earlier league evenings decaying."""
    events = [event.pk]
    age_of = {event.pk: 0}
    if event.league_id:
        earlier = list(
            Event.objects.filter(league_id=event.league_id, starts_at__lt=event.starts_at)
            .order_by("-starts_at", "-id")
            .values_list("pk", flat=True)
        )
        for age, pk in enumerate(earlier, start=1):
            age_of[pk] = age
        events += earlier
    tables: dict[int, list[int]] = defaultdict(list)
    table_event: dict[int, int] = {}
    for table_id, player_id, event_id in Seat.objects.filter(
        table__round__event_id__in=events
    ).values_list("table_id", "player_id", "table__round__event_id"):
        tables[table_id].append(player_id)
        table_event[table_id] = event_id
    history: dict[frozenset[int], float] = defaultdict(float)
    for table_id, players in tables.items():
        weight = LEAGUE_DECAY ** age_of[table_event[table_id]]
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                history[_pair(a, b)] += weight
    return dict(history)


def _standings(event: Event, players: list[int]) -> list[int]:
    """Players best first by their total points this evening (for Swiss seating)."""
    totals = dict(
        GameScore.objects.filter(game__table__round__event=event)
        .values("player_id")
        .annotate(points=Sum("total"))
        .values_list("player_id", "points")
    )
    return sorted(players, key=lambda p: (-(totals.get(p) or 0), p))


@dataclass(frozen=True)
class SeatedRound:
    round: Round
    explanation: list[str]


def round_seat(*, event: Event, method: str | None = None, seed: int | None = None) -> SeatedRound:
    """Seat the next round with the checked-in players: tables, seats, byes and games.

    Refused while the previous round is still open (close it first).
    """
    _check_open(event)
    method = method or event.seating_method
    if method == Event.Seating.FIXED:
        # The organiser's own tables: start from a random seating and swap seats by hand.
        method = Event.Seating.RANDOM
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        last = event.rounds.order_by("-number").first()
        if last is not None and last.status == Round.Status.OPEN:
            raise EveningError(
                _("Round %(number)s is still open: close it before seating the next one.")
                % {"number": last.number},
                code="round_open",
                params={"number": last.number},
            )
        players = sorted(
            EventPlayer.objects.filter(
                event=event, active=True, player__merged_into__isnull=True
            ).values_list("player_id", flat=True)
        )
        byes_so_far = dict(
            Round.byes.through.objects.filter(round__event=event)
            .values("player_id")
            .annotate(n=Count("id"))
            .values_list("player_id", "n")
        )
        dealt_first = dict(
            Seat.objects.filter(table__round__event=event, position=0)
            .values("player_id")
            .annotate(n=Count("id"))
            .values_list("player_id", "n")
        )
        seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        history = seating_history(event) if last or event.league_id else {}
        request = SeatingRequest(
            players=players,
            rounds=1,
            method=method,
            seed=seed,
            history=history,
            byes_so_far=byes_so_far,
            dealt_first_so_far=dealt_first,
            standings=_standings(event, players) if method == Event.Seating.SWISS else (),
            time_limit=SEATING_TIME_LIMIT,
        )
        try:
            plan = plan_seating(request)
        except SeatingError as error:
            raise EveningError(
                _seating_message(error), code=error.code, params=error.params
            ) from None
        planned = plan.rounds[0]
        # Stored as codes and player ids: said in the reader's language (seating_words).
        notes = seating_notes(
            method=method,
            tables=planned.tables,
            byes=planned.byes,
            met_tonight=met_this_evening(event) if last else set(),
            met_before=history,
            earlier_rounds=last is not None,
            stopped_by_time_limit=plan.stopped_by_time_limit,
        )
        rnd = Round.objects.create(
            event=event,
            number=(last.number + 1) if last else 1,
            seating_seed=seed,
            seating_explanation=notes,
        )
        rnd.byes.set(planned.byes)
        for number, table_players in enumerate(planned.tables, start=1):
            table = Table.objects.create(round=rnd, number=number)
            Seat.objects.bulk_create(
                [
                    Seat(table=table, position=position, player_id=pid)
                    for position, pid in enumerate(table_players)
                ]
            )
            game_create(table=table)
        if event.status == Event.Status.PLANNED:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
    return SeatedRound(rnd, seating_sentences(notes))


def _seating_message(error: SeatingError) -> str:
    messages = {
        "too_few_players": _("At least four players must be checked in (now %(count)s)."),
        "too_many_players": _("Too many players: at most %(maximum)s."),
    }
    template = messages.get(error.code)
    if template is None:
        return error.message
    try:
        return template % error.params
    except (KeyError, TypeError):
        return error.message


def _check_swap(rnd: Round, other_seat_id: int | None, player_id: int | None) -> None:
    """What every change of a seat checks first: an open evening, one target."""
    _check_open(rnd.event)
    if (other_seat_id is None) == (player_id is None):
        raise EveningError(
            _("Choose either another seat or a player to put in this seat."), code="swap_target"
        )


def _locked_seat(rnd: Round, seat_id: int) -> tuple[dict[int, Seat], Seat, dict[int, Game]]:
    """The round's seats, the one changed, and the round's games by table, locked (call it
    inside the change's transaction)."""
    seats = _round_seats(rnd)
    seat = seats.get(seat_id)
    if seat is None:
        raise EveningError(_("This seat is not in this round."), code="unknown_seat")
    games = {
        g.table_id: g
        for g in Game.objects.select_for_update().filter(table__round=rnd).order_by("pk")
    }
    return seats, seat, games


def _round_seats(rnd: Round) -> dict[int, Seat]:
    return {
        seat.pk: seat
        for seat in Seat.objects.filter(table__round=rnd).select_related("player", "table")
    }


def seat_change(
    *,
    rnd: Round,
    seat_id: int,
    other_seat_id: int | None = None,
    player_id: int | None = None,
    by_user: Any = None,
    wrong_person: bool = False,
) -> list[Game]:
    """Swap two seated players of a round, or put another checked-in player in a seat.

    Before a game has deals, any swap. Once a game touched has deals, only when the
    organiser says the wrong person was seated (`wrong_person`): the seat's deals were
    played by whoever sits there now, so they are credited to them throughout (each
    game touched gets its new player names, its stored deals renamed in a new version
    audited as "seat changed", its scores rewritten by the engine). Anything else would
    move played deals and their points to someone who did not play them: refused
    (code swap_played_deals). The player who leaves a seat for someone not seated gets
    a bye, and the newcomer loses theirs. All in one transaction.
    """
    _check_swap(rnd, other_seat_id, player_id)
    with transaction.atomic():
        seats, seat, games = _locked_seat(rnd, seat_id)
        new_player: dict[int, int] = {}  # seat id -> player id
        byes_add: list[int] = []
        byes_remove: list[int] = []
        if other_seat_id is not None:
            other = seats.get(other_seat_id)
            if other is None:
                raise EveningError(_("This seat is not in this round."), code="unknown_seat")
            if other.pk == seat.pk:
                raise EveningError(_("Choose two different seats."), code="same_seat")
            new_player[seat.pk] = other.player_id
            new_player[other.pk] = seat.player_id
        else:
            if any(s.player_id == player_id for s in seats.values()):
                raise EveningError(
                    _("This player is already seated in this round: swap the two seats instead."),
                    code="already_seated",
                )
            present = EventPlayer.objects.filter(
                event=rnd.event, player_id=player_id, active=True
            ).exists()
            if not present:
                raise EveningError(
                    _("Only a checked-in player can take a seat."), code="not_checked_in"
                )
            new_player[seat.pk] = player_id
            byes_add.append(seat.player_id)
            byes_remove.append(player_id)

        names = dict(
            Player.objects.filter(pk__in=set(new_player.values())).values_list("pk", "name")
        )
        touched_tables = sorted({seats[sid].table_id for sid in new_player})
        played = [games[t] for t in touched_tables if t in games and games[t].deals_count]
        if played and not wrong_person:
            game = played[0]
            table = next(s.table for s in seats.values() if s.table_id == game.table_id)
            raise EveningError(
                ngettext(
                    "Table %(table)s has played %(count)s deal: swapping now would give it "
                    "and its points to someone who did not play it. If the wrong person "
                    "was seated, choose “The wrong person was seated” to give the deals "
                    "to the right player; if a substitute takes over, choose “A substitute "
                    "takes over from the next deal”.",
                    "Table %(table)s has played %(count)s deals: swapping now would give "
                    "them and their points to someone who did not play them. If the wrong "
                    "person was seated, choose “The wrong person was seated” to give the "
                    "deals to the right player; if a substitute takes over, choose “A "
                    "substitute takes over from the next deal”.",
                    game.deals_count,
                )
                % {"table": table.number, "count": game.deals_count},
                code="swap_played_deals",
                params={"table": table.number, "deals": game.deals_count},
            )
        substituted = [
            g
            for g in played
            if g.substituted and Substitution.objects.filter(game_id=g.pk).exists()
        ]
        if substituted:
            table = next(s.table for s in seats.values() if s.table_id == substituted[0].table_id)
            raise EveningError(
                _(
                    "A substitute has played at table %(table)s: its deals belong to "
                    "different players, so the seat cannot be renamed throughout. Record "
                    "another substitute from the next deal, or correct the deals."
                )
                % {"table": table.number},
                code="swap_substituted",
                params={"table": table.number},
            )
        for table_id in touched_tables:
            table_seats = sorted(
                (s for s in seats.values() if s.table_id == table_id), key=lambda s: s.position
            )
            # Delete and recreate: a swap inside one table would break the unique
            # (table, player) constraint halfway through row-by-row updates.
            Seat.objects.filter(table_id=table_id).delete()
            Seat.objects.bulk_create(
                [
                    Seat(
                        table_id=table_id,
                        position=s.position,
                        player_id=new_player.get(s.pk, s.player_id),
                    )
                    for s in table_seats
                ]
            )
            game = games.get(table_id)
            if game is not None:
                seat_names = [
                    names[new_player[s.pk]] if s.pk in new_player else s.player.name
                    for s in table_seats
                ]
                _rename_game(game, seat_names, by_user=by_user, wrong_person=wrong_person)
        if byes_remove:
            rnd.byes.remove(*byes_remove)
        if byes_add:
            rnd.byes.add(*byes_add)
        changed = [games[t] for t in touched_tables if t in games]
        _announce([g for g in changed if g.deals_count], rnd.event_id)
    return changed


def _rename_game(
    game: Game, seat_names: list[str], *, by_user: Any, wrong_person: bool = False
) -> None:
    old = list(game.player_names)
    new = unique_names(seat_names)
    mapping = {a: b for a, b in zip(old, new, strict=True) if a != b}
    game.player_names = new
    game.save(update_fields=["player_names", "updated_at"])
    deals = list(game.deals.order_by("number"))
    if not deals:
        GameScore.objects.filter(game=game).delete()
        return
    seat_players = dict(
        zip(
            new,
            Seat.objects.filter(table_id=game.table_id)
            .order_by("position")
            .values_list("player_id", flat=True),
            strict=True,
        )
    )
    # Stored, the same in every language, as the audit trail's other labels.
    reason = ", ".join(f"{a} → {b}" for a, b in mapping.items())
    if wrong_person:
        reason = f"wrong person seated: {reason}"
    reason = reason[:200]
    revisions = []
    for deal in deals:
        before = deal.data
        deal.data = rename_in_deal(before, mapping) if mapping else before
        deal.dealer_id = seat_players[deal.data["dealer"]]
        deal.version += 1
        Deal.objects.filter(pk=deal.pk).update(
            data=deal.data, dealer_id=deal.dealer_id, version=deal.version
        )
        revisions.append(
            DealRevision(
                game=game,
                deal=deal,
                number=deal.number,
                version=deal.version,
                action=DealRevision.Action.RESEATED,
                before=before,
                after=deal.data,
                by_user=by_user if getattr(by_user, "is_authenticated", False) else None,
                reason=reason,
            )
        )
    DealRevision.objects.bulk_create(revisions)
    record = {"ruleset": game.ruleset, "players": new, "deals": [d.data for d in deals]}
    problems = barbu.validate_game(record)
    if problems:  # a rename is a permutation of names: the engine must agree as before
        raise EveningError(problems[0].message, code="seat_change_invalid")
    write_scores(game, barbu.score_game(record), deals)


def _announce(games: list[Game], event_id: int) -> None:
    game_ids = [g.pk for g in games]
    transaction.on_commit(
        lambda: deals_changed.send(sender=Game, game_ids=game_ids, event_ids=[event_id])
    )


def event_progress(event: Event) -> dict[str, int]:
    """Counts for the dashboard: games, finished games, deals entered, pending deals."""
    games = Game.objects.filter(table__round__event=event).aggregate(
        games=Count("pk"),
        complete=Count("pk", filter=Q(status=Game.Status.COMPLETE)),
        deals=Sum("deals_count"),
        target=Sum("deals_target"),
    )
    games["attention"] = Deal.objects.filter(
        game__table__round__event=event,
        status__in=[Deal.Status.PENDING, Deal.Status.DISPUTED],
    ).count()
    return {k: v or 0 for k, v in games.items()}


def default_event_name(now: datetime | None = None) -> str:
    now = timezone.localtime(now or timezone.now())
    return _("Evening of %(date)s") % {"date": formats.date_format(now, "DATE_FORMAT")}
