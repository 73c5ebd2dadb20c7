"""Error reports (Sentry) and traces (OpenTelemetry), each switched on by the environment and
off by default: nothing leaves the site unless the operator names where it goes.

- ``SENTRY_DSN``: errors of web requests and Celery tasks go to Sentry (no personal data:
  ``send_default_pii`` stays off); ``SENTRY_TRACES_SAMPLE_RATE`` (default 0) adds traces.
- ``OTEL_EXPORTER_OTLP_ENDPOINT``: Django's requests are traced and exported over OTLP/HTTP
  (the exporter reads the other standard ``OTEL_*`` variables itself); ``OTEL_SERVICE_NAME``
  names the process (default ``firenze``).
"""

from __future__ import annotations

import os


def setup() -> list[str]:
    """Switch on what the environment asks for; the names of what was switched on."""
    enabled = []
    if os.environ.get("SENTRY_DSN"):
        _sentry(os.environ["SENTRY_DSN"])
        enabled.append("sentry")
    if os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT"):
        _opentelemetry()
        enabled.append("opentelemetry")
    return enabled


def _sentry(dsn: str) -> None:
    import sentry_sdk

    sentry_sdk.init(
        dsn=dsn,
        send_default_pii=False,
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
    )


def _opentelemetry() -> None:
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.instrumentation.django import DjangoInstrumentor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    name = os.environ.get("OTEL_SERVICE_NAME", "firenze")
    provider = TracerProvider(resource=Resource.create({"service.name": name}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    DjangoInstrumentor().instrument()
