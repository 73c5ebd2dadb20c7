"""The email backend of `make run`: every message is kept in var/mail/ (one .eml file each,
readable by any mail program) and announced in the terminal as one line, with the link a
player would click, instead of the whole message among the task logs."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage

LINK = re.compile(r"https?://[^\s<>\"')]+")


def first_link(message: EmailMessage) -> str:
    """The first link of the plain text body that is not an unsubscribe link."""
    for link in LINK.findall(str(message.body)):
        if "/unsubscribe/" not in link:
            return link
    return ""


def summary(message: EmailMessage, path: Path) -> str:
    to = ", ".join(message.to)
    link = first_link(message)
    where = f" → {link}" if link else ""
    return f"✉  {to}: {message.subject}{where}  ({path.name})"


class EmailBackend(BaseEmailBackend):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.folder = Path(getattr(settings, "EMAIL_FILE_PATH", "var/mail"))

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        self.folder.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = self.folder / f"{stamp}.eml"
            path.write_bytes(message.message().as_bytes())
            # The terminal itself: a Celery worker would log its stdout as a WARNING line.
            print(summary(message, path), file=sys.__stdout__ or sys.stdout, flush=True)
            sent += 1
        return sent
