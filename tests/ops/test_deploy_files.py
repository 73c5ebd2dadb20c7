"""The deployment files beside the docs (deploy/): what can be checked without a container
runtime. Every service's command is one this checkout has (the program, the manage.py command,
the Celery app and queue, the ASGI application), every service has a health check, the
database and Redis sit on an internal network, published ports are on the loopback, and every
environment variable the files or the settings use is documented in docs/operations.md.
"""

from __future__ import annotations

import importlib
import re
import shlex
import sys
from pathlib import Path

import pytest
import yaml
from django.core.management import get_commands

from ops import heartbeats

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
SITE_SERVICES = ["web", "worker", "bots", "beat"]
UNITS = sorted((DEPLOY / "systemd").glob("*.service"))


def commands_of(words: list[str]) -> list[list[str]]:
    """The commands a service runs: ``sh -c "a && exec b"`` is split into a and b."""
    if words[:2] == ["sh", "-c"] or words[:1] == ["CMD-SHELL"]:
        script = words[2] if words[0] == "sh" else words[1]
        parts = re.split(r"&&|\|\||[|&]", script)
        return [shlex.split(part.replace("exec ", "", 1)) for part in parts]
    return [words[1:] if words[0] == "CMD" else words]


def assert_exists(command: list[str]) -> None:
    """The program is installed here and what it is asked to run exists in this checkout."""
    program = Path(command[0]).name
    if program in {"rm", "mkdir", "find", "grep", "sh", "cp"}:
        return
    assert (BIN / program).exists(), f"{program} is not installed in the virtualenv"
    if program == "python" and command[1] == "manage.py":
        assert command[2] in get_commands(), f"no manage.py command {command[2]}"
    elif program == "python":
        assert command[1] == "-c"
        compile(command[2], "healthcheck", "exec")
    elif program == "celery":
        assert command[1:3] == ["-A", "firenze_site"]
        assert command[3] in {"worker", "beat", "inspect"}
        if command[3] == "worker":
            queue = command[command.index("-Q") + 1]
            assert set(queue.split(",")) <= set(heartbeats.queues())
    elif program == "uvicorn":
        module, name = command[1].split(":")
        assert callable(getattr(importlib.import_module(module), name))
    else:
        pytest.fail(f"unexpected program {program}")


def test_it_runs_only_commands_this_checkout_has_in_compose():
    for name in SITE_SERVICES:
        service = COMPOSE["services"][name]
        for command in commands_of(service["command"]):
            assert_exists(command)
        for command in commands_of(service["healthcheck"]["test"]):
            assert_exists(command)


def test_it_serves_every_queue_once_and_runs_one_beat():
    queues = []
    for service in COMPOSE["services"].values():
        for command in commands_of(service.get("command", ["-"])):
            if command[:4] == ["celery", "-A", "firenze_site", "worker"]:
                queues.extend(command[command.index("-Q") + 1].split(","))
    assert sorted(queues) == sorted(heartbeats.queues())
    beats = [s for s in COMPOSE["services"].values() if "beat" in str(s.get("command", ""))]
    assert len(beats) == 1


def test_it_gives_every_service_a_health_check_and_keeps_data_inside():
    services = COMPOSE["services"]
    assert all("healthcheck" in service for service in services.values())
    assert COMPOSE["networks"]["internal_network"]["internal"] is True
    for name in ("db", "redis"):
        assert services[name]["networks"] == ["internal_network"]
        assert "ports" not in services[name]
    published = [port for s in services.values() for port in s.get("ports", [])]
    assert published and all(port.startswith("127.0.0.1:") for port in published)


def unit_commands(unit: Path) -> list[list[str]]:
    lines = re.findall(r"^Exec\w+=(.+)$", unit.read_text(), re.MULTILINE)
    found = []
    for line in lines:
        words = shlex.split(line)
        if words[0].startswith("/srv/firenze/.venv/bin/"):
            found.append([Path(words[0]).name, *words[1:]])
        else:
            assert words[0] in {"/bin/sh"}, line
    return found


@pytest.mark.parametrize("unit", UNITS, ids=[u.name for u in UNITS])
def test_it_runs_only_commands_this_checkout_has_in_systemd(unit):
    commands = unit_commands(unit)
    assert commands
    for command in commands:
        assert_exists(command)


def test_it_has_a_unit_for_every_process_of_compose_and_a_daily_backup():
    names = {unit.stem for unit in UNITS}
    assert {f"firenze-{name}" for name in SITE_SERVICES} <= names
    assert "OnCalendar=" in (DEPLOY / "systemd" / "firenze-backup.timer").read_text()


def variables_used() -> set[str]:
    used = set(
        re.findall(r"^([A-Z][A-Z0-9_]+)=", (DEPLOY / "env.production.example").read_text(), re.M)
    )
    for service in COMPOSE["services"].values():
        used |= set(service.get("environment", {}))
        used |= set(re.findall(r"\$\{([A-Z_]+)", str(service)))
    for unit in UNITS:
        used |= set(re.findall(r"^Environment=([A-Z_]+)=", unit.read_text(), re.M))
    for module in (ROOT / "firenze_site").glob("*.py"):
        used |= set(
            re.findall(
                r'(?:environ\.get|environ\[|env_bool|env_list|environ\.setdefault)\(?\s*"([A-Z_]+)"',
                module.read_text(),
            )
        )
    return used - {"POSTGRES_USER", "POSTGRES_DB", "POSTGRES_PASSWORD"}  # the image's own


def test_it_documents_every_environment_variable():
    used = variables_used()
    assert {"SECRET_KEY", "PROMETHEUS_MULTIPROC_DIR", "OPS_BEARER_TOKEN", "SENTRY_DSN"} <= used
    undocumented = sorted(name for name in used if f"`{name}`" not in OPERATIONS)
    assert undocumented == []
