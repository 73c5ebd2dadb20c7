"""The game log as players read it: oldest first, one group per turn with its player's name,
each line numbered by turn and step ("12.3": the third line of turn 12).

Lines come from the moves' stored public log lines (the same the emails quote). A
resignation, which is not a move of the game, is shown as a note after the step it followed;
the lines of the final scoring get a group of their own after the last turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext

from games.models import Game, Move, Seat
from games.rules.protocol import Engine

# Turns the game page shows; the whole log is a link away (and on the finished page).
PAGE_TURNS = 6
LOG_CACHE_SECONDS = 3600


@dataclass
class LogLine:
    number: str
    text: str
    timeout: bool = False
    note: bool = False  # not a step of the game (a resignation)
    minor: bool = False  # a pass or a forced step (Presentation.minor_line): may be hidden
    raw: str | None = None  # the stored line, {0} for seats: names become profile links


@dataclass
class LogTurn:
    turn: int | None  # None: the final scoring
    name: str = ""
    seat: int | None = None
    colour: str = ""
    lines: list[LogLine] = field(default_factory=list)
    when: datetime | None = None

    @property
    def anchor(self) -> str:
        return f"turn-{self.turn}" if self.turn is not None else "final-scoring"


def first_turn_shown(turn_no: int, *, whole: bool) -> int:
    """The oldest turn a log view loads: all of them, or the last PAGE_TURNS."""
    return 1 if whole else max(1, turn_no - PAGE_TURNS + 1)


def log_turns(
    moves: Iterable[Any],
    names: list[str],
    colours: list[str],
    *,
    engine: Engine,
    notes: dict[int, list[str]] | None = None,
    game_over: bool = False,
) -> list[LogTurn]:
    """Group moves (oldest first; with seq, turn, seat, log, timeout, created) into turns.

    ``notes``: lines to show after the move with that seq (before the next one);
    ``game_over``: the engine ended the game, so the last move's lines after its first
    ("... ends the turn") are the final scoring.
    """
    moves = list(moves)
    # A note says what happened after the step it names, i.e. before the next move; notes
    # older than the moves shown are left out.
    first = moves[0].seq if moves else 0
    pending = sorted((step, texts) for step, texts in (notes or {}).items() if step >= first - 1)
    tokens = ["{" + str(seat) + "}" for seat in range(len(names))]
    turns: list[LogTurn] = []
    for index, move in enumerate(moves):
        if not turns or turns[-1].turn != move.turn:
            turns.append(
                LogTurn(
                    turn=move.turn,
                    seat=move.seat,
                    name=names[move.seat] if move.seat < len(names) else "",
                    colour=colours[move.seat] if move.seat < len(colours) else "",
                )
            )
        group = turns[-1]
        group.when = move.created
        while pending and pending[0][0] < move.seq:
            _note(group, pending.pop(0)[1])
        # The raw line keeps its seat tokens (the template links them to profiles), worded
        # like the text: the engine fills tokens in with themselves.
        lines = [
            (engine.format_line(line, names), engine.format_line(line, tokens), line)
            for line in move.log
        ]
        if game_over and index == len(moves) - 1 and len(lines) > 1:
            _add(group, lines[:1], move.timeout, engine)
            final = LogTurn(turn=None, name=gettext("Final scoring"), when=move.created)
            final.lines = [LogLine("", text, raw=raw) for text, raw, _ in lines[1:]]
            turns.append(final)
            continue
        _add(group, lines, move.timeout, engine)
    for _, texts in pending:
        if turns:
            _note(turns[-1], texts)
    return turns


def _note(group: LogTurn, texts: list[str]) -> None:
    group.lines.extend(LogLine("", text, note=True) for text in texts)


def _add(group: LogTurn, lines: list[tuple[str, str, str]], timeout: bool, engine: Engine) -> None:
    for text, raw, stored in lines:
        number = f"{group.turn}.{len(group.lines) + 1}"
        minor = engine.minor_line(stored)
        group.lines.append(LogLine(number, text, timeout, raw=raw, minor=minor))


def resignation_notes(
    seats: Iterable[Any], names: list[str], *, ended: bool = False
) -> dict[int, list[str]]:
    """The log's notes of resignations: the step each came after, and what happened.
    ``ended``: a resignation ended the game (the latest one did)."""
    resigned = sorted(
        (s for s in seats if s.resigned_at is not None and s.resigned_step is not None),
        key=lambda s: s.resigned_at,
    )
    notes: dict[int, list[str]] = {}
    for seat in resigned:
        name = names[seat.number]
        if ended and seat is resigned[-1]:
            text = gettext("%(name)s resigned, which ends the game.") % {"name": name}
        else:
            text = gettext("%(name)s resigned; a bot plays the seat from here on.") % {"name": name}
        notes.setdefault(seat.resigned_step, []).append(text)
    return notes


@dataclass(frozen=True)
class DrawnLog:
    """The game page's log, drawn, and the moves the page's highlights read: those of the
    last turns at least (every one the log shows when it was drawn just now)."""

    html: str
    moves: list[Move]


def drawn_log(game: Game, seats: list[Seat], turn_no: int, *, whole: bool) -> DrawnLog:
    """The log as the page shows it: the last PAGE_TURNS turns, or ``whole``. Drawn once per
    version, time zone and language (the same for every viewer); a page that finds it drawn
    reads only the last two turns' changes."""
    key = _log_key(game, whole)
    html = cache.get(key)
    if html is not None:
        return DrawnLog(html, _moves(game, turn_no, whole=False, last=2))
    moves = _moves(game, turn_no, whole=whole)
    names = [s.name for s in seats]
    ended_early = game.ended_by_resignation
    log = log_turns(
        moves,
        names,
        [s.colour for s in seats],
        engine=game.engine,
        notes=resignation_notes(seats, names, ended=ended_early),
        game_over=game.is_finished and not ended_early,
    )
    html = render_to_string("games/_log.html", {"log": log, "whole_log": whole, "seats": seats})
    cache.set(key, html, LOG_CACHE_SECONDS)
    return DrawnLog(html, moves)


def _moves(game: Game, turn_no: int, *, whole: bool, last: int | None = None) -> list[Move]:
    """The moves the log shows: every one (whole log), or those of the last few turns; with
    ``last``, only those of the last ``last`` turns and without their log lines."""
    moves = Move.objects.filter(game=game)
    if last is not None:
        return list(
            moves.filter(turn__gte=turn_no - last + 1).only("seq", "turn", "seat", "changes")
        )
    if not whole:
        moves = moves.filter(turn__gte=first_turn_shown(turn_no, whole=False))
    return list(moves.only("seq", "turn", "seat", "log", "timeout", "changes", "created"))


def _log_key(game: Game, whole: bool) -> str:
    """The drawn log is the same for everyone at a version, but for the time zone its times
    are written in, and the language."""
    zone = timezone.get_current_timezone_name()
    language = translation.get_language()
    return f"game-log:{game.pk}:{game.version}:{int(whole)}:{zone}:{language}"
