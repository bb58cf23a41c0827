from django.urls import path

from scorekeeper.entry import views

urlpatterns = [
    path("matches/<int:pk>/deals/new/", views.deal_entry, name="deal_new"),
    path("matches/<int:pk>/deals/<int:number>/edit/", views.deal_entry, name="deal_edit"),
]
