"""`make run` is pleasant to watch (issue 20): each email is one line with its link (and kept
in var/mail/), and the page-drawing task logs only its failures."""

from __future__ import annotations

import logging

from django.core.mail import EmailMultiAlternatives

from firenze_site.celery import QuietPageDrawing
from firenze_site.dev_mail import EmailBackend


def test_an_email_is_one_line_with_its_link_and_kept_as_a_file(tmp_path, settings, capfd):
    settings.EMAIL_FILE_PATH = tmp_path
    message = EmailMultiAlternatives(
        subject="Your turn in Quick one",
        body="Hello Anna,\n\nIt is your turn:\nhttp://localhost:8000/email/play/3/abc/\n\n"
        "Stop these: http://localhost:8000/email/unsubscribe/xyz/\n",
        to=["anna@example.com"],
    )
    assert EmailBackend().send_messages([message]) == 1
    lines = capfd.readouterr().out.splitlines()
    assert len(lines) == 1
    assert (
        "anna@example.com: Your turn in Quick one → http://localhost:8000/email/play/3/abc/"
        in (lines[0])
    )
    [kept] = tmp_path.glob("*.eml")
    assert b"Subject: Your turn in Quick one" in kept.read_bytes()


def record(level: int, message: str) -> logging.LogRecord:
    return logging.LogRecord("celery.app.trace", level, __file__, 1, message, None, None)


def test_the_page_drawing_task_logs_only_its_failures():
    quiet = QuietPageDrawing()
    assert not quiet.filter(record(logging.INFO, "Task games.tasks.draw_pages[1] succeeded"))
    assert quiet.filter(record(logging.ERROR, "Task games.tasks.draw_pages[1] raised"))
    assert quiet.filter(record(logging.INFO, "Task notifications.tasks.send[2] succeeded"))
    assert QuietPageDrawing in {type(f) for f in logging.getLogger("celery.app.trace").filters}
