"""ASGI entry point, kept so an async server can be used later without code changes."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings")

application = get_asgi_application()
