"""The referee's desk of a Burraco tournament: pairs, the turn's tables with their
progress and time left, cards to look at, corrections with a reason, penalties and the
next turn seated in one action. Organisers of the club only; each view calls a service."""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.models import Club, Player
from clubs.views import organiser_required
from games.burraco import desk as desk_reads
from games.burraco import entries, free_matches, history, scorecards, tournaments
from games.burraco.cards_print import score_cards_pdf
from games.burraco.desk_forms import (
    CorrectionForm,
    FreeMatchForm,
    PairForm,
    PenaltyForm,
    PlayerEntryForm,
    TurnForm,
)
from games.burraco.entry_views import entry_actions, late_entry_warning
from games.burraco.free_views import (
    free_desk_context,
    free_event,
    free_pair_choices,
    free_score_cards,
)
from games.burraco.hand_form import hand_from_form
from games.burraco.mitchell_outlook import mitchell_outlook
from games.burraco.movement_messages import FIRST_ORDER_NAMES, MOVEMENT_NAMES, VARIANT_NAMES
from games.burraco.turn_clock import desk_clock
from games.core import live
from games.core.errors import DealRejected, EntryError
from games.models import BurracoPair, Event, Game, Round, ScoreCard, ScoreCardRevision, Table
from scoring.engine import burraco as engine


def _event(club: Club, event_id: int) -> Event:
    return get_object_or_404(Event, club=club, pk=event_id, game="burraco")


def _players(club: Club) -> list[tuple[int, str]]:
    return list(
        Player.objects.filter(memberships__club=club, merged_into__isnull=True)
        .order_by("name", "id")
        .values_list("pk", "name")
    )


def _playing(event: Event) -> list[int]:
    """The numbers of the pairs still playing: a pasted pairing seats each once."""
    return list(event.pairs.filter(active=True).values_list("number", flat=True))


def _club_player_ids(club: Club) -> list[int]:
    return [pk for pk, _name in _players(club)]


def _free_players(club: Club, event: Event) -> list[tuple[int, str]]:
    """The club's players the entry form offers: those not already in a pair (or entered
    alone) of this event, by name."""
    taken = entries.entered_players(event)
    return [(pk, name) for pk, name in _players(club) if pk not in taken]


def _entry_form(form_class: Any, club: Club, event: Event) -> Any:
    """The desk's entry form, proposing the first players (by name) not entered yet: two
    different ones for a pair, not the first member twice."""
    players = _free_players(club, event)
    free = [pk for pk, _name in players]
    names = ["player"] if form_class is PlayerEntryForm else ["player_a", "player_b"]
    initial = dict(zip(names, free, strict=False)) if len(free) >= len(names) else {}
    return form_class(players=players, initial=initial)


def _pair_choices(event: Event) -> list[tuple[int, str]]:
    return [(p.pk, str(p)) for p in desk_reads.pairs_of(event)]


def render_desk(
    request: HttpRequest, club: Club, event: Event, turn_etag: str = "", **forms
) -> HttpResponse:
    data = desk_reads.desk(event, timezone.now())
    current = data["current"]
    # The next turn's movement: the last one's (two Mitchell turns, then two Danese).
    last = current.movement if current is not None else ""
    entry_form = PlayerEntryForm if event.individual else PairForm
    context = {
        "club": club,
        "event": event,
        **data,
        "pair_form": forms.get("pair_form") or _entry_form(entry_form, club, event),
        "turn_form": forms.get("turn_form")
        or TurnForm(
            pairs=_playing(event),
            first_turn=not data["rounds"],
            individual=event.individual,
            initial={
                "movement": last
                if last in ("mitchell", "danese", "round_robin", "individual")
                else ("mitchell" if data["rounds"] else "first"),
                "hands_per_turn": event.ranking.get("hands_per_turn", 3),
                # The last turn's time limit again: turns of one evening last alike.
                "time_limit": current.time_limit if current is not None else None,
                "groups": event.ranking.get("round_robin_groups"),
            },
        ),
        "penalty_form": forms.get("penalty_form")
        or PenaltyForm(pairs=_pair_choices(event), turns=len(data["rounds"])),
        "planned_turns": event.ranking.get("turns"),
        # Every planned turn seated: the desk offers no next one (the tournament closes).
        "turns_done": bool(event.ranking.get("turns"))
        and len(data["rounds"]) >= int(event.ranking.get("turns")),
        "turn_etag": turn_etag,
        # Turn 1 by entry order or draw is seated by the Mitchell's calendar, but to the
        # referee it is the first turn by draw, not a Mitchell yet.
        "movement_name": FIRST_ORDER_NAMES[current.first_order]
        if current is not None and current.number == 1 and current.first_order in FIRST_ORDER_NAMES
        else MOVEMENT_NAMES.get(last, last),
        "variant_name": VARIANT_NAMES.get(current.movement_variant, current.movement_variant)
        if current is not None
        else "",
        **entry_actions(event, len(data["rounds"])),
        # The late-tables list and the hands saved after time (_late_tables.html).
        "clock": desk_clock(current, data["tables"], timezone.now()),
    }
    if event.status != Event.Status.CLOSED and not context["turns_done"]:
        # A late entry or a withdrawal may leave the Mitchell no next turn: said here too.
        context["mitchell_warning"] = mitchell_outlook(event)
    if event.individual:  # a penalty is taken from one player
        context["penalty_form"].fields["pair"].label = _("Player")
    status = 400 if forms else 200
    if event.is_free_matches:
        context.update(free_desk_context(event, forms))
        return render(request, "games/burraco/free_desk.html", context, status=status)
    return render(request, "games/burraco/desk.html", context, status=status)


@organiser_required
def desk(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """The referee's desk. Its turn part, polled by htmx every 20 s with the ETag it was
    given (static/live.js), is a 304 while nothing changed (games/core/live.py: the evening's
    version, read before the data it labels); the minute is part of the tag, for the
    time left. A full page load is always answered in full."""
    tag = live.etag(
        live.version("event", event_id),
        "desk-turn",
        live.language_inputs(request),
        str(int(time.time() // 60)),
    )
    polled = request.headers.get("HX-Request") == "true"
    if polled:
        unchanged = live.not_modified(request, tag)
        if unchanged is not None:
            return unchanged
    response = render_desk(request, club, _event(club, event_id), turn_etag=tag)
    return live.mark(request, response, tag) if polled else response


@organiser_required
@require_POST
def pair_add(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    event = _event(club, event_id)
    if event.individual:
        return _player_add(request, club, event)
    form = PairForm(request.POST, players=_free_players(club, event), known=_club_player_ids(club))
    if form.is_valid():
        players = Player.objects.in_bulk(
            [form.cleaned_data["player_a"], form.cleaned_data["player_b"]]
        )
        try:
            pair = tournaments.pair_enter(
                event=event,
                player_a=players[form.cleaned_data["player_a"]],
                player_b=players[form.cleaned_data["player_b"]],
                number=form.cleaned_data.get("number"),
                by_user=request.user,
            )
        except EntryError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Pair %(pair)s entered.") % {"pair": pair})
            warning = late_entry_warning(event) if pair.late else ""
            if warning:
                messages.warning(request, warning)
            return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
    return render_desk(request, club, event, pair_form=form)


def _player_add(request: HttpRequest, club: Club, event: Event) -> HttpResponse:
    """A player entered alone in an individual tournament."""
    form = PlayerEntryForm(
        request.POST, players=_free_players(club, event), known=_club_player_ids(club)
    )
    if form.is_valid():
        try:
            entry = tournaments.player_enter(
                event=event,
                player=get_object_or_404(Player, pk=form.cleaned_data["player"]),
                number=form.cleaned_data.get("number"),
                by_user=request.user,
            )
        except EntryError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Player %(player)s entered.") % {"player": entry})
            return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
    return render_desk(request, club, event, pair_form=form)


@organiser_required
@require_POST
def tournament_close(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """ "Close the tournament", ticked to confirm: refused, saying which cards, while a
    score card is unconfirmed (games/burraco/closing.py)."""
    event = _event(club, event_id)
    if request.POST.get("confirm") != "on":
        messages.error(request, _("Tick the box to close the tournament."))
    else:
        try:
            tournaments.tournament_close(event=event, by_user=request.user)
        except EntryError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Tournament closed: the ranking is final."))
    return redirect("burraco-desk", slug=club.slug, event_id=event.pk)


@organiser_required
@require_POST
def tournament_reopen(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    event = _event(club, event_id)
    try:
        tournaments.tournament_reopen(event=event, by_user=request.user)
    except EntryError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Tournament reopened: the ranking is provisional again."))
    return redirect("burraco-desk", slug=club.slug, event_id=event.pk)


@organiser_required
@require_POST
def turn_seat(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    event = _event(club, event_id)
    first_turn = not event.rounds.exists()
    form = TurnForm(
        request.POST, pairs=_playing(event), first_turn=first_turn, individual=event.individual
    )
    if form.is_valid():
        data = form.cleaned_data
        tables, byes = form.pairing_lines()
        # A first turn pasted as a pairing is a first turn seated by hand.
        first_order = "hand" if first_turn and data["movement"] == "pairing" else None
        try:
            seated = tournaments.turn_seat(
                event=event,
                movement=data["movement"],
                hands_per_turn=data["hands_per_turn"],
                time_limit=data.get("time_limit"),
                step=data.get("step") or 1,
                variant=data.get("variant") or "no_rematch",
                first_order=first_order or data.get("first_order") or "entry",
                by_hand=tables,
                by_hand_byes=byes,
                groups=data.get("groups"),
                by_user=request.user,
            )
        except EntryError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Turn %(turn)s seated.") % {"turn": seated.round.number})
            return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
    return render_desk(request, club, event, turn_form=form)


@organiser_required
@require_POST
def penalty(request: HttpRequest, club: Club, event_id: int, number: int) -> HttpResponse:
    event = _event(club, event_id)
    rnd = get_object_or_404(Round, event=event, number=number)
    form = PenaltyForm(request.POST, pairs=_pair_choices(event), turns=event.rounds.count())
    if form.is_valid():
        data = form.cleaned_data
        if data.get("turn"):  # an infraction of an earlier turn
            rnd = get_object_or_404(Round, event=event, number=data["turn"])
        try:
            scorecards.penalty_set(
                round_id=rnd.pk,
                pair_id=data["pair"],
                vp=data["vp"],
                mp=data["mp"],
                reason=data["reason"],
                by_user=request.user,
            )
        except EntryError as error:
            if error.code == "event_closed":  # the desk offers no penalty form any more
                messages.error(request, error.message)
                return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Penalty recorded."))
            return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
    return render_desk(request, club, event, penalty_form=form)


@organiser_required
def card_correct(request: HttpRequest, club: Club, event_id: int, game_id: int) -> HttpResponse:
    """The referee rewrites a card's hands (as each line's MP) with a reason, or confirms a
    disputed card as it stands."""
    event = _event(club, event_id)
    game = get_object_or_404(
        Game.objects.select_related(
            "table__round", "table__ns_pair", "table__ew_pair"
        ).select_related("table__ns_partner", "table__ew_partner"),
        pk=game_id,
        table__round__event=event,
    )
    card = ScoreCard.objects.get(game=game)
    hands = list(game.hands.order_by("number"))
    form = CorrectionForm(request.POST or None, initial={"version": card.version})
    errors: list[str] = []
    # A free match has no fixed number of hands: its hands and two more lines to add.
    lines = game.deals_target or len(hands) + 2
    if request.method == "POST" and form.is_valid():
        try:
            new_hands = []
            for number in range(1, lines + 1):
                ns = request.POST.get(f"h{number}-NS", "").strip()
                ew = request.POST.get(f"h{number}-EW", "").strip()
                if not ns and not ew:
                    continue
                new_hands.append(hand_from_form({"NS-mp": ns, "EW-mp": ew}))
            scorecards.card_correct(
                game_id=game.pk,
                hands=new_hands,
                reason=form.cleaned_data["reason"],
                by_user=request.user,
                expected_version=form.cleaned_data["version"],
                time_out=form.cleaned_data["time_out"],
            )
        except DealRejected as error:
            errors = [p["message"] for p in error.problems] or [error.message]
        except EntryError as error:
            errors = [error.message]
        else:
            messages.success(request, _("Score card corrected."))
            return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
    rows = []
    for number in range(1, lines + 1):
        hand = next((h for h in hands if h.number == number), None)
        rows.append(
            {
                "number": number,
                "NS": request.POST.get(f"h{number}-NS")
                if request.method == "POST"
                else (hand.ns_mp if hand else ""),
                "EW": request.POST.get(f"h{number}-EW")
                if request.method == "POST"
                else (hand.ew_mp if hand else ""),
            }
        )
    context = {
        "club": club,
        "event": event,
        "game": game,
        "table": game.table,
        "card": card,
        "rows": rows,
        "form": form,
        "errors": errors,
        "revisions": _revisions(game),
        "danese_after": event.rounds.filter(number__gt=game.table.round.number).exists(),
    }
    return render(request, "games/burraco/correct.html", context, status=400 if errors else 200)


def _revisions(game: Game) -> list[ScoreCardRevision]:
    """The card's history, each line's author in the reader's language (`who`)."""
    revisions = list(ScoreCardRevision.objects.filter(game=game).select_related("by_user"))
    for r in revisions:
        r.who = history.who(r.by_user, r.by_label, game.table.number)  # type: ignore[attr-defined]
    return revisions


@organiser_required
@require_safe
def score_cards(request: HttpRequest, club: Club, event_id: int, number: int) -> HttpResponse:
    """The turn's blank score cards to print (A4, two a page, or four with ?per_page=4):
    each table's pairs and the turn's VP table. HEAD answers the headers only."""
    event = _event(club, event_id)
    rnd = get_object_or_404(Round, event=event, number=number)
    per_page = 4 if request.GET.get("per_page") == "4" else 2
    if event.is_free_matches:  # a sitting of free matches: rows to the target, no VP
        return free_score_cards(request, club, event, rnd, per_page)
    hands = rnd.hands_per_turn or event.ranking.get("hands_per_turn", 3)
    vp_table = engine.ruleset_from_json(event.ruleset).vp_tables.get(hands)
    if vp_table is None:
        raise Http404("no VP table for this turn")
    tables = [
        (t.number, _pair_label(t.ns_pair, t.ns_partner), _pair_label(t.ew_pair, t.ew_partner))
        for t in Table.objects.filter(round=rnd)
        .select_related("ns_pair__player_a", "ns_pair__player_b")
        .select_related("ew_pair__player_a", "ew_pair__player_b")
        .select_related("ns_partner__player_a", "ew_partner__player_a")
        .order_by("number")
    ]
    data = score_cards_pdf(
        event_name=f"{club.name} – {event.name}",
        turn=rnd.number,
        hands=hands,
        tables=tables,
        vp_table=vp_table,
        language=get_language(),
        per_page=per_page,
        individual=event.individual,
    )
    response = HttpResponse(data, content_type="application/pdf")
    filename = f"event-{event.pk}-turn-{rnd.number}-score-cards.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Content-Length"] = str(len(data))
    if request.method == "HEAD":
        response.content = b""
    return response


def _pair_label(pair: BurracoPair | None, partner: BurracoPair | None = None) -> str:
    if pair is None:
        return ""
    if partner is not None:  # an individual tournament's line: two players
        return f"{pair.number} {pair.names} / {partner.number} {partner.names}"
    return f"{pair.number} – {pair.player_a.name} / {pair.player_b.name}"


@organiser_required
@require_POST
def match_start(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """Sit two pairs at a table for a new match."""
    event = free_event(club, event_id)
    form = FreeMatchForm(request.POST, pairs=free_pair_choices(event))
    if form.is_valid():
        data = form.cleaned_data
        try:
            started = free_matches.match_start(
                event=event,
                table_number=data["table"],
                ns=get_object_or_404(BurracoPair, event=event, pk=data["ns"]),
                ew=get_object_or_404(BurracoPair, event=event, pk=data["ew"]),
            )
        except EntryError as error:
            if error.code == "event_closed":  # the desk shows no form to say it beside
                messages.error(request, error.message)
                return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("Match %(number)s at table %(table)s started.")
                % {"number": started.match, "table": started.table.number},
            )
            return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
    return render_desk(request, club, event, match_form=form)
