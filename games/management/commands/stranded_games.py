"""stranded_games: the stored games a table can no longer finish, and the deal to correct."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.urls import reverse

from games.barbu.integrity import stranded_games


class Command(BaseCommand):
    help = (
        "List stored games whose deals the rules refuse (a mandatory double that can no "
        "longer be made strands the table), with the deal an organiser should correct."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", help="only this club (its slug)")
        parser.add_argument("--event", type=int, help="only this event (its id)")

    def handle(self, *args, **options) -> None:
        found = 0
        for item in stranded_games(club_slug=options["club"], event_id=options["event"]):
            found += 1
            game = item.game
            table = game.table
            event = table.round.event
            self.stdout.write(
                f"game {game.pk}: {event.club.name} · {event.name} · round "
                f"{table.round.number} · table {table.number} ({game.deals_count} deals)"
            )
            for problem in item.problems:
                deal = item.deals.get(problem.deal) if problem.deal else None
                where = f"deal {problem.deal}: " if problem.deal else ""
                line = f"  {where}{problem.message}"
                if deal is not None:
                    url = reverse(
                        "deal-correct", kwargs={"slug": event.club.slug, "deal_id": deal.pk}
                    )
                    line += f"\n    correct it at {url}"
                self.stdout.write(line)
        if found:
            self.stdout.write(
                self.style.WARNING(f"{found} game{'' if found == 1 else 's'} to correct")
            )
        else:
            self.stdout.write(self.style.SUCCESS("no stored game breaks the rules"))
