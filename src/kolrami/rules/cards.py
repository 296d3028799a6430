"""Card effects in battle: the hooks that cards.toml names (`stat`, `weapon`, `reroll`,
`evasion`, `initiative`, `repair-team`), as one core rule module.

Lasting changes (`stat`, `weapon`) are applied once, when the battle starts, to the ships in
the card's scope; they raise the values that repairs restore and that a Peak Performance reset
returns to (PP-12). The others act during play through the module's policies and log a
`card_used` event each time they change something.
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Final

from kolrami.catalog.cards import Card
from kolrami.catalog.cards import Scope
from kolrami.catalog.cards import cards as catalog
from kolrami.catalog.cards import get_card
from kolrami.engine.step import Step
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.fpf.repairs import apply_repair
from kolrami.rules.fpf.repairs import damaged_items
from kolrami.rules.fpf.volley import Volley
from kolrami.rules.module import RuleModule

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState


def carried(battle: Battle) -> list[tuple[ShipState, Card, str]]:
    """Every (ship, card, hook) in play: ship cards, then each fleet's resource on its first ship
    (a resource belongs to the fleet; the first ship stands for it), with the hook the card's
    effect works through. Worked out once a battle (the hooks too: the phases ask for them
    every turn, and a card's fields are slow reads)."""
    if battle.cards_in_play is None:
        battle.cards_in_play = list(_carried(battle))
    return battle.cards_in_play


def _carried(battle: Battle) -> Iterator[tuple[ShipState, Card, str]]:
    for ship in battle.ships.values():
        for card_id in ship.start_cards:
            card = get_card(card_id)
            yield ship, card, card.effect.hook
    for side, fleet in zip(("A", "B"), battle.fleets, strict=True):
        for resource in fleet.resources()[:1]:
            first = next(s for s in battle.ships.values() if s.side == side)
            card = get_card(resource)
            yield first, card, card.effect.hook


def in_scope(battle: Battle, ship: ShipState, scope: Scope) -> list[ShipState]:
    """The ships a card on `ship` reaches."""
    if scope is Scope.SHIP:
        return [ship]
    if scope is Scope.SQUADRON:
        return [battle.ships[s] for s in battle.squadrons[ship.squadron].ships]
    return [s for s in battle.ships.values() if s.side == ship.side]


class CardEffects(RuleModule):
    """The engine side of every card: lasting modifiers, re-rolls, evasion, initiative, repairs."""

    name = "cards"
    core = True
    clauses = ("FBS-03", "FBS-06", "PP-12")
    summary = "Card effects: stat and weapon changes, re-rolls, evasion, initiative, hull patches."

    def start_of_battle(self, battle: Battle) -> None:
        battle.card_uses = {}
        key = _start_key(battle)
        known = _STARTS.get(key)
        if known is None:
            if len(_STARTS) >= 64:  # (a bound for long sessions of many different fleets)
                _STARTS.clear()
            cards = carried(battle)
            place = {id(s): i for i, s in enumerate(battle.all_ships)}
            in_play = [(place[id(s)], card, hook) for s, card, hook in cards]
            _STARTS[key] = (catalog(), in_play, _lasting_changes(battle, cards))
            return
        _, in_play, changes = known
        if battle.cards_in_play is None:  # (`carried`, as it would work it out)
            ships = battle.all_ships
            battle.cards_in_play = [(ships[i], card, hook) for i, card, hook in in_play]
        # the same changes again, each recorded as this battle's own event through the one
        # door (`Battle.change`), with a dict of its own (the log keeps it)
        for card_id, ship_id, on, detail, values in changes:
            battle.change(_CARD_USED, card_id, ship_id, on, detail, values.copy())

    def start_of_turn(self, battle: Battle) -> Sequence[Step[Battle]]:
        battle.rerolls_left = {}
        for ship, card, hook in carried(battle):
            if hook == "reroll" and ship.alive:
                per_turn = card.effect.per_turn
                battle.rerolls_left[ship.id] = battle.rerolls_left.get(ship.id, 0) + per_turn
        return ()

    def repairs(self, battle: Battle) -> Sequence[Step[Battle]]:
        # the reserve team works in the repairs, after the sides' own damage control
        for ship, card, hook in carried(battle):
            if hook == "repair-team":
                _repair_team(battle, ship, card)
        return ()

    def after_roll(self, battle: Battle, volley: Volley, rolls: list[int]) -> list[int]:
        ship = volley.firer
        left = battle.rerolls_left.get(ship.id, 0)
        if not left:
            return rolls
        for i, roll in enumerate(rolls):
            if not penetrates(roll, volley.shields, volley.strength):
                new = battle.dice.d10()
                battle.rerolls_left[ship.id] = left - 1
                card = next(
                    (c.id for s, c, hook in carried(battle) if s is ship and hook == "reroll"),
                    "",
                )
                battle.change(
                    _CARD_USED, card, ship.id, volley.target.id, f"re-rolled a {roll}: {new}", {}
                )
                return [*rolls[:i], new, *rolls[i + 1 :]]
        return rolls

    def evasion(self, battle: Battle, firer: ShipState, target: ShipState) -> int:
        return target.evasion

    def initiative_bonus(self, battle: Battle, side: str) -> int:
        total = 0
        for ship, card, hook in carried(battle):
            if ship.side == side and hook == "initiative" and ship.alive:
                total += card.effect.amount
        return total


#: (a card's change at the start of a battle: card, carrier, changed ship, detail, new values)
_StartChange = tuple[str, str, str, str, dict[str, int]]
#: What battles start with, by what it is worked out from (`_start_key`): the cards in play
#: (`carried`, each ship by its place in the battle's order) and their lasting changes. Battles
#: of the same fleets start alike, and each worked it out again before. An entry holds the card
#: catalogue whose identity is in its key, so that no other object can take its id.
_STARTS: Final[
    dict[
        tuple[object, ...],
        tuple[dict[str, Card], list[tuple[int, Card, str]], list[_StartChange]],
    ]
] = {}
# (the event class as a constant: compiled, `ev.CardUsed` is a look-up in the module each time)
_CARD_USED: Final = ev.CardUsed


def _start_key(battle: Battle) -> tuple[object, ...]:
    """Everything the cards in play and their lasting changes at a battle's start are worked
    out from (and more): the card catalogue (by identity) and the fleets' resources; every
    ship's id, side, squadron, cards and the numbers a card changes, in the battle's order; the
    squadrons' members. Two battles with equal keys start with the same cards and changes."""
    # (one flat tuple of strings and ints, with a count before each run of values: quick to
    # hash, where nested tuples are not; weapon kinds by their identities, as the members of an
    # Enum are one object each)
    out: list[object] = [id(catalog())]
    for fleet in battle.fleets:
        first = fleet.resources()[:1]
        out.append(len(first))
        out += first
    out.append(len(battle.all_ships))
    for s in battle.all_ships:
        out += (
            s.id,
            s.side,
            s.squadron,
            s.shields,
            s.max_shields,
            s.engine_power,
            s.max_engine,
            s.systems,
            s.max_systems,
            s.damage_control,
            s.evasion,
            len(s.start_cards),
            len(s.strength),
            len(s.ranges),
        )
        out += s.start_cards
        for kind, value in s.strength.items():
            out.append(id(kind))
            out.append(value)
        for kind, value in s.ranges.items():
            out.append(id(kind))
            out.append(value)
    for squadron in battle.squadrons.values():
        out.append(squadron.id)
        out.append(len(squadron.ships))
        out += squadron.ships
    return tuple(out)


def _lasting_changes(
    battle: Battle, cards: list[tuple[ShipState, Card, str]]
) -> list[_StartChange]:
    """Make and record the lasting changes of the cards in play (`stat`, `weapon`,
    `evasion`), each as it is found (a later card builds on an earlier one's values); returns
    them, with dicts of their own."""
    out: list[_StartChange] = []
    for ship, card, _ in cards:
        fx = card.effect
        if fx.hook == "evasion":
            for s in in_scope(battle, ship, fx.scope):
                evasion = s.evasion + fx.amount
                changes = {"evasion": evasion}
                battle.change(_CARD_USED, card.id, ship.id, s.id, f"evasion {evasion}", changes)
                out.append((card.id, ship.id, s.id, f"evasion {evasion}", changes.copy()))
            continue
        if fx.hook not in ("stat", "weapon"):
            continue
        for s in in_scope(battle, ship, fx.scope):
            change = _lasting(s, card)
            if change is not None:
                detail, changes = change
                battle.change(_CARD_USED, card.id, ship.id, s.id, detail, changes)
                out.append((card.id, ship.id, s.id, detail, changes.copy()))
    return out


def _lasting(ship: ShipState, card: Card) -> tuple[str, dict[str, int]] | None:
    """What a card changes in a ship's values for the battle, in words and as the new values
    (None when it changes nothing)."""
    fx = card.effect
    if fx.hook == "stat":
        if fx.stat == "shields":
            value = ship.shields + fx.amount
            top = {"max_shields": ship.max_shields + fx.amount, "shields": value}
            return f"shields {value}", top
        if fx.stat == "engine_power":
            value = ship.engine_power + fx.amount
            top = {"max_engine": ship.max_engine + fx.amount, "engine_power": value}
            return f"engine power {value}", top
        if fx.stat == "computer":
            value = ship.systems + fx.amount
            return f"systems {value}", {
                "max_systems": ship.max_systems + fx.amount,
                "systems": value,
            }
        value = ship.damage_control + fx.amount
        return f"damage control {value}", {"damage_control": value}
    if fx.weapon is None or fx.weapon not in ship.strength:
        return None  # no such weapon on this ship: nothing to improve
    strength = ship.strength[fx.weapon] + fx.strength
    reach = ship.ranges[fx.weapon] + fx.range_cm
    kind = fx.weapon.value
    changes = {f"strength:{kind}": strength, f"range:{kind}": reach}
    return f"{kind}s strength {strength}, range {reach} cm", changes


def _repair_team(battle: Battle, carrier: ShipState, card: Card) -> None:
    """The Reinforcements Sideboard's team: once a battle, in a turn's repairs, `amount` of
    the most battered ship's damaged items repaired as Damage Control points repair them, in
    the order the repair list gives. Superstructure is never among them (FPF-REP-03)."""
    fx = card.effect
    used = battle.card_uses.get((carrier.side, card.id), 0)
    if used >= fx.uses:
        return
    hurt = [s for s in battle.side_ships(carrier.side) if damaged_items(battle, s)]
    if not hurt:
        return
    worst = min(hurt, key=lambda s: (s.superstructure / s.cls.superstructure, s.index))
    battle.card_uses[(carrier.side, card.id)] = used + 1
    battle.change(_CARD_USED, card.id, carrier.id, worst.id, f"up to {fx.amount} repairs", {})
    for _ in range(fx.amount):
        items = damaged_items(battle, worst)
        if not items:
            break
        apply_repair(battle, worst, items[0])  # each logged as a repair
    moves = worst.engine_power > 0 or worst.cls.stationary  # a base has no engines to lose
    if worst.alive and not worst.in_control and moves and worst.systems > 0:
        battle.set_control(worst, True)  # (as damage control's repairs do, FPF-DMG-13)
