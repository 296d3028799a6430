"""How the built-in captains play the advanced game: one doctrine with two temperaments, and
the random fuzzer. The captains in kolrami.captains.doctrines hand every advanced decision to
`AdvancedDoctrine.decide` (aggressive, kiting) or `RandomAdvanced.decide` (random), so one
Captain protocol plays both games.

The doctrine allocates power (shields first, enough movement to reach its chosen range, then
torpedoes and beams), picks bonus rolls by what is damaged, locks on the nearest enemy, steers to
bring charged weapons to bear at its range, fires when the odds are good or the turn is ending,
aims beams at the enemy's strongest weapon, evades heavy torpedo salvos and turns its shields'
points toward the enemy. With cloaks (module adv-cloak) a ship that carries one closes in under
it and fights in the open, drops it for a phase when a good shot is ready, and has its engineer
roll Cloak Tech; against cloaked enemies the doctrine remembers where each was last seen,
searches that facing, and sends a dispersal torpedo there in the last phase. With webs, probes
and jamming (modules adv-webs, adv-probes, adv-comms) its Tholians constrict a captive, weave a
permanent web when two or more can, else wrap an adjacent enemy; its other ships break webs on
friends with counter tractors, jam the nearest Tholian (or, while hiding under cloaks, the
enemy's probe links), send a probe a phase toward where an unseen enemy was last seen, and shoot
enemy probes with beams that have no ship to fire at.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kolrami.captains.base import BattleView
from kolrami.catalog.advanced import FACINGS
from kolrami.catalog.advanced import AdvancedSheet
from kolrami.catalog.advanced import AdvWeapon
from kolrami.catalog.models import Arc
from kolrami.engine.chance import Dice
from kolrami.engine.geometry import _COS
from kolrami.engine.geometry import _SIN
from kolrami.engine.geometry import HEADINGS
from kolrami.rules.advanced.engines import damage_percent
from kolrami.rules.advanced.engines import max_warp
from kolrami.rules.advanced.field_orders import FIELD_DECISIONS
from kolrami.rules.advanced.field_orders import FieldDecision
from kolrami.rules.advanced.field_orders import FieldOrder
from kolrami.rules.advanced.field_orders import JamDecision
from kolrami.rules.advanced.field_orders import JamOrder
from kolrami.rules.advanced.field_orders import ProbeDecision
from kolrami.rules.advanced.field_orders import ProbeLaunch
from kolrami.rules.advanced.field_orders import ProbeOrder
from kolrami.rules.advanced.field_orders import ProbeShot
from kolrami.rules.advanced.field_orders import WebDecision
from kolrami.rules.advanced.field_orders import WebOrder
from kolrami.rules.advanced.geometry import arc_bits
from kolrami.rules.advanced.geometry import bearing_to
from kolrami.rules.advanced.geometry import bears
from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.geometry import mount_code
from kolrami.rules.advanced.orders import AdvancedDecision
from kolrami.rules.advanced.orders import AdvancedOrder
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
from kolrami.rules.advanced.orders import action_verb
from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.terrain import danger
from kolrami.rules.advanced.terrain import deadly
from kolrami.rules.advanced.terrain import mines_on_path
from kolrami.rules.advanced.terrain.black_hole import disk_depth
from kolrami.rules.advanced.terrain.ion import storm_advance
from kolrami.rules.advanced.view import AdvancedView
from kolrami.rules.advanced.view import Contact
from kolrami.scenarios.models import BlackHole
from kolrami.scenarios.models import IonStorm
from kolrami.scenarios.models import Nebula

ADVANCED_DECISIONS = (
    TacticsDecision,
    BonusDecision,
    LockDecision,
    PowerDecision,
    MoveDecision,
    DecloakDecision,
    AttackDecision,
    EvadeDecision,
    ShieldDecision,
    *FIELD_DECISIONS,
    LayDecision,
)


def _arm_launcher(
    weapons: list[int], i: int, w: AdvWeapon, budget: int, torpedoes: int, stores: int
) -> tuple[int, int]:
    """Arm torpedo launcher `i` (`weapons[i] = 1`) if the power `budget` pays its arming cost
    and the ship's `stores` hold its torpedoes besides the `torpedoes` already loaded: the
    budget and the torpedoes left after it, unchanged when it cannot be armed."""
    if w.arm_cost <= budget and torpedoes + w.torpedoes <= stores:
        weapons[i] = 1
        return budget - w.arm_cost, torpedoes + w.torpedoes
    return budget, torpedoes


#: What ending a move where an ion storm's front will be by the end of next turn costs a whole
#: ship (three times as much for a wreck).
STORM_AHEAD_COST = 10.0
STORM_DEPTH_COST = 3.0  # a hex deeper behind that front
#: Hexes a turn more than an ion storm's speed that a ship in its path buys to outrun it.
STORM_MARGIN_HEXES = 3
#: The doctrine lays a mine only with no enemy within this many hexes (a layer holds its fire).
LAY_CLEARANCE_HEXES = 8


@dataclass(frozen=True, slots=True)
class Temperament:
    """How the doctrine trades range, risk and fire discipline."""

    range_share: float  # the share of its weapons' reach it wants to fight at
    threat: float  # weight of the damage the enemy could deal where it ends a move
    min_needed: int  # the worst to-hit number it fires at before the last phases


AGGRESSIVE = Temperament(range_share=0.3, threat=0.2, min_needed=6)
KITING = Temperament(range_share=0.75, threat=0.8, min_needed=4)


def _dist(a: AdvShip | Contact, b: AdvShip | Contact) -> float:
    return math.hypot(a.ship.x - b.ship.x, a.ship.y - b.ship.y)


def _enemies(view: BattleView) -> list[Contact]:
    return view.advanced().contacts()


def _reach(sheet: AdvancedSheet) -> int:
    return max((w.range_cm for w in sheet.weapons), default=0)


def _firepower(sheet: AdvancedSheet) -> list[tuple[tuple[Arc, ...], float, float]]:
    """A sheet's weapons grouped by arcs and reach (range + 8 cm of closing): half their size."""
    groups: dict[tuple[tuple[Arc, ...], float], float] = {}
    for w in sheet.weapons:
        key = (w.arcs, w.range_cm + 8.0)
        groups[key] = groups.get(key, 0.0) + (w.power if w.beam else w.damage * w.torpedoes) * 0.5
    return [(arcs, reach, size) for (arcs, reach), size in groups.items()]


def _threat(sheet: AdvancedSheet) -> list[tuple[int, float, float]]:
    """`_firepower` with each group's arcs as a `geometry.mount_code`."""
    return [(mount_code(arcs), reach, size) for arcs, reach, size in _firepower(sheet)]


def _armament(a: AdvShip) -> list[tuple[int, int, int, int, float]]:
    """A ship's working weapons for scoring the spots of one move: (index, range, mount code,
    what it could fire now if charged, a share of what it fires later)."""
    out = []
    for i, w in enumerate(a.sheet.weapons):
        if not a.weapon_ok[i]:
            continue
        charged = a.power[i] and not a.fired[i]
        size = (a.power[i] if w.beam else w.damage * w.torpedoes) if charged else 0
        future = (w.power if w.beam else w.damage * w.torpedoes) * 0.3
        out.append((i, w.range_cm, mount_code(w.arcs), size, future))
    return out


def _expected(power: int, needed: int, penalty: int) -> float:
    p = max(0, min(10, needed - penalty)) / 10
    return power * p


def terrain_moves(view: BattleView, a: AdvShip) -> int:
    """Hexes of movement the terrain asks the ship to buy this turn: enough to outrun an ion
    storm whose front reaches it by the end of next turn, and to hold against a black hole's
    drag (its disk depth every phase, docs/rules.md ADV-BH-03)."""
    hex_cm = view.advanced().hex_cm
    x, y = a.ship.x, a.ship.y
    need = 0
    for t in view.scenario.terrain:
        if isinstance(t, IonStorm) and t.covers(
            x, y, storm_advance(t, hex_cm, view.turn + 1, PHASES)
        ):
            need = max(need, math.ceil(t.speed_hexes) + STORM_MARGIN_HEXES)
        elif isinstance(t, BlackHole):
            need = max(need, PHASES * min(t.rings, disk_depth(t, hex_cm, x, y)))
    return need


def terrain_cost(view: BattleView, a: AdvShip, mx: float, my: float, ex: float, ey: float) -> float:
    """What the terrain this side knows of costs a move through (mx, my) to (ex, ey): passing
    anything deadly on the way is as bad as ending there; a battered ship likes a nebula's
    cover (no locks on it there, ADV-NEB-03)."""
    scenario = view.scenario
    if not scenario.terrain:
        return 0.0
    hex_cm = view.advanced().hex_cm
    # a hurt ship weighs what the terrain would take off it more: up to three times when wrecked
    hurt = 1.0 - a.ship.superstructure / max(1, a.ship.cls.superstructure)
    cost = danger(scenario, hex_cm, ex, ey, view.turn) * (1.0 + 2.0 * hurt)
    if deadly(scenario, hex_cm, mx, my):
        cost += 1000.0
    for t in scenario.terrain:  # keep out of where an ion storm's front will be next turn
        if isinstance(t, IonStorm):
            front = storm_advance(t, hex_cm, view.turn + 1, PHASES)
            if t.covers(ex, ey, front):  # and the deeper behind it, the worse
                behind = (front - t.offset(ex, ey)) / hex_cm
                cost += (STORM_AHEAD_COST + STORM_DEPTH_COST * behind) * (1.0 + 2.0 * hurt)
    path = [(a.ship.x, a.ship.y), (mx, my), (ex, ey)]
    cost += 2.0 * mines_on_path(scenario, hex_cm, path)
    if a.ship.superstructure * 2 < a.ship.cls.superstructure and any(
        isinstance(t, Nebula) and t.contains(ex, ey) for t in scenario.terrain
    ):
        cost -= 4.0
    return cost


class AdvancedDoctrine:
    """The built-in captains' way of playing the advanced game."""

    def __init__(self, temperament: Temperament) -> None:
        self.t = temperament
        #: where each enemy was last seen (for the cloaked ones: where to search)
        self.seen: dict[str, tuple[float, float]] = {}
        #: the view of the decision being answered and its contacts (`_contacts`)
        self._now: tuple[BattleView, list[Contact]] | None = None
        #: how each kind of decision is answered
        self._answers: dict[type, Callable[[BattleView, Any], AdvancedOrder | FieldOrder]] = {
            WebDecision: weave,
            ProbeDecision: self.probes,
            JamDecision: jam,
            DecloakDecision: self.decloak,
            TacticsDecision: self.tactics,
            BonusDecision: self.bonus,
            LockDecision: self.locks,
            PowerDecision: self.power,
            MoveDecision: self.move,
            AttackDecision: self.attack,
            EvadeDecision: self.evade,
            LayDecision: self.lay,
            ShieldDecision: self.shields,
        }

    def decide(
        self, view: BattleView, decision: AdvancedDecision | FieldDecision
    ) -> AdvancedOrder | FieldOrder:
        """Answer one advanced decision."""
        enemies = _enemies(view)
        for e in enemies:
            self.seen[e.id] = (e.ship.x, e.ship.y)
        # the contacts stay as they are while one decision is answered (a captain only reads
        # the battle): every answer below reads them through `_contacts`, not the view again
        self._now = (view, enemies)
        try:
            for kind in type(decision).__mro__:
                answer = self._answers.get(kind)
                if answer is not None:
                    return answer(view, decision)
            return self.shields(view, decision)  # type: ignore[arg-type]  # the last phase's
        finally:
            self._now = None

    def _contacts(self, view: BattleView) -> list[Contact]:
        """`_enemies(view)`, read once a decision (`decide`); not to be changed by the caller."""
        now = self._now
        if now is not None and now[0] is view:
            return now[1]
        return _enemies(view)

    # --- module adv-tactics ------------------------------------------------------------------

    def tactics(self, view: BattleView, decision: TacticsDecision) -> TacticsOrder:
        """Board a crippled enemy, tractor a fleeing one, dock to repair and take on crew, break
        free of a beam, and self-destruct rather than be captured."""
        adv = view.advanced()
        t = adv.tactics()
        by_ship: dict[str, list[str]] = {}
        for o in decision.options:
            by_ship.setdefault(action_ship(o), []).append(o)
        out: list[str] = []
        for sid, opts in by_ship.items():
            a = adv.ship(sid)
            verbs = {action_verb(o): o for o in opts}
            party = t.parties.get(sid) if t is not None else None
            held = len(t.held.get(sid, ())) if t is not None else 0
            if party is not None and party.side != a.side and held >= 3:
                blasts = [o for o in opts if action_verb(o) == "destruct"]
                if blasts:  # warp breach first: it takes the most with it
                    out.append(blasts[0])
                    continue
            crystals = t.crystals.get(sid, 0) if t is not None else 0
            if "escape" in verbs and crystals > 1:
                out.append(verbs["escape"])
                continue
            if "crew" in verbs and a.casualties * 10 > a.sheet.crew:
                out.append(verbs["crew"])
                continue
            top = a.ship.cls.superstructure
            if "undock" in verbs and a.ship.superstructure * 10 >= top * 9:
                out.append(verbs["undock"])
                continue
            if "dock" in verbs and a.ship.superstructure * 5 < top * 3:
                out.append(verbs["dock"])
                continue
            boards = [o for o in opts if action_verb(o) == "board" and self._crippled(adv, o)]
            if boards:
                out.append(boards[0])
                continue
            pulls = [o for o in opts if action_verb(o) == "tractor" and self._crippled(adv, o)]
            if pulls:
                out.append(pulls[0])
        return TacticsOrder(tuple(out))

    @staticmethod
    def _crippled(adv: AdvancedView, option: str) -> bool:
        """Whether the option's target is down to half its superstructure or less (a ship that
        will run, and one with few left to defend it)."""
        target = option.partition(">")[2].partition("=")[0]
        if not adv.sees(target):
            return False
        e = adv.contact(target).ship
        return e.superstructure * 2 <= e.cls.superstructure

    # --- probes (module adv-probes) -------------------------------------------------------------

    def probes(self, view: BattleView, decision: ProbeDecision) -> ProbeOrder:
        """Send one probe a phase toward where an unseen enemy was last seen (else toward the
        enemy's edge) when no probe of ours watches there; shoot enemy probes with beams that
        have no enemy ship in reach."""
        adv = view.advanced()
        ours = [p for p in adv.probes() if p.side == decision.side]
        launches: list[ProbeLaunch] = []
        hunted = adv.unseen()
        if hunted and decision.launch:
            spots = [self.seen[i] for i in hunted if i in self.seen]
            sc = view.scenario
            if not spots:
                edge = sc.table_height_cm - 10 if decision.side == "A" else 10.0
                spots = [(sc.table_width_cm / 2, edge)]
            reach = SENSE_CM_FACTOR * adv.hex_cm
            open_spots = [
                p for p in spots if all(math.hypot(q.x - p[0], q.y - p[1]) > reach for q in ours)
            ]
            if open_spots:
                sid, cm = decision.launch[0]
                a = adv.ship(sid)
                gx, gy = min(open_spots, key=lambda p: math.hypot(p[0] - a.ship.x, p[1] - a.ship.y))
                d = math.hypot(gx - a.ship.x, gy - a.ship.y)
                k = min(1.0, (cm - 1) / d) if d > 0 else 0.0
                x = round(a.ship.x + (gx - a.ship.x) * k)
                y = round(a.ship.y + (gy - a.ship.y) * k)
                x = int(min(max(x, 0), sc.table_width_cm))
                y = int(min(max(y, 0), sc.table_height_cm))
                launches.append(ProbeLaunch(sid, x, y))
        shots: list[ProbeShot] = []
        taken: set[str] = set()
        beams: set[tuple[str, int]] = set()
        for sid, weapon, probe in decision.shots:
            if probe in taken or (sid, weapon) in beams:
                continue
            a = adv.ship(sid)
            w = a.sheet.weapons[weapon]
            if any(_dist(a, e) <= w.range_cm for e in self._contacts(view)):
                continue
            shots.append(ProbeShot(sid, weapon, probe))
            taken.add(probe)
            beams.add((sid, weapon))
        return ProbeOrder(tuple(launches), tuple(shots))

    # --- start of turn ----------------------------------------------------------------------------

    def bonus(self, view: BattleView, decision: BonusDecision) -> BonusOrder:
        adv = view.advanced()
        choices: list[tuple[str, str, str]] = []
        for sid in decision.ships:
            a = adv.ship(sid)
            options = adv.bonus_options(sid)
            cap = a.sheet.shield_points
            hull_hurt = a.ship.superstructure < a.ship.cls.superstructure
            for role, opts in options.items():
                pick = self._bonus_pick(a, role, opts, cap, hull_hurt)
                if pick:
                    choices.append((sid, role, pick))
        return BonusOrder(tuple(choices))

    @staticmethod
    def _bonus_pick(
        a: AdvShip, role: str, opts: tuple[str, ...], cap: int, hull_hurt: bool
    ) -> str | None:
        def first(*names: str) -> str | None:
            for n in names:
                if n in opts:
                    return n
            return None

        if role == "science":
            if a.sensor_damage:
                return first("sensors", "shields")
            if sum(a.base) < 6 * cap * 0.9:
                return first("shields")
            return first("hull" if hull_hurt else "shields", "shields")
        if role == "helm":
            return first("aim")
        if role == "comms":
            return first("decode")
        if role == "engineer":
            if a.impulse == 0:
                return first("engines")
            if a.cloaked and "cloak" in opts:
                return "cloak"
            if not all(a.generator_ok) or sum(a.base) < 6 * cap * 0.5:
                return first("shields")
            if not all(a.weapon_ok):
                return first("weapons")
            if not a.engines_undamaged:
                return first("engines")
            if a.sensor_damage:
                return first("sensors")
            if a.last_moves + 2 < a.sheet.max_moves:
                return first("warp", "power", "hull")
            return first("power", "hull")
        if role == "medical":
            if any(o.out for o in a.officers.values()):
                return first("revive", "casualties")
            if a.casualties > a.fatalities:
                return first("casualties")
        return None  # nothing worth the roll

    def locks(self, view: BattleView, decision: LockDecision) -> LockOrder:
        adv = view.advanced()
        out = []
        hidden = [(i, self.seen[i]) for i in adv.unseen() if i in self.seen]
        for sid in decision.ships:
            a = adv.ship(sid)
            allowed = set(adv.lock_targets(sid))
            enemies = [e for e in self._contacts(view) if e.id in allowed]
            if a.lock in allowed and a.lock not in {e.id for e in enemies}:
                out.append((sid, a.lock))  # a lock on a cloaked ship: keep it for the pings
                continue
            near_hidden = (
                min(
                    hidden, key=lambda h: (math.hypot(h[1][0] - a.ship.x, h[1][1] - a.ship.y), h[0])
                )
                if hidden
                else None
            )
            if enemies:
                nearest = min(enemies, key=lambda e: (_dist(a, e), e.id))
                far = _dist(a, nearest)
                if near_hidden is None or far <= _reach(a.sheet) or len(out) % 2 == 0:
                    current = next((e for e in enemies if e.id == a.lock), None)
                    if current is not None and _dist(a, current) <= far * 1.3:
                        out.append((sid, current.id))
                    else:
                        out.append((sid, nearest.id))
                    continue
            if near_hidden is not None and adv.search_problem(sid, 1) is None:
                x, y = near_hidden[1]
                s = a.ship
                out.append((sid, f"?{facing_toward(s.x, s.y, s.heading, x, y)}"))
        return LockOrder(tuple(out))

    def decloak(self, view: BattleView, decision: DecloakDecision) -> DecloakOrder:
        """Drop the cloak for this phase when a shot worth taking is ready (ADV-CLOAK-01)."""
        out = [sid for sid in decision.ships if self._scored(view, sid, decision.phase)]
        return DecloakOrder(tuple(out))

    def power(self, view: BattleView, decision: PowerDecision) -> PowerOrder:
        adv, enemies = view.advanced(), self._contacts(view)
        return PowerOrder(tuple(self._plan(view, adv.ship(sid), enemies) for sid in decision.ships))

    def _wants_cloak(self, view: BattleView, a: AdvShip, enemies: list[Contact]) -> bool:
        """Cloak while the enemy is out of reach for this turn, or unseen: close in hidden."""
        adv = view.advanced()
        if adv.cloak_problem(a.id) is not None or a.sheet.cloak_power > a.available // 2:
            return False
        if not enemies:
            return True
        d = min(_dist(a, e) for e in enemies)
        if d > _reach(a.sheet) + a.sheet.max_moves * adv.hex_cm * 0.6:
            return True
        # in range: fight from under the cloak, dropping it only to fire, when there is power
        # for the cloak and the shields with half the engines still free for the rest
        return a.sheet.cloak_power + a.sheet.shield_cost <= a.available // 2

    def _plan(self, view: BattleView, a: AdvShip, enemies: list[Contact]) -> PowerPlan:
        s = a.sheet
        adv = view.advanced()
        budget = a.available
        cloak = self._wants_cloak(view, a, enemies)
        if cloak:
            budget -= s.cloak_power
        # the charge is due even with every facing at 0 (ADV-SHLD-06); worth it if points
        # stand on the facings or bonuses will put some there
        shields = s.shield_cost <= budget and sum(a.base) + a.shield_bonus + a.bonus_power > 0
        if cloak and enemies and min(_dist(a, e) for e in enemies) > _reach(s) * 1.5:
            shields = False  # held down under the cloak, and no fire to drop it for soon
        if shields:
            budget -= s.shield_cost
        extra = a.bonus_power if any(b < a.facing_cap(f + 1) for f, b in enumerate(a.base)) else 0
        extra = min(extra, budget)
        budget -= extra
        reach = _reach(s)
        want = 0
        spots = [(e.ship.x, e.ship.y) for e in enemies] or [
            self.seen[i] for i in adv.unseen() if i in self.seen
        ]
        if spots and (a.impulse > 0 or adv.module_on("adv-tactics")):
            d = min(math.hypot(x - a.ship.x, y - a.ship.y) for x, y in spots)
            goal = max(adv.hex_cm * 2.0, reach * self.t.range_share)
            want = max(3, math.ceil(max(0.0, d - goal) / adv.hex_cm))
            want = min(want, s.max_moves)
        flee = min(terrain_moves(view, a), s.max_moves) if a.impulse > 0 else 0
        want = max(want, flee)
        if adv.module_on("adv-tactics"):  # never above the safe speed (ADV-WARP-01)
            rated = s.warp_port + s.warp_starboard
            safe = max_warp(s.max_moves, damage_percent(a.warp_port + a.warp_starboard, rated))
            want = min(want, safe)
            if self._dock_goal(view, a) is not None:
                want = max(want, 4)
            t = adv.tactics()
            if t is not None and a.id in t.docked:
                want = 0  # held at the base while it repairs
        limit = adv.speed_limit(a.id)
        if limit is not None:
            want = min(want, limit)
        first_moves = min(want, max(4, flee), budget // s.move_cost)
        budget -= first_moves * s.move_cost
        weapons = [0] * len(s.weapons)
        order = sorted(
            range(len(s.weapons)),
            key=lambda i: (s.weapons[i].beam, -(s.weapons[i].power or s.weapons[i].damage)),
        )
        torpedoes = 0
        for i in order:
            w = s.weapons[i]
            if not a.weapon_ok[i]:
                continue
            if w.beam:
                give = min(w.power, budget)
                if give < max(1, w.min_power):
                    continue
                weapons[i] = give
                budget -= give
            else:
                budget, torpedoes = _arm_launcher(weapons, i, w, budget, torpedoes, a.stores)
        self._even_pairs(s, weapons)
        more = min(want - first_moves, budget // s.move_cost)
        moves = first_moves + max(0, more)
        budget -= max(0, more) * s.move_cost
        reinforce = None
        if shields and budget > 0 and enemies:
            reinforce = self._reinforce(view, a, enemies, budget)
        plan = PowerPlan(a.id, moves, shields, tuple(weapons), extra, None, reinforce, cloak)
        if adv.plan_problem(plan) is not None:  # never send an illegal plan: fall back safely
            plan = PowerPlan(a.id, 0, shields, (0,) * len(s.weapons))
            if adv.plan_problem(plan) is not None:
                plan = PowerPlan(a.id, 0, False, (0,) * len(s.weapons))
        return plan

    @staticmethod
    def _even_pairs(s: AdvancedSheet, weapons: list[int]) -> None:
        """Charge disruptors of equal size to the same power so they can pair (ADV-DIS-01);
        heavy disruptors fire only in pairs (ADV-DIS-02)."""
        for i, w in enumerate(s.weapons):
            for j in range(i + 1, len(s.weapons)):
                v = s.weapons[j]
                pairable = w.kind is v.kind and w.kind.value.endswith("disruptor")
                if pairable and w.power == v.power and weapons[i] and weapons[j]:
                    low = min(weapons[i], weapons[j])
                    weapons[i] = weapons[j] = low

    @staticmethod
    def _reinforce(
        view: BattleView, a: AdvShip, enemies: list[Contact], budget: int
    ) -> tuple[int, ...] | None:
        adv = view.advanced()
        nearest = min(enemies, key=lambda e: (_dist(a, e), e.id))
        s = a.ship
        f = facing_toward(s.x, s.y, s.heading, nearest.ship.x, nearest.ship.y)
        room = adv.reinforcement_cap(a.id, f, a.base[f - 1]) - a.reinforcement[f - 1]
        points = min(room, budget * a.sheet.shield_ratio)
        points -= points % a.sheet.shield_ratio  # whole power points only
        if points <= 0:
            return None
        out = [0] * FACINGS
        out[f - 1] = points
        return tuple(out)

    # --- phases -----------------------------------------------------------------------------------

    def move(self, view: BattleView, decision: MoveDecision) -> MoveOrder:
        adv = view.advanced()
        a = adv.ship(decision.ship)
        enemies = self._contacts(view)
        if decision.hexes == 0:
            return MoveOrder(a.id, 0)
        if decision.straight:  # no impulse: straight ahead on warp (ADV-IMP-02)
            return MoveOrder(a.id, decision.hexes)
        dock = self._dock_goal(view, a)
        if dock is not None:
            return self._toward(a, decision, dock, adv.hex_cm)
        if not enemies:
            return self._toward_last_seen(view, a, decision)
        focus = next((e for e in enemies if e.id == a.lock), None) or min(
            enemies, key=lambda e: (_dist(a, e), e.id)
        )
        s = a.ship
        hex_cm = adv.hex_cm
        width, height = view.scenario.table_width_cm, view.scenario.table_height_cm
        obstacles = view.obstacles()
        goal = max(hex_cm * 2.0, _reach(a.sheet) * self.t.range_share)
        crowd = 2 * view.scenario.base_radius_cm + 1
        others = [(o.x, o.y) for o in view.own_ships() if o.id != a.id]
        others += [(e.ship.x, e.ship.y) for e in enemies]
        threats = [(e.ship.x, e.ship.y, e.ship.heading, _threat(e.sheet)) for e in enemies]
        mine = _armament(a)
        fx, fy = focus.ship.x, focus.ship.y
        best = -math.inf
        chosen: tuple[int, int, int] | None = None
        count = 0
        for hexes in sorted({decision.hexes, max(0, decision.hexes - 1)}):
            turns = (
                ((0, 0),) if hexes == 0 else [(t1, t2) for t1 in (-1, 0, 1) for t2 in (-1, 0, 1)]
            )
            for t1, t2 in turns:
                count += 1
                cm = hexes * hex_cm
                h1 = (s.heading + t1) % HEADINGS
                mx, my = s.x + _COS[h1] * cm / 2, s.y + _SIN[h1] * cm / 2
                h2 = (h1 + t2) % HEADINGS
                ex, ey = mx + _COS[h2] * cm / 2, my + _SIN[h2] * cm / 2
                score = self._score_spot(adv, a, mine, fx, fy, threats, ex, ey, h2, goal)
                score -= terrain_cost(view, a, mx, my, ex, ey)
                margin = min(ex, ey, width - ex, height - ey)
                if margin < 10:
                    score -= (10 - margin) * 0.5
                for cx, cy, cr in obstacles:
                    if math.hypot(ex - cx, ey - cy) < cr + 1:
                        score -= 100.0
                for ox, oy in others:  # ending on another base only stops the ship short
                    if abs(ex - ox) < crowd and abs(ey - oy) < crowd:
                        score -= 3.0
                if chosen is None or score > best:  # the first of equal scores
                    best, chosen = score, (hexes, t1, t2)
        view.count_candidates(count)
        assert chosen is not None
        return MoveOrder(a.id, *chosen)

    @staticmethod
    def _dock_goal(view: BattleView, a: AdvShip) -> tuple[float, float] | None:
        """Where a battered ship goes to dock: its side's nearest base, with module adv-tactics
        (ADV-BASE-01); None when it should fight on."""
        adv = view.advanced()
        t = adv.tactics()
        if t is None or a.ship.cls.stationary or a.id in t.docked:
            return None
        if a.ship.superstructure * 5 >= a.ship.cls.superstructure * 3:
            return None
        bases = [b for b in adv.own() if b.ship.cls.stationary]
        if not bases:
            return None
        b = min(bases, key=lambda b: (_dist(a, b), b.id))
        return (b.ship.x, b.ship.y)

    @staticmethod
    def _toward(
        a: AdvShip, decision: MoveDecision, spot: tuple[float, float], hex_cm: float
    ) -> MoveOrder:
        """The move that ends nearest `spot` (short of it: no need to overshoot)."""
        best: tuple[float, MoveOrder] | None = None
        s = a.ship
        for hexes in range(decision.hexes + 1):
            for t1 in (-1, 0, 1):
                for t2 in (-1, 0, 1):
                    if hexes == 0 and (t1 or t2):
                        continue
                    h1 = (s.heading + t1) % HEADINGS
                    cm = hexes * hex_cm
                    mx, my = s.x + _COS[h1] * cm / 2, s.y + _SIN[h1] * cm / 2
                    h2 = (h1 + t2) % HEADINGS
                    ex, ey = mx + _COS[h2] * cm / 2, my + _SIN[h2] * cm / 2
                    d = math.hypot(ex - spot[0], ey - spot[1])
                    order = MoveOrder(a.id, hexes, t1, t2)
                    if best is None or d < best[0] - 1e-9:
                        best = (d, order)
        assert best is not None
        return best[1]

    def _toward_last_seen(self, view: BattleView, a: AdvShip, decision: MoveDecision) -> MoveOrder:
        """With no enemy in sight, head for where the nearest cloaked one was last seen."""
        adv = view.advanced()
        spots = [self.seen[i] for i in adv.unseen() if i in self.seen]
        s = a.ship
        if not spots:
            return MoveOrder(a.id, decision.hexes)
        gx, gy = min(spots, key=lambda p: (math.hypot(p[0] - s.x, p[1] - s.y), p))
        width, height = view.scenario.table_width_cm, view.scenario.table_height_cm
        best: tuple[float, MoveOrder] | None = None
        cm = decision.hexes * adv.hex_cm
        for t1 in (-1, 0, 1):
            for t2 in (-1, 0, 1):
                h1 = (s.heading + t1) % HEADINGS
                mx, my = s.x + _COS[h1] * cm / 2, s.y + _SIN[h1] * cm / 2
                h2 = (h1 + t2) % HEADINGS
                ex, ey = mx + _COS[h2] * cm / 2, my + _SIN[h2] * cm / 2
                score = -math.hypot(gx - ex, gy - ey) - terrain_cost(view, a, mx, my, ex, ey)
                margin = min(ex, ey, width - ex, height - ey)
                if margin < 10:
                    score -= (10 - margin) * 0.5
                if best is None or score > best[0]:
                    best = (score, MoveOrder(a.id, decision.hexes, t1, t2))
        assert best is not None
        return best[1]

    def _score_spot(
        self,
        adv: AdvancedView,
        a: AdvShip,
        mine: list[tuple[int, int, int, int, float]],
        fx: float,
        fy: float,
        threats: list[tuple[float, float, int, list[tuple[int, float, float]]]],
        x: float,
        y: float,
        heading: int,
        goal: float,
    ) -> float:
        """The value of ending a move at (x, y): what our weapons can expect on the focus target
        at (fx, fy) (charged ones now, all of them later), less what the enemy could fire back.
        `mine` is `_armament(a)` and each threat's groups `_threat` of its sheet: what does
        not change from spot to spot, worked out once a move."""
        d = math.hypot(fx - x, fy - y)
        bits = arc_bits(bearing_to(x, y, heading, fx, fy))
        penalty = a.penalty
        dealt = 0.0
        for i, reach, mount, size, future in mine:
            if d > reach or not bears(mount, bits):
                continue
            n = adv.to_hit(a.id, i, d) - penalty  # _expected(size, to_hit, penalty), written out
            if n > 10:
                n = 10
            elif n < 0:
                n = 0
            dealt += size * (n / 10) + future
        threat = 0.0
        for ex, ey, eh, groups in threats:
            ed = math.hypot(ex - x, ey - y)
            back = arc_bits(bearing_to(ex, ey, eh, x, y))
            for gmount, greach, part in groups:
                if ed <= greach and bears(gmount, back):
                    threat += part
        return dealt - self.t.threat * threat * 0.3 - 0.15 * abs(d - goal)

    def _scored(
        self, view: BattleView, sid: str, phase: int
    ) -> list[tuple[float, tuple[int, ...], str]]:
        """The attacks worth declaring for one ship now, best first."""
        adv = view.advanced()
        a = adv.ship(sid)
        scored: list[tuple[float, tuple[int, ...], str]] = []
        for weapons, target in adv.legal_attacks(sid):
            e = adv.contact(target)
            d = _dist(a, e)
            needed = min(adv.to_hit(sid, i, d) for i in weapons)
            late = phase >= PHASES - 1
            if needed < self.t.min_needed and not (late and needed > 0):
                continue
            ws = [a.sheet.weapons[i] for i in weapons]
            size = (
                sum(a.power[i] for i in weapons)
                if ws[0].beam
                else sum(w.damage * w.torpedoes for w in ws)
            )
            manual = 1.0 if (a.lock == target and a.sensors_ok) else 0.6
            if e.known is None and target in adv.unseen():
                manual *= 0.5  # a cloaked target: two more checks and its Cloak Tech save
            value = _expected(size, needed, a.penalty) * manual
            if e.ship.superstructure <= size:
                value *= 1.3
            if value > 0:
                scored.append((value, weapons, target))
        scored.sort(key=lambda v: (-v[0], v[2], v[1]))
        return scored

    def _dispersal(self, view: BattleView, a: AdvShip, used: set[int]) -> Attack | None:
        """In the last phase, an unused armed launcher hunts the nearest cloaked enemy where it
        was last seen (ADV-CLOAK-07)."""
        adv = view.advanced()
        spots = sorted(
            (math.hypot(x - a.ship.x, y - a.ship.y), i, (round(x), round(y)))
            for i, (x, y) in self.seen.items()
            if i in adv.unseen()
        )
        for _, _, (x, y) in spots:
            for i, w in enumerate(a.sheet.weapons):
                if w.beam or i in used or x < 0 or y < 0:
                    continue
                if adv.point_problem(a.id, i, x, y) is None:
                    return Attack(a.id, (i,), f"H{x}.{y}")
        return None

    def lay(self, view: BattleView, decision: LayDecision) -> LayOrder:
        """Lay a mine with every ship that may, unless an enemy is close enough to shoot at:
        a layer holds its fire (ADV-MINE-02)."""
        layers = []
        for sid in decision.ships:
            a = view.advanced().ship(sid)
            near = min(
                (
                    math.hypot(e.ship.x - a.ship.x, e.ship.y - a.ship.y)
                    for e in self._contacts(view)
                ),
                default=math.inf,
            )
            if near > LAY_CLEARANCE_HEXES * view.advanced().hex_cm:
                layers.append(sid)
        return LayOrder(tuple(layers))

    def attack(self, view: BattleView, decision: AttackDecision) -> AttackOrder:
        adv = view.advanced()
        attacks: list[Attack] = []
        for sid in decision.ships:
            a = adv.ship(sid)
            scored = self._scored(view, sid, decision.phase)
            used: set[int] = set()
            engaged: list[str] = []
            bonus = a.aim_bonus
            for value, weapons, target in scored:
                if value <= 0 or target in engaged or used & set(weapons):
                    continue
                if len(engaged) >= adv.targets_allowed(sid):
                    break
                e = adv.contact(target)
                aim = self._aim(view, e)
                use_bonus = bonus > 0 and adv.to_hit(sid, weapons[0], _dist(a, e)) <= 6
                if use_bonus:
                    bonus -= 1
                attacks.append(Attack(sid, weapons, target, aim, use_bonus))
                used |= set(weapons)
                engaged.append(target)
            if decision.phase == PHASES and len(engaged) < adv.targets_allowed(sid):
                hunt = self._dispersal(view, a, used)
                if hunt is not None:
                    attacks.append(hunt)
        return AttackOrder(tuple(attacks))

    @staticmethod
    def _aim(view: BattleView, e: Contact) -> str:
        """The enemy's strongest weapon (as far as it is known), else its impulse engine."""
        known = e.known
        best: tuple[int, int] | None = None
        for i, w in enumerate(e.sheet.weapons):
            if known is not None and not known.weapon_ok[i]:
                continue
            size = w.power if w.beam else w.damage * w.torpedoes
            if best is None or size > best[0]:
                best = (size, i)
        return f"w{best[1]}" if best else "impulse"

    def evade(self, view: BattleView, decision: EvadeDecision) -> EvadeOrder:
        adv = view.advanced()
        out = []
        for sid in decision.ships:
            a = adv.ship(sid)
            incoming = 0.0
            attacker = None
            for attack in adv.attacks_at(sid):
                if not adv.sees(attack.ship):
                    continue  # fire out of a gas giant's atmosphere: the firer stays unseen
                firer = adv.contact(attack.ship)
                ws = [firer.sheet.weapons[i] for i in attack.weapons]
                if ws[0].beam:
                    continue
                d = _dist(a, firer)
                needed = min(adv.to_hit(firer.id, i, d) for i in attack.weapons)
                incoming += _expected(sum(w.damage * w.torpedoes for w in ws), needed, 0)
                attacker = firer
            own = sum(
                a.power[i]
                for attack in adv.declared()
                if attack.ship == sid
                for i in attack.weapons
            )
            if attacker is None or incoming < 8 or a.ship.superstructure <= 2 or own > incoming:
                continue
            s = a.ship
            best = max(
                (-1, 1),
                key=lambda t: a.base[
                    facing_toward(s.x, s.y, (s.heading + t) % 6, attacker.ship.x, attacker.ship.y)
                    - 1
                ],
            )
            out.append((sid, best))
        return EvadeOrder(tuple(out))

    def shields(self, view: BattleView, decision: ShieldDecision) -> ShieldOrder:
        adv = view.advanced()
        enemies = self._contacts(view)
        plans = []
        for sid in decision.ships:
            a = adv.ship(sid)
            s = a.ship
            near = [e for e in enemies if _dist(a, e) <= 40]
            exposed = {facing_toward(s.x, s.y, s.heading, e.ship.x, e.ship.y) for e in near}
            if not exposed:
                continue
            new = list(a.base)
            changed = False
            for f in sorted(exposed, key=lambda n: (new[n - 1], n)):
                cap = a.facing_cap(f)
                donors = [d for d in range(1, FACINGS + 1) if d not in exposed and new[d - 1] > 0]
                while new[f - 1] < cap and donors:
                    donor = max(donors, key=lambda n: (new[n - 1], -n))
                    take = min(cap - new[f - 1], max(1, new[donor - 1] // 2))
                    new[donor - 1] -= take
                    new[f - 1] += take
                    changed = True
                    donors = [d for d in donors if new[d - 1] > new[f - 1] // 2]
            if changed and sum(abs(x - y) for x, y in zip(new, a.base, strict=True)) >= 4:
                plans.append((sid, tuple(new)))
        return ShieldOrder(tuple(plans))


class RandomAdvanced:
    """Legal advanced orders chosen at random: the fuzzer."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def _pick(self, n: int) -> int:
        return self.dice.d(n) - 1

    def decide(
        self, view: BattleView, decision: AdvancedDecision | FieldDecision
    ) -> AdvancedOrder | FieldOrder:
        """Answer one advanced decision at random (but legally)."""
        adv = view.advanced()
        d = self.dice
        if isinstance(decision, WebDecision | ProbeDecision | JamDecision):
            return self._field(view, decision)
        if isinstance(decision, BonusDecision):
            bonus: list[tuple[str, str, str]] = []
            for sid in decision.ships:
                for role, opts in adv.bonus_options(sid).items():
                    if opts and d.d(4) > 1:
                        bonus.append((sid, role, opts[self._pick(len(opts))]))
            return BonusOrder(tuple(bonus))
        if isinstance(decision, LockDecision):
            locks = []
            for sid in decision.ships:
                if d.d(5) == 1:
                    continue
                targets = adv.lock_targets(sid)
                searchable = adv.unseen() and adv.search_problem(sid, 1) is None
                if searchable and (not targets or d.d(3) == 1):
                    locks.append((sid, f"?{d.d(6)}"))  # search a facing for a cloaked ship
                elif targets:
                    locks.append((sid, targets[self._pick(len(targets))]))
            return LockOrder(tuple(locks))
        if isinstance(decision, DecloakDecision):
            return DecloakOrder(tuple(sid for sid in decision.ships if d.d(2) == 1))
        if isinstance(decision, TacticsDecision):
            return self._tactics(decision)
        if isinstance(decision, PowerDecision):
            return PowerOrder(tuple(self._plan(view, sid) for sid in decision.ships))
        if isinstance(decision, MoveDecision):
            hexes = self._pick(decision.hexes + 1)
            if hexes == 0 or decision.straight:
                return MoveOrder(decision.ship, hexes)
            home = [b for b in adv.own() if b.ship.cls.stationary]
            if home and adv.tactics() is not None and d.d(3) == 1:  # now and then to a dock
                a = adv.ship(decision.ship)
                spot = (home[0].ship.x, home[0].ship.y)
                return AdvancedDoctrine._toward(a, decision, spot, adv.hex_cm)
            return MoveOrder(decision.ship, hexes, d.d(3) - 2, d.d(3) - 2)
        if isinstance(decision, AttackDecision):
            return self._attacks(view, decision)
        if isinstance(decision, LayDecision):
            return LayOrder(tuple(sid for sid in decision.ships if d.d(2) == 1))
        if isinstance(decision, EvadeDecision):
            return EvadeOrder(
                tuple((sid, 1 if d.d(2) == 1 else -1) for sid in decision.ships if d.d(3) == 1)
            )
        plans = []
        for sid in decision.ships:
            a = adv.ship(sid)
            if d.d(4) > 1:
                continue
            new = list(a.base)
            src, dst = self._pick(FACINGS), self._pick(FACINGS)
            move = min(new[src], self._pick(6), a.facing_cap(dst + 1) - new[dst])
            if move > 0 and src != dst:
                new[src] -= move
                new[dst] += move
                plans.append((sid, tuple(new)))
        return ShieldOrder(tuple(plans))

    #: one chance in this many, a phase, that a ship the fuzzer plays self-destructs
    DESTRUCT_ODDS = 60

    def _tactics(self, decision: TacticsDecision) -> TacticsOrder:
        """At random, one of each ship's listed options now and then (self-destruct rarely)."""
        d = self.dice
        by_ship: dict[str, list[str]] = {}
        for o in decision.options:
            by_ship.setdefault(action_ship(o), []).append(o)
        out: list[str] = []
        for opts in by_ship.values():
            if d.d(self.DESTRUCT_ODDS) == 1:
                blasts = [o for o in opts if action_verb(o) == "destruct"]
                if blasts:
                    out.append(blasts[self._pick(len(blasts))])
                    continue
            kinds: dict[str, list[str]] = {}
            for o in opts:
                if action_verb(o) != "destruct":
                    kinds.setdefault(action_verb(o), []).append(o)
            if kinds and d.d(2) == 1:  # a kind of action first, so rare ones come up too
                pick = list(kinds.values())[self._pick(len(kinds))]
                out.append(pick[self._pick(len(pick))])
        return TacticsOrder(tuple(out))

    def _field(
        self, view: BattleView, decision: WebDecision | ProbeDecision | JamDecision
    ) -> FieldOrder:
        """Webs, probes and jamming at random, within the decision's options."""
        d = self.dice
        if isinstance(decision, JamDecision):
            jams: dict[str, str] = {}
            for ship, target in decision.options:
                if ship not in jams and d.d(3) == 1:
                    jams[ship] = target
            return JamOrder(tuple(jams.items()))
        if isinstance(decision, WebDecision):
            # a random option; weaving and constricting take every Tholian that can join in
            chosen: dict[str, tuple[str, str, str]] = {}
            options = list(decision.options)
            while options and d.d(4) > 1:
                ship, action, target = options[self._pick(len(options))]
                group = [(ship, action, target)]
                if action in ("P", "K"):
                    group = [o for o in options if o[1:] == (action, target)]
                for o in group:
                    chosen.setdefault(o[0], o)
                options = [o for o in options if o[0] not in chosen]
            return WebOrder(legal_web(list(chosen.values())))
        adv = view.advanced()
        sc = view.scenario
        launches = []
        for sid, cm in decision.launch:
            if d.d(3) != 1:
                continue
            a = adv.ship(sid)
            for _ in range(4):
                x = round(a.ship.x) + d.d(2 * cm + 1) - cm - 1
                y = round(a.ship.y) + d.d(2 * cm + 1) - cm - 1
                inside = 0 <= x <= sc.table_width_cm and 0 <= y <= sc.table_height_cm
                if inside and math.hypot(x - a.ship.x, y - a.ship.y) <= cm:
                    launches.append(ProbeLaunch(sid, x, y))
                    break
        beams: set[tuple[str, int]] = set()
        shots = []
        for sid, weapon, probe in decision.shots:
            if (sid, weapon) not in beams and d.d(2) == 1:
                beams.add((sid, weapon))
                shots.append(ProbeShot(sid, weapon, probe))
        return ProbeOrder(tuple(launches), tuple(shots))

    def _plan(self, view: BattleView, sid: str) -> PowerPlan:
        adv = view.advanced()
        a = adv.ship(sid)
        s = a.sheet
        d = self.dice
        budget = a.available
        cloak = adv.cloak_problem(sid) is None and d.d(3) == 1 and s.cloak_power <= budget
        if cloak:
            budget -= s.cloak_power
        shields = d.d(10) > 2 and s.shield_cost <= budget
        if shields:
            budget -= s.shield_cost
        moves = 0
        if a.impulse > 0 or adv.module_on("adv-tactics"):
            moves = min(self._pick(adv.max_moves(sid) + 1), budget // s.move_cost)
            limit = adv.speed_limit(sid)
            moves = moves if limit is None else min(moves, limit)
            budget -= moves * s.move_cost
        weapons = [0] * len(s.weapons)
        torpedoes = 0
        for i, w in enumerate(s.weapons):
            if not a.weapon_ok[i] or d.d(3) == 1:
                continue
            if w.beam:
                give = min(
                    budget, max(w.min_power, 1) + self._pick(w.power - max(w.min_power, 1) + 1)
                )
                if give >= max(w.min_power, 1):
                    weapons[i] = give
                    budget -= give
            else:
                budget, torpedoes = _arm_launcher(weapons, i, w, budget, torpedoes, a.stores)
        plan = PowerPlan(sid, moves, shields, tuple(weapons), cloak=cloak)
        if adv.plan_problem(plan) is not None:
            plan = PowerPlan(sid, 0, False, (0,) * len(s.weapons))
        return plan

    def _attacks(self, view: BattleView, decision: AttackDecision) -> AttackOrder:
        adv = view.advanced()
        d = self.dice
        out: list[Attack] = []
        for sid in decision.ships:
            a = adv.ship(sid)
            options = adv.legal_attacks(sid)
            used: set[int] = set()
            engaged: list[str] = []
            bonus = a.aim_bonus
            while options and d.d(3) > 1:
                weapons, target = options.pop(self._pick(len(options)))
                if used & set(weapons) or target in engaged:
                    continue
                if len(engaged) >= adv.targets_allowed(sid):
                    break
                aim = None
                if d.d(3) == 1:
                    aim = ("impulse", "warp_port", "warp_starboard", "w0")[self._pick(4)]
                use = bonus > 0 and d.d(2) == 1
                bonus -= use
                out.append(Attack(sid, weapons, target, aim, use))
                used |= set(weapons)
                engaged.append(target)
            if adv.unseen() and len(engaged) < adv.targets_allowed(sid) and d.d(4) == 1:
                # a dispersal torpedo at a random point near the ship (ADV-CLOAK-07)
                x = round(a.ship.x) + d.d(41) - 21
                y = round(a.ship.y) + d.d(41) - 21
                for i in range(len(a.sheet.weapons)):
                    if i not in used and x >= 0 and y >= 0 and not adv.point_problem(sid, i, x, y):
                        out.append(Attack(sid, (i,), f"H{x}.{y}"))
                        break
        return AttackOrder(tuple(out))


#: How near (in hexes) one of our probes must be to a spot for it to count as watched.
SENSE_CM_FACTOR = 6


def legal_web(actions: list[tuple[str, str, str]]) -> tuple[tuple[str, str, str], ...]:
    """Drop the actions a web order may not hold together: a second temporary web on one
    target, a weave of a target webbed this phase, a constriction by one Tholian alone."""
    out: list[tuple[str, str, str]] = []
    temporary: set[str] = set()
    for ship, action, target in actions:
        if action == "T":
            if target in temporary:
                continue
            temporary.add(target)
        out.append((ship, action, target))
    kept = []
    for ship, action, target in out:
        if action == "P" and target in temporary:
            continue
        if action == "K" and sum(1 for _, a, t in out if (a, t) == ("K", target)) < 2:
            continue
        kept.append((ship, action, target))
    return tuple(kept)


def weave(view: BattleView, decision: WebDecision) -> WebOrder:
    """The doctrine's web work: free our captives; constrict a captive with every Tholian that
    can; weave a permanent web when two or more Tholians can; else wrap an adjacent enemy in a
    temporary web. Towing is left to the random captain (it wins no battle on this table)."""
    by_ship: dict[str, list[tuple[str, str]]] = {}
    for ship, action, target in decision.options:
        by_ship.setdefault(ship, []).append((action, target))
    chosen: dict[str, tuple[str, str, str]] = {}
    for rank in ("F", "K", "P", "T"):
        counts: dict[str, int] = {}
        for ship, options in by_ship.items():
            for action, target in options:
                if action == rank and ship not in chosen:
                    counts[target] = counts.get(target, 0) + 1
        if not counts:
            continue
        target = max(counts, key=lambda t: (counts[t], t))
        for ship, options in by_ship.items():
            if ship not in chosen and (rank, target) in options:
                chosen[ship] = (ship, rank, target)
                if rank == "T":
                    break
    return WebOrder(legal_web(list(chosen.values())))


def jam(view: BattleView, decision: JamDecision) -> JamOrder:
    """The doctrine's jamming: keep what already jams; cut enemy probes' links while our ships
    hide under cloaks; else jam the nearest enemy Tholian (a jammed Tholian cannot weave)."""
    adv = view.advanced()
    held = adv.jamming()
    taken = set(held.values())
    hiding = any(a.hidden for a in adv.own())
    enemy_tholians = {c.id for c in adv.contacts() if c.sheet.species == "tholian"}
    jams: list[tuple[str, str]] = []
    for ship in dict.fromkeys(s for s, _ in decision.options):
        if ship in held:
            continue
        options = [t for s, t in decision.options if s == ship and t != "-" and t not in taken]
        probes = [t for t in options if t.startswith("p")]
        pick = probes[0] if probes and hiding else None
        if pick is None:
            tholians = [t for t in options if t in enemy_tholians]
            if tholians:
                a = adv.ship(ship)
                pick = min(tholians, key=lambda t: (_dist(a, adv.contact(t)), t))
        if pick is not None:
            jams.append((ship, pick))
            taken.add(pick)
    return JamOrder(tuple(jams))
