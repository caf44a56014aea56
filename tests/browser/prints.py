"""Printed pages in Chromium: the widths printed at and the boxes of each table card."""

from __future__ import annotations

# A4 at CSS's 96 px an inch, and a laptop.
WIDTHS = {"a4": {"width": 794, "height": 1123}, "1366": {"width": 1366, "height": 900}}


# Every element of a card inside the card's border; no card with more than it shows.
CARD_BOXES_JS = """() => {
  const out = [];
  for (const card of document.querySelectorAll(".card")) {
    const box = card.getBoundingClientRect();
    const border = parseFloat(getComputedStyle(card).borderTopWidth);
    if (card.scrollHeight > card.clientHeight + 1 || card.scrollWidth > card.clientWidth + 1) {
      out.push(`${card.id} holds more than it shows: ${card.scrollWidth}x${card.scrollHeight}`
        + ` in ${card.clientWidth}x${card.clientHeight}`);
    }
    for (const el of card.querySelectorAll("*")) {
      for (const r of el.getClientRects()) {
        if (!r.width || !r.height) continue;
        if (r.left < box.left + border - 1 || r.right > box.right - border + 1
            || r.top < box.top + border - 1 || r.bottom > box.bottom - border + 1) {
          const text = (el.textContent || el.tagName).trim().slice(0, 40);
          out.push(`${card.id}: "${text}" leaves the card`);
        }
      }
    }
  }
  return out;
}"""
