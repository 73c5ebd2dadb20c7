"""Django project package for Firenze.

The Celery app is imported here so that it is created whenever Django starts, which makes
``@shared_task`` functions in the apps bind to it (the pattern Celery's Django guide uses).
"""

from .celery import app as celery_app

__all__ = ("celery_app",)
