"""Restrictions other apps put on a tournament (a club's: its members only), as the lobby's
checks (games.admission). The tournaments app names none of them: it asks, and the first
answer wins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# signup_check(tournament, user): the reason ``user`` may not sign up, or None.
Check = Callable[[Any, Any], "str | None"]
# hidden_check(tournament, user): whether the tournament does not exist for ``user``.
Hidden = Callable[[Any, Any], bool]
_signup: dict[str, Check] = {}
_hidden: dict[str, Hidden] = {}


def register(name: str, *, signup: Check, hidden: Hidden) -> None:
    """Add an app's checks (its ready()); a name registers once, however often ready() runs."""
    _signup[name] = signup
    _hidden[name] = hidden


def signup_refusal(tournament: Any, user: Any) -> str | None:
    for check in _signup.values():
        reason = check(tournament, user)
        if reason:
            return reason
    return None


def hidden_from(tournament: Any, user: Any) -> bool:
    return any(check(tournament, user) for check in _hidden.values())
