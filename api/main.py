"""The public JSON API, version 1, on django-ninja: /api/v1/ with its OpenAPI schema at
/api/v1/openapi.json and browsable docs at /api/v1/docs (Swagger UI, served from the site's own
static files: the CSP allows no other host).

Why django-ninja rather than Django REST framework with drf-spectacular: the schema comes from
the same type hints that parse each request (pydantic), with no serializer layer to keep in
step with it; it is small, fast (no per-request class machinery), async-capable, and it lets
thin endpoints call the site's own services (games.play, games.lobby, chat.services) exactly as
the pages' thin views do. docs/api.md says more.
"""

from __future__ import annotations

from ninja import NinjaAPI

from api import errors
from api.auth import TOKEN_OR_VISITOR
from api.endpoints import account, games, lobby, plans, players, talk
from api.parser import BoundedJsonParser

api = NinjaAPI(
    title="Firenze online API",
    version="1",
    description=(
        "Your games, moves, table talk, the lobby, profiles and finished games. Authenticate "
        "with a personal token from your account page: `Authorization: Bearer fz_…`. Errors "
        "are JSON objects with a stable `code` and a `message` in your language "
        "(Accept-Language, else your account's). Live events: /streams/account/ and "
        "/streams/games/{id}/ (Server-Sent Events)."
    ),
    urls_namespace="api-v1",
    auth=TOKEN_OR_VISITOR,
    parser=BoundedJsonParser(),
    openapi_url="/openapi.json",
    docs_url="/docs",
)
errors.install(api)
for router in (
    account.router,
    games.router,
    plans.router,
    talk.router,
    lobby.router,
    players.router,
):
    api.add_router("", router)
