"""Celery application for Firenze.

Settings come from Django's settings under the ``CELERY_`` prefix, so the broker can be
swapped (filesystem in development, Redis in production) with one environment variable.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings")

app = Celery("firenze_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
