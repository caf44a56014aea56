"""Pagination of every API list: ?page=N&page_size=M (1..200), with the total count.

Unlike DRF's default, a page_size that is not a whole number in range is refused (400)
instead of silently ignored, and so is a page that is not a whole number from 1 on
(DRF: 404); the schema says the ranges.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator as DjangoPaginator
from django.db import connection
from django.db.models import Count, Func, IntegerField, QuerySet, Subquery, Value, Window
from django.db.models.query import ModelIterable, ValuesListIterable
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

# The column of the page's rows holding the count of the whole list (COUNT(*) OVER ()).
PAGE_TOTAL = "_page_total"
# Set on the connection while its statements run prepared (games/api/lean.py).
PREPARED = "tavolo_prepared_reads"
# A page number no list reaches: its OFFSET would not even fit SQLite's 64-bit integers
# (a server error), so it is refused as a page past the end, after the COUNT.
BEYOND = 2**31


def _counts_in_window(object_list: Any) -> bool:
    """Whether the page's own statement can count the list too: an ordered queryset of
    model instances or value tuples, without DISTINCT, GROUP BY or a set operation (a
    window counts the rows before DISTINCT would merge them)."""
    if not isinstance(object_list, QuerySet):
        return False
    query = object_list.query
    return (
        object_list._iterable_class in (ModelIterable, ValuesListIterable)
        and object_list.ordered
        and not query.distinct
        and not query.combinator
        and query.group_by is None
        and not query.is_sliced
    )


class CountedRows:
    """A list read by plain SQL, whose pages count the whole list in their own statement
    (games/api/deal_pages.py): FirstPageCountsItself reads it as it reads a queryset."""

    def page(self, offset: int, limit: int) -> tuple[list, int | None]:
        """The rows from `offset` on, at most `limit`, and the count of the whole list
        (None when there is no row to carry it)."""
        raise NotImplementedError

    def rows(self, offset: int, limit: int) -> list:
        """The rows from `offset` on, at most `limit` (the count known already)."""
        raise NotImplementedError

    def count(self) -> int:
        raise NotImplementedError

    def __getitem__(self, window: slice) -> list:
        start = window.start or 0
        return self.rows(start, window.stop - start) if window.stop > start else []


class FirstPageCountsItself(DjangoPaginator):
    """Django's paginator, with the COUNT in the page's own statement.

    A queryset (_counts_in_window) is read with `COUNT(*) OVER ()`: every row of the page
    carries the count of the whole list, so a page costs one statement instead of a
    COUNT and a SELECT (each built by the ORM: about a fifth of a long list's request).
    A CountedRows list (plain SQL) counts itself in its page's statement the same way.
    An empty page learns nothing: page 1 is then an empty list (count 0), a later page
    asks the COUNT and is refused as Django refuses it.
    Other lists: page 1 is read first with one row more; when it holds the whole list,
    its length is the count and no COUNT query is made; otherwise the COUNT follows.
    Same pages, same counts as Django's paginator."""

    def page(self, number: Any) -> Any:
        try:
            wanted = int(number)
        except (TypeError, ValueError):
            wanted = 0
        if wanted < 1 or "count" in self.__dict__ or self.orphans or wanted > BEYOND:
            return super().page(number)  # far past the end: the COUNT, then EmptyPage
        if isinstance(self.object_list, CountedRows) or _counts_in_window(self.object_list):
            return self._page_with_count(wanted)
        if wanted != 1:
            return super().page(number)
        rows = list(self.object_list[: self.per_page + 1])
        if len(rows) <= self.per_page:
            self.__dict__["count"] = len(rows)  # the cached_property's value
        self.validate_number(1)
        return self._get_page(rows[: self.per_page], 1, self)

    def _page_with_count(self, number: int) -> Any:
        bottom = (number - 1) * self.per_page
        if isinstance(self.object_list, CountedRows):
            rows, count = self.object_list.page(bottom, self.per_page)
        else:
            counted = self.object_list.annotate(**{PAGE_TOTAL: _total(self.object_list)})
            rows, count = list(counted[bottom : bottom + self.per_page]), None
        if not rows:
            if number != 1:
                return super().page(number)  # the COUNT, then Django's EmptyPage
            self.__dict__["count"] = 0
        elif count is not None:
            self.__dict__["count"] = count
        elif isinstance(rows[0], tuple):
            self.__dict__["count"] = rows[0][-1]
            rows = [row[:-1] for row in rows]
        else:
            self.__dict__["count"] = getattr(rows[0], PAGE_TOTAL)
            for row in rows:
                delattr(row, PAGE_TOTAL)
        self.validate_number(number)
        return self._get_page(rows, number, self)


def _total(object_list: QuerySet) -> Any:
    """The count of the whole list, for each row of the page: `COUNT(*) OVER ()`, or,
    when the statement runs prepared (planned once), a scalar subquery counting the same
    rows. A window keeps every row of the list, with all its columns, to count them: a
    page of 50 deals out of 1,200 took 1.7 ms in PostgreSQL that way, 0.6 ms with the
    subquery; unprepared, the subquery's second plan cost as much as it saved."""
    if not getattr(connection, PREPARED, False):
        return Window(Count("*"))
    count = Func(Value(1), function="COUNT", output_field=IntegerField())
    return Subquery(object_list.order_by().values_list(count))


class Pagination(PageNumberPagination):
    django_paginator_class = FirstPageCountsItself
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        # DRF answers page=0 or page=x with a 404 "Invalid page": a bad request instead.
        raw = request.query_params.get(self.page_query_param)
        if (
            raw is not None
            and raw not in self.last_page_strings
            and not (raw.isascii() and raw.isdigit() and int(raw) >= 1)
        ):
            raise ValidationError(
                {self.page_query_param: [_("A whole number from 1 on, or “last”.")]}
            )
        return super().paginate_queryset(queryset, request, view)

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= self.max_page_size):
            raise ValidationError(
                {
                    self.page_size_query_param: [
                        _("A whole number from 1 to %(max)d.") % {"max": self.max_page_size}
                    ]
                }
            )
        return int(raw)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
        return parameters
