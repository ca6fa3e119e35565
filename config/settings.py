"""Settings for the Mexican Train project, read from the environment.

With nothing set, the project runs on a laptop as it is: DEBUG on, SQLite in BASE_DIR and the
in-memory channel layer. A deployment sets DEBUG=0, SECRET_KEY and ALLOWED_HOSTS, and switches
to PostgreSQL and Redis with DATABASE_URL and REDIS_URL. The README lists every variable.
"""

import os
from collections.abc import Mapping
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    """Read a yes/no variable; anything but a recognised word is refused rather than guessed."""
    value = env.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a yes/no value (use 1 or 0).")


def env_list(env: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list, ignoring blanks, so "a, b," means ["a", "b"]."""
    value = env.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def databases(env: Mapping[str, str]) -> dict:
    """PostgreSQL (or any dj-database-url URL) from DATABASE_URL, else SQLite for development.

    conn_max_age keeps a connection for a minute instead of opening one per request, and health
    checks replace a connection the server dropped instead of failing the next request with it.
    """
    url = env.get("DATABASE_URL")
    if url:
        # DB_CONN_MAX_AGE=0 closes each connection after use: the PostgreSQL test pass sets it,
        # so the test database has no sessions left open when it is dropped.
        max_age = int(env.get("DB_CONN_MAX_AGE", "60"))
        database = dj_database_url.parse(url, conn_max_age=max_age, conn_health_checks=True)
        if database["ENGINE"] == "django.db.backends.sqlite3":
            database["OPTIONS"] = SQLITE_OPTIONS
        return {"default": database}
    return {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
            "OPTIONS": SQLITE_OPTIONS,
        }
    }


# SQLite, the embedded default, tuned for one busy process: the write-ahead log with
# synchronous=NORMAL commits without waiting for the disk each time (a commit cost 20 ms
# here, which capped a server at 50 moves a second; a crash of the process loses nothing,
# a power cut at most the last moments), and IMMEDIATE transactions take the write lock at
# BEGIN, so two writers queue instead of failing with "database is locked" (SQLite ignores
# select_for_update: this is its one-writer-per-game).
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
}


def channel_layers(env: Mapping[str, str]) -> dict:
    """channels-redis from REDIS_URL (needed as soon as more than one process serves the
    app), else Channels' in-memory layer. Each socket has a channel of its own and joins its
    table's (or sheet's) group.

    A socket that falls behind: a channel holding ``capacity`` unread messages drops the
    next group message (channels-redis logs it at INFO), and a message unread after
    ``expiry`` seconds is dropped. Nothing is lost by it: every message only says that the
    table changed, and every view a socket sends is the whole table as it is now, so the
    next change heals the screen, or the page's ping after 20 s of silence
    (games.consumers).
    - capacity 100 (the default): a table sends a message or two a second, so a socket 100
      behind has been stalled for a minute.
    - expiry 10: a message unread after 10 s describes a table that has moved on.
    - group_expiry 86400 (the default): a socket is dropped from its groups this many
      seconds after it joined. It must be at least daphne's websocket timeout (86400 s by
      default), or long-lived sockets would stop receiving without any error.
    """
    url = env.get("REDIS_URL")
    if url:
        return {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {
                    # redis-py 8 gives every socket a 5 s read timeout, the same as the 5 s
                    # blocking pop channels-redis waits on, so idle sockets crashed every few
                    # seconds (channels_redis#422). 15 s lets the pop finish and still notices
                    # a dead connection. Its pool also refuses a 101st connection outright
                    # ("Too many connections") instead of waiting: a few hundred sockets
                    # joining their groups at once (a restart, a busy evening) need more.
                    "hosts": [{"address": url, "socket_timeout": 15, "max_connections": 2000}],
                    "capacity": 100,
                    "expiry": 10,
                    "group_expiry": 86400,
                },
            }
        }
    return {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 100, "expiry": 10, "group_expiry": 86400},
        }
    }


ENV = os.environ

# Development is the default; production must set DEBUG=0 (docker-compose.yml does).
DEBUG = env_bool(ENV, "DEBUG", default=True)

SECRET_KEY = ENV.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG off the project refuses to start without one; "
            "set SECRET_KEY to a long random string (or DEBUG=1 for development)."
        )
    SECRET_KEY = "django-insecure-dev-only-never-use-in-production"

ALLOWED_HOSTS = env_list(ENV, "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list(ENV, "CSRF_TRUSTED_ORIGINS", [])

# HTTPS in production. Cookies are Secure by default; SECURE_COOKIES=0 allows plain HTTP on
# a LAN, and then there is no HSTS either (it would lock browsers out of that plain HTTP).
# HSTS is sent only on HTTPS responses, for this host alone (no includeSubDomains, no
# preload), so a year cannot lock out anything that Secure cookies had not already required;
# HSTS_SECONDS=0 turns it off, a few minutes suits a first try of TLS.
if not DEBUG:
    SECURE_COOKIES = env_bool(ENV, "SECURE_COOKIES", default=True)
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_COOKIES
    SECURE_CONTENT_TYPE_NOSNIFF = True
    if SECURE_COOKIES:
        SECURE_HSTS_SECONDS = int(ENV.get("HSTS_SECONDS") or 365 * 24 * 3600)

# X-Forwarded-Proto says whether the browser's request came over HTTPS, but anyone can send
# it: trusted only with BEHIND_PROXY=1, when a proxy that overwrites it (deploy/nginx.conf)
# is the only way in. Without one, a client reaching daphne directly could pass plain HTTP
# off as HTTPS.
if env_bool(ENV, "BEHIND_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "daphne",  # first, so `runserver` is daphne's ASGI server with websockets
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "django_htmx",
    "games",
    "crews",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

# Content-Security-Policy (django-csp), on every page in every mode, so a page that breaks
# it breaks in development too. Scripts and styles are files of our own (static/), never
# inline and never eval'd: htmx is told not to add its indicator <style> and not to eval
# (templates/base.html). The QR codes are inline SVG, no data: URL. 'self' in connect-src
# covers the page's own ws:/wss: in CSP3 browsers (Chromium, Firefox, Safari 16).
# Style attributes (not <style> elements) are allowed: the dominoes' pip colours, the
# chart's swatches and the sheet's column count are drawn with them, and an attribute can
# restyle its own element but runs nothing and reads nothing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
    }
}

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Served by daphne only (no WSGI): websockets need ASGI.
ASGI_APPLICATION = "config.asgi.application"

DATABASES = databases(ENV)
CHANNEL_LAYERS = channel_layers(ENV)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic gathers the files, and where whitenoise serves them from with DEBUG=0.
STATIC_ROOT = Path(ENV.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Production serves content-hashed, compressed files with a long cache, so a release never
# mixes new JS with old CSS on a phone. DEBUG uses plain files: no manifest means no
# collectstatic step before `make run`. The tests do too, but for tests/production/release,
# which collects the files into a folder of its own and serves every page as production does.
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

# Pause between bot moves, so people can follow what the bots play.
BOT_TURN_DELAY = float(ENV.get("BOT_TURN_DELAY", "0.8"))
# The expert bot's thinking time a decision, in seconds of one core (within the pause above).
EXPERT_BUDGET = float(ENV.get("EXPERT_BUDGET", "0.5"))

# Seconds a seat's socket may be gone before the table says its person has lost the
# connection: a page that reloads (every lobby page does as the match starts) is back sooner.
SEAT_AWAY_AFTER = float(ENV.get("SEAT_AWAY_AFTER", "5"))

# Seconds between two looks of each process for tables with something due (games.waker):
# an own-pace turn whose time ran out with nobody's page open, a turn that fell due while
# the server was down. Live play does not wait for it. 0: no poll (the unit tests).
CLOCK_POLL = float(ENV.get("CLOCK_POLL", "10"))

# Seconds between the end of a round and the next deal when not everybody presses Ready.
NEXT_ROUND_COUNTDOWN = float(ENV.get("NEXT_ROUND_COUNTDOWN", "45"))

# Seconds a table may go unplayed (no move, or a lobby nobody starts) before it is closed
# as abandoned: a live table is played in one sitting, one at its own pace over days.
ABANDON_LIVE_AFTER = float(ENV.get("ABANDON_LIVE_AFTER", str(24 * 3600)))
ABANDON_OWN_PACE_AFTER = float(ENV.get("ABANDON_OWN_PACE_AFTER", str(30 * 24 * 3600)))

# The coach (games.coach): how long its search weighs one decision, or how many playouts
# (a count keeps a review the same on any machine; tests set it), and how many expected
# points a decision must cost to be marked. With Redis the reviews run in the worker
# process (`manage.py runworker coach`); the embedded default runs them in a thread.
COACH_BUDGET = float(ENV.get("COACH_BUDGET", "0.5"))
COACH_PLAYOUTS = int(ENV["COACH_PLAYOUTS"]) if ENV.get("COACH_PLAYOUTS") else None
COACH_MARK = float(ENV.get("COACH_MARK", "5"))
COACH_IN_PROCESS = not ENV.get("REDIS_URL")

# Alerts for a person away from their table (games/alerts, docs/alerts.md).
# Web Push: the server's VAPID key (`manage.py vapid_keys` makes one for a new install;
# without it the table offers no push), the contact a push service may write to, and the
# push services the server will post to. A browser names its push service's address when it
# subscribes: a subscription elsewhere (a private address, plain http, another host) is
# refused, so no client can have the server post where it chooses. Each entry is an origin;
# a host may begin with "*.".
VAPID_PRIVATE_KEY = ENV.get("VAPID_PRIVATE_KEY", "")
WEB_PUSH_SERVICES = env_list(
    ENV,
    "WEB_PUSH_SERVICES",
    [
        "https://fcm.googleapis.com",  # Chrome, Edge on Android, Opera, Samsung Internet
        "https://updates.push.services.mozilla.com",  # Firefox
        "https://*.notify.windows.com",  # Edge on Windows
        "https://web.push.apple.com",  # Safari
    ],
)
# E-mail: Django's console backend (mail printed to stdout) unless EMAIL_HOST names an SMTP
# server. SITE_URL is the site's address as the links in a mail spell it.
DEFAULT_FROM_EMAIL = ENV.get("DEFAULT_FROM_EMAIL", "Mexican Train <trains@localhost>")
VAPID_CONTACT = ENV.get("VAPID_CONTACT") or "mailto:trains@localhost"
SITE_URL = ENV.get("SITE_URL", "http://127.0.0.1:8000")
if ENV.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = ENV["EMAIL_HOST"]
    EMAIL_PORT = int(ENV.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = ENV.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = ENV.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool(ENV, "EMAIL_USE_TLS", default=True)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# Everything goes to stdout, where daphne, docker and CI collect it.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["stdout"], "level": ENV.get("LOG_LEVEL", "INFO")},
}
