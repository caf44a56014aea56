"""The Burraco rules in words and numbers: a preset, its options and the VP tables as bands.

The form turns the engine's ruleset ``{"preset": ..., "options": {...}}``
(scoring/engine/burraco/presets.py) into fields and back. Options left empty keep the
preset's value; a value equal to the preset's is not stored either, so a club's rules
stay the few words that differ from its preset. Each VP table is edited as bands,
"difference from ... to ... -> winner's VP" (the loser gets 20 minus it); the last band
has no "to" (that difference or more). The engine has the last word on every value.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.engine_words import problem_message
from scoring.engine import burraco
from scoring.engine.burraco.presets import (
    MP_STEP,
    TURN_HANDS,
    VP_LEVEL,
    VP_SCALE,
    table_to_json,
    vp_bands,
)

BURRACO_PRESET_LABELS = {
    "fibur": _("FIBUR (Italian federation)"),
    "international": _("FIBUR International"),
    "free": _("Free matches (no tournament VP tables)"),
}
BONUS_FIELDS = {
    "clean": _("Clean burraco"),
    "semi": _("Semi-clean burraco"),
    "dirty": _("Dirty burraco"),
    "close": _("Closing"),
}
YES_NO = [("", _("as the preset")), ("yes", _("yes")), ("no", _("no"))]
# Rows offered per VP table: the FIBUR tables have 11 bands; room for a club's longer one.
BANDS = 15
# Words a kind may not take: the fields of a hand's line and the three kinds above.
RESERVED = frozenset({"melded", "in_hand", "penalty", "pozzetto", "close", *BONUS_FIELDS})
_OTHER_KIND = re.compile(r"\s*([a-z][a-z_]{0,29})\s*[:=]?\s*(-?\d+)\s*")


def _field(hands: int, band: int, part: str) -> str:
    return f"vp{hands}_{band}_{part}"


def _effective(ruleset: dict | None) -> burraco.Ruleset | None:
    if not ruleset:
        return None
    checked, _problems = burraco.parse_ruleset(ruleset)
    return checked


class BurracoRulesForm(forms.Form):
    """A Burraco preset and the options that differ from it, VP tables included."""

    preset = forms.ChoiceField(label=_("Preset"))
    semi_clean = forms.ChoiceField(
        label=_("Semi-clean burracos count"), choices=YES_NO, required=False
    )
    close_needs_clean = forms.ChoiceField(
        label=_("Closing needs a clean burraco"), choices=YES_NO, required=False
    )
    no_pozzetto = forms.IntegerField(
        label=_("Penalty for not taking the pozzetto"),
        required=False,
        max_value=0,
        help_text=_("Points taken, as a negative multiple of 5, e.g. -100."),
    )
    target = forms.IntegerField(
        label=_("Free match: points to reach"),
        required=False,
        min_value=1,
        help_text=_("The first pair past it at the end of a hand wins, e.g. 2005."),
    )
    other_kinds = forms.CharField(
        label=_("Other burraco kinds"),
        required=False,
        help_text=_("A federation's own kinds with their points, e.g. reale 300, super 250."),
    )

    def __init__(self, *args: Any, inherit_label: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(name, BURRACO_PRESET_LABELS.get(name, name)) for name in burraco.PRESETS]
        if inherit_label:
            choices.insert(0, ("", inherit_label))
            self.fields["preset"].required = False
        self.fields["preset"].choices = choices
        for kind, label in BONUS_FIELDS.items():
            self.fields[f"bonus_{kind}"] = forms.IntegerField(
                label=label,
                required=False,
                min_value=0,
                help_text=_("Bonus points; empty: the preset's."),
            )
        self._show_preset_values()
        for hands in TURN_HANDS:
            for band in range(1, BANDS + 1):
                for part in ("from", "to", "vp"):
                    self.fields[_field(hands, band, part)] = forms.IntegerField(
                        required=False,
                        min_value=0,
                        label=_band_label(part, hands, band),
                    )

    def _show_preset_values(self) -> None:
        """The preset's values as the placeholders of the options left empty."""
        bound = self.data.get(self.add_prefix("preset"))
        name = (bound if self.is_bound else self.initial.get("preset")) or ""
        preset = burraco.PRESETS.get(name, burraco.PRESETS[burraco.DEFAULT_PRESET])
        for kind in BONUS_FIELDS:
            points = preset.bonus.get(kind)
            if points is not None:
                self.fields[f"bonus_{kind}"].widget.attrs["placeholder"] = str(points)
        self.fields["no_pozzetto"].widget.attrs["placeholder"] = str(preset.no_pozzetto)
        self.fields["target"].widget.attrs["placeholder"] = str(preset.target)

    # --- from the stored ruleset to the fields -------------------------------------------

    @classmethod
    def initial_from(cls, ruleset: dict | None, inherited: dict | None = None) -> dict[str, Any]:
        """Initial values: the stored overrides, and the VP tables in force as bands. A
        league without rules of its own (`ruleset` None) shows the tables of `inherited`,
        the club's rules it will use, else the default preset's."""
        effective = _effective(ruleset)
        if not ruleset or effective is None:
            effective = _effective(inherited) or burraco.PRESETS[burraco.DEFAULT_PRESET]
            initial: dict[str, Any] = {"preset": ""}
        else:
            initial = {"preset": ruleset.get("preset", "")}
        options = (ruleset or {}).get("options") or {}
        bonus = options.get("bonus") or {}
        for kind in BONUS_FIELDS:
            if bonus.get(kind) is not None:
                initial[f"bonus_{kind}"] = bonus[kind]
        others = [f"{k} {v}" for k, v in bonus.items() if k not in BONUS_FIELDS and v is not None]
        if others:
            initial["other_kinds"] = ", ".join(others)
        for name in ("semi_clean", "close_needs_clean"):
            if name in options:
                initial[name] = "yes" if options[name] else "no"
        for name in ("no_pozzetto", "target"):
            if name in options:
                initial[name] = options[name]
        for hands, table in effective.vp_tables.items():
            for band, (start, end, vp, _loser) in enumerate(vp_bands(table), start=1):
                initial[_field(hands, band, "from")] = start
                if end is not None:
                    initial[_field(hands, band, "to")] = end
                initial[_field(hands, band, "vp")] = vp
        return initial

    # --- for the template -----------------------------------------------------------------

    def bonus_fields(self) -> list[forms.BoundField]:
        return [self[f"bonus_{kind}"] for kind in BONUS_FIELDS]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("semi_clean", "close_needs_clean", "no_pozzetto")]

    def vp_tables(self) -> list[dict[str, Any]]:
        """Per turn length: its rows of bound fields, the loser's VP shown, and its errors."""
        out = []
        for hands in TURN_HANDS:
            rows, errors = [], []
            for band in range(1, BANDS + 1):
                fields = {part: self[_field(hands, band, part)] for part in ("from", "to", "vp")}
                for field in fields.values():
                    errors.extend(field.errors)
                vp = fields["vp"].value()
                try:
                    loser = VP_SCALE - int(vp) if vp not in (None, "") else None
                except (TypeError, ValueError):
                    loser = None
                rows.append({"band": band, **fields, "loser": loser})
            out.append({"hands": hands, "rows": rows, "errors": errors})
        return out

    # --- from the fields to the ruleset -------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.ruleset: dict | None = None
        name = data.get("preset")
        if not name or name not in burraco.PRESETS:
            return data
        preset = burraco.PRESETS[name]
        options: dict[str, Any] = {}
        bonus: dict[str, Any] = {}
        for kind in BONUS_FIELDS:
            value = data.get(f"bonus_{kind}")
            if value is None:
                continue
            if value % MP_STEP:
                self.add_error(f"bonus_{kind}", _multiple_of_5(value))
            elif preset.bonus.get(kind) != value:
                bonus[kind] = value
        bonus.update(self._other_kinds(data.get("other_kinds") or "", preset))
        if bonus:
            options["bonus"] = bonus
        for option in ("semi_clean", "close_needs_clean"):
            if data.get(option):
                value = data[option] == "yes"
                if getattr(preset, option) != value:
                    options[option] = value
        pozzetto = data.get("no_pozzetto")
        if pozzetto is not None:
            if pozzetto % MP_STEP:
                self.add_error("no_pozzetto", _multiple_of_5(pozzetto))
            elif pozzetto != preset.no_pozzetto:
                options["no_pozzetto"] = pozzetto
        target = data.get("target")
        if target is not None and target != preset.target:
            options["target"] = target
        tables = {}
        for hands in TURN_HANDS:
            table = self._table(hands, data)
            if table is not None and table != table_to_json(preset.vp_tables.get(hands, ())):
                tables[str(hands)] = table
        if tables:
            options["vp_tables"] = tables
        if self.errors:
            return data
        ruleset = {"preset": name, "options": options}
        _checked, problems = burraco.parse_ruleset(ruleset)
        for problem in problems:
            self.add_error(None, problem_message(problem))
        if not problems:
            self.ruleset = ruleset
        return data

    def _other_kinds(self, text: str, preset: burraco.Ruleset) -> dict[str, int]:
        kinds: dict[str, int] = {}
        for part in (p for p in text.split(",") if p.strip()):
            match = _OTHER_KIND.fullmatch(part.lower())
            if match is None or match[1] in RESERVED:
                self.add_error(
                    "other_kinds",
                    gettext(
                        "Write each kind as a name and its points, e.g. reale 300 (not “%(text)s”)."
                    )
                    % {"text": part.strip()[:40]},
                )
                continue
            points = int(match[2])
            if points < 0 or points % MP_STEP:
                self.add_error("other_kinds", _multiple_of_5(points))
            elif preset.bonus.get(match[1]) != points:
                kinds[match[1]] = points
        return kinds

    def _table(self, hands: int, data: dict[str, Any]) -> list[list[int | None]] | None:
        """The bands of one VP table as the engine's [[to, VP], ..., [None, VP]], or None
        when every row is empty (the preset's table); errors name the band."""
        rows = []
        for band in range(1, BANDS + 1):
            values = {part: data.get(_field(hands, band, part)) for part in ("from", "to", "vp")}
            if all(v is None for v in values.values()):
                continue
            rows.append((band, values))
        if not rows:
            return None
        table: list[list[int | None]] = []
        previous: tuple[int, int | None, int | None] | None = None  # band, to, vp
        errors_before = len(self.errors)
        for index, (band, values) in enumerate(rows):
            start, end, vp = values["from"], values["to"], values["vp"]
            last = index == len(rows) - 1

            def error(part: str, message: str) -> None:
                self.add_error(_field(hands, band, part), message)  # noqa: B023

            params = {"hands": hands, "band": band}
            if start is None:
                error(
                    "from",
                    gettext(
                        "VP table for %(hands)s hands, band %(band)s: "
                        "say from which difference it counts."
                    )
                    % params,
                )
            elif previous is None and start != 0:
                error(
                    "from",
                    gettext(
                        "VP table for %(hands)s hands, band %(band)s: the first band starts at 0."
                    )
                    % params,
                )
            elif (
                previous is not None and previous[1] is not None and start != previous[1] + MP_STEP
            ):
                error(
                    "from",
                    gettext(
                        "VP table for %(hands)s hands, band %(band)s: it should start at "
                        "%(expected)s, just after band %(previous)s ends (%(end)s), so that "
                        "no difference is left out or counted twice."
                    )
                    % {
                        **params,
                        "expected": previous[1] + MP_STEP,
                        "previous": previous[0],
                        "end": previous[1],
                    },
                )
            if end is None and not last:
                error(
                    "to",
                    gettext(
                        "VP table for %(hands)s hands, band %(band)s: say up to "
                        "which difference it counts; only the last band is "
                        "open-ended."
                    )
                    % params,
                )
            elif end is not None and last:
                error(
                    "to",
                    gettext(
                        "VP table for %(hands)s hands, band %(band)s: the last "
                        "band has no end (that difference or more), so leave "
                        "“to” empty."
                    )
                    % params,
                )
            elif end is not None and end % MP_STEP:
                error(
                    "to",
                    gettext(
                        "VP table for %(hands)s hands, band %(band)s: %(value)s "
                        "is not a multiple of 5, as every score is."
                    )
                    % {**params, "value": end},
                )
            elif end is not None and start is not None and end < start:
                error(
                    "to",
                    gettext(
                        "VP table for %(hands)s hands, band %(band)s: it ends "
                        "(%(end)s) below where it starts (%(start)s)."
                    )
                    % {**params, "end": end, "start": start},
                )
            if vp is None:
                error(
                    "vp",
                    gettext("VP table for %(hands)s hands, band %(band)s: give the winner's VP.")
                    % params,
                )
            elif not VP_LEVEL <= vp <= VP_SCALE:
                error(
                    "vp",
                    gettext(
                        "VP table for %(hands)s hands, band %(band)s: the "
                        "winner's VP should be from 10 to 20, not %(vp)s."
                    )
                    % {**params, "vp": vp},
                )
            elif previous is not None and previous[2] is not None and vp < previous[2]:
                error(
                    "vp",
                    gettext(
                        "VP table for %(hands)s hands, band %(band)s: the "
                        "winner's VP (%(vp)s) should not be below band "
                        "%(previous)s's (%(previous_vp)s)."
                    )
                    % {**params, "vp": vp, "previous": previous[0], "previous_vp": previous[2]},
                )
            table.append([end, vp])
            previous = (band, end, vp)
        return table if len(self.errors) == errors_before else None


def _multiple_of_5(value: int) -> str:
    return gettext("%(value)s is not a multiple of 5; every score in Burraco is.") % {
        "value": value
    }


def _band_label(part: str, hands: int, band: int) -> str:
    labels = {
        "from": _("VP table for %(hands)s hands, band %(band)s: difference from"),
        "to": _("VP table for %(hands)s hands, band %(band)s: difference up to"),
        "vp": _("VP table for %(hands)s hands, band %(band)s: winner's VP"),
    }
    return labels[part] % {"hands": hands, "band": band}  # type: ignore[return-value]
