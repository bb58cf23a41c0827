"""Sharing's addresses: the owner's share pages, the score and watch links, the code page."""

from django.urls import path, register_converter

from scorekeeper.sharing import views


class LinkKind:
    """``score`` or ``watch``: the two kinds of share link."""

    regex = "score|watch"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(LinkKind, "linkkind")

urlpatterns = [
    path("matches/<int:pk>/share/<linkkind:kind>/", views.match_share, name="match_share"),
    path("join/", views.join_code, name="join_code"),
    path("join/<str:token>/", views.join, name="join"),
    path("watch/<str:token>/", views.watch, name="watch"),
]
