"""Every page by GET and HEAD with hostile queries and ids, from every kind of visitor: never a
5xx, and looking changes no game. The world, the routes and the strategies are the POST fuzz's
(tests/web/fuzzing.py); a file of its own so the two long runs go to different workers."""

from __future__ import annotations

import pytest

from tests.web.fuzzing import (  # noqa: F401 - fixtures used by name
    GET_SERVER_ERRORS,
    fuzz_page,
    fuzz_report,
    production_errors,
    site_routes,
    takes_get,
    world,
)

# On PostgreSQL, the database production uses, in make test's lane beside the SQLite workers
# (it takes 22 s alone there, and 42 s of a SQLite worker in the run); the POST fuzz and
# tests/web/test_hostile_requests.py put hostile requests to SQLite.
pytestmark = pytest.mark.postgres


def test_fuzz_every_page_by_get_and_head_with_hostile_queries_and_ids(world, production_errors):  # noqa: F811
    pages = [route for route in site_routes() if takes_get(route, world)]
    for route in pages:
        fuzz_page(route, world)
    assert {
        "games/<int:pk>/", "games/", "games/<int:pk>/version/", "games/<int:pk>/plan/",
        "games/<int:pk>/replay/what-if/", "games/<int:pk>/replay/what-if/estimate/",
    } <= set(pages)  # fmt: skip
    assert not GET_SERVER_ERRORS
