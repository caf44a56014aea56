"""A substitute takes over a seat from the next deal (the organiser's seat swap, issue 14).

The deals already stored stay with the player who played them; from the next deal on,
the seat is played by the substitute (games/barbu/seat_history.py says who played which deal,
and why the game record keeps naming the seat by its first player). A Substitution row
records it, the evening's log says who recorded it and when, the game's derived rows
are rewritten and the standings queued once the transaction commits.

Who may come in: a checked-in player not seated in this round (on a bye, or out of
another seat after an earlier substitution), or the player of a table of this round
whose game is complete. Never someone already at this table, nor someone at a table
still playing. The player who leaves keeps no bye (they played this round); the
substitute loses theirs.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Player
from games.barbu.evenings import _announce, _check_swap, _locked_seat
from games.barbu.game_scores import write_scores
from games.barbu.selectors import game_record
from games.core.errors import EveningError
from games.models import EventLog, EventPlayer, Game, Round, Substitution
from scoring.engine import barbu


def substitute(
    *,
    rnd: Round,
    seat_id: int,
    player_id: int | None = None,
    other_seat_id: int | None = None,
    from_deal: int | None = None,
    by_user: Any = None,
) -> Substitution | None:
    """From the game's next deal on, `player_id` (or the player of `other_seat_id`, at a
    finished table) plays seat `seat_id`.

    `from_deal`: the deal the organiser saw as next (a deal stored meanwhile is refused:
    someone must say who played it). Two changes before the seat's next deal is played
    make one (A out, B in, then C in: A out, C in); going back to the seat's player
    before then leaves no substitution (None).
    """
    _check_swap(rnd, other_seat_id, player_id)
    with transaction.atomic():
        seats, seat, games = _locked_seat(rnd, seat_id)
        game = games.get(seat.table_id)
        _check_game(rnd, seat.table.number, game, from_deal)
        if other_seat_id is not None:
            other = seats.get(other_seat_id)
            if other is None:
                raise EveningError(_("This seat is not in this round."), code="unknown_seat")
            player_id = other.player_id
        incoming = Player.objects.filter(pk=player_id).first()
        if incoming is None:
            raise EveningError(
                _("Only a checked-in player can take a seat."), code="not_checked_in"
            )
        _check_incoming(rnd, seat, incoming, seats, games)

        next_deal = game.deals_count + 1
        leaving = outgoing = seat.player
        pending = Substitution.objects.filter(game=game, seat=seat.position, from_deal=next_deal)
        earlier = pending.first()
        if earlier is not None:
            # The seat's last substitute has played no deal yet: they never sat there.
            outgoing = earlier.player_out
            earlier.delete()
        change = None
        if incoming.pk != outgoing.pk:
            change = Substitution.objects.create(
                game=game,
                seat=seat.position,
                from_deal=next_deal,
                player_out=outgoing,
                player_in=incoming,
                by_user=by_user if getattr(by_user, "is_authenticated", False) else None,
            )
        seat.player = incoming
        seat.save(update_fields=["player"])
        rnd.byes.remove(incoming.pk)
        game.substituted = True
        game.save(update_fields=["substituted", "updated_at"])
        deals = list(game.deals.order_by("number"))
        write_scores(game, barbu.score_game(game_record(game, deals)), deals)
        EventLog.objects.create(
            event=rnd.event,
            round=rnd,
            action=EventLog.Action.SUBSTITUTED,
            by_user=by_user if getattr(by_user, "is_authenticated", False) else None,
            # Stored as names: the log reads the same whatever happens to the rows later.
            detail={
                "game": game.pk,
                "table": seat.table.number,
                "seat": seat.position + 1,
                "from_deal": next_deal,
                "out": leaving.name,
                "in": incoming.name,
            },
        )
        _announce([game], rnd.event_id)
    return change


def _check_game(rnd: Round, table: int, game: Game | None, from_deal: int | None) -> None:
    """Refuse unless the table's game has deals, is not complete and `from_deal` is next."""
    if rnd.status == Round.Status.CLOSED:
        raise EveningError(
            _("Round %(round)s is closed: no substitute can take over a seat.")
            % {"round": rnd.number},
            code="round_closed",
        )
    if game is None or not game.deals_count:
        raise EveningError(
            _(
                "Table %(table)s has not played a deal yet: nobody is substituted, simply "
                "swap the seats (without choosing what happened)."
            )
            % {"table": table},
            code="substitute_before_play",
        )
    if game.status == Game.Status.COMPLETE:
        raise EveningError(
            _("Table %(table)s has finished its game: there is no next deal to substitute for.")
            % {"table": table},
            code="substitute_game_complete",
        )
    next_deal = game.deals_count + 1
    if from_deal is not None and from_deal != next_deal:
        raise EveningError(
            ngettext(
                "Deal %(from)s is already stored: %(count)s deal was entered since you "
                "opened this page. Ask the table who played it; the substitute can take "
                "over from deal %(next)s.",
                "Deal %(from)s is already stored: %(count)s deals were entered since you "
                "opened this page. Ask the table who played them; the substitute can take "
                "over from deal %(next)s.",
                next_deal - from_deal,
            )
            % {"from": from_deal, "count": next_deal - from_deal, "next": next_deal}
            if from_deal < next_deal
            else _("Deal %(from)s is not the next deal of table %(table)s (deal %(next)s).")
            % {"from": from_deal, "table": table, "next": next_deal},
            code="substitute_deal_stored",
            params={"from_deal": from_deal, "next": next_deal},
        )


def _check_incoming(rnd: Round, seat: Any, incoming: Player, seats: dict, games: dict) -> None:
    """Refuse a substitute already at this table, playing at another, or not checked in."""
    here = [s for s in seats.values() if s.player_id == incoming.pk]
    if any(s.table_id == seat.table_id for s in here):
        raise EveningError(
            _("%(name)s is already playing at this table: nobody can hold two seats.")
            % {"name": incoming.name},
            code="substitute_same_table",
        )
    for other in here:
        other_game = games.get(other.table_id)
        if other_game is None or other_game.status != Game.Status.COMPLETE:
            raise EveningError(
                _(
                    "%(name)s is playing at table %(table)s: a substitute must be a player "
                    "on a bye, not seated, or from a table that has finished its game."
                )
                % {"name": incoming.name, "table": other.table.number},
                code="substitute_playing",
            )
    present = EventPlayer.objects.filter(
        event_id=rnd.event_id, player=incoming, active=True
    ).exists()
    if not present:
        raise EveningError(_("Only a checked-in player can take a seat."), code="not_checked_in")
