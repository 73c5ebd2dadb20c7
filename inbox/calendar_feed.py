"""The private calendar feed (iCalendar, RFC 5545, written by the `icalendar` package): each
turn of the player's that has a deadline, so a phone's calendar reminds them before it runs
out. The address is a long random token per player (inbox.models.CalendarFeed); anyone who
has it reads the deadlines, so it can be replaced or turned off, and it names no other
player's hand or anything hidden."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from icalendar import Alarm, Calendar, Event

from games.models import Game
from inbox.counts import waiting_seats
from inbox.models import CalendarFeed

EVENT_LENGTH = timedelta(minutes=30)  # the deadline is the event's end
ALARM_BEFORE = timedelta(hours=2)


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def feed(user: object) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Firenze online//Turn deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", _("Firenze: your turns"))
    games = (
        Game.objects.filter(pk__in=waiting_seats(user).values("game_id"), deadline__isnull=False)
        .defer("state")
        .order_by("deadline", "pk")
    )
    stamp = timezone.now()
    for game in games:
        assert game.deadline is not None  # filtered so
        event = Event()
        started = int(game.turn_started_at.timestamp()) if game.turn_started_at else 0
        event.add("uid", f"game-{game.pk}-turn-{started}@firenze")
        event.add("dtstamp", stamp)
        event.add("dtstart", game.deadline - EVENT_LENGTH)
        event.add("dtend", game.deadline)
        event.add("summary", _("Your move in %(title)s: time runs out") % {"title": game.title})
        url = _absolute(reverse("games:detail", args=[game.pk]))
        event.add("url", url)
        event.add("description", _("Play your turn: %(url)s") % {"url": url})
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", _("Your move in %(title)s") % {"title": game.title})
        alarm.add("trigger", -(ALARM_BEFORE - EVENT_LENGTH))
        event.add_component(alarm)
        calendar.add_component(event)
    return calendar.to_ical()


@never_cache
@require_GET
def calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The feed of the player whose address this is (404 for any other token)."""
    if len(token) > 64:
        raise Http404(_("No such calendar."))
    found = CalendarFeed.objects.select_related("user").filter(token=token).first()
    if found is None or not found.user.is_active:  # a deactivated account's feed is gone
        raise Http404(_("No such calendar."))
    user = found.user
    with translation.override(user.language or settings.LANGUAGE_CODE):
        body = feed(user)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="firenze.ics"'
    response["X-Robots-Tag"] = "noindex"
    return response


setattr(calendar, "skip_user_time_zone", True)  # noqa: B010 - no session: the token says who
