"""The ladder's rules, pure: a ladder is the members' ids from the top place down.

A member may challenge anyone up to ``reach`` places above them. When the lower player wins
they take the higher place, and everyone from that place down to their old one moves down one
(the loser included); when the higher player wins (or nobody does), nothing moves.
"""

from __future__ import annotations

from collections.abc import Sequence


def place_of(ladder: Sequence[int], member: int) -> int:
    """1 for the top of the ladder."""
    return ladder.index(member) + 1


def may_challenge(ladder: Sequence[int], challenger: int, challenged: int, reach: int) -> bool:
    if challenger not in ladder or challenged not in ladder or challenger == challenged:
        return False
    gap = place_of(ladder, challenger) - place_of(ladder, challenged)
    return 0 < gap <= reach


def challengeable(ladder: Sequence[int], challenger: int, reach: int) -> list[int]:
    """Whom the member may challenge, nearest first."""
    if challenger not in ladder:
        return []
    at = ladder.index(challenger)
    return list(reversed(ladder[max(0, at - reach) : at]))


def after_game(ladder: Sequence[int], winner: int | None, loser: int) -> list[int]:
    """The ladder once ``winner`` beat ``loser`` (winner None: a draw, nothing moves)."""
    order = list(ladder)
    if winner is None or winner not in order or loser not in order:
        return order
    if order.index(winner) < order.index(loser):
        return order  # the higher player held their place
    order.remove(winner)
    order.insert(order.index(loser), winner)
    return order
