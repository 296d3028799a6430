"""Tholian webs (module `adv-webs`): ADV-WEB-01, ADV-WEB-02, ADV-WEB-03, ADV-WEB-04, ADV-WEB-05,
ADV-WEB-06, ADV-WEB-07.

After each phase's movement a side with web work to do gets a `WebDecision` listing every legal
action (kolrami.rules.advanced.field_orders): a Tholian next to an enemy wraps it in a temporary
web instead of firing; two or more Tholians near an enemy weave a permanent web over 3, 2 or 1
phases; they constrict a captive of no more than their mass until it is crushed; the web's maker
tows its captive (slowly at first, and never at warp when the captive is heavier than half its
mass); and a friend of the captive breaks the web with a full-power counter tractor. Every
effect is a Change of kolrami.rules.advanced.field_events; readings in docs/rules.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kolrami.engine import events as ev
from kolrami.engine.battle import other
from kolrami.engine.geometry import _COS
from kolrami.engine.geometry import _SIN
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import tractor
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.field_events import CounterTractor
from kolrami.rules.advanced.field_events import Web
from kolrami.rules.advanced.field_events import WebBusy
from kolrami.rules.advanced.field_events import WebCast
from kolrami.rules.advanced.field_events import WebChanged
from kolrami.rules.advanced.field_events import WebReleased
from kolrami.rules.advanced.field_events import WebSqueezed
from kolrami.rules.advanced.field_events import WebTowed
from kolrami.rules.advanced.field_events import WebWoven
from kolrami.rules.advanced.field_events import comms_of
from kolrami.rules.advanced.field_events import webs_of
from kolrami.rules.advanced.field_orders import WebDecision
from kolrami.rules.advanced.field_orders import WebOrder
from kolrami.rules.advanced.modules import AdvancedModule
from kolrami.rules.advanced.officers import lose_lock
from kolrami.rules.advanced.state import by_order
from kolrami.rules.advanced.state import on_decision
from kolrami.rules.advanced.state import state_of
from kolrami.rules.module import rules_of
from kolrami.rules.steps import Asked
from kolrami.rules.steps import Each

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.step import Step
    from kolrami.rules.advanced.state import AdvancedState
    from kolrami.rules.advanced.state import AdvShip

WEB_CLAUSES = (
    "ADV-WEB-01",
    "ADV-WEB-02",
    "ADV-WEB-03",
    "ADV-WEB-04",
    "ADV-WEB-05",
    "ADV-WEB-06",
    "ADV-WEB-07",
)
#: "Adjacent": centres within one and a half hexes (ADV-WEB-01); weavers work within 3 hexes.
ADJACENT_HEXES = 1.5
WEAVE_HEXES = 3.0
#: A permanent web is 6 units of work: 2 weavers do 2 a phase (3 phases), 3 do 3 (2 phases),
#: 4 or more do 6 (1 phase) (ADV-WEB-03).
WEB_WORK = 6
PHASES_BY_WEAVERS = {2: 3, 3: 2, 4: 1}
#: The target flies out of a web being woven when it ends a move over 1 hex from its centre.
WEAVE_HOLD_HEXES = 1.0
SPECIES = "tholian"


def is_tholian(adv: AdvShip) -> bool:
    """Crewed by Tholians (the only species that weaves webs)."""
    return adv.species.id == SPECIES


def web_phases(adv: AdvShip) -> int:
    """The temporary web's duration on a Tholian's control panel (house reading): 2 phases plus
    one per 8 superstructure of its FPF sheet (Spindle 3, Lattice 4) (ADV-WEB-01)."""
    return 2 + adv.ship.cls.superstructure // 8


def weave_phases(weavers: int) -> int:
    """Phases a permanent web takes: 2 ships 3, 3 ships 2, 4 or more 1; 0: one cannot weave
    (ADV-WEB-03)."""
    if weavers < 2:
        return 0
    return PHASES_BY_WEAVERS[min(weavers, 4)]


def weave_work(weavers: int) -> int:
    """Units of the 6 a phase's weaving does (ADV-WEB-03)."""
    phases = weave_phases(weavers)
    return WEB_WORK // phases if phases else 0


def web_power(makers: list[AdvShip]) -> int:
    """A web's power: the strongest maker's total power (ADV-WEB-04)."""
    return max(a.sheet.total_power for a in makers)


def constriction_loss(superstructure: int) -> int:
    """What the second-to-last turn of constriction takes: a third of what is left, rounded
    down (ADV-WEB-05: 30 loses 10)."""
    return superstructure // 3


def may_constrict(target_mass: int, tholian_masses: list[int]) -> bool:
    """A web constricts a target no heavier than the largest constricting Tholian (ADV-WEB-05)."""
    return bool(tholian_masses) and target_mass <= max(tholian_masses)


def tow_top(tower_mass: int, captive_mass: int) -> int:
    """The most hexes a phase a tower reaches with its captive: 1 (sublight) when the captive
    is over half its mass (ADV-WEB-02); else 1 more for each captive's mass it has, up to 3
    (ADV-WEB-07: the top speed by the mass ratio)."""
    if 2 * captive_mass > tower_mass:
        return 1
    return min(3, 1 + tower_mass // captive_mass)


def tow_cap(turns: int, tower_mass: int, captive_mass: int) -> int:
    """Hexes a phase after `turns` full game turns of towing: the first turn shapes the warp
    fields at 1 hex a phase; then one step a turn, never two at once, up to the top
    (ADV-WEB-07)."""
    return min(tow_top(tower_mass, captive_mass), 1 + turns)


def _dist(a: AdvShip, b: AdvShip) -> float:
    return math.hypot(a.ship.x - b.ship.x, a.ship.y - b.ship.y)


def jammed(state: AdvancedState, ship_id: str) -> bool:
    """Whether an enemy jams this ship's channel (module adv-comms, ADV-COMM-04)."""
    return ship_id in comms_of(state).jams.values()


def web_on(state: AdvancedState, ship_id: str) -> Web | None:
    """The web holding a ship, if any."""
    for w in webs_of(state).webs.values():
        if w.target == ship_id:
            return w
    return None


def _free(a: AdvShip) -> bool:
    return a.alive and not a.held and not a.busy and not a.hidden


def counter_problem(state: AdvancedState, rescuer: AdvShip, web: Web) -> str | None:
    """Why `rescuer` cannot turn a counter tractor on `web` now, or None (ADV-WEB-06): from
    outside, sensors working, a full-power beam it can pay for at range (ADV-TRAC-01,
    ADV-TRAC-02), and total power no less than the web's (ADV-WEB-04)."""
    captive = state.of(web.target)
    if rescuer.id == captive.id:
        return "a webbed ship cannot free itself; only a counter tractor from outside does"
    if not rescuer.sensors_ok:
        return "a counter tractor needs working sensors"
    if rescuer.sheet.total_power < web.power:
        return f"its power {rescuer.sheet.total_power} is below the web's {web.power} (ADV-WEB-04)"
    hexes = _dist(rescuer, captive) / state.hex_cm
    return tractor.tractor_problem(
        max(hexes, 1.0),
        rescuer.sheet.mass_t,
        captive.sheet.mass_t,
        tractor.Level.FULL,
        rescuer.available - rescuer.cost,
        rescuer.sheet.total_power,
    )


def web_options(state: AdvancedState, side: str) -> list[tuple[str, str, str]]:
    """Every (ship, action, target) of `side` legal now (module adv-webs)."""
    out: list[tuple[str, str, str]] = []
    mine = [a for a in state.side(side) if _free(a)]
    tholians = [a for a in mine if is_tholian(a)]
    enemies = [
        e for e in state.side(other(side)) if state.rules.visible(state, side, e) and not e.hidden
    ]
    hex_cm = state.hex_cm
    w = webs_of(state)
    for e in enemies:
        if e.held:
            web = web_on(state, e.id)
            if web is None:
                continue
            near = [
                t
                for t in tholians
                if _dist(t, e) <= WEAVE_HEXES * hex_cm and not jammed(state, t.id)
            ]
            masses = [t.sheet.mass_t for t in near]
            ready = web.permanent and not web.constrict and len(near) >= 2
            if ready and may_constrict(e.sheet.mass_t, masses):
                out += [(t.id, "K", e.id) for t in near]
            if not web.tower:
                out += [
                    (t.id, "W", e.id)
                    for t in tholians
                    if t.id in web.makers and _dist(t, e) <= 2 * hex_cm
                ]
            continue
        out += [(t.id, "T", e.id) for t in tholians if _dist(t, e) <= ADJACENT_HEXES * hex_cm]
        weavers = [
            t for t in tholians if _dist(t, e) <= WEAVE_HEXES * hex_cm and not jammed(state, t.id)
        ]
        if len(weavers) >= 2 or (e.id in w.weaving and weavers):
            out += [(t.id, "P", e.id) for t in weavers]
    for web in w.webs.values():
        captive = state.of(web.target)
        if captive.side != side or not captive.alive:
            continue
        for r in mine:
            if r.id != captive.id and counter_problem(state, r, web) is None:
                out.append((r.id, "F", captive.id))
    return out


def verify_web(decision: WebDecision, order: WebOrder) -> None:
    """A side's web order: each action one of the decision's options, one action a ship, one
    temporary web a target, two weavers or constrictors at least."""
    seen: set[str] = set()
    temporary: set[str] = set()
    count: dict[tuple[str, str], int] = {}
    for ship, action, target in order.actions:
        if (ship, action, target) not in decision.options:
            legal = " ".join(f"{s}:{a}>{t}" for s, a, t in decision.options) or "none"
            raise IllegalOrderError(
                f"{ship}:{action}>{target} is not a web action open now; open: {legal} "
                "(ADV-WEB-01, ADV-WEB-03, ADV-WEB-05, ADV-WEB-06)"
            )
        if ship in seen:
            raise IllegalOrderError(f"{ship} takes one web action a phase")
        seen.add(ship)
        if action == "T":
            if target in temporary:
                raise IllegalOrderError(f"a single Tholian webs {target} (ADV-WEB-01)")
            temporary.add(target)
        count[(action, target)] = count.get((action, target), 0) + 1
    for (action, target), n in count.items():
        if action == "P" and target in temporary:
            raise IllegalOrderError(f"{target} is webbed or woven, not both in one phase")
        if action == "K" and n < 2:
            raise IllegalOrderError(
                f"constricting {target} takes two Tholians or more (ADV-WEB-05)"
            )


def carry_out(battle: Battle, state: AdvancedState, order: WebOrder) -> None:
    """Apply a verified web order."""
    w = webs_of(state)
    weaving: dict[str, list[str]] = {}
    constrict: dict[str, list[str]] = {}
    for ship, action, target in order.actions:
        adv, e = state.of(ship), state.of(target)
        if action == "T":  # ADV-WEB-01
            battle.record(
                WebCast(f"w{w.made + 1}", target, [ship], False, web_phases(adv), web_power([adv]))
            )
        elif action == "P":
            weaving.setdefault(target, []).append(ship)
        elif action == "K":
            constrict.setdefault(target, []).append(ship)
        elif action == "W":  # ADV-WEB-02, ADV-WEB-07: the first turn at sublight
            web = web_on(state, target)
            assert web is not None
            battle.record(WebChanged(web.id, web.phases, ship, 0, 1, web.constrict))
            battle.record(WebBusy([ship], True))
        else:  # F: ADV-WEB-06
            web = web_on(state, target)
            assert web is not None
            result = check(battle.dice, adv.rating("science", "sensors"), adv.penalty)
            passed = result.outcome.passed
            battle.note(CounterTractor, ship, web.id, result.roll, result.rating, passed)
            lose_lock(battle, adv, "its sensors matched a web's frequency (ADV-WEB-06)")
            battle.record(WebBusy([ship], True))
            if passed:
                battle.record(WebReleased(web.id, f"counter tractor of {ship}"))
    for target, ships in weaving.items():  # ADV-WEB-03, ADV-WEB-04
        e = state.of(target)
        had = w.weaving.get(target)
        work = (had.work if had else 0) + weave_work(len(ships))
        x, y = (had.x, had.y) if had else (e.ship.x, e.ship.y)
        makers = [state.of(s) for s in ships]
        if work >= WEB_WORK:
            phases = max(web_phases(a) for a in makers)
            battle.record(WebCast(f"w{w.made + 1}", target, ships, True, phases, web_power(makers)))
        else:
            battle.record(WebWoven(target, x, y, work, ships))
    for target, ships in constrict.items():  # ADV-WEB-05
        web = web_on(state, target)
        assert web is not None
        battle.record(
            WebChanged(web.id, web.phases, web.tower, web.tow_turns, _cap(state, web), web.phases)
        )
        battle.record(WebBusy(ships, True))


def _cap(state: AdvancedState, web: Web) -> int:
    if not web.tower:
        return -1
    return state.of(web.tower).tow_cap


class TholianWebs(AdvancedModule):
    """Tholian webs: temporary and permanent, constriction, towing, counter tractors."""

    name = "adv-webs"
    clauses = WEB_CLAUSES
    summary = (
        "Advanced option: Tholians wrap adjacent ships in temporary webs, weave permanent ones "
        "together, constrict and tow their captives; a counter tractor frees a captive."
    )

    def adv_after_move(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Sequence[Step[Battle]]:
        self._follow(battle, state)
        return (Each(_WEBS.at(phase), sides),)

    def _follow(self, battle: Battle, state: AdvancedState) -> None:
        """Webs follow their captives: a dead captive is let go; a towed one is dragged a hex
        behind its tower; a target that flew out of a web being woven is lost (ADV-WEB-03)."""
        w = webs_of(state)
        for web in list(w.webs.values()):
            captive = state.of(web.target)
            if not captive.alive:
                battle.record(WebReleased(web.id, "captive destroyed"))
                continue
            if web.tower:
                tower = state.of(web.tower)
                if not tower.alive:
                    battle.record(WebChanged(web.id, web.phases, "", 0, -1, web.constrict))
                    continue
                h = tower.ship.heading
                x = round(tower.ship.x - _COS[h] * state.hex_cm, 3)
                y = round(tower.ship.y - _SIN[h] * state.hex_cm, 3)
                if (x, y) != (captive.ship.x, captive.ship.y):
                    start = [captive.ship.x, captive.ship.y]
                    battle.record(WebTowed(captive.id, x, y))
                    s = captive.ship
                    battle.change(ev.ShipMoved, s.id, [start, [x, y]], s.heading, s.speed, 0.0)
        for target, weave in list(w.weaving.items()):
            e = state.of(target)
            gone = (
                math.hypot(e.ship.x - weave.x, e.ship.y - weave.y) > WEAVE_HOLD_HEXES * state.hex_cm
            )
            if not e.alive or gone:
                battle.record(WebWoven(target, weave.x, weave.y, 0, []))

    def adv_phase_end(self, battle: Battle, state: AdvancedState, phase: int) -> None:
        w = webs_of(state)
        for web in list(w.webs.values()):
            if web.permanent:
                continue
            left = web.phases - 1
            if left <= 0:
                battle.record(WebReleased(web.id, "the temporary web ran out"))
            else:
                battle.record(
                    WebChanged(
                        web.id, left, web.tower, web.tow_turns, _cap(state, web), web.constrict
                    )
                )
        busy = [a.id for a in state.ships.values() if a.busy]
        if busy:
            battle.record(WebBusy(busy, False))

    def adv_turn_end(self, battle: Battle, state: AdvancedState) -> None:
        w = webs_of(state)
        for web in list(w.webs.values()):
            captive = state.of(web.target)
            turns, cap = web.tow_turns, _cap(state, web)
            if web.tower:  # ADV-WEB-07: the warp fields shaped, one step a turn
                turns += 1
                cap = tow_cap(turns, state.of(web.tower).sheet.mass_t, captive.sheet.mass_t)
            left = web.constrict
            if left:
                left -= 1
                if left == 1:  # the second-to-last turn (ADV-WEB-05)
                    ss = captive.ship.superstructure
                    battle.record(
                        WebSqueezed(captive.id, [0] * 6, [0] * 6, ss - constriction_loss(ss))
                    )
                elif left == 0:
                    battle.record(WebSqueezed(captive.id, [0] * 6, [0] * 6, 0))
                    battle.record(WebReleased(web.id, "its captive crushed"))
                    rules_of(battle).destroyed(battle, captive.ship, None)
                    continue
            if (turns, cap, left) != (web.tow_turns, _cap(state, web), web.constrict):
                battle.record(WebChanged(web.id, web.phases, web.tower, turns, cap, left))


def _ask_webs(battle: Battle, side: str, phase: int) -> WebDecision | None:
    """A side's Tholians weave, constrict and tow; counter tractors free captives (ADV-WEB-01)."""
    options = tuple(web_options(state_of(battle), side))
    return WebDecision(side, phase, options) if options else None


_WEBS = Asked(WebDecision, WebOrder, "WEB", _ask_webs, on_decision(verify_web), by_order(carry_out))
