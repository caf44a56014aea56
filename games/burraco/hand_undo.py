"""The entering line takes back its last hand before the other line confirmed the card
(a wrong hand seen at once, before the confirming pair checks it): the hand removed, the
card's totals and the pairs' rows rewritten, the undo kept in the card's history. The
referee's correction (scorecards.card_correct) stays the way to change anything else."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.burraco.results import announce
from games.burraco.scorecards import lock_game, refresh_card
from games.burraco.turn_clock import after_time
from games.core.errors import DealConflict, EntryError, GameClosed
from games.models import Event, Round, ScoreCard, ScoreCardRevision


def hand_undo(
    *,
    game_id: int,
    number: Any,
    client: str,
    organiser: bool = False,
    by_user: Any = None,
    by_label: str = "",
) -> ScoreCard:
    """Remove hand `number`, the card's last, entered by `client` (the phone or the API
    client that entered it: BurracoHand.client); an organiser may undo any table's last
    hand (`organiser`). Refused once the card is confirmed or disputed, when a later
    hand exists, for another client's hand, and in a closed turn or tournament.

    `number` names the hand the sender sees as the last: a second tap, or a phone
    showing an older card, never removes another hand."""
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise EntryError(_("Say which hand to undo (its number)."), code="invalid_number")
    with transaction.atomic():
        game, table, rnd, event = lock_game(game_id)
        if event.status == Event.Status.CLOSED or rnd.status == Round.Status.CLOSED:
            raise GameClosed(
                _("Turn %(turn)s is over: only the referee can change its score cards.")
                % {"turn": rnd.number},
                code="turn_closed",
                params={"turn": rnd.number},
            )
        card = ScoreCard.objects.get(game=game)
        if card.status in (ScoreCard.Status.CONFIRMED, ScoreCard.Status.DISPUTED):
            raise GameClosed(
                _(
                    "This score card is %(status)s: a hand can no longer be undone, "
                    "ask the referee to correct it."
                )
                % {"status": card.get_status_display()},
                code="card_" + card.status,
            )
        last = game.hands.order_by("-number").first()
        if last is None or number > last.number:
            raise DealConflict(
                _("Hand %(number)s is not on the score card: nothing to undo.")
                % {"number": number},
                code="hand_missing",
                params={"number": number},
            )
        if number < last.number:
            raise DealConflict(
                _("Hand %(number)s cannot be undone: hand %(last)s is entered after it.")
                % {"number": number, "last": last.number},
                code="later_hand",
                params={"number": number, "last": last.number},
            )
        if not organiser and (not client or last.client != client):
            raise EntryError(
                _(
                    "Only the phone that entered hand %(number)s can undo it; "
                    "otherwise ask the referee."
                )
                % {"number": number},
                code="undo_by_other_client",
                params={"number": number},
            )
        before = {"number": last.number, "hand": last.data, "NS": last.ns_mp, "EW": last.ew_mp}
        last.delete()
        refresh_card(game, card, table)
        ScoreCardRevision.objects.create(
            round=rnd,
            game=game,
            number=number,
            version=card.version,
            action=ScoreCardRevision.Action.UNDONE,
            before=before,
            by_user=by_user if getattr(by_user, "is_authenticated", False) else None,
            by_label=by_label[:80],
            late=after_time(rnd, timezone.now()),
        )
        announce(event.pk, [game.pk])
    return card
