"""Small helpers for the plain-English log lines and error messages."""

from __future__ import annotations


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def seat_ref(seat: int) -> str:
    """Log lines name players by a seat token that log_lines() fills in with real names."""
    return "{" + str(seat) + "}"


def gettext_noop(text: str) -> str:
    """Marks an English text the web layer translates (xgettext finds it by this name and puts
    it in the catalogue); the engine itself stays free of any language machinery."""
    return text


def pgettext(context: str, text: str) -> str:
    """As gettext_noop, with the catalogue's context (``pgettext("card name", "Fame")``): a
    card's name is translated apart from the same English word elsewhere."""
    return text
