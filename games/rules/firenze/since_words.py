"""What happened since a player's last turn, from two of that seat's views (before: just after
its last move; after: now): what affected the player first (a row card gone that they could
have taken, a commission of a colour they build fulfilled by someone else, bricks or storeys
they lost), then one line per other player, and the marks the board draws (issue 30).

Both views are the seat's own (player_view), so nothing hidden can be told: other players'
hands are counts, the deck is a number."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.rules.firenze.wording import card_name, colour_name
from games.rules.protocol import ChangesSince

MAX_CARDS_NAMED = 3


def changes_since(
    before: dict[str, Any], after: dict[str, Any], seat: int, names: Sequence[str]
) -> ChangesSince:
    sealed = _newly_sealed(before, after)
    for_you = _row_gone(before, after) + _fulfilled_by_others(before, after, seat, sealed, names)
    for_you += _my_losses(before, after, seat)
    count = len(after["players"])
    others = [  # in the order they played since
        line
        for other in ((seat + k) % count for k in range(1, count))
        for line in [_player_line(before, after, other, sealed, names)]
        if line
    ]
    marks = {
        "squares": [[colour, level] for colour, level, _owner in sealed],
        "seats": [
            p["seat"]
            for p, q in zip(before["players"], after["players"], strict=True)
            if p["pp"] != q["pp"] or _heights(p) != _heights(q) or p["store"] != q["store"]
        ],
    }
    return ChangesSince(for_you=for_you, others=others, marks=marks)


def _newly_sealed(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, int, Any]]:
    was = {(sq["color"], sq["level"]): sq["seal"] for sq in before["board"]["commissions"]}
    return [
        (sq["color"], sq["level"], sq["seal"])
        for sq in after["board"]["commissions"]
        if sq["seal"] is not None and was.get((sq["color"], sq["level"])) is None
    ]


def _row_gone(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    gone = Counter(r["card"] for r in before["row"]) - Counter(r["card"] for r in after["row"])
    cards = [card_name(card) for card in sorted(gone.elements())]
    if not cards:
        return []
    shown = ", ".join(cards[:MAX_CARDS_NAMED]) + ("…" if len(cards) > MAX_CARDS_NAMED else "")
    return [
        ngettext(
            "Gone from the row since your turn: %(cards)s.",
            "Gone from the row since your turn: %(cards)s.",
            len(cards),
        )
        % {"cards": shown}
    ]


def _fulfilled_by_others(
    before: dict[str, Any],
    after: dict[str, Any],
    seat: int,
    sealed: list[tuple[str, int, Any]],
    names: Sequence[str],
) -> list[str]:
    """Commissions of a colour the player has a tower of, sealed by someone else."""
    building = {t["color"] for t in before["players"][seat]["towers"]}
    return [
        _("%(name)s fulfilled the %(colour)s %(level)s, a colour you are building.")
        % {"name": names[owner], "colour": colour_name(colour), "level": level}
        for colour, level, owner in sealed
        if isinstance(owner, int) and owner != seat and colour in building
    ]


def _my_losses(before: dict[str, Any], after: dict[str, Any], seat: int) -> list[str]:
    """Bricks and storeys the player lost while the others played (events, the Smuggler)."""
    mine_before, mine_after = before["players"][seat], after["players"][seat]
    lines = []
    lost = mine_before["store_count"] - mine_after["store_count"]
    if lost > 0:
        lines.append(
            ngettext(
                "Your storehouse lost %(count)s brick.",
                "Your storehouse lost %(count)s bricks.",
                lost,
            )
            % {"count": lost}
        )
    now = _heights(mine_after)
    for colour, height in sorted(_heights(mine_before).items()):
        if now.get(colour, 0) < height:
            lines.append(
                _("Your %(colour)s tower went from %(before)s to %(after)s.")
                % {"colour": colour_name(colour), "before": height, "after": now.get(colour, 0)}
            )
    return lines


def _heights(player: dict[str, Any]) -> dict[str, int]:
    return {t["color"]: t["height"] for t in player["towers"]}


def _player_line(
    before: dict[str, Any],
    after: dict[str, Any],
    seat: int,
    sealed: list[tuple[str, int, Any]],
    names: Sequence[str],
) -> str:
    """One other player's changes: points, commissions fulfilled, towers raised, buildings."""
    was, now = before["players"][seat], after["players"][seat]
    parts = []
    fulfilled = [
        f"{colour_name(colour)} {level}" for colour, level, owner in sealed if owner == seat
    ]
    if fulfilled:
        parts.append(_("fulfilled %(commissions)s") % {"commissions": ", ".join(fulfilled)})
    heights, raised = _heights(was), []
    for colour, height in sorted(_heights(now).items()):
        if height > heights.get(colour, 0):
            raised.append(
                _("%(colour)s to %(height)s") % {"colour": colour_name(colour), "height": height}
            )
    if raised:
        parts.append(_("built %(towers)s") % {"towers": ", ".join(raised)})
    new_buildings = [card_name(b) for b in now["buildings"] if b not in was["buildings"]]
    if new_buildings:
        parts.append(_("put up %(buildings)s") % {"buildings": ", ".join(new_buildings)})
    gained = now["pp"] - was["pp"]
    if gained:
        parts.append(_("%(pp)s PP") % {"pp": f"{gained:+d}"})
    if not parts:
        return ""
    return _("%(name)s: %(changes)s.") % {"name": names[seat], "changes": "; ".join(parts)}
