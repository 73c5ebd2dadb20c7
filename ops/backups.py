"""Backups of the whole database, and their restore into an empty one.

PostgreSQL: ``pg_dump --format=custom`` (compressed, restorable table by table, the format
Zulip's and Mastodon's guides use) and ``pg_restore`` in one transaction. SQLite: the online
backup API, which copies a consistent snapshot while web and workers go on writing.

A restore only ever goes into a database with no tables at all: restoring over a live site
would mix two histories, so it is refused before anything is touched.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"


class BackupError(Exception):
    """Why a backup or a restore cannot be done, in words for the operator."""


def _connection() -> Any:
    return connections[DEFAULT_DB_ALIAS]


def vendor() -> str:
    return str(_connection().vendor)


def suffix() -> str:
    return ".dump" if vendor() == "postgresql" else ".sqlite3"


def _pg_environment() -> tuple[list[str], dict[str, str]]:
    """libpq's arguments and environment for the configured database (password not on the
    command line, where every user of the machine could read it)."""
    settings = _connection().settings_dict
    args = ["--dbname", settings["NAME"]]
    if settings.get("HOST"):
        args += ["--host", str(settings["HOST"])]
    if settings.get("PORT"):
        args += ["--port", str(settings["PORT"])]
    if settings.get("USER"):
        args += ["--username", str(settings["USER"])]
    environment = dict(os.environ)
    if settings.get("PASSWORD"):
        environment["PGPASSWORD"] = str(settings["PASSWORD"])
    return args, environment


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client).")
    return found


def backup(target: Path) -> Path:
    """Write a backup of the whole database to ``target``; it is complete or not there."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    if vendor() == "postgresql":
        args, environment = _pg_environment()
        command = [_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(partial), *args]
        done = subprocess.run(command, env=environment, capture_output=True, text=True)
        if done.returncode:
            partial.unlink(missing_ok=True)
            raise BackupError(f"pg_dump failed: {done.stderr.strip()}")
    elif vendor() == "sqlite":
        connection = _connection()
        connection.ensure_connection()
        destination = sqlite3.connect(partial)
        try:
            connection.connection.backup(destination)
        finally:
            destination.close()
    else:
        raise BackupError(f"No backup for the {vendor()} database.")
    partial.replace(target)
    return target


def tables() -> list[str]:
    with _connection().cursor() as cursor:
        return sorted(_connection().introspection.table_names(cursor))


def _check_file(source: Path) -> None:
    if not source.is_file():
        raise BackupError(f"{source} is not a file.")
    with source.open("rb") as handle:
        head = handle.read(16)
    expected = PG_MAGIC if vendor() == "postgresql" else SQLITE_MAGIC
    if not head.startswith(expected):
        kind = "pg_dump custom-format" if vendor() == "postgresql" else "SQLite"
        raise BackupError(f"{source} is not a {kind} backup (made by manage.py backup).")


def restore(source: Path) -> None:
    """Restore ``source`` into the configured database, which must hold no table: checked
    first, so a refusal changes nothing."""
    _check_file(source)
    present = tables()
    if present:
        raise BackupError(
            f"The database is not empty ({len(present)} tables, e.g. {present[0]}): a restore "
            "goes only into an empty database. Create a new one and point DATABASE_URL at it."
        )
    if vendor() == "postgresql":
        args, environment = _pg_environment()
        command = [
            _tool("pg_restore"),
            "--no-owner",
            "--exit-on-error",
            "--single-transaction",
            *args,
            str(source),
        ]
        done = subprocess.run(command, env=environment, capture_output=True, text=True)
        if done.returncode:
            raise BackupError(f"pg_restore failed (nothing was restored): {done.stderr.strip()}")
    else:
        connection = _connection()
        connection.ensure_connection()
        origin = sqlite3.connect(source)
        try:
            origin.backup(connection.connection)
        finally:
            origin.close()
    _connection().close()  # the next query sees the restored schema on a fresh connection
