"""The page walk's tools: the languages and widths walked, where the screenshots go, the
layout and accessibility checks run on every page, and the walk that runs them."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from demo.loader import DEMO_PASSWORD, DEMO_USERNAME

LANGUAGES = [code for code, _name in settings.LANGUAGES]


VIEWPORTS = {"390": {"width": 390, "height": 844}, "1366": {"width": 1366, "height": 900}}


SHOTS = Path(os.environ.get("PAGE_SCREENSHOTS", settings.BASE_DIR / "var" / "screenshots"))
# The walk's full-page screenshots are for people to look through, not checks, and cost a
# fifth of a walk: taken when PAGE_SCREENSHOTS names their folder (make screenshots).
WALK_SHOTS = "PAGE_SCREENSHOTS" in os.environ


# WCAG 2.1 A and AA, and axe's best practices (the audit's heading order, main heading
# and empty header cell findings are among them).
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}


# Elements that scroll sideways, and table cells whose text does not fit (clipped).
OVERFLOW_JS = """() => {
  const out = [];
  const root = document.scrollingElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    out.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${root.clientWidth}`);
  }
  const classes = (el) => typeof el.className === "string" && el.className
    ? "." + el.className.replaceAll(" ", ".") : "";
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + classes(el);
  for (const el of document.querySelectorAll("body *")) {
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    const sideways = ["auto", "scroll"].includes(style.overflowX);
    if (sideways && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name(el)} scrolls sideways: ${el.scrollWidth} px in ${el.clientWidth}`);
    }
    if ((el.tagName === "TD" || el.tagName === "TH") && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name(el)} clips its text: "${el.textContent.trim().slice(0, 40)}"`);
    }
  }
  return out;
}"""


# The table page, beyond axe: every visible text at 16 px or more, every control at least
# 44x44 px (a radio or checkbox hidden in its big label is measured by that label).
TABLE_PAGE_JS = """() => {
  const out = [];
  const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
  const hidden = (el) => el.closest(".visually-hidden, .name") && getComputedStyle(
    el.closest(".visually-hidden, .name")).position === "absolute";
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !shown(el) || hidden(el)) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 15.99) out.push(`text at ${size} px: "${el.textContent.trim().slice(0, 30)}"`);
  }
  const controls = "a[href], button, select, input:not([type=hidden]), summary, textarea";
  for (const el of document.querySelectorAll(controls)) {
    let box = el;
    if (el.matches("label.tap input")) box = el.closest("label");
    if (el.matches(".redouble input")) box = el.closest("label");
    if (!shown(box)) continue;
    const r = box.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) {
      const label = (el.getAttribute("aria-label") || el.textContent || el.name || "").trim();
      const size = `${Math.round(r.width)}x${Math.round(r.height)} px`;
      out.push(`control ${size}: ${el.tagName} "${label.slice(0, 30)}"`);
    }
  }
  return out;
}"""


# Words broken across two lines ("Valen-/tina" in a narrow column): each word of each
# visible text (split at spaces and hyphens, where a line may end) must sit on one line.
BROKEN_WORDS_JS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !el.getClientRects().length || el.closest(".visually-hidden, script, style")) {
      continue;
    }
    for (const match of node.textContent.matchAll(/[^\\s\\-\u2010-\u2014\\/]+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      if (lines.length > 1) out.push(`"${match[0]}" is broken over ${lines.length} lines`);
    }
  }
  return out;
}"""


def localised(name: str, language: str, *args: object) -> str:
    with translation.override(language):
        return reverse(name, args=args)


# axe-playwright-python's Axe.run with AXE_OPTIONS, less what the walk never reads: the
# same script and rules, but only the violations come back from the page (not the passed
# and inapplicable rules, a third of the walk's time in serialising).
AXE_RUN_JS = "(options) => axe.run(options).then((results) => results.violations)"


def axe_violations(page, axe) -> list[dict]:
    if not page.evaluate("() => 'axe' in window"):  # not on this page since it loaded
        page.evaluate(axe.axe_script)
    return page.evaluate(AXE_RUN_JS, AXE_OPTIONS)


class Walk:
    """One browser page at one width: opens pages and collects what is wrong on them."""

    def __init__(self, page, base: str, language: str, width: str, *, audit: bool = True) -> None:
        self.page = page
        self.audit = audit  # False: no axe on this walk, whatever `check` is asked
        self.base = base
        self.folder = SHOTS / language / width
        self.folder.mkdir(parents=True, exist_ok=True)
        self.problems: list[str] = []
        self.current = ""
        host = urlsplit(base).netloc
        page.on("request", lambda r: self._request(r.url, host))
        page.on("pageerror", lambda e: self._add(f"script error: {e}"))
        page.on("console", self._console)

    def _add(self, text: str) -> None:
        self.problems.append(f"{self.current}: {text}")

    def _request(self, url: str, host: str) -> None:
        parts = urlsplit(url)
        if parts.scheme in {"http", "https", "ws", "wss"} and parts.netloc != host:
            self._add(f"request to another host: {url}")

    def _console(self, message) -> None:
        # Chromium reports CSP refusals and failed loads as console errors.
        if message.type != "error":
            return
        # The not-found page itself answers 404, as it should.
        if self.current.endswith("not-found") and message.location.get("url") == self.page.url:
            return
        self._add(f"console error: {message.text}")

    def check(self, name: str, axe, *, audit: bool = True) -> None:
        """Overflow, axe and a screenshot (WALK_SHOTS) of what the page shows now (`audit`: axe
        and the screenshot; without it only the layout checks, which cost a tenth as much)."""
        self.current = name
        for line in self.page.evaluate(OVERFLOW_JS):
            self._add(line)
        if name.startswith("table-"):
            for line in self.page.evaluate(TABLE_PAGE_JS):
                self._add(line)
            for line in self.page.evaluate(BROKEN_WORDS_JS):
                self._add(line)
        if not audit:
            return
        if self.audit:
            for violation in axe_violations(self.page, axe):
                targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]][:4]
                self._add(f"axe {violation['id']} ({violation['impact']}): {targets}")
        if WALK_SHOTS:
            self.page.screenshot(path=str(self.folder / f"{name}.png"), full_page=True)

    def open(self, name: str, path: str, axe) -> None:
        self.current = name
        response = self.page.goto(self.base + path)
        if (response is None or response.status >= 400) and not name.endswith("not-found"):
            self._add(f"answered {response.status if response else 'nothing'}")
        self.check(name, axe)


def log_in(page, base: str, language: str) -> None:
    page.goto(base + localised("login", language))
    page.fill("input[name=username]", DEMO_USERNAME)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()
