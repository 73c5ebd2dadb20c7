"""The rehearsal on several nodes, short (bench/cluster.py; ``make cluster`` plays 50 games): a
data node, two web nodes behind HAProxy and two worker nodes in network namespaces play a few
games while web node 1 is cut off, a worker node and beat's node are killed and Redis restarts;
afterwards nothing is lost or doubled, no email went twice, beat never scheduled twice, and
Prometheus recorded each fault and the recovery."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench import cluster
from tests import figures

pytestmark = [
    pytest.mark.skipif(
        os.geteuid() != 0, reason="network namespaces need root (CI and make test run as root)"
    ),
    pytest.mark.beside,  # a minute of waiting on its own nodes: beside the SQLite workers
]


def test_a_short_rehearsal_on_five_nodes_loses_nothing():
    done = subprocess.run(
        [sys.executable, "-m", "bench.cluster", "--games", "4", "--concurrency", "4", "--calm",
         "5"],
        cwd=cluster.ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    lines = [line.strip() for line in done.stdout.splitlines() if line.startswith("  ")]
    figures.report("cluster (short): " + " | ".join(lines))
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-5000:]
    assert "cluster: all checks passed" in done.stdout
    assert "1 web node 1 cut off and back, 1 worker node 2 killed and back" in done.stdout
    assert "0 differ" in done.stdout and ", 0 twice," in done.stdout
    assert (
        subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.count(
            "fz32-"
        )
        == 0
    )
