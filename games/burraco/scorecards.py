"""A table's score card: hands submitted (points or cards counted by the engine's
calculator), the card confirmed by the other line (a pair, or two players in an individual
tournament) or disputed, the referee's corrections and penalties. Each function owns its
transaction and locks the game row first, as Barbu's deals do (games/barbu/submission.py):
nothing is half-written."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.burraco.hand_reading import LINES, read_hand, reject
from games.burraco.results import (
    announce,
    card_complete,
    card_result,
    is_free_match,
    match_state,
    seat_row,
    write_table_results,
)
from games.burraco.tournament_base import closed_error
from games.burraco.turn_clock import after_time
from games.core.errors import (
    DealConflict,
    DealRejected,
    EntryError,
    GameClosed,
    StaleVersion,
)
from games.core.idempotency import keep_answer, replayed, request_fingerprint
from games.models import (
    BurracoHand,
    Event,
    Game,
    PairTurnResult,
    Round,
    ScoreCard,
    ScoreCardRevision,
    Table,
)
from scoring.engine import burraco


@dataclass(frozen=True)
class CardAnswer:
    body: dict[str, Any]
    status_code: int
    created: bool = True


def lock_game(game_id: int) -> tuple[Game, Table, Round, Event]:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.kind != Game.Kind.BURRACO:
        raise EntryError(_("This score card does not exist."), code="not_found")
    table = Table.objects.select_related("round__event").get(pk=game.table_id)
    return game, table, table.round, table.round.event


def _hand_json(hand: BurracoHand) -> dict[str, Any]:
    """A stored hand as the score card lists it (and a 409 gives it, under `stored`)."""
    return {
        "number": hand.number,
        "version": hand.version,
        "mode": hand.mode,
        "hand": hand.data,
        "NS": hand.scores.get("NS", {}),
        "EW": hand.scores.get("EW", {}),
        "late": hand.late,
    }


def card_body(game: Game, card: ScoreCard, hands: list[BurracoHand] | None = None) -> dict:
    """The JSON of a score card as the table, the desk and the API show it."""
    if hands is None:
        hands = list(game.hands.order_by("number"))
    per_turn = game.deals_target
    result = card_result(card, game, per_turn)
    free = is_free_match(game)
    body = {
        "game": game.pk,
        "status": card.status,
        "version": card.version,
        "hands_per_turn": None if free else per_turn,
        "entered_line": card.entered_line or None,
        "confirmed_line": card.confirmed_line or None,
        "hands": [_hand_json(h) for h in hands],
        "totals": {"NS": card.ns_total, "EW": card.ew_total},
        "difference": abs(card.ns_total - card.ew_total),
        "winner": result["winner"],
        "vp": {"NS": card.ns_vp, "EW": card.ew_vp},
        "complete": card_complete(card, game, len(hands)),
        "match": None,
    }
    if free:
        state = match_state(card, game)
        body["match"] = {"target": state.target, "needs": state.needs}
    return body


def refresh_card(game: Game, card: ScoreCard, table: Table) -> list[BurracoHand]:
    """Totals, VP and state of the card from its hands; the pairs' rows rewritten."""
    hands = list(game.hands.order_by("number"))
    card.ns_total = sum(h.ns_mp for h in hands)
    card.ew_total = sum(h.ew_mp for h in hands)
    vp = card_result(card, game, game.deals_target)["vp"]
    card.ns_vp, card.ew_vp = vp["NS"], vp["EW"]
    complete = card_complete(card, game, len(hands))
    if card.status == ScoreCard.Status.OPEN and complete:
        card.status = ScoreCard.Status.ENTERED
    elif card.status == ScoreCard.Status.ENTERED and not complete:
        card.status = ScoreCard.Status.OPEN
    card.version += 1
    card.save()
    game.deals_count = len(hands)
    game.totals = {"NS": card.ns_total, "EW": card.ew_total}
    game.status = (
        Game.Status.COMPLETE
        if card.status == ScoreCard.Status.CONFIRMED
        else Game.Status.IN_PROGRESS
    )
    game.save(update_fields=["deals_count", "totals", "status", "updated_at"])
    if hands:
        write_table_results(table=table, game=game, card=card, hands=len(hands))
    else:
        rows = PairTurnResult.objects.filter(round_id=table.round_id, table=table)
        # A penalty given before the card had a hand stays on its row, nothing scored.
        rows.filter(penalty_vp=0, penalty_mp=0).delete()
        rows.update(hands=0, mp_for=0, mp_against=0, vp=Decimal(0), final=False)
    return hands


def _refuse_after_match(game: Game, card: ScoreCard, replay: Any = None) -> None:
    """A free match takes no hand once the engine says it is won (409 match_over); a hand
    already stored sent again (`replay` with its number) is left to answer 200."""
    state = match_state(card, game)
    number = replay.get("number") if isinstance(replay, dict) else None
    if (
        isinstance(number, int)
        and not isinstance(number, bool)
        and 1 <= number <= (game.deals_count)
    ):
        return
    if state.complete:
        winner = str(state.winner)
        raise GameClosed(
            _("This match is over: %(line)s won, %(ns)s to %(ew)s. No more hands.")
            % {"line": pgettext("line", winner), "ns": state.ns, "ew": state.ew},
            code="match_over",
            params={"winner": state.winner, "totals": {"NS": state.ns, "EW": state.ew}},
        )


def _running(read: list[tuple[str, dict, dict]], target: int) -> list[burraco.MatchState]:
    ns = ew = 0
    states = []
    for _mode, _data, scores in read:
        ns += scores["NS"]["score"]
        ew += scores["EW"]["score"]
        states.append(burraco.free_match_state(ns, ew, target))
    return states


def _check_match_hands(game: Game, read: list[tuple[str, dict, dict]]) -> None:
    """A corrected free match: no hand after the one that won it."""
    target = burraco.ruleset_from_json(game.ruleset).target
    for number, state in enumerate(_running(read, target)[:-1], 1):
        if state.complete:
            raise reject(
                "hands",
                "match_over",
                _("The match is won after hand %(number)s: no hand can follow it.")
                % {"number": number},
                {"number": number},
            )


def _match_won(game: Game, read: list[tuple[str, dict, dict]]) -> bool:
    target = burraco.ruleset_from_json(game.ruleset).target
    states = _running(read, target)
    return bool(states) and states[-1].complete


def hand_submit(
    *,
    game_id: int,
    hand: Any,
    line: str = "",
    by_user: Any = None,
    by_label: str = "",
    idempotency_key: str | None = None,
    client: str = "",
) -> CardAnswer:
    """Store the next hand of a table's score card, entered by one line (NS or EW).

    `hand` is read by read_hand, with an optional "number" (the hand the table believes
    it is entering: the same hand sent again answers 200, another one 409). Idempotent
    with `idempotency_key` as Barbu's deals are. `client`: who sends it (a phone, a table
    key, an organiser: BurracoHand.client); that client cannot confirm the card, and its
    hand saved after the turn's time is marked late (games/burraco/turn_clock.py).
    """
    fingerprint = request_fingerprint({"hand": hand, "line": line})
    with transaction.atomic():
        game, table, rnd, event = lock_game(game_id)
        scope = f"game:{game.pk}:hands"
        earlier = replayed(
            scope,
            idempotency_key,
            fingerprint,
            _("This Idempotency-Key was already used for a different hand."),
        )
        if earlier is not None:
            return CardAnswer(*earlier, created=False)
        if event.status == Event.Status.CLOSED or rnd.status == Round.Status.CLOSED:
            raise GameClosed(
                _("Turn %(turn)s is over: only the referee can change its score cards.")
                % {"turn": rnd.number},
                code="turn_closed",
                params={"turn": rnd.number},
            )
        card = ScoreCard.objects.get(game=game)
        if line and line not in LINES:
            raise EntryError(_("The line should be NS or EW."), code="invalid_line")
        free = is_free_match(game)
        if free and card.status != ScoreCard.Status.OPEN:
            # A confirmed (or disputed) match is over: say so rather than "confirmed".
            _refuse_after_match(game, card, replay=hand)
        if card.status in (ScoreCard.Status.CONFIRMED, ScoreCard.Status.DISPUTED):
            raise GameClosed(
                _("This score card is %(status)s: ask the referee to change it.")
                % {"status": card.get_status_display()},
                code="card_" + card.status,
            )
        if line and card.entered_line and line != card.entered_line:
            raise EntryError(
                _("The hands of this table are entered by %(line)s; the other line confirms.")
                % {"line": card.entered_line},
                code="other_line_enters",
                params={"line": card.entered_line},
            )
        number = None
        if isinstance(hand, dict) and "number" in hand:
            hand = dict(hand)
            number = hand.pop("number")
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise reject(
                    "number", "invalid_number", _("number must be a positive whole number")
                )
        count = game.hands.count()
        mode, data, scores = read_hand(hand, game.ruleset, (number or count + 1))
        if number is not None and number <= count:
            existing = game.hands.get(number=number)
            if existing.data == data:
                body = card_body(game, card)
                # The key now stands for this request: reused with another hand, refused.
                keep_answer(scope, idempotency_key, fingerprint, body, status=200)
                return CardAnswer(body, 200, created=False)
            raise DealConflict(
                _("Hand %(number)s is already stored with other points; ask the referee.")
                % {"number": number},
                code="hand_conflict",
                params={"number": number},
                extra={"stored": _hand_json(existing)},
            )
        if number is not None and number > count + 1:
            raise DealRejected(
                _("Hand %(number)s cannot be entered before hand %(expected)s.")
                % {"number": number, "expected": count + 1},
                code="hand_out_of_order",
                params={"number": number, "expected": count + 1},
            )
        if free:
            _refuse_after_match(game, card)
        elif count >= game.deals_target:
            raise GameClosed(
                _("All %(count)s hands of this turn are in.") % {"count": count},
                code="card_full",
                params={"hands": count},
            )
        entered_by = by_user if getattr(by_user, "is_authenticated", False) else None
        # Late: sent by a client (a phone, a table key, an organiser) after the turn's
        # time; a script replaying a past turn (the demo) names no client.
        late = bool(client) and after_time(rnd, timezone.now())
        stored = BurracoHand.objects.create(
            game=game,
            number=count + 1,
            mode=mode,
            data=data,
            scores=scores,
            ns_mp=scores["NS"]["score"],
            ew_mp=scores["EW"]["score"],
            entered_line=line,
            entered_by=entered_by,
            entered_from=by_label[:80],
            client=client[:40],
            late=late,
        )
        if line and not card.entered_line:
            card.entered_line = line
        hands = refresh_card(game, card, table)
        ScoreCardRevision.objects.create(
            round=rnd,
            game=game,
            number=stored.number,
            version=1,
            action=ScoreCardRevision.Action.ENTERED,
            after=data,
            by_user=entered_by,
            by_label=by_label[:80],
            late=late,
        )
        body = card_body(game, card, hands)
        keep_answer(scope, idempotency_key, fingerprint, body)
        announce(event.pk, [game.pk])
    return CardAnswer(body, 201)


def card_confirm(
    *,
    game_id: int,
    line: str,
    agree: bool,
    by_label: str = "",
    note: str = "",
    by_user: Any = None,
    client: str = "",
) -> ScoreCard:
    """The other line accepts the card once every hand is in, or disputes it (the referee
    then decides).

    `client`: who sends it, as hand_submit takes it; the client that entered a hand of the
    card is refused (a phone that switched lines, one table key confirming as the other
    line: 403 confirm_by_entering_client). The referee confirms without one (the desk, an
    organiser through the API)."""
    with transaction.atomic():
        game, table, rnd, event = lock_game(game_id)
        card = ScoreCard.objects.get(game=game)
        if line not in LINES:
            raise EntryError(_("The line should be NS or EW."), code="invalid_line")
        # Decided already (the other phone of the line won the race, or the referee):
        # one answer whichever way it went, a conflict saying how.
        if card.status == ScoreCard.Status.CONFIRMED:
            raise DealConflict(
                _("This score card is already confirmed."),
                code="already_confirmed",
                params={"status": card.status},
            )
        if card.status == ScoreCard.Status.DISPUTED:
            raise DealConflict(
                _("This score card is with the referee."),
                code="card_disputed",
                params={"status": card.status},
            )
        if agree and card.status != ScoreCard.Status.ENTERED and is_free_match(game):
            raise EntryError(
                _("The score card can be confirmed once the match is won."),
                code="card_incomplete",
            )
        if agree and card.status != ScoreCard.Status.ENTERED:
            raise EntryError(
                _("The score card can be confirmed once all %(count)s hands are in.")
                % {"count": game.deals_target},
                code="card_incomplete",
            )
        if line == card.entered_line:
            raise EntryError(
                _("The line that entered the hands cannot confirm them: the other line does."),
                code="confirm_same_line",
            )
        if client and game.hands.filter(client=client).exists():
            raise EntryError(
                _(
                    "The hands of this score card were entered from here: the other pair "
                    "confirms it on its own phone, or the referee does."
                ),
                code="confirm_by_entering_client",
            )
        card.status = ScoreCard.Status.CONFIRMED if agree else ScoreCard.Status.DISPUTED
        card.confirmed_line = line
        card.note = note[:200]
        refresh_card(game, card, table)
        ScoreCardRevision.objects.create(
            round=rnd,
            game=game,
            number=0,
            version=card.version,
            action=ScoreCardRevision.Action.CONFIRMED
            if agree
            else ScoreCardRevision.Action.DISPUTED,
            by_user=by_user if getattr(by_user, "is_authenticated", False) else None,
            by_label=by_label[:80],
            reason=note[:200],
        )
        announce(event.pk, [game.pk], rated=agree)
    return card


def card_correct(
    *,
    game_id: int,
    hands: list[Any],
    reason: str,
    by_user: Any,
    expected_version: int | None = None,
    confirm: bool = True,
    time_out: bool = False,
) -> ScoreCard:
    """The referee rewrites a card's hands (all of them, in order) with a reason.

    Allowed in any turn: only the results change, never a seating already made (in a
    Danese tournament the next turn stays as it was seated). `expected_version`: the
    card's version the referee saw (If-Match); an older one is refused. `time_out`: the
    turn's time ran out, the hands given are all the table played; the card is confirmed
    with them (the VP table of the turn's planned hands still applies).
    """
    if not reason.strip():
        raise EntryError(_("Say why the score card is corrected."), code="reason_required")
    with transaction.atomic():
        game, table, rnd, event = lock_game(game_id)
        if event.status == Event.Status.CLOSED:  # its ranking is final: reopen it first
            raise closed_error(event)
        card = ScoreCard.objects.get(game=game)
        if expected_version is not None and expected_version != card.version:
            raise StaleVersion(
                _("The score card changed meanwhile (version %(version)s): look at it again.")
                % {"version": card.version},
                params={"version": card.version},
            )
        free = is_free_match(game)
        if len(hands) > game.deals_target and not free:
            raise reject(
                "hands",
                "too_many_hands",
                _("This turn plays %(count)s hands.") % {"count": game.deals_target},
            )
        read = [read_hand(h, game.ruleset, i) for i, h in enumerate(hands, 1)]
        if free:
            _check_match_hands(game, read)
        stored = {h.number: h for h in game.hands.all()}
        before = {n: h.data for n, h in stored.items()}
        for number, (mode, data, scores) in enumerate(read, 1):
            old = stored.pop(number, None)
            if old is not None and old.data == data:
                continue
            fields = {
                "mode": mode,
                "data": data,
                "scores": scores,
                "ns_mp": scores["NS"]["score"],
                "ew_mp": scores["EW"]["score"],
            }
            if old is None:
                BurracoHand.objects.create(game=game, number=number, entered_by=by_user, **fields)
            else:
                for key, value in fields.items():
                    setattr(old, key, value)
                old.version += 1
                old.save()
        for old in stored.values():
            old.delete()
        if free:
            won = _match_won(game, read)
            if confirm and won:
                card.status = ScoreCard.Status.CONFIRMED
            elif not won:
                card.status = ScoreCard.Status.OPEN
        elif confirm and (len(read) == game.deals_target or time_out):
            card.status = ScoreCard.Status.CONFIRMED
        elif card.status == ScoreCard.Status.CONFIRMED and len(read) < game.deals_target:
            card.status = ScoreCard.Status.OPEN
        refresh_card(game, card, table)
        ScoreCardRevision.objects.create(
            round=rnd,
            game=game,
            number=0,
            version=card.version,
            action=ScoreCardRevision.Action.CORRECTED,
            before={"hands": [before[n] for n in sorted(before)]},
            after={"hands": [data for _, data, _ in read]},
            by_user=by_user if getattr(by_user, "is_authenticated", False) else None,
            reason=reason[:200],
        )
        announce(event.pk, [game.pk], rated=True)
    return card


def _decimal(value: Any, field: str) -> Decimal:
    try:
        out = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise reject(
            field, "invalid_number", _("%(field)s should be a number.") % {"field": field}
        ) from None
    # As PairTurnResult.penalty_vp stores it: 0 to 20, at most two decimals (0.001 would
    # be stored as 0.00 while the history kept 0.001).
    if not out.is_finite() or out < 0 or out > 20 or out != out.quantize(Decimal("0.01")):
        raise reject(
            field,
            "invalid_penalty",
            _("A penalty takes from 0 to 20 VP, with at most two decimals."),
            {"value": str(value)},
        )
    return out


def penalty_set(
    *, round_id: int, pair_id: int, vp: Any, mp: Any, reason: str, by_user: Any
) -> PairTurnResult:
    """The referee takes VP and MP from one entry (a pair, or a player of an individual
    tournament) in one turn; its opponents gain nothing."""
    if not reason.strip():
        raise EntryError(_("Say why the penalty is given."), code="reason_required")
    penalty_vp = _decimal(vp, "vp")
    if isinstance(mp, bool) or not isinstance(mp, int) or mp < 0 or mp % 5:
        raise reject(
            "mp", "invalid_penalty", _("A penalty takes a whole multiple of 5 MP, 0 or more.")
        )
    with transaction.atomic():
        rnd = Round.objects.select_related("event").get(pk=round_id)
        if rnd.event.status == Event.Status.CLOSED:  # its ranking is final: reopen it first
            raise closed_error(rnd.event)
        row = PairTurnResult.objects.select_for_update().filter(round=rnd, pair_id=pair_id).first()
        if row is None:
            # Seated, its table without a hand yet: the row of its seat, nothing scored.
            row = seat_row(rnd, pair_id)
        if row is None:
            missing = (
                _("This player has no result in this turn yet.")
                if rnd.event.individual
                else _("This pair has no result in this turn yet.")
            )
            raise EntryError(missing, code="no_result")
        before = {"vp": str(row.penalty_vp), "mp": row.penalty_mp, "reason": row.penalty_reason}
        row.penalty_vp, row.penalty_mp, row.penalty_reason = penalty_vp, mp, reason[:200]
        row.save(update_fields=["penalty_vp", "penalty_mp", "penalty_reason", "updated_at"])
        game_id = Game.objects.filter(table_id=row.table_id).values_list("pk", flat=True).first()
        ScoreCardRevision.objects.create(
            round=rnd,
            game_id=game_id,
            pair_id=pair_id,
            number=0,
            version=0,
            action=ScoreCardRevision.Action.PENALTY,
            before=before,
            after={"vp": str(penalty_vp), "mp": mp, "reason": reason[:200]},
            by_user=by_user if getattr(by_user, "is_authenticated", False) else None,
            reason=reason[:200],
        )
        announce(rnd.event_id, [game_id] if game_id else [])
    return row
