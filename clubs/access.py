"""Who may look inside a club: the one access rule of the clubs app.

Anyone may see a club's name, description and door. Its members, ladder and games are shown
to everyone for an open club and to its members only for a club by invitation; to anyone else
those pages do not exist (404, as games.access does for a private game).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from clubs import membership
from clubs.models import Club, Membership


def club_or_404(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404(_("No such club."))
    return club


def may_see_inside(club: Club, member: Membership | None) -> bool:
    return club.is_open or member is not None


def inside_or_404(slug: str, user: Any) -> tuple[Club, Membership | None]:
    club = club_or_404(slug)
    member = membership.membership(club, user)
    if not may_see_inside(club, member):
        raise Http404(_("No such club."))
    return club, member
