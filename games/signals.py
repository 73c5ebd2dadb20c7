"""Reactions to account events: an address someone was invited at is confirmed."""

from __future__ import annotations

from typing import Any


def game_saved(sender: Any, instance: Any, **kw) -> None:
    """Any saved game: its versions go to the shared cache once the save commits (the poll
    reads them there). Conditional update()s call games.versions.changed themselves."""
    from games import lobbycache, versions

    versions.changed(instance.pk)
    lobbycache.changed()


def seat_changed(sender: Any, instance: Any, **kw) -> None:
    """A seat taken or left: the lobby's count of seats taken changes."""
    from games import lobbycache

    lobbycache.changed()


def link_invitations_on_confirmation(sender: Any, request: Any, email_address: Any, **kw) -> None:
    """A player confirmed an address that had invitations: they become the player's, so the
    games show in their invitations and let them take the seat."""
    from games.lobby import link_invitations

    link_invitations(email_address.user, email_address.email)
