"""Every printed value of the board and the game's fixed numbers, in one place (each card's own
values are its entry in the card registry, cards.py).

docs/rules.md §1 fixes these numbers; a printed edition's values can be dropped in here
without touching any logic. Colours are referred to by index everywhere inside the engine
(cheapest first), and by name in actions, views and log lines.
"""

from __future__ import annotations

COLORS: tuple[str, ...] = ("white", "yellow", "green", "red", "blue", "purple")
COLOR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLORS)}
SUPPLY: tuple[int, ...] = (25, 18, 15, 12, 10, 8)  # 88 bricks

LEVELS: tuple[int, ...] = (3, 4, 5, 6, 7, 8)

# PRINTED_PP[colour][level - 3]
PRINTED_PP: tuple[tuple[int, ...], ...] = (
    (1, 2, 3, 4, 5, 6),  # white
    (1, 2, 3, 5, 6, 7),  # yellow
    (2, 3, 4, 5, 7, 8),  # green
    (2, 3, 5, 6, 7, 9),  # red
    (2, 4, 5, 7, 8, 10),  # blue
    (3, 4, 6, 7, 9, 11),  # purple
)
MAJORITY_BONUS: tuple[int, ...] = (2, 3, 3, 4, 4, 5)
LEVEL_TILE_PP: dict[int, int] = {5: 1, 6: 2, 7: 3, 8: 4}
END_TILE_PP = 5

# Balcony groups I..IV: (colour, level, PP)
BALCONY_GROUPS: tuple[tuple[tuple[str, int, int], ...], ...] = (
    (("white", 7, 7), ("yellow", 6, 7), ("green", 5, 6), ("red", 5, 7), ("blue", 4, 6)),
    (("white", 8, 9), ("yellow", 7, 9), ("green", 6, 8), ("red", 6, 9), ("purple", 5, 9)),
    (("yellow", 8, 11), ("green", 7, 11), ("red", 7, 11), ("blue", 6, 11), ("purple", 6, 11)),
    (("green", 8, 13), ("red", 8, 14), ("blue", 7, 13), ("purple", 7, 14)),
)
BALCONY_NUMERALS: tuple[str, ...] = ("I", "II", "III", "IV")

SEALS_PER_PLAYER: dict[int, int] = {2: 9, 3: 7, 4: 6}
START_WHITE_BRICKS: tuple[int, ...] = (2, 3, 4, 5)  # start player first, then in seat order
ROW_SIZE = 6
BRICKS_PER_ROW_CARD = 4

# Construction cost by bricks used this turn (index = bricks).
BUILD_COST: tuple[int, ...] = (0, 0, 0, 1, 3, 6, 10)
MAX_BUILD_PER_TURN = 6
WORKSHOP_DISCOUNT = 1
MASON_DISCOUNT = 3
MASON_AND_WORKSHOP_DISCOUNT = 4

EXCHANGE_PRICE = 3
BRIDGE_EXCHANGE_PRICE = 2

STORE_LIMIT = 10
WAREHOUSE_STORE_LIMIT = 15
CARD_LIMIT = 5

BELL_TOWER_HEIGHT = 3  # a white tower of exactly this height seals the Campanile
LUXURY_TAX_MIN_HEIGHT = 5
LUXURY_TAX_PER_TOWER = 2
STOREHOUSE_FIRE_BRICKS = 3

NEUTRAL_SEALS_DEFAULT = 5
NEUTRAL_SEALS_MAX = 7
SEAL_PLACEMENTS: tuple[str, ...] = ("recommended", "random", "dead_color")

EVENT = "event"
PERSONNEL = "personnel"
CELEBRATION = "celebration"
BUILDING = "building"
CHURCH = "church"

# The cards themselves (kind, copies, text, phases, privileges, celebration PP ...) are entries of
# the card registry, firenze.rules.cards.

# The ten start cards, shuffled on top of the deck (rules.md §3). Their order here is part of how
# a seed deals the deck: changing it deals stored games differently.
START_CARDS: tuple[str, ...] = (
    "Alchemist",
    "Alchemist",
    "Mason",
    "Mason",
    "Architect",
    "Princess",
    "Wholesaler",
    "Smuggler",
    "Workshop",
    "Warehouse",
)

# The phases of a turn (a personnel card's entry names those it may be played in).
ALL_PHASES = frozenset({"choose", "exchange", "build", "fulfil", "limits"})

# Recognition scores +1 PP per own commission of these levels.
RECOGNITION_LEVELS = (3, 4)


def commission_index(color: int, level: int) -> int:
    """Board squares are one flat list, so a state copy is a single slice."""
    return color * 6 + (level - 3)


def printed_pp(color: int, level: int) -> int:
    return PRINTED_PP[color][level - 3]
