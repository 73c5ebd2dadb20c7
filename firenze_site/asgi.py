"""ASGI entry point: uvicorn serves the live event streams (async views) from it, and `make run`
serves the whole site from it. Production may serve pages with gunicorn (wsgi.py) and
/streams/ with uvicorn: docs/api.md."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings")

application = get_asgi_application()
