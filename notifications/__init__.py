"""Notifications: play by email.

- outbox.notify(user, kind, game=..., key=..., context=...) is called by game_events, the
  receivers of the games' events (games/events.py), inside the transaction of a game change;
  it writes a Notification row and queues tasks.send_notification on commit.
- delivery + tasks send each row at most once (claimed by a conditional UPDATE), retry SMTP
  errors with backoff, and send_pending / send_daily_digests (Celery beat) pick up the rest.
- emails renders templates/emails/<kind>.subject.txt / .txt / .html with List-Unsubscribe.
- links + views: the one-click unsubscribe link and the single-use sign-in link to a game.
"""
