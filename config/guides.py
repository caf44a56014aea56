"""The guides (docs/, built by MkDocs into site/) where the pages' "Help" links lead: /docs/.

With DOCS_URL set, /docs/<page> sends the reader there (a redirect keeps the link's
#section). Without it, this site serves the built guides from site/ (`make docs-build`);
in development (DEBUG) it builds them first whenever docs/ or mkdocs.yml changed since,
so the Help links of `make demo` lead to the current guides. A production site without
site/ answers that the guides are not here, and how to put them there.
"""

from __future__ import annotations

import threading
from pathlib import Path

from csp.decorators import csp_update
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound, HttpResponseRedirect
from django.utils.translation import gettext as _
from django.views.static import serve

SOURCES = ("docs", "mkdocs.yml")
_building = threading.Lock()


def site_dir() -> Path:
    return Path(settings.BASE_DIR) / "site"


def _newest_source(root: Path) -> float:
    times = []
    for name in SOURCES:
        source = root / name
        files = [source] if source.is_file() else list(source.rglob("*"))
        times += [path.stat().st_mtime for path in files if path.is_file()]
    return max(times, default=0.0)


def build_if_stale(root: Path, site: Path) -> str:
    """Build the guides into `site` when they are older than their sources (where MkDocs,
    a development dependency, is installed): why they could not be built, or ''."""
    with _building:
        index = site / "index.html"
        if index.exists() and index.stat().st_mtime >= _newest_source(root):
            return ""
        try:
            from mkdocs.commands.build import build
            from mkdocs.config import load_config
            from mkdocs.exceptions import MkDocsException
        except ImportError:
            return ""
        try:
            build(load_config(str(root / "mkdocs.yml"), site_dir=str(site)))
        except (MkDocsException, SystemExit) as error:
            return str(error) or type(error).__name__
        return ""


# The MkDocs theme sets its search's base address in one inline script of each page; the
# guides are this repository's own static pages, with nothing a visitor wrote in them.
@csp_update({"script-src": ["'unsafe-inline'"]})
def guides(request: HttpRequest, path: str = "") -> HttpResponse:
    """A file of the built guides (a folder's index.html), or the reader sent to DOCS_URL."""
    if settings.DOCS_URL:
        return HttpResponseRedirect(settings.DOCS_URL.rstrip("/") + "/" + path)
    site = site_dir()
    if settings.DEBUG:
        problem = build_if_stale(Path(settings.BASE_DIR), site)
        if problem:
            text = _("The guides could not be built: %(problem)s") % {"problem": problem}
            return HttpResponseNotFound(text, content_type="text/plain; charset=utf-8")
    if not (site / "index.html").exists():
        text = _(
            "The guides are not on this site: build them into site/ with “make docs-build”, "
            "or set DOCS_URL to where they are published."
        )
        return HttpResponseNotFound(text, content_type="text/plain; charset=utf-8")
    if path == "" or path.endswith("/"):
        path += "index.html"
    return serve(request, path, document_root=site)
