"""WSGI entry point, used by gunicorn in production: ``gunicorn firenze_site.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings")

application = get_wsgi_application()
