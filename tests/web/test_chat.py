"""Table talk: seated players write, everyone who may see the game reads; new messages ride the
game page's poll; hostile input is refused with a clear error and stores nothing; deleting,
muting, reporting; unread counts; chat in turn emails and "new messages" emails.

The cast: Anna, Ben and Carla sit at the table (a public game), Dario watches.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chat import services
from chat.models import Message, Report
from games.models import Game
from games.rules.firenze import rules
from notifications import outbox, preferences, tasks
from notifications.models import Notification
from tests.web.helpers import HTMX, game_page, play_greedy, post_move, signed_in, started_game
from tests.web.test_notifications import acting_user, new_game, play_until, turn_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(anna, ben, carla):
    return started_game(anna, ben, carla)


def say(client: Client, game: Game, text, *, htmx: bool = True):
    headers = HTMX if htmx else {}
    return client.post(reverse("chat:post", args=[game.pk]), {"text": text}, **headers)


def thread_of(page: str) -> str:
    return re.search(r'<div id="chat-thread".*?</ol>', page, re.S).group(0)


def texts_in(page: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", text).strip()
        for text in re.findall(r'<p class="chat-text">(.*?)</p>', page, re.S)
    ]


# --- writing and reading --------------------------------------------------------------------


def test_it_lets_seated_players_write_and_everyone_who_sees_the_game_read(game, anna, ben, dario):
    answer = say(signed_in(anna), game, "Good luck, everyone!")
    assert answer.status_code == 200
    assert answer["HX-Trigger"] == "chat-sent"
    assert "Good luck, everyone!" in answer.content.decode()

    for viewer in (signed_in(ben), signed_in(dario), Client()):
        page = game_page(viewer, game)
        assert texts_in(thread_of(page)) == ["Good luck, everyone!"]
        author = '<a class="player-link" href="/players/Anna/">Anna</a>'
        assert f'<strong class="chat-author">{author}</strong>' in page
    assert 'id="chat-form"' in game_page(signed_in(ben), game)
    watcher = game_page(signed_in(dario), game)
    assert 'id="chat-form"' not in watcher
    assert "Only the players at this table can write here." in watcher

    refused = say(signed_in(dario), game, "Let me in!", htmx=False)
    assert refused.status_code == 403
    assert Message.objects.count() == 1


def test_it_hides_a_private_games_talk_from_strangers(anna, ben, dario):
    game = started_game(anna, ben)
    Game.objects.filter(pk=game.pk).update(is_public=False)
    say(signed_in(anna), game, "Just us")
    for path in (reverse("chat:thread", args=[game.pk]), reverse("games:detail", args=[game.pk])):
        assert signed_in(dario).get(path).status_code == 404
        assert Client().get(path).status_code == 404
    assert say(signed_in(dario), game, "hello?").status_code == 404
    assert "Just us" in signed_in(ben).get(reverse("chat:thread", args=[game.pk])).content.decode()


def test_it_shows_text_escaped_with_its_links_clickable(game, anna):
    say(signed_in(anna), game, "I <3 this & a < b\nsee https://example.com/rules?a=1&b=2 now")
    page = game_page(signed_in(anna), game)
    shown = re.search(r'<p class="chat-text">(.*?)</p>', page, re.S).group(1)
    assert shown.startswith("I &lt;3 this &amp; a &lt; b<br>see ")
    assert (
        '<a href="https://example.com/rules?a=1&amp;b=2" rel="nofollow ugc noopener noreferrer" '
        'target="_blank">https://example.com/rules?a=1&amp;b=2</a> now'
    ) in shown


HOSTILE = [
    ("<script>alert(1)</script>", "HTML tags such as <b> are not allowed"),
    ('<img src=x onerror="alert(1)">', "HTML tags such as <b> are not allowed"),
    ("x" * 10_000, "at most 500 characters; this one has 10000"),
    ("x" * 501, "at most 500 characters; this one has 501"),
    ("bell\x07", "cannot contain control characters"),
    ("nul\x00byte", "Null characters are not allowed"),
    ("\u202eevil", "invisible formatting characters (U+202E)"),
    ("zero\u200bwidth", "invisible formatting characters (U+200B)"),
    ("   \n\n  ", "Write something first."),
    ("", "Write something first."),
    ("line\n" * 13, "at most 12 lines"),
]


@pytest.mark.parametrize(("text", "error"), HOSTILE)
def test_it_refuses_hostile_input_with_a_clear_error_and_stores_nothing(game, anna, text, error):
    client = signed_in(anna)
    answer = say(client, game, text)
    assert answer.status_code == 200  # htmx swaps the thread with the error in it
    assert "chat-sent" not in answer.get("HX-Trigger", "")
    assert re.search(
        r'<p id="chat-error" class="error" role="alert">[^<]*', answer.content.decode()
    )
    assert error.replace("<", "&lt;").replace(">", "&gt;") in answer.content.decode()

    plain = say(client, game, text, htmx=False)
    assert plain.status_code == 400
    assert error.replace("<", "&lt;").replace(">", "&gt;") in plain.content.decode()

    assert Message.objects.count() == 0
    assert Game.objects.get(pk=game.pk).chat_version == 0


def test_it_refuses_a_post_without_text_or_with_strange_fields(game, anna):
    client = signed_in(anna)
    url = reverse("chat:post", args=[game.pk])
    assert client.post(url, {}, **HTMX).status_code == 200
    assert client.post(url, {"text": ["a", "b"]}, **HTMX).status_code == 200  # last value wins
    assert client.post(url, {"game": 999, "text": "x" * 20_000}).status_code == 400
    assert Message.objects.filter(text__in=["a", "b"]).count() <= 1
    assert client.get(url).status_code == 405


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=st.text(max_size=700))
def test_it_never_answers_500_whatever_is_posted(game, anna, text):
    before = Message.objects.count()
    answer = signed_in(anna).post(reverse("chat:post", args=[game.pk]), {"text": text}, **HTMX)
    assert answer.status_code == 200
    stored = Message.objects.count() - before
    if "chat-sent" in answer.get("HX-Trigger", ""):
        assert stored == 1
        assert Message.objects.latest("pk").text == services.clean_text(text)
    else:
        assert stored == 0
        assert 'id="chat-error"' in answer.content.decode()
    Message.objects.all().delete()  # keep the rate limit out of the way


def test_it_limits_each_player_to_ten_messages_a_minute(game, anna):
    client = signed_in(anna)
    for number in range(10):
        assert say(client, game, f"message {number}")["HX-Trigger"] == "chat-sent"
    refused = say(client, game, "one too many", htmx=False)
    assert refused.status_code == 429
    assert "at most 10 messages a minute" in refused.content.decode()
    assert Message.objects.count() == 10
    Message.objects.update(created=timezone.now() - timedelta(minutes=2))
    assert say(client, game, "later")["HX-Trigger"] == "chat-sent"


def test_it_refuses_ids_of_other_games_messages(game, anna, ben, carla):
    other = started_game(ben, carla)
    say(signed_in(ben), other, "elsewhere")
    foreign = Message.objects.get(game=other)
    client = signed_in(anna)
    for name in ("chat:delete", "chat:mute"):
        answer = client.post(reverse(name, args=[game.pk, foreign.pk]), **HTMX)
        assert "There is no such message in this game." in answer.content.decode()
    report = client.get(reverse("chat:report", args=[game.pk, foreign.pk]))
    assert report.status_code == 404
    assert "There is no such message in this game." in report.content.decode()
    assert Message.objects.get(pk=foreign.pk).text == "elsewhere"
    assert not Report.objects.exists()


# --- the poll -------------------------------------------------------------------------------


def test_it_brings_new_messages_with_the_games_poll_without_making_moves_stale(game, anna, ben):
    mover = acting_user(game)
    watcher = signed_in(ben if mover != ben else anna)
    page = game_page(watcher, game)
    version, chat = (int(x) for x in re.search(r'\?v=(\d+)&amp;c=(\d+)[&"]', page).groups())
    poll = reverse("games:version", args=[game.pk])
    assert watcher.get(poll, {"v": version, "c": chat}).status_code == 204

    say(signed_in(mover), game, "Thinking...")
    changed = watcher.get(poll, {"v": version, "c": chat})
    assert changed.status_code == 200 and changed["HX-Trigger"] == "game-changed"
    assert changed.json() == {"version": version, "chat": chat + 1}
    refreshed = watcher.get(reverse("games:detail", args=[game.pk]), **HTMX).content.decode()
    assert texts_in(refreshed) == ["Thinking..."]
    assert f"?v={version}&amp;c={chat + 1}" in refreshed
    assert watcher.get(poll, {"v": version, "c": chat + 1}).status_code == 204

    # The mover's page was drawn before the message: its move is not stale.
    action = rules.legal_actions(game.load_state())[0]
    assert post_move(signed_in(mover), game, action, version).status_code == 200
    game.refresh_from_db()
    assert game.version == version + 1 and game.chat_version == chat + 1


def test_it_counts_unread_messages_since_the_players_last_visit(game, anna, ben):
    assert "unread" not in thread_of(game_page(signed_in(ben), game))
    for text in ("one", "two", "three"):
        say(signed_in(anna), game, text)
    page = game_page(signed_in(ben), game)
    assert '<span class="badge chat-unread">3 unread</span>' in page
    assert page.count('<span class="chat-new">new</span>') == 3
    assert "chat-unread" not in game_page(signed_in(ben), game)  # seen now
    assert "chat-unread" not in game_page(signed_in(anna), game)  # her own are never unread
    say(signed_in(anna), game, "four")
    assert '<span class="badge chat-unread">1 unread</span>' in game_page(signed_in(ben), game)


# --- deleting, muting, reporting ------------------------------------------------------------


def test_it_lets_a_player_delete_their_own_message_within_five_minutes(game, anna, ben):
    say(signed_in(anna), game, "oops, wrong game")
    message = Message.objects.get()
    delete = reverse("chat:delete", args=[game.pk, message.pk])
    assert 'action="' + delete in game_page(signed_in(anna), game)
    assert delete not in game_page(signed_in(ben), game)

    refused = signed_in(ben).post(delete, **HTMX)
    assert "You can only delete your own messages." in refused.content.decode()
    assert signed_in(anna).post(delete).status_code == 302
    for viewer in (anna, ben):
        page = game_page(signed_in(viewer), game)
        assert "message deleted" in page and "oops, wrong game" not in page
    assert Message.objects.get().text == ""

    say(signed_in(anna), game, "this one stays")
    late = Message.objects.latest("pk")
    Message.objects.filter(pk=late.pk).update(created=timezone.now() - timedelta(minutes=6))
    answer = signed_in(anna).post(reverse("chat:delete", args=[game.pk, late.pk]), **HTMX)
    assert "only in the first 5 minutes" in answer.content.decode()
    assert Message.objects.get(pk=late.pk).text == "this one stays"


def test_it_collapses_a_muted_players_messages_everywhere(game, anna, ben, carla):
    say(signed_in(anna), game, "You will regret this")
    message = Message.objects.get()
    assert signed_in(ben).post(reverse("chat:mute", args=[game.pk, message.pk])).status_code == 302

    page = game_page(signed_in(ben), game)
    assert '<details class="chat-muted"><summary>Muted player: show message</summary>' in page
    assert "chat-unread" not in page
    assert '<details class="chat-muted">' not in game_page(signed_in(carla), game)
    settings_page = signed_in(ben).get(reverse("notification_settings:page")).content.decode()
    assert "<strong>Anna</strong>" in settings_page
    shown, muted = services.messages_since(game, ben, None)
    assert (shown, muted) == ([], 1)

    unmute = reverse("chat:unmute", args=[anna.pk])
    signed_in(ben).post(unmute, {"game": game.pk})
    assert '<details class="chat-muted">' not in game_page(signed_in(ben), game)


def test_it_records_reports_for_the_moderators(game, anna, carla):
    say(signed_in(anna), game, "rude words")
    message = Message.objects.get()
    report = reverse("chat:report", args=[game.pk, message.pk])
    form = signed_in(carla).get(report)
    assert form.status_code == 200 and "rude words" in form.content.decode()
    answer = signed_in(carla).post(report, {"reason": "Insults"})
    assert answer.status_code == 302
    saved = Report.objects.get()
    assert (saved.reporter, saved.reason, saved.text) == (carla, "Insults", "rude words")
    assert signed_in(anna).post(report, {"reason": "me"}).status_code == 400  # not her own

    moderator = get_user_model().objects.create_superuser("mod", "mod@example.com", "x")
    listing = signed_in(moderator).get("/admin/chat/report/").content.decode()
    assert "rude words" in listing and "Insults" in listing


# --- kept with the game ---------------------------------------------------------------------


def test_it_keeps_messages_after_the_end_and_knows_when_each_was_written(game, anna, ben):
    say(signed_in(anna), game, "before any move")
    play_greedy(game, 5)
    say(signed_in(ben), game, "after five moves")
    assert [m.after_move for m in Message.objects.all()] == [0, 5]
    assert [m.text for m in services.messages_until(game, 4)] == ["before any move"]
    play_greedy(game)
    assert game.is_finished
    page = game_page(Client(), game)
    assert "Game over" in page
    assert texts_in(page) == ["before any move", "after five moves"]
    assert say(signed_in(ben), game, "gg")["HX-Trigger"] == "chat-sent"


# --- in emails ------------------------------------------------------------------------------


def test_it_lists_the_table_talk_since_the_players_last_move_in_the_turn_email(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    game = new_game(anna, ben, carla)
    play_until(game, turn_of(anna))
    say(signed_in(ben), game, "Old news")
    play_until(game, lambda g: acting_user(g) != anna)  # Anna plays her whole turn
    Message.objects.update(created=timezone.now() - timedelta(hours=1))
    say(signed_in(ben), game, "Nice move, Anna")
    say(signed_in(carla), game, "Watch the red tower")
    play_until(game, turn_of(anna))
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        outbox.notify(anna, "your_turn", game=game, key="your_turn:chat-test")
    email = mail.outbox[-1]
    assert "Table talk:\n  Ben: Nice move, Anna\n  Carla: Watch the red tower\n" in email.body
    assert "Old news" not in email.body
    html = email.alternatives[0][0]
    assert "<strong>Ben:</strong> Nice move, Anna" in html


def test_it_emails_new_messages_at_most_hourly_only_to_players_who_chose_it(
    game, anna, ben, carla, django_capture_on_commit_callbacks
):
    acting = acting_user(game)
    writer = next(u for u in (anna, ben, carla) if u != acting)
    reader = next(u for u in (anna, ben, carla) if u not in (acting, writer))
    with django_capture_on_commit_callbacks(execute=True):
        say(signed_in(writer), game, "Anyone there?")
    assert not Notification.objects.filter(kind="new_messages").exists()  # off by default

    for user in (reader, acting):
        preferences.save(user, {("new_messages", "email"): "on"})
    with django_capture_on_commit_callbacks(execute=True):
        say(signed_in(writer), game, "Hello?")
    with django_capture_on_commit_callbacks(execute=True):
        say(signed_in(writer), game, "Hello again")
    sent = [m for m in mail.outbox if m.subject == f"New messages in Game {game.pk}"]
    assert [m.to for m in sent] == [[reader.email]]  # the player to move gets none
    assert "Anyone there?" in sent[0].body and "Hello?" in sent[0].body
    assert "Hello again" not in sent[0].body  # written after the email went
    assert "/email/unsubscribe/" in sent[0].body and "Stop “New messages” emails" in sent[0].body

    Notification.objects.filter(kind="new_messages").update(
        created=timezone.now() - timedelta(minutes=61)
    )
    game_page(signed_in(reader), game)  # read everything
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        say(signed_in(writer), game, "An hour later")
    assert [m.to for m in mail.outbox] == [[reader.email]]


def test_it_skips_a_new_messages_email_the_player_has_read_meanwhile(
    game, anna, ben, carla, django_capture_on_commit_callbacks
):
    acting = acting_user(game)
    writer, reader = [u for u in (anna, ben, carla) if u != acting]
    preferences.save(reader, {("new_messages", "email"): "on"})
    say(signed_in(writer), game, "Quick question")  # the row is written, not sent (no commit)
    row = Notification.objects.get(kind="new_messages", channel="email")
    game_page(signed_in(reader), game)
    Notification.objects.filter(pk=row.pk).update(created=timezone.now() - timedelta(minutes=2))
    tasks.send_pending()
    row.refresh_from_db()
    assert (row.status, row.last_error) == ("skipped", "they have read the messages")
    assert mail.outbox == []
