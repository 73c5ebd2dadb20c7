"""`make bench`: every benchmark of the project, printing its figures."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import rules_bench  # noqa: E402


def main() -> None:
    rules_bench.main()


if __name__ == "__main__":
    main()
