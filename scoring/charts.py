"""Tiny line charts as inline SVG, drawn on the server (no JavaScript, no CDN)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def line_chart(
    values: Sequence[float],
    *,
    label: str,
    width: int = 600,
    height: int = 160,
    zero_line: bool = True,
) -> SafeString:
    """An SVG polyline of the values, scaled to the box, with its min and max written."""
    if not values:
        return mark_safe("")
    pad = 24
    low, high = min(values), max(values)
    if zero_line:
        low, high = min(low, 0), max(high, 0)
    span = (high - low) or 1
    step = (width - 2 * pad) / max(len(values) - 1, 1)

    def y(v: float) -> float:
        return round(height - pad - (v - low) * (height - 2 * pad) / span, 1)

    points = " ".join(f"{round(pad + i * step, 1)},{y(v)}" for i, v in enumerate(values))
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label)}" preserveAspectRatio="none">',
        f"<title>{escape(label)}</title>",
    ]
    if zero_line and low < 0 < high:
        parts.append(f'<line x1="{pad}" x2="{width - pad}" y1="{y(0)}" y2="{y(0)}" class="zero"/>')
    parts.append(f'<polyline points="{points}" class="line"/>')
    last_x = round(pad + (len(values) - 1) * step, 1)
    parts.append(f'<circle cx="{last_x}" cy="{y(values[-1])}" r="3" class="dot"/>')
    parts.append(f'<text x="2" y="{pad - 8}" class="axis">{_fmt(high)}</text>')
    parts.append(f'<text x="2" y="{height - 6}" class="axis">{_fmt(low)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text in it is escaped or a number


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
