"""Personal API tokens: what lets a program act for a player.

A token is shown once, when it is made; the site keeps only its SHA-256 (a token is 32 random
bytes, so a fast hash is as safe as a slow one and costs each API request microseconds, like
GitHub's tokens). The short ``key_id`` in front of the secret finds the row without a scan.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    class Scope(models.TextChoices):
        READ = "read", _("Read")
        PLAY = "play", _("Read and play")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("Name"), max_length=40)
    scope = models.CharField(_("Access"), max_length=8, choices=Scope.choices)
    key_id = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=64, help_text="SHA-256 of the whole token, hex.")
    created = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"

    @property
    def may_play(self) -> bool:
        return self.scope == self.Scope.PLAY

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
