"""The organiser's pages both games share: a new event of either game, created by the
service of its game (an evening of Barbu, a Burraco tournament or free-match evening)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from clubs.models import Club, GameChoice
from clubs.views import organiser_required
from games.barbu import evenings
from games.barbu.forms import EventForm
from games.burraco import free_matches, tournaments
from games.core.errors import EntryError, EveningError
from games.core.event_words import event_words
from games.models import Event


@organiser_required
def event_create(request: HttpRequest, club: Club) -> HttpResponse:
    form = EventForm(
        request.POST or None, club=club, initial={"name": evenings.default_event_name()}
    )
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        game = data.pop("game")
        hands = data.pop("hands_per_turn")
        burraco_format = data.pop("burraco_format")
        target = data.pop("target")
        individual = data.pop("individual", False)
        try:
            if game == GameChoice.BURRACO and burraco_format == Event.BurracoFormat.FREE:
                event = free_matches.free_evening_create(
                    club=club,
                    name=data["name"],
                    starts_at=data["starts_at"],
                    league=data["league"],
                    target=target,
                    published=data["published"],
                )
            elif game == GameChoice.BURRACO:
                event = tournaments.tournament_create(
                    club=club,
                    name=data["name"],
                    starts_at=data["starts_at"],
                    league=data["league"],
                    turns=data["planned_rounds"],
                    hands_per_turn=hands,
                    published=data["published"],
                    individual=individual,
                )
            else:
                event = evenings.event_create(club=club, **data)
        except (EveningError, EntryError) as error:
            # A league of the other Burraco format: said beside the league chosen.
            form.add_error("league" if error.code == "league_format" else None, error.message)
        else:
            if event.is_burraco:
                messages.success(request, event_words(event, "created"))
                return redirect("burraco-desk", slug=club.slug, event_id=event.pk)
            messages.success(request, event_words(event, "created"))
            return redirect("event-checkin", slug=club.slug, event_id=event.pk)
    return render(request, "games/organiser/event_form.html", {"club": club, "form": form})
