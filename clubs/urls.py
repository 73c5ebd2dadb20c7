"""URL routes of the clubs app, mounted at clubs/."""

from django.urls import path

from . import views

app_name = "clubs"

urlpatterns = [
    path("", views.club_list, name="list"),
    path("new/", views.found, name="new"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/settings/", views.club_settings, name="settings"),
    path("<slug:slug>/members/", views.members, name="members"),
    path("<slug:slug>/games/", views.games, name="games"),
    path("<slug:slug>/join/", views.join, name="join"),
    path("<slug:slug>/withdraw/", views.withdraw, name="withdraw"),
    path("<slug:slug>/leave/", views.leave, name="leave"),
    path("<slug:slug>/invite/", views.invite, name="invite"),
    path("<slug:slug>/accept/", views.accept, name="accept"),
    path("<slug:slug>/refuse/", views.refuse, name="refuse"),
    path("<slug:slug>/remove/", views.remove, name="remove"),
    path("<slug:slug>/promote/", views.promote, name="promote"),
    path("<slug:slug>/challenge/", views.challenge, name="challenge"),
    path("<slug:slug>/tournaments/new/", views.new_tournament, name="new_tournament"),
]
