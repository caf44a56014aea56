"""Pages of the games app, by audience: the organiser's pages and the table-side entry."""

from django.urls import include, path

urlpatterns = [
    path("", include("games.urls_organiser")),
    path("", include("games.urls_table")),
]
