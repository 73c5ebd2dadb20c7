"""The POST fuzz is split by route groups into files that make test's workers share
(tests/web/fuzzing.py): every route of the site is in exactly one group, so every POST endpoint
is fuzzed by one of them, and the endpoints that must be fuzzed are routes of the site."""

from __future__ import annotations

from importlib import import_module

from tests.web.fuzzing import CORE, GROUPS, groups_of, site_routes


def test_it_puts_every_route_of_the_site_in_exactly_one_fuzz_group():
    routes = site_routes()
    assert len(routes) > 100  # the URL configuration was read
    misplaced = {route: groups_of(route) for route in routes if len(groups_of(route)) != 1}
    assert not misplaced, f"add each to one group in tests/web/fuzzing.py GROUPS: {misplaced}"
    assert set(routes) >= CORE, CORE - set(routes)


def test_it_gives_every_group_a_file_of_its_own():
    for group in GROUPS:
        assert group == import_module(f"tests.web.test_fuzz_{group}").GROUP
