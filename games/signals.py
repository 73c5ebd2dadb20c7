"""Reactions to account events: an address someone was invited at is confirmed."""

from __future__ import annotations

from typing import Any


def link_invitations_on_confirmation(sender: Any, request: Any, email_address: Any, **kw) -> None:
    """A player confirmed an address that had invitations: they become the player's, so the
    games show in their invitations and let them take the seat."""
    from games.lobby import link_invitations

    link_invitations(email_address.user, email_address.email)
