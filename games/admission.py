"""Who may take a seat: checks other apps add to the lobby's own (a table's requirements, a
limit on games at once, blocks), as listeners subscribe to games.events. The games app names
none of them; each check answers the player's reason or None, and the first reason refuses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# check(user, game): game is None when the user creates a new game (they take its first seat).
Check = Callable[[Any, Any], "str | None"]
Check3 = Callable[[Any, Any, Any], "str | None"]
_checks: dict[str, Check] = {}


def register(name: str, check: Check) -> None:
    """Add a check (an app's ready()); a name registers once, however often ready() runs."""
    _checks[name] = check


def refusal(user: Any, game: Any = None) -> str | None:
    """The first reason a check gives for not seating ``user`` at ``game``, or None."""
    for check in _checks.values():
        reason = check(user, game)
        if reason:
            return reason
    return None


# invite_check(by, user, game): whether ``by`` may invite ``user`` to ``game``.
_invite_checks: dict[str, Check3] = {}


def register_invite(name: str, check: Check3) -> None:
    _invite_checks[name] = check


def invite_refusal(by: Any, user: Any, game: Any) -> str | None:
    for check in _invite_checks.values():
        reason = check(by, user, game)
        if reason:
            return reason
    return None
