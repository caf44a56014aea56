"""The organiser's evening pages: create, check in, seat, swap, table cards, corrections, close.

Thin: each view checks the form, calls one service of games.barbu.evenings or
games.barbu.corrections,
and shows its error as a form error. Every page is for the club's organisers only
(clubs.views.organiser_required).
"""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.models import Club, Player
from clubs.views import describe, organiser_required
from games.barbu import correction_form as correction
from games.barbu import evenings, substitutions
from games.barbu.corrections import deals_correct
from games.barbu.deal_form import contract_label
from games.barbu.forms import (
    CheckinForm,
    CloseForm,
    DealCorrectForm,
    EventCloseForm,
    GuestForm,
    SeatForm,
)
from games.barbu.history import history
from games.barbu.seating_words import seating_sentences
from games.barbu.selectors import seat_notes
from games.core import closing
from games.core import table_cards as cards
from games.core.errors import EntryError, EveningError
from games.core.event_words import event_words
from games.models import Deal, DealRevision, Event, EventPlayer, Game, Round, Seat, Table


def _event(club: Club, event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("league"), club=club, pk=event_id)


def _round(event: Event, number: int) -> Round:
    rnd = get_object_or_404(Round, event=event, number=number)
    rnd.event = event
    return rnd


def _tables(rounds_qs):
    """Rounds with their tables, games, seats and byes in a fixed number of queries."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    tables = Prefetch(
        "tables",
        queryset=Table.objects.select_related("game")
        .annotate(
            attention=Count(
                "game__deals",
                filter=Q(game__deals__status__in=[Deal.Status.PENDING, Deal.Status.DISPUTED]),
            )
        )
        .prefetch_related(seats)
        .order_by("number"),
    )
    return rounds_qs.prefetch_related(
        tables, Prefetch("byes", queryset=Player.objects.order_by("name"))
    )


@organiser_required
def event_dashboard(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    event = _event(club, event_id)
    if event.is_burraco:
        return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
    rounds = list(_tables(event.rounds.order_by("number")))
    context = {
        "club": club,
        "event": event,
        "rounds": rounds,
        "progress": evenings.event_progress(event),
        "present": EventPlayer.objects.filter(event=event, active=True).count(),
        "rules": describe(event.ruleset),
        "close_form": EventCloseForm(),
        "log": closing.closing_log(event),
        "seat_form": SeatForm(),
        "open_round": next((r for r in rounds if r.status == Round.Status.OPEN), None),
    }
    if request.htmx:
        return render(request, "games/organiser/_rounds.html", context)
    return render(request, "games/organiser/event.html", context)


@organiser_required
def event_checkin(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    event = _event(club, event_id)
    players = list(
        Player.objects.filter(memberships__club=club, merged_into__isnull=True)
        .order_by("name", "id")
        .values_list("pk", "name")
    )
    present = set(
        EventPlayer.objects.filter(event=event, active=True).values_list("player_id", flat=True)
    )
    form = CheckinForm(request.POST or None, choices=players, initial={"players": sorted(present)})
    if request.method == "POST" and form.is_valid():
        # One form: the ticks are saved, and a guest's name (if written) is added too, so
        # adding a guest never loses ticks not yet saved.
        guest_name = form.cleaned_data["guest"].strip()
        try:
            with transaction.atomic():
                entries = evenings.checkin_set(event=event, player_ids=form.cleaned_data["players"])
                if guest_name:
                    evenings.guest_add(event=event, name=guest_name)
        except EveningError as error:
            form.add_error(None, error.message)
        else:
            count = len(entries) + (1 if guest_name else 0)
            messages.success(
                request,
                ngettext("%(count)s player present.", "%(count)s players present.", count)
                % {"count": count},
            )
            if "add_guest" in request.POST:
                return redirect("event-checkin", slug=club.slug, event_id=event.pk)
            return redirect("event-dashboard", slug=club.slug, event_id=event.pk)
    return render(
        request,
        "games/organiser/checkin.html",
        {
            "club": club,
            "event": event,
            "form": form,
            "present_count": len(present),
        },
    )


@organiser_required
@require_POST
def event_guest(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    event = _event(club, event_id)
    form = GuestForm(request.POST)
    if form.is_valid():
        try:
            guest = evenings.guest_add(event=event, name=form.cleaned_data["name"])
        except EveningError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request, _("%(name)s is checked in as a guest.") % {"name": guest.name}
            )
    else:
        messages.error(request, _("Write the guest's name."))
    return redirect("event-checkin", slug=club.slug, event_id=event.pk)


@organiser_required
@require_POST
def round_seat(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    event = _event(club, event_id)
    form = SeatForm(request.POST)
    method = form.cleaned_data["method"] if form.is_valid() else None
    try:
        seated = evenings.round_seat(event=event, method=method)
    except EveningError as error:
        messages.error(request, error.message)
        return redirect("event-dashboard", slug=club.slug, event_id=event.pk)
    messages.success(request, _("Round %(number)s is seated.") % {"number": seated.round.number})
    return redirect("round-detail", slug=club.slug, event_id=event.pk, number=seated.round.number)


def _swap_choices(rnd: Round, tables: list[Table]) -> list[tuple[str, str]]:
    choices = [
        (
            f"seat:{seat.pk}",
            _("table %(table)s seat %(seat)s: %(name)s")
            % {"table": table.number, "seat": seat.position + 1, "name": seat.player.name},
        )
        for table in tables
        for seat in table.seats.all()
    ]
    seated = {seat.player_id for table in tables for seat in table.seats.all()}
    for entry in (
        EventPlayer.objects.filter(event_id=rnd.event_id, active=True)
        .exclude(player_id__in=seated)
        .select_related("player")
        .order_by("player__name")
    ):
        choices.append(
            (f"player:{entry.player_id}", _("not seated: %(name)s") % {"name": entry.player.name})
        )
    return choices


@organiser_required
def round_detail(request: HttpRequest, club: Club, event_id: int, number: int) -> HttpResponse:
    event = _event(club, event_id)
    rnd = _tables(Round.objects.filter(pk=_round(event, number).pk)).get()
    rnd.event = event
    tables = list(rnd.tables.all())
    return render(
        request,
        "games/organiser/round.html",
        {
            "club": club,
            "event": event,
            "round": rnd,
            "tables": tables,
            "swap_choices": _swap_choices(rnd, tables),
            "seating_explanation": seating_sentences(
                rnd.seating_explanation,
                # The round's own players (already loaded): no query for their names.
                {s.player_id: s.player.name for t in tables for s in t.seats.all()}
                | {p.pk: p.name for p in rnd.byes.all()},
            ),
            "close_form": CloseForm(),
        },
    )


@organiser_required
@require_POST
def seat_swap(request: HttpRequest, club: Club, event_id: int, number: int) -> HttpResponse:
    event = _event(club, event_id)
    rnd = _round(event, number)
    target = request.POST.get("target", "")
    kind, _sep, pk = target.partition(":")
    seat = request.POST.get("seat", "")
    # What happened, once the table has deals: "wrong_person" or "substitute".
    what = request.POST.get("what", "")
    if request.POST.get("wrong_person") == "1":
        what = "wrong_person"
    from_deal = request.POST.get("from_deal", "")
    if not seat.isdigit() or kind not in ("seat", "player") or not pk.isdigit():
        messages.error(request, _("Choose a seat and who should sit there."))
    else:
        target_ids = {
            "other_seat_id": int(pk) if kind == "seat" else None,
            "player_id": int(pk) if kind == "player" else None,
        }
        try:
            if what == "substitute":
                substitutions.substitute(
                    rnd=rnd,
                    seat_id=int(seat),
                    from_deal=int(from_deal) if from_deal.isdigit() else None,
                    by_user=request.user,
                    **target_ids,
                )
            else:
                evenings.seat_change(
                    rnd=rnd,
                    seat_id=int(seat),
                    by_user=request.user,
                    wrong_person=what == "wrong_person",
                    **target_ids,
                )
        except EveningError as error:
            messages.error(request, error.message)
        else:
            if what == "substitute":
                messages.success(
                    request, _("Substitute recorded: the deals already played stay where they are.")
                )
            else:
                messages.success(request, _("Seats changed."))
    return redirect("round-detail", slug=club.slug, event_id=event.pk, number=rnd.number)


@organiser_required
def table_cards(request: HttpRequest, club: Club, event_id: int, number: int) -> HttpResponse:
    event = _event(club, event_id)
    rnd = _tables(Round.objects.filter(pk=_round(event, number).pk)).get()
    tables = list(rnd.tables.all())
    if event.is_burraco:  # a Burraco card names the pairs by line, not the seats
        tables = list(
            rnd.tables.select_related(
                "ns_pair__player_a", "ns_pair__player_b", "ew_pair__player_a", "ew_pair__player_b"
            )
            .select_related("ns_partner__player_a", "ew_partner__player_a")
            .order_by("number")
        )
    for table in tables:
        table.entry_url = cards.table_entry_url(request, table.key)
        table.qr = cards.qr_svg(table.entry_url)
    return render(
        request,
        "games/organiser/cards.html",
        {"club": club, "event": event, "round": rnd, "tables": tables},
    )


@organiser_required
@require_POST
def round_close(request: HttpRequest, club: Club, event_id: int, number: int) -> HttpResponse:
    event = _event(club, event_id)
    rnd = _round(event, number)
    form = CloseForm(request.POST)
    form.is_valid()
    try:
        closing.round_close(
            rnd=rnd, force=form.cleaned_data.get("force", False), by_user=request.user
        )
    except EveningError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Round %(number)s is closed.") % {"number": rnd.number})
    return redirect("event-dashboard", slug=club.slug, event_id=event.pk)


@organiser_required
@require_POST
def round_reopen(request: HttpRequest, club: Club, event_id: int, number: int) -> HttpResponse:
    event = _event(club, event_id)
    rnd = _round(event, number)
    try:
        closing.round_reopen(rnd=rnd, by_user=request.user)
    except EveningError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Round %(number)s is open again: its tables may enter deals.")
            % {"number": rnd.number},
        )
    return redirect("event-dashboard", slug=club.slug, event_id=event.pk)


@organiser_required
@require_POST
def event_close(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    event = _event(club, event_id)
    form = EventCloseForm(request.POST)
    form.is_valid()
    try:
        closing.event_close(
            event=event,
            unfinished=form.cleaned_data.get("unfinished") or None,
            by_user=request.user,
        )
    except EveningError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, event_words(event, "closed"))
    return redirect("event-dashboard", slug=club.slug, event_id=event.pk)


@organiser_required
@require_POST
def event_reopen(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    event = _event(club, event_id)
    closing.event_reopen(event=event, by_user=request.user)
    messages.success(request, event_words(event, "reopened"))
    return redirect("event-dashboard", slug=club.slug, event_id=event.pk)


def _game(club: Club, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("table__round__event"),
        pk=game_id,
        table__round__event__club=club,
    )


@organiser_required
def game_deals(request: HttpRequest, club: Club, game_id: int) -> HttpResponse:
    game = _game(club, game_id)
    deals = list(game.deals.order_by("number"))
    for deal in deals:
        # In seat order: PostgreSQL's jsonb does not keep the keys' order.
        score = (deal.scores or {}).get("score", {})
        deal.score_row = [score.get(name) for name in game.player_names]
        deal.contract_label = contract_label(deal.data)
    revisions = (
        DealRevision.objects.filter(game=game).select_related("by_user").order_by("-at", "-id")
    )
    return render(
        request,
        "games/organiser/game.html",
        {
            "club": club,
            "game": game,
            "event": game.table.round.event,
            "deals": deals,
            "seat_notes": seat_notes(game),
            "history": history(revisions),
        },
    )


@organiser_required
def deal_correct_view(request: HttpRequest, club: Club, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(
        Deal.objects.select_related("game__table__round__event"),
        pk=deal_id,
        game__table__round__event__club=club,
    )
    game = deal.game
    form = DealCorrectForm(request.POST or None, initial={"version": deal.version})
    problems: list[dict] = []
    partner = None  # the other deal of a swap, once offered
    offer = False
    notice = ""
    posted = request.POST if request.method == "POST" else None
    if posted is not None and form.is_valid():
        data = form.cleaned_data
        partner = correction.posted_partner(game, deal, data["swap"])
        try:
            plan = correction.read_correction(
                posted,
                game,
                deal,
                version=data["version"],
                partner=partner,
                partner_version=data["swap_version"],
            )
            if plan.offer:
                partner, offer = plan.partner, True
                chosen = plan.changes[deal.number]["contract"]
                notice = correction.swap_message(deal, partner, chosen)
            else:
                stored = deals_correct(
                    game_id=game.pk,
                    changes=plan.changes,
                    versions=plan.versions,
                    reason=data["reason"],
                    by_user=request.user,
                )
        except EntryError as error:
            problems = correction.refusal_messages(error)
        else:
            if not offer:
                message = correction.saved_message(deal, stored)
                (messages.success if stored else messages.info)(request, message)
                return redirect("game-deals", slug=club.slug, game_id=game.pk)
    context = {
        "club": club,
        "event": game.table.round.event,
        "game": game,
        "deal": deal,
        "form": form,
        "scores": correction.deal_scores(game, deal),
        "problems": problems,
        "notice": notice,
        "history": correction.deal_history(deal),
    }
    if partner is not None and posted is not None:
        # The two deals' forms: this one, and below it the other deal of the swap.
        context.update(
            correction.swap_context(
                game,
                deal,
                partner,
                posted,
                offer=offer,
                partner_version=form.cleaned_data.get("swap_version"),
            )
        )
    else:
        context["deal_form"] = correction.correction_form(game, deal, posted)
    return render(request, "games/organiser/deal_correct.html", context)
