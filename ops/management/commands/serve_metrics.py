"""``manage.py serve_metrics``: the Celery workers' metrics for Prometheus.

A worker serves no HTTP, and its processes write their counts (task run times, failures, SQL
time) to its own ``PROMETHEUS_MULTIPROC_DIR``; this small server beside it adds them up for a
scrape. Bind it to an address only Prometheus reaches (it has no access rule of its own).
"""

from __future__ import annotations

import os
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from prometheus_client import CollectorRegistry, multiprocess, start_http_server


class Command(BaseCommand):
    help = "Serve the metrics of this machine's Celery workers (PROMETHEUS_MULTIPROC_DIR)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--address", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=9808)

    def handle(self, *args: Any, **options: Any) -> None:
        if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            raise CommandError("Set PROMETHEUS_MULTIPROC_DIR to the workers' folder.")
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        start_http_server(options["port"], addr=options["address"], registry=registry)
        self.stdout.write(f"Serving worker metrics on {options['address']}:{options['port']}")
        self.stdout.flush()
        threading.Event().wait()
