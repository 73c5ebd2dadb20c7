"""Settings for the test suite: fast, hermetic and with no outside services.

Passwords use MD5 because real hashing costs ~0.4 s each and makes hypothesis miss its
deadline; Celery runs tasks inline; e-mail stays in memory (``django.core.mail.outbox``).
"""

import os

# Production is the default (settings.py fails closed); the tests run in development mode.
os.environ.setdefault("DEBUG", "true")

from .settings import *  # noqa: E402, F403
from .settings import ACCOUNT_RATE_LIMITS, DATABASES  # noqa: E402

# Tests play whole games in seconds: far past a person's pace. The limits tests put the
# production rates back (tests/web/test_limits.py).
ACCOUNT_RATE_LIMITS = {**ACCOUNT_RATE_LIMITS, "move": "100000/m/user"}
# Likewise a test player may sit at far more tables than a person could keep up with; the cap's
# own tests set their numbers (tests/web/test_community.py).
ACTIVE_GAMES_BASE = 10_000
ACTIVE_GAMES_MOST = 10_000

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS = {}

# Tests get a fresh in-memory SQLite database unless DATABASE_URL points at e.g. PostgreSQL.
if not os.environ.get("DATABASE_URL"):
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
else:
    DATABASES["default"]["CONN_MAX_AGE"] = 0

# WhiteNoise serves static files straight from the finders, so tests need no `collectstatic`.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Webhook and push tests talk to receivers on the loopback over plain http.
NOTIFICATIONS_ALLOW_HTTP_TARGETS = True
NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS = True
# Push is off unless a test sets a key (tests/web/test_push.py makes one).
WEBPUSH_VAPID_PRIVATE_KEY = ""

# Bots think a few milliseconds in tests: behaviour, not strength, is tested here (strength and
# thinking time are measured in `make bench`).
BOTS_THINK_SECONDS = 0.01
BOTS_REVIEW_SECONDS = 0.01
