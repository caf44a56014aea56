"""Forms of the organiser's evening pages: event, check-in, guest, seating, swaps, corrections."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, GameChoice, League
from games.models import Event


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=GameChoice.choices, required=False)
    kind = forms.ChoiceField(
        label=_("Kind"), choices=Event.Kind.choices, initial=Event.Kind.EVENING
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    league = forms.ModelChoiceField(
        label=_("League"),
        queryset=League.objects.none(),
        required=False,
        empty_label=_("no league (the club's rules)"),
        help_text=_("The event keeps a copy of the league's (or the club's) rules."),
    )
    seating_method = forms.ChoiceField(
        label=_("Seating"), choices=Event.Seating.choices, initial=Event.Seating.MIX
    )
    turns_per_round = forms.TypedChoiceField(
        label=_("Each round plays"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=[
            ("", _("a whole game (every player deals)")),
            (1, _("one dealer turn")),
            (2, _("two dealer turns")),
            (3, _("three dealer turns")),
        ],
    )
    planned_rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=30,
        initial=1,
        help_text=_("For a Burraco tournament: its turns."),
    )
    hands_per_turn = forms.TypedChoiceField(
        label=_("Hands per turn (Burraco)"),
        coerce=int,
        choices=[(2, "2"), (3, "3"), (4, "4")],
        initial=3,
        required=False,
        empty_value=3,
    )
    burraco_format = forms.ChoiceField(
        label=_("Burraco format"),
        choices=Event.BurracoFormat.choices,
        initial=Event.BurracoFormat.TURNS,
        required=False,
        help_text=_("Free matches: pairs play matches to a target; no turns, no VP."),
    )
    target = forms.TypedChoiceField(
        label=_("Free matches played to"),
        coerce=int,
        choices=[(2005, "2005"), (1505, "1505"), (1005, "1005")],
        initial=2005,
        required=False,
        empty_value=2005,
    )
    individual = forms.BooleanField(
        label=_("Individual tournament (Burraco)"),
        required=False,
        help_text=_("Players enter alone and partner someone new every turn."),
    )
    published = forms.BooleanField(label=_("Public"), required=False, initial=True)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = League.objects.filter(club=club)
        self.fields["game"].initial = club.default_game
        self.club = club
        if club.game != Club.Games.BOTH:
            # A club that plays one game is not asked which, nor what fits the other game.
            self.fields["game"].widget = forms.HiddenInput()
            if club.game == Club.Games.BURRACO:
                self.fields["league"].queryset = League.objects.filter(
                    club=club, game=GameChoice.BURRACO
                )
                for name in ("kind", "seating_method", "turns_per_round"):
                    self.fields[name].widget = forms.HiddenInput()
                    self.fields[name].required = False
                self.fields["kind"].initial = Event.Kind.TOURNAMENT
                self.fields["planned_rounds"].label = _("Turns")
                self.fields["planned_rounds"].initial = 4
                self.fields["planned_rounds"].help_text = ""
            else:
                self.fields["league"].queryset = League.objects.filter(
                    club=club, game=GameChoice.BARBU
                )
                for name in ("hands_per_turn", "individual", "burraco_format", "target"):
                    self.fields[name].widget = forms.HiddenInput()
        self.fields["starts_at"].initial = timezone.localtime().replace(second=0, microsecond=0)

    def clean_game(self) -> str:
        # A form sent without it (an older page, a script) plays the club's game.
        return self.cleaned_data.get("game") or self.club.default_game

    def clean_burraco_format(self) -> str:
        return self.cleaned_data.get("burraco_format") or Event.BurracoFormat.TURNS


class CheckinForm(forms.Form):
    players = forms.TypedMultipleChoiceField(
        label=_("Players present"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    guest = forms.CharField(
        label=_("Guest's name"),
        max_length=80,
        required=False,
        help_text=_("Someone who is not a player of the club yet: added and checked in."),
    )

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = choices


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Guest's name"), max_length=80)


class SeatForm(forms.Form):
    method = forms.ChoiceField(
        label=_("Seating"),
        choices=[
            (Event.Seating.MIX, Event.Seating.MIX.label),
            (Event.Seating.SWISS, Event.Seating.SWISS.label),
            (Event.Seating.RANDOM, Event.Seating.RANDOM.label),
        ],
        help_text=_("To seat players yourself, seat at random and then swap seats."),
    )


class CloseForm(forms.Form):
    force = forms.BooleanField(
        label=_("Close even though some games are not finished"), required=False
    )


class EventCloseForm(forms.Form):
    """Closing the evening: with games not finished, how they count must be chosen."""

    unfinished = forms.ChoiceField(
        label=_("If some games are not finished, they"),
        choices=Event._meta.get_field("unfinished").choices,
        widget=forms.RadioSelect,
        required=False,
    )


class DealCorrectForm(forms.Form):
    """What the correction page posts besides the deal itself (games/barbu/deal_form.py reads
    that)."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    # The other deal of a swap (its number and the version shown), once its form is shown.
    swap = forms.IntegerField(widget=forms.HiddenInput, required=False)
    swap_version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        required=False,
        help_text=_("Kept in the deal's history, e.g. “K♥ went to Carla, not Anna”."),
    )
