"""URLs by audience: public pages, the organiser's pages, table entry, and the API."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from config.guides import guides
from config.login_forms import AdminLoginForm, LoginForm
from games.core.offline import table_manifest
from scoring import views as scoring_views

# Uncaught errors: the API's JSON error shape under /api/, Django's page elsewhere.
handler500 = "games.api.errors.server_error"

# Both log-in forms count failed logins (clubs/login_limits.py), as the API's token does.
admin.site.login_form = AdminLoginForm


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """The static favicon.ico (its hashed name when the static files are collected)."""
    return HttpResponsePermanentRedirect(static("favicon.ico"))


urlpatterns = [
    path("", include("games.core.offline")),  # the table pages' service worker, offline texts
    # Installed to the home screen, a Burraco score card's icon opens the score card itself,
    # not /t/<key>/ (a redirect, which the service worker cannot keep for offline use).
    path(
        "offline/manifest/card/<str:key>.webmanifest",
        table_manifest,
        {"page": "burraco-card"},
        name="burraco-card-manifest",
    ),
    # Browsers and crawlers ask for /favicon.ico whatever the page links: the static file.
    path("favicon.ico", favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("config.urls_api")),
    # The guides, where each page's Help link leads (config/guides.py).
    path("docs/", guides, name="guides"),
    path("docs/<path:path>", guides, name="guides-page"),
]
urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", scoring_views.home, name="home"),
    path("", include("games.urls")),
    path("", include("clubs.urls")),
    path("", include("scoring.urls")),
    prefix_default_language=False,
)
