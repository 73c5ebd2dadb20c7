"""Celery tasks that send notifications (e.g. "it is your turn") outside the request cycle.

Tasks defined here with ``@shared_task`` are found by ``app.autodiscover_tasks()``. None yet.
"""
