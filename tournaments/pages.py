"""What the tournament pages show, each part a fixed number of queries whatever the size of the
field: the lists, a round's tables with their games' state, the standings (read from the stored
computation, names joined in one query), a player's schedule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Sum
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat
from games.rules import protocol, registry
from players.templatetags.players import profile_url
from tournaments.models import Entry, Round, Table, TableSeat, Tournament

LIST_SIZE = 50
FINISHED_LISTED = 20

# The tie-breaks as the standings head them, and the sentence that states each format's rules.
TIEBREAK_LABELS = {
    "swiss": [_("Buchholz"), _("Sonneborn-Berger"), _("Won")],
    "groups": [_("Head-to-head"), _("Score")],
    "knockout": [],
    "season": [_("Won"), _("Score")],
}
RULES = {
    "swiss": _(
        "Ranking points at each table: one for every player you finish ahead of, half for each "
        "you tie with (a table one seat short counts as a full one; a bye counts as a win). "
        "Level on points: Buchholz (the average points of your table-mates, summed over the "
        "rounds; a bye counts as meeting a player of your own score), then Sonneborn-Berger "
        "(your table-mates' points times your result against each, averaged per table), then "
        "tables won. Level on all of them: a shared place."
    ),
    "groups": _(
        "Ranking points at each table: one for every player you finish ahead of, half for each "
        "you tie with. In a group, level on points: head-to-head (the points you scored against "
        "the players level with you), then the game's own score over the group's games. The "
        "final table of the group winners, if any, decides the top places."
    ),
    "knockout": _(
        "2-player games; the winner goes through. A drawn game sends the higher seed (the "
        "higher rating at the start) through, and so does a withdrawal. Places: how far each "
        "player got."
    ),
    "season": _(
        "Ranking points at each table: one for every player you finish ahead of, half for each "
        "you tie with; a game counts for the season in which it was dealt. Level on points: "
        "tables won, then the game's own score."
    ),
}
WITHDRAWAL_RULE = _(
    "A player who runs out of time twice in a row in this tournament's games (with no move in "
    "time between) is withdrawn: not paired again, and a bot (Standard) plays their seats to the "
    "end of the games they are in."
)


# --- lists ----------------------------------------------------------------------------------


def listed(filters: dict[str, Any]) -> QuerySet[Tournament]:
    rows = (
        Tournament.objects.listed()
        .exclude(format=Tournament.Format.SEASON)
        .annotate(players=Count("entries"))
    )
    if filters.get("size"):
        rows = rows.filter(table_size=filters["size"])
    for facet in registry.default().record_facets:
        if filters.get(facet.key):
            rows = rows.filter(facets__contains=protocol.facet_token(facet.key, filters[facet.key]))
    return rows


def sections(filters: dict[str, Any]) -> dict[str, list[Tournament]]:
    rows = listed(filters)
    status = Tournament.Status
    return {
        "open": list(
            rows.filter(status=status.SIGNUP).order_by("-featured", "signup_closes")[:LIST_SIZE]
        ),
        "running": list(
            rows.filter(status=status.RUNNING).order_by("-featured", "-started_at")[:LIST_SIZE]
        ),
        "finished": list(
            rows.filter(status=status.FINISHED).order_by("-finished_at")[:FINISHED_LISTED]
        ),
    }


def mine(user: Any) -> list[Tournament]:
    """The viewer's tournaments not yet over (private ones too), and the seasons they play."""
    if not user.is_authenticated:
        return []
    playing = Entry.objects.filter(tournament=OuterRef("pk"), user=user)
    return list(
        Tournament.objects.filter(Exists(playing))
        .filter(Q(status=Tournament.Status.SIGNUP) | Q(status=Tournament.Status.RUNNING))
        .annotate(players=Count("entries"))
        .order_by("-created")[:LIST_SIZE]
    )


# --- standings ------------------------------------------------------------------------------


@dataclass
class Person:
    display_name: str


@dataclass
class StandingRow:
    rank: int
    tied: bool
    entry: int
    name: str
    display: str  # the display name ("" for a former player): the profile's address
    schedule: str
    points: float
    played: int
    wins: int
    byes: int
    score: int
    tiebreaks: list[float]
    withdrawn: bool
    group: int | None
    group_rank: int | None
    finalist: bool
    seed: int | None
    is_me: bool = False

    @property
    def profile(self) -> str | None:
        return profile_url(Person(self.display)) if self.display else None


def names(tournament: Tournament) -> dict[int, tuple[str, str, int | None]]:
    """Entry id -> (public name, display name, seed): one query."""
    rows = tournament.entries.values_list("pk", "user__display_name", "user_id", "seed")
    former = gettext("Former player")
    found = {}
    for pk, display, user_id, seed in rows:
        public = display or (former if user_id is None else f"#{user_id}")
        found[pk] = (public, display or "", seed)
    return found


def standing_rows(tournament: Tournament, viewer: Any = None) -> list[StandingRow]:
    """The stored standings with names, schedule links and the viewer marked."""
    known = names(tournament)
    mine = None
    if viewer is not None and viewer.is_authenticated:
        mine = tournament.entries.filter(user_id=viewer.pk).values_list("pk", flat=True).first()
    schedule = reverse("tournaments:schedule", args=[tournament.pk, 0])[:-2]
    shown = len(TIEBREAK_LABELS[tournament.format])
    unknown = (gettext("Former player"), "", None)
    rows = []
    for data in tournament.standings:
        name, display, seed = known.get(data["entry"], unknown)
        rows.append(
            StandingRow(
                rank=data["rank"],
                tied=data["tied"],
                entry=data["entry"],
                name=name,
                display=display,
                schedule=f"{schedule}{data['entry']}/",
                points=data["points"],
                played=data["played"],
                wins=data["wins"],
                byes=data["byes"],
                score=data["score"],
                tiebreaks=data["tiebreaks"][:shown],
                withdrawn=data["withdrawn"],
                group=data["group"],
                group_rank=data["group_rank"],
                finalist=data["finalist"],
                seed=seed,
                is_me=data["entry"] == mine,
            )
        )
    return rows


def number(value: float, separator: str) -> str:
    """Points as people write them: 2, 2.5, 2.33 (at most two decimals; the language's
    decimal separator)."""
    return f"{value:.2f}".rstrip("0").rstrip(".").replace(".", separator)


def rows_html(rows: list[StandingRow], *, in_group: bool = False, token: str = "") -> SafeString:
    """The standings' rows, drawn in Python: a 512-player table is 512 rows of eight cells,
    which the template engine draws ten times slower (tournaments/_standings_table.html has
    the head and says what each cell is). Names and links are escaped; the rest are numbers
    and our own words, escaped once."""
    separator = str(get_format("DECIMAL_SEPARATOR"))
    # The words first: xgettext (make messages) does not look inside f-strings.
    labels = (
        escape(gettext("(shared)")),
        escape(gettext("withdrawn")),
        escape(gettext("final table")),
    )
    shared = f'=<span class="vh"> {labels[0]}</span>'
    withdrawn = f' <span class="badge badge-quiet">{labels[1]}</span>'
    final = f' <span class="badge">{labels[2]}</span>'
    query = escape(f"?{urlencode({'token': token})}") if token else ""
    byes: dict[int, str] = {}
    lines = []
    for row in rows:
        badges = withdrawn if row.withdrawn else ""
        if row.byes:
            if row.byes not in byes:
                words = ngettext("%(count)s bye", "%(count)s byes", row.byes)
                byes[row.byes] = (
                    f' <span class="badge badge-quiet">{escape(words % {"count": row.byes})}</span>'
                )
            badges += byes[row.byes]
        if row.finalist and not in_group:
            badges += final
        cells = "".join(
            f'<td class="num">{number(value, separator)}</td>' for value in row.tiebreaks
        )
        me = ' class="me"' if row.is_me else ""
        rank = row.group_rank if in_group else row.rank
        lines.append(
            f'<tr{me}><td class="rank">{rank}{shared if row.tied else ""}</td>'
            f'<td><a href="{escape(row.schedule)}{query}">{escape(row.name)}</a>{badges}</td>'
            f'<td class="num">{number(row.points, separator)}</td>'
            f'<td class="num">{row.played}</td>{cells}</tr>'
        )
    return mark_safe("\n".join(lines))  # noqa: S308 - every variable part escaped above


def by_group(rows: list[StandingRow]) -> list[tuple[int | None, list[StandingRow]]]:
    """Round robin: each group's table, its rows in group order."""
    groups: dict[int | None, list[StandingRow]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    return [
        (group, sorted(members, key=lambda r: (r.group_rank or 0, -r.points, r.seed or 0)))
        for group, members in sorted(
            groups.items(), key=lambda item: (item[0] is None, item[0] or 0)
        )
    ]


# --- rounds and tables ----------------------------------------------------------------------


@dataclass
class TableView:
    table: Table
    players: list[dict[str, Any]] = field(default_factory=list)
    state: str = ""  # bye, playing, finished
    acting: str = ""  # playing: who is to move (a player, or the bot in a player's seat)
    bot_for: str = ""  # the bot moves for this player (a timeout, a withdrawal)


def round_tables(round_: Round) -> list[TableView]:
    """Every table of a round with its players, places and state (whose move it is while its
    game is played): three queries however many tables. The drawn round is cached by
    round_version."""
    tables = (
        Table.objects.filter(round=round_)
        .prefetch_related(
            Prefetch("seats", queryset=TableSeat.objects.select_related("entry__user"))
        )
        .order_by("number")
    )
    views = []
    for table in tables:
        view = TableView(table)
        for seat in table.seats.all():
            view.players.append({"entry": seat.entry, "place": seat.place})
        if table.game_id is None:
            view.state = "bye"
        elif table.finished_at is not None:
            view.state = "finished"
            view.players.sort(key=lambda p: p["place"] or 0)
        else:
            view.state = "playing"
        views.append(view)
    _to_move(views)
    return views


def _to_move(views: list[TableView]) -> None:
    """Who is to move at each table being played: the acting seats, in one query."""
    playing = {view.table.game_id: view for view in views if view.state == "playing"}
    acting = Seat.objects.filter(
        game_id__in=list(playing), game__status=Game.Status.ACTIVE, number=F("game__acting_seat")
    ).select_related("user")
    for seat in acting:
        view = playing[seat.game_id]
        if seat.autopilot and seat.user is not None:
            view.bot_for = seat.user.public_name
        else:
            view.acting = seat.name


def round_version(round_: Round) -> int:
    """What changes whenever the round's page would: a move in any of its games (each raises
    its game's version), a table ending (the tournament's version, in the caller's key)."""
    total = Game.objects.filter(tournament_table__round=round_).aggregate(v=Sum("version"))["v"]
    return int(total or 0)


# --- a player's schedule --------------------------------------------------------------------


@dataclass
class ScheduleLine:
    round: Round
    table: Table
    mates: list[Entry]
    place: int | None
    state: str


def schedule(entry: Entry) -> list[ScheduleLine]:
    """The player's table in each round so far: two queries."""
    seats = (
        TableSeat.objects.filter(entry=entry)
        .select_related("table__round", "table__game")
        .defer("table__game__state", "table__game__options")
        .order_by("table__round__number", "table__number")
    )
    mine = list(seats)
    mates: dict[int, list[Entry]] = {}
    others = (
        TableSeat.objects.filter(table_id__in=[s.table_id for s in mine])
        .exclude(entry=entry)
        .select_related("entry__user")
    )
    for seat in others:
        mates.setdefault(seat.table_id, []).append(seat.entry)
    lines = []
    for seat in mine:
        table = seat.table
        if table.game_id is None:
            state = "bye"
        elif table.finished_at is not None:
            state = "finished"
        else:
            state = "playing"
        lines.append(ScheduleLine(table.round, table, mates.get(table.pk, []), seat.place, state))
    return lines
