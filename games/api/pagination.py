"""Pagination of every API list: ?page=N&page_size=M (1..200), with the total count.

Unlike DRF's default, a page_size that is not a whole number in range is refused (400)
instead of silently ignored, and so is a page that is not a whole number from 1 on
(DRF: 404); the schema says the ranges.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


class Pagination(PageNumberPagination):
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
