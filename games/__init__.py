"""Games: playing Firenze online. The rules themselves live in the pure-Python ``games.rules``."""
