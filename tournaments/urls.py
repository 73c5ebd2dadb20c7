"""URL routes of tournaments and the seasons' ladder, mounted at tournaments/."""

from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.create, name="new"),
    path("seasons/", views.ladder, name="ladder"),
    path("seasons/join/", views.ladder_join, name="ladder_join"),
    path("seasons/leave/", views.ladder_leave, name="ladder_leave"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/standings/", views.standings, name="standings"),
    path("<int:pk>/players/<int:entry_id>/", views.schedule, name="schedule"),
    path("<int:pk>/join/", views.join, name="join"),
    path("<int:pk>/leave/", views.leave, name="leave"),
    path("<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:pk>/cancel/", views.cancel, name="cancel"),
    path("<int:pk>/start/", views.start_now, name="start"),
    path("<int:pk>/feature/", views.feature, name="feature"),
]
