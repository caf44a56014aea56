"""The site's URLs plus two trivial DRF endpoints the API benchmark compares against.

Only bench/api_bench_settings.py selects it: never part of the production URLs.
"""

from django.urls import path
from rest_framework import generics, serializers

from clubs.models import Player
from config.urls import urlpatterns as site_urls


class NameSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


class TrivialCreate(generics.CreateAPIView):
    """One field in, one row written: the floor of any DRF write."""

    serializer_class = NameSerializer


class TrivialList(generics.ListAPIView):
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
