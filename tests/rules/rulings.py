"""The tests' own transcript of rules.md §1.

Kept apart from firenze/rules/data.py on purpose: a wrong value in the engine's data module must
make a test fail, not be copied into the expectation.
"""

PRINTED_PP = {
    "white": (1, 2, 3, 4, 5, 6),
    "yellow": (1, 2, 3, 5, 6, 7),
    "green": (2, 3, 4, 5, 7, 8),
    "red": (2, 3, 5, 6, 7, 9),
    "blue": (2, 4, 5, 7, 8, 10),
    "purple": (3, 4, 6, 7, 9, 11),
}
BALCONY_GROUPS = (
    (("white", 7, 7), ("yellow", 6, 7), ("green", 5, 6), ("red", 5, 7), ("blue", 4, 6)),
    (("white", 8, 9), ("yellow", 7, 9), ("green", 6, 8), ("red", 6, 9), ("purple", 5, 9)),
    (("yellow", 8, 11), ("green", 7, 11), ("red", 7, 11), ("blue", 6, 11), ("purple", 6, 11)),
    (("green", 8, 13), ("red", 8, 14), ("blue", 7, 13), ("purple", 7, 14)),
)
