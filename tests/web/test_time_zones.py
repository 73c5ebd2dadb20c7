"""Times in the player's own time zone (issue 9): taken from the browser at sign-up, editable
on the account page, used on the site and in emails; "just now" rather than "0 minutes ago"."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game
from tests.factories import PASSWORD
from tests.web.helpers import game_page, signed_in, started_game

pytestmark = pytest.mark.django_db


def sign_up(client, **extra) -> User:
    client.post(
        reverse("account_signup"),
        {
            "email": "zoe@example.com",
            "display_name": "Zoe",
            "password1": PASSWORD,
            "password2": PASSWORD,
            **extra,
        },
    )
    return User.objects.get(email="zoe@example.com")


def test_sign_up_keeps_the_time_zone_the_browser_reports(client):
    assert sign_up(client, time_zone="America/Argentina/Buenos_Aires").time_zone == (
        "America/Argentina/Buenos_Aires"
    )


@pytest.mark.parametrize("value", ["Mars/Olympus", "x" * 500, "\x00", "../../etc"])
def test_a_time_zone_that_is_not_one_is_dropped_and_sign_up_still_works(client, value):
    assert sign_up(client, time_zone=value).time_zone == ""


def test_the_sign_up_form_has_the_field_the_browser_fills(client):
    page = client.get(reverse("account_signup")).content.decode()
    assert re.search(r'<input type="hidden" name="time_zone"', page)


def test_the_account_page_changes_the_time_zone(anna):
    browser = signed_in(anna)
    page = browser.get(reverse("accounts:profile")).content.decode()
    assert '<option value="Europe/Rome">Europe/Rome</option>' in page

    browser.post(reverse("accounts:profile"), {"form": "time_zone", "time_zone": "Europe/Rome"})
    anna.refresh_from_db()
    assert anna.time_zone == "Europe/Rome"

    response = browser.post(
        reverse("accounts:profile"), {"form": "time_zone", "time_zone": "Europe/Atlantis"}
    )
    assert response.status_code == 200
    anna.refresh_from_db()
    assert anna.time_zone == "Europe/Rome"


def deadline_title(page: str) -> str:
    return html.unescape(re.search(r'<span class="deadline" title="([^"]+)"', page).group(1))


def test_the_deadline_is_shown_in_the_players_time_zone(anna, ben):
    game = started_game(anna, ben)
    deadline = timezone.now().replace(microsecond=0) + timedelta(days=2)
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    game.refresh_from_db()
    User.objects.filter(pk=anna.pk).update(time_zone="Asia/Tokyo")
    User.objects.filter(pk=ben.pk).update(time_zone="America/New_York")

    tokyo = deadline_title(game_page(signed_in(anna), game))
    new_york = deadline_title(game_page(signed_in(ben), game))

    assert tokyo.endswith("JST")
    assert new_york.endswith(("EST", "EDT"))
    from zoneinfo import ZoneInfo

    assert f"{deadline.astimezone(ZoneInfo('Asia/Tokyo')):%H:%M}" in tokyo


def test_visitors_see_times_in_the_zone_their_browser_reports(client, anna, ben):
    game = started_game(anna, ben)
    client.cookies["tz"] = "Australia/Sydney"
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert deadline_title(page).endswith(("AEDT", "AEST"))
    client.cookies["tz"] = "Not/AZone"
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert deadline_title(page).endswith("UTC")


def test_emails_show_times_in_the_recipients_time_zone(
    anna, ben, django_capture_on_commit_callbacks
):
    from games import events

    User.objects.filter(pk=anna.pk).update(time_zone="Asia/Kolkata")
    game = started_game(anna, ben)
    seat = game.seats.select_related("user").get(user=anna)
    Game.objects.filter(pk=game.pk).update(
        acting_seat=seat.number, deadline=timezone.now() + timedelta(hours=30)
    )
    game.refresh_from_db()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        events.reminder_due.send(Game, game=game, seat=seat, number=0)
    [email] = [m for m in mail.outbox if m.to == [anna.email]]
    assert "IST" in email.body


def render(template: str, **context) -> str:
    return Template("{% load times %}" + template).render(Context(context))


def test_a_moment_ago_reads_just_now_not_zero_minutes():
    now = timezone.now()
    assert render("{{ t|ago }}", t=now - timedelta(seconds=20)) == "just now"
    assert render("{{ t|ago }}", t=now - timedelta(minutes=5)) == "5\xa0minutes ago"
    assert render("{{ t|ago }}", t=now - timedelta(days=2, hours=3)) == "2\xa0days ago"
    assert render("{{ t|left }}", t=now + timedelta(seconds=30)) == "less than a minute"
    assert render("{{ t|left }}", t=now - timedelta(seconds=30)) == "no time"


def test_the_log_says_when_each_turn_was_played_in_the_players_time_zone(anna, ben):
    from zoneinfo import ZoneInfo

    from tests.web.helpers import play_greedy

    game = started_game(anna, ben)
    play_greedy(game, 5)
    played = game.moves.order_by("-seq").first().created
    User.objects.filter(pk=anna.pk).update(time_zone="Pacific/Auckland")
    User.objects.filter(pk=ben.pk).update(time_zone="America/Lima")

    for user, zone in ((anna, "Pacific/Auckland"), (ben, "America/Lima")):
        page = game_page(signed_in(user), game)
        local = played.astimezone(ZoneInfo(zone))
        shown = re.findall(r'<time datetime="[^"]+" title="[^"]+">([^<]+)</time>', page)
        assert shown[-1] == f"{local:%a} {local.day} {local:%b}, {local:%H:%M}"


def test_my_games_says_just_now_for_a_game_to_watch_that_just_moved(anna, ben, carla):
    from tests.web.helpers import play_greedy

    game = started_game(ben, carla)
    play_greedy(game, 3)
    page = signed_in(anna).get(reverse("games:mine")).content.decode()
    assert "updated just now" in page
    assert "0\xa0minutes" not in page
