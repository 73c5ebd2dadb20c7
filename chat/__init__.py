"""Table talk: each game's message thread beside its log.

- models: messages (kept with the game after it ends), mutes, reports, and each player's last
  visit (for "3 unread").
- services: posting (validated, rate-limited), deleting within five minutes, muting, reporting,
  reading; posting bumps the game's chat_version, which the game page's poll compares, so new
  messages arrive with the same refresh that brings moves.
- views + templatetags: the thread partial on the game page and its own page.
"""
