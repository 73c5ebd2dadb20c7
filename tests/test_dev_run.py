"""`make run` is pleasant to watch (issue 20): each email is one line with its link (and kept
in var/mail/), and the page-drawing task logs only its failures."""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

from django.core.mail import EmailMultiAlternatives

from firenze_site.celery import QuietPageDrawing
from firenze_site.dev_mail import EmailBackend

_spec = importlib.util.spec_from_file_location(
    "run_dev", Path(__file__).resolve().parent.parent / "scripts" / "run_dev.py"
)
assert _spec is not None and _spec.loader is not None
run_dev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_dev)


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


def test_it_watches_the_projects_folders_not_the_virtualenv(tmp_path):
    for name in (".venv", "var", "tests", "games", "templates", ".git"):
        (tmp_path / name).mkdir()
    (tmp_path / "manage.py").write_text("")
    assert [path.name for path in run_dev.watched_dirs(tmp_path)] == ["games", "templates"]
    web = run_dev.commands("127.0.0.1:8000", tmp_path)["web"]
    assert str(tmp_path / ".venv") not in web
    assert str(tmp_path / "games") in web


def test_it_shares_one_redis_for_cache_broker_and_streams_without_saving_it(tmp_path):
    environment = run_dev.redis_environment(6399)
    assert environment["CACHE_URL"].startswith("redis://127.0.0.1:6399/")
    assert environment["CELERY_BROKER_URL"].startswith("redis://127.0.0.1:6399/")
    command = run_dev.redis_command("redis-server", 6399, tmp_path)
    assert command[command.index("--save") + 1] == ""
    assert command[command.index("--bind") + 1] == "127.0.0.1"


def test_it_serves_page_redraws_beside_emails_and_bots_apart():
    commands = run_dev.commands("127.0.0.1:8000")
    assert commands["worker"][commands["worker"].index("-Q") + 1] == "celery,pages"
    assert commands["bots"][commands["bots"].index("-Q") + 1] == "bots"
