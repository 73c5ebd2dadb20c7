"""The site skeleton works the way a visitor or an operator would notice."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
# HSTS for subdomains and preload lists are per-domain decisions an operator opts into.
OPT_IN_DEPLOY_WARNINGS = {"security.W005", "security.W021"}


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
    """Run manage.py in a fresh process with production-like environment variables."""
    full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "firenze_site.settings", **env}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_passes_the_deployment_checks_when_configured_for_production():
    result = manage(
        "check",
        "--deploy",
        DEBUG="false",
        SECRET_KEY="x7Kq!p2Lz-production-like-secret-key-with-enough-entropy-9fR3",
        ALLOWED_HOSTS="firenze.example.org",
    )

    assert result.returncode == 0, result.stderr
    reported = set(re.findall(r"\((\w+\.[A-Z]\d+)\)", result.stdout + result.stderr))
    assert reported <= OPT_IN_DEPLOY_WARNINGS


def test_it_refuses_to_start_in_production_without_a_secret_key():
    result = manage("check", DEBUG="false", SECRET_KEY="")

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
