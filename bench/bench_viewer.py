"""Benchmark: the public ranking of a big evening or tournament on a mid-range phone,
while it changes.

Run by hand from the repository root: `.venv/bin/python bench/bench_viewer.py`. It makes a
SQLite database in a temporary folder with, at two sizes (`--tables`, and `--baseline`
for the baseline of the same run), a running Barbu evening (bench/capacity_play.py's
seed; each table with `--deals` deals stored) and a Burraco pair tournament of two pairs
a table (`--turns` turns played and confirmed, the next one seated). It collects the
static files as production serves them and starts gunicorn with DEBUG off (one process
with threads: there is no Redis, and each process would keep its own cache). Chromium
then opens each public page (its live part: the ranking and the tables) at 390x844 with
the phone's emulation of bench/phone_site.py (4x slower CPU, 1.6 Mbit/s down, 150 ms round
trip), and `--polls` times asks for the whole live part again, as a poll does when
something changed. At a busy evening something changes about every second (a deal stored
somewhere), so nearly every poll brings the whole part. The page shows the first rows of
a long ranking (scoring/views.py RANKING_ROWS), and a big tournament its earlier turns'
prints only, with the whole one tap away: the big size is measured both ways, as the
page opens and with the whole ranking (`?all=1`).

For each poll: from asking to the answer's arrival, and to the new part shown (swapped in
and laid out); the main thread's long tasks over the polls; the live part's size in HTML
characters and elements, and its bytes on the wire (gzipped). Results go to the
"## A viewer at a big evening" section of bench/RESULTS.md. Target (issue 35): a phone
shows a saved deal within 2 s, which a poll every second leaves about 1 s for a poll.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench")]

from api_server import free_port, stop, wait_for  # noqa: E402
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

SECTION = "## A viewer at a big evening"
POLL_TARGET_MS = 1000

SEED_PY = """
import json, sys
sys.path.insert(0, "bench")
import capacity_play
from games.barbu.submission import deal_submit
from games.burraco import scorecards, tournaments
from games.models import Event
from clubs.models import Club
from django.contrib.auth import get_user_model
User = get_user_model()
events = []
for n, tables in enumerate(({sizes})):
    plan = capacity_play.seed(tables, tables, 7 + n)
    for t in plan["barbu"]["tables"]:
        for k, deal in enumerate(t["deals"][:{deals}]):
            deal_submit(game_id=t["id"], deal={{**deal, "number": k + 1}})
    tournament = Event.objects.get(pk=plan["burraco"]["event"])
    for number in range(1, {turns} + 1):  # each turn played and confirmed, the next seated
        turn = tournament.rounds.get(number=number)
        for table in turn.tables.select_related("game").order_by("number"):
            for hand in range(turn.hands_per_turn):
                ns = 100 + 5 * ((table.number * 7 + hand * 13 + number) % 80)
                scorecards.hand_submit(
                    game_id=table.game.pk, hand={{"mp": {{"NS": ns, "EW": 300}}}}, line="NS"
                )
            scorecards.card_confirm(game_id=table.game.pk, line="EW", agree=True)
        tournaments.turn_seat(event=tournament, movement="mitchell")
    events.append([plan["barbu"]["event"], tournament.pk])
    # The next seed makes clubs of the same names: these move aside.
    for club in Club.objects.filter(slug__in=[plan["barbu"]["slug"], plan["burraco"]["slug"]]):
        club.slug = f"{{club.slug}}-{{n}}"
        club.name = f"{{club.name}} {{n}}"
        club.save()
    User.objects.filter(username="referee").update(username=f"referee-{{n}}")
print(json.dumps(events))
"""

# One poll that brings the whole live part: the ETag left out, as after a change.
POLL_JS = """() => new Promise((resolve) => {
  const live = document.getElementById("live");
  live.removeAttribute("data-etag");
  const asked = performance.now();
  let arrived = 0;
  document.addEventListener("htmx:beforeSwap", () => { arrived = performance.now(); },
                            {once: true});
  document.addEventListener("htmx:afterSettle", () => {
    document.body.offsetHeight;  // laid out
    requestAnimationFrame(() => setTimeout(() => resolve(
      [arrived - asked, performance.now() - asked]), 0));
  }, {once: true});
  htmx.ajax("GET", live.getAttribute("hx-get"), {target: "#live", swap: "outerHTML"});
})"""

LONG_TASKS_JS = """() => { window.__longTasks = 0; new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks += entry.duration;
}).observe({type: "longtask"}); }"""


def prepare(
    folder: Path, sizes: list[int], deals: int, turns: int
) -> tuple[dict[str, str], list[list[int]]]:
    """The site in `folder` with a Barbu evening and a Burraco tournament of each size: its
    env and, for each size, the evening's and the tournament's ids."""
    env = production_site(folder)
    code = SEED_PY.format(sizes=", ".join(map(str, sizes)) + ",", deals=deals, turns=turns)
    events = json.loads(manage(env, "shell", "-v", "0", "-c", code).strip().splitlines()[-1])
    return env, events


def watch(browser, url: str, polls: int) -> dict:
    """The public page opened on the phone, then `polls` whole polls of its live part."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, locale="en")
    page, cdp = phone_page(context)
    wire: list[int] = []
    ids: dict[str, str] = {}
    cdp.on(
        "Network.requestWillBeSent",
        lambda e: ids.__setitem__(e["requestId"], e["request"]["url"]),
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: (
            wire.append(e["encodedDataLength"]) if "/live/" in ids.get(e["requestId"], "") else None
        ),
    )
    page.goto(url, wait_until="load")
    size = page.evaluate(
        "() => { const l = document.getElementById('live');"
        " return [l.outerHTML.length, l.getElementsByTagName('*').length]; }"
    )
    # Each poll answered by the server in full: the HTTP cache would otherwise revalidate
    # the URL it holds (If-None-Match of its own) and hand the old body over.
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.evaluate(LONG_TASKS_JS)
    times = []
    for _ in range(polls):
        times.append(page.evaluate(POLL_JS))
        page.wait_for_timeout(300)
    long_tasks = page.evaluate("window.__longTasks")
    context.close()
    return {
        "chars": size[0],
        "elements": size[1],
        "wire": statistics.median(wire) if wire else 0,
        "arrived": statistics.median(t[0] for t in times),
        "shown": statistics.median(t[1] for t in times),
        "slowest": max(t[1] for t in times),
        "long_tasks": long_tasks / polls,
    }


GAMES = ("Barbu evening", "Burraco tournament")


def row_name(game: str, tables: int, whole: bool = False) -> str:
    return f"{game}, {tables} tables" + (", the whole ranking" if whole else "")


def report(rows: dict[str, dict], args: argparse.Namespace, started: str, loads: tuple) -> str:
    lines = [
        SECTION,
        "",
        f"`bench/bench_viewer.py --tables {args.tables} --baseline {args.baseline} --deals "
        f"{args.deals} --turns {args.turns} --polls {args.polls}`, {started}; machine: "
        f"{machine()}; load average {loads[0]:.2f} at the start, {loads[1]:.2f} at the end.",
        "",
        "Production settings (DEBUG off, gunicorn: one process, 4 threads; GZip), SQLite. The "
        "public page of a running Barbu evening (each table with "
        f"{args.deals} deals) and of a Burraco pair tournament (two pairs a table, "
        f"{args.turns} turns played and confirmed, the next seated) on a phone emulated in "
        f"Chromium (390x844, CPU slowed {CPU_SLOWDOWN}x, 1.6 Mbit/s, 150 ms round trip), its "
        "live part asked for whole, as a poll after a change; medians of the polls. As the "
        "page opens, and with the whole ranking asked for (`?all=1`). Baseline, in the same "
        "run: a small evening and tournament.",
        "",
        "| page | live part: HTML | elements | on the wire | answer arrived | new part "
        "shown | slowest shown | long tasks a poll |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in rows.items():
        lines.append(
            f"| {name} | {r['chars'] / 1024:.0f} KiB | {r['elements']} | "
            f"{r['wire'] / 1024:.1f} KiB | {r['arrived']:.0f} ms | {r['shown']:.0f} ms | "
            f"{r['slowest']:.0f} ms | {r['long_tasks']:.0f} ms |"
        )
    lines += [
        "",
        "The phone's own work, from the answer's arrival to the new part shown (parsing, "
        "swapping, laying out), and the target: a poll shown within "
        f"{POLL_TARGET_MS} ms (a poll every second, a saved deal on the phone within 2 s), "
        f"for the page as it opens at {args.tables} tables:",
        "",
    ]
    for game in GAMES:
        big = rows[row_name(game, args.tables)]
        small = rows[row_name(game, args.baseline)]
        whole = rows[row_name(game, args.tables, whole=True)]
        met = big["slowest"] < POLL_TARGET_MS
        lines.append(
            f"- {game}: {big['shown'] - big['arrived']:.0f} ms at {args.tables} tables, "
            f"{small['shown'] - small['arrived']:.0f} ms at {args.baseline}, "
            f"{whole['shown'] - whole['arrived']:.0f} ms for the whole ranking; target "
            f"{'met' if met else 'NOT met'} (slowest {big['slowest']:.0f} ms; the whole "
            f"ranking, asked for: {whole['slowest']:.0f} ms)."
        )
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--baseline", type=int, default=15, help="tables of the small evening")
    parser.add_argument("--deals", type=int, default=14, help="stored at each Barbu table")
    parser.add_argument(
        "--turns", type=int, default=3, choices=range(4), help="Burraco turns played (of 4)"
    )
    parser.add_argument("--polls", type=int, default=8)
    parser.add_argument("--no-write", action="store_true", help="print, do not touch RESULTS.md")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_start = os.getloadavg()[0]
    sizes = (args.baseline, args.tables)
    with tempfile.TemporaryDirectory(prefix="tavolo-viewer-bench-") as folder:
        env, events = prepare(Path(folder), list(sizes), args.deals, args.turns)
        port = free_port()
        server = start_site(env, port)
        try:
            wait_for(port, "/accounts/login/")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                rows = {}
                base = f"http://127.0.0.1:{port}"
                for index, game in enumerate(GAMES):
                    pages = {
                        tables: f"{base}/events/{ids[index]}/"
                        for tables, ids in zip(sizes, events, strict=True)
                    }
                    for tables, url in pages.items():
                        rows[row_name(game, tables)] = watch(browser, url, args.polls)
                    rows[row_name(game, args.tables, whole=True)] = watch(
                        browser, pages[args.tables] + "?all=1", args.polls
                    )
                browser.close()
        finally:
            stop(server)
    text = report(rows, args, started, (load_start, os.getloadavg()[0]))
    print(text)
    if not args.no_write:
        write_section(SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
