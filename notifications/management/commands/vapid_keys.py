"""Make a VAPID key pair for Web Push.

``manage.py vapid_keys`` prints a new private key (for WEBPUSH_VAPID_PRIVATE_KEY) and its
public key. ``--dev-file`` instead writes var/vapid-dev.key once, if there is none: the key the
development settings use when the environment has none (``make run`` calls it), so push works
on localhost out of the box.
"""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.management.base import BaseCommand


def new_private_key() -> tuple[str, str]:
    """(private, public): the raw private number and the uncompressed public point, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )

    def encode(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    return encode(private), encode(public)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push (or write the development key file)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--dev-file",
            action="store_true",
            help="Write var/vapid-dev.key if it does not exist (development only).",
        )

    def handle(self, *args: Any, dev_file: bool = False, **options: Any) -> None:
        private, public = new_private_key()
        if not dev_file:
            self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={private}\n# public key: {public}")
            return
        path = settings.VAR_DIR / "vapid-dev.key"
        if path.exists():
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(private + "\n")
        path.chmod(0o600)
        self.stdout.write(f"Development VAPID key written to {path}")
