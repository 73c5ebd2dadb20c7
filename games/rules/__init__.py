"""The rules app: the engine protocol (protocol.py), the registry of engines (registry.py) and
the move service that validates and applies moves for any engine (moves.py); each game's engine
lives beneath it (firenze/), its pure rules package free of Django."""
