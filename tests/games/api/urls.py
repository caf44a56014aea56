"""Only the API, so these tests do not depend on the pages' URLs (other work in progress)."""

from django.urls import include, path

urlpatterns = [path("api/", include("config.urls_api"))]
handler500 = "games.api.errors.server_error"
