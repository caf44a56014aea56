"""A QR code printed in a PDF, read back from its pixels: helpers of the print tests."""

from __future__ import annotations

import segno


def qr_differences(
    page: tuple[int, int, bytes], url: str, box_mm: tuple[float, float, float], *, border: int
) -> list[str]:
    """Where the QR code drawn on `page` (grey_pages' width, height, pixels) in the square
    `box_mm` (left, top, side, quiet zone included) differs from `url`'s code (error level
    M), sampling the middle of each module; empty when it is that code."""
    width, _height, pixels = page
    px_mm = width / 210.0
    left, top, side = box_mm
    matrix = segno.make(url, error="m").matrix
    module = side / (len(matrix) + 2 * border)
    wrong = []
    for row, line in enumerate(matrix):
        for column, dark in enumerate(line):
            x = int((left + (column + border + 0.5) * module) * px_mm)
            y = int((top + (row + border + 0.5) * module) * px_mm)
            if (pixels[y * width + x] < 128) != bool(dark):
                wrong.append(f"module ({row}, {column})")
    return wrong
