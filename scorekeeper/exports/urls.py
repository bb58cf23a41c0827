"""The exports (scorekeeper/exports/): a match as CSV and as a score sheet, the history as
CSV, an account's data file and its import."""

from django.urls import path

from scorekeeper.exports import views

urlpatterns = [
    path("matches/<int:pk>/export.csv", views.match_csv, name="match_csv"),
    path("matches/<int:pk>/sheet/", views.match_sheet, name="match_sheet"),
    path("matches/export.csv", views.history_csv, name="match_list_csv"),
    path("accounts/data.json", views.account_data, name="account_data"),
    path("accounts/data/import/", views.account_data_import, name="account_data_import"),
]
