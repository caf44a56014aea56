"""Forms of the organiser's club pages: settings, rules, players, imports, leagues, ranking."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.csv_text import decode_upload
from clubs.models import Club, GameChoice, League, Membership, Player
from clubs.services import ranking_check, ruleset_check
from scoring.engine import barbu
from scoring.engine.barbu.cards import RANKS
from scoring.engine.ranking import METHODS, TIEBREAKS

CONTRACT_LABELS = {
    "barbu": _("Barbu (king of hearts)"),
    "hearts": _("Hearts"),
    "queens": _("Queens"),
    "last_two": _("Last two tricks"),
    "no_tricks": _("No tricks"),
    "trumps": _("Trumps"),
    "domino": _("Domino"),
}
PRESET_LABELS = {
    "italian7": _("Italian, 7 contracts"),
    "italian6": _("Italian, 6 contracts with settlement"),
    "french": _("French"),
    "german": _("German"),
}
YES_NO = [("", _("as the preset")), ("yes", _("yes")), ("no", _("no"))]
BOOL_OPTIONS = {
    "trumps_allow_no_trump": _("Trumps: the dealer may choose no-trump"),
    "positive_only_dealer": _("In trumps and domino only the dealer may be doubled"),
    "mandatory_doubles": _("Each player must double every dealer twice"),
    "barbu_discard_first_chance": _("Barbu: discard the king of hearts at the first chance"),
    "domino_pass_when_able": _("Domino: a player may pass even when able to play"),
}
CHOICE_OPTIONS = {
    "dealer_rotation": (
        _("Who deals"),
        [
            ("per_turn", _("each player deals all contracts in a row")),
            ("per_deal", _("the deal passes after every deal")),
        ],
    ),
    "double_shape": (
        _("Doubles"),
        [
            ("any", _("any set of opponents")),
            ("german", _("one player, the two others, or the table")),
        ],
    ),
    "turn_settlement": (
        _("Settlement after each dealer's turn"),
        [("none", _("none")), ("italian6", _("Italian 6-contract settlement"))],
    ),
}


class ClubSettingsForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "language", "game", "published", "confirm_deals"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A form sent without it (an older page, a script) keeps the club's game.
        self.fields["game"].required = False

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or self.instance.game or Club.Games.BARBU


class RulesetForm(forms.Form):
    """A preset and the options that differ from it; the engine decides what is valid."""

    preset = forms.ChoiceField(label=_("Preset"))
    contracts = forms.MultipleChoiceField(
        label=_("Contracts"),
        required=False,
        choices=list(CONTRACT_LABELS.items()),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Leave all unticked to play the preset's contracts."),
    )
    domino_points = forms.CharField(
        label=_("Domino points"),
        required=False,
        help_text=_(
            "Four whole numbers separated by commas, first out to last, e.g. 45,20,10,-10."
        ),
    )
    # The contracts' points in words and numbers (the engine's options.points), each
    # left empty to keep the preset's.
    points_barbu = forms.IntegerField(
        label=_("Points for the king of hearts (Barbu)"),
        required=False,
        help_text=_("A whole number, e.g. -20. Empty: the preset's points."),
    )
    points_hearts = forms.CharField(
        label=_("Points for each heart"),
        required=False,
        help_text=_(
            "One whole number for every heart (e.g. -2), or thirteen separated by commas, "
            "from the ace down to the two. Empty: the preset's points."
        ),
    )
    points_queens = forms.IntegerField(
        label=_("Points for each queen"), required=False, help_text=_("Empty: the preset's points.")
    )
    points_last_two = forms.CharField(
        label=_("Points for the last two tricks"),
        required=False,
        help_text=_(
            "Two whole numbers separated by a comma: the second-last trick, then the last, "
            "e.g. -10,-20. Empty: the preset's points."
        ),
    )
    points_no_tricks = forms.IntegerField(
        label=_("Points for each trick in No tricks"),
        required=False,
        help_text=_("Empty: the preset's points."),
    )
    points_trumps = forms.IntegerField(
        label=_("Points for each trick in Trumps"),
        required=False,
        help_text=_("Empty: the preset's points."),
    )

    def __init__(self, *args: Any, inherit_label: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(name, PRESET_LABELS.get(name, name)) for name in barbu.PRESETS]
        if inherit_label:
            choices.insert(0, ("", inherit_label))
            self.fields["preset"].required = False
        self.fields["preset"].choices = choices
        for name, label in BOOL_OPTIONS.items():
            self.fields[name] = forms.ChoiceField(label=label, choices=YES_NO, required=False)
        for name, (label, options) in CHOICE_OPTIONS.items():
            self.fields[name] = forms.ChoiceField(
                label=label, choices=[("", _("as the preset")), *options], required=False
            )

    @classmethod
    def initial_from(cls, ruleset: dict | None) -> dict[str, Any]:
        if not ruleset:
            return {"preset": ""}
        options = ruleset.get("options") or {}
        initial: dict[str, Any] = {"preset": ruleset.get("preset", "")}
        if "contracts" in options:
            initial["contracts"] = list(options["contracts"])
        if "domino_points" in options:
            initial["domino_points"] = ",".join(str(v) for v in options["domino_points"])
        initial.update(_points_initial(options.get("points") or {}, ruleset.get("preset", "")))
        for name in BOOL_OPTIONS:
            if name in options:
                initial[name] = "yes" if options[name] else "no"
        for name in CHOICE_OPTIONS:
            if name in options:
                initial[name] = options[name]
        return initial

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.ruleset: dict | None = None
        if not data.get("preset"):
            return data
        options: dict[str, Any] = {}
        if data.get("contracts"):
            options["contracts"] = list(data["contracts"])
        if data.get("domino_points"):
            try:
                options["domino_points"] = [int(v) for v in data["domino_points"].split(",")]
            except ValueError:
                self.add_error("domino_points", _("Write four whole numbers separated by commas."))
        points = self._points(data)
        if points:
            options["points"] = points
        for name in BOOL_OPTIONS:
            if data.get(name):
                options[name] = data[name] == "yes"
        for name in CHOICE_OPTIONS:
            if data.get(name):
                options[name] = data[name]
        if self.errors:
            return data
        checked, problems = ruleset_check({"preset": data["preset"], "options": options})
        for problem in problems:
            self.add_error(None, problem)
        self.ruleset = checked
        return data

    def _points(self, data: dict[str, Any]) -> dict[str, Any]:
        """The points fields filled in, as the engine's options.points (errors on the field)."""
        points: dict[str, Any] = {}
        for key in ("barbu", "queens", "no_tricks", "trumps"):
            if data.get(f"points_{key}") is not None:
                points[key] = data[f"points_{key}"]
        hearts = _whole_numbers(data.get("points_hearts"))
        if hearts is None or len(hearts) not in (0, 1, 13):
            self.add_error(
                "points_hearts", _("Write one whole number, or thirteen separated by commas.")
            )
        elif len(hearts) == 1:
            points["hearts"] = hearts[0]
        elif hearts:
            points["hearts"] = dict(zip(RANKS, hearts, strict=True))
        last_two = _whole_numbers(data.get("points_last_two"))
        if last_two is None or len(last_two) not in (0, 2):
            self.add_error("points_last_two", _("Write two whole numbers separated by a comma."))
        elif last_two:
            points["last_two"] = last_two
        return points


def _whole_numbers(text: str | None) -> list[int] | None:
    """ "-2, -4" -> [-2, -4]; empty -> []; None when a part is not a whole number."""
    if not text or not text.strip():
        return []
    try:
        return [int(part) for part in text.replace(";", ",").split(",")]
    except ValueError:
        return None


def _points_initial(points: dict[str, Any], preset: str) -> dict[str, str]:
    """The stored options.points shown in the points fields (hearts by rank as 13 numbers)."""
    initial: dict[str, str] = {}
    for key in ("barbu", "queens", "no_tricks", "trumps"):
        if key in points:
            initial[f"points_{key}"] = str(points[key])
    hearts = points.get("hearts")
    if isinstance(hearts, int):
        initial["points_hearts"] = str(hearts)
    elif isinstance(hearts, dict):
        base = barbu.PRESETS.get(preset, barbu.PRESETS["italian7"]).points["hearts"]
        by_rank = {("T" if str(r) == "10" else str(r).upper()): v for r, v in hearts.items()}
        values = [by_rank.get(rank, base[i]) for i, rank in enumerate(RANKS)]
        initial["points_hearts"] = ",".join(str(v) for v in values)
    if "last_two" in points:
        initial["points_last_two"] = ",".join(str(v) for v in points["last_two"])
    return initial


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    email = forms.EmailField(label=_("E-mail"), required=False)
    role = forms.ChoiceField(
        label=_("Role"), choices=Membership.Role.choices, initial=Membership.Role.MEMBER
    )
    federation_number = forms.CharField(
        label=_("Membership number"),
        max_length=20,
        required=False,
        help_text=_("The federation's membership number, if the player has one."),
    )


class ClubPlayerChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return f"{obj.name} (#{obj.pk}{', ' + obj.email if obj.email else ''})"


class MergeForm(forms.Form):
    keep = ClubPlayerChoice(label=_("Keep this player"), queryset=Player.objects.none())
    duplicate = ClubPlayerChoice(
        label=_("Merge this duplicate into it"), queryset=Player.objects.none()
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = Player.objects.filter(memberships__club=club, merged_into__isnull=True)
        self.fields["keep"].queryset = players
        self.fields["duplicate"].queryset = players

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("keep") and data.get("keep") == data.get("duplicate"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class CsvTextForm(forms.Form):
    """A CSV pasted or chosen as a file (an import's form): the file's text, decoded as
    clubs.csv_text reads a spreadsheet's export, takes the pasted text's place."""

    text = forms.CharField(label=_("CSV"), required=False, widget=forms.Textarea(attrs={"rows": 8}))
    file = forms.FileField(label=_("or a CSV file"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload:
            data["text"] = decode_upload(upload.read(1_000_000))
        if not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Paste the CSV or choose a file."))
        return data


class ImportForm(CsvTextForm):
    skip_bad_lines = forms.BooleanField(
        label=_("Import the good lines and skip the lines with errors"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["text"].help_text = _(
            "One player a line: name, e-mail, role (member, guest or organiser)."
        )


class LeagueForm(forms.ModelForm):
    class Meta:
        model = League
        fields = ["name", "season", "game", "starts_on", "ends_on", "published"]
        # A date input's value is always yyyy-mm-dd, whatever the page's language: a
        # browser's date field drops any other ("01/01/2026" in Italian) and sends it
        # empty, and the saved date would be lost.
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].required = False
        if not self.instance.pk and self.instance.club_id:
            # The instance's initial (the model's default, Barbu) would win over the
            # field's: a new league plays the club's game unless told otherwise.
            self.initial["game"] = self.instance.club.default_game

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or self.instance.game or GameChoice.BARBU


METHOD_LABELS = {
    "total": _("total points of all games"),
    "placement": _("placement points at each table"),
    "average": _("average points per game"),
}
TIEBREAK_LABELS = {
    "wins": _("games won"),
    "best_game": _("best single game"),
    "head_to_head": _("head to head"),
    "average": _("average per game"),
    "games": _("games played"),
    "total": _("total points"),
}


class RankingForm(forms.Form):
    """League.ranking, field by field, checked by scoring.engine.ranking.parse_ranking."""

    method = forms.ChoiceField(
        label=_("Rank players by"),
        choices=[(m, METHOD_LABELS.get(m, m)) for m in METHODS],
        help_text=_(
            "Total: the sum of all points. Placement: points for 1st, 2nd, 3rd and 4th "
            "place at each table. Average: points per game, for players with enough games."
        ),
    )
    placement_points = forms.CharField(
        label=_("Placement points"),
        required=False,
        initial="4,2,1,0",
        help_text=_("For 1st to 4th place, separated by commas; tied players share."),
    )
    min_games = forms.IntegerField(
        label=_("Minimum games"),
        min_value=0,
        initial=0,
        required=False,
        help_text=_("Players with fewer games are listed after the others."),
    )
    best_evenings = forms.IntegerField(
        label=_("Best evenings"),
        min_value=1,
        required=False,
        help_text=_("Count only each player's best N evenings; empty: all of them."),
    )
    tiebreaks = forms.CharField(
        label=_("Tie-breaks, in order"),
        required=False,
        initial="wins,best_game,head_to_head",
        # Lazy: formatted when the form is shown, in the organiser's language (not at import).
        help_text=lazy(
            lambda: (
                gettext("Separated by commas, from: %(choices)s.")
                % {"choices": ", ".join(TIEBREAKS)}
            ),
            str,
        )(),
    )

    @classmethod
    def initial_from(cls, ranking: dict | None) -> dict[str, Any]:
        ranking = ranking or {}
        initial: dict[str, Any] = {"method": ranking.get("method", "total")}
        if "placement_points" in ranking:
            initial["placement_points"] = ",".join(str(v) for v in ranking["placement_points"])
        if "min_games" in ranking:
            initial["min_games"] = ranking["min_games"]
        if ranking.get("best_evenings"):
            initial["best_evenings"] = ranking["best_evenings"]
        if "tiebreaks" in ranking:
            initial["tiebreaks"] = ",".join(ranking["tiebreaks"])
        return initial

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        ranking: dict[str, Any] = {"method": data.get("method") or "total"}
        text = (data.get("placement_points") or "").strip()
        if text:
            try:
                ranking["placement_points"] = [
                    float(v) if "." in v else int(v) for v in text.split(",")
                ]
            except ValueError:
                self.add_error("placement_points", _("Write numbers separated by commas."))
        if data.get("min_games") is not None:
            ranking["min_games"] = data["min_games"]
        ranking["best_evenings"] = data.get("best_evenings") or None
        text = (data.get("tiebreaks") or "").strip()
        if text:
            ranking["tiebreaks"] = [v.strip() for v in text.split(",") if v.strip()]
        if not self.errors:
            for problem in ranking_check(ranking):
                self.add_error(None, problem)
        self.ranking = ranking
        return data
