"""The account's players, a player's own page (their statistics: scorekeeper/stats/) and the
merge of two (scorekeeper/players/)."""

from django.urls import path

from scorekeeper.players import views

urlpatterns = [
    path("players/", views.player_list, name="player_list"),
    path("players/<int:pk>/", views.player_detail, name="player_detail"),
    path("players/<int:pk>/merge/", views.player_merge, name="player_merge"),
]
