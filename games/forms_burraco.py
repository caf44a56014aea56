"""Forms of the referee's desk of a Burraco tournament: pairs, seating a turn, penalties."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.burraco.tournaments import HANDS


class PairForm(forms.Form):
    player_a = forms.TypedChoiceField(label=_("First player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("Second player"), coerce=int)
    number = forms.IntegerField(
        label=_("Pair number"),
        min_value=1,
        max_value=999,
        required=False,
        help_text=_("Left empty: the next free number."),
    )

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player_a"].choices = players
        self.fields["player_b"].choices = players


class TurnForm(forms.Form):
    movement = forms.ChoiceField(
        label=_("Movement"),
        choices=[
            ("first", _("first turn: by entry order, draw or by hand")),
            ("mitchell", _("Mitchell (NS pairs stay, EW pairs move)")),
            ("danese", _("Danese (by the ranking so far)")),
            ("round_robin", _("round robin (everyone meets everyone)")),
        ],
    )
    first_order = forms.ChoiceField(
        label=_("First turn's order"),
        required=False,
        choices=[
            ("entry", _("by entry order")),
            ("draw", _("by draw")),
            ("hand", _("by hand (the pairing below)")),
        ],
    )
    step = forms.IntegerField(
        label=_("Mitchell step"), min_value=1, max_value=30, initial=1, required=False
    )
    variant = forms.ChoiceField(
        label=_("Danese variant"),
        required=False,
        initial="no_rematch",
        choices=[
            ("pure", _("pure: 1st v 2nd, 3rd v 4th…")),
            ("modified", _("modified: never the previous opponent")),
            ("no_rematch", _("no rematch: never an earlier opponent")),
        ],
    )
    hands_per_turn = forms.TypedChoiceField(
        label=_("Hands"), coerce=int, choices=[(h, str(h)) for h in HANDS], initial=3
    )
    time_limit = forms.IntegerField(
        label=_("Time limit (minutes)"), min_value=5, max_value=240, required=False
    )
    pairing = forms.CharField(
        label=_("Pairing by hand"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "One table a line: NS pair, EW pair (e.g. “1 4”); a line with one pair: its bye."
        ),
    )

    def pairing_lines(self) -> tuple[list[tuple[int, int]], list[int]]:
        tables: list[tuple[int, int]] = []
        byes: list[int] = []
        for raw in (self.cleaned_data.get("pairing") or "").splitlines():
            numbers = [
                int(n) for n in raw.replace(",", " ").replace("-", " ").split() if n.isdigit()
            ]
            if len(numbers) == 2:
                tables.append((numbers[0], numbers[1]))
            elif len(numbers) == 1:
                byes.append(numbers[0])
        return tables, byes


class PenaltyForm(forms.Form):
    pair = forms.TypedChoiceField(label=_("Pair"), coerce=int)
    vp = forms.DecimalField(label=_("VP taken"), min_value=0, max_value=20, initial=1)
    mp = forms.IntegerField(label=_("MP taken"), min_value=0, max_value=5000, initial=0)
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args: Any, pairs: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["pair"].choices = pairs


class CorrectionForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=200)
