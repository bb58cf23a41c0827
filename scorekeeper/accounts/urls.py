from django.urls import path

from scorekeeper.accounts import views

urlpatterns = [
    path("", views.account, name="account"),
    path("export.zip", views.account_export, name="account_export"),
    path("delete/", views.account_delete, name="account_delete"),
]
