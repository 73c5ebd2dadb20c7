"""The one exception a caller of the engine has to handle."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is meant for the player."""
