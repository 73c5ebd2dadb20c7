"""A refusal comes from the rule itself: over random playouts, every well-formed action of the
position is legal exactly when its check passes, and every refusal a player can meet is in the
German catalogue with the same placeholders (the web layer words it, issue 13)."""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path

import pytest

from games.rules.firenze.rules import apply_action, legal_actions
from games.rules.firenze.rules.checks import ACTION_TYPES, check
from games.rules.firenze.rules.data import COLORS
from games.rules.firenze.rules.errors import IllegalAction, Refusal
from games.rules.firenze.rules.legal import PHASE_CANDIDATES, candidates
from games.rules.firenze.rules.state import State

from .playouts import playout

MO = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES" / "django.mo"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
SEEDS = range(6)


def every_candidate(state: State) -> list[dict]:
    """Every well-formed action of the position: the phase's own candidates first, then those
    of the other phases and the answers a pending decision could have, so that a wrong phase
    or an answer without a question is checked too, and each type with its details left out."""
    s = state._d
    me = s["players"][s["seat"]]
    actions = candidates(s) if s["pending"] is None else []
    for phase, makers in PHASE_CANDIDATES.items():
        if phase != s["phase"]:
            actions += [a for _, make in makers for a in make(s)]
    others = [seat for seat in range(s["n"]) if seat != s["seat"]]
    actions += [{"type": "pay_brick", "color": c} for c in COLORS]
    actions += [{"type": "take_brick", "color": c} for c in COLORS]
    actions += [{"type": "take_brick", "seat": o, "color": c} for o in others for c in COLORS]
    actions += [{"type": "pick_tower", "tower": i} for i in range(len(me["towers"]))]
    actions += [
        {"type": "pick_tower", "seat": o, "tower": i}
        for o in [*others, s["seat"]]
        for i in range(len(s["players"][o]["towers"]) + 1)
    ]
    actions += [{"type": "pick_slot", "slot": i} for i in range(len(s["row"]) + 1)]
    actions += [{"type": "discard_card", "card": c} for c in sorted(set(me["hand"]))]
    actions += [{"type": "play_card", "card": c} for c in sorted(set(me["hand"]))]
    actions += [{"type": kind} for kind in ACTION_TYPES]  # details left out
    return actions


@cache
def walk(seed: int) -> dict[str, Refusal]:
    """Check the playout of `seed` position by position; return a refusal per msgid met."""
    met: dict[str, Refusal] = {}
    for state, _ in playout(seed):
        legal = legal_actions(state)
        s = state._d
        if s["pending"] is None:
            offered = [a for a in candidates(s) if check(s, a) is None]
            assert offered == legal, "legal_actions is not the candidates the checks pass"
        for action in every_candidate(state):
            refused = check(s, action)
            assert (refused is None) == (action in legal), (action, refused)
            if refused is not None:
                assert set(PLACEHOLDER.findall(refused.msgid)) == set(refused.params), refused
                if refused.msgid not in met:
                    met[refused.msgid] = refused
                    with pytest.raises(IllegalAction) as raised:
                        apply_action(state, action)
                    assert raised.value.refusal == refused
                    assert str(raised.value) == refused.text()
    return met


@pytest.mark.parametrize("seed", SEEDS)
def test_a_well_formed_action_is_legal_exactly_when_its_check_passes(seed):
    assert walk(seed)


def test_every_refusal_met_is_in_the_german_catalogue_with_its_placeholders():
    refusals = {msgid: r for seed in SEEDS for msgid, r in walk(seed).items()}
    assert len(refusals) >= 25, "the playouts should meet most kinds of refusal"
    with MO.open("rb") as compiled:
        german = gettext.GNUTranslations(compiled)
    for msgid, refused in sorted(refusals.items()):
        translated = german.gettext(msgid)
        assert translated != msgid, f"not translated: {msgid!r}"
        assert sorted(PLACEHOLDER.findall(translated)) == sorted(PLACEHOLDER.findall(msgid)), msgid
        assert translated % {k: "x" for k in refused.params}  # every placeholder fills
