"""Pages of the clubs app: the organiser's club pages (/manage/<slug>/); the home page is
scoring.views.home (it lists evenings, which live above clubs)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import services
from clubs.burraco.league_form import BURRACO_METHOD_LABELS, BurracoRankingForm
from clubs.burraco.rules_form import BurracoRulesForm
from clubs.engine_words import describe_ruleset_localised, problem_message
from clubs.forms import (
    METHOD_LABELS,
    ClubSettingsForm,
    ImportForm,
    LeagueForm,
    MergeForm,
    PlayerForm,
    RankingForm,
    RulesetForm,
)
from clubs.models import Club, GameChoice, League, Membership
from scoring.engine import barbu


def organiser_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Load the club of `slug`: anonymous users go to the login page, non-organisers get 403.

    The view receives the club instead of the slug.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        club = get_object_or_404(Club, slug=slug)
        if not club.is_organiser(request.user):
            raise PermissionDenied(_("Only the organisers of this club can open this page."))
        return view(request, club, *args, **kwargs)

    return wrapper


def describe(ruleset: dict) -> list[str]:
    """The rules in sentences a player understands, in the active language."""
    try:
        return describe_ruleset_localised(barbu.ruleset_from_json(ruleset))
    except barbu.InvalidGame as error:
        return [problem_message(p) for p in error.problems]


@organiser_required
def club_settings(request: HttpRequest, club: Club) -> HttpResponse:
    form = ClubSettingsForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Club settings saved."))
        return redirect("club-manage", slug=club.slug)
    return render(request, "clubs/settings.html", {"club": club, "form": form})


@organiser_required
def club_rules(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's default rules: Barbu's, Burraco's, or both forms for a club playing both
    (each form posts on its own, told apart by the `rules` field)."""
    posted = request.POST if request.method == "POST" else None
    which = (posted or {}).get("rules", "barbu")
    form = burraco_form = None
    if club.plays(Club.Games.BARBU):
        form = RulesetForm(
            posted if which == "barbu" else None, initial=RulesetForm.initial_from(club.ruleset)
        )
    if club.plays(Club.Games.BURRACO):
        burraco_form = BurracoRulesForm(
            posted if which == "burraco" else None,
            initial=BurracoRulesForm.initial_from(club.burraco_ruleset),
            prefix="burraco",
        )
    saved = False
    if posted is not None and which == "burraco" and burraco_form is not None:
        if burraco_form.is_valid() and burraco_form.ruleset is not None:
            try:
                services.club_set_burraco_ruleset(club=club, ruleset=burraco_form.ruleset)
            except services.ClubError as error:
                burraco_form.add_error(None, error.message)
            else:
                saved = True
        elif burraco_form.is_valid():
            burraco_form.add_error("preset", _("Choose a preset."))
    elif posted is not None and form is not None and form.is_valid():
        services.club_set_ruleset(club=club, ruleset=form.ruleset)
        saved = True
    if saved:
        messages.success(
            request, _("The club's rules are saved. Events already created keep theirs.")
        )
        return redirect("club-rules", slug=club.slug)
    context = {
        "club": club,
        "form": form,
        "burraco_form": burraco_form,
        "rules": describe(club.ruleset) if form is not None else [],
    }
    return render(request, "clubs/rules.html", context)


@organiser_required
def club_players(request: HttpRequest, club: Club) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.player_add(club=club, **form.cleaned_data)
        except services.ClubError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("%(name)s added.") % {"name": player.name})
            return redirect("club-players", slug=club.slug)
    memberships = (
        Membership.objects.filter(club=club, player__merged_into__isnull=True)
        .select_related("player__user")
        .order_by("player__name", "player_id")
    )
    return render(
        request,
        "clubs/players.html",
        {"club": club, "form": form, "memberships": memberships},
    )


@organiser_required
def club_player_edit(request: HttpRequest, club: Club, player_id: int) -> HttpResponse:
    membership = get_object_or_404(
        Membership.objects.select_related("player"), club=club, player_id=player_id
    )
    player = membership.player
    form = PlayerForm(
        request.POST or None,
        initial={
            "name": player.name,
            "email": player.email,
            "role": membership.role,
            "federation_number": membership.federation_number,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.membership_update(
                club=club,
                player=player,
                role=form.cleaned_data["role"],
                number=form.cleaned_data["federation_number"],
            )
        except services.ClubError as error:
            form.add_error(None, error.message)
        else:
            player.name = form.cleaned_data["name"].strip()
            player.email = form.cleaned_data["email"]
            player.save(update_fields=["name", "email"])
            messages.success(request, _("%(name)s saved.") % {"name": player.name})
            return redirect("club-players", slug=club.slug)
    return render(request, "clubs/player_edit.html", {"club": club, "form": form, "player": player})


@organiser_required
def club_players_merge(request: HttpRequest, club: Club) -> HttpResponse:
    form = MergeForm(request.POST or None, club=club, initial=request.GET.dict())
    if request.method == "POST" and form.is_valid():
        try:
            kept = services.player_merge(
                club=club,
                keep=form.cleaned_data["keep"],
                duplicate=form.cleaned_data["duplicate"],
            )
        except services.ClubError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("%(duplicate)s was merged into %(name)s.")
                % {"duplicate": form.cleaned_data["duplicate"].name, "name": kept.name},
            )
            return redirect("club-players", slug=club.slug)
    return render(request, "clubs/merge.html", {"club": club, "form": form})


@organiser_required
def club_players_import(request: HttpRequest, club: Club) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    preview = None
    refused = ""
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"]
        if "confirm" in request.POST:
            try:
                players = services.players_import(
                    club=club, text=text, skip_bad_lines=form.cleaned_data["skip_bad_lines"]
                )
            except services.ClubError as error:
                refused = error.message
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(count)s player imported.", "%(count)s players imported.", len(players)
                    )
                    % {"count": len(players)},
                )
                return redirect("club-players", slug=club.slug)
        preview = services.players_import_preview(club=club, text=text)
        # The preview re-posts the text itself, so a chosen file need not be chosen again.
        form = ImportForm(
            initial={"text": text, "skip_bad_lines": form.cleaned_data["skip_bad_lines"]}
        )
    return render(
        request,
        "clubs/import.html",
        {"club": club, "form": form, "preview": preview, "refused": refused},
    )


@organiser_required
def club_leagues(request: HttpRequest, club: Club) -> HttpResponse:
    leagues = list(League.objects.filter(club=club).annotate(event_count=Count("events")))
    for league in leagues:
        # The method's name in the organiser's language, not its key ("total").
        method = (league.ranking or {}).get("method") or "total"
        labels = BURRACO_METHOD_LABELS if league.game == GameChoice.BURRACO else METHOD_LABELS
        league.method_label = labels.get(method, method)
    return render(request, "clubs/leagues.html", {"club": club, "leagues": leagues})


@organiser_required
def club_league_edit(
    request: HttpRequest, club: Club, league_id: int | None = None
) -> HttpResponse:
    league = get_object_or_404(League, club=club, pk=league_id) if league_id else League(club=club)
    data = request.POST or None
    form = LeagueForm(data, instance=league, prefix="league")
    # The rules and ranking asked are those of the league's game: the one sent, else the
    # league's, else (a new league) the club's.
    game = (data or {}).get("league-game") or (league.game if league.pk else club.default_game)
    burraco_league = game == GameChoice.BURRACO
    rules: RulesetForm | BurracoRulesForm
    ranking: RankingForm | BurracoRankingForm
    if burraco_league:
        rules = BurracoRulesForm(
            data,
            prefix="rules",
            initial=BurracoRulesForm.initial_from(
                league.ruleset if league.pk else None, inherited=club.burraco_ruleset
            ),
            inherit_label=_("the club's rules at each tournament"),
        )
        ranking = BurracoRankingForm(
            data, prefix="ranking", initial=BurracoRankingForm.initial_from(league.ranking)
        )
    else:
        rules = RulesetForm(
            data,
            prefix="rules",
            initial=RulesetForm.initial_from(league.ruleset),
            inherit_label=_("the club's rules at each event"),
        )
        ranking = RankingForm(
            data, prefix="ranking", initial=RankingForm.initial_from(league.ranking)
        )
    if request.method == "POST" and all(f.is_valid() for f in (form, rules, ranking)):
        league = form.save(commit=False)
        league.ruleset = rules.ruleset
        league.ranking = ranking.ranking
        try:
            services.league_save(league=league)
        except services.ClubError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("League %(name)s saved.") % {"name": league})
            return redirect("club-leagues", slug=club.slug)
    return render(
        request,
        "clubs/league_edit.html",
        {
            "club": club,
            "league": league,
            "form": form,
            "rules": rules,
            "ranking": ranking,
            "burraco": burraco_league,
            "rules_text": describe(league.effective_ruleset())
            if league.club_id and not burraco_league
            else [],
        },
    )
