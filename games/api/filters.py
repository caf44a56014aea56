"""Query filters of the list endpoints, and the refusal of query parameters nobody knows."""

from __future__ import annotations

import django_filters
from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ValidationError
from rest_framework.filters import BaseFilterBackend

from clubs.models import Club, League, Player
from games.models import Deal, Event, Game, Round, Table

MAX_ID = 2**63 - 1


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class IdFilter(django_filters.NumberFilter):
    """A row id: a whole number (DRF's NumberFilter would take 1.5 and 1e9)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class ClubFilter(django_filters.FilterSet):
    slug = django_filters.CharFilter(help_text=gettext_lazy("The club's short name."))

    class Meta:
        model = Club
        fields = ["slug"]


class PlayerFilter(django_filters.FilterSet):
    club = IdFilter(field_name="memberships__club_id", help_text=gettext_lazy("Club id."))
    name = django_filters.CharFilter(
        lookup_expr="icontains", help_text=gettext_lazy("Part of the name.")
    )

    class Meta:
        model = Player
        fields = ["club", "name"]


class LeagueFilter(django_filters.FilterSet):
    club = IdFilter(field_name="club_id", help_text=gettext_lazy("Club id."))

    class Meta:
        model = League
        fields = ["club"]


class EventFilter(django_filters.FilterSet):
    club = IdFilter(field_name="club_id", help_text=gettext_lazy("Club id."))
    league = IdFilter(field_name="league_id", help_text=gettext_lazy("League id."))
    status = django_filters.ChoiceFilter(choices=Event.Status.choices)
    kind = django_filters.ChoiceFilter(choices=Event.Kind.choices)

    class Meta:
        model = Event
        fields = ["club", "league", "status", "kind"]


class RoundFilter(django_filters.FilterSet):
    event = IdFilter(field_name="event_id", help_text=gettext_lazy("Event id."))
    status = django_filters.ChoiceFilter(choices=Round.Status.choices)

    class Meta:
        model = Round
        fields = ["event", "status"]


class TableFilter(django_filters.FilterSet):
    event = IdFilter(field_name="round__event_id", help_text=gettext_lazy("Event id."))
    round = IdFilter(field_name="round_id", help_text=gettext_lazy("Round id."))

    class Meta:
        model = Table
        fields = ["event", "round"]


class GameFilter(django_filters.FilterSet):
    event = IdFilter(field_name="table__round__event_id", help_text=gettext_lazy("Event id."))
    round = IdFilter(field_name="table__round_id", help_text=gettext_lazy("Round id."))
    status = django_filters.ChoiceFilter(choices=Game.Status.choices)

    class Meta:
        model = Game
        fields = ["event", "round", "status"]


class DealFilter(django_filters.FilterSet):
    game = IdFilter(field_name="game_id", help_text=gettext_lazy("Game id."))
    event = IdFilter(field_name="game__table__round__event_id", help_text=gettext_lazy("Event id."))
    contract = django_filters.CharFilter(help_text=gettext_lazy("Contract key, e.g. barbu."))
    status = django_filters.ChoiceFilter(choices=Deal.Status.choices)

    class Meta:
        model = Deal
        fields = ["game", "event", "contract", "status"]


class KnownQueryParameters(BaseFilterBackend):
    """400 for a query parameter the endpoint does not know, or a NUL in any value.

    Without it a misspelt filter (?stauts=complete) would silently list everything.
    """

    def filter_queryset(self, request, queryset, view):
        known = {"page", "page_size"}
        filterset_class = getattr(view, "filterset_class", None)
        if filterset_class is not None:
            known |= set(filterset_class.base_filters)
        filters = filterset_class.base_filters if filterset_class is not None else {}
        errors = {}
        for name, values in request.query_params.lists():
            if name not in known:
                errors[name] = [_("Unknown query parameter.")]
            elif len(values) > 1:
                errors[name] = [_("Give this parameter once.")]
            elif "\x00" in values[0]:
                errors[name] = [_("Text must not contain NUL characters (\\u0000).")]
            elif values[0] == "" and not isinstance(filters.get(name), django_filters.CharFilter):
                # django-filter reads an empty value as "no filter": say it is missing.
                errors[name] = [_("This parameter needs a value.")]
        if errors:
            raise ValidationError(errors)
        return queryset


class FilterSetWhenAsked(DjangoFilterBackend):
    """django-filter's backend, which builds the FilterSet and its form only when the
    request has a query parameter besides the page's: with none, every filter is empty and
    the FilterSet returns the queryset unchanged, so the answer is the same without the
    cost (a fifth of a detail read's time in the profile)."""

    def filter_queryset(self, request, queryset, view):
        if not set(request.query_params) - {"page", "page_size"}:
            return queryset
        return super().filter_queryset(request, queryset, view)
