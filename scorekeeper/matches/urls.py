"""The history of matches and a match's deletion (scorekeeper/matches/)."""

from django.urls import path

from scorekeeper.matches import views

urlpatterns = [
    path("matches/", views.match_list, name="match_list"),
    path("matches/<int:pk>/delete/", views.match_delete, name="match_delete"),
    path("matches/<int:pk>/unarchive/", views.match_unarchive, name="match_unarchive"),
]
