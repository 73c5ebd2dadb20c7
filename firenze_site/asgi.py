"""ASGI entry point: uvicorn serves the live event streams (async views) from it, and `make run`
serves the whole site from it. Production may serve pages with gunicorn (wsgi.py) and
/streams/ with uvicorn: docs/api.md."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings")

django_application = get_asgi_application()

from streams.asgi import with_streams  # noqa: E402 - after Django is set up

# /streams/ is answered by streams.asgi without Django's per-request thread (an idle stream
# costs tens of kilobytes, not hundreds); everything else by Django.
application = with_streams(django_application)
