"""Why a game request was refused: each carries the message a player reads and an HTTP status."""

from __future__ import annotations


class GameError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RequestRefused(GameError):
    """A request that cannot be granted as asked: an illegal move, a lobby action or absence
    that breaks a rule, a value that could not be read. The message says what to change."""

    status = 400


class NotInGame(GameError):
    status = 403


class NotAllowed(GameError):
    status = 403


class Conflict(GameError):
    """Out of turn, stale version, finished game: the request was fine, the game moved on."""

    status = 409
