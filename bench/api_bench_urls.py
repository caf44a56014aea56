"""The site's URLs plus two trivial DRF endpoints: the API benchmark's floor.

Only bench/api_bench_settings.py selects it: never part of the production URLs.

Like with like: the trivial endpoints authenticate and throttle exactly as the real API
does (the project defaults in settings.REST_FRAMEWORK, which games/api/views.py's
ApiMixin uses too: the one-query token authentication, the table key, the session, and
the writes throttle), so the floor is what any request of the API costs before its own
work.
"""

from django.urls import path
from rest_framework import generics, serializers

from clubs.models import Player
from config.urls import urlpatterns as site_urls
from games.api.views import ApiMixin


class Baseline:
    """The real API's authentication and throttle classes (the project defaults too)."""

    authentication_classes = ApiMixin.authentication_classes
    throttle_classes = ApiMixin.throttle_classes


class NameSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


class TrivialCreate(Baseline, generics.CreateAPIView):
    """One field in, one row written: the floor of any DRF write."""

    serializer_class = NameSerializer


class TrivialList(Baseline, generics.ListAPIView):
    """Fifty rows out: the floor of any DRF read."""

    serializer_class = NameSerializer
    pagination_class = None

    def get_queryset(self):
        return Player.objects.order_by("id")[:50]


urlpatterns = [
    path("bench/create/", TrivialCreate.as_view()),
    path("bench/list/", TrivialList.as_view()),
    *site_urls,
]
