"""The log and the end, the tab title and the browser cache (issue 9): one order, oldest
first, numbered by turn and step and grouped by turn with the player's name; the whole log on
its own page and on the finished page; the final ranking with places and ties; a title that
follows the game; pages that are never restored stale."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.gamelog import PAGE_TURNS
from games.models import Game
from games.rules.firenze import rules
from tests.web.helpers import (
    HTMX,
    fast_forward,
    game_page,
    play_greedy,
    post_move,
    signed_in,
    started_game,
)

pytestmark = pytest.mark.django_db

TURN_HEAD = re.compile(r'<h3 class="log-turn-head">(.*?)</h3>', re.S)
# A line's text may hold profile links (names): everything up to the item's end.
LINE = re.compile(r'<span class="log-no">([\d.]+)</span><span class="log-text">(.*?)</span></li>')
TEXT = re.compile(r'<span class="log-text">(.*?)</span></li>')


def plain(fragment: str) -> str:
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", fragment).split()))


def turns_of(page: str) -> list[str]:
    """The log's turn headings, in page order ("Turn 3 · Anna")."""
    return [
        plain(re.sub(r"<time.*?</time>", "", head, flags=re.S)) for head in TURN_HEAD.findall(page)
    ]


def lines_of(page: str) -> list[tuple[str, str]]:
    return [(number, plain(text)) for number, text in LINE.findall(page)]


def test_it_lists_the_log_oldest_first_grouped_by_turn_and_numbered_by_turn_and_step(anna, ben):
    game = started_game(anna, ben)
    play_greedy(game, 60)
    state = game.load_state()
    names = {s.number: s.name for s in game.seats.all()}

    page = game_page(signed_in(anna), game)

    turns = turns_of(page)
    numbers = [int(re.match(r"Turn (\d+)", t).group(1)) for t in turns]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    latest = game.moves.order_by("-seq").first().turn  # the turn now, unless it has no step yet
    assert latest in (state.turn_no, state.turn_no - 1)
    assert numbers == list(range(max(1, state.turn_no - PAGE_TURNS + 1), latest + 1))
    for heading in turns:
        turn = int(re.match(r"Turn (\d+)", heading).group(1))
        mover = game.moves.filter(turn=turn).values_list("seat", flat=True).first()
        assert heading == f"Turn {turn} · {names[mover]}"
    lines = lines_of(page)
    keys = [tuple(int(x) for x in number.split(".")) for number, _ in lines]
    assert keys == sorted(keys), "one order: turn by turn, step by step"
    for (turn, step), (previous_turn, previous_step) in zip(keys[1:], keys, strict=False):
        assert (turn, step) == (previous_turn, previous_step + 1) or step == 1
    # A turn's lines read in the order they happened: its ending comes last.
    ended = [text for number, text in lines if text.endswith("ends the turn.")]
    assert ended and all(
        lines[i + 1][0].endswith(".1") for i, (_, t) in enumerate(lines[:-1]) if t in ended
    )


def test_it_shows_the_whole_log_on_its_own_page_and_links_it(anna, ben):
    game = started_game(anna, ben)
    play_greedy(game, 200)
    page = game_page(signed_in(anna), game)
    assert f'href="{reverse("games:log", args=[game.pk])}"' in page

    whole = signed_in(anna).get(reverse("games:log", args=[game.pk]))

    assert whole.status_code == 200
    body = whole.content.decode()
    turns = [int(re.match(r"Turn (\d+)", t).group(1)) for t in turns_of(body)]
    assert turns == list(range(1, game.moves.order_by("-seq").first().turn + 1))
    stored = sum(len(log) for log in game.moves.values_list("log", flat=True))
    assert len(lines_of(body)) == stored


def test_the_finished_page_shows_the_whole_log_with_the_final_scoring_last(anna, ben):
    game = started_game(anna, ben)
    fast_forward(game)
    page = game_page(signed_in(anna), game)

    turns = turns_of(page)
    assert turns[0].startswith("Turn 1 ·")
    assert turns[-1] == "Final scoring"
    last_turn = turns[-2]
    assert last_turn.startswith(f"Turn {game.load_state().turn_no} ·")
    final = re.split(r'<h3 class="log-turn-head">', page)[-1]
    texts = [plain(t) for t in TEXT.findall(final)]
    assert texts[-1] == "The game is over."
    assert any("majority" in t for t in texts)
    before = re.split(r'<h3 class="log-turn-head">', page)[-2]
    assert lines_of(before)[-1][1].endswith("ends the turn.")


# --- the final ranking ----------------------------------------------------------------------


def ranking(page: str) -> list[tuple[str, str, int]]:
    table = re.search(r'<table class="final">.*?</table>', page, re.S).group(0)
    rows = re.findall(
        r'<td class="place">([^<]+)</td>\s*<td>.*?<strong>(.*?)</strong>.*?'
        r'<td class="num"><strong>(-?\d+)</strong>',
        table,
        re.S,
    )
    rows = [(place, plain(name), pp) for place, name, pp in rows]
    return [(place, name, int(pp)) for place, name, pp in rows]


def test_it_ranks_the_final_scores_best_first_with_places(anna, ben, carla):
    game = started_game(anna, ben, carla)
    fast_forward(game)
    totals = rules.scores(game.load_state())
    names = {s.number: s.name for s in game.seats.all()}

    rows = ranking(game_page(signed_in(anna), game))

    assert [pp for _, _, pp in rows] == sorted(totals, reverse=True)
    assert {(name, pp) for _, name, pp in rows} == {(names[i], pp) for i, pp in enumerate(totals)}
    assert rows[0][0].startswith("1st")


def test_it_shares_a_place_on_a_tie(anna, ben, carla):
    game = started_game(anna, ben, carla)
    fast_forward(game)
    state = game.state
    top = max(p["total"] for p in state["final"]["players"])
    for player in state["final"]["players"][:2]:
        player["total"] = top
    state["final"]["players"][2]["total"] = top - 7
    state["final"]["winners"] = [0, 1]
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()

    page = game_page(signed_in(anna), game)

    assert [(place, pp) for place, _, pp in ranking(page)] == [
        ("1st=", top),
        ("1st=", top),
        ("3rd", top - 7),
    ]
    assert page.count("winner-badge") == 2


# --- the tab title and caching ------------------------------------------------------------


def title_of(page: str) -> str:
    return html.unescape(re.search(r"<title>([^<]*)</title>", page).group(1))


def test_the_tab_title_follows_the_turn_on_every_refresh(anna, ben):
    game = started_game(anna, ben)
    seats = {s.number: s for s in game.seats.select_related("user")}
    mover, waiter = seats[game.acting_seat], seats[1 - game.acting_seat]
    mover_page, waiter_page = signed_in(mover.user), signed_in(waiter.user)
    detail = reverse("games:detail", args=[game.pk])

    assert title_of(game_page(mover_page, game)) == f"(Your turn) Game {game.pk} · Firenze"
    assert title_of(game_page(waiter_page, game)) == (
        f"Game {game.pk}: {mover.name} to play · Firenze"
    )

    # The mover ends their turn; the poll's refresh (an htmx partial) brings the new title.
    while game.acting_seat == mover.number:
        state = game.load_state()
        action = next(
            a
            for a in rules.legal_actions(state)
            if a["type"] in ("end_turn", "end_phase", "pay_brick", "discard_card")
            or (a["type"] == "choose_card" and a["slot"] == 0)
            or a["type"] == "resolve_event"
        )
        response = post_move(mover_page, game, action, game.version)
        game.refresh_from_db()
    assert title_of(response.content.decode()) == f"Game {game.pk}: {waiter.name} to play · Firenze"
    refreshed = waiter_page.get(detail, **HTMX).content.decode()
    assert title_of(refreshed) == f"(Your turn) Game {game.pk} · Firenze"


def test_a_named_game_is_titled_by_its_name(anna, ben):
    game = started_game(anna, ben)
    Game.objects.filter(pk=game.pk).update(name="Friday towers")
    game.refresh_from_db()
    page = game_page(signed_in(anna), game)
    assert "Friday towers" in title_of(page)
    assert '<h1 class="game-title">Friday towers</h1>' in page


def test_game_pages_are_never_shown_by_the_browser_without_asking(anna, ben):
    """The game page may be kept (a returning browser gets 304, issue 11) but never used without
    asking the server whether it is still current; the whole log is never stored."""
    game = started_game(anna, ben)
    browser = signed_in(anna)
    for response in (
        browser.get(reverse("games:detail", args=[game.pk])),
        browser.get(reverse("games:detail", args=[game.pk]), **HTMX),
    ):
        control = response["Cache-Control"]
        assert "no-cache" in control and "private" in control and "max-age=0" in control
        assert response["ETag"]
    assert "no-store" in browser.get(reverse("games:log", args=[game.pk]))["Cache-Control"]


def test_phase_pills_and_card_names_link_to_the_rules(anna, ben):
    game = started_game(anna, ben)
    page = game_page(signed_in(anna), game)
    rules_url = reverse("games:rules")
    for phase in ("choose", "exchange", "build", "fulfil", "limits"):
        assert f'href="{rules_url}#phase-{phase}"' in page
    for card in rules.player_view(game.load_state(), None)["row"]:
        anchor = "card-" + card["card"].lower().replace(" ", "-")
        assert f'href="{rules_url}#{anchor}"' in page
    help_page = signed_in(anna).get(rules_url).content.decode()
    for phase in ("choose", "exchange", "build", "fulfil", "limits"):
        assert f'id="phase-{phase}"' in help_page


MINOR = re.compile(
    r'<li class="[^"]*\bminor\b[^"]*">(?:(?!</li>).)*?<span class="log-text">(.*?)</span></li>',
    re.S,
)


def test_it_marks_passes_and_forced_steps_so_the_player_can_hide_them(anna, ben):
    game = started_game(anna, ben, seed=11)
    play_greedy(game, 60)
    page = signed_in(anna).get(reverse("games:log", args=[game.pk])).content.decode()

    hidden = [plain(line) for line in MINOR.findall(page)]
    shown = [plain(line) for line in TEXT.findall(page)]
    assert 'id="log-hide-minor"' in page and "Hide passes and forced steps" in page
    assert any("comes into the row" in line for line in hidden), hidden
    assert all(
        "comes into the row" in line
        or "ends the turn" in line
        or "pouch" in line
        or "card limit" in line
        or "no card in the row" in line
        or "copy is discarded" in line
        for line in hidden
    ), hidden
    # What players chose stays: takes and builds are never hidden.
    assert any(" takes " in line for line in shown)
    assert not any(" takes " in line and "comes into the row" not in line for line in hidden)


def test_it_lets_the_engine_decide_what_is_minor():
    from games.rules import registry

    engine = registry.get("firenze")
    assert engine.minor_line("{0} ends the turn.")
    assert engine.minor_line("Architect comes into the row with 1 red.")
    assert not engine.minor_line("{1} takes Architect (2nd card) with 1 red.")
    assert not engine.minor_line("{0} ends the turn. Then builds")


def test_it_lets_nim_say_its_passes_too(nim):
    assert nim.minor_line("{0} ends the turn.")
    assert not nim.minor_line("{0} takes 2.")
