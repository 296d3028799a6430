"""Every order form the tables of docs/rules.md give parses and is accepted by the rules (issue
46: the micro warp jump's table row spoke of units while its orders carry centimetres)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kolrami.captains.scripted import PassiveCaptain
from kolrami.engine.battle import Battle
from kolrami.engine.driver import apply
from kolrami.engine.driver import start
from kolrami.engine.driver import verify
from kolrami.engine.orders import IllegalOrderError
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.registry import parse_order
from kolrami.scenarios.models import builtin_scenario

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
#: a manoeuvre's form (rules/fpf/orders.py's grammar): a speed or a jump and its two turns
MANOEUVRE = re.compile(r"^(SPD|JMP) \S+ (T|PIV)\S+ T\S+$")
#: the placeholders a table's form may carry, and what stands for them: each end of the jump's
#: range (FPF-OPT-04, default unit 2.54 cm) and each turn
PLACEHOLDERS = {"n": ("102", "152"), "<turn>": ("-1", "0", "+1")}


def table_forms() -> list[str]:
    """The manoeuvre forms quoted in the rows of docs/rules.md's tables."""
    rows = [line for line in RULES_MD.read_text(encoding="utf-8").splitlines() if line[:1] == "|"]
    return sorted({q for row in rows for q in re.findall(r"`([^`]+)`", row) if MANOEUVRE.match(q)})


def concrete(form: str) -> list[str]:
    """A form with every placeholder filled in every way."""
    out = [form]
    for name, values in PLACEHOLDERS.items():
        # (a bare name only as a word of its own: `n`, not the n of a longer word)
        word = re.escape(name) if name.startswith("<") else rf"\b{name}\b"
        out = [re.sub(word, v, f) for f in out for v in values]
    return out


def orders_decision() -> tuple[Battle, OrdersDecision]:
    """A standard battle with the micro warp jump, at side A's first orders decision."""
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    battle = new_battle(builtin_scenario("standard"), fleets, 3, extra_rules=("micro-warp-jump",))
    decision = start(battle)
    passive = PassiveCaptain()
    while not (isinstance(decision, OrdersDecision) and decision.side == "A"):
        assert decision is not None
        apply(battle, passive.decide(battle.rules.view(battle, decision.side), decision))
        decision = battle.pending
    return battle, decision


def test_the_tables_quote_the_jump_form() -> None:
    forms = table_forms()
    assert "JMP n T<turn> T0" in forms
    assert "JMP 117 T0 T0" in forms


@pytest.mark.rule("FPF-OPT-04", "FPF-MOV-07")
@pytest.mark.parametrize("form", list(dict.fromkeys(f for t in table_forms() for f in concrete(t))))
def test_an_order_form_of_the_tables_parses_and_is_accepted(form: str) -> None:
    battle, decision = orders_decision()
    text = f"{decision.squadron} {form} HOLD"
    order = parse_order(text)
    assert str(order) == text  # it reads back as written
    verify(battle, order)  # the rules accept it (IllegalOrderError otherwise)


@pytest.mark.rule("FPF-OPT-04")
def test_a_jump_of_40_to_60_read_as_centimetres_is_refused() -> None:
    """n is centimetres: the printed 40-60 units are inches, so `JMP 50` is too short."""
    battle, decision = orders_decision()
    with pytest.raises(IllegalOrderError, match="102-152 cm"):
        verify(battle, parse_order(f"{decision.squadron} JMP 50 T0 T0 HOLD"))
