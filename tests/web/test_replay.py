"""`replay_games`: every started game's state rebuilt from seed, options and moves must equal the
stored one; a difference is reported (CommandError, exit status 1) and `--fix` repairs it.
"""

from __future__ import annotations

import json
import random
from io import StringIO

import pytest
from django.core.management import CommandError, ManagementUtility, call_command
from django.urls import reverse

from games import lobby, play
from games.models import Game, Move
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from tests.web.helpers import (
    HTMX,
    fast_forward,
    play_greedy,
    post_move,
    signed_in,
    started_game,
)

pytestmark = pytest.mark.django_db


def replay(*args: str) -> str:
    out = StringIO()
    call_command("replay_games", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def games(anna, ben, carla):
    """Two games some way in, plus a forming and a cancelled one (no state: not replayed)."""
    first = started_game(anna, ben, campanile=True)
    fast_forward(first, 40)
    second = started_game(carla, bots=2, seal_placement="random")
    fast_forward(second, 40)
    lobby.create_game(anna, num_players=4)
    cancelled = lobby.create_game(ben, num_players=2)
    lobby.cancel(cancelled, ben)
    return [first, second]


def test_it_finds_no_difference_after_real_play(
    anna, ben, carla, dario, django_capture_on_commit_callbacks
):
    """Games played every way a game is played: through the pages with an undo, by bots right
    after a player's move (a Celery task), to the end, with every option; plus ones never
    started (no state: not replayed)."""
    through_pages = started_game(anna, ben, campanile=True, neutral_seals=0)
    play_greedy(through_pages, 300, until=lambda s: s.step > 0 and rules.can_undo(s))
    player = signed_in(through_pages.seats.get(number=through_pages.acting_seat).user)
    undo = reverse("games:undo", args=[through_pages.pk])
    assert player.post(undo, {"version": through_pages.version}, **HTMX).status_code == 200
    through_pages.refresh_from_db()
    action = rules.legal_actions(through_pages.load_state())[0]
    assert post_move(player, through_pages, action, through_pages.version).status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        with_bots = started_game(carla, bots=2, seal_placement="random")
    with_bots.refresh_from_db()
    assert with_bots.acting_seat == with_bots.seats.get(user=carla).number  # bots moved first
    rng = random.Random(1)
    for _ in range(500):  # Carla's turn, followed at once by the bots' turns (a Celery task)
        action = greedy(with_bots.load_state(), rng)
        with django_capture_on_commit_callbacks(execute=True):
            play.submit_move(with_bots.pk, carla, action, with_bots.version)
        with_bots.refresh_from_db()
        if with_bots.moves.last().by_bot:
            break
    assert with_bots.acting_seat == with_bots.seats.get(user=carla).number

    finished = started_game(dario, ben, seal_placement="dead_color", neutral_seals=7)
    fast_forward(finished)  # to the final scores
    assert finished.is_finished
    lobby.create_game(anna, num_players=4)  # forming: no state yet
    cancelled = lobby.create_game(ben, num_players=2)
    lobby.cancel(cancelled, ben)

    assert replay().strip().endswith("Replayed 3 games: 0 differ.")


@pytest.mark.parametrize(
    ("tamper", "key"),
    [
        (
            lambda s: s["players"][0]["store"].__setitem__(0, s["players"][0]["store"][0] + 1),
            "players",
        ),
        (lambda s: s["deck"].reverse(), "deck"),
        (lambda s: s.__setitem__("step", s["step"] + 1), "step"),
    ],
    ids=["bricks", "deck-order", "step"],
)
def test_it_reports_a_game_whose_stored_state_was_tampered_with(games, tamper, key):
    game = games[0]
    state = json.loads(json.dumps(game.state))
    tamper(state)
    Game.objects.filter(pk=game.pk).update(state=state)

    out = StringIO()
    with pytest.raises(CommandError, match=r"Replayed 2 games: 1 differ\."):
        call_command("replay_games", stdout=out)

    report = out.getvalue()
    assert f"Game {game.pk}: stored state differs from the replay of" in report
    assert key in report.split(" in: ")[1]
    for other in games[1:]:
        assert f"Game {other.pk}:" not in report


def test_it_exits_with_status_1_from_the_command_line(games, capsys):
    game = games[1]
    state = dict(game.state, pouch=[0, 0, 0, 0, 0, 0])
    Game.objects.filter(pk=game.pk).update(state=state)

    with pytest.raises(SystemExit) as exit:
        ManagementUtility(["manage.py", "replay_games"]).execute()

    assert exit.value.code == 1
    captured = capsys.readouterr()
    assert f"Game {game.pk}: stored state differs" in captured.out
    assert "1 differ" in captured.err


def test_it_replays_only_the_games_it_is_given(games):
    """A harness sharing its database with others (the soak in a test) names its own games:
    another's game, even a broken one, neither counts nor fails it."""
    mine, other = games
    Game.objects.filter(pk=other.pk).update(state=dict(other.state, pouch=[0, 0, 0, 0, 0, 0]))

    assert "Replayed 1 games: 0 differ." in replay(str(mine.pk))
    with pytest.raises(CommandError, match=r"Replayed 1 games: 1 differ\."):
        replay(str(other.pk))


def test_it_reports_a_move_log_that_no_longer_replays(games):
    game = games[0]
    first = Move.objects.filter(game=game).order_by("seq").first()
    Move.objects.filter(pk=first.pk).update(action={"type": "end_turn"})

    out = StringIO()
    with pytest.raises(CommandError):
        call_command("replay_games", stdout=out)

    assert f"Game {game.pk}: move log does not replay:" in out.getvalue()


def test_it_repairs_tampered_states_with_fix(games, ben, carla):
    over = started_game(ben, carla)
    fast_forward(over)
    bricks = games[0]
    state = json.loads(json.dumps(bricks.state))
    state["players"][1]["store"] = [9, 9, 9, 9, 9, 9]
    Game.objects.filter(pk=bricks.pk).update(state=state, acting_seat=None)
    final = json.loads(json.dumps(over.state))
    final["final"]["winners"] = []
    Game.objects.filter(pk=over.pk).update(state=final)

    report = replay("--fix")

    assert f"Game {bricks.pk}: state rebuilt from the log." in report
    assert f"Game {over.pk}: state rebuilt from the log." in report
    assert "Replayed 3 games: 2 differ." in report
    for game in (bricks, over):
        stored = Game.objects.get(pk=game.pk)
        replayed = stored.replayed_state()
        assert stored.state == rules.to_dict(replayed)
        assert stored.acting_seat == rules.acting_seat(replayed)
    assert replay().strip().endswith("Replayed 3 games: 0 differ.")


def test_it_reports_a_game_of_a_rules_version_this_site_cannot_play(games):
    """A game stored under rules this site no longer has is reported, and the rest replay."""
    game = games[0]
    Game.objects.filter(pk=game.pk).update(rules_version="0.9")

    out = StringIO()
    with pytest.raises(CommandError, match=r"Replayed 2 games: 1 differ\."):
        call_command("replay_games", stdout=out)

    assert (
        f"Game {game.pk}: cannot be replayed here: This site has no engine for firenze rules "
        "version '0.9'." in out.getvalue()
    )


def test_it_replays_each_game_with_the_engine_of_its_own_rules_version(games):
    """An older version's engine stays registered beside the current one: its games replay
    with it, new games get the current one."""
    from games.rules import registry
    from games.rules.firenze.engine import FirenzeEngine

    class OlderFirenze(FirenzeEngine):
        rules_version = "0"
        replayed = 0

        def apply_action(self, state, action):
            OlderFirenze.replayed += 1
            return super().apply_action(state, action)

    older = registry.register(OlderFirenze(), current=False)
    try:
        game = games[0]
        Game.objects.filter(pk=game.pk).update(rules_version="0")
        assert "Replayed 2 games: 0 differ." in replay()
        assert OlderFirenze.replayed == game.moves.count()
        assert Game.objects.get(pk=game.pk).engine is older
        assert lobby.create_game(game.creator, num_players=2).rules_version == rules.RULES_VERSION
    finally:
        registry.unregister(older)


# --- every way a game ends ------------------------------------------------------------------


def _resign(game: Game, user, capture) -> None:
    from games.resign import resign

    with capture(execute=True):
        resign(game.pk, user)
    game.refresh_from_db()


def _time_out(game: Game, capture) -> None:
    from datetime import timedelta

    from games.timeouts import time_out

    game.refresh_from_db()
    with capture(execute=True):
        assert time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    game.refresh_from_db()


def _play_person(game: Game, user, capture, steps: int = 5000) -> None:
    """``user`` plays their turns through the move service (bots answer at once) until the
    game ends or ``steps`` moves are made."""
    rng = random.Random(7)
    for _ in range(steps):
        game.refresh_from_db()
        if not game.is_active:
            return
        acting = game.seats.get(number=game.acting_seat)
        assert acting.user_id == user.pk, "only this person is left to move"
        with capture(execute=True):
            play.submit_move(game.pk, user, greedy(game.load_state(), rng), game.version)


def test_games_that_ended_every_way_replay_to_their_stored_state(
    anna, ben, carla, dario, django_capture_on_commit_callbacks
):
    """The log is the truth however a game ended: resigned by one of two, by all but one of
    three (bots played the seats in between), against bots only, after timeouts the bot
    played, and with a seat on autopilot to the engine's end."""
    capture = django_capture_on_commit_callbacks
    two = started_game(anna, ben)
    play_greedy(two, 30)
    _resign(two, anna, capture)

    three = started_game(anna, ben, carla)
    play_greedy(three, 20)
    _resign(three, three.seats.get(number=three.acting_seat).user, capture)  # a bot plays on
    _resign(three, next(s.user for s in three.seats.all() if not s.has_resigned), capture)

    with capture(execute=True):
        against_bots = started_game(dario, bots=2)
    against_bots.refresh_from_db()
    play_greedy(against_bots, 10)
    _resign(against_bots, dario, capture)

    timed_out = started_game(ben, carla)
    _time_out(timed_out, capture)  # the bot plays one turn, then ben and carla play it out
    fast_forward(timed_out)

    autopilot = started_game(carla, dario)
    seat = autopilot.seats.get(user=carla)
    while not autopilot.seats.get(pk=seat.pk).autopilot:
        autopilot.refresh_from_db()
        if autopilot.seats.get(number=autopilot.acting_seat).user_id == dario.pk:
            _play_person(autopilot, dario, capture, steps=1)
        else:
            _time_out(autopilot, capture)
    _play_person(autopilot, dario, capture)  # carla's seat plays itself to the end

    endings = [two, three, against_bots, timed_out, autopilot]
    for game in endings:
        game.refresh_from_db()
        assert game.is_finished, game
        assert game.acting_seat is None, game  # nobody acts in a finished game
    assert [g.ended_by_resignation for g in endings] == [True, True, True, False, False]
    assert timed_out.moves.filter(timeout=True).exists()
    assert autopilot.moves.filter(by_bot=True, timeout=False).exists()

    assert replay().strip().endswith("Replayed 5 games: 0 differ.")
    before = list(Game.objects.order_by("pk").values("acting_seat", "status", "version"))
    assert replay("--fix").strip().endswith("Replayed 5 games: 0 differ.")
    assert list(Game.objects.order_by("pk").values("acting_seat", "status", "version")) == before


def test_a_game_the_sweep_ended_as_abandoned_replays_to_its_stored_state(
    anna, ben, django_capture_on_commit_callbacks
):
    """Ended where its moves stopped, nobody to act: the log and ``abandoned_at`` say so."""
    from django.utils import timezone

    from games.timeouts import end_abandoned

    game = started_game(anna, ben)
    play_greedy(game, 8)
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        end_abandoned(game, timezone.now())
    game.refresh_from_db()

    assert game.is_finished and game.ended_abandoned and game.acting_seat is None
    assert replay().strip().endswith("Replayed 1 games: 0 differ.")
    assert replay("--fix").strip().endswith("Replayed 1 games: 0 differ.")
    game.refresh_from_db()
    assert game.is_finished and game.acting_seat is None


def test_fix_puts_back_what_the_log_and_the_resignations_say(anna, ben, carla):
    """A finished game keeps no acting seat; one the log says is still going is active
    again, with the seat the log says."""
    resigned = started_game(anna, ben)
    play_greedy(resigned, 10)
    from games.resign import resign

    resign(resigned.pk, ben)
    going = started_game(anna, carla)
    play_greedy(going, 10)
    Game.objects.filter(pk=resigned.pk).update(acting_seat=0)
    Game.objects.filter(pk=going.pk).update(status=Game.Status.FINISHED, acting_seat=None)

    report = replay("--fix")

    assert f"Game {resigned.pk}: acting seat 0 but the log says None" in report
    assert f"Game {going.pk}:" in report
    resigned.refresh_from_db()
    going.refresh_from_db()
    assert (resigned.status, resigned.acting_seat) == (Game.Status.FINISHED, None)
    assert going.status == Game.Status.ACTIVE
    assert going.acting_seat == rules.acting_seat(going.replayed_state())
    assert going.deadline is not None  # its clock runs again
    assert replay().strip().endswith("Replayed 2 games: 0 differ.")
