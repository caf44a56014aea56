"""Table cards: the QR code (inline SVG) that opens a table's entry page on a phone."""

from __future__ import annotations

import segno
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.safestring import SafeString, mark_safe


def table_entry_path(key: str) -> str:
    """The path of a table's entry page; by its route name once the table pages exist."""
    try:
        return reverse("table-entry", kwargs={"key": key})
    except NoReverseMatch:
        return f"/t/{key}/"


def table_entry_url(request: HttpRequest, key: str) -> str:
    return request.build_absolute_uri(table_entry_path(key))


def qr_svg(url: str, *, scale: int = 4) -> SafeString:
    """An inline SVG QR code of `url`."""
    qr = segno.make(url, error="m")
    # A viewBox instead of a fixed size, so the code fills the box the page's CSS gives it
    # (12 rem on screen, 46 mm printed) rather than sitting small in its corner.
    svg = qr.svg_inline(scale=scale, border=2, svgclass="qr", lineclass=None, omitsize=True)
    # Safe: segno writes the markup itself; the URL only becomes dark and light modules.
    return mark_safe(svg)
