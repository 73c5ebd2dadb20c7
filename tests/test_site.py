"""The site skeleton works the way a visitor or an operator would notice."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

# Most of these start manage.py in processes of their own (seconds each) and wait for them, not
# for the test database: make test runs them in the lane beside the SQLite workers.
pytestmark = pytest.mark.beside

ROOT = Path(__file__).resolve().parent.parent
# What production sets (README, Configuration); nothing here is contacted by these commands.
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x7Kq!p2Lz-production-like-secret-key-with-enough-entropy-9fR3",
    "ALLOWED_HOSTS": "firenze.example.org",
    "CACHE_URL": "redis://cache.example.org:6379/1",
    "DATABASE_URL": "postgres://firenze@db.example.org:5432/firenze",
}


@pytest.mark.django_db
def test_it_shows_the_home_page_with_the_site_name(client):
    response = client.get("/")

    assert response.status_code == 200
    assert "Firenze" in response.content.decode()


@pytest.mark.django_db
def test_it_offers_login_and_signup_to_visitors(client):
    page = client.get("/").content.decode()

    assert "/accounts/login/" in page
    assert "/accounts/signup/" in page


def test_it_answers_the_health_check_with_ok(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"


@pytest.mark.django_db
def test_it_shows_the_signup_form_asking_for_email_and_password(client):
    response = client.get("/accounts/signup/")

    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="email"' in page
    assert 'name="password1"' in page
    assert "Firenze" in page  # allauth pages use the site layout


@pytest.mark.django_db
def test_it_links_htmx_and_the_stylesheet_and_serves_them(client):
    page = client.get("/").content.decode()

    for path in ("/static/vendor/htmx.min.js", "/static/css/site.css"):
        assert path in page
        response = client.get(path)
        assert response.status_code == 200
        assert b"".join(response.streaming_content)


def test_it_passes_the_system_checks():
    call_command("check", fail_level="WARNING")


def manage(*args, **env):
    """Run manage.py in a fresh process with these environment variables (and none of ours)."""
    ours = {"DEBUG", "SECRET_KEY", "CACHE_URL", "DATABASE_URL", "ALLOWED_HOSTS"}
    full_env = {k: v for k, v in os.environ.items() if k not in ours}
    full_env.update(DJANGO_SETTINGS_MODULE="firenze_site.settings", **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_passes_the_deployment_checks_when_configured_for_production():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    assert result.returncode == 0, result.stderr
    assert not re.findall(r"\((\w+\.[A-Z]\d+)\)", result.stdout + result.stderr)


def setting(name: str, **env) -> str:
    result = manage(
        "shell", "-c", f"from django.conf import settings; print(settings.{name})", **env
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_it_runs_in_production_mode_when_debug_is_not_set():
    env = {k: v for k, v in PRODUCTION.items() if k != "DEBUG"}

    assert setting("DEBUG", **env) == "False"
    assert setting("SECURE_HSTS_SECONDS", **env) == str(365 * 24 * 3600)
    assert setting("SESSION_COOKIE_SECURE", **env) == "True"


def test_it_refuses_to_start_in_production_without_a_secret_key():
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": ""})

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("x", "fewer than 50 characters"),
        ("a" * 60, "fewer than 5 different characters"),
        ("django-insecure-" + "k3" * 30, "a development key"),
        ("dev-only-insecure-key-do-not-use-in-production-0123456789abcdef", "a development key"),
    ],
)
def test_it_refuses_to_start_in_production_with_a_short_or_development_key(key, reason):
    """Refused at start (what gunicorn loads, and any command), not only by check --deploy."""
    env = {**PRODUCTION, "SECRET_KEY": key}
    web = subprocess.run(
        [sys.executable, "-c", "import firenze_site.wsgi; print('started')"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "firenze_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    command = manage("check", **env)

    for result in (web, command):
        assert result.returncode != 0
        assert "started" not in result.stdout
        assert "SECRET_KEY is refused in production" in result.stderr
        assert reason in result.stderr


# --- issue 9: header, favicon, rules page, make run's SITE_URL -------------------------------


def test_it_serves_a_favicon_where_browsers_look_for_it(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"".join(icon.streaming_content if icon.streaming else [icon.content])[:4] == (
        b"\x00\x00\x01\x00"
    )


@pytest.mark.django_db
def test_every_page_links_the_main_pages_in_its_header(client):
    page = client.get("/rules/").content.decode()
    nav = re.search(r'<nav class="site-nav".*?</nav>', page, re.S).group(0)
    for link in ("/games/", "/games/history/", "/players/", "/rules/"):
        assert f'href="{link}"' in nav, link
    assert 'rel="icon"' in page


@pytest.mark.django_db
def test_the_rules_page_explains_every_card_phase_and_option(client):
    from games.rules.firenze.rules.cards import CARDS

    page = client.get("/rules/").content.decode()
    for card in CARDS:
        anchor = "card-" + card.lower().replace(" ", "-")
        assert f'id="{anchor}"' in page, card
    for section in ("phase-choose", "phase-build", "phase-fulfil", "phase-limits", "options"):
        assert f'id="{section}"' in page
    text = re.sub(r"\s+", " ", page)
    assert "cheapest colour first" in text  # the online auto-discard house rule
    assert "<td>1</td><td>3</td><td>6</td><td>10</td>" in text.replace(" ", "")  # build costs


@pytest.mark.django_db
def test_the_rules_page_shows_a_card_registered_by_its_entry_alone(client, monkeypatch):
    """A card added to the registry (a hypothetical one, for this test only) is on the rules
    page with its count, phase and help: the page has no list of cards of its own."""
    from games.rules.firenze.rules.cards import CARDS
    from tests.rules.test_a_new_card import JESTER

    monkeypatch.setitem(CARDS, "Jester", JESTER)
    text = re.sub(r"\s+", " ", client.get("/rules/").content.decode())

    entry = text.split('id="card-jester">', 1)[1].split("</dd>", 1)[0]
    assert "Jester <span" in entry and "×2 · build phase" in entry, entry
    assert JESTER.help in text
    assert "54 action cards of five kinds" in text


def _run_dev():
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_dev", ROOT / "scripts" / "run_dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("address", "url"),
    [
        ("0.0.0.0:8000", "http://localhost:8000"),
        ("0.0.0.0:8080", "http://localhost:8080"),
        ("127.0.0.1:9000", "http://127.0.0.1:9000"),
        ("8001", "http://localhost:8001"),
        ("[::]:8000", "http://localhost:8000"),
        ("[::1]:8000", "http://[::1]:8000"),
        ("firenze.lan:80", "http://firenze.lan:80"),
    ],
)
def test_make_run_links_emails_to_the_address_it_serves(address, url):
    assert _run_dev().site_url(address) == url
    printed = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "run_dev.py"), "--site-url", address],
        capture_output=True,
        text=True,
        check=True,
    )
    assert printed.stdout.strip() == url


def test_it_refuses_to_start_in_production_without_a_shared_cache():
    for cache_url in ("", "locmem://"):
        result = manage("check", **{**PRODUCTION, "CACHE_URL": cache_url})

        assert result.returncode != 0
        assert "CACHE_URL must point at a shared Redis" in result.stderr


def test_it_starts_in_development_mode_only_when_asked():
    assert setting("DEBUG", DEBUG="true") == "True"
    result = manage("check")
    assert result.returncode != 0  # nothing set: production, which needs its secrets


@pytest.mark.django_db
def test_it_sends_a_content_security_policy_without_inline_script_and_a_permissions_policy(
    client,
):
    response = client.get("/accounts/login/")

    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert policy["frame-ancestors"] == "'none'"
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]
