"""Forms of the referee's desk of a Burraco tournament: pairs (or players), seating a
turn, penalties."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.forms import CsvTextForm
from games.burraco.movement_messages import movement_message
from games.burraco.movements.pairing_import import parse_pairing
from games.burraco.tournaments import HANDS


def _entry_number(label: str | Promise) -> forms.IntegerField:
    """An entry's number field (a pair's or a player's): optional, 1 to 999."""
    return forms.IntegerField(
        label=label,
        min_value=1,
        max_value=999,
        required=False,
        help_text=_("Left empty: the next free number."),
    )


class PlayerChoice(forms.TypedChoiceField):
    """A club's player: the dropdown offers those free to enter, and a player entered
    meanwhile (another desk, a second tab) is still read, for the service to say why it
    is refused ("already in another pair") rather than "not a valid choice"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, coerce=int, **kwargs)
        self.known: set[int] = set()

    def valid_value(self, value: Any) -> bool:
        text = str(value)
        return super().valid_value(value) or (text.isdigit() and int(text) in self.known)


def _offer(form: forms.Form, names: list[str], players: list[tuple[int, str]], known: Any) -> None:
    for name in names:
        field = form.fields[name]
        field.choices = players  # type: ignore[attr-defined]
        field.known = set(known or ())  # type: ignore[attr-defined]


class PairForm(forms.Form):
    player_a = PlayerChoice(label=_("First player"))
    player_b = PlayerChoice(label=_("Second player"))
    number = _entry_number(_("Pair number"))

    def __init__(
        self,
        *args: Any,
        players: list[tuple[int, str]],
        known: Collection[int] = (),
        **kwargs: Any,
    ) -> None:
        """`players`: those offered (not in a pair of the event yet); `known`: every
        player of the club, read too."""
        super().__init__(*args, **kwargs)
        _offer(self, ["player_a", "player_b"], players, known)


class PairImportForm(CsvTextForm):
    """Pairs pasted or from a spreadsheet's CSV (games/burraco/pair_import.py reads them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["text"].label = _("Pairs")
        self.fields["text"].help_text = _(
            "One pair a line: two players (name; name), each with its membership number if "
            "known (name; number; name; number), the pair number first if wanted. A first "
            "line of column heads is allowed."
        )


class FreeMatchForm(forms.Form):
    """An evening of free matches: two pairs sat at a table for a new match."""

    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=200)
    ns = forms.TypedChoiceField(label=_("North-South pair"), coerce=int)
    ew = forms.TypedChoiceField(label=_("East-West pair"), coerce=int)

    def __init__(self, *args: Any, pairs: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ns"].choices = pairs
        self.fields["ew"].choices = pairs


class PlayerEntryForm(forms.Form):
    """A player entered alone in an individual tournament."""

    player = PlayerChoice(label=_("Player"))
    number = _entry_number(_("Number"))

    def __init__(
        self,
        *args: Any,
        players: list[tuple[int, str]],
        known: Collection[int] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        _offer(self, ["player"], players, known)


# What the desk offers for the next turn: the first turn is seated by entry order, draw or
# by hand (a pasted pairing), or as the first of a round robin (its calendar from turn 1);
# a later one by a movement over the turns played, or by hand.
FIRST_TURN_MOVEMENTS = ("first", "round_robin", "pairing")
LATER_TURN_MOVEMENTS = ("mitchell", "danese", "round_robin", "pairing")
LATER_PAIRING_LABEL = _("by hand: the pairing below, typed or pasted from a desktop program")


class TurnForm(forms.Form):
    movement = forms.ChoiceField(
        # Not the ranking's "movement" (places gained or lost): who plays whom.
        label=pgettext_lazy("seating", "Movement"),
        choices=[
            ("first", _("first turn: by entry order, draw or by hand")),
            ("mitchell", _("Mitchell (NS pairs stay, EW pairs move)")),
            ("danese", _("Danese (by the ranking so far)")),
            ("round_robin", _("round robin (everyone meets everyone)")),
            ("pairing", _("pasted pairing (below), e.g. from a desktop program")),
            ("individual", _("individual tournament: new partners every turn")),
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
    groups = forms.IntegerField(
        label=_("Round robin groups"),
        min_value=1,
        max_value=30,
        required=False,
        help_text=_(
            "Pairs meet the others of their group once, in the groups chosen at the round "
            "robin's first turn."
        ),
    )
    hands_per_turn = forms.TypedChoiceField(
        label=_("Hands"), coerce=int, choices=[(h, str(h)) for h in HANDS], initial=3
    )
    time_limit = forms.IntegerField(
        label=_("Time limit (minutes)"), min_value=5, max_value=240, required=False
    )
    pairing = forms.CharField(
        label=_("Pairing to paste"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "One table a line: table, NS pair, EW pair (e.g. “3, 4, 9”); “bye, 7” for a pair "
            "that rests. Commas, semicolons, tabs or spaces between the numbers; a first "
            "line of column heads is skipped."
        ),
    )

    def __init__(
        self,
        *args: Any,
        pairs: Collection[int] | None = None,
        first_turn: bool | None = None,
        individual: bool = False,
        **kwargs: Any,
    ) -> None:
        """`first_turn`: True or False shows only the movements and fields that fit the
        turn to seat (None: all of them, for a caller that does not know); an
        `individual` tournament has its one movement and none of the pairs' options. A
        movement sent that does not fit is left to the service, which says why."""
        super().__init__(*args, **kwargs)
        self.pairs = pairs
        self.turn = None
        self.shown: tuple[str, ...] | None = None
        if individual:
            self.shown = ("individual",)
            dropped: tuple[str, ...] = ("first_order", "step", "variant", "groups", "pairing")
        elif first_turn is not None:
            self.shown = FIRST_TURN_MOVEMENTS if first_turn else LATER_TURN_MOVEMENTS
            dropped = ("step", "variant") if first_turn else ("first_order",)
        else:
            return
        for name in dropped:
            del self.fields[name]
        if not first_turn and not individual:
            field = self.fields["movement"]
            field.choices = [  # type: ignore[attr-defined]
                (value, LATER_PAIRING_LABEL if value == "pairing" else label)
                for value, label in field.choices  # type: ignore[attr-defined]
            ]
        if not self.is_bound:
            self._show_movements()

    def _show_movements(self) -> None:
        field = self.fields["movement"]
        field.choices = [c for c in field.choices if c[0] in (self.shown or ())]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        """A pasted pairing (the "pairing" movement, or the first turn by hand) read by
        games.burraco.movements.pairing_import: every problem named with its line."""
        data = super().clean()
        if self.shown is not None:  # checked against every movement; shown again trimmed
            self._show_movements()
        by_hand = data.get("movement") == "pairing" or (
            data.get("movement") == "first" and data.get("first_order") == "hand"
        )
        if not by_hand:
            return data
        turn, problems = parse_pairing(data.get("pairing") or "", pairs=self.pairs)
        for problem in problems:
            self.add_error("pairing", movement_message(problem))
        self.turn = turn
        return data

    def pairing_lines(self) -> tuple[list[tuple[int, int, int]], list[int]]:
        """The pasted pairing's (table, NS, EW) and byes (empty unless seated by hand)."""
        if self.turn is None:
            return [], []
        tables = [(int(t.number), int(t.ns), int(t.ew)) for t in self.turn.tables]
        return tables, [int(b) for b in self.turn.byes]


class PenaltyForm(forms.Form):
    pair = forms.TypedChoiceField(label=_("Pair"), coerce=int)
    # The turn of the infraction: any turn seated, the current one by default.
    turn = forms.TypedChoiceField(label=_("Turn"), coerce=int, required=False)
    # As PairTurnResult.penalty_vp stores it: at most two decimals.
    vp = forms.DecimalField(
        label=_("VP taken"), min_value=0, max_value=20, decimal_places=2, initial=1
    )
    mp = forms.IntegerField(label=_("MP taken"), min_value=0, max_value=5000, initial=0)
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(
        self, *args: Any, pairs: list[tuple[int, str]], turns: int = 0, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["pair"].choices = pairs
        self.fields["turn"].choices = [(n, str(n)) for n in range(turns, 0, -1)]
        self.fields["turn"].initial = turns or None


class CorrectionForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=200)
    time_out = forms.BooleanField(
        label=_("Time ran out: confirm the card with the hands played"),
        required=False,
        help_text=_("The VP table of the turn's planned number of hands still applies."),
    )
