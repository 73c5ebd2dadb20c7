"""What players hear about a club's door: the invited player, and the admins of a club by
invitation when someone asks to join; by email, webhook and push as their preferences say, in
their language; a block keeps the news from the other side silently. The inbox lists pending
club invitations with accept and decline."""

from __future__ import annotations

import html

import pytest
from django.core import mail
from django.db.models import Max
from django.urls import reverse

from clubs import membership
from clubs.models import Club, DoorEntry, Membership
from community import social
from notifications import notices
from notifications.models import Notification, Preference
from tests.web.helpers import signed_in
from tests.web.test_clubs import club_of

pytestmark = pytest.mark.django_db


def closed_club(admin, *members):
    return club_of(admin, *members, door=Club.Door.INVITATION, name="Night Owls")


def test_it_emails_an_invited_player_once_with_the_clubs_link(
    anna, ben, django_capture_on_commit_callbacks
):
    club = closed_club(anna)

    with django_capture_on_commit_callbacks(execute=True):
        signed_in(anna).post(reverse("clubs:invite", args=[club.slug]), {"display_name": "Ben"})
        signed_in(anna).post(reverse("clubs:invite", args=[club.slug]), {"display_name": "Ben"})

    (email,) = [m for m in mail.outbox if m.to == [ben.email]]
    assert email.subject == "Anna invites you to Night Owls"
    assert f"/clubs/{club.slug}/" in email.body


def test_it_tells_every_admin_when_someone_asks_to_join(
    anna, ben, carla, dario, django_capture_on_commit_callbacks
):
    club = closed_club(anna, ben)
    membership.promote(club, anna, ben.pk)

    with django_capture_on_commit_callbacks(execute=True):
        signed_in(carla).post(reverse("clubs:join", args=[club.slug]))

    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects[anna.email] == subjects[ben.email] == "Carla asks to join Night Owls"
    assert f"/clubs/{club.slug}/members/" in next(m.body for m in mail.outbox)
    assert carla.email not in subjects


def test_it_tells_nobody_when_a_player_joins_an_open_club(anna, ben):
    club = club_of(anna)

    membership.join(club, ben)

    assert not Notification.objects.filter(kind="club").exists()


def test_a_blocked_players_request_reaches_nobody_silently(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    club = closed_club(anna)
    social.do_block(anna, carla)

    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in(carla).post(reverse("clubs:join", args=[club.slug]), follow=True)

    assert "You asked to join Night Owls" in html.unescape(response.content.decode())
    assert not Notification.objects.filter(kind="club").exists()
    assert not mail.outbox


def test_it_does_not_invite_or_tell_a_player_who_blocked_the_admin(anna, ben):
    club = closed_club(anna)
    social.do_block(ben, anna)

    membership.invite(club, anna, ben)

    assert not Notification.objects.filter(user=ben).exists()


# --- news overtaken before it goes out -----------------------------------------------------------


def sent_later(capture, write, answer) -> list:
    """Write the news, answer it before the outbox sends it (its sends wait for the commit),
    then send: what became of each of its rows."""
    before = Notification.objects.aggregate(last=Max("pk"))["last"] or 0
    with capture() as sends:
        write()
    answer()
    for send in sends:
        send()
    rows = Notification.objects.filter(kind="club", pk__gt=before)
    return list(rows.values_list("user", "status", "last_error"))


OVERTAKEN = "the invitation or request was answered or withdrawn, or its club is gone"


@pytest.mark.parametrize(
    "answer",
    [
        lambda club, anna, ben: membership.withdraw_request(club, ben),  # declined
        lambda club, anna, ben: membership.join(club, ben),  # accepted
        lambda club, anna, ben: club.delete(),
    ],
    ids=["declined", "accepted", "club-gone"],
)
def test_it_does_not_send_an_invitation_answered_before_it_goes_out(
    anna, ben, answer, django_capture_on_commit_callbacks
):
    club = closed_club(anna)

    rows = sent_later(
        django_capture_on_commit_callbacks,
        lambda: membership.invite(club, anna, ben),
        lambda: answer(club, anna, ben),
    )

    assert rows == [(ben.pk, "skipped", OVERTAKEN)]
    assert not mail.outbox


@pytest.mark.parametrize(
    "answer",
    [
        lambda club, anna, carla: membership.withdraw_request(club, carla),
        lambda club, anna, carla: membership.accept(club, anna, carla.pk),
        lambda club, anna, carla: membership.refuse(club, anna, carla.pk),
    ],
    ids=["withdrawn", "accepted", "refused"],
)
def test_it_does_not_send_a_request_answered_before_it_goes_out(
    anna, ben, carla, answer, django_capture_on_commit_callbacks
):
    club = closed_club(anna, ben)
    membership.promote(club, anna, ben.pk)

    rows = sent_later(
        django_capture_on_commit_callbacks,
        lambda: membership.join(club, carla),
        lambda: answer(club, anna, carla),
    )

    assert sorted(rows) == [(anna.pk, "skipped", OVERTAKEN), (ben.pk, "skipped", OVERTAKEN)]
    assert not mail.outbox


def test_it_does_not_tell_an_admin_who_stepped_down_or_blocked_the_player_since(
    anna, ben, carla, dario, django_capture_on_commit_callbacks
):
    club = closed_club(anna, ben, dario)
    membership.promote(club, anna, ben.pk)
    membership.promote(club, anna, dario.pk)

    def answer():
        Membership.objects.filter(club=club, user=ben).update(role=Membership.Role.MEMBER)
        social.do_block(dario, carla)

    rows = sent_later(
        django_capture_on_commit_callbacks, lambda: membership.join(club, carla), answer
    )

    assert sorted(rows) == [
        (anna.pk, "sent", ""),
        (ben.pk, "skipped", "no longer an admin of the club"),
        (dario.pk, "skipped", "blocked since"),
    ]
    assert [m.to for m in mail.outbox] == [[anna.email]]


def test_it_writes_to_each_player_in_their_language(anna, ben, django_capture_on_commit_callbacks):
    ben.language = "de"
    ben.save()
    club = closed_club(anna)

    with django_capture_on_commit_callbacks(execute=True):
        membership.invite(club, anna, ben)

    (email,) = mail.outbox
    assert email.subject == "Anna lädt dich in Night Owls ein"
    assert "Hallo" in email.body


def test_it_follows_the_invitations_preferences(anna, ben, django_capture_on_commit_callbacks):
    Preference.objects.create(user=ben, kind="invitations", channel="email", setting="off")
    club = closed_club(anna)

    with django_capture_on_commit_callbacks(execute=True):
        membership.invite(club, anna, ben)

    row = Notification.objects.get(user=ben, kind="club", channel="email")
    assert row.status == "skipped" and not mail.outbox


def test_webhooks_and_pushes_say_it_in_a_line(anna, ben, carla):
    club = closed_club(anna)
    membership.invite(club, anna, ben)
    membership.join(club, carla)

    invited = notices.for_notification(Notification.objects.get(user=ben, channel="email"))
    asked = notices.for_notification(Notification.objects.get(user=anna, channel="email"))

    assert invited.text == "Ben, Anna invites you to join Night Owls."
    assert invited.url.endswith(f"/clubs/{club.slug}/") and invited.title == "Night Owls"
    assert asked.text == "Anna, Carla asks to join Night Owls."
    assert asked.url.endswith(f"/clubs/{club.slug}/members/")


# --- the inbox ---------------------------------------------------------------------------------


def test_the_inbox_lists_club_invitations_and_accepts_one(anna, ben):
    club = closed_club(anna)
    membership.invite(club, anna, ben)
    browser = signed_in(ben)

    page = html.unescape(browser.get(reverse("inbox:inbox")).content.decode())
    assert "Club invitations" in page and "Night Owls" in page and ">Anna</a>" in page

    response = browser.post(reverse("clubs:join", args=[club.slug]), {"back": "inbox"})

    assert response["Location"] == reverse("inbox:inbox")
    assert Membership.objects.filter(club=club, user=ben).exists()
    after = html.unescape(browser.get(reverse("inbox:inbox")).content.decode())
    assert "Club invitations" not in after


def test_the_inbox_declines_a_club_invitation(anna, ben):
    club = closed_club(anna)
    membership.invite(club, anna, ben)

    response = signed_in(ben).post(reverse("clubs:withdraw", args=[club.slug]), {"back": "inbox"})

    assert response["Location"] == reverse("inbox:inbox")
    assert not DoorEntry.objects.filter(club=club).exists()
    assert not Membership.objects.filter(club=club, user=ben).exists()


def test_the_inbox_does_not_list_a_request_to_join(anna, ben):
    club = closed_club(anna)
    membership.join(club, ben)

    page = html.unescape(signed_in(ben).get(reverse("inbox:inbox")).content.decode())

    assert "Club invitations" not in page
