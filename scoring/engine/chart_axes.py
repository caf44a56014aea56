"""The maths of a chart's axes, free of Django: "nice" value ticks and spaced date labels."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

# A tick step is one of these times a power of ten: 1, 2, 5, 10, 20, 50...
_MANTISSAS = (Decimal(1), Decimal(2), Decimal(5))


@dataclass(frozen=True)
class Ticks:
    """Evenly spaced round values from `values[0]` <= low up to `values[-1]` >= high."""

    values: tuple[Decimal, ...]
    step: Decimal
    decimals: int  # the decimal places every tick needs (0 for whole numbers)

    @property
    def low(self) -> Decimal:
        return self.values[0]

    @property
    def high(self) -> Decimal:
        return self.values[-1]


def nice_ticks(low: float, high: float, *, max_ticks: int = 6) -> Ticks:
    """Round ticks (1, 2 or 5 times a power of ten apart) covering [low, high], at most
    `max_ticks` of them (3 or more) and at least two; a flat range gets a step around it."""
    if max_ticks < 3:
        raise ValueError("max_ticks must be 3 or more")
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError("the range must be finite")
    lo, hi = Decimal(repr(float(min(low, high)))), Decimal(repr(float(max(low, high))))
    if hi == lo:  # one value: a unit of its size either side of it
        unit = Decimal(1).scaleb(math.floor(math.log10(abs(lo)))) if lo else Decimal(1)
        lo, hi = lo - unit, hi + unit
    span = hi - lo
    # The smallest step that can do it, then up the 1-2-5 ladder until the ticks fit.
    # (In decimals: a float's log10 fails on a span too small for a float, ~1e-320.)
    exponent = (span / (max_ticks - 1)).adjusted() - 1
    while True:
        for mantissa in _MANTISSAS:
            step = mantissa.scaleb(exponent)
            first = (lo / step).to_integral_value(rounding="ROUND_FLOOR")
            last = (hi / step).to_integral_value(rounding="ROUND_CEILING")
            if last == first:
                last = first + 1
            if last - first + 1 <= max_ticks:
                decimals = max(0, -step.normalize().as_tuple().exponent)
                values = tuple(
                    (k * step).quantize(Decimal(1).scaleb(-decimals))
                    for k in range(int(first), int(last) + 1)
                )
                return Ticks(values=values, step=step, decimals=decimals)
        exponent += 1


def spaced_labels(positions: list[float], *, min_gap: float) -> list[int]:
    """Which of the points (positions from 0 to 1 along the axis, in order) get a label so
    that no two labels are closer than `min_gap`: always the first, the last when it is
    far enough from it, and in between each next one far enough from both neighbours."""
    if not positions:
        return []
    chosen = [0]
    last = len(positions) - 1
    for i in range(1, last):
        if (
            positions[i] - positions[chosen[-1]] >= min_gap
            and positions[last] - positions[i] >= min_gap
        ):
            chosen.append(i)
    if last > 0 and positions[last] - positions[chosen[-1]] >= min_gap:
        chosen.append(last)
    return chosen
