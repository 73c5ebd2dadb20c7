"""`{% reliability_mark user %}` beside a name (lobby, invitations, tournament entries),
`{% reliability_marks users as marks %}` then `{{ marks|mark_for:user_id }}` for a long list
(one query), and `{% reliability_box player %}` on a profile."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from community import reliability, social, standing, wording
from community.forms import RequirementForm
from community.models import TableRequirement

register = template.Library()


def _mark(figures: reliability.Reliability) -> SafeString:
    css = "reliability-mark new" if figures.new_player else "reliability-mark"
    return format_html(
        '<span class="{}" title="{}">{}</span>',
        css,
        wording.mark_title(figures),
        wording.short_mark(figures),
    )


@register.simple_tag
def reliability_mark(user: Any) -> SafeString:
    """One player's mark (one query): for a name or a few."""
    if user is None or getattr(user, "pk", None) is None or getattr(user, "bot_account", False):
        return SafeString("")
    return _mark(standing.figures_of(user))


@register.simple_tag
def reliability_marks(users: Any) -> dict[int, reliability.Reliability]:
    """Many players' figures in one query: users, or rows with a user_id."""
    ids = [getattr(u, "user_id", None) or getattr(u, "pk", None) for u in users or []]
    return standing.figures_by_user(ids)


@register.filter
def mark_for(marks: dict[int, reliability.Reliability], user_id: Any) -> SafeString:
    if user_id is None:
        return SafeString("")
    return _mark(marks.get(user_id, reliability.NEW))


@register.inclusion_tag("community/_reliability.html")
def reliability_box(player: Any) -> dict[str, Any]:
    figures = standing.figures_of(player)
    return {
        "figures": figures,
        "move_time": wording.move_time(figures.median_seconds),
        "new_below": standing.new_player_games(),
    }


@register.inclusion_tag("community/_requirements.html", takes_context=True)
def table_requirements(context: Any, game: Any) -> dict[str, Any]:
    """What a table asks of its players: the creator's form while it forms, and for anyone
    else outside it, why they cannot join."""

    user = context.get("user")
    requirement = TableRequirement.objects.filter(game=game).first()
    is_creator = user is not None and user.is_authenticated and game.creator_id == user.pk
    # Why the viewer may not sit here is the forming page's own (games.forming_page: join_refusal),
    # shown in place of its "Take a seat" button.
    reason = None
    form = None
    if is_creator and game.is_open:
        initial: dict[str, Any] = {}
        if requirement is not None:
            initial = {
                "min_finished": requirement.min_finished,
                "min_rating": requirement.min_rating,
                "max_rating": requirement.max_rating,
            }
        form = RequirementForm(initial=initial)
    return {
        "game": game,
        "requirement": requirement
        if requirement is not None and not requirement.is_empty
        else None,
        "form": form,
        "reason": reason,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("community/_social.html", takes_context=True)
def social_buttons(context: Any, player: Any) -> dict[str, Any]:

    user = context.get("user")
    if user is None or not user.is_authenticated or user.pk == player.pk:
        return {"show": False}
    return {
        "show": True,
        "player": player,
        "relation": social.relation(user, player),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("community/_friends_games.html", takes_context=True)
def friends_games(context: Any) -> dict[str, Any]:
    """The inbox's "Friends' games": public games being played by players the reader follows
    (nothing at all for a player who follows nobody)."""
    user = context.get("user")
    games = social.friends_games(user) if user is not None and user.is_authenticated else []
    return {"games": games}
