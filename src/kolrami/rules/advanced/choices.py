"""The legal choices of each advanced decision, for a person to pick from (`kolrami play`, /play).

One function per decision type (`CHOOSERS`, filled by `@chooser(DecisionType)`) proposes
orders from the rules' own lists (officers' bonus options, lock targets, legal attacks, the
tactics and web options a decision carries, ...); `menu` keeps only those the rules' own check
accepts (`BattleView.can`, the asking step's verify: the battle untouched), so every choice
offered is an order the battle takes.

A choice is a whole order (`MOVE A1 3 T+1 T0`, `ATTACK NONE`) or one part of a side's order for
one ship (`A1:0+1>B2` of `ATTACK ...`): parts of different groups combine into one order
(`Menu.combine`), which the rules check again as a whole when it is given (two attacks that
together break a rule are refused with its clause id).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.rules.advanced.field_orders import WEB_ACTIONS
from kolrami.rules.advanced.field_orders import JamDecision
from kolrami.rules.advanced.field_orders import JamOrder
from kolrami.rules.advanced.field_orders import ProbeDecision
from kolrami.rules.advanced.field_orders import ProbeLaunch
from kolrami.rules.advanced.field_orders import ProbeOrder
from kolrami.rules.advanced.field_orders import ProbeShot
from kolrami.rules.advanced.field_orders import WebDecision
from kolrami.rules.advanced.field_orders import WebOrder
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.orders import AttackDecision
from kolrami.rules.advanced.orders import AttackOrder
from kolrami.rules.advanced.orders import BonusDecision
from kolrami.rules.advanced.orders import BonusOrder
from kolrami.rules.advanced.orders import DecloakDecision
from kolrami.rules.advanced.orders import DecloakOrder
from kolrami.rules.advanced.orders import EvadeDecision
from kolrami.rules.advanced.orders import EvadeOrder
from kolrami.rules.advanced.orders import LayDecision
from kolrami.rules.advanced.orders import LayOrder
from kolrami.rules.advanced.orders import LockDecision
from kolrami.rules.advanced.orders import LockOrder
from kolrami.rules.advanced.orders import MoveDecision
from kolrami.rules.advanced.orders import MoveOrder
from kolrami.rules.advanced.orders import PowerDecision
from kolrami.rules.advanced.orders import PowerOrder
from kolrami.rules.advanced.orders import PowerPlan
from kolrami.rules.advanced.orders import ShieldDecision
from kolrami.rules.advanced.orders import ShieldOrder
from kolrami.rules.advanced.orders import TacticsDecision
from kolrami.rules.advanced.orders import TacticsOrder
from kolrami.rules.advanced.orders import action_ship
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.view import AdvancedView
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.rules.fpf.orders import ReturnOrder
from kolrami.rules.fpf.view import BattleView

FACINGS = 6
#: Probe launch points offered per ship (toward each enemy in sight, and straight ahead).
MAX_LAUNCH_POINTS = 4
#: Return spots offered for a reset ship (PP-11): the spots spread evenly over the legal ones.
MAX_RETURN_SPOTS = 12


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal choice: `order` is the whole order it is alone (accepted by the rules now);
    `item` its part of a combined order for `group` (a ship, or a ship's officer or weapons),
    "" for a choice that is only ever a whole order (NONE, a move)."""

    order: str
    label: str
    group: str = ""
    item: str = ""


@dataclass(frozen=True, slots=True)
class Menu:
    """A decision's legal choices; parts of different groups combine under `head`."""

    head: str
    choices: tuple[Choice, ...]

    def combine(self, picks: Sequence[Choice]) -> str:
        """The one order that gives every picked choice: a single pick is its own order, parts
        join under the head (`ATTACK A1:0>B2 A2:1>B3`)."""
        if len(picks) == 1:
            return picks[0].order
        if not picks or any(not c.item for c in picks):
            raise ValueError("only parts of an order (one ship's choices) combine")
        groups = [c.group for c in picks]
        if len(set(groups)) != len(groups):
            raise ValueError("pick one choice per ship (per group) to combine them")
        return f"{self.head} {' '.join(c.item for c in picks)}"


Proposer = Callable[[BattleView, Any], Iterable[tuple[Order, str, str, str]]]
#: The proposer of each decision type: (order, label, group, item) candidates, checked by `menu`.
CHOOSERS: dict[type, Proposer] = {}


def chooser(kind: type) -> Callable[[Proposer], Proposer]:
    """Register the proposer of decision type `kind`."""

    def register(fn: Proposer) -> Proposer:
        CHOOSERS[kind] = fn
        return fn

    return register


def menu(view: BattleView, decision: Decision) -> Menu | None:
    """The legal choices of `decision` (asked of `view`'s side now), or None for a decision
    type no proposer is registered for. Only orders `view.can` accepts are kept."""
    propose = CHOOSERS.get(type(decision))
    if propose is None:
        return None
    seen: set[str] = set()
    out = []
    for order, label, group, item in propose(view, decision):
        text = str(order)
        if text in seen or not view.can(order):
            continue
        seen.add(text)
        out.append(Choice(text, label, group, item))
    return Menu(str(order_head(decision)), tuple(out))


def order_head(decision: Decision) -> str:
    """The first word of the order answering `decision`."""
    for kind, head in _HEADS.items():
        if isinstance(decision, kind):
            return head
    return ""


_HEADS: dict[type, str] = {
    BonusDecision: "BONUS",
    LockDecision: "LOCK",
    PowerDecision: "POWER",
    MoveDecision: "MOVE",
    DecloakDecision: "DECLOAK",
    AttackDecision: "ATTACK",
    EvadeDecision: "EVADE",
    ShieldDecision: "SHIELDS",
    TacticsDecision: "TACTICS",
    LayDecision: "LAY",
    WebDecision: "WEB",
    ProbeDecision: "PROBE",
    JamDecision: "JAM",
    ReturnDecision: "RETURN",
}

Candidate = tuple[Order, str, str, str]

_TITLES: dict[type, str] = {
    BonusDecision: "the officers' bonus rolls for the game turn (ADV-OFF-03)",
    LockDecision: "sensor locks for the game turn (ADV-SENS-01)",
    PowerDecision: "power for the game turn (ADV-POW-01)",
    MoveDecision: "a move in movement phase {phase}, up to {hexes} hex(es) (ADV-SEQ-03)",
    DecloakDecision: "drop a cloak to fire in phase {phase} (ADV-CLOAK-01)",
    AttackDecision: "declare fire in phase {phase} (ADV-SEQ-04)",
    EvadeDecision: "evade the torpedoes declared at you in phase {phase} (ADV-EVA-01)",
    ShieldDecision: "redistribute shields after phase {phase}'s fire (ADV-SEQ-05)",
    TacticsDecision: "tactical actions after phase {phase}'s movement (adv-tactics)",
    LayDecision: "lay mines in phase {phase} (ADV-MINE-02)",
    WebDecision: "Tholian web work in phase {phase} (ADV-WEB-01)",
    ProbeDecision: "probes in phase {phase} (adv-probes)",
    JamDecision: "jamming at the start of turn {turn} (adv-comms)",
    ReturnDecision: "where {ship} returns to the table (PP-11)",
}


def describe(decision: Decision) -> str:
    """What `decision` asks, in words, with the ships it is for."""
    title = _TITLES.get(type(decision))
    if title is None:
        return str(decision)
    fields = {
        k: getattr(decision, k) for k in ("phase", "hexes", "turn", "ship") if hasattr(decision, k)
    }
    text = f"Side {decision.side}: " + title.format(**fields)
    if isinstance(decision, MoveDecision):
        return text.replace("a move", f"{decision.ship}'s move") + (
            ", straight ahead (no impulse)" if decision.straight else ""
        )
    ships = getattr(decision, "ships", ())
    return text + (f" for {', '.join(ships)}" if ships else "")


def _part(order: Order, label: str, group: str) -> Candidate:
    """A one-item order, offered as a part that combines: its item is the text after the head."""
    return order, label, group, str(order).partition(" ")[2]


def _whole(order: Order, label: str) -> Candidate:
    return order, label, "", ""


# --- once a turn: officers, sensors, power ------------------------------------------------------


@chooser(BonusDecision)
def bonus_choices(view: BattleView, d: BonusDecision) -> Iterable[Candidate]:
    """Each officer's bonus options (ADV-OFF-03), one per officer, or none."""
    yield _whole(BonusOrder(), "take no bonus roll")
    adv = view.advanced()
    for sid in d.ships:
        for role, options in adv.bonus_options(sid).items():
            for opt in options:
                yield _part(
                    BonusOrder(((sid, role, opt),)), f"{sid}'s {role}: {opt}", f"{sid}.{role}"
                )


@chooser(LockDecision)
def lock_choices(view: BattleView, d: LockDecision) -> Iterable[Candidate]:
    """A sensor lock on each enemy a ship may name (ADV-SENS-01), or a search of a facing for
    a cloaked ship (ADV-SENS-02)."""
    yield _whole(LockOrder(), "no sensor lock")
    adv = view.advanced()
    hidden = bool(adv.unseen())
    for sid in d.ships:
        for target in adv.lock_targets(sid):
            yield _part(LockOrder(((sid, target),)), f"{sid} locks on {target}", sid)
        if hidden:
            for facing in range(1, FACINGS + 1):
                if adv.search_problem(sid, facing) is None:
                    yield _part(
                        LockOrder(((sid, f"?{facing}"),)),
                        f"{sid} searches facing {facing} for a cloaked ship",
                        sid,
                    )


def _power_plan(
    adv: AdvancedView, a: AdvShip, shields: bool, weapons: bool, moves: str, cloak: bool
) -> PowerPlan:
    """A plan made greedily from the ship's available power: the cloak, then the shields, then
    movement first (`moves` "first", or "half" of the most it may buy), the weapons (beams at
    their full power, launchers armed while stores last), then movement with what is left
    ("rest") or none ("none")."""
    s = a.sheet
    budget = a.available
    if cloak:
        budget -= s.cloak_power
    if shields and s.shield_cost <= budget:
        budget -= s.shield_cost
    else:
        shields = False
    cap = adv.max_moves(a.id)
    limit = adv.speed_limit(a.id)
    cap = cap if limit is None else min(cap, limit)
    bought = 0
    if moves == "half":
        cap //= 2
    if moves in ("first", "half"):
        bought = max(0, min(cap, budget // s.move_cost))
        budget -= bought * s.move_cost
    power = [0] * len(s.weapons)
    torpedoes = 0
    for i, w in enumerate(s.weapons if weapons else ()):
        full = min(budget, w.power) if w.beam else 0  # a beam's whole power, or what is left
        if not a.weapon_ok[i]:
            continue
        if full >= max(w.min_power, 1):
            power[i], budget = full, budget - full
        elif not w.beam and w.arm_cost <= budget and torpedoes + w.torpedoes <= a.stores:
            power[i], budget, torpedoes = 1, budget - w.arm_cost, torpedoes + w.torpedoes
    if moves == "rest":
        bought = max(0, min(cap, budget // s.move_cost))
    return PowerPlan(a.id, bought, shields, tuple(power), cloak=cloak)


@chooser(PowerDecision)
def power_choices(view: BattleView, d: PowerDecision) -> Iterable[Candidate]:
    """For each ship a few whole plans of its power (ADV-POW, ADV-SHLD): balanced, all speed,
    guns without shields, standing still, under the cloak, or nothing."""
    adv = view.advanced()
    yield _whole(PowerOrder(), "allocate no power (every ship drifts unshielded)")
    for sid in d.ships:
        a = adv.ship(sid)
        cloaks = adv.cloak_problem(sid) is None
        plans = [
            (_power_plan(adv, a, True, True, "rest", False), "shields, full weapons, speed"),
            (_power_plan(adv, a, True, True, "first", False), "shields, full speed, weapons"),
            (_power_plan(adv, a, False, True, "rest", False), "no shields, weapons, speed"),
            (_power_plan(adv, a, True, True, "none", False), "shields and weapons, no move"),
            (_power_plan(adv, a, True, False, "first", False), "shields and speed, no weapons"),
        ]
        if adv.module_on("adv-tactics"):
            plans.append(
                (
                    _power_plan(adv, a, True, False, "half", False),
                    "shields, half speed, the rest kept for tractors and transporters",
                )
            )
        if cloaks:
            plans.append((_power_plan(adv, a, False, False, "first", True), "cloak and speed"))
            plans.append((_power_plan(adv, a, False, True, "rest", True), "cloak, weapons, speed"))
        plans.append((PowerPlan(sid, 0, False, (0,) * len(a.sheet.weapons)), "nothing"))
        for plan, label in plans:
            cost = adv.plan_cost(plan)
            yield _part(
                PowerOrder((plan,)),
                f"{sid}: {label} ({plan.move} hexes; {cost} of {a.available} power)",
                sid,
            )


# --- each phase ---------------------------------------------------------------------------------


@chooser(MoveDecision)
def move_choices(view: BattleView, d: MoveDecision) -> Iterable[Candidate]:
    """Every move within the phase's allowance: hexes, and a turn of -1, 0 or +1 hexside at
    its start and its middle (ADV-SEQ-02, ADV-SEQ-03); straight ahead only without impulse."""
    turns = [(0, 0)]  # straight ahead first
    if not d.straight:
        turns += [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]
    for hexes in range(d.hexes, -1, -1):
        for t1, t2 in [(0, 0)] if hexes == 0 else turns:
            how = "stays put" if hexes == 0 else f"moves {hexes} hex(es)"
            turn = "" if not (t1 or t2) else f", turning {t1:+d} then {t2:+d}"
            yield _whole(MoveOrder(d.ship, hexes, t1, t2), f"{d.ship} {how}{turn}")


@chooser(DecloakDecision)
def decloak_choices(view: BattleView, d: DecloakDecision) -> Iterable[Candidate]:
    """Each cloaked ship may drop its cloak to fire this phase (ADV-CLOAK-01)."""
    yield _whole(DecloakOrder(), "stay cloaked")
    for sid in d.ships:
        yield _part(DecloakOrder((sid,)), f"{sid} drops its cloak to fire", sid)


def _weapons_label(adv: AdvancedView, sid: str, weapons: tuple[int, ...]) -> str:
    sheet = adv.sheet(sid)
    names = [f"w{i} {sheet.weapons[i].kind.value}" for i in weapons]
    return " + ".join(names)


@chooser(AttackDecision)
def attack_choices(view: BattleView, d: AttackDecision) -> Iterable[Candidate]:
    """Each legal (weapons, target) of every ship (ADV-FIRE), with the to-hit number at the
    range now, and a shot at each firing mine in sight (ADV-MINE-09)."""
    yield _whole(AttackOrder(), "hold fire")
    adv = view.advanced()
    mines = adv.firing_mines()
    for sid in d.ships:
        a = adv.ship(sid)
        for weapons, target in adv.legal_attacks(sid):
            t = view.ship(target)
            cm = math.hypot(t.x - a.ship.x, t.y - a.ship.y)
            need = adv.to_hit(sid, weapons[0], cm)
            label = (
                f"{sid} fires {_weapons_label(adv, sid, weapons)} at {target} "
                f"({cm:.0f} cm, to hit {need} or less on a d10 before modifiers)"
            )
            group = f"{sid}:{'+'.join(str(w) for w in weapons)}"
            yield _part(AttackOrder((Attack(sid, weapons, target),)), label, group)
        for key, mx, my in mines:
            cm = math.hypot(mx - a.ship.x, my - a.ship.y)
            for i in range(len(a.sheet.weapons)):
                attack = Attack(sid, (i,), f"M{key}")
                yield _part(
                    AttackOrder((attack,)),
                    f"{sid} fires {_weapons_label(adv, sid, (i,))} at firing mine {key} "
                    f"({cm:.0f} cm)",
                    f"{sid}:{i}",
                )


@chooser(EvadeDecision)
def evade_choices(view: BattleView, d: EvadeDecision) -> Iterable[Candidate]:
    """Each targeted ship may turn one hexside either way instead of firing (ADV-EVA-01)."""
    yield _whole(EvadeOrder(), "no evasion")
    for sid in d.ships:
        for turn in (1, -1):
            yield _part(EvadeOrder(((sid, turn),)), f"{sid} evades, turning {turn:+d}", sid)


@chooser(ShieldDecision)
def shield_choices(view: BattleView, d: ShieldDecision) -> Iterable[Candidate]:
    """For each ship, its points moved from a facing's opposite into it, one per facing, or
    spread evenly (ADV-SEQ-05)."""
    yield _whole(ShieldOrder(), "keep the shields as they are")
    adv = view.advanced()
    for sid in d.ships:
        a = adv.ship(sid)
        base = list(a.base)
        total = sum(base)
        even = [total // FACINGS + (1 if i < total % FACINGS else 0) for i in range(FACINGS)]
        if even != base:
            yield _part(ShieldOrder(((sid, tuple(even)),)), f"{sid}: even out its shields", sid)
        for dst in range(FACINGS):
            src = (dst + 3) % FACINGS
            new = list(base)
            move = min(new[src], a.facing_cap(dst + 1) - new[dst])
            if move > 0:
                new[src] -= move
                new[dst] += move
                yield _part(
                    ShieldOrder(((sid, tuple(new)),)),
                    f"{sid}: {move} point(s) from facing {src + 1} to facing {dst + 1}",
                    sid,
                )


@chooser(TacticsDecision)
def tactics_choices(view: BattleView, d: TacticsDecision) -> Iterable[Candidate]:
    """Each option the decision lists, one per ship: tractors, transporters, docking,
    self-destruct (module adv-tactics)."""
    yield _whole(TacticsOrder(), "no tactical action")
    for option in d.options:
        yield _part(TacticsOrder((option,)), tactics_label(option), action_ship(option))


_VERBS = {
    "tractor": "locks a tractor beam on {target} ({how})",
    "release": "releases its tractor beam",
    "escape": "tries to break free of the tractor beam",
    "board": "beams a boarding party over to {target}",
    "dock": "docks with {target}",
    "undock": "undocks",
    "crew": "takes fresh crew aboard from its base",
    "destruct": "self-destructs ({how})",
}


def tactics_label(option: str) -> str:
    """A tactical action in words (`A1:board>B2`: A1 beams a boarding party over to B2)."""
    ship, _, rest = option.partition(":")
    rest, _, how = rest.partition("=")
    verb, _, target = rest.partition(">")
    said = _VERBS.get(verb, rest).format(target=target or "-", how=how or "-")
    return f"{ship} {said}"


@chooser(LayDecision)
def lay_choices(view: BattleView, d: LayDecision) -> Iterable[Candidate]:
    """Each ship that may lay a mine where it stands, holding its fire (ADV-MINE-02)."""
    yield _whole(LayOrder(), "lay no mine")
    for sid in d.ships:
        yield _part(LayOrder((sid,)), f"{sid} lays a mine here (and holds its fire)", sid)


@chooser(WebDecision)
def web_choices(view: BattleView, d: WebDecision) -> Iterable[Candidate]:
    """Each web option; weaving and constricting with every Tholian that can join in
    (ADV-WEB-01, ADV-WEB-02, ADV-WEB-03, ADV-WEB-05, ADV-WEB-06, ADV-WEB-07)."""
    yield _whole(WebOrder(), "no web work")
    for ship, action, target in d.options:
        yield _part(
            WebOrder(((ship, action, target),)),
            f"{ship}: {WEB_ACTIONS[action]} on {target}",
            ship,
        )
    for action in ("P", "K"):
        for target in dict.fromkeys(t for _, a, t in d.options if a == action):
            group = tuple(o for o in d.options if o[1:] == (action, target))
            seen: dict[str, tuple[str, str, str]] = {}
            for o in group:
                seen.setdefault(o[0], o)
            if len(seen) > 1:
                who = ", ".join(seen)
                yield _whole(
                    WebOrder(tuple(seen.values())), f"{who}: {WEB_ACTIONS[action]} on {target}"
                )


@chooser(ProbeDecision)
def probe_choices(view: BattleView, d: ProbeDecision) -> Iterable[Candidate]:
    """A probe launched toward each enemy in sight (at most its reach) or straight ahead
    (module adv-probes); each beam shot at an enemy probe."""
    yield _whole(ProbeOrder(), "no probe work")
    sc = view.scenario
    for sid, reach in d.launch:
        s = view.ship(sid)
        aims = [(e.id, e.x, e.y) for e in view.enemies() if e.on_table]
        ahead = math.radians(90 + 60 * s.heading)
        aims.append(("ahead", s.x + math.cos(ahead) * reach, s.y + math.sin(ahead) * reach))
        for name, x, y in aims[-MAX_LAUNCH_POINTS:]:
            far = math.hypot(x - s.x, y - s.y)
            if far > reach - 1:  # whole cm within reach (the order names whole cm)
                x = s.x + (x - s.x) * (reach - 1) / far
                y = s.y + (y - s.y) * (reach - 1) / far
            px = min(max(0, round(x)), int(sc.table_width_cm))
            py = min(max(0, round(y)), int(sc.table_height_cm))
            where = "straight ahead" if name == "ahead" else f"toward {name}"
            yield _part(
                ProbeOrder((ProbeLaunch(sid, px, py),)),
                f"{sid} launches a probe {where}, to ({px}, {py}) cm",
                f"{sid}:launch",
            )
    for sid, weapon, probe in d.shots:
        yield _part(
            ProbeOrder((), (ProbeShot(sid, weapon, probe),)),
            f"{sid} shoots probe {probe} with beam w{weapon}",
            f"{sid}:w{weapon}",
        )


@chooser(JamDecision)
def jam_choices(view: BattleView, d: JamDecision) -> Iterable[Candidate]:
    """Each ship's jamming options: a ship's channel, a probe's link, or stop (module
    adv-comms)."""
    yield _whole(JamOrder(), "no change to jamming")
    for ship, target in d.options:
        what = "stops jamming" if target == "-" else f"jams {target}"
        yield _part(JamOrder(((ship, target),)), f"{ship} {what}", ship)


@chooser(ReturnDecision)
def return_choices(view: BattleView, d: ReturnDecision) -> Iterable[Candidate]:
    """Legal return spots spread over the owner's zone, the ship facing the nearest enemy in
    sight (Peak Performance, PP-11); any other spot and heading may be typed."""
    spots = list(d.spots)
    if not spots:
        return
    step = max(1, math.ceil(len(spots) / MAX_RETURN_SPOTS))
    enemies = [e for e in view.enemies() if e.on_table]
    for x, y in spots[::step]:
        heading = 0
        if enemies:
            e = min(enemies, key=lambda e: math.hypot(e.x - x, e.y - y))
            angle = math.degrees(math.atan2(e.y - y, e.x - x)) - 90
            heading = round(angle / 60) % 6
        order = ReturnOrder(d.ship, x, y, heading)
        yield _whole(order, f"{d.ship} returns at ({x:g}, {y:g}) cm, heading {heading}")
