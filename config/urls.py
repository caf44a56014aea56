"""URLs by audience: public pages, the organiser's pages, table entry, and the API."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("config.urls_api")),
]
urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("games.urls")),
    path("", include("clubs.urls")),
    path("", include("scoring.urls")),
    prefix_default_language=False,
)
