"""The history's addresses: a match's changes, newest first, and one change's two versions."""

from django.urls import path

from scorekeeper.history import views

urlpatterns = [
    path("matches/<int:pk>/history/", views.match_history, name="match_history"),
    path("matches/<int:pk>/history/<int:change>/", views.match_change, name="match_change"),
]
