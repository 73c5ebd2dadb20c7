"""Every printed value of the board and the cards, in one place.

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

# name: (kind, copies)
CARDS: dict[str, tuple[str, int]] = {
    "Botch": (EVENT, 1),
    "Collapse": (EVENT, 1),
    "Flood": (EVENT, 1),
    "Luxury Tax": (EVENT, 1),
    "Renaissance": (EVENT, 1),
    "Storehouse Fire": (EVENT, 2),
    "Tribute": (EVENT, 2),
    "Alchemist": (PERSONNEL, 4),
    "Architect": (PERSONNEL, 3),
    "Mason": (PERSONNEL, 3),
    "Patrician": (PERSONNEL, 3),
    "Princess": (PERSONNEL, 2),
    "Saboteur": (PERSONNEL, 1),
    "Smuggler": (PERSONNEL, 3),
    "Wholesaler": (PERSONNEL, 2),
    "Disgrace": (CELEBRATION, 2),
    "Fame": (CELEBRATION, 2),
    "Monument": (CELEBRATION, 2),
    "Recognition": (CELEBRATION, 2),
    "Scandal": (CELEBRATION, 2),
    "Bridge": (BUILDING, 1),
    "Warehouse": (BUILDING, 3),
    "Workshop": (BUILDING, 4),
    "Campanile": (CHURCH, 1),
    "Major Privilege": (CHURCH, 1),
    "Minor Privilege": (CHURCH, 1),
    "Privilege": (CHURCH, 1),
}
CARD_KIND: dict[str, str] = {name: kind for name, (kind, _) in CARDS.items()}

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

# Phases in which a personnel card may be played (rules.md §5: Architect only in fulfil,
# Mason only in build, Princess only in choose, Wholesaler in choose or exchange).
ALL_PHASES = frozenset({"choose", "exchange", "build", "fulfil", "limits"})
PERSONNEL_PHASES: dict[str, frozenset[str]] = {
    "Alchemist": ALL_PHASES,
    "Architect": frozenset({"fulfil"}),
    "Mason": frozenset({"build"}),
    "Patrician": ALL_PHASES,
    "Princess": frozenset({"choose"}),
    "Saboteur": ALL_PHASES,
    "Smuggler": ALL_PHASES,
    "Wholesaler": frozenset({"choose", "exchange"}),
}

# Church privileges: card -> (commission level, PP)
PRIVILEGES: dict[str, tuple[int, int]] = {
    "Minor Privilege": (5, 2),
    "Privilege": (6, 3),
    "Major Privilege": (7, 4),
}

# Final scoring of celebration cards (Recognition is counted from the board).
CELEBRATION_PP: dict[str, int] = {"Fame": 3, "Monument": 3, "Disgrace": -2, "Scandal": -3}
RECOGNITION_LEVELS = (3, 4)

CARD_TEXT: dict[str, str] = {
    "Botch": "Event. Choose one of your towers; one brick of it goes to the pouch.",
    "Collapse": "Event. Tear down one of your towers completely; all its bricks go to the pouch.",
    "Flood": "Event, all players. Each puts a third (rounded up) of their storehouse into the "
    "pouch.",
    "Luxury Tax": "Event, all players. Pay 2 bricks for every tower of 5 or more levels; a tower "
    "that cannot be paid for is torn down.",
    "Renaissance": "Event. Shuffle the deck, the discard pile and this card into a new deck.",
    "Storehouse Fire": "Event. Put 3 bricks of your choice from your storehouse into the pouch.",
    "Tribute": "Event, all players. Pay 1 brick of the tower's colour for every tower; a tower "
    "that cannot be paid for is torn down.",
    "Alchemist": "Swap one brick from your storehouse for any brick in the pouch.",
    "Architect": "Fulfil phase: count one tower as one level taller or shorter this turn.",
    "Mason": "Build phase: pay 3 bricks less construction cost this turn (4 with a Workshop).",
    "Patrician": "Cancel the event you just chose, or discard one card from your hand.",
    "Princess": "Choose phase: pay no card cost this turn.",
    "Saboteur": "Take one brick from another player's tower and put it into the pouch.",
    "Smuggler": "Swap one brick from your storehouse with one from another player's storehouse.",
    "Wholesaler": "Choose or exchange phase: return a row card's bricks to the pouch and draw "
    "as many new ones.",
    "Disgrace": "Celebration: -2 PP in the final scoring.",
    "Fame": "Celebration: +3 PP in the final scoring.",
    "Monument": "Celebration: goes to the player with the tallest tower; +3 PP in the final "
    "scoring.",
    "Recognition": "Celebration: +1 PP per commission of level 3 or 4 you fulfilled.",
    "Scandal": "Celebration: -3 PP in the final scoring.",
    "Bridge": "Building: exchange 2 bricks for 1 instead of 3 for 1.",
    "Warehouse": "Building: keep up to 15 bricks and any number of cards.",
    "Workshop": "Building: pay 1 brick less construction cost.",
    "Campanile": "Church: every player must first fulfil a white bell tower of exactly 3 levels "
    "before fulfilling anything else.",
    "Major Privilege": "Church: +4 PP to the first player to fulfil a commission of 7 levels.",
    "Minor Privilege": "Church: +2 PP to the first player to fulfil a commission of 5 levels.",
    "Privilege": "Church: +3 PP to the first player to fulfil a commission of 6 levels.",
}


def commission_index(color: int, level: int) -> int:
    """Board squares are one flat list, so a state copy is a single slice."""
    return color * 6 + (level - 3)


def printed_pp(color: int, level: int) -> int:
    return PRINTED_PP[color][level - 3]
