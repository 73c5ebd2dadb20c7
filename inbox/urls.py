"""URL routes of the player's desk."""

from django.urls import path

import firenze_site.converters  # noqa: F401 - registers the shapes of path parameters
from inbox import calendar_feed, notes, views

app_name = "inbox"

urlpatterns = [
    path("inbox/", views.inbox, name="inbox"),
    path("inbox/next/", views.next_game, name="next"),
    path("inbox/calendar/", views.calendar_settings, name="calendar_settings"),
    path("calendar/<token:token>.ics", calendar_feed.calendar, name="calendar"),
    path("games/<int:pk>/notes/", notes.notes, name="notes"),
]
