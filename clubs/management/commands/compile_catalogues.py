"""Compile the translation catalogues (locale/*/LC_MESSAGES/*.po) into .mo files.

Django's compilemessages needs GNU gettext's msgfmt, which a fresh machine may not
have; polib does the same in Python.
"""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the .po translation catalogues into .mo files (no GNU gettext needed)."

    def handle(self, *args, **options) -> None:
        count = 0
        for folder in settings.LOCALE_PATHS:
            for po_path in sorted(Path(folder).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                    continue
                polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
                count += 1
        if options["verbosity"] > 1 or count:
            self.stdout.write(f"compiled {count} catalogue(s)")
