from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from scorekeeper import health, live, views
from scorekeeper.accounts import admin as account_admin  # noqa: F401  (the admin's user deletion)
from scorekeeper.i18n import views as i18n_views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    # The language picker: Django's set_language, keeping an account's choice (scorekeeper/i18n/)
    path("i18n/setlang/", i18n_views.language_set, name="set_language"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.login, name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("scorekeeper.accounts.urls")),
    path("matches/new/", views.match_new, name="match_new"),
    path("matches/import/", views.match_import, name="match_import"),
    path("matches/<int:pk>/", views.match_detail, name="match_detail"),
    path("matches/<int:pk>/deals/<int:number>/", views.deal_breakdown, name="deal_breakdown"),
    path("matches/<int:pk>/chart/", views.match_chart, name="match_chart"),
    path("live/<str:key>/", live.live_check, name="live"),
    path("matches/<int:pk>/export.json", views.match_export, name="match_export"),
    # Sharing: the share pages, the score and watch links, /join/ (scorekeeper/sharing/)
    path("", include("scorekeeper.sharing.urls")),
    # Deal entry: the next deal and the correction of a deal (scorekeeper/entry/)
    path("", include("scorekeeper.entry.urls")),
    path("", include("scorekeeper.history.urls")),  # the match's history (scorekeeper/history/)
    path("", include("scorekeeper.matches.urls")),  # every match: /matches/, archive, delete
    path("", include("scorekeeper.players.urls")),  # the account's players (scorekeeper/players/)
    path("", include("scorekeeper.exports.urls")),  # CSV, score sheet, data (scorekeeper/exports/)
    path("admin/", admin.site.urls),
]

# The pages a player sees when a request fails (scorekeeper/errors.py); the CSRF failure page
# is settings.CSRF_FAILURE_VIEW.
handler400 = "scorekeeper.errors.bad_request"
handler403 = "scorekeeper.errors.permission_denied"
handler404 = "scorekeeper.errors.page_not_found"
handler500 = "scorekeeper.errors.server_error"
