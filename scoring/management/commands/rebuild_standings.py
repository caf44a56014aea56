"""rebuild_standings: every event's and league's standings and the ratings, from the deals."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from scoring import rebuild
from scoring.barbu import rating_sync as barbu_rating_sync
from scoring.barbu import rebuild as barbu_rebuild
from scoring.burraco import rating_sync as burraco_rating_sync


class Command(BaseCommand):
    help = "Rebuild every evening's and league's standings and replay all ratings."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--event", type=int, action="append", help="only this event")
        parser.add_argument("--league", type=int, action="append", help="only this league")
        parser.add_argument(
            "--ratings",
            action="store_true",
            help="only replay the ratings (Barbu and Burraco pairs)",
        )

    def handle(self, *args, **options) -> None:
        started = time.perf_counter()
        only = options["event"] or options["league"] or options["ratings"]
        if only:
            for event_id in options["event"] or []:
                rows = rebuild.rebuild_event_standings(event_id=event_id)
                self.stdout.write(f"event {event_id}: {rows} standings")
            for league_id in options["league"] or []:
                rows = barbu_rebuild.rebuild_league_standings(league_id=league_id)
                self.stdout.write(f"league {league_id}: {rows} standings")
            if options["ratings"]:
                report = barbu_rating_sync.sync_ratings(full=True)
                self.stdout.write(f"ratings: {report.games} games replayed")
                pairs = burraco_rating_sync.sync_burraco_ratings(full=True)
                self.stdout.write(f"Burraco pair ratings: {pairs.games} score cards replayed")
        else:
            last: dict[str, int] = {}

            def progress(kind: str, done: int, total: int) -> None:
                # About twenty lines per kind, however many events there are.
                step = max(1, total // 20)
                if done == total or done - last.get(kind, 0) >= step:
                    last[kind] = done
                    self.stdout.write(f"{kind}: {done}/{total}")
                    self.stdout.flush()

            summary = rebuild.rebuild_all(progress)
            self.stdout.write(
                f"{summary['events']} events, {summary['leagues']} leagues, "
                f"{summary['games_rated']} games rated, "
                f"{summary['burraco_cards_rated']} Burraco score cards rated"
            )
        self.stdout.write(self.style.SUCCESS(f"done in {time.perf_counter() - started:.1f} s"))
