"""docs/rules.md agrees with the engine's data module and with the code that cites it.

The document's tables are read back and compared with firenze.rules.data and the card registry
(firenze.rules.cards), so changing a value in one without the other fails here; a registered card
without its row, its section or its phases fails too. Every "RULINGS n" or "rules.md §n.m"
citation in the code must name a section the document has.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.rules.firenze.rules import cards, data
from games.rules.firenze.rules.setup import normalize_options

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
TEXT = DOC.read_text(encoding="utf-8")
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')

SECTIONS = {
    1: "Board data",
    2: "Action cards",
    3: "Setup",
    4: "Turn",
    5: "Card rulings",
    6: "End and scoring",
    7: "Hidden information",
}


def _chunk(anchor: str) -> str:
    """The text from an anchor to the next one."""
    marker = f'<a id="{anchor}"></a>'
    assert marker in TEXT, f"docs/rules.md has no anchor {anchor}"
    rest = TEXT.split(marker, 1)[1]
    following = ANCHOR.search(rest)
    return rest[: following.start()] if following else rest


def _cell(text: str) -> str:
    return text.strip().strip("*").replace("`", "").strip()


def table(anchor: str) -> list[dict[str, str]]:
    """The first Markdown table after an anchor, as one dict per row keyed by the header."""
    lines = [line for line in _chunk(anchor).splitlines() if line.startswith("|")]
    assert len(lines) >= 3, f"no table under {anchor}"
    header = [_cell(c) for c in lines[0].strip("|").split("|")]
    assert set(lines[1].replace("|", "").strip()) <= {"-", ":", " "}
    rows = []
    for line in lines[2:]:
        cells = [_cell(c) for c in line.strip("|").split("|")]
        assert len(cells) == len(header), line
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


def _int(text: str) -> int:
    return int(text.replace("−", "-").lstrip("+"))


def test_it_has_the_seven_sections_of_rulings_in_order():
    headings = re.findall(r"^## §(\d) (.+)$", TEXT, flags=re.MULTILINE)
    assert [(int(n), title) for n, title in headings] == list(SECTIONS.items())
    for number in SECTIONS:
        assert f'<a id="s{number}"></a>\n\n## §{number} ' in TEXT


def test_it_anchors_every_numbered_point_under_its_own_number():
    points = re.findall(r'<a id="(s\d-\d+)"></a>\n\n### §(\d)\.(\d+) ', TEXT)
    assert len(points) == len(re.findall(r"^### §", TEXT, flags=re.MULTILINE))
    for anchor, section, point in points:
        assert anchor == f"s{section}-{point}"
    assert {"s4-1", "s4-2", "s4-3", "s4-4", "s4-5", "s4-6"} <= {a for a, _, _ in points}


def test_it_has_the_brick_supply():
    rows = table("s1-1")
    assert [r["colour"] for r in rows[:-1]] == list(data.COLORS)
    assert [_int(r["bricks"]) for r in rows[:-1]] == list(data.SUPPLY)
    assert rows[-1] == {"colour": "total", "bricks": str(sum(data.SUPPLY))}


def test_it_has_the_printed_pp_of_every_commission():
    rows = table("s1-2")
    assert [_int(r["level"]) for r in rows] == list(data.LEVELS)
    for row in rows:
        level = _int(row["level"])
        for c, colour in enumerate(data.COLORS):
            assert _int(row[colour]) == data.printed_pp(c, level), (colour, level)


def test_it_has_the_majority_bonus():
    rows = table("s1-3")
    assert [r["colour"] for r in rows] == list(data.COLORS)
    assert [_int(r["majority bonus (PP)"]) for r in rows] == list(data.MAJORITY_BONUS)


def test_it_has_the_level_tiles():
    rows = table("s1-4")
    assert {_int(r["level"]): _int(r["PP"]) for r in rows} == data.LEVEL_TILE_PP


def test_it_has_every_balcony_tile_and_the_printed_pp_it_replaces():
    rows = table("s1-6")
    documented = [(r["group"], r["colour"], _int(r["level"]), _int(r["balcony PP"])) for r in rows]
    expected = [
        (numeral, colour, level, pp)
        for numeral, group in zip(data.BALCONY_NUMERALS, data.BALCONY_GROUPS, strict=True)
        for colour, level, pp in group
    ]
    assert documented == expected
    for r in rows:
        c = data.COLOR_INDEX[r["colour"]]
        assert _int(r["printed PP it replaces"]) == data.printed_pp(c, _int(r["level"]))


def test_it_has_the_other_fixed_numbers_under_their_names_in_data():
    rows = table("s1-7")
    names = {r["name in data.py"]: _int(r["value"]) for r in rows}
    for name, value in names.items():
        assert getattr(data, name) == value, name
    # A new whole-number constant in data.py needs its row here.
    scalars = {name for name, value in vars(data).items() if name.isupper() and type(value) is int}
    assert scalars <= set(names), f"not in §1.7: {sorted(scalars - set(names))}"


def test_it_has_every_card_with_its_kind_count_and_start_copies():
    rows = table("s2-1")
    assert [r["card"] for r in rows] == list(cards.CARDS)
    for r in rows:
        card = cards.CARDS[r["card"]]
        assert r["kind"].lower() == card.kind
        assert _int(r["copies"]) == card.count
        assert _int(r["start cards"]) == data.START_CARDS.count(r["card"])
    total = sum(card.count for card in cards.CARDS.values())
    assert sum(_int(r["copies"]) for r in rows) == 52 == total
    assert "52 action cards of 27 types" in TEXT and len(cards.CARDS) == 27


def test_it_describes_every_card_under_its_anchor():
    for name in cards.CARDS:
        anchor = "card-" + name.lower().replace(" ", "-")
        assert _chunk(anchor).lstrip().startswith(f"**{name}.**"), name


def test_it_has_the_seals_per_player_count():
    rows = table("s3-1")
    assert {_int(r["players"]): _int(r["seals each"]) for r in rows} == data.SEALS_PER_PLAYER


def test_it_has_the_start_bricks_in_seat_order():
    rows = table("s3-2")
    column = "seat, counted from the start player"
    assert [int(r[column].split()[0]) for r in rows] == [1, 2, 3, 4]
    assert tuple(_int(r["white bricks"]) for r in rows) == data.START_WHITE_BRICKS


def test_it_has_the_options_with_their_values_and_defaults():
    rows = {r["option"]: r for r in table("s3-6")}
    defaults = normalize_options(None)
    assert set(rows) == set(defaults)
    assert rows["campanile"]["default"] == str(defaults["campanile"]).lower()
    assert _int(rows["neutral_seals"]["default"]) == defaults["neutral_seals"]
    assert rows["neutral_seals"]["values"] == f"0 to {data.NEUTRAL_SEALS_MAX}"
    assert rows["seal_placement"]["default"] == defaults["seal_placement"]
    placements = tuple(v.strip() for v in rows["seal_placement"]["values"].split(","))
    assert placements == data.SEAL_PLACEMENTS


def test_it_has_the_construction_cost_with_every_discount():
    rows = table("s4-3")
    discounts = {
        "cost": 0,
        "with Workshop": data.WORKSHOP_DISCOUNT,
        "with Mason": data.MASON_DISCOUNT,
        "with Mason and Workshop": data.MASON_AND_WORKSHOP_DISCOUNT,
    }
    built = [_int(r["bricks laid this turn"]) for r in rows]
    assert built == list(range(1, data.MAX_BUILD_PER_TURN + 1))
    for r, bricks in zip(rows, built, strict=True):
        for column, discount in discounts.items():
            expected = max(0, data.BUILD_COST[bricks] - discount)
            assert _int(r[column]) == expected, (bricks, column)


def test_it_has_the_limits():
    rows = {r["limit"]: r for r in table("s4-6")}
    store = rows["bricks in the storehouse"]
    assert _int(store["without Warehouse"]) == data.STORE_LIMIT
    assert _int(store["with Warehouse"]) == data.WAREHOUSE_STORE_LIMIT
    cards = rows["cards held"]
    assert _int(cards["without Warehouse"]) == data.CARD_LIMIT
    assert cards["with Warehouse"] == "no limit"


def test_it_has_the_church_privileges():
    rows = table("s5-7")
    documented = {r["card"]: (_int(r["commission level"]), _int(r["PP"])) for r in rows}
    assert documented == {n: cards.privilege(n) for n in cards.CARDS if cards.privilege(n)}


def test_it_has_the_phases_of_every_personnel_card():
    rows = table("s5-9")
    assert {r["card"] for r in rows} == set(cards.PERSONNEL_PHASES)
    for r in rows:
        phases = (
            data.ALL_PHASES
            if r["phases"] == "any"
            else frozenset(p.strip() for p in r["phases"].split(","))
        )
        assert phases == cards.PERSONNEL_PHASES[r["card"]], r["card"]


def test_it_has_the_celebration_scores():
    rows = {r["card"]: r["PP in the final scoring"] for r in table("s6-3")}
    assert set(rows) == {n for n, card in cards.CARDS.items() if card.kind == data.CELEBRATION}
    for name in rows:
        if cards.final_pp(name) is not None:
            assert _int(rows[name]) == cards.final_pp(name), name
    levels = " or ".join(str(level) for level in data.RECOGNITION_LEVELS)
    assert rows["Recognition"] == f"+1 per own commission of level {levels}"


CITATION = re.compile(
    r"RULINGS(?:\.md)?,?\s+(?:section\s+|§\s*)?(\d+(?:\.\d+)?)"
    r"|rules\.md,?\s+(?:section\s+|§\s*)(\d+(?:\.\d+)?)"
)


def _citations() -> list[tuple[str, str]]:
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if parts[0].startswith(".") or parts[0] in ("var", "node_modules", "staticfiles"):
            continue
        if path.suffix not in (".py", ".md", ".html", ".txt") or path == DOC:
            continue
        for match in CITATION.finditer(path.read_text(encoding="utf-8", errors="replace")):
            number = match.group(1) or match.group(2)
            found.append((str(path.relative_to(ROOT)), number))
    return found


def test_it_has_every_section_the_code_cites():
    citations = _citations()
    assert citations, "the code cites no section at all: the pattern is out of date"
    anchors = set(ANCHOR.findall(TEXT))
    missing = [
        (where, number)
        for where, number in citations
        if "s" + number.replace(".", "-") not in anchors
    ]
    assert not missing, f"cited but not in docs/rules.md: {missing}"


@pytest.mark.parametrize("link", sorted(set(re.findall(r"\]\(#([^)]+)\)", TEXT))))
def test_it_links_only_to_anchors_it_has(link):
    assert f'<a id="{link}"></a>' in TEXT
