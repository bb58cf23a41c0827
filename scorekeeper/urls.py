from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path

from scorekeeper import entry_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.login, name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("matches/new/", views.match_new, name="match_new"),
    path("matches/import/", views.match_import, name="match_import"),
    path("matches/<int:pk>/", views.match_detail, name="match_detail"),
    path("matches/<int:pk>/export.json", views.match_export, name="match_export"),
    # Deal entry (scorekeeper/entry_views.py)
    path("matches/<int:pk>/deals/new/", entry_views.deal_entry, name="deal_new"),
    path("matches/<int:pk>/deals/<int:number>/edit/", entry_views.deal_entry, name="deal_edit"),
    path("matches/<int:pk>/deals/preview/", entry_views.deal_preview, name="deal_preview"),
    path("admin/", admin.site.urls),
]
