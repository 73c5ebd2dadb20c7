"""The engines this site knows, by name and rules version.

A game's Django app registers its engine when the app is ready; `Game.engine` looks up the
engine a stored game was created with, by name and rules version, so a finished game keeps
replaying under the rules it was played by.
"""

from __future__ import annotations

from django.conf import settings

from games.rules.protocol import Engine


class UnknownEngine(LookupError):
    """No engine of that name (or of that rules version) is registered on this site."""


_ENGINES: dict[tuple[str, str], Engine] = {}
_CURRENT: dict[str, Engine] = {}


def register(engine: Engine, *, current: bool = True) -> Engine:
    """Make an engine known by its name and rules version; `current` makes new games use it."""
    _ENGINES[engine.name, engine.rules_version] = engine
    if current or engine.name not in _CURRENT:
        _CURRENT[engine.name] = engine
    return engine


def unregister(engine: Engine) -> None:
    """Forget an engine (tests register throwaway ones)."""
    _ENGINES.pop((engine.name, engine.rules_version), None)
    if _CURRENT.get(engine.name) is engine:
        del _CURRENT[engine.name]
        others = [e for (name, _), e in _ENGINES.items() if name == engine.name]
        if others:
            _CURRENT[engine.name] = others[-1]


def get(name: str, rules_version: str | None = None) -> Engine:
    """The engine of that name: of that rules version, or the current one when none is given."""
    engine = _CURRENT.get(name) if rules_version is None else _ENGINES.get((name, rules_version))
    if engine is None:
        what = name if rules_version is None else f"{name} rules version {rules_version!r}"
        raise UnknownEngine(f"This site has no engine for {what}.")
    return engine


def versions(name: str) -> list[str]:
    """The rules versions of an engine this site can replay."""
    return sorted(version for (n, version) in _ENGINES if n == name)


def default_name() -> str:
    """The engine a new game plays unless told otherwise (settings.GAMES_DEFAULT_ENGINE)."""
    name: str = settings.GAMES_DEFAULT_ENGINE
    return name


def default() -> Engine:
    return get(default_name())


def current() -> list[Engine]:
    """The engines new games may play, the default first, then by title: the create form
    offers a choice when there are several."""
    first = default_name()
    return sorted(_CURRENT.values(), key=lambda e: (e.name != first, e.look.title))
