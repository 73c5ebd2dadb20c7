"""allauth's emails (confirm your address, sign-in codes, password reset...) sent by a Celery
worker instead of inside the web request: a mail server that is slow or gone must not hold a
web worker (no outgoing network call on a web request's path).

The adapter renders the message in the request, in the reader's language (accounts/adapter.py),
and ``queue_email`` hands it to the task as plain data; the worker only sends it, retrying
SMTP errors with backoff. If the broker cannot take it, the message is sent at once instead, so
that a sign-in code is not lost (the forms that send these emails pause while Redis is down:
accounts/forms.py).
"""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from celery import shared_task
from django.core.mail import EmailMessage, EmailMultiAlternatives

log = logging.getLogger(__name__)


def as_data(message: EmailMessage) -> dict[str, Any]:
    """What the task needs to send ``message`` again, as JSON."""
    return {
        "subject": message.subject,
        "body": message.body,
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": dict(message.extra_headers),
        "content_subtype": message.content_subtype,
        "alternatives": [
            [content, mimetype] for content, mimetype in getattr(message, "alternatives", [])
        ],
    }


def from_data(data: dict[str, Any]) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=data["subject"],
        body=data["body"],
        from_email=data["from_email"],
        to=data["to"],
        cc=data["cc"],
        bcc=data["bcc"],
        reply_to=data["reply_to"],
        headers=data["headers"],
    )
    message.content_subtype = data["content_subtype"]
    for content, mimetype in data["alternatives"]:
        message.attach_alternative(content, mimetype)
    return message


@shared_task(
    autoretry_for=(smtplib.SMTPException, OSError),
    retry_backoff=30,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=5,
    soft_time_limit=30,
    time_limit=45,
)
def send_account_email(data: dict[str, Any]) -> None:
    from_data(data).send()


def queue_email(message: EmailMessage) -> None:
    """Hand the rendered message to a worker; sent here only if the broker refuses it."""
    try:
        send_account_email.delay(as_data(message))
    except Exception:
        if getattr(send_account_email.app.conf, "task_always_eager", False):
            raise  # the tests' eager sending: an error is the test's to see
        log.warning("account email not queued (broker unreachable): sent from the request")
        message.send()
