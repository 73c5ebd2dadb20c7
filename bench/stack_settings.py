"""Production settings with the per-account and per-token limits raised: the benchmarks and the
bot's end-to-end test play at machine speed (hundreds of moves a minute), which the limits are
there to refuse. Everything else is firenze_site.settings as production runs it."""

from firenze_site.settings import *  # noqa: F403
from firenze_site.settings import ACCOUNT_RATE_LIMITS

ACCOUNT_RATE_LIMITS = {
    **ACCOUNT_RATE_LIMITS,
    "move": "100000/m/user",
    "create_game": "10000/m/user",
    "invite": "10000/m/user",
    "invite_pair": "10000/m/key",
}
API_RATE_LIMITS = {
    "request": (1_000_000, 60),
    "move": (1_000_000, 60),
    "talk": (1_000_000, 60),
    "lobby": (1_000_000, 60),
    "anonymous": (1_000_000, 60),
    "streams": (1_000_000, 0),
}
