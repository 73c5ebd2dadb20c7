"""Django settings for Firenze.

Twelve-factor style: everything that differs between a laptop and production comes from
environment variables. Settings fail closed: with nothing set this is production (DEBUG off,
HTTPS, HSTS), which refuses to start without a SECRET_KEY and a shared cache (CACHE_URL).
Development opts in with DEBUG=true (``make run`` and the test settings do), and then the
defaults suit a laptop (SQLite, a filesystem Celery broker, e-mail printed to the console).
Runtime files all live under ``var/`` so a checkout stays clean.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean flag; "1", "true", "yes" and "on" (any case) mean True."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    """Read a comma-separated list, ignoring blanks."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# --- Core -----------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", False)
# The fallback key is only for development; with DEBUG off a real key is required.
DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"
SECRET_KEY = os.environ.get("SECRET_KEY", "")


def weak_secret_key(key: str) -> str:
    """Why a key must not sign production's sessions, links and tokens (empty if it may): the
    rules of Django's check --deploy (security.W009), enforced at start."""
    if len(key) < 50:
        return "it has fewer than 50 characters"
    if len(set(key)) < 5:
        return "it has fewer than 5 different characters"
    if key == DEV_SECRET_KEY or key.startswith("django-insecure-") or "insecure" in key.lower():
        return "it is a development key"
    return ""


if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (production is the default; set "
            "DEBUG=true for development, as `make run` does)."
        )
    SECRET_KEY = DEV_SECRET_KEY
elif not DEBUG and weak_secret_key(SECRET_KEY):
    raise ImproperlyConfigured(
        f"SECRET_KEY is refused in production: {weak_secret_key(SECRET_KEY)}. Make one with "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# The site's own name, as page titles and emails say it (an email about a game names the game:
# "Your turn in Nim").
SITE_NAME = os.environ.get("SITE_NAME", "Firenze")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "csp",
    "games",
    "games.rules.firenze",
    "accounts",
    "notifications",
    "players",
    "chat",
    "bots",
    # The public API (/api/v1/, personal tokens, bot accounts) and the live event streams.
    "ninja",
    "corsheaders",
    "api",
    "streams",
    "inbox",
    "tournaments",
    "plans",
    "community",
    "clubs",
    # Readiness, metrics, request and task logs, backups (docs/operations.md).
    "ops",
]

MIDDLEWARE = [
    # Outermost: every request's metrics and JSON log line, with its request id (ops/observe.py).
    "ops.observe.RequestObservationMiddleware",
    # HEAD runs as GET and goes back without the body: every page answers HEAD as it answers
    # GET (firenze_site/request_guards.py).
    "firenze_site.request_guards.HeadAsGetMiddleware",
    # The version poll (most of the traffic) answered from the shared cache before the rest of
    # the stack runs; it adds the headers of the middleware below itself (games/poll.py).
    "games.poll.PollMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # CORS for /api/ only, and closed unless API_CORS_ORIGINS names origins (api/ docs).
    "corsheaders.middleware.CorsMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # One request's shared-cache reads together: the session with the keys the page will need
    # for the user the signed viewer cookie names, one Redis round trip (firenze_site/prefetch.py).
    "firenze_site.prefetch.PrefetchMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # The player's language (account, else cookie, else browser), without it in the URL.
    "firenze_site.language.LanguageMiddleware",
    # Times in the player's own zone (account setting, or the browser's for visitors).
    "accounts.middleware.TimeZoneMiddleware",
    # An id in the URL too large for the database: 404 before any query.
    "firenze_site.request_guards.IdGuardMiddleware",
    # Bot accounts play through the API only: their game and table-talk posts are refused.
    "api.middleware.BotAccountMiddleware",
    # The player's own parts of shared pages: the header's count of games waiting for them,
    # "next game", their notepad (inbox/middleware.py); innermost, in their language.
    "inbox.middleware.InboxMiddleware",
]

ROOT_URLCONF = "firenze_site.urls"
WSGI_APPLICATION = "firenze_site.wsgi.application"
ASGI_APPLICATION = "firenze_site.asgi.application"
SITE_ID = 1

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # template_partials replaces this with its own loader chain (same search order).
        "APP_DIRS": True,
        "OPTIONS": {
            # {% translate %} and {% blocktranslate %} in every template without a {% load %}.
            "builtins": ["django.templatetags.i18n"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.game_tagline",  # and the site's name
                "streams.context_processors.live_streams",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default: web, worker and beat write to one file. BEGIN IMMEDIATE takes the
    # write lock up front (a deferred transaction that reads, then writes while another process
    # writes fails at once with "database is locked"); WAL lets readers go on meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ----------------------------------------------------------------------------------
# The cache holds the rate limits (sign-in guesses, moves, invitations: they only hold if every
# worker process counts in the same place) and rendered board fragments per game version. In
# production it must be shared: CACHE_URL=redis://... is required when DEBUG is off. A Redis
# outage degrades (firenze_site/cache.py): pages render without the cache, and password
# sign-in is paused rather than left without its limit.
_cache_url = os.environ.get("CACHE_URL", "")
if _cache_url.startswith(("redis://", "rediss://")):
    CACHES = {
        "default": {
            "BACKEND": "firenze_site.cache.ResilientRedisCache",
            "LOCATION": _cache_url,
            "OPTIONS": {
                # An unreachable Redis must cost a request milliseconds, not the OS timeout.
                "socket_connect_timeout": float(os.environ.get("CACHE_TIMEOUT", "0.5")),
                "socket_timeout": float(os.environ.get("CACHE_TIMEOUT", "0.5")),
            },
        }
    }
elif DEBUG:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "firenze",
        }
    }
else:
    raise ImproperlyConfigured(
        "CACHE_URL must point at a shared Redis (redis://host:6379/1) when DEBUG is off: rate "
        "limits counted per worker process do not hold."
    )

# Sessions: read from the cache, written through to the database (firenze_site/sessions.py).
SESSION_ENGINE = "firenze_site.sessions"

# --- Authentication (django-allauth 65) -----------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_LOGIN_METHODS = {"email"}
# The display name comes from our own form (accounts/forms.py); no username is asked for.
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
# Forms of allauth's that send an email to a typed address refuse while the rate limits cannot
# count (the shared cache is down): accounts/forms.py.
ACCOUNT_FORMS = {
    "signup": "accounts.forms.SignupForm",
    "reset_password": "accounts.forms.ResetPasswordForm",
    "request_login_code": "accounts.forms.RequestLoginCodeForm",
    "add_email": "accounts.forms.AddEmailForm",
}
# The adapter saves the display name and derives the internal username from it.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# allauth's pages, messages and emails name the player by display name, never by email.
ACCOUNT_USER_DISPLAY = "accounts.adapter.user_display"
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
# Confirming the address in the browser that signed up also signs the player in.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
# A sign-up with a known address gets the usual answer; the address's owner gets an email.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
# Changing an email address (and deleting the account, exporting one's data: accounts/views)
# needs the password again within the last 5 minutes, whatever way the session was opened; a
# session opened from a sign-in link in an email can play but never counts as reauthenticated.
# Changing the password asks for the current one.
ACCOUNT_REAUTHENTICATION_REQUIRED = True
ACCOUNT_REAUTHENTICATION_TIMEOUT = 300
# Rate limits, counted in the shared cache (amount/period/per; allauth's format). allauth's own
# actions keep their defaults except where noted; the others are the site's (see games/limits).
ACCOUNT_RATE_LIMITS = {
    # 5 wrong passwords per account in 5 minutes (whatever the number of workers or addresses),
    # 10 a minute per client address.
    "login_failed": "10/m/ip,5/300s/key",
    # Password guesses from a signed-in (e.g. email-link) session: as strict as sign-in.
    "reauthenticate": "5/300s/user",
    "create_game": "10/h/user,30/d/user",
    "invite": "30/h/user",
    # Invitation emails from one player to another: a few a day, however many games.
    "invite_pair": "3/d/key",
    # Invitations typed as an address (each one an email to someone who may have no account).
    "invite_email": "10/d/user",
    # Taking a seat at a table (the page and the API): like invitations, so nobody churns
    # through the lobby joining and leaving tables.
    "join_game": "30/h/user",
    # allauth's emails to a typed address, set here rather than left to allauth's defaults:
    # a password reset 3 times an hour per address, a sign-in code 3 times in 15 minutes.
    "reset_password": "10/m/ip,3/h/key",
    "request_login_code": "10/m/ip,3/15m/key",
    "move": "120/m/user",
    "away": "30/h/user",
    "profile": "30/h/user",
    # The Strong bot's estimate of a "what if" line: each new line is a bot job on its queue.
    "what_if_estimate": "20/h/user",
    "create_tournament": "10/h/user,30/d/user",
    # Following, blocking and a table's requirements (community/): limited like invitations.
    "follow": "30/h/user",
    "block": "30/h/user",
    "requirements": "30/h/user",
    # Clubs (clubs/): founding one, joining, inviting and ladder challenges, like invitations.
    "club_found": "5/d/user",
    "club_join": "30/h/user",
    "club_invite": "30/h/user",
    "club_challenge": "30/h/user",
}
# Reliability (community/): with fewer ended games a player is shown as new; the turns are read
# from the last RELIABILITY_RECENT_GAMES. A person may be in ACTIVE_GAMES_BASE games at once,
# plus ACTIVE_GAMES_PER_FINISHED for each game they played to the end, up to ACTIVE_GAMES_MOST.
RELIABILITY_NEW_PLAYER_GAMES = 5
RELIABILITY_RECENT_GAMES = 30
ACTIVE_GAMES_BASE = 21
ACTIVE_GAMES_PER_FINISHED = 1
ACTIVE_GAMES_MOST = 200
# The client address behind the reverse proxy (README, "Behind a reverse proxy"): the number
# of proxies that append to X-Forwarded-For, or a header the proxy sets to the client's address.
# Left unset, every client would share the proxy's address and one counter.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = os.environ.get("TRUSTED_CLIENT_IP_HEADER") or None

# --- Internationalisation -------------------------------------------------------------------

# English and German (issue 13). URLs never carry the language: firenze_site/language.py picks
# it from the player's account, else the footer switcher's cookie, else Accept-Language.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("it", "Italiano"),
    ("fr", "Français"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "lang"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = not DEBUG
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Static files (served by WhiteNoise, also in production) --------------------------------

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- E-mail ---------------------------------------------------------------------------------

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_FILE_PATH = VAR_DIR / "mail"  # used only by the filebased backend
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
# Seconds for each step of an SMTP conversation: a mail server that stops answering fails the
# send (retried later) instead of holding a worker.
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", f"{SITE_NAME} <noreply@localhost>")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)

# --- Celery ---------------------------------------------------------------------------------

# The filesystem transport needs no server: web, worker and beat share folders under var/.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
if CELERY_BROKER_URL.startswith("filesystem://"):
    _celery_dir = Path(os.environ.get("CELERY_FILESYSTEM_DIR", str(VAR_DIR / "celery")))
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_dir / "queue"),
        "data_folder_out": str(_celery_dir / "queue"),
        "processed_folder": str(_celery_dir / "processed"),
        "control_folder": str(_celery_dir / "control"),
        # Handled messages are deleted rather than piling up in processed_folder.
        "store_processed": False,
    }
    # kombu lists the queue folder without creating it, so make the folders up front; this
    # lets `celery worker` and `celery beat` be started on their own from a fresh checkout.
    for _folder in ("queue", "processed", "control"):
        (_celery_dir / _folder).mkdir(parents=True, exist_ok=True)
# Tasks report through the database (notifications, game state), not a result backend.
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# A move must not hang while the broker is down: give up publishing quickly; the outbox row (or
# the stalled-bot sweep) makes sure the work is done once the broker is back.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_TIMEZONE = TIME_ZONE
# Every task has time limits of its own (set where it is defined, to fit its job); these are
# for any task that has none: past the soft limit the task gets an exception it can clean up
# after, past the hard one its worker process is replaced. They hold with the prefork pool
# (the default), not with --pool=solo.
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
# A worker takes one task at a time beyond the one it runs: a long task does not sit on
# others that another worker could run.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE: dict = {
    # Turn deadlines and reminders (games/clock.py): a sweep every two minutes.
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": float(os.environ.get("GAMES_SWEEP_SECONDS", "120")),
    },
}

# --- Operations (ops/, docs/operations.md) ----------------------------------------------------
# /readyz and /metrics answer only these networks (the client address as the rate limits see
# it, TRUSTED_PROXY_COUNT included) or a request with "Authorization: Bearer <OPS_BEARER_TOKEN>";
# anyone else gets 404.
OPS_ALLOWED_NETWORKS = env_list("OPS_ALLOWED_NETWORKS", "127.0.0.0/8,::1/128")
OPS_BEARER_TOKEN = os.environ.get("OPS_BEARER_TOKEN", "")
# Beat queues a heartbeat task to every queue this often; readiness wants each within a minute.
OPS_HEARTBEAT_SECONDS = float(os.environ.get("OPS_HEARTBEAT_SECONDS", "15"))

# --- Bots (docs/bots.md) --------------------------------------------------------------------
# Bot moves, timed-out turns and post-game reviews run on their own queue, "bots", served by
# its own worker (make run starts one; production runs it as a separate service), so a bot
# thinking never delays an email, a page or another player's move.
CELERY_TASK_ROUTES = {
    # Page redraws (games/redraws.py) on a queue of their own, served with the default one by
    # the same workers (-Q celery,pages): an email never waits behind a queue of redraws.
    "games.tasks.draw_pages": {"queue": "pages"},
    "games.tasks.play_bots": {"queue": "bots"},
    "games.tasks.time_out_game": {"queue": "bots"},
    "bots.tasks.review_game": {"queue": "bots"},
    "bots.tasks.estimate_line": {"queue": "bots"},
}
# CPU seconds the Strong bot thinks per decision that matters (unset: the engine's own, 0.5 s
# for Firenze), and the reviewing bot per reviewed decision.
# A heartbeat task per queue (ops/tasks.py): a worker of each queue proves it is alive.
for _queue in ["celery", *sorted({route["queue"] for route in CELERY_TASK_ROUTES.values()})]:
    CELERY_BEAT_SCHEDULE[f"ops-heartbeat-{_queue}"] = {
        "task": "ops.tasks.heartbeat",
        "schedule": OPS_HEARTBEAT_SECONDS,
        "args": (_queue,),
        "options": {"queue": _queue, "expires": OPS_HEARTBEAT_SECONDS * 2},
    }
BOTS_THINK_SECONDS = (
    float(os.environ["BOTS_THINK_SECONDS"]) if os.environ.get("BOTS_THINK_SECONDS") else None
)
BOTS_REVIEW_SECONDS = float(os.environ.get("BOTS_REVIEW_SECONDS", "1.0"))

# --- Games clock ----------------------------------------------------------------------------
# Reminders at these shares of a turn's time limit (halfway and with 10% left), and the number
# of timeouts in a row after which the bot keeps a player's seat.
GAMES_REMINDER_SHARES = [0.5, 0.9]
GAMES_TIMEOUTS_FOR_AUTOPILOT = 3
GAMES_MAX_ABSENCE_DAYS_PER_YEAR = 30

# --- Notifications (play by email: notifications/) ------------------------------------------
# Emails are rows of an outbox written with the game change and sent by Celery after commit;
# send_pending picks up anything left behind (broker down, worker lost), the digest goes daily.
from celery.schedules import crontab  # noqa: E402

# Links in emails are absolute: the address players reach the site at, without a trailing /.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
# How long the sign-in link in a turn email works (seconds); it works once.
NOTIFICATIONS_LOGIN_LINK_MAX_AGE = int(
    os.environ.get("NOTIFICATIONS_LOGIN_LINK_MAX_AGE", str(3 * 24 * 3600))
)
# Tries per email before it is marked failed; SMTP errors are retried with exponential backoff.
NOTIFICATIONS_MAX_ATTEMPTS = int(os.environ.get("NOTIFICATIONS_MAX_ATTEMPTS", "5"))
# The hour (in TIME_ZONE) the daily digest of turns goes out.
NOTIFICATIONS_DIGEST_HOUR = int(os.environ.get("NOTIFICATIONS_DIGEST_HOUR", "7"))
# send_pending runs this often, and sends immediate rows still pending this long after they
# were written (their task was lost). The integration tests shorten both to a few seconds.
NOTIFICATIONS_SEND_PENDING_SECONDS = float(
    os.environ.get("NOTIFICATIONS_SEND_PENDING_SECONDS", "60")
)
NOTIFICATIONS_PENDING_AFTER_SECONDS = float(
    os.environ.get("NOTIFICATIONS_PENDING_AFTER_SECONDS", "60")
)
# A row still "sending" this long after a worker claimed it is marked failed as stuck (its
# worker died mid-send; it is never sent again). At least the send tasks' hard time limit (45 s).
NOTIFICATIONS_STUCK_AFTER_SECONDS = float(
    os.environ.get("NOTIFICATIONS_STUCK_AFTER_SECONDS", str(15 * 60))
)
# Webhooks and Web Push (notifications/channels.py). Outgoing requests go only to public https
# addresses; the two switches below exist for the tests and benchmarks (local receivers) and
# stay off in production.
NOTIFICATIONS_ALLOW_HTTP_TARGETS = env_bool("NOTIFICATIONS_ALLOW_HTTP_TARGETS", False)
NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS = env_bool("NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS", False)
# The deadline of one outgoing webhook or push request, in seconds: DNS, connect, TLS, the
# answer's headers and body together (notifications/safe_http.py).
NOTIFICATIONS_HTTP_DEADLINE = float(os.environ.get("NOTIFICATIONS_HTTP_DEADLINE", "10"))
# Failed requests in a row after which a webhook is switched off (and its owner emailed).
WEBHOOK_MAX_FAILURES = int(os.environ.get("WEBHOOK_MAX_FAILURES", "10"))
# VAPID key of this site (python manage.py vapid_keys makes one): without it push is off.
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "")
WEBPUSH_VAPID_SUBJECT = os.environ.get("WEBPUSH_VAPID_SUBJECT", "")
if not WEBPUSH_VAPID_PRIVATE_KEY and DEBUG and (VAR_DIR / "vapid-dev.key").is_file():
    # `make run` (manage.py demo) makes a development key so push works on localhost.
    WEBPUSH_VAPID_PRIVATE_KEY = (VAR_DIR / "vapid-dev.key").read_text().strip()

CELERY_BEAT_SCHEDULE["notifications-send-pending"] = {
    "task": "notifications.tasks.send_pending",
    "schedule": NOTIFICATIONS_SEND_PENDING_SECONDS,
}
CELERY_BEAT_SCHEDULE["notifications-daily-digest"] = {
    "task": "notifications.tasks.send_daily_digests",
    "schedule": crontab(hour=NOTIFICATIONS_DIGEST_HOUR, minute=0),
}
CELERY_BEAT_SCHEDULE["notifications-morning-summaries"] = {
    "task": "notifications.tasks.send_morning_summaries",
    "schedule": crontab(minute="*/15"),
}
# Retention: sent, skipped and failed emails are deleted after this many days, sign-in links a
# day after they expire (used or not); the purge runs nightly.
NOTIFICATIONS_RETENTION_DAYS = int(os.environ.get("NOTIFICATIONS_RETENTION_DAYS", "90"))
# Tournaments: sign-ups that closed, rounds whose task was lost, the ladder's weekly games.
CELERY_BEAT_SCHEDULE["tournaments-tick"] = {
    "task": "tournaments.tasks.tick",
    "schedule": float(os.environ.get("TOURNAMENTS_TICK_SECONDS", "60")),
}
# Clubs: ladder challenges left unanswered CLUB_CHALLENGE_DAYS days are lost by the challenged.
CELERY_BEAT_SCHEDULE["clubs-expire-challenges"] = {
    "task": "clubs.tasks.expire_challenges",
    "schedule": float(os.environ.get("CLUBS_SWEEP_SECONDS", "900")),
}
# A member may challenge anyone up to this many places above them on the club's ladder.
CLUB_LADDER_REACH = int(os.environ.get("CLUB_LADDER_REACH", "3"))
CLUB_CHALLENGE_DAYS = int(os.environ.get("CLUB_CHALLENGE_DAYS", "7"))
CELERY_BEAT_SCHEDULE["notifications-purge"] = {
    "task": "notifications.tasks.purge_old_rows",
    "schedule": crontab(hour=3, minute=30),
}

# --- System checks --------------------------------------------------------------------------
# players.SeatResult's index carries covering columns for PostgreSQL (the profile reads the
# index alone); SQLite builds the same index without them, which is what this warns about.
# (HSTS opt-ins are added below when not chosen.)
SILENCED_SYSTEM_CHECKS = ["models.W040"]

# --- Security ---------------------------------------------------------------------------------

# Requests are small: a move is a short JSON object. Bigger bodies are refused with 400.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200

# Content Security Policy (django-csp 4): scripts and styles only from our own static files,
# no inline script or style, no eval (htmx is configured not to need it, templates/base.html).
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    }
}
# Permissions-Policy (django-permissions-policy): the site uses none of these features.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # A year: browsers then refuse plain HTTP to the site even on a first typed address.
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    # Subdomains and browsers' preload lists are the domain owner's decision: opt in.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    SILENCED_SYSTEM_CHECKS += [
        check
        for check, opted_in in (
            ("security.W005", SECURE_HSTS_INCLUDE_SUBDOMAINS),
            ("security.W021", SECURE_HSTS_PRELOAD),
        )
        if not opted_in
    ]

# --- Logging --------------------------------------------------------------------------------

# Production logs one JSON object a line (python-json-logger): a request's and a task's line
# carry request_id, game_id and duration_ms (ops/observe.py). Development prints plain lines;
# LOG_FORMAT=json or plain chooses either way.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "plain" if DEBUG else "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # One line per request and per task (ops/observe.py), on their own handler so that a
        # Celery worker's own log set-up (it takes over the root logger) leaves them as they
        # are; REQUEST_LOG_LEVEL=WARNING turns them off. They replace uvicorn's access log.
        **{
            name: {
                "handlers": ["console"],
                "level": os.environ.get("REQUEST_LOG_LEVEL", "INFO"),
                "propagate": False,
            }
            for name in ("firenze.request", "firenze.task")
        },
        "uvicorn.access": {"level": "WARNING"},
    },
}

# Sentry (SENTRY_DSN) and OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT): off unless set.
from firenze_site.telemetry import setup as _telemetry_setup  # noqa: E402

TELEMETRY = _telemetry_setup()

# The game a new table plays: the name of an engine registered in games.rules.registry.
GAMES_DEFAULT_ENGINE = "firenze"

# --- Public API and live streams (api/, streams/; docs/api.md) ----------------------------------
# Browsers may call /api/ from these origins only (none by default: CORS stays closed). The API
# authenticates with tokens, never cookies, so no credentials are allowed cross-origin.
CORS_ALLOWED_ORIGINS = env_list("API_CORS_ORIGINS", "")
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False
# Live event streams (Server-Sent Events, served by an ASGI server: uvicorn) need a Redis for
# their pub/sub and short event logs: STREAMS_REDIS_URL, else the cache's Redis. Without one
# (`make run` on its defaults) there are no streams and pages poll as before.
STREAMS_REDIS_URL = os.environ.get("STREAMS_REDIS_URL", "") or (
    _cache_url if _cache_url.startswith(("redis://", "rediss://")) else ""
)
# Seconds between the comment lines that keep an idle stream open through proxies.
STREAMS_KEEPALIVE_SECONDS = float(os.environ.get("STREAMS_KEEPALIVE_SECONDS", "45"))
# A stream ends after this long (the client reconnects with Last-Event-ID and is checked again).
STREAMS_MAX_SECONDS = float(os.environ.get("STREAMS_MAX_SECONDS", "3600"))
# An open stream checks again that its caller may still watch (token, session, seat, invite
# link) this long after its last check, at the hub's next tick (ticks come at half the shorter
# of this and the keep-alive: within a minute on the defaults), and at once when a sign-out,
# a revoked token, a seat or an invite link says so (streams.hub).
STREAMS_RECHECK_SECONDS = float(os.environ.get("STREAMS_RECHECK_SECONDS", "40"))
