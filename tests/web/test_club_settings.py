"""A club's settings page (clubs/<slug>/settings/): admins rename the club, rewrite its
description and change its door; everyone else is turned away as the club's other pages do."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Club
from tests.web.helpers import signed_in
from tests.web.test_clubs import club_of, text

pytestmark = pytest.mark.django_db


def settings_url(club: Club) -> str:
    return reverse("clubs:settings", args=[club.slug])


def fields(**changes: str) -> dict[str, str]:
    return {"name": "Chess Lovers", "description": "We play on Sundays.", "door": "open", **changes}


def test_it_lets_an_admin_rename_the_club_and_keeps_its_address(anna, ben):
    club = club_of(anna, ben)
    old_url = reverse("clubs:detail", args=[club.slug])

    page = text(signed_in(anna).get(settings_url(club)))
    assert 'value="Chess Lovers"' in page and "We play on Sundays." in page
    response = signed_in(anna).post(
        settings_url(club), fields(name="Knights of Fiesole", description="Tuesdays now.")
    )

    assert response.status_code == 302 and response["Location"] == old_url
    club.refresh_from_db()
    assert (club.name, club.description) == ("Knights of Fiesole", "Tuesdays now.")
    shown = text(signed_in(ben).get(old_url))
    assert "Knights of Fiesole" in shown and "Tuesdays now." in shown


def test_it_hides_the_inside_from_outsiders_once_the_door_closes(client, anna, ben, carla):
    club = club_of(anna, ben)
    pages = [reverse(f"clubs:{name}", args=[club.slug]) for name in ("members", "games")]
    detail = reverse("clubs:detail", args=[club.slug])
    assert all(signed_in(carla).get(url).status_code == 200 for url in pages)
    assert 'id="ladder"' in text(client.get(detail))

    signed_in(anna).post(settings_url(club), fields(door="invitation"))

    for browser in (client, signed_in(carla)):
        assert all(browser.get(url).status_code == 404 for url in pages)
        outside = text(browser.get(detail))
        assert 'id="ladder"' not in outside and "Ben" not in outside
    assert all(signed_in(ben).get(url).status_code == 200 for url in pages)


def test_it_turns_away_outsiders_and_plain_members(client, anna, ben, carla):
    open_club = club_of(anna, ben)
    closed = club_of(anna, ben, door=Club.Door.INVITATION, name="Night Owls")

    assert client.get(settings_url(open_club)).status_code == 302  # to sign in
    assert signed_in(carla).get(settings_url(closed)).status_code == 404
    assert signed_in(carla).get(settings_url(open_club)).status_code == 403
    assert signed_in(ben).get(settings_url(closed)).status_code == 403
    refused = signed_in(ben).post(settings_url(open_club), fields(name="Ben's Club"))
    assert refused.status_code == 403
    assert signed_in(carla).get(reverse("clubs:settings", args=["no-such"])).status_code == 404
    open_club.refresh_from_db()
    assert open_club.name == "Chess Lovers"


def test_it_shows_the_settings_link_to_admins_only(anna, ben):
    club = club_of(anna, ben)
    detail = reverse("clubs:detail", args=[club.slug])

    assert settings_url(club) in text(signed_in(anna).get(detail))
    assert settings_url(club) not in text(signed_in(ben).get(detail))


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"name": "night owls"}, "There is a club called night owls already."),
        ({"name": "N" * 61}, "Ensure this value has at most 60 characters (it has 61)."),
        ({"name": "Chess\u202eLovers"}, "may hold letters, digits, spaces and punctuation only"),
        ({"name": "Chess\u200bLovers"}, "may hold letters, digits, spaces and punctuation only"),
        ({"name": "!!!"}, "A club's name needs a letter or a digit."),
        ({"name": "ab"}, "Ensure this value has at least 3 characters (it has 2)."),
        ({"description": "Hi\u0007there"}, "The description holds an invisible or control"),
        ({"description": "x" * 1001}, "at most 1000 characters"),
        ({"door": "ajar"}, "Select a valid choice."),
    ],
)
def test_it_refuses_bad_settings_with_a_clear_error_and_changes_nothing(anna, changes, error):
    club = club_of(anna)
    club_of(anna, name="Night Owls")

    response = signed_in(anna).post(settings_url(club), fields(**{"door": "invitation", **changes}))

    assert response.status_code in (400, 409)
    assert error in text(response)
    club.refresh_from_db()
    assert (club.name, club.door) == ("Chess Lovers", Club.Door.OPEN)


def test_it_keeps_the_clubs_own_name_in_other_letter_case(anna):
    club = club_of(anna)

    response = signed_in(anna).post(settings_url(club), fields(name="CHESS  lovers"))

    assert response.status_code == 302
    club.refresh_from_db()
    assert club.name == "CHESS lovers"


def test_it_accepts_a_name_in_any_script(anna):
    club = club_of(anna)

    signed_in(anna).post(settings_url(club), fields(name="Caffè Scacchi 東京"))

    club.refresh_from_db()
    assert club.name == "Caffè Scacchi 東京"
