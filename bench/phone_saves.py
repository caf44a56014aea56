"""bench/bench_table_page.py's saves: two phones at a Barbu table of the running evening,
one taps a deal into the table page and saves it; timed from the tap on save until that
phone shows the deal's row with the new totals, and until the other phone, which only
polls as the page does (static/entry.js), shows it too.

One phone at a time has its CPU slowed (4x, as bench_table_page.py's visits): Chromium's
throttling busy-waits about 0.9 of a core per slowed page (bench/capacity_phones.py), so
two slowed pages beside the server on a 2-core machine measure their contention rather
than a phone. The saves take turns: the saving phone slowed (its time counts), then the
other one slowed (its time counts).

Both phones are on the venue's network (1.6 Mbit/s, 150 ms round trip) without their
service worker: a service worker's own fetches escape Chromium's network emulation, and
the page reloaded after a save then comes through it at the machine's speed (measured,
2026-11-29: the page's GET in 30 ms instead of 160). Without it every request crosses
the emulated network, so the times are what a phone waits at most.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time

from phone_site import PHONE, ROOT, phone_page

if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

TIMEOUT_MS = 15_000
OWN_TARGET_S = 1.0
OTHER_TARGET_S = 2.0

# The running Barbu evening's table with no deal yet (the deals the bench taps are a
# whole random game of its ruleset, in order): its path, ruleset and players, as JSON.
TABLE_PY = """
import json
from games.models import Event, Game, Round
game = Game.objects.filter(
    table__round__event__status=Event.Status.RUNNING, table__round__status=Round.Status.OPEN,
    kind=Game.Kind.BARBU, deals_count=0,
).select_related("table").first()
print(json.dumps(game and {"path": f"/t/{game.table.key}/", "ruleset": game.ruleset,
                           "names": list(game.player_names)}))
"""


def measure_saves(browser, base: str, table: dict, saves: int, slowdown: float):
    """`saves` deals saved, the slowed phone taking turns: [{"own": s} or {"other": s}]."""
    from scoring.engine.barbu.randomgame import random_game
    from tests.browser.table_entry import enter_deal

    deals = random_game(random.Random(2026), table["ruleset"], players=table["names"])["deals"]
    phones = []
    for _ in range(2):
        context = browser.new_context(viewport=PHONE, is_mobile=True, service_workers="block")
        page, cdp = phone_page(context, cpu_slowdown=1)  # slowed save by save, below
        page.goto(base + table["path"], wait_until="load")
        phones.append((page, cdp))
    (saver, saver_cdp), (other, other_cdp) = phones
    out: list[dict] = []
    for number in range(1, min(saves, len(deals)) + 1):
        own_slowed = number % 2 == 1
        saver_cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown if own_slowed else 1})
        other_cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1 if own_slowed else slowdown})
        enter_deal(saver, deals[number - 1], table["names"])
        row = f'#score-table tr[data-deal="{number}"]'
        tapped = time.perf_counter()
        saver.locator("#save").click()
        saver.locator(row).wait_for(timeout=TIMEOUT_MS)
        own = time.perf_counter() - tapped
        other.locator(row).wait_for(timeout=TIMEOUT_MS)
        out.append({"own": own} if own_slowed else {"other": time.perf_counter() - tapped})
        saver.wait_for_timeout(1500)  # the other phone's page settled before the next tap
    for page, _cdp in phones:
        page.context.close()
    return out


def render(saves: list[dict], slowdown: float) -> list[str]:
    """The saves' lines of the report."""
    if not saves:
        return ["", "Saves: not measured (no running Barbu table without a deal in the demo)."]

    def cell(key: str, target: float) -> tuple[str, bool]:
        times = sorted(s[key] for s in saves if key in s)
        if not times:
            return "not measured", True
        median = statistics.median(times)
        return f"{median:.2f} s median, {times[-1]:.2f} s slowest ({len(times)})", (
            times[-1] < target
        )

    own, own_met = cell("own", OWN_TARGET_S)
    other, other_met = cell("other", OTHER_TARGET_S)
    return [
        "",
        f"A deal saved at a Barbu table (bench/phone_saves.py): two phones, the one timed "
        f"with its CPU slowed {slowdown:g}x, the other not (they take turns); both on the "
        "network above without their service worker (its own fetches escape the emulation), "
        "from the tap on save:",
        "",
        "| until | time | target |",
        "|---|---|---|",
        f"| the saving phone shows the new totals | {own} | under {OWN_TARGET_S:g} s: "
        f"{'met' if own_met else 'NOT met'} |",
        f"| the other phone shows them (it polls every second) | {other} | under "
        f"{OTHER_TARGET_S:g} s: {'met' if other_met else 'NOT met'} |",
    ]


def parse_table(line: str) -> dict | None:
    return json.loads(line) if line.strip() else None
