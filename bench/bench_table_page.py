"""Benchmark: the table pages (Barbu's entry, Burraco's score card) and the public ranking
on a mid-range phone.

Run by hand from the repository root: `.venv/bin/python bench/bench_table_page.py`. It
makes a SQLite database in a temporary folder, loads the demo club into it, collects the
static files as production serves them (STATIC_MANIFEST=1: hashed names, compressed by
whitenoise) and starts gunicorn with DEBUG off (one process with four threads: there is
no Redis, and each process would keep its own cache). Chromium (Playwright, /usr/bin/chromium)
then opens the running evening's busiest Barbu table page, and the score card of the
running Burraco tournament's busiest table, and that Barbu evening's public page (its
ranking, which players and the hall follow), at 390x844 with Chromium's own
emulation of a mid-range phone over a poor network, through the DevTools protocol:
Emulation.setCPUThrottlingRate (4x slower CPU) and Network.emulateNetworkConditions
(1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip).

- first visit: a new browser context (empty HTTP cache, no service worker);
- repeat visit: the same context opening the page again once the service worker
  (static/table_worker.js) has kept it; the page's scripts and styles come from its cache
  (the public page has no service worker: the browser's HTTP cache).

For each: the bytes transferred until the page is usable (its load event: the deferred
scripts ran, the form's checks are on) as Chromium counts them on the wire
(Network.loadingFinished's encodedDataLength, headers included), the number of requests,
and the times of first paint, first contentful paint, DOMContentLoaded and load, from the
page's Performance API. Median of `--runs` runs. Baseline, in the same run and
conditions: the site's log-in page (the same base template, no table). The budget:
at most 300 KB before usable and first paint within 2 s (issue 33).
Then `--saves` deals saved at a table with two phones (bench/phone_saves.py): the time
from the tap on save to the new totals on that phone (target under 1 s) and on the other
phone of the table (under 2 s).
Results go to the "## Table page on a phone" section of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench")]

from api_server import free_port, stop, wait_for  # noqa: E402
from phone_saves import TABLE_PY, measure_saves, parse_table  # noqa: E402
from phone_saves import render as render_saves  # noqa: E402
from phone_site import (  # noqa: E402
    ARGS,
    CHROMIUM,
    CPU_SLOWDOWN,
    PHONE,
    manage,
    phone_page,
    production_site,
    start_site,
)
from report import machine, write_section  # noqa: E402

SECTION = "## Table page on a phone"
BUDGET_BYTES = 300 * 1024
BUDGET_PAINT_MS = 2000

TIMES_JS = """async () => {
  // The paint entries come with the first frame, which may follow the load event.
  for (let i = 0; i < 100 && !performance.getEntriesByType("paint").length; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const nav = performance.getEntriesByType("navigation")[0];
  const paint = Object.fromEntries(
    performance.getEntriesByType("paint").map(e => [e.name, e.startTime]));
  return {
    fp: paint["first-paint"] || null,
    fcp: paint["first-contentful-paint"] || null,
    dcl: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    sw: !!navigator.serviceWorker.controller,
  };
}"""


# The busiest table of a running Barbu evening, and of a running Burraco turn: its path
# and how many deals or hands its sheet shows; and that evening's public page (its ranking)
# and how many players it ranks.
TABLES_PY = """
from games.models import Event, Game, Round
running = Game.objects.filter(
    table__round__event__status=Event.Status.RUNNING, table__round__status=Round.Status.OPEN
).select_related("table")
barbu = running.filter(kind=Game.Kind.BARBU).order_by("-deals_count").first()
burraco = running.filter(kind=Game.Kind.BURRACO).order_by("-deals_count").first()
event = barbu.table.round.event
ranked = Game.objects.filter(table__round__event=event).values("table__seats__player").distinct()
print(f"/t/{barbu.table.key}/", barbu.deals_count, f"/t/{burraco.table.key}/card/",
      burraco.deals_count, f"/events/{event.pk}/", ranked.count())
"""


def prepare(folder: Path) -> tuple[dict[str, str], dict[str, tuple[str, str]], dict | None]:
    """The database with the demo and the static files, both in `folder`: the env, each
    game's table page (path, and how many deals or hands it shows), and the table the
    saves are made at (phone_saves.TABLE_PY)."""
    env = production_site(folder)
    manage(env, "demo_club", "--force")
    found = manage(env, "shell", "-v", "0", "-c", TABLES_PY).split()
    saving = parse_table(manage(env, "shell", "-v", "0", "-c", TABLE_PY))
    return (
        env,
        {
            "table page": (found[0], found[1]),
            "score card": (found[2], found[3]),
            "public ranking": (found[4], found[5]),
        },
        saving,
    )


class AccessLog:
    """gunicorn's access log: the body bytes of every answer (the service worker's own
    fetches included, which the page's DevTools session does not see)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def lines(self) -> list[str]:
        return self.path.read_text().splitlines() if self.path.exists() else []

    @staticmethod
    def bytes_of(lines: list[str]) -> int:
        return sum(
            int(line.rsplit(" ", 1)[1]) for line in lines if line.rsplit(" ", 1)[1].isdigit()
        )


def open_page(context, url: str, log: AccessLog) -> dict:
    """One visit with the phone's emulation: bytes until usable, requests, times; and the
    bytes the server sent during the whole visit."""
    before = len(log.lines())
    page, cdp = phone_page(context)
    sizes: dict[str, float] = {}
    names: dict[str, str] = {}
    cdp.on(
        "Network.requestWillBeSent",
        lambda event: names.__setitem__(event["requestId"], event["request"]["url"]),
    )
    cdp.on(
        "Network.loadingFinished",
        lambda event: sizes.__setitem__(event["requestId"], event["encodedDataLength"]),
    )
    page.goto(url, wait_until="load")
    usable = dict(sizes)
    times = page.evaluate(TIMES_JS)
    # The table page kept by the service worker (its offline copy) before the next visit.
    ready = page.locator("[data-offline-ready]")
    if ready.count() == 0 and page.locator("#entry, #score-card").count():
        ready.wait_for(state="attached", timeout=60_000)
    page.wait_for_timeout(1500)
    page.close()
    served = log.lines()[before:]
    return {
        "bytes": sum(usable.values()),
        "requests": len(usable),
        "served": AccessLog.bytes_of(served),
        "served_requests": len(served),
        "urls": sorted(((usable[key], names.get(key, "?")) for key in usable), reverse=True),
        **times,
    }


def measure(browser, base: str, pages: dict[str, str], runs: int, log: AccessLog) -> dict:
    """Each page's first and repeat visits, `runs` times, and the log-in page's (baseline)."""
    out: dict[str, list[dict]] = {}
    for _ in range(runs):
        for name, path in {**pages, "log-in page": "/accounts/login/"}.items():
            context = browser.new_context(viewport=PHONE, service_workers="allow")
            out.setdefault(f"{name}|first", []).append(open_page(context, base + path, log))
            out.setdefault(f"{name}|repeat", []).append(open_page(context, base + path, log))
            context.close()
    return out


def median(rows: list[dict], key: str) -> float:
    values = [row[key] for row in rows if row[key] is not None]
    return statistics.median(values) if values else float("nan")


def load() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def report(
    results: dict[str, list[dict]],
    args,
    pages: dict,
    started: str,
    loads: tuple,
    saves: list[dict] | None = None,
) -> str:
    busy = float(loads[0].split(",")[0]) > 1.0
    lines = [
        SECTION,
        "",
        f"`bench/bench_table_page.py --runs {args.runs} --saves {args.saves}`, {started}; "
        f"machine: {machine()}; "
        f"load average (1, 5, 15 min) {loads[0]} at the start, {loads[1]} at the end"
        + (
            " (the machine was busy with other work: the times are upper bounds; the bytes "
            "do not move with the load)."
            if busy
            else " (otherwise idle)."
        ),
        "",
        "Production settings (DEBUG off, gunicorn: one process, 4 threads; hashed static "
        "files compressed by "
        "whitenoise, SQLite). The demo's busiest running Barbu table "
        f"({pages['table page'][1]} deals in its score sheet) and the score card of its "
        f"running Burraco tournament's busiest table ({pages['score card'][1]} hands), the "
        f"public page of that Barbu evening (its ranking of {pages['public ranking'][1]} "
        "players, the tables' progress, polled every second), "
        f"Chromium at 390x844 with Emulation.setCPUThrottlingRate {CPU_SLOWDOWN}x and "
        "Network.emulateNetworkConditions 1.6 Mbit/s down, 750 kbit/s up, 150 ms round "
        "trip. Bytes on the wire (headers included) until the load event (the page usable: "
        "its scripts ran); times from the page's Performance API. Median of the runs. A "
        "visit under the service worker shows 0 KB on the page's side (its answers come "
        "from the worker): what crossed the network then is the server's count, the last "
        "column (body bytes, every request of the visit, the worker's included). The HTML "
        "is gzipped by Django's GZipMiddleware (config/settings.py), the static files by "
        "whitenoise. Baseline, in the same run: the log-in page (the same base template, "
        "no table).",
        "",
        "| page, visit | KB until usable | requests | first paint | first contentful paint "
        "| DOMContentLoaded | load | KB the server sent in the visit (requests) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for key, rows in results.items():
        name, visit = key.split("|")
        worker = visit == "repeat" and name in ("table page", "score card")
        shown = f"{name}, {visit} visit" + (" (service worker)" if worker else "")
        if name == "log-in page":
            shown = "baseline: " + shown.replace(" (service worker)", "")
        lines.append(
            f"| {shown} | {median(rows, 'bytes') / 1024:.1f} | {median(rows, 'requests'):.0f} "
            f"| {median(rows, 'fp'):.0f} ms | {median(rows, 'fcp'):.0f} ms "
            f"| {median(rows, 'dcl'):.0f} ms | {median(rows, 'load'):.0f} ms "
            f"| {median(rows, 'served') / 1024:.1f} ({median(rows, 'served_requests'):.0f}) |"
        )
    verdicts = []
    for name in pages:
        first = results[f"{name}|first"]
        lines += [
            "",
            f"What the {name}'s first visit transfers before it is usable (one run; bytes "
            "on the wire):",
            "",
            "| KB | request |",
            "|---:|---|",
        ]
        lines += [
            f"| {size / 1024:.1f} | `{url.split('/', 3)[-1][:60]}` |"
            for size, url in first[0]["urls"]
        ]
        worst_bytes = max(row["bytes"] for row in first)
        worst_paint = max(row["fp"] or 0 for row in first)
        met = worst_bytes <= BUDGET_BYTES and worst_paint <= BUDGET_PAINT_MS
        verdicts.append(
            f"the {name} {'met' if met else 'NOT met'} (worst run: "
            f"{worst_bytes / 1024:.1f} KB, first paint {worst_paint:.0f} ms)"
        )
    lines += [
        "",
        "Budget (issue 33): at most 300 KB before usable and first paint within 2 s on the "
        f"first visit: {'; '.join(verdicts)}. "
        "The service worker keeps the page after its load event: its own fetches (the page "
        "again, and what the HTTP cache does not already hold) are in the server's count, "
        "not in the bytes until usable. On a repeat visit the page comes from the network "
        "first (the service worker's copy when the network fails or is silent for 4 s), "
        "its scripts and styles from the worker's cache (refreshed in the background).",
    ]
    if saves is not None:
        lines += render_saves(saves, CPU_SLOWDOWN)
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--saves", type=int, default=10, help="deals saved at a table (0: none)")
    parser.add_argument("--no-write", action="store_true", help="print, do not touch RESULTS.md")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_start = load()
    with tempfile.TemporaryDirectory(prefix="tavolo-page-bench-") as folder:
        env, pages, saving = prepare(Path(folder))
        port = free_port()
        log = AccessLog(Path(folder) / "access.log")
        server = start_site(
            env,
            port,
            *("--access-logfile", str(log.path), "--access-logformat", "%(r)s %(s)s %(B)s"),
        )
        try:
            wait_for(port, "/accounts/login/")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                paths = {name: path for name, (path, _count) in pages.items()}
                base = f"http://127.0.0.1:{port}"
                results = measure(browser, base, paths, args.runs, log)
                saves = None
                if args.saves:
                    saves = (
                        measure_saves(browser, base, saving, args.saves, CPU_SLOWDOWN)
                        if saving
                        else []
                    )
                browser.close()
        finally:
            stop(server)
    text = report(results, args, pages, started, (load_start, load()), saves)
    print(text)
    if not args.no_write:
        write_section(SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
