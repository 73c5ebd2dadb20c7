"""Games: playing Firenze online. The rules themselves live in the pure-Python ``firenze.rules``."""
