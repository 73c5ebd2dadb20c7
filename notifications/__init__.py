"""Notifications: telling players by e-mail when it is their turn in an asynchronous game."""
