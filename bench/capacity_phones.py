"""bench/bench_capacity.py's real phones (`--phones`): two mid-range phones emulated in
Chromium at one more Barbu table of the running evening, which the load generator leaves
alone. Every `period` seconds of a step the first phone taps a deal into the table page
and saves it; timed from the tap on save: until that phone shows the deal's row with the
new totals, and until the other phone, which only polls as the page does, shows it too.

The phones' network is that of bench/phone_site.py (1.6 Mbit/s down, 750 kbit/s up,
150 ms round trip, 390x844); their CPU is slowed only with `--phones-cpu-slowdown`:
Chromium's CPU throttling keeps about 0.9 of a core busy per throttled page (measured on
this machine, an idle page, 2026-11-29), which on a 2-core machine shared with the stack
would measure Chromium rather than the server. What a slow phone's own CPU adds is
bench_table_page.py's figure, measured against an idle server. Their Chromium runs on the
same machine as the stack and the load generator: in a step's figures it is part of
"other work".
"""

from __future__ import annotations

import threading
import time

from phone_site import ARGS, CHROMIUM, PHONE, phone_page

TIMEOUT_MS = 15_000  # a save not shown within 15 s counts as not shown


class PhonePair:
    """The two phones of one Barbu table (`plan`: its key, player names and deals)."""

    def __init__(self, plan: dict, port: int, period: float, cpu_slowdown: float = 1) -> None:
        self.plan, self.port, self.period, self.slowdown = plan, port, period, cpu_slowdown
        self.saved = 0  # deals saved so far, over every step

    def play(self, stop: threading.Event, saves: list[dict], record) -> None:
        """Save deals until `stop`; each save's timings appended to `saves`, each deal
        shown on the saving phone to `record` as an accepted write."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        from playwright.sync_api import sync_playwright

        from tests.browser.table_entry import enter_deal

        url = f"http://127.0.0.1:{self.port}/t/{self.plan['key']}/"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                saver, other = (self._phone(browser, url, self.slowdown) for _ in range(2))
                while not stop.is_set() and self.saved < len(self.plan["deals"]):
                    number = self.saved + 1
                    enter_deal(saver, self.plan["deals"][number - 1], self.plan["names"])
                    row = f'#score-table tr[data-deal="{number}"]'
                    tapped = time.perf_counter()
                    saver.locator("#save").click()
                    times: dict = {"number": number, "own": None, "other": None}
                    try:
                        saver.locator(row).wait_for(timeout=TIMEOUT_MS)
                        times["own"] = time.perf_counter() - tapped
                        record.accept("deal", self.plan["id"], number)
                        self.saved = number
                        other.locator(row).wait_for(timeout=TIMEOUT_MS)
                        times["other"] = time.perf_counter() - tapped
                    except PlaywrightTimeout:
                        saves.append(times)
                        break  # the phones no longer agree with the table: stop this step
                    saves.append(times)
                    stop.wait(self.period)
            finally:
                browser.close()

    @staticmethod
    def _phone(browser, url: str, slowdown: float):
        context = browser.new_context(viewport=PHONE, is_mobile=True, locale="en")
        page, _cdp = phone_page(context, slowdown)
        page.goto(url)
        return page


def summary(saves: list[dict]) -> dict:
    """The saves of one step: how many, and the median and slowest own and other times
    (None where a save was never shown)."""

    def spread(key: str) -> dict:
        shown = sorted(s[key] for s in saves if s[key] is not None)
        if not shown:
            return {"shown": 0, "p50": None, "max": None}
        return {"shown": len(shown), "p50": shown[len(shown) // 2], "max": shown[-1]}

    return {"saves": len(saves), "own": spread("own"), "other": spread("other")}


def render(steps: list[dict], slowdown: float = 1) -> list[str]:
    """The phones' table for the report (empty without --phones)."""
    rows = [s for s in steps if "phones" in s]
    if not rows:
        return []

    def cell(part: dict) -> str:
        if part["p50"] is None:
            return "never shown"
        return f"{part['p50']:.2f} / {part['max']:.2f}"

    lines = [
        "",
        "Two phones emulated in Chromium ("
        + (f"{slowdown:g}x CPU slowdown, " if slowdown > 1 else "CPU not slowed, ")
        + "1.6 Mbit/s, 150 ms round trip) at "
        "one more Barbu table, saving a deal through the table page's form; seconds from the "
        "tap on save (median / slowest), targets under 1 s on that phone and under 2 s on "
        "the other:",
        "",
        "| tables | saves | shown on the saving phone | new totals on that phone | "
        "shown on the other phone | on the other phone |",
        "|---|---|---|---|---|---|",
    ]
    for s in rows:
        p = s["phones"]
        lines.append(
            f"| {s['tables']} | {p['saves']} | {p['own']['shown']} | {cell(p['own'])} | "
            f"{p['other']['shown']} | {cell(p['other'])} |"
        )
    return lines
