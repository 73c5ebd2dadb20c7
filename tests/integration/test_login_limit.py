"""The sign-in guess limit holds on the production stack: four gunicorn workers behind a proxy,
counting in Redis (bench/login_limit.py runs it; make bench prints the same figure)."""

from __future__ import annotations

import pytest

from bench.login_limit import measure
from tests import figures

pytestmark = pytest.mark.beside  # its own gunicorn and Redis: beside the SQLite workers


def test_one_account_allows_five_guesses_across_four_workers_behind_a_proxy():
    result = measure(workers=4, guesses=40)
    figures.report(result.line())

    assert result.workers_hit > 1  # the guesses really were spread over the workers
    assert result.guesses_allowed == 5
    assert not result.right_password_after  # locked for 5 minutes, whoever guesses
