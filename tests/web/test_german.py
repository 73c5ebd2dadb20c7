"""Every page and every email kind in German has no English left in it, outside names.

Each page is rendered for a German player (and a German browser for visitors), the same page in
English must differ from it, and the German text a player meets (visible text, plus the titles,
labels and placeholders a screen reader or a hover shows) is searched for common English words
after taking out names: players', bots', game titles, card names (docs/rules.md §2.3 keeps them
English), product names (Firenze, Discord, Slack, Webhook) and addresses.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat import services as chat
from games import lobby
from games.models import Absence
from games.rules.firenze.rules.cards import CARDS
from notifications import emails, links, outbox, preferences, tasks
from notifications.models import Notification, PushSubscription, Webhook
from tests.web.helpers import signed_in
from tests.web.test_notifications import new_game, play_until, second_turn_of
from tests.web.test_notifications_emails import send

pytestmark = pytest.mark.django_db

# Words of everyday English that are not German words: any of them in a German page is a string
# someone forgot to mark or translate.
ENGLISH = frozenset(
    re.findall(
        r"\w+",
        "the and of to is you your with for this that are be has have will from by on at it its "
        "which when what who there here game games turn turns player players seat seats sign "
        "email emails page pages back more than only any every been were would could should not "
        "yet other others after before until while about into out up down just now new open "
        "over left right take taken their they them our we us my me how why where one two three "
        "first last next previous show hide save send remove delete cancel join leave start "
        "started finished ended won lost rating rated score scores board card cards hands build "
        "tower towers level brick bricks seal seals commission commissions log step steps "
        "replay history leaderboard players invite invited invitation account password settings "
        "notifications preferences away holiday days hours minutes ago left time ",
    )
)
NAMES = {
    "Firenze",
    "Discord",
    "Slack",
    "Webhook",
    "Webhooks",
    "VAPID",
    "JSON",
    "UTC",
    "HTML",
    "openskill",
    "Campanile",
    "Push",
    "https",
    "Autopilot",
    "Bot",
    "Bots",
    "Replay",
}
CARD_NAMES = sorted(CARDS, key=len, reverse=True)

HIDDEN = re.compile(r"<(script|style|template|svg)\b.*?</\1>", re.S | re.I)
# The time zone list: IANA names ("America/Port_of_Spain") are names.
ZONES = re.compile(r'<select name="time_zone".*?</select>', re.S)
ATTRIBUTE = re.compile(r'\b(?:title|aria-label|placeholder|alt|content)="([^"]*)"')
INLINE = re.compile(r"</?(?:a|span|b|strong|em|small|i|abbr)\b[^>]*>")
TAG = re.compile(r"<[^>]+>")


def player_text(html: str) -> str:
    """What a player reads or hears: visible text and the spoken or hovered attributes."""
    html = ZONES.sub(" ", HIDDEN.sub(" ", html))
    html = re.sub(
        r"<head\b.*?</head>",
        lambda m: " ".join(re.findall(r"<title>(.*?)</title>", m.group(0), re.S)),
        html,
        flags=re.S,
    )
    attributes = " ".join(ATTRIBUTE.findall(html))
    text = unescape(TAG.sub(" ", INLINE.sub("", html)) + " " + attributes)
    return " ".join(text.split())


def english_words(text: str, names: set[str]) -> list[str]:
    for card in CARD_NAMES:
        text = text.replace(card, " ")
    for name in sorted(names | NAMES, key=len, reverse=True):
        text = text.replace(name, " ")
    text = re.sub(r"\S+@\S+|https?://\S+|/\S*", " ", text)
    words = re.findall(r"[A-Za-zÄÖÜäöüß]+", text)
    return sorted({w for w in words if w.lower() in ENGLISH})


@pytest.fixture
def cast(anna, ben, carla, dario):
    """A German player (Anna) in every situation the pages show: a game in progress with table
    talk, a forming game with invitations, a finished game, an absence, a webhook and a device;
    Ben plays on in English."""
    for user in (anna, carla, dario):
        user.language = "de"
        user.save()
    playing = new_game(anna, ben, carla, seed=1504)
    play_until(playing, second_turn_of(anna))
    chat.post(playing, ben, "Hello table")
    forming = lobby.create_game(anna, num_players=4, name="Friday towers", is_public=False)
    lobby.join(forming, dario, token=forming.invite_token)
    lobby.invite(forming, anna, "Carla")
    lobby.invite_by_email(forming, anna, "newcomer@example.com")
    finished = new_game(anna, ben, seed=1966)
    play_until(finished, lambda g: False)
    now = timezone.now()
    Absence.objects.create(user=anna, starts=now + timedelta(days=9), ends=now + timedelta(days=12))
    Webhook.objects.create(
        user=anna, url="https://discord.com/api/webhooks/1/x", failures=2, last_error="HTTP 500"
    )
    PushSubscription.objects.create(
        user=anna,
        endpoint="https://push.example/1",
        p256dh="x",
        auth="y",
        device="Firefox on Android",
    )
    return {
        "anna": anna,
        "ben": ben,
        "carla": carla,
        "dario": dario,
        "playing": playing,
        "forming": forming,
        "finished": finished,
    }


def names_of(cast) -> set[str]:
    names = {u.public_name for u in (cast["anna"], cast["ben"], cast["carla"], cast["dario"])}
    for game in (cast["playing"], cast["forming"], cast["finished"]):
        names |= {seat.name for seat in game.seats.all()}
    return names | {
        "Friday towers",
        "Hello table",
        "Lorenzo",
        "Cosimo",
        "Filippo",
        "Giotto",
        "Matilde",
        "Dante",
    }


def pages(cast) -> list[tuple[str, str | None, str]]:
    """(name, who, address) of every page: who is a cast member, or None for a visitor."""
    playing, forming, finished = cast["playing"].pk, cast["forming"].pk, cast["finished"].pk
    message = cast["playing"].chat_messages.first().pk
    anna = cast["anna"]
    return [
        ("home", None, "/"),
        ("lobby", "anna", "/games/"),
        ("my games", "anna", "/games/mine/"),
        ("create", "anna", "/games/new/"),
        ("forming (creator)", "anna", f"/games/{forming}/"),
        ("forming (invited)", "carla", f"/games/{forming}/"),
        ("forming (visitor)", None, f"/games/{forming}/?token={cast['forming'].invite_token}"),
        ("history", "anna", "/games/history/"),
        ("leaderboard", None, "/players/"),
        ("profile", "anna", f"/players/{cast['ben'].display_name}/"),
        ("own profile", "anna", f"/players/{anna.display_name}/"),
        ("away", "anna", "/games/away/"),
        ("game in progress", "anna", f"/games/{playing}/"),
        ("game watched", None, f"/games/{playing}/"),
        ("whole log", "anna", f"/games/{playing}/log/"),
        ("game over", "anna", f"/games/{finished}/"),
        ("replay", "anna", f"/games/{finished}/replay/?step=5"),
        ("rules", None, "/rules/"),
        ("resign", "anna", f"/games/{playing}/resign/"),
        ("replay not over", "anna", f"/games/{playing}/replay/"),
        ("chat thread", "anna", f"/games/{playing}/chat/"),
        ("report", "anna", f"/games/{playing}/chat/{message}/report/"),
        ("account", "anna", "/accounts/profile/"),
        ("notification settings", "anna", "/accounts/notifications/"),
        ("delete account", "anna", "/accounts/delete/"),
        ("sign up", None, "/accounts/signup/"),
        ("sign in", None, "/accounts/login/"),
        ("password reset", None, "/accounts/password/reset/"),
        ("email link: bad", None, "/email/unsubscribe/nonsense/"),
        ("unsubscribe", None, links.unsubscribe_url(anna, "invitations").split("8000", 1)[1]),
        ("not found", "anna", "/games/999999/"),
        ("inbox", "anna", "/inbox/"),
        ("play against bots", "anna", "/games/bots/"),
        ("notepad", "anna", f"/games/{playing}/notes/"),
    ]


def client_for(cast, who: str | None, language: str) -> Client:
    if who is None:
        return Client(HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.1")
    user = cast[who]
    user.language = language
    user.save(update_fields=["language"])
    client = signed_in(user)
    client.get("/")  # allauth's recent sign-in, as after the password form
    session = client.session
    session["account_authentication_methods"] = [
        {"method": "password", "at": timezone.now().timestamp()}
    ]
    session.save()
    return client


def test_it_renders_every_page_in_german_with_no_english_left(cast):
    names = names_of(cast)
    problems = []
    for name, who, path in pages(cast):
        german = client_for(cast, who, "de").get(path)
        english = client_for(cast, who, "en").get(path)
        assert german.status_code in (200, 400, 403, 404), (name, german.status_code)
        german_text = player_text(german.content.decode())
        assert german_text != player_text(english.content.decode()), name
        leftovers = english_words(german_text, names)
        if leftovers:
            problems.append(f"{name} ({path}): {leftovers}")
    assert not problems, "English in German pages:\n" + "\n".join(problems)


def email_kinds(cast) -> list[tuple[str, object]]:
    """(name, the German email) of every kind the site sends."""
    anna, playing, finished, forming = (
        cast["anna"],
        cast["playing"],
        cast["finished"],
        cast["forming"],
    )
    preferences.save(anna, {(preferences.NEW_MESSAGES, "email"): "on"})
    sent = [
        ("your turn", send(anna, Notification.Kind.YOUR_TURN, playing)),
        ("reminder", send(anna, Notification.Kind.REMINDER, playing)),
        ("game started", send(cast["carla"], Notification.Kind.GAME_STARTED, playing)),
        (
            "timed out",
            send(anna, Notification.Kind.TIMED_OUT, playing, {"autopilot": True, "timeouts": 3}),
        ),
        ("invited", send(cast["carla"], Notification.Kind.INVITED, forming, {"by": "Anna"})),
        ("game over", send(anna, Notification.Kind.GAME_OVER, finished)),
        ("table full", send(anna, Notification.Kind.TABLE_FULL, forming)),
        ("new messages", send(anna, Notification.Kind.NEW_MESSAGES, playing)),
    ]
    webhook_off = outbox.notify(
        anna,
        Notification.Kind.WEBHOOK_OFF,
        key="test:webhook-off",
        context={"error": "HTTP 500", "failures": 10},
    )
    mail.outbox.clear()
    tasks.send_notification(webhook_off.pk)
    sent.append(("webhook off", mail.outbox[-1]))
    sent.append(
        (
            "digest",
            emails.digest_message(
                anna,
                [
                    Notification(
                        user=anna,
                        game=playing,
                        kind=Notification.Kind.YOUR_TURN,
                        context={"since": 0, "upto": playing.version},
                    )
                ],
            ),
        )
    )
    invitation = forming.invitations.exclude(email="").first()
    sent.append(("invited by email", emails.address_invitation_message(invitation)))
    mail.outbox.clear()
    Client(HTTP_ACCEPT_LANGUAGE="de").post(reverse("account_reset_password"), {"email": anna.email})
    sent.append(("password reset (allauth)", mail.outbox[-1]))
    return sent


def test_it_writes_every_email_kind_in_german_with_no_english_left(cast):
    names = names_of(cast)
    problems = []
    kinds = email_kinds(cast)
    for name, message in kinds:
        [(html, _mimetype)] = message.alternatives or [("", "")]
        text = player_text("\n".join([message.subject, message.body, html]))
        leftovers = english_words(text, names)
        if leftovers:
            problems.append(f"{name}: {leftovers}")
    assert len(kinds) >= 12
    assert not problems, "English in German emails:\n" + "\n".join(problems)
