"""The Burraco score card at the table: a phone opened from the table card's QR code.

The key in the URL is the only credential, as for Barbu (games/barbu/table_views.py). The
phone says once which line it is (NS or EW, kept in the session); one line enters the
hands, each as both lines' MP or counted from the cards by the engine's calculator, and
the other line confirms the card or disputes it for the referee.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_GET, require_POST

from games.burraco import event_tables, free_matches
from games.burraco.hand_form import hand_from_form, line_label
from games.burraco.hand_preview import breakdown, preview
from games.burraco.hand_undo import hand_undo
from games.burraco.offline_plan import offline_plan
from games.burraco.scorecards import LINES, CardAnswer, card_body, card_confirm, hand_submit
from games.burraco.turn_clock import seconds_left
from games.core import live, offline
from games.core.errors import DealConflict, DealRejected, EntryError, IdempotencyMismatch
from games.core.table_pages import (
    ids_of_key,
    not_found_page,
    remember_ids_of_key,
    table_by_key,
    table_game,
    with_table,
)
from games.models import BurracoPair, Game, ScoreCard, Table

SESSION_LINE = "burraco-line:%s"
# The line a phone is bound to for one score card: the entering line, once this phone
# entered a hand as it or chose it after that line's first hand. "Change line" cannot
# turn it into the confirming line (the other pair confirms on its own phone).
SESSION_BOUND = "burraco-bound:%s"
SESSION_PHONE = "burraco-phone"


def _burraco_table(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The table's key must name a Burraco table with its score card (else the 404 page)."""

    @with_table
    @wraps(view)
    def wrapped(request: HttpRequest, table: Table, **kwargs: Any) -> HttpResponse:
        game = table_game(table)
        if game is None or game.kind != Game.Kind.BURRACO:
            return not_found_page(request)
        return view(request, table, **kwargs)

    return wrapped


def chosen_line(request: HttpRequest, key: str) -> str | None:
    line = request.session.get(SESSION_LINE % key)
    return line if line in LINES else None


def phone_client(request: HttpRequest) -> str:
    """This phone, as a score card's hands name who entered them (BurracoHand.client): an
    id kept in its session."""
    phone = request.session.get(SESSION_PHONE)
    if not phone:
        phone = request.session[SESSION_PHONE] = uuid.uuid4().hex[:16]
    return f"phone:{phone}"


def bound_line(request: HttpRequest, table: Table, card: ScoreCard | None = None) -> str | None:
    """The line this phone keeps for this score card (None: it may still change): the
    one it entered hands as, or the entering line it has chosen."""
    key = table.key
    bound = request.session.get(SESSION_BOUND % key)
    if bound in LINES:
        return bound
    line = chosen_line(request, key)
    card = card or ScoreCard.objects.filter(game=table.game).first()
    if line is not None and card is not None and card.entered_line == line:
        request.session[SESSION_BOUND % key] = line
        return line
    return None


def state_etag(game_id: int, event_id: int) -> str:
    """The ETag of what a score card page shows: its game's version (a hand, a
    confirmation, a dispute, a correction) and its tournament's state (a turn closed or
    seated, the tournament closed; not the other tables' hands nor the ranking), read
    before the data they label (games/core/live.py)."""
    game, event = live.version("game", game_id), live.version("status", event_id)
    return live.etag(f"{game}.{event}", "burraco-card") if game and event else ""


def card_stamp(card: ScoreCard, table: Table) -> str:
    """Changes whenever the page would show something else: the card's version (raised at
    every change of the card), its turn's and its tournament's state."""
    return f"{card.version}.{table.round.status}.{table.round.event.status}"


def render_card(
    request: HttpRequest,
    table: Table,
    *,
    errors: list[str] | None = None,
    posted: Any = None,
    status: int = 200,
) -> HttpResponse:
    event = table.round.event
    game = table.game
    etag = state_etag(game.pk, event.pk)  # before the reads it labels
    card = ScoreCard.objects.get(game=game)
    hands = list(game.hands.order_by("number"))
    body = card_body(game, card, hands)
    line = chosen_line(request, table.key)
    bound = bound_line(request, table, card)
    entered_here = line is not None and any(
        h.client == phone_client(request) for h in hands if h.client
    )
    running = []
    ns = ew = 0
    for hand in body["hands"]:
        ns += hand["NS"].get("score", 0)
        ew += hand["EW"].get("score", 0)
        running.append({**hand, "ns_total": ns, "ew_total": ew, "parts": breakdown(hand)})
    turn_open = table.round.status == table.round.Status.OPEN and event.status != "closed"
    last = hands[-1] if hands else None
    # The phone that entered the card's last hand may take it back until the card is
    # confirmed or disputed (games/burraco/hand_undo.py).
    can_undo = (
        turn_open
        and last is not None
        and card.status in (ScoreCard.Status.OPEN, ScoreCard.Status.ENTERED)
        and bool(last.client)
        and last.client == phone_client(request)
    )
    clock = seconds_left(table.round, timezone.now()) if turn_open else None
    free = body["match"] is not None
    can_enter = (
        turn_open
        and card.status == ScoreCard.Status.OPEN
        and line is not None
        and (not card.entered_line or card.entered_line == line)
    )
    can_rematch = free and event.status != "closed" and card.status == "confirmed"
    context = {
        "table": table,
        "event": event,
        "club": event.club,
        "key": table.key,
        "card": card,
        "state_etag": etag,
        "stamp": card_stamp(card, table),
        "body": body,
        "running": running,
        "line": line,
        "line_name": line_label(line) if line else "",
        "bound": bound,
        "entered_here": entered_here,
        "ns_pair": table.ns_pair,
        "line_choices": [
            ("NS", pgettext("line", "NS"), table.ns_label),
            ("EW", pgettext("line", "EW"), table.ew_label),
        ],
        "ew_pair": table.ew_pair,
        "errors": errors or [],
        "posted": posted or {},
        "can_enter": can_enter,
        # What the phone needs to go on entering hands without a network.
        "offline_plan": offline_plan(body, free=free) if can_enter else None,
        "can_confirm": turn_open
        and card.status == ScoreCard.Status.ENTERED
        and line is not None
        and line != card.entered_line
        and not entered_here,
        "next_number": len(hands) + 1,
        "undo_hand": last if can_undo else None,
        "seconds_left": clock,
        "clock_minutes": (clock + 59) // 60 if clock is not None and clock > 0 else 0,
        # Each form shown has its own key: the same form sent twice stores one hand.
        "entry_key": uuid.uuid4().hex,
        "mode": (posted or {}).get("mode", "mp"),
        "posted_ns": (posted or {}).get("NS-mp", ""),
        "posted_ew": (posted or {}).get("EW-mp", ""),
        "kinds": ("jokers", "twos", "aces", "high", "low"),
        "free": free,
        "match_number": match_number(table) if free else None,
        "match_words": match_words(body) if free else [],
        "can_rematch": can_rematch,
        "next_pairs": next_pairs(table) if can_rematch else None,
        # A card of an older turn: where its table and its pairs play now.
        "newer": None if free else event_tables.newer_turn(table),
    }
    return render(request, "games/burraco/card.html", context, status=status)


@dataclass(frozen=True)
class NextPairs:
    """Who a won free-match table offers for its next match: the pairs checked in and
    free, those waiting first (the default), then the two that just played (they play
    again only if they choose to)."""

    waiting: list[BurracoPair]
    played: list[BurracoPair]

    @property
    def choices(self) -> list[BurracoPair]:
        return [*self.waiting, *self.played]


def next_pairs(table: Table) -> NextPairs:
    played = (table.ns_pair_id, table.ew_pair_id)
    ready = free_matches.ready_pairs(table.round.event)
    return NextPairs(
        waiting=[p for p in ready if p.pk not in played],
        played=[p for p in ready if p.pk in played],
    )


def match_number(table: Table) -> int:
    """The table's n-th match of the evening (its earlier ones sit in earlier rounds)."""
    return Table.objects.filter(
        round__event_id=table.round.event_id,
        number=table.number,
        round__number__lte=table.round.number,
    ).count()


def match_words(body: dict[str, Any]) -> list[str]:
    """What the table reads under its free match's totals: who needs how much to reach
    the target, or who won."""
    totals, match = body["totals"], body["match"]
    if body["winner"]:
        return [
            _("%(line)s won the match, %(ns)s to %(ew)s.")
            % {"line": pgettext("line", body["winner"]), "ns": totals["NS"], "ew": totals["EW"]}
        ]
    needs = match["needs"]
    if not needs["NS"] and not needs["EW"]:
        return [_("Both lines passed %(target)s level: another hand decides.") % match]
    return [
        ngettext(
            "%(line)s needs %(points)s point to win",
            "%(line)s needs %(points)s points to win",
            needs[line],
        )
        % {"line": pgettext("line", line), "points": needs[line]}
        for line in LINES
        if needs[line]
    ]


@require_GET
@_burraco_table
def card_page(request: HttpRequest, table: Table) -> HttpResponse:
    return render_card(request, table)


def other_confirms(table: Table) -> str:
    if table.round.event.individual:
        return _("The other line confirms the score card on its own phone, or the referee does.")
    return _("The other pair confirms the score card on its own phone, or the referee does.")


@require_GET
def card_state(request: HttpRequest, key: str) -> HttpResponse:
    """What the score card page polls every second, so a phone follows the card without
    reloading: 304 without a database query while the versions (games/core/live.py) are
    the ones the phone holds. A table's game and tournament never change, so which ones a
    key names is kept in the cache."""
    known = ids_of_key("burraco-card", key)
    if known is not None:
        unchanged = live.not_modified(request, state_etag(*known))
        if unchanged is not None:
            return unchanged
    table = table_by_key(key)
    game = table_game(table) if table is not None else None
    if game is None or game.kind != Game.Kind.BURRACO:
        return JsonResponse({"error": _("No table has this link.")}, status=404)
    event_id = table.round.event_id
    remember_ids_of_key("burraco-card", key, (game.pk, event_id))
    tag = state_etag(game.pk, event_id)  # before the read it labels
    card = ScoreCard.objects.get(game=game)
    return live.mark(request, JsonResponse({"stamp": card_stamp(card, table)}), tag)


@require_POST
@_burraco_table
def card_line(request: HttpRequest, table: Table) -> HttpResponse:
    """Remember which line this phone is (NS or EW), asked once per table; a phone bound
    to the entering line keeps it for this score card."""
    line = request.POST.get("line", "")
    bound = bound_line(request, table)
    if bound is not None and line != bound:
        words = (
            (
                _("This phone enters the hands as %(line)s: it stays %(line)s for this score card.")
                % {"line": line_label(bound)}
            )
            + " "
            + other_confirms(table)
        )
        return render_card(request, table, errors=[words], status=409)
    if line in LINES:
        request.session[SESSION_LINE % table.key] = line
    else:
        request.session.pop(SESSION_LINE % table.key, None)
    return redirect("burraco-card", key=table.key)


def _posted_number(form: Any) -> int | None:
    """The hand the form was entering (None from a form without one)."""
    raw = (form.get("number") or "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else None


def stored_mp(game: Game, number: int) -> tuple[int, int] | None:
    """The (NS, EW) MP of stored hand `number`, or None."""
    return game.hands.filter(number=number).values_list("ns_mp", "ew_mp").first()


def already_entered(number: int, stored: tuple[int, int] | None) -> str:
    """What a phone sending a stored hand again is told: "Hand 2 is already entered: 400–200"."""
    if stored is None:
        return _("Hand %(number)s is already entered.") % {"number": number}
    return _("Hand %(number)s is already entered: %(ns)s–%(ew)s.") % {
        "number": number,
        "ns": stored[0],
        "ew": stored[1],
    }


@require_POST
@_burraco_table
def card_hand(request: HttpRequest, table: Table) -> HttpResponse:
    """Store the hand the form describes; bad input re-shows the form with the engine's words.

    The form names the hand it enters (`number`) and carries its own key (`entry_key`): a
    double tap is the first answer again, a second phone of the same line sending a hand
    already stored is told so, with its points, and shown the card; nothing new stored.
    The offline queue (static/offline_queue.js) posts the same form with an
    Idempotency-Key made on the phone and asks for JSON: it gets games/core/offline.py's
    answers instead."""
    if offline.wants_json(request):
        return _queued_hand(request, table)
    line = chosen_line(request, table.key)
    if line is None:
        return render_card(request, table, errors=[_("Say first which line you are.")], status=400)
    number = _posted_number(request.POST)
    try:
        answer = _submit_hand(request, table, line, number)
    except (DealConflict, IdempotencyMismatch) as error:
        words = (
            already_entered(number, stored_mp(table.game, number))
            if number is not None
            else error.message
        )
        return render_card(request, table, errors=[words], status=409)
    except DealRejected as error:
        errors = [p["message"] for p in error.problems] or [error.message]
        return render_card(request, table, errors=errors, posted=request.POST, status=400)
    except EntryError as error:
        return render_card(
            request, table, errors=[error.message], posted=request.POST, status=error.status
        )
    if answer.created:
        messages.success(
            request, _("Hand %(number)s saved.") % {"number": len(answer.body["hands"])}
        )
    elif number is not None:
        messages.info(request, already_entered(number, stored_mp(table.game, number)))
    return redirect("burraco-card", key=table.key)


def _submit_hand(request: HttpRequest, table: Table, line: str, number: int | None) -> CardAnswer:
    """The posted hand stored as `line` (EntryError and its kinds when it cannot be); the
    phone is bound to that line from then on. The key is the queue's Idempotency-Key, else
    the form's own."""
    hand = hand_from_form(request.POST)
    if number is not None:
        hand["number"] = number
    key = offline.idempotency_key(request) or (request.POST.get("entry_key") or "").strip()
    answer = hand_submit(
        game_id=table.game.pk,
        hand=hand,
        line=line,
        by_user=request.user,
        by_label=_("Table %(table)s, %(line)s") % {"table": table.number, "line": line},
        idempotency_key=key[:64] or None,
        client=phone_client(request),
    )
    request.session[SESSION_BOUND % table.key] = line
    return answer


def _queued_hand(request: HttpRequest, table: Table) -> HttpResponse:
    """A hand the phone kept while offline, sent by its queue: JSON, never a page."""
    line = chosen_line(request, table.key)
    if line is None:
        return offline.refused_answer(
            "choose_line", [_("Say first which line you are.")], status=400
        )
    number = _posted_number(request.POST)
    try:
        answer = _submit_hand(request, table, line, number)
    except (DealConflict, IdempotencyMismatch) as error:
        if number is None:
            return offline.refused_answer(error.code, [error.message], status=error.status)
        stored = stored_mp(table.game, number)  # read once for both
        return offline.refused_answer(
            error.code,
            [already_entered(number, stored)],
            status=error.status,
            stored=stored_hand_words(stored),
        )
    except EntryError as error:
        words = [p["message"] for p in error.problems] or [error.message]
        return offline.refused_answer(error.code, words, status=error.status)
    return offline.stored_answer(number or len(answer.body["hands"]), created=answer.created)


def stored_hand_words(stored: tuple[int, int] | None) -> str:
    """A stored hand's MP in a few words ("NS 400 – EW 200"), or ""."""
    if stored is None:
        return ""
    return f"{pgettext('line', 'NS')} {stored[0]} – {pgettext('line', 'EW')} {stored[1]}"


@require_POST
@_burraco_table
def card_confirm_view(request: HttpRequest, table: Table) -> HttpResponse:
    line = chosen_line(request, table.key)
    if line is None:
        return render_card(request, table, errors=[_("Say first which line you are.")], status=400)
    agree = request.POST.get("agree") == "1"
    try:
        card_confirm(
            game_id=table.game.pk,
            line=line,
            agree=agree,
            note=request.POST.get("note", ""),
            by_label=_("Table %(table)s, %(line)s") % {"table": table.number, "line": line},
            by_user=request.user,
            client=phone_client(request),
        )
    except EntryError as error:
        return render_card(request, table, errors=[error.message], status=error.status)
    if agree:
        messages.success(request, _("Score card confirmed."))
    else:
        messages.warning(request, _("Score card disputed: the referee will look at it."))
    return redirect("burraco-card", key=table.key)


@require_POST
@_burraco_table
def card_rematch(request: HttpRequest, table: Table) -> HttpResponse:
    """A free match confirmed: the same pairs play another match at this table (its new
    score card has its own key: this phone goes there, keeping its line), or two pairs of
    the evening sit themselves at it (`ns`, `ew`: their numbers)."""
    line = chosen_line(request, table.key)
    chosen = request.POST.get("ns", ""), request.POST.get("ew", "")
    if table.game.deals_target != 0 or ScoreCard.objects.get(game=table.game).status != (
        ScoreCard.Status.CONFIRMED
    ):
        return render_card(
            request,
            table,
            errors=[_("Another match starts once this one is confirmed.")],
            status=409,
        )
    try:
        if any(chosen):
            if not all(number.isdigit() for number in chosen):
                raise EntryError(_("Choose both pairs."), code="pairs_missing")
            started = free_matches.sit_at(table=table, ns=int(chosen[0]), ew=int(chosen[1]))
            line = None  # other pairs: the phone says again which line it is
        else:
            started = free_matches.rematch(table=table)
    except EntryError as error:
        return render_card(request, table, errors=[error.message], status=error.status)
    if line is not None:
        request.session[SESSION_LINE % started.table.key] = line
    messages.success(
        request,
        _("Match %(number)s at table %(table)s: good luck!")
        % {"number": started.match, "table": started.table.number},
    )
    return redirect("burraco-card", key=started.table.key)


@require_POST
@_burraco_table
def card_preview(request: HttpRequest, table: Table) -> JsonResponse:
    """The hand being typed, scored by the engine as card_hand would store it, and both
    lines' totals with it (games/burraco/hand_preview.py); nothing stored. The phone asks
    as its user types (static/burraco_card.js)."""
    card = ScoreCard.objects.get(game=table.game)
    return JsonResponse(preview(table.game, card, request.POST))


def _undo_number(form: Any) -> int | None:
    raw = (form.get("number") or "").strip()
    return int(raw) if raw.isdigit() else None


@require_POST
@_burraco_table
def card_undo(request: HttpRequest, table: Table) -> HttpResponse:
    """The phone that entered the card's last hand takes it back (a confirmation step on
    the page: `confirm`), before the other pair confirmed the card; kept in the card's
    history. `number`: the hand the phone showed as the last."""
    line = chosen_line(request, table.key)
    if line is None:
        return render_card(request, table, errors=[_("Say first which line you are.")], status=400)
    number = _undo_number(request.POST)
    if request.POST.get("confirm") != "1":
        return render_card(
            request, table, errors=[_("Confirm that the hand should be undone.")], status=400
        )
    try:
        hand_undo(
            game_id=table.game.pk,
            number=number,
            client=phone_client(request),
            by_user=request.user,
            by_label=_("Table %(table)s, %(line)s") % {"table": table.number, "line": line},
        )
    except EntryError as error:
        status = 403 if error.code == "undo_by_other_client" else error.status
        return render_card(request, table, errors=[error.message], status=status)
    messages.success(request, _("Hand %(number)s undone: enter it again.") % {"number": number})
    return redirect("burraco-card", key=table.key)
