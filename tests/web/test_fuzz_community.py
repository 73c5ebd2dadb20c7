"""The POST fuzz of clubs, tournaments, the community and the chat's mutes: hostile payloads from
every kind of visitor, never a 5xx, no game changed but by a legal move. How:
tests/web/fuzzing.py; a file per group of routes, so that make test's workers share the fuzz."""

from __future__ import annotations

import pytest

from tests.web.fuzzing import (  # noqa: F401 - fixtures used by name
    fuzz_group,
    fuzz_report,
    production_errors,
    world,
)

pytestmark = pytest.mark.slow  # tens of seconds: make test starts it first
GROUP = "community"


def test_fuzz_every_post_endpoint_of_community_from_every_kind_of_visitor(world, production_errors):  # noqa: F811
    fuzz_group(GROUP, world)
