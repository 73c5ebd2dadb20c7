"""The history of finished games: its filters, parsed from a bookmarkable query string, and the
query behind each page.

Every list reads players.GameRecord and SeatResult rows (written at each game's end, indexed
for each filter), never a game's state. A filter that cannot be read is dropped with a note
instead of failing: a mistyped bookmark still shows the history.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.forms import DISPLAY_NAME_MAX_LENGTH
from games.rules import protocol, registry
from players.listing import listed_games
from players.models import GameRecord, SeatResult

PER_PAGE = 50
COUNT_CAP = 5_000  # a hundred pages
FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2100, 12, 31)
_PAGE_NUMBER = re.compile(r"[0-9]{1,7}")


class HistoryFilters(forms.Form):
    player = forms.CharField(label=gettext_lazy("Played by"), max_length=24, required=False)
    players = forms.TypedChoiceField(
        label=gettext_lazy("Number of players"),
        choices=[
            ("", gettext_lazy("Any number")),
            ("2", gettext_lazy("2 players")),
            ("3", gettext_lazy("3 players")),
            ("4", gettext_lazy("4 players")),
        ],
        coerce=int,
        empty_value=None,
        required=False,
    )
    since = forms.DateField(
        label=gettext_lazy("From"),
        required=False,
        validators=[MinValueValidator(FIRST_DAY), MaxValueValidator(LAST_DAY)],
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    until = forms.DateField(
        label=gettext_lazy("To"),
        required=False,
        validators=[MinValueValidator(FIRST_DAY), MaxValueValidator(LAST_DAY)],
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    mine = forms.BooleanField(label=gettext_lazy("Only games I played"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The game's own filters (Engine.record_facets) go before "Only games I played"."""
        super().__init__(*args, **kwargs)
        mine = self.fields.pop("mine")
        for facet in registry.default().record_facets:
            self.fields[facet.key] = forms.ChoiceField(
                label=facet.label, choices=list(facet.choices), required=False
            )
        self.fields["mine"] = mine

    @property
    def facet_fields(self) -> list[Any]:
        """The bound fields of the game's own filters, in order, for the template."""
        return [self[facet.key] for facet in registry.default().record_facets]


@dataclass
class ListPage:
    """One page of a list counted only up to COUNT_CAP: past that the total is "more than"
    (BGA-style), so counting costs the same in a database of a thousand games or a million."""

    number: int
    rows: list[Any]
    total: int  # exact when not capped
    capped: bool
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def last(self) -> int | None:
        """The last page's number, when the total is known."""
        return None if self.capped else max(1, -(-self.total // PER_PAGE))


@dataclass
class History:
    """One page of the history as the template draws it."""

    form: HistoryFilters
    page: ListPage
    notes: list[str] = field(default_factory=list)
    applied: list[tuple[str, str]] = field(default_factory=list)  # the filters in use, as sent

    def page_url(self, number: int) -> str:
        return "?" + urlencode([*self.applied, ("page", number)])

    @property
    def previous_url(self) -> str | None:
        page = self.page
        return self.page_url(page.number - 1) if page.has_previous else None

    @property
    def next_url(self) -> str | None:
        page = self.page
        return self.page_url(page.number + 1) if page.has_next else None

    @property
    def pages(self) -> list[dict[str, Any]]:
        """The pager: first, a window around this page, and the last when it is known; None
        marks a gap."""
        current, last = self.page.number, self.page.last
        end = min(last, current + 2) if last else current + (2 if self.page.has_next else 0)
        shown = sorted({1, *range(max(1, current - 2), end + 1), *([last] if last else [])})
        links: list[dict[str, Any]] = []
        for number in shown:
            if links and number != links[-1]["number"] + 1:
                links.append({"number": None})
            links.append(
                {"number": number, "url": self.page_url(number), "current": number == current}
            )
        return links


def find_player(name: str) -> Any | None:
    """The player with this display name, whatever its case (the unique index is on lower())."""
    User = get_user_model()
    name = (name or "").strip()
    if not name or len(name) > DISPLAY_NAME_MAX_LENGTH or "\x00" in name:
        return None  # no display name is like that (PostgreSQL refuses NUL in a query)
    return (
        User.objects.annotate(lower_name=Lower("display_name"))
        .filter(lower_name=name.lower())
        .only("pk", "display_name")
        .first()
    )


def _signed_in(viewer: Any) -> bool:
    return viewer is not None and getattr(viewer, "is_authenticated", False)


def visible_to(viewer: Any, record: str = "pk") -> Q:
    """Public games for everyone; private ones only for the people who played them. `record`
    names the game record's id in the query this filters.

    The viewer's private games are read first (a small partial index) and named by id: a
    test per row against a short list, where a subquery per row made PostgreSQL plan (and
    JIT-compile) a count of every game as if it were expensive."""
    prefix = "" if record == "pk" else "record__"
    public = Q(**{f"{prefix}is_public": True})
    if not _signed_in(viewer):
        return public
    own = SeatResult.objects.filter(user=viewer, is_public=False)
    return public | Q(**{f"{record}__in": list(own.values_list("record_id", flat=True))})


def _start_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def read_filters(params: Any, viewer: Any) -> tuple[HistoryFilters, dict[str, Any], list[str]]:
    """The valid filters, and a note for each one that was dropped."""
    form = HistoryFilters(params)
    form.is_valid()
    notes = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else name
        text = _("The “%(label)s” filter was ignored: %(errors)s")
        notes.append(text % {"label": label, "errors": " ".join(str(e) for e in errors)})
    data = {k: v for k, v in form.cleaned_data.items() if v not in (None, "", False)}
    if "player" in data:
        player = find_player(data["player"])
        if player is None:
            text = _("There is no player called “%(name)s”; that filter was ignored.")
            notes.append(text % {"name": data["player"]})
            del data["player"]
        else:
            data["player"] = player
    if data.get("mine") and not getattr(viewer, "is_authenticated", False):
        notes.append("Sign in to see only the games you played.")
        del data["mine"]
    if "since" in data and "until" in data and data["since"] > data["until"]:
        notes.append("The “From” date is after the “To” date; the dates were swapped.")
        data["since"], data["until"] = data["until"], data["since"]
    return form, data, notes


def finished_games(filters: dict[str, Any], viewer: Any) -> QuerySet:
    """The ids of the matching records, newest first, each query led by an index: a player's
    games by their results (user, finished_at), all games by the records (finished_at, or
    num_players and finished_at)."""
    anchor = filters.get("player") or (viewer if filters.get("mine") else None)
    rows: QuerySet[Any]
    if anchor is None:
        rows = GameRecord.objects.filter(visible_to(viewer))
        prefix, order = "", ("-finished_at", "-pk")
        ids = "pk"
    else:
        rows = SeatResult.objects.filter(user=anchor)
        if filters.get("mine") and viewer.pk != anchor.pk:
            rows = rows.filter(
                Exists(SeatResult.objects.filter(record=OuterRef("record_id"), user=viewer))
            )
        if not (_signed_in(viewer) and viewer.pk == anchor.pk):
            rows = rows.filter(visible_to(viewer, "record_id"))
        prefix, order = "record__", ("-finished_at", "-record_id")
        ids = "record_id"
    if "players" in filters:
        rows = rows.filter(**{f"{prefix}num_players": filters["players"]})
    for facet in registry.default().record_facets:  # each an indexed column's substring
        if facet.key in filters:
            token = protocol.facet_token(facet.key, filters[facet.key])
            rows = rows.filter(**{f"{prefix}facets__contains": token})
    if "since" in filters:
        rows = rows.filter(finished_at__gte=_start_of(filters["since"]))
    if "until" in filters:
        rows = rows.filter(finished_at__lt=_start_of(filters["until"] + timedelta(days=1)))
    return rows.order_by(*order).values_list(ids, flat=True)


def records_in_order(ids: list[int]) -> list[GameRecord]:
    """The records with these ids, in this order, each with its seats in finishing order and
    their players (two queries)."""
    seats = SeatResult.objects.select_related("user").order_by("place", "seat")
    found = (
        GameRecord.objects.filter(pk__in=ids)
        .annotate(game_name=F("game__name"))  # the title lists show: a join on the key
        .prefetch_related(Prefetch("results", queryset=seats))
    )
    by_id = {record.pk: record for record in found}
    return [by_id[pk] for pk in ids if pk in by_id]


def page_number(raw: str | None, notes: list[str]) -> int:
    if raw is None or raw == "":
        return 1
    if not _PAGE_NUMBER.fullmatch(raw) or int(raw) < 1:
        notes.append("That page number could not be read; here is the first page.")
        return 1
    return int(raw)


def only_pages(last: int) -> str:
    """The note for a page number past the end ("There is only one page")."""
    if last == 1:
        return _("There is only one page; here it is.")
    return _("There are only %(last)s pages; here is the last one.") % {"last": last}


def list_page(rows: QuerySet, number: int, notes: list[str]) -> ListPage:
    """Page `number` of `rows` (ids, in order), with the total counted up to COUNT_CAP."""
    counted = rows[: COUNT_CAP + 1].count()
    capped = counted > COUNT_CAP
    if not capped:
        last = max(1, -(-counted // PER_PAGE))
        if number > last:
            if counted:
                notes.append(only_pages(last))
            number = last
    start = (number - 1) * PER_PAGE
    ids = list(rows[start : start + PER_PAGE + 1])
    if capped and not ids and number > 1:  # past the end of a list too long to count
        counted, capped = rows.count(), False
        number = max(1, -(-counted // PER_PAGE))
        notes.append(only_pages(number))
        start = (number - 1) * PER_PAGE
        ids = list(rows[start : start + PER_PAGE + 1])
    return ListPage(number, ids[:PER_PAGE], counted, capped, len(ids) > PER_PAGE)


def history(params: Any, viewer: Any) -> History:
    form, filters, notes = read_filters(params, viewer)
    number = page_number(params.get("page"), notes)
    page = list_page(finished_games(filters, viewer), number, notes)
    highlight = filters.get("player") or (viewer if filters.get("mine") else None)
    page.rows = listed_games(records_in_order(page.rows), highlight)
    applied = [(name, params.get(name)) for name in form.fields if name in filters]
    return History(form=form, page=page, notes=notes, applied=applied)
