"""A Burraco tournament run: created, pairs (or, in an individual tournament, players)
entered, checked in or withdrawn, and each turn seated by the movement the referee
chooses (the pure games.movements)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, GameChoice, League, Player
from games import movements
from games.burraco.individual import individual_turn
from games.burraco.results import announce, ranking_so_far, write_bye
from games.errors import EntryError
from games.game_creation import unique_names
from games.models import (
    BurracoPair,
    Event,
    Game,
    PairTurnResult,
    Round,
    ScoreCard,
    Seat,
    Table,
)
from games.movements.pairing_import import parse_pairing
from scoring.engine import burraco

# "pairing": any turn seated as the referee gives it: pasted text read here
# (`pairing`, the API) or the (table, NS, EW) lines the desk's form read (`by_hand`), both
# through games/movements/pairing_import.py.
# "individual": the only movement of an individual tournament (new partners every turn).
MOVEMENTS = ("first", "mitchell", "round_robin", "danese", "pairing", "individual")
FIRST_ORDERS = ("entry", "draw", "hand")
HANDS = (2, 3, 4)


class TournamentError(EntryError):
    """A referee's mistake while running a tournament (not a bug)."""

    code = "tournament_error"


class TurnConflict(TournamentError):
    """The turn cannot be seated now: the previous one has cards to confirm, or the turn
    the referee meant is already seated (409 in the API)."""

    status = 409
    code = "turn_conflict"


def closed_error(event: Event) -> TournamentError:
    """The refusal of any change to a closed event, naming it as what it is (an evening of
    free matches or a tournament: the words agree with it in it/es/fr)."""
    if event.is_free_matches:
        message = _("This evening is closed: nothing in it can be changed any more.")
    else:
        message = _("This tournament is closed: nothing in it can be changed any more.")
    return TournamentError(message, code="event_closed")


def _check_burraco(event: Event) -> None:
    if not event.is_burraco:
        raise TournamentError(_("This event is not a Burraco tournament."), code="not_burraco")
    if event.status == Event.Status.CLOSED:
        raise closed_error(event)


def league_format_check(league: League | None, burraco_format: str) -> None:
    """A league ranks one format over its season: the VP of its tournaments, or the
    matches won at its evenings of free matches. An event of the other format is refused
    (a club keeps a league for each)."""
    if league is None:
        return
    other = (
        Event.BurracoFormat.TURNS
        if burraco_format == Event.BurracoFormat.FREE
        else Event.BurracoFormat.FREE
    )
    if not league.events.filter(game=GameChoice.BURRACO, burraco_format=other).exists():
        return
    if burraco_format == Event.BurracoFormat.FREE:
        message = _(
            "%(league)s ranks tournaments by VP: an evening of free matches needs a league "
            "of its own (or none)."
        )
    else:
        message = _(
            "%(league)s ranks evenings of free matches by matches won: a tournament needs "
            "another league (or none)."
        )
    raise TournamentError(
        message % {"league": league.name},
        code="league_format",
        params={"league": league.pk, "format": other},
    )


def tournament_create(
    *,
    club: Club,
    name: str,
    starts_at: datetime,
    league: League | None = None,
    turns: int = 4,
    hands_per_turn: int = 3,
    tie_breaks: Sequence[str] = ("mp_difference", "head_to_head"),
    published: bool = True,
    individual: bool = False,
) -> Event:
    """A new Burraco tournament with the league's (or the club's) rules frozen in it: of
    pairs, or `individual` (players enter alone, partners change every turn)."""
    if league is not None and league.club_id != club.pk:
        raise TournamentError(_("This league belongs to another club."), code="foreign_league")
    league_format_check(league, Event.BurracoFormat.TURNS)
    if hands_per_turn not in HANDS:
        raise TournamentError(
            _("A turn plays 2, 3 or 4 hands."),
            code="invalid_hands",
            params={"hands": hands_per_turn},
        )
    if not 1 <= turns <= 30:
        raise TournamentError(
            _("A tournament plays from 1 to 30 turns."), code="invalid_turns", params={}
        )
    source = league.effective_ruleset() if league else club.burraco_ruleset
    ruleset = burraco.ruleset_to_json(burraco.ruleset_from_json(source))
    return Event.objects.create(
        club=club,
        league=league,
        name=name.strip() or _("Burraco tournament"),
        kind=Event.Kind.TOURNAMENT,
        game=GameChoice.BURRACO,
        starts_at=starts_at,
        planned_rounds=turns,
        published=published,
        individual=individual,
        ruleset=ruleset,
        ranking={
            "turns": turns,
            "hands_per_turn": hands_per_turn,
            "tie_breaks": list(tie_breaks),
        },
    )


def _first_turn_over(event: Event) -> bool:
    """The first turn has ended: a second one is seated, or every card of it is confirmed."""
    rounds = list(event.rounds.values_list("number", flat=True))
    if not rounds:
        return False
    if len(rounds) > 1:
        return True
    return (
        not Game.objects.filter(table__round__event=event, table__round__number=1)
        .exclude(card__status=ScoreCard.Status.CONFIRMED)
        .exists()
    )


def _check_entries_open(event: Event, late: bool) -> None:
    """A late entry (`late`: the first turn seated) is refused once the first turn ends."""
    if late and _first_turn_over(event):
        raise TournamentError(
            _("Late entries close when the first turn ends."), code="entries_closed"
        )


def _entry_number(event: Event, number: int | None, taken: str) -> int:
    """The entry's number: the one asked for, or the next free one when None; `taken`
    (with %(number)s) refuses a number below 1 or already held by another entry."""
    numbers = set(event.pairs.values_list("number", flat=True))
    if number is None:
        return max(numbers, default=0) + 1
    if number < 1 or number in numbers:
        raise TournamentError(
            taken % {"number": number}, code="number_taken", params={"number": number}
        )
    return number


def pair_enter(
    *, event: Event, player_a: Player, player_b: Player, number: int | None = None
) -> BurracoPair:
    """Enter a pair: before the first turn, or late while the first turn is being played."""
    _check_burraco(event)
    if event.individual:
        raise TournamentError(
            _("Players enter this individual tournament alone, not in pairs."),
            code="individual_tournament",
        )
    if player_a.pk == player_b.pk:
        raise TournamentError(_("A pair needs two different players."), code="same_player")
    # An evening of free matches takes pairs all evening long.
    late = event.rounds.exists() and not event.is_free_matches
    _check_entries_open(event, late)
    taken = set()
    for a, b in event.pairs.filter(active=True).values_list("player_a_id", "player_b_id"):
        taken.update((a, b))
    for player in (player_a, player_b):
        if player.pk in taken:
            raise TournamentError(
                _("%(name)s is already in another pair.") % {"name": player.name},
                code="player_taken",
                params={"player": player.pk},
            )
    number = _entry_number(event, number, _("Pair number %(number)s is already taken."))
    return BurracoPair.objects.create(
        event=event, number=number, player_a=player_a, player_b=player_b, late=late
    )


def player_enter(*, event: Event, player: Player, number: int | None = None) -> BurracoPair:
    """Enter a player in an individual tournament: before the first turn, or late while
    the first turn is being played. The entry is a BurracoPair with no second player."""
    _check_burraco(event)
    if not event.individual:
        raise TournamentError(
            _("This is a pair tournament: enter a pair of two players."),
            code="pair_tournament",
        )
    _check_entries_open(event, event.rounds.exists())
    if event.pairs.filter(player_a=player).exists():
        raise TournamentError(
            _("%(name)s is already entered.") % {"name": player.name},
            code="player_taken",
            params={"player": player.pk},
        )
    number = _entry_number(event, number, _("Number %(number)s is already taken."))
    return BurracoPair.objects.create(
        event=event, number=number, player_a=player, player_b=None, late=event.rounds.exists()
    )


def pair_checkin(*, pair: BurracoPair, present: bool = True) -> BurracoPair:
    _check_burraco(pair.event)
    pair.checked_in = present
    pair.save(update_fields=["checked_in"])
    return pair


def pair_withdraw(*, pair: BurracoPair) -> BurracoPair:
    """The pair leaves: it keeps its results and is seated in no later turn."""
    _check_burraco(pair.event)
    pair.active = False
    pair.withdrawn_after = pair.event.rounds.count()
    pair.save(update_fields=["active", "withdrawn_after"])
    return pair


@dataclass(frozen=True)
class SeatedTurn:
    round: Round
    notes: tuple[str, ...]


def _unconfirmed_tables(rnd: Round) -> list[int]:
    return list(
        Table.objects.filter(round=rnd, game__isnull=False)
        .exclude(game__card__status=ScoreCard.Status.CONFIRMED)
        .values_list("number", flat=True)
    )


def _movement_error(error: movements.MovementError) -> TournamentError:
    return TournamentError(
        _("This movement cannot seat the turn: %(detail)s") % {"detail": error.message},
        code="movement_" + error.code,
        params=dict(error.params),
    )


def _order(event: Event, playing: list[BurracoPair], first_order: str, seed: int) -> list[int]:
    """The pair numbers in the order the fixed calendars (Mitchell, round robin) number them
    1..N, kept from turn to turn: a withdrawn pair keeps its place (see _without_withdrawn),
    a late pair joins at the end."""
    stored = list(event.ranking.get("order", []))
    rest = [p.number for p in playing if p.number not in stored]
    if first_order == "draw" and not stored:
        random.Random(seed).shuffle(rest)
    return stored + rest


def _without_withdrawn(
    sides: list[tuple[int, int, int]], byes: list[int], playing: list[BurracoPair]
) -> tuple[list[tuple[int, int, int]], list[int]]:
    """A calendar's turn once some of its pairs withdrew: the pair a withdrawn one would
    have met rests (a bye, as at the odd table), so that the calendar goes on without
    rematches; the withdrawn pairs' own byes are dropped."""
    present = {p.number for p in playing}
    kept = [(t, ns, ew) for t, ns, ew in sides if ns in present and ew in present]
    alone = [
        ns if ns in present else ew for _t, ns, ew in sides if (ns in present) != (ew in present)
    ]
    return kept, sorted([b for b in byes if b in present] + alone)


def _by_hand_sides(
    tables: Sequence[Sequence[int]], byes: Sequence[int], playing: list[BurracoPair]
) -> tuple[list[tuple[int, int, int]], list[int]]:
    """(table, NS, EW) of each table given as (NS, EW), numbered in order, or as
    (table, NS, EW) with its own number; every playing pair seated once or resting."""
    numbers = {p.number for p in playing}
    sides = [
        (index, int(t[0]), int(t[1])) if len(t) == 2 else (int(t[0]), int(t[1]), int(t[2]))
        for index, t in enumerate(tables, 1)
    ]
    seen: list[int] = [n for _t, ns, ew in sides for n in (ns, ew)] + [int(b) for b in byes]
    table_numbers = [t for t, _ns, _ew in sides]
    if sorted(seen) != sorted(numbers) or len(set(table_numbers)) != len(table_numbers):
        raise TournamentError(
            _("Seat every pair exactly once, at a table or with a bye."),
            code="bad_hand_seating",
        )
    return sorted(sides), [int(b) for b in byes]


def _pasted(
    text: str, number: int, playing: list[BurracoPair]
) -> tuple[list[tuple[int, int, int]], list[int]]:
    """(table, NS, EW) of each table and the byes of a pasted pairing, or every problem
    with it."""
    turn, problems = parse_pairing(text or "", number, [p.number for p in playing])
    if turn is None:
        raise TournamentError(
            _("This pairing cannot seat the turn: %(detail)s")
            % {"detail": "; ".join(p.message for p in problems)},
            code="pairing_invalid",
            problems=[
                {
                    "line": p.params.get("line"),
                    "code": p.code,
                    "params": dict(p.params),
                    "message": p.message,
                }
                for p in problems
            ],
        )
    sides = [(int(t.number), int(t.ns), int(t.ew)) for t in turn.tables]
    return sorted(sides), [int(b) for b in turn.byes]


def _danese_standings(event: Event, playing: list[BurracoPair], last: bool) -> movements.Standings:
    numbers = [p.number for p in playing]
    rows = ranking_so_far(event, numbers)
    met: dict[int, set[int]] = {n: set() for n in numbers}
    previous: dict[int, int | None] = dict.fromkeys(numbers)
    byes: dict[int, int] = dict.fromkeys(numbers, 0)
    history = PairTurnResult.objects.filter(round__event=event).order_by("round__number")
    for pair, opponent, bye in history.values_list("pair__number", "opponent__number", "bye"):
        if pair not in met:
            continue
        if bye:
            byes[pair] += 1
            previous[pair] = None
        elif opponent is not None:
            met[pair].add(opponent)
            previous[pair] = opponent
    ranked = [r.pair for r in rows if r.pair in met]
    return movements.Standings(
        tuple(
            movements.PairStanding(
                pair=n,
                vp=float(next(r.vp for r in rows if r.pair == n)),
                mp=next(r.mp_difference for r in rows if r.pair == n),
                previous=previous[n],
                met=frozenset(met[n]),
                byes=byes[n],
            )
            for n in ranked
        ),
        last_turn=last,
    )


def _refuse_absent(playing: list[BurracoPair], individual: bool = False) -> None:
    """Once the referee checks entries in, the first turn seats only entries checked in:
    the others are checked in or withdrawn first (nobody checked in: check-in is not
    used). An individual tournament's entries are players, named as such."""
    absent = sorted(p.number for p in playing if not p.checked_in)
    if absent and len(absent) < len(playing):
        shown = ", ".join(map(str, absent))
        if individual:
            message = ngettext(
                "Player %(pairs)s is not checked in: check them in or withdraw them first.",
                "Players %(pairs)s are not checked in: check them in or withdraw them first.",
                len(absent),
            )
        else:
            message = ngettext(
                "Pair %(pairs)s is not checked in: check it in or withdraw it first.",
                "Pairs %(pairs)s are not checked in: check them in or withdraw them first.",
                len(absent),
            )
        raise TournamentError(
            message % {"pairs": shown},
            code="not_checked_in",
            params={"pairs": absent},
        )


def _round_robin_groups(event: Event, groups: int | None, done: int) -> int:
    """The groups of the round robin: chosen at its first turn, the same for the others."""
    kept = event.ranking.get("round_robin_groups")
    if done and kept and groups not in (None, kept):
        raise TournamentError(
            _("This round robin plays in %(groups)s groups, chosen at its first turn.")
            % {"groups": kept},
            code="round_robin_groups",
            params={"groups": kept},
        )
    return (kept if done and kept else groups) or 1


def _refuse_rematches(event: Event, movement: str, sides: Sequence[tuple[int, int, int]]) -> None:
    """A fixed calendar (Mitchell, round robin) never meets twice while its pairs stay the
    same; once they changed (a late entry, a withdrawal, a first turn seated otherwise) its
    next turn may seat pairs that already met: refused, saying what to do instead."""
    met = {
        frozenset(pairs)
        for pairs in PairTurnResult.objects.filter(
            round__event=event, opponent__isnull=False
        ).values_list("pair__number", "opponent__number")
    }
    again = sorted(
        (min(ns, ew), max(ns, ew)) for _table, ns, ew in sides if frozenset((ns, ew)) in met
    )
    if again:
        shown = ", ".join(f"{a}–{b}" for a, b in again)
        raise TournamentError(
            _(
                "The movement would make pairs meet again (%(pairs)s): the pairs changed "
                "since it began (a late entry, a withdrawal, or a first turn made otherwise). "
                "Use Danese (no rematch) or paste a pairing instead."
            )
            % {"pairs": shown},
            code="movement_rematch",
            params={"pairs": [list(p) for p in again], "movement": movement},
        )


def turn_seat(
    *,
    event: Event,
    movement: str,
    hands_per_turn: int | None = None,
    time_limit: int | None = None,
    step: int = 1,
    variant: str = "no_rematch",
    first_order: str = "entry",
    by_hand: Sequence[Sequence[int]] = (),
    by_hand_byes: Sequence[int] = (),
    seed: int | None = None,
    now: datetime | None = None,
    pairing: str = "",
    expected_turn: int | None = None,
    groups: int | None = None,
) -> SeatedTurn:
    """Seat the next turn in one action: the previous turn closed (every card confirmed),
    the movement run, tables, games and score cards created, byes scored.

    `movement` "pairing" seats the turn `pairing` pastes (one table a line: table, NS
    pair, EW pair; "bye, pair"). `expected_turn`: the turn the referee means to seat; if
    it is already seated, TurnConflict (a retry, or two referees at once). `groups`: the
    round robin's groups, chosen at its first turn and kept for the others.
    """
    now = now or timezone.now()
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        _check_burraco(event)
        if event.is_free_matches:
            raise TournamentError(
                _("An evening of free matches has no turns: form its tables at the desk."),
                code="free_matches",
            )
        if movement not in MOVEMENTS:
            raise TournamentError(
                _("Unknown movement %(movement)s.") % {"movement": movement},
                code="unknown_movement",
            )
        hands = hands_per_turn or event.ranking.get("hands_per_turn", 3)
        if hands not in HANDS:
            raise TournamentError(_("A turn plays 2, 3 or 4 hands."), code="invalid_hands")
        previous = event.rounds.order_by("-number").first()
        number = previous.number + 1 if previous else 1
        if expected_turn is not None and expected_turn < number:
            raise TurnConflict(
                _("Turn %(turn)s is already seated.") % {"turn": expected_turn},
                code="turn_seated",
                params={"turn": expected_turn, "next": number},
            )
        if expected_turn is not None and expected_turn > number:
            raise TournamentError(
                _("The next turn to seat is turn %(next)s.") % {"next": number},
                code="turn_out_of_order",
                params={"turn": expected_turn, "next": number},
            )
        if previous is not None:
            missing = _unconfirmed_tables(previous)
            if missing:
                raise TurnConflict(
                    _("Tables %(tables)s have no confirmed score card yet.")
                    % {"tables": ", ".join(map(str, missing))},
                    code="cards_missing",
                    params={"tables": missing},
                )
        playing = list(event.pairs.filter(active=True).select_related("player_a", "player_b"))
        movement = _individual_movement(event, movement)
        if event.individual and len(playing) < 4:
            raise TournamentError(
                _("An individual turn needs at least four players."),
                code="too_few_players",
                params={},
            )
        if len(playing) < 2:
            raise TournamentError(
                _("A turn needs at least two pairs."), code="too_few_pairs", params={}
            )
        if previous is None:
            _refuse_absent(playing, event.individual)
        seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        if movement == "first":
            if previous is not None:
                raise TournamentError(
                    _("Only the first turn is seated by entry order, draw or hand."),
                    code="not_first_turn",
                )
            movement = "mitchell" if first_order != "hand" else "hand"
        elif movement == "pairing" and not pairing and by_hand:
            movement = "hand"  # the desk's form has read the pasted lines already
        notes: tuple[str, ...] = ()
        order = _order(event, playing, first_order, seed)
        individual: list[tuple[int, tuple[int, int], tuple[int, int]]] = []
        sides: list[tuple[int, int, int]] = []
        if movement == "individual":
            try:
                individual, byes, state = individual_turn(event, playing, number, seed)
            except movements.MovementError as error:
                raise _movement_error(error) from None
            event.ranking = {**event.ranking, "individual": state}
        elif movement == "hand":
            sides, byes = _by_hand_sides(by_hand, by_hand_byes, playing)
        elif movement == "pairing":
            sides, byes = _pasted(pairing, number, playing)
        else:
            done = event.rounds.filter(movement=movement).count()
            try:
                if movement == "mitchell":
                    schedule = movements.mitchell(len(order), done + 1, step)
                elif movement == "round_robin":
                    groups = _round_robin_groups(event, groups, done)
                    schedule = movements.round_robin(len(order), done + 1, groups)
                else:
                    last = number >= event.ranking.get("turns", number)
                    schedule = movements.next_danese_turn(
                        _danese_standings(event, playing, last), variant
                    )
            except movements.MovementError as error:
                raise _movement_error(error) from None
            turn = schedule.turns[-1]
            notes = schedule.notes
            if movement == "danese":
                sides = [(i, int(t.ns), int(t.ew)) for i, t in enumerate(turn.tables, 1)]
                byes = [int(b) for b in turn.byes]
            else:
                sides = [
                    (i, order[int(t.ns) - 1], order[int(t.ew) - 1])
                    for i, t in enumerate(turn.tables, 1)
                ]
                byes = [order[int(b) - 1] for b in turn.byes]
                sides, byes = _without_withdrawn(sides, byes, playing)
        if movement in ("mitchell", "round_robin"):
            _refuse_rematches(event, movement, sides)
        if previous is not None:
            Round.objects.filter(pk=previous.pk).update(status=Round.Status.CLOSED)
        if event.status == Event.Status.PLANNED:
            event.status = Event.Status.RUNNING
        event.ranking = {**event.ranking, "order": order}
        if movement == "round_robin":
            event.ranking["round_robin_groups"] = groups
        event.save(update_fields=["status", "ranking"])
        rnd = Round.objects.create(
            event=event,
            number=number,
            seating_seed=seed,
            hands_per_turn=hands,
            time_limit=time_limit,
            movement=movement,
            movement_step=step if movement == "mitchell" else None,
            movement_variant=variant if movement == "danese" else "",
            first_order=first_order if number == 1 and movement != "individual" else "",
            started_at=now,
            seating_explanation=list(notes),
        )
        by_number = {p.number: p for p in playing}
        games = []
        for table_number, ns, ew in sides:
            games.append(_seat_table(rnd, table_number, by_number[ns], by_number[ew], event, hands))
        for table_number, (a, b), (c, d) in individual:
            games.append(
                _seat_individual_table(
                    rnd,
                    table_number,
                    (by_number[a], by_number[b]),
                    (by_number[c], by_number[d]),
                    event,
                    hands,
                )
            )
        for pair in byes:
            write_bye(rnd=rnd, pair_id=by_number[pair].pk)
        announce(event.pk, [g.pk for g in games])
    return SeatedTurn(rnd, notes)


def _seat_table(
    rnd: Round, number: int, ns: BurracoPair, ew: BurracoPair, event: Event, hands: int
) -> Game:
    # Clockwise from North: N, E, S, W (partners opposite).
    players = [ns.player_a, ew.player_a, ns.player_b, ew.player_b]
    return _open_table(rnd, number, players, event, hands, ns_pair=ns, ew_pair=ew)


def _open_table(
    rnd: Round, number: int, players: list, event: Event, hands: int, **sides: BurracoPair
) -> Game:
    """The table (its lines' entries in `sides`), its four seats N, E, S, W, its game and
    an empty score card."""
    table = Table.objects.create(round=rnd, number=number, **sides)
    Seat.objects.bulk_create(
        [Seat(table=table, position=i, player=p) for i, p in enumerate(players)]
    )
    game = Game.objects.create(
        table=table,
        kind=Game.Kind.BURRACO,
        ruleset=event.ruleset,
        player_names=unique_names([p.name for p in players]),
        deals_target=hands,
        totals={"NS": 0, "EW": 0},
    )
    ScoreCard.objects.create(game=game)
    return game


def _individual_movement(event: Event, movement: str) -> str:
    """An individual tournament seats every turn by the individual movement ("first"
    included); a pair tournament never does."""
    if event.individual:
        if movement not in ("first", "individual"):
            raise TournamentError(
                _("An individual tournament seats every turn by the individual movement."),
                code="individual_only",
                params={"movement": movement},
            )
        return "individual"
    if movement == "individual":
        raise TournamentError(
            _("The individual movement seats individual tournaments only."),
            code="not_individual",
        )
    return movement


def _seat_individual_table(
    rnd: Round,
    number: int,
    ns: tuple[BurracoPair, BurracoPair],
    ew: tuple[BurracoPair, BurracoPair],
    event: Event,
    hands: int,
) -> Game:
    """A table of two players a side: NS = North and South, EW = East and West."""
    players = [ns[0].player_a, ew[0].player_a, ns[1].player_a, ew[1].player_a]
    return _open_table(
        rnd,
        number,
        players,
        event,
        hands,
        ns_pair=ns[0],
        ns_partner=ns[1],
        ew_pair=ew[0],
        ew_partner=ew[1],
    )
