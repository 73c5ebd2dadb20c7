"""The heartbeats of the background processes, read by the readiness probe."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Heartbeat(models.Model):
    """When a part of the site last said it was alive: ``beat``, or ``worker:<queue>`` for a
    worker that ran the heartbeat task of that queue. In the database rather than the cache so
    that every process sees it whatever the cache is (per-process memory in development)."""

    name = models.CharField(max_length=60, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"

    @classmethod
    def beat(cls, name: str) -> None:
        cls.objects.update_or_create(name=name, defaults={"at": timezone.now()})
