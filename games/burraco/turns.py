"""A Burraco tournament's turns seated in one action: the previous turn closed, the
movement run (the pure games.burraco.movements, through games/burraco/turn_sides.py), each table
opened with its seats, game and empty score card, the byes scored."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.burraco import history, movements
from games.burraco.individual import individual_turn
from games.burraco.results import announce, write_bye
from games.burraco.tournament_base import (
    HANDS,
    MOVEMENTS,
    TournamentError,
    TurnConflict,
    check_burraco,
)
from games.burraco.turn_sides import (
    _by_hand_sides,
    _danese_standings,
    _individual_movement,
    _movement_error,
    _pasted,
    _refuse_absent,
    _refuse_rematches,
    _round_robin_groups,
    calendar_order,
    without_withdrawn,
)
from games.core.short_names import unique_names
from games.models import (
    BurracoPair,
    Event,
    Game,
    Round,
    ScoreCard,
    Seat,
    Table,
)


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
    by_user: Any = None,
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
        check_burraco(event)
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
        planned = int(event.ranking.get("turns") or 0)
        if event.individual and planned and number > planned:
            # Its schedule is drawn for the planned turns: no "turn 4 / 3".
            raise TournamentError(
                ngettext(
                    "This individual tournament plays %(turns)s turn: it is seated.",
                    "This individual tournament plays %(turns)s turns: all are seated.",
                    planned,
                )
                % {"turns": planned},
                code="turns_over",
                params={"turns": planned},
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
        order = calendar_order(event, playing, first_order, seed)
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
                sides, byes = without_withdrawn(sides, byes, playing)
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
        history.log(
            event,
            history.SEATED,
            by_user,
            rnd=rnd,
            movement=movement,
            first_order=rnd.first_order,
            tables=len(games),
            byes=sorted(byes),
        )
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
