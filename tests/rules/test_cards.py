"""Every card's effect, shown in a battle: each hook does what the card says."""

from __future__ import annotations

from typing import Any

import pytest

from kolrami.catalog.cards import Card
from kolrami.catalog.cards import CardKind
from kolrami.catalog.cards import Scope
from kolrami.catalog.cards import cards
from kolrami.catalog.models import FactionCode
from kolrami.catalog.models import WeaponKind
from kolrami.engine.battle import Battle
from kolrami.fleet.model import read_fleet
from kolrami.rules import events as ev
from kolrami.rules import new_battle
from kolrami.rules.cards import CardEffects
from kolrami.rules.cards import carried
from kolrami.rules.module import Phase
from kolrami.rules.module import rules_of
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

STANDARD = builtin_scenario("standard")


def carrier_fleet(card: Card) -> Any:
    """A three-ship squadron plus a second squadron; the card on the first ship."""
    klingon = FactionCode.KLI in card.restriction.factions or card.faction is FactionCode.KLI
    cls = "ktroika" if klingon else "reliant"
    first: dict[str, Any] = {"id": cls, "squadron": 1}
    doc: dict[str, Any] = {
        "name": "carrier",
        "ships": [first, {"id": cls, "squadron": 1}, {"id": cls, "squadron": 2}],
    }
    if card.kind is CardKind.CAPTAIN:
        first["captain"] = card.id
    elif card.kind is CardKind.ADMIRAL:
        first["admiral"] = card.id
    elif card.kind is CardKind.UPGRADE:
        assert card.type is not None
        first["upgrades"] = {card.type.value: [card.id]}
    else:
        doc["resource"] = card.id
    return read_fleet(doc, card.id)


def started(card: Card) -> Battle:
    battle = new_battle(
        STANDARD, (carrier_fleet(card), read_fleet({"ships": [{"id": "venture"}]}, "foe")), 3
    )
    rules_of(battle).run(Phase.START_OF_BATTLE, battle)
    return battle


def reached(battle: Battle, scope: Scope) -> set[str]:
    return {"ship": {"A1"}, "squadron": {"A1", "A2"}, "fleet": {"A1", "A2", "A3"}}[scope.value]


def by_hook(hook: str) -> list[str]:
    return [c.id for c in cards().values() if c.effect.hook == hook]


@pytest.mark.rule("FBS-03", "FBS-06")
@pytest.mark.parametrize("card_id", by_hook("stat"))
def test_stat_cards_raise_the_ships_own_values(card_id: str) -> None:
    card = cards()[card_id]
    battle = started(card)
    fx = card.effect
    field = {
        "shields": "max_shields",
        "engine_power": "max_engine",
        "computer": "max_systems",
        "damage_control": "damage_control",
    }[fx.stat or ""]
    printed = {
        "max_shields": "shields",
        "max_engine": "engine_power",
        "max_systems": "computer",
        "damage_control": "damage_control",
    }[field]
    for ship in battle.ships.values():
        gain = fx.amount if ship.id in reached(battle, fx.scope) else 0
        assert getattr(ship, field) == getattr(ship.cls, printed) + gain, ship.id
    used = [e for e in battle.events() if isinstance(e, ev.CardUsed) and e.card == card_id]
    assert {e.on for e in used} == reached(battle, fx.scope)


@pytest.mark.parametrize("card_id", by_hook("weapon"))
def test_weapon_cards_change_strength_or_range(card_id: str) -> None:
    card = cards()[card_id]
    battle = started(card)
    fx = card.effect
    assert fx.weapon is not None
    for ship in battle.ships.values():
        w = ship.cls.weapon(fx.weapon)
        assert w is not None
        on = ship.id in reached(battle, fx.scope)
        assert ship.strength[fx.weapon] == w.strength + (fx.strength if on else 0)
        assert ship.ranges[fx.weapon] == w.range_cm + (fx.range_cm if on else 0)


@pytest.mark.parametrize("card_id", by_hook("evasion"))
def test_evasion_cards_make_shots_harder(card_id: str) -> None:
    card = cards()[card_id]
    foe = read_fleet({"ships": [{"id": "venture"}]}, "foe")
    for seed in range(1, 30):  # the first seeded battle in which the foe fires at the carrier
        battle = simulate(STANDARD, (carrier_fleet(card), foe), ("aggressive", "aggressive"), seed)
        at_carrier = [
            e for e in battle.events() if isinstance(e, ev.VolleyFired) and e.target == "A1"
        ]
        if at_carrier:
            break
    else:
        pytest.fail("the foe never fired at the carrier in 30 battles")
    venture = battle.ships["B1"]
    for v in at_carrier:
        printed = venture.strength[WeaponKind(v.weapon)]
        assert v.strength == printed - card.effect.amount


@pytest.mark.parametrize("card_id", by_hook("reroll"))
def test_reroll_cards_roll_a_failed_die_again(card_id: str) -> None:
    card = cards()[card_id]
    foe = read_fleet({"ships": [{"id": "venture"}, {"id": "venture"}]}, "foe")
    for seed in range(1, 30):
        battle = simulate(STANDARD, (carrier_fleet(card), foe), ("aggressive", "aggressive"), seed)
        used = [e for e in battle.events() if isinstance(e, ev.CardUsed) and e.card == card_id]
        if used:
            break
    else:
        pytest.fail("no re-roll in 30 battles")
    assert all(e.ship == "A1" for e in used)
    events = list(battle.events())
    turns = [e.turn for e in events if isinstance(e, ev.TurnStarted)]
    per_turn = dict.fromkeys(turns, 0)
    turn = 0
    for e in events:
        if isinstance(e, ev.TurnStarted):
            turn = e.turn
        elif isinstance(e, ev.CardUsed) and e.card == card_id:
            per_turn[turn] += 1
    assert max(per_turn.values()) <= card.effect.per_turn  # once a turn


@pytest.mark.parametrize("card_id", by_hook("initiative"))
def test_initiative_cards_add_to_the_roll_off(card_id: str) -> None:
    card = cards()[card_id]
    battle = started(card)
    assert rules_of(battle).initiative_bonus(battle, "A") == card.effect.amount
    assert rules_of(battle).initiative_bonus(battle, "B") == 0
    # in play: every roll-off the carrier's side wins or loses by the bonus
    foe = read_fleet({"ships": [{"id": "venture"}]}, "foe")
    for seed in range(1, 12):
        played = simulate(STANDARD, (carrier_fleet(card), foe), ("aggressive", "aggressive"), seed)
        for e in played.events():
            if isinstance(e, ev.InitiativeRolled):
                a, b = e.rolls[-1]
                assert e.winner == ("A" if a + card.effect.amount > b else "B")


@pytest.mark.rule("FPF-REP-03", "FPF-REP-01")
@pytest.mark.parametrize("card_id", by_hook("repair-team"))
def test_the_repair_team_mends_the_most_battered_ship_once_never_its_hull(card_id: str) -> None:
    card = cards()[card_id]
    battle = started(card)
    a2, a3 = battle.ships["A2"], battle.ships["A3"]
    a2.superstructure, a2.shields, a2.engine_power = 5, 3, 2
    a3.superstructure, a3.shields = 15, 1
    cards_module = next(m for m in rules_of(battle).modules if isinstance(m, CardEffects))
    list(cards_module.repairs(battle))  # the team's part of the repairs (no decision to make)
    assert a2.superstructure == 5  # superstructure is never repaired in battle (FPF-REP-03)
    assert (a2.engine_power, a2.shields) == (a2.max_engine, a2.max_shields)  # two repairs
    assert a3.shields == 1
    a3.superstructure = 3
    list(cards_module.repairs(battle))
    assert a3.shields == 1  # used up: once a battle
    helped = [e.on for e in battle.events() if isinstance(e, ev.CardUsed) and e.card == card_id]
    assert helped == ["A2"]
    repaired = [(e.ship, e.item) for e in battle.events() if isinstance(e, ev.Repaired)]
    assert repaired == [("A2", "engine_power"), ("A2", "shields")]


def test_every_card_is_covered_by_a_hook_test() -> None:
    tested = {"stat", "weapon", "evasion", "reroll", "initiative", "repair-team"}
    assert {c.effect.hook for c in cards().values()} <= tested


def test_the_starter_set_has_what_the_issue_asks() -> None:
    all_cards = list(cards().values())
    kinds = [c.kind for c in all_cards]
    assert kinds.count(CardKind.CAPTAIN) >= 8
    assert kinds.count(CardKind.ADMIRAL) >= 4
    assert kinds.count(CardKind.RESOURCE) >= 4
    for t in ("crew", "talent", "tech", "weapon", "borg", "squadron"):
        assert sum(1 for c in all_cards if c.type and c.type.value == t) >= 3
    sideboard = cards()["reinforcements-sideboard"]
    assert (sideboard.name, sideboard.cost) == ("Reinforcements Sideboard", 10)
    assert all(c.skill for c in all_cards if c.kind is CardKind.CAPTAIN)


def test_battles_of_the_same_fleets_share_their_start_but_not_its_results() -> None:
    # the second battle takes the card changes worked out for the first (rules/cards.py,
    # `_STARTS`): the same events and values, in dicts and ships of its own
    card = cards()[by_hook("stat")[0]]
    first, second = started(card), started(card)
    used = [[e for e in b.events() if isinstance(e, ev.CardUsed)] for b in (first, second)]
    assert used[0]
    assert used[0] == used[1]
    assert all(a.changes is not b.changes for a, b in zip(*used, strict=True))
    # and the cards in play (`carried`), on each battle's own ships
    assert [(s.id, c.id, h) for s, c, h in carried(first)] == [
        (s.id, c.id, h) for s, c, h in carried(second)
    ]
    assert all(s is second.ships[s.id] for s, _, _ in carried(second))
    for a, b in zip(first.all_ships, second.all_ships, strict=True):
        assert a is not b
        assert (a.max_shields, a.max_engine, a.max_systems, a.damage_control) == (
            b.max_shields,
            b.max_engine,
            b.max_systems,
            b.damage_control,
        )
    # a battle whose ships differ before the start works its changes out anew
    third = new_battle(
        STANDARD, (carrier_fleet(card), read_fleet({"ships": [{"id": "venture"}]}, "foe")), 3
    )
    third.ships["A1"].shields -= 1
    third.ships["A1"].max_shields -= 1
    third.ships["A1"].systems -= 1
    third.ships["A1"].max_systems -= 1
    third.ships["A1"].engine_power -= 1
    third.ships["A1"].max_engine -= 1
    third.ships["A1"].damage_control -= 1
    rules_of(third).run(Phase.START_OF_BATTLE, third)
    again = [e for e in third.events() if isinstance(e, ev.CardUsed) and e.on == "A1"]
    before = [e for e in used[0] if e.on == "A1"]
    assert [e.detail for e in again] != [e.detail for e in before]
