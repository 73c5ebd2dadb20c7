"""Where events go: one channel per game and one per account, each with a short log in Redis.

An event is appended to its channel's log (a Redis stream capped at LOG_LENGTH entries, whose
entry id is the event's id: "milliseconds-sequence", ordered) and published on the channel in
one Lua script, so every listener sees events in log order and a client that reconnects with
Last-Event-ID gets what it missed from the log. The message on the pub/sub channel is
"<id> <kind> <JSON data>".
"""

from __future__ import annotations

import hashlib
import re

PREFIX = "fz:streams"
LOG_LENGTH = 200  # events kept per channel (about: Redis trims in whole nodes)
LOG_SECONDS = 2 * 24 * 3600  # a channel's log goes this long after its last event
EVENT_ID = re.compile(r"\A([0-9]{1,20})-([0-9]{1,20})\Z")
ID_PART_MAX = 2**64 - 1  # each half of a Redis stream id is an unsigned 64-bit number
ACCESS = "access"  # not a stream's channel: notices that who may watch something has changed

# KEYS[1] the log, KEYS[2] the pub/sub channel; ARGV: kind, JSON data, log length, seconds.
APPEND_AND_PUBLISH = """
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'k', ARGV[1], 'd', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', KEYS[2], id .. ' ' .. ARGV[1] .. ' ' .. ARGV[2])
return id
"""


def game(game_id: int) -> str:
    return f"game:{game_id}"


def account(user_id: int) -> str:
    return f"account:{user_id}"


def log_key(channel: str) -> str:
    return f"{PREFIX}:log:{channel}"


def pubsub_name(channel: str) -> str:
    return f"{PREFIX}:ch:{channel}"


PATTERN = pubsub_name("*")


def channel_of(pubsub: str) -> str:
    return pubsub[len(pubsub_name("")) :]


def event_id(raw: str | None) -> tuple[int, int] | None:
    """An event id as an ordered pair, or None if it is not one Redis could have made."""
    match = EVENT_ID.match(raw or "")
    if match is None:
        return None
    pair = (int(match.group(1)), int(match.group(2)))
    return pair if max(pair) <= ID_PART_MAX else None


def access_tag(kind: str, pk: int | str) -> str:
    """What an access notice names: "user:5", "token:7", "game:9", "session:<digest>". A
    notice's tag with END_MARK in front ends the streams it names without a check."""
    return f"{kind}:{pk}"


END_MARK = "!"


def session_tag(session_key: str) -> str:
    """A session's tag: a digest, so no session key travels through Redis."""
    return access_tag("session", hashlib.sha256(session_key.encode()).hexdigest()[:32])
