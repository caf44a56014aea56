"""bench/bench_capacity.py's players: the seeded day, and the phones, viewers and desks that
play it over HTTP as the browsers do (cookies, CSRF tokens from the page, ETags)."""

from __future__ import annotations

import gzip
import html
import http.client
import random
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlencode

BARBU_PACE = 90.0  # seconds between two deals of a Barbu table
BURRACO_PACE = 240.0  # seconds between two hands of a Burraco table
VIEWER_PERIOD = 1.0  # the live part and a table's state (static/live.js, entry.js)
DESK_PERIOD = 20.0  # the referee's desk (templates/games/burraco/desk.html)
FLOOR_PERIOD = 1.0
ARRIVAL = 10.0  # at most, seconds over which a step's tables sit down (open their pages)
HANDS = 4  # hands of a Burraco score card, then the other line confirms it
MPS = [(300, 100), (0, 50), (250, 400), (120, 80)]
TOKEN_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HIDDEN_RE = re.compile(r'<input type="hidden" name="(number|entry_key)" value="([^"]*)"')
ETAG_RE = re.compile(r'data-etag="([^"]+)"')


# --- The day, seeded in-process -----------------------------------------------------------


def seed(barbu_tables: int, burraco_tables: int, seed_value: int) -> dict:
    """A running Barbu evening and a Burraco tournament (turn 1 seated) in two published
    clubs, and a superuser referee logged in (its session cookie)."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils import timezone

    from clubs.models import Club, Membership, Player
    from games.barbu.game_creation import game_create
    from games.burraco import tournaments
    from games.models import Event, Round, Seat, Table
    from scoring.engine.barbu.randomgame import random_game

    rng = random.Random(seed_value)
    barbu_club = Club.objects.create(
        name="Bench Barbu", slug="bench-barbu", language="en",
        ruleset={"preset": "italian7", "options": {}},
    )  # fmt: skip
    evening = Event.objects.create(
        club=barbu_club, name="Bench evening", starts_at=timezone.now(),
        ruleset=barbu_club.ruleset, status=Event.Status.RUNNING,
    )  # fmt: skip
    rnd = Round.objects.create(event=evening, number=1)
    barbu = []
    for number in range(1, barbu_tables + 1):
        table = Table.objects.create(round=rnd, number=number)
        players = Player.objects.bulk_create(Player(name=f"Player {number:03d}{s}") for s in "ABCD")
        for position, player in enumerate(players):
            Membership.objects.create(club=barbu_club, player=player)
            Seat.objects.create(table=table, position=position, player=player)
        game = game_create(table=table)
        names = list(game.player_names)
        deals = random_game(rng, game.ruleset, players=names)["deals"]
        barbu.append({"id": game.pk, "key": table.key, "names": names, "deals": deals})

    burraco_club = Club.objects.create(
        name="Bench Burraco", slug="bench-burraco", language="en", game=Club.Games.BURRACO
    )
    tournament = tournaments.tournament_create(
        club=burraco_club, name="Bench tournament", starts_at=timezone.now(),
        turns=4, hands_per_turn=HANDS,
    )  # fmt: skip
    for n in range(1, 2 * max(burraco_tables, 2) + 1):
        a = Player.objects.create(name=f"Pair {n:03d}a")
        b = Player.objects.create(name=f"Pair {n:03d}b")
        for player in (a, b):
            Membership.objects.create(club=burraco_club, player=player)
        tournaments.pair_enter(event=tournament, player_a=a, player_b=b)
    turn = tournaments.turn_seat(event=tournament, movement="first").round
    burraco = [
        {"id": t.game.pk, "key": t.key}
        for t in turn.tables.select_related("game").order_by("number")[:burraco_tables]
    ]
    referee = get_user_model().objects.create_superuser("referee", "", "bench-referee")
    client = Client()
    client.force_login(referee)
    return {
        "barbu": {"event": evening.pk, "slug": barbu_club.slug, "tables": barbu},
        "burraco": {"event": tournament.pk, "slug": burraco_club.slug, "tables": burraco},
        "session": client.cookies["sessionid"].value,
    }


def stored(plan: dict) -> dict[str, set]:
    """What the database holds of the writes the bench can make: (game, number) of the
    Barbu deals and Burraco hands, and the games whose card is confirmed."""
    from games.models import BurracoHand, Deal, ScoreCard

    barbu = [t["id"] for t in plan["barbu"]["tables"]]
    burraco = [t["id"] for t in plan["burraco"]["tables"]]
    return {
        "deal": set(Deal.objects.filter(game_id__in=barbu).values_list("game_id", "number")),
        "hand": set(
            BurracoHand.objects.filter(game_id__in=burraco).values_list("game_id", "number")
        ),
        "confirm": set(
            ScoreCard.objects.filter(
                game_id__in=burraco, status=ScoreCard.Status.CONFIRMED
            ).values_list("game_id", flat=True)
        ),
    }


# --- One browser over HTTP ----------------------------------------------------------------


@dataclass
class Record:
    """What one step saw: each request's (kind, seconds, status) and the writes accepted."""

    requests: list[tuple[str, float, int, int]] = field(default_factory=list)
    accepted: list[tuple[str, int, int, float]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, status: int, size: int = 0) -> None:
        with self.lock:
            self.requests.append((kind, seconds, status, size))

    def accept(self, what: str, game: int, number: int) -> None:
        with self.lock:
            self.accepted.append((what, game, number, time.time()))


class Browser:
    """One phone or viewer: its keep-alive connection, cookies and the ETag it holds."""

    def __init__(self, port: int, record: Record, cookies: dict[str, str] | None = None) -> None:
        self.port, self.record = port, record
        self.cookies: dict[str, str] = dict(cookies or {})
        self.conn: http.client.HTTPConnection | None = None
        self.etag = ""

    def request(
        self, kind: str, method: str, path: str, form: dict | None = None, **headers: str
    ) -> tuple[int, str, dict[str, str]]:
        headers = {"Accept-Encoding": "gzip", **headers}  # as browsers ask
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form, doseq=True).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        try:
            try:
                reused = self.conn is not None
                if self.conn is None:
                    self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A kept-alive connection the other end closed while it was idle (a proxy
                # does after its keep-alive timeout; gunicorn closes after every answer):
                # sent again on a new one, as browsers do when nothing came back.
                if not reused:
                    raise
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.record.add(kind, time.perf_counter() - started, 0)  # 0: no answer
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            return 0, "", {}
        self.record.add(kind, time.perf_counter() - started, response.status, len(data))
        if response.getheader("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        answer = {k.lower(): v for k, v in response.getheaders()}
        return response.status, data.decode(errors="replace"), answer

    def poll(self, kind: str, path: str, **headers: str) -> None:
        """A poll with the version the browser holds: a 304 keeps it, a 200 brings a new one."""
        if self.etag:
            headers["If-None-Match"] = self.etag
        status, body, answer = self.request(kind, "GET", path, **headers)
        if status == 200:
            found = ETAG_RE.search(body)
            # The page's data-etag (what static/live.js sends back), else the header's.
            self.etag = html.unescape(found.group(1)) if found else answer.get("etag", "")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def schedule(rng: random.Random, pace: float) -> dict[str, float]:
    """When each of a table's actors acts first: phones and viewers are not in step (a
    room's browsers poll each on its own second), and a table's first save falls anywhere
    within its pace."""
    now = time.time()
    return {
        "save": now + rng.uniform(0, pace),
        "live": now + rng.uniform(0, VIEWER_PERIOD),
        "state": now + rng.uniform(0, VIEWER_PERIOD),
    }


def token(page: str) -> str:
    found = TOKEN_RE.search(page)
    return found.group(1) if found else ""


# --- The tables ------------------------------------------------------------------------------


class BarbuTable:
    """A phone saving deals through the table page's form (the POST and the page it is sent
    back to), the evening's live part and the table's state, each polled by a viewer."""

    def __init__(self, plan: dict, event: int) -> None:
        self.plan, self.event, self.sent = plan, event, 0

    def play(
        self, port: int, record: Record, stop: threading.Event, speed: float, arrival: float
    ) -> None:
        from tests.games.barbu.deal_forms import form_data

        key, rng = self.plan["key"], random.Random(self.plan["id"])
        phone, live, state = (Browser(port, record) for _ in range(3))
        pace = BARBU_PACE / speed
        if stop.wait(rng.uniform(0, min(ARRIVAL, arrival))):
            return
        _status, page, _ = phone.request("table page", "GET", f"/t/{key}/")
        due = schedule(rng, pace)
        while not stop.is_set():
            actor = min(due, key=due.get)
            if stop.wait(max(0.0, due[actor] - time.time())):
                break
            if actor == "live":
                live.poll("live part", f"/events/{self.event}/live/")
                due[actor] += VIEWER_PERIOD
            elif actor == "state":
                state.poll("table state", f"/t/{key}/state/", Accept="application/json")
                due[actor] += VIEWER_PERIOD
            elif self.sent < len(self.plan["deals"]):
                number = self.sent + 1
                deal = self.plan["deals"][self.sent]
                form = {**form_data(deal, self.plan["names"], number)}
                form["csrfmiddlewaretoken"] = token(page)
                status, _body, _ = phone.request("deal (form)", "POST", f"/t/{key}/deal/", form)
                if status == 302:
                    record.accept("deal", self.plan["id"], number)
                    self.sent = number
                    _status, page, _ = phone.request("table page", "GET", f"/t/{key}/")
                due[actor] += pace
            else:
                due[actor] = float("inf")
            due[actor] = max(due[actor], time.time())
        for browser in (phone, live, state):
            browser.close()


class BurracoTable:
    """The NS phone entering hands on the score card (its form and the card it is sent back
    to), the EW phone confirming the card, the tournament's live part and the card's state
    polled by two viewers."""

    def __init__(self, plan: dict, event: int) -> None:
        self.plan, self.event, self.sent, self.confirmed = plan, event, 0, False
        self.cookies: dict[str, dict[str, str]] = {}

    def _phone(self, port: int, record: Record, line: str) -> tuple[Browser, str]:
        key = self.plan["key"]
        phone = Browser(port, record, self.cookies.get(line))
        _status, page, _ = phone.request("score card", "GET", f"/t/{key}/card/")
        if line not in self.cookies:
            form = {"line": line, "csrfmiddlewaretoken": token(page)}
            phone.request("line chosen", "POST", f"/t/{key}/card/line/", form)
            _status, page, _ = phone.request("score card", "GET", f"/t/{key}/card/")
        self.cookies[line] = phone.cookies
        return phone, page

    def play(
        self, port: int, record: Record, stop: threading.Event, speed: float, arrival: float
    ) -> None:
        key, rng = self.plan["key"], random.Random(self.plan["id"])
        if stop.wait(rng.uniform(0, min(ARRIVAL, arrival))):
            return
        ns, page = self._phone(port, record, "NS")
        ew, _ = self._phone(port, record, "EW")
        live, state = Browser(port, record), Browser(port, record)
        due = schedule(rng, BURRACO_PACE / speed)
        while not stop.is_set():
            actor = min(due, key=due.get)
            if stop.wait(max(0.0, due[actor] - time.time())):
                break
            if actor == "live":
                live.poll("live part", f"/events/{self.event}/live/")
                due[actor] += VIEWER_PERIOD
            elif actor == "state":
                state.poll("card state", f"/t/{key}/card/state/", Accept="application/json")
                due[actor] += VIEWER_PERIOD
            elif self.sent < HANDS:
                number = self.sent + 1
                mp_ns, mp_ew = MPS[self.sent % len(MPS)]
                form = {"mode": "mp", "NS-mp": str(mp_ns), "EW-mp": str(mp_ew)}
                # The hand form's own hidden fields (the undo form after it has a number too).
                entry = page[page.find('id="hand-entry"') :]
                form.update(HIDDEN_RE.findall(entry[: entry.find("</form>")]))
                form["csrfmiddlewaretoken"] = token(page)
                status, body, _ = ns.request("hand (form)", "POST", f"/t/{key}/card/hand/", form)
                if status not in (0, 302):
                    refused(f"table {key}, hand {number}", body)
                if status == 302:
                    record.accept("hand", self.plan["id"], number)
                    self.sent = number
                    _status, page, _ = ns.request("score card", "GET", f"/t/{key}/card/")
                due[actor] += BURRACO_PACE / speed
            elif not self.confirmed:
                _status, card, _ = ew.request("score card", "GET", f"/t/{key}/card/")
                form = {"agree": "1", "csrfmiddlewaretoken": token(card)}
                status, _, _ = ew.request("confirm", "POST", f"/t/{key}/card/confirm/", form)
                if status == 302:
                    record.accept("confirm", self.plan["id"], 0)
                    self.confirmed = True
                    ew.request("score card", "GET", f"/t/{key}/card/")
                due[actor] += BURRACO_PACE / speed
            else:
                due[actor] = float("inf")  # the card is done: the table waits for the next turn
            due[actor] = max(due[actor], time.time())
        for browser in (ns, ew, live, state):
            browser.close()


PROBLEMS_RE = re.compile(r'id="server-problems">\s*<ul>(.*?)</ul>', re.S)


def refused(what: str, page: str) -> None:
    """A write the server refused, and the words it gave, on stderr: a refusal in a
    benchmark is a finding to read, not only a count."""
    found = PROBLEMS_RE.search(page)
    words = re.sub(r"<[^>]+>", " ", found.group(1)).split() if found else ["(no words)"]
    print(f"refused: {what}: {' '.join(words)[:300]}", file=sys.stderr, flush=True)


def desk(path: str, session: str, port: int, record: Record, stop: threading.Event) -> None:
    """The referee's desk, its part polled every 20 s with the ETag it holds (htmx)."""
    browser = Browser(port, record, {"sessionid": session})
    while not stop.is_set():
        browser.poll("referee desk", path, **{"HX-Request": "true"})
        if stop.wait(DESK_PERIOD):
            break
    browser.close()


def floor(port: int, record: Record, stop: threading.Event) -> None:
    """The stack's floor under the same load: a trivial Django view, a trivial DRF list."""
    browser = Browser(port, record)
    while not stop.is_set():
        browser.request("floor: Django view", "GET", "/favicon.ico")
        browser.request("floor: DRF list", "GET", "/bench/list/")
        if stop.wait(FLOOR_PERIOD):
            break
    browser.close()
