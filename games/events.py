"""What happened in a game, published for whoever listens (as lila publishes move events on its
bus): notifications, live streams, tournaments and inboxes subscribe; games import none of them.

Each signal is sent inside the transaction that made the change, so a receiver's own writes (an
outbox row, a tournament's standings) commit or roll back with it. A receiver that reaches
outside the database (a stream, a broker) does so in ``transaction.on_commit``. Receivers are
connected in their app's ``ready()``; the keyword arguments each signal carries are listed
beside it, and every signal is sent with ``sender=Game``.
"""

from __future__ import annotations

from django.dispatch import Signal

# game, seat (int), step (int, the move's number), by_bot (bool), timeout (bool), seats (the
# game's Seat rows if the move read them, or None): a move was stored and the game's version
# raised. Sent before turn_passed / game_over.
move_made = Signal()
# game, step: a move was taken back (the game's version raised).
move_undone = Signal()
# game, step, seats (the game's Seat rows with their users, read under the game's lock, or
# None): the turn passed to game.acting_seat.
turn_passed = Signal()
# game, announced (bool: whoever formed the table, e.g. a tournament's round, told the players
# itself): every seat taken and the game started (turn_passed follows for step 0).
game_started = Signal()
# game, state (the final state): the game ended (its last move, a resignation, an
# abandonment). The players app stores its record and the ratings (players/apps.py).
game_over = Signal()
# game, state: a finished game was imported (games.transfer); the players app records it
# (unrated). Nobody is told.
game_imported = Signal()
# game: every seat is taken of a game that does not start by itself.
table_full = Signal()
# game, user, by: a player with an account was invited to a seat.
invited = Signal()
# game: who may see the game changed: a seat taken or freed, an invitation or the invite link
# used or withdrawn (live streams check their callers again).
access_changed = Signal()
# invitation: an address with no account was invited (games.models.Invitation).
invited_address = Signal()
# game, seat (Seat), step: the acting seat ran out of time and a bot plays the turn.
timed_out = Signal()
# game, seat (Seat), number (1, 2, ...): a reminder of the acting seat's deadline is due.
reminder_due = Signal()
# game, seat (int), user_id, outcome_id (plans.PlanOutcome), in_full (bool): the site played a
# seat's planned turn (in full, or up to the step that no longer held) when the turn came.
# Only the plan's owner may hear of it: a plan is private.
plan_played = Signal()
