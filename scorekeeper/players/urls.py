"""The account's players and the merge of two (scorekeeper/players/). ``/players/<id>/``
itself is left for a player's own page."""

from django.urls import path

from scorekeeper.players import views

urlpatterns = [
    path("players/", views.player_list, name="player_list"),
    path("players/<int:pk>/merge/", views.player_merge, name="player_merge"),
]
