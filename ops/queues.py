"""How many messages wait in each Celery queue, asked of the broker when Prometheus scrapes."""

from __future__ import annotations

from pathlib import Path

import redis
from django.conf import settings

from ops import heartbeats

# kombu's Redis transport keeps priorities 1-9 of a queue in lists of their own beside it.
_PRIORITY_SUFFIXES = ["", *(f"\x06\x16{n}" for n in range(1, 10))]
TIMEOUT = 0.5


def lengths() -> dict[str, int]:
    """Messages waiting per queue (Redis or the filesystem broker; other brokers: none)."""
    url = settings.CELERY_BROKER_URL
    if url.startswith(("redis://", "rediss://")):
        return _redis_lengths(url)
    folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in")
    if url.startswith("filesystem://") and folder:
        return _folder_lengths(Path(str(folder)))
    return {}


def _redis_lengths(url: str) -> dict[str, int]:
    client = redis.Redis.from_url(url, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT)
    try:
        pipe = client.pipeline(transaction=False)
        for queue in heartbeats.queues():
            for suffix in _PRIORITY_SUFFIXES:
                pipe.llen(queue + suffix)
        counts = pipe.execute()
    finally:
        client.close()
    per_queue = len(_PRIORITY_SUFFIXES)
    return {
        queue: sum(counts[i * per_queue : (i + 1) * per_queue])
        for i, queue in enumerate(heartbeats.queues())
    }


def _folder_lengths(folder: Path) -> dict[str, int]:
    names = [path.name for path in folder.glob("*.msg")] if folder.is_dir() else []
    return {
        queue: sum(name.endswith(f".{queue}.msg") for name in names)
        for queue in heartbeats.queues()
    }
