"""Tractors, transporters, boarding, bases, engines and self-destruct in play (module
`adv-tactics`).

The rule functions live with their groups (tractor.py: ADV-TRAC; boarding.py: ADV-TRANS,
ADV-BRD; bases.py: ADV-BASE, ADV-SB; engines.py: ADV-IMP, ADV-WARP, ADV-NAC, ADV-SD); this module
puts them in the advanced turn. After each phase's movement every side is asked a
`TacticsDecision` listing each ship's legal options, answered with a `TacticsOrder`:

  A1:tractor>B2=half|full   lock a tractor beam (ADV-TRAC-01, ADV-TRAC-02); the held ship is then
                            towed at its offset after every movement (it may still turn,
                            ADV-TRAC-03), the holder checks its crystals every turn (ADV-TRAC-08)
  A1:release                let the beam go
  B2:escape                 the held ship burns impulse to break free (ADV-TRAC-04, ADV-TRAC-05,
                            ADV-TRAC-06); a holder out of crystals breaches (ADV-TRAC-07)
  A1:board>B2               beam up to 20 boarders across (ADV-TRANS-01, ADV-TRANS-02,
                            ADV-TRANS-03, ADV-TRANS-04, ADV-BRD-01); they fight a section a phase
                            (ADV-BRD-04, ADV-BRD-05) until the ship is captured (ADV-BRD-06) or,
                            on a base, for its command centre (ADV-BRD-09); never Tholians
                            (ADV-BRD-07) but a Tholian base's slaves (ADV-BRD-08); the Borg's
                            first three drones scout and are lost (ADV-BRD-03); every section
                            held does what the table says (ADV-BRD-05)
  A1:dock>A4                dock with a friendly base through its lowered facing (ADV-BASE-01,
                            ADV-BASE-04); docked it is repaired each phase (ADV-BASE-02,
                            ADV-BASE-06) behind the base's shields (ADV-BASE-05) and still fights
                            (ADV-BASE-03)
  A1:undock                 leave the base
  A1:crew                   swap casualties and shaken officers for station crew (ADV-BASE-07)
  A1:destruct=warp-breach|impulse-overload|scuttle   self-destruct (ADV-SD-01, ADV-SD-02,
                            ADV-SD-03)

The module also lets a ship warp straight ahead with no impulse (ADV-IMP-01, ADV-IMP-02), buy
two warp levels of emergency speed over its safe maximum with a Warp Tech saving roll each, its
damage percentage added when its engines are hurt (ADV-WARP-01, ADV-WARP-02, ADV-WARP-03), blows
nacelles off for good (ADV-NAC-01), and lets bases fire at any number of targets (ADV-SB-01).
Every change goes through `battle.record` (kolrami.rules.advanced.tactics_events).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kolrami.engine.battle import other
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import bases
from kolrami.rules.advanced import boarding
from kolrami.rules.advanced import engines
from kolrami.rules.advanced import tactics_events as te
from kolrami.rules.advanced import tractor
from kolrami.rules.advanced.checks import OFFICER_BASE
from kolrami.rules.advanced.checks import roll_rating
from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.modules import WARP_FACTOR_HEXES
from kolrami.rules.advanced.modules import AdvancedModule
from kolrami.rules.advanced.orders import TacticsDecision
from kolrami.rules.advanced.orders import TacticsOrder
from kolrami.rules.advanced.orders import action_ship
from kolrami.rules.advanced.orders import action_verb
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

TACTICS_CLAUSES = (
    "ADV-TRAC-01",
    "ADV-TRAC-02",
    "ADV-TRAC-03",
    "ADV-TRAC-04",
    "ADV-TRAC-05",
    "ADV-TRAC-06",
    "ADV-TRAC-07",
    "ADV-TRAC-08",
    "ADV-TRANS-01",
    "ADV-TRANS-02",
    "ADV-TRANS-03",
    "ADV-TRANS-04",
    "ADV-BRD-01",
    "ADV-BRD-02",
    "ADV-BRD-03",
    "ADV-BRD-04",
    "ADV-BRD-05",
    "ADV-BRD-06",
    "ADV-BRD-07",
    "ADV-BRD-08",
    "ADV-BRD-09",
    "ADV-BASE-01",
    "ADV-BASE-02",
    "ADV-BASE-03",
    "ADV-BASE-04",
    "ADV-BASE-05",
    "ADV-BASE-06",
    "ADV-BASE-07",
    "ADV-SB-01",
    "ADV-IMP-01",
    "ADV-IMP-02",
    "ADV-WARP-01",
    "ADV-WARP-02",
    "ADV-WARP-03",
    "ADV-NAC-01",
    "ADV-SD-01",
    "ADV-SD-02",
    "ADV-SD-03",
)
#: A ship may send a sixth of its crew fit for duty across in all: its boarding complement
#: (docs/rules.md, ADV-BRD-01).
COMPLEMENT_SHARE = 6
#: Emergency warp: up to two warp levels over the sheet's maximum, each a saving roll
#: (ADV-WARP-03).
EMERGENCY_LEVELS = 2
#: The order boarders go for once inside (ADV-BRD-05, ADV-BRD-06): bridge, impulse, auxiliary
#: bridge, a warp section, then engineering.
OBJECTIVES = ("2", "3", "5", "4", boarding.ENGINEERING)
#: A base's defenders at its command centre: its security is a tenth of its crew (ADV-BRD-09).
BASE_GUARD_SHARE = 10
COMMAND = "command"


def _hexes(state: AdvancedState, a: AdvShip, b: AdvShip) -> float:
    return math.hypot(a.ship.x - b.ship.x, a.ship.y - b.ship.y) / state.hex_cm


def _facing(a: AdvShip, b: AdvShip) -> int:
    """a's facing toward b."""
    return facing_toward(a.ship.x, a.ship.y, a.ship.heading, b.ship.x, b.ship.y)


def _is_base(a: AdvShip) -> bool:
    return a.ship.cls.stationary


def _shield_on(a: AdvShip, facing: int) -> int:
    """Points a facing puts up now (0 with shields down)."""
    if not a.shielded:
        return 0
    base, reinforcement = a.facing(facing)
    return base + reinforcement


def holder_of(t: te.TacticsState, ship_id: str) -> str | None:
    """The ship holding `ship_id` in a tractor beam, if any."""
    for holder, tow in t.beams.items():
        if tow.target == ship_id:
            return holder
    return None


def complement(t: te.TacticsState, a: AdvShip) -> int:
    """Boarders `a` may still send across (ADV-BRD-01: at most 20 of them a phase)."""
    fit = a.sheet.crew - a.casualties
    return max(0, min(boarding.BOARDERS_A_PHASE, fit // COMPLEMENT_SHARE - t.sent.get(a.id, 0)))


def _free_power(a: AdvShip) -> int:
    return a.available - a.cost


# --- what each ship may do -----------------------------------------------------------------------


def beam_of(state: AdvancedState, t: te.TacticsState, a: AdvShip, e: AdvShip) -> boarding.Beam:
    """The beam-across from `a` to `e` as the boarding rules see it."""
    return boarding.Beam(
        a.id,
        e.id,
        _hexes(state, a, e),
        a.sensors_ok,
        _shield_on(a, _facing(a, e)),
        True,  # the ship lowers its own facing for the phase (ADV-TRANS-01)
        a.id in t.barred,
        complement(t, a),
        a.species.id,
        e.species.id,
        _is_base(e),
    )


def board_problem(state: AdvancedState, t: te.TacticsState, a: AdvShip, e: AdvShip) -> str | None:
    """Why `a` may not send boarders onto `e` now, or None."""
    if e.side == a.side or not e.alive or e.id in t.captured:
        return f"{e.id} is no enemy in play"
    problem = boarding.beam_problem(beam_of(state, t, a, e))
    if problem is not None:
        return problem
    if _shield_on(e, _facing(e, a)) > 0:
        return (
            f"{e.id}'s shield toward {a.id} is up; boarders beam through a facing that is down "
            "(ADV-TRANS-01)"
        )
    party = t.parties.get(e.id)
    if party is not None and party.side != a.side:
        return f"{e.id} already has the other side's boarders aboard"
    return None


def tractor_options(state: AdvancedState, t: te.TacticsState, a: AdvShip) -> list[str]:
    """The tractor beams `a` may lock now (ADV-TRAC-01, ADV-TRAC-02)."""
    if a.id in t.beams or t.crystals.get(a.id, 0) <= 0 or a.id in t.docked:
        return []
    out = []
    for e in state.side(other(a.side)):
        if holder_of(t, e.id) is not None or e.id in t.captured or _is_base(e):
            continue
        if state.rules.hidden(state, a.side, e) or not state.rules.visible(state, a.side, e):
            continue
        level = tractor.level_needed(a.sheet.mass_t, e.sheet.mass_t)
        if level is None:
            continue
        problem = tractor.tractor_problem(
            _hexes(state, a, e),
            a.sheet.mass_t,
            e.sheet.mass_t,
            level,
            _free_power(a),
            a.sheet.total_power,
        )
        if problem is None:
            out.append(f"{a.id}:tractor>{e.id}={level.value}")
    return out


def dock_options(state: AdvancedState, t: te.TacticsState, a: AdvShip) -> list[str]:
    """The bases `a` may dock with now (ADV-BASE-01, ADV-BASE-06)."""
    if _is_base(a) or holder_of(t, a.id) is not None:
        return []
    out = []
    for b in state.side(a.side):
        if b is a or not _is_base(b):
            continue
        here = sum(1 for base in t.docked.values() if base == b.id)
        problem = bases.dock_problem(
            _hexes(state, a, b),
            True,
            True,
            here,
            bases.capacity(b.ship.cls.superstructure),
            a.id in t.docked,
        )
        if problem is None:
            out.append(f"{a.id}:dock>{b.id}")
    return out


def destruct_options(a: AdvShip) -> list[str]:
    """The ways `a` may self-destruct now (ADV-SD-01, ADV-SD-02, ADV-SD-03)."""
    warp = a.warp_port + a.warp_starboard
    return [
        f"{a.id}:destruct={kind.value}"
        for kind in engines.Destruct
        if engines.can_destruct(kind, warp, a.impulse)
    ]


def options(state: AdvancedState, t: te.TacticsState, a: AdvShip) -> list[str]:
    """Every tactical action `a` may take after this phase's movement."""
    if not a.alive or a.id in t.captured or a.id in t.seized:  # seized: ADV-BRD-05
        return []
    out = tractor_options(state, t, a)
    if a.id in t.beams:
        out.append(f"{a.id}:release")
    holder = holder_of(t, a.id)
    if holder is not None and tractor.escape_problem(a.impulse) is None:
        out.append(f"{a.id}:escape")
    for e in state.side(other(a.side)):
        if not state.rules.visible(state, a.side, e) or _hexes(state, a, e) > 2.5:
            continue
        if board_problem(state, t, a, e) is None:
            out.append(f"{a.id}:board>{e.id}")
    out += dock_options(state, t, a)
    base_id = t.docked.get(a.id)
    if base_id is not None:
        out.append(f"{a.id}:undock")
        base = state.of(base_id)
        shaken = any(not o.on_duty for o in a.officers.values())
        fit = base.sheet.crew - base.casualties
        if (a.casualties > a.fatalities or shaken) and fit > 0:
            out.append(f"{a.id}:crew")
    out += destruct_options(a)
    return out


# --- effects -------------------------------------------------------------------------------------


def _destroy_if_gone(battle: Battle, a: AdvShip, by: AdvShip | None) -> None:
    if a.ship.superstructure <= 0 and a.ship.alive:
        rules_of(battle).destroyed(battle, a.ship, by.ship if by is not None else None)


def explode(
    battle: Battle, state: AdvancedState, a: AdvShip, kind: engines.Destruct, why: str
) -> None:
    """`a` blows up (a self-destruct or a breach), its blast striking every ship near it."""
    warp = a.warp_port + a.warp_starboard
    near = [
        (e, engines.blast_damage(kind, warp, a.impulse, _hexes(state, a, e)))
        for e in state.ships.values()
        if e is not a and e.alive
    ]
    power = warp if kind is engines.Destruct.WARP_BREACH else a.impulse
    blast = 0 if kind is engines.Destruct.SCUTTLE else power
    battle.record(te.SelfDestructed(a.id, f"{kind.value}: {why}", blast, 0))
    _destroy_if_gone(battle, a, None)
    for e, damage in near:
        if damage <= 0 or not e.alive:
            continue
        battle.record(te.BlastDamage(a.id, e.id, damage, max(0, e.ship.superstructure - damage)))
        _destroy_if_gone(battle, e, a)


def breach(battle: Battle, state: AdvancedState, a: AdvShip, why: str) -> None:
    """A warp-core breach (ADV-TRAC-07, ADV-WARP-02): a warp-breach explosion."""
    explode(battle, state, a, engines.Destruct.WARP_BREACH, why)


def lower(battle: Battle, t: te.TacticsState, a: AdvShip, facing: int, why: str) -> None:
    """Lower one facing for the phase (ADV-TRANS-01, ADV-BASE-04)."""
    if (a.id, facing) in t.lowered:
        return
    battle.record(te.FacingSet(a.id, facing, 0, 0, why, True))


def burn(battle: Battle, t: te.TacticsState, a: AdvShip, why: str, lost: int) -> bool:
    """`a` loses `lost` crystals; True when it has none left (its power drops to 0)."""
    left = max(0, t.crystals.get(a.id, 0) - lost)
    out = tractor.exhausted(left)
    warp_port, warp_starboard, impulse = (
        (0, 0, 0) if out else (a.warp_port, a.warp_starboard, a.impulse)
    )
    battle.record(te.CrystalsBurned(a.id, why, left, warp_port, warp_starboard, impulse))
    return out


def tractor_lock(battle: Battle, state: AdvancedState, a: AdvShip, target: str, level: str) -> None:
    """Lock the beam (ADV-TRAC-01, ADV-TRAC-02): its power joins the ship's costs."""
    e = state.of(target)
    price = tractor.cost(tractor.Level(level), a.sheet.total_power)
    dx, dy = e.ship.x - a.ship.x, e.ship.y - a.ship.y
    battle.record(te.TractorEngaged(a.id, e.id, level, dx, dy, a.cost + price))


def escape(battle: Battle, state: AdvancedState, t: te.TacticsState, a: AdvShip) -> None:
    """The held ship strains against the beam (ADV-TRAC-04, ADV-TRAC-06, ADV-TRAC-07)."""
    holder_id = holder_of(t, a.id)
    if holder_id is None:
        return
    h = state.of(holder_id)
    mine = t.crystals.get(a.id, 0)
    theirs = t.crystals.get(h.id, 0)
    got = tractor.try_escape(battle.dice, a.sheet.mass_t, h.sheet.mass_t, mine, theirs)
    if got.escaper_burned and burn(
        battle, t, a, "burns a crystal straining at the beam", got.escaper_burned
    ):
        battle.record(te.TractorReleased(h.id, a.id, "the held ship is burned out"))
        breach(battle, state, a, "its last crystal burned out straining at a beam")
        return
    if got.holder_burned:
        burn(battle, t, h, "burns a crystal holding the beam", got.holder_burned)
    if got.broke:
        why = "heavier, it pulls free" if a.sheet.mass_t > h.sheet.mass_t else "crystals gone"
        battle.record(te.TractorReleased(h.id, a.id, why))
    if got.holder_breach and h.alive:
        breach(battle, state, h, "its last crystal burned out holding a beam")


def beam_across(
    battle: Battle, state: AdvancedState, t: te.TacticsState, a: AdvShip, e: AdvShip
) -> None:
    """Send boarders (ADV-TRANS-01, ADV-TRANS-02, ADV-BRD-01); they arrive in the section facing
    the ship (ADV-BRD-05), or at a base's command centre (ADV-BRD-09)."""
    own = _facing(a, e)
    if _shield_on(a, own) > 0:
        lower(battle, t, a, own, f"transporting to {e.id}")
    people = complement(t, a)
    if a.species.id == boarding.BORG:  # the first three go singly, as scouts (ADV-BRD-03)
        before = t.scouts.get(e.id, 0)
        lost = boarding.scouts_first(people, before)
        if lost:
            sent = t.sent.get(a.id, 0) + lost
            battle.record(te.ScoutsLost(a.id, e.id, lost, before + lost, sent))
            people -= lost
            if people <= 0:
                return
    section = COMMAND if _is_base(e) else str(_facing(e, a))
    party = t.parties.get(e.id)
    aboard = (party.count if party is not None else 0) + people
    sent = t.sent.get(a.id, 0) + people
    battle.record(te.Beamed(a.id, e.id, people, section, aboard, a.species.id, sent))


def dock(
    battle: Battle, state: AdvancedState, t: te.TacticsState, a: AdvShip, base_id: str
) -> None:
    """Dock through the base's facing toward the ship, lowered for this phase (ADV-BASE-01,
    ADV-BASE-04); the ship's shields shut down behind the base's (ADV-BASE-05)."""
    b = state.of(base_id)
    facing = _facing(b, a)
    lower(battle, t, b, facing, f"{a.id} docking")
    t.approach.add((b.id, facing))
    shields = bases.shared_shields(b.base, a.facing_cap)
    battle.record(te.Docked(a.id, b.id, b.ship.x, b.ship.y, shields))


def exchange(battle: Battle, state: AdvancedState, t: te.TacticsState, a: AdvShip) -> None:
    """Fresh station crew for the casualties; shaken officers are replaced (ADV-BASE-07)."""
    b = state.of(t.docked[a.id])
    moved = bases.crew_exchange(a.casualties, a.fatalities, b.sheet.crew - b.casualties)
    new: dict[str, dict[str, int]] = {}
    for role, officer in a.officers.items():
        if not officer.on_duty:
            new[role] = {
                skill: roll_rating(battle.dice, OFFICER_BASE - 5) for skill in officer.ratings
            }
    battle.record(
        te.CrewExchanged(
            a.id, b.id, a.casualties - moved, min(b.sheet.crew, b.casualties + moved), new
        )
    )


def act(battle: Battle, state: AdvancedState, t: te.TacticsState, action: str) -> None:
    """Carry out one verified action."""
    a = state.of(action_ship(action))
    verb = action_verb(action)
    rest = action.partition(":")[2]
    target = rest.partition(">")[2].partition("=")[0]
    arg = rest.partition("=")[2]
    if verb == "tractor":
        tractor_lock(battle, state, a, target, arg)
    elif verb == "release":
        tow = t.beams[a.id]
        battle.record(te.TractorReleased(a.id, tow.target, "released"))
    elif verb == "escape":
        escape(battle, state, t, a)
    elif verb == "board":
        beam_across(battle, state, t, a, state.of(target))
    elif verb == "dock":
        dock(battle, state, t, a, target)
    elif verb == "undock":
        battle.record(te.Undocked(a.id, t.docked[a.id], "cast off"))
    elif verb == "crew":
        exchange(battle, state, t, a)
    elif verb == "destruct":
        explode(battle, state, a, engines.Destruct(arg), "the captain's order")


def verify_tactics(decision: TacticsDecision, order: TacticsOrder) -> None:
    """Each action is one the decision lists, one per ship."""
    seen: set[str] = set()
    for action in order.actions:
        if action not in decision.options:
            ship = action_ship(action)
            mine = [o for o in decision.options if action_ship(o) == ship]
            raise IllegalOrderError(
                f"'{action}' is not open now; {ship}'s options: {', '.join(mine) or 'none'} "
                "(module adv-tactics)"
            )
        ship = action_ship(action)
        if ship in seen:
            raise IllegalOrderError(f"{ship}: one tactical action a phase")
        seen.add(ship)


# --- the steps of the turn -----------------------------------------------------------------------


def tow(battle: Battle, state: AdvancedState, t: te.TacticsState) -> None:
    """After movement the beams hold: each held ship is towed back to its offset from the holder
    (ADV-TRAC-03: its heading is its own); beams whose ends are gone or out of reach end."""
    for holder_id, beam in list(t.beams.items()):
        h, e = state.of(holder_id), state.of(beam.target)
        if not h.alive or not e.alive or e.id in t.captured:
            battle.record(te.TractorReleased(h.id, e.id, "a ship is gone"))
            continue
        x, y = h.ship.x + beam.dx, h.ship.y + beam.dy
        if abs(e.ship.x - x) > 1e-9 or abs(e.ship.y - y) > 1e-9:
            battle.record(te.Towed(e.id, h.id, x, y))
    for ship_id, base_id in list(t.docked.items()):
        a, b = state.of(ship_id), state.of(base_id)
        if not a.alive:
            battle.record(te.Undocked(ship_id, base_id, "destroyed"))
        elif not b.alive or b.id in t.captured:
            battle.record(te.Undocked(ship_id, base_id, "the base is lost"))
        elif a.moved_last:  # held in the base's hex until it casts off (docs/rules.md)
            battle.record(te.Towed(ship_id, base_id, b.ship.x, b.ship.y))


def fight(battle: Battle, state: AdvancedState, t: te.TacticsState) -> None:
    """Every boarding party fights for its section at the end of the phase (ADV-BRD-04,
    ADV-BRD-05, ADV-BRD-06, ADV-BRD-09)."""
    for target_id, party in list(t.parties.items()):
        e = state.of(target_id)
        if not e.alive:
            t.parties.pop(target_id, None)  # boarders die with the ship
            continue
        species = state.pack.species[party.species]
        mine = boarding.strength(species, boarding.Troop.MARINES)
        fit = max(0, e.sheet.crew - e.casualties)
        held = set(t.held.get(target_id, set()))
        if party.section == COMMAND and e.species.id == boarding.THOLIAN:
            # only the slaves resist, at 30% of their strength, with no marines (ADV-BRD-08)
            slaves = state.pack.species[boarding.SLAVE_SPECIES]
            fought = boarding.base_assault(
                party.count, mine, fit, 0, boarding.slave_strength(slaves), 0
            )
            defenders = fit
        elif party.section == COMMAND:
            guards = fit // BASE_GUARD_SHARE
            fought = boarding.base_assault(
                party.count,
                mine,
                fit - guards,
                guards,
                boarding.strength(e.species, boarding.Troop.PERSONNEL),
                max(1, boarding.strength(e.species, boarding.Troop.SECURITY)),
            )
            defenders = fit
        else:
            defenders = fit // len(boarding.SECTION_EFFECTS)
            fought = boarding.assault(
                party.count,
                mine,
                defenders,
                boarding.strength(e.species, boarding.Troop.MARINES),
            )
        if fought.taken:
            held.add(party.section)
        section = party.section
        nxt = (
            COMMAND
            if section == COMMAND
            else next(
                (s for s in OBJECTIVES if s not in held and not (s == "4" and "6" in held)),
                section,
            )
        )
        kills = min(fought.kills, fit)
        impulse = 0 if "3" in held else e.impulse  # the impulse section held: no movement
        battle.record(
            te.SectionFought(
                target_id,
                party.section,
                party.count,
                defenders,
                kills,
                fought.lost,
                fought.left,
                fought.taken,
                sorted(held),
                nxt,
                e.casualties + kills,
                e.taken + kills,
                impulse,
            )
        )
        whole = {int(s) if s.isdigit() else s for s in held}
        if (section == COMMAND and fought.taken) or boarding.captured(whole):
            battle.record(te.ShipCaptured(target_id, party.side))
            battle.remove(e.ship, None, derelict=True)
        elif section != COMMAND:
            hold(battle, t, e, held, fought.taken and section == "2")


def hold(battle: Battle, t: te.TacticsState, e: AdvShip, held: set[str], bridge_now: bool) -> None:
    """What the sections boarders hold do to the ship (ADV-BRD-05), renewed every phase: the
    sensors section (1) keeps its sensors out, the warp sections (4, 6) switch their side's warp
    power off, the auxiliary bridge (5) cuts the power while engineering is the crew's, and the
    bridge (2) is theirs for the rest of the game turn (with 5 as well, for good). The impulse
    section (3) is the fight's own (`SectionFought.impulse`)."""
    sensors = max(e.sensor_damage, boarding.SENSORS_HELD) if "1" in held else e.sensor_damage
    port = 0 if "6" in held else e.warp_port
    starboard = 0 if "4" in held else e.warp_starboard
    impulse = e.impulse
    if "5" in held and boarding.ENGINEERING not in held:
        port = starboard = impulse = 0
    seized = "2" in held and (bridge_now or "5" in held or e.id in t.seized)
    now = (e.sensor_damage, e.warp_port, e.warp_starboard, e.impulse, e.id in t.seized)
    if (sensors, port, starboard, impulse, seized) != now:
        battle.record(
            te.SectionHeld(
                e.id,
                sensor_damage=sensors,
                warp_port=port,
                sections=sorted(held),
                warp_starboard=starboard,
                impulse=impulse,
                seized=seized,
            )
        )


def repair(battle: Battle, state: AdvancedState, t: te.TacticsState) -> None:
    """A phase docked (ADV-BASE-02, ADV-BASE-06), then the docked ships stand behind their
    base's shields again (ADV-BASE-05)."""
    for ship_id, base_id in list(t.docked.items()):
        a = state.of(ship_id)
        if not a.alive or not state.of(base_id).alive:
            why = "destroyed" if not a.alive else "the base is lost"
            battle.record(te.Undocked(ship_id, base_id, why))
            continue
        here = sum(1 for b in t.docked.values() if b == base_id)
        on_duty = sum(1 for o in a.officers.values() if o.on_duty)
        points = bases.dock_repair(on_duty, here)
        top = a.ship.cls.superstructure
        ss = min(top, a.ship.superstructure + points)
        back = bases.dock_recovery(a.casualties, a.fatalities, here)
        if ss != a.ship.superstructure or back:
            battle.record(
                te.DockRepaired(
                    a.id, base_id, ss - a.ship.superstructure, back, ss, a.casualties - back
                )
            )
        shields = bases.shared_shields(state.of(base_id).base, a.facing_cap)
        if shields != a.base:
            battle.record(te.ShieldsShared(a.id, base_id, shields))


class Tactics(AdvancedModule):
    """Tractor beams, transporters and boarding, bases, engines and self-destruct in play."""

    name = "adv-tactics"
    clauses = TACTICS_CLAUSES
    summary = (
        "Advanced option: tractor beams (tow, escape, crystal burn-out), transporters and "
        "boarding parties that take ships section by section, docking at bases for repairs, "
        "base fire at any number of targets, straight-ahead warp without impulse, emergency "
        "warp, nacelles blown off and self-destruct."
    )

    def adv_turn_start(self, battle: Battle, state: AdvancedState) -> None:
        if te.TACTICS_KEY not in battle.extensions:
            crystals = {a.id: a.sheet.dilithium for a in state.ships.values()}
            battle.record(te.CrystalsLoaded(crystals))

    def adv_after_power(self, battle: Battle, state: AdvancedState) -> None:
        # each warp level above the safe speed takes a Warp Tech saving roll (ADV-WARP-01,
        # ADV-WARP-02, ADV-WARP-03); a lost containment is a breach
        t = te.tactics_of(battle)
        for a in list(state.ships.values()):
            if not a.alive:
                continue
            rated = a.sheet.warp_port + a.sheet.warp_starboard
            damage = engines.damage_percent(a.warp_port + a.warp_starboard, rated)
            safe = engines.max_warp(a.sheet.max_moves, damage)
            levels = math.ceil(max(0, a.moves - safe) / WARP_FACTOR_HEXES)
            t.strain[a.id] = levels
            rating = a.rating("engineer", "warp_tech")
            for level in range(1, levels + 1):
                roll = battle.dice.d100()
                held = engines.containment_held(roll, rating, damage)
                battle.note(te.WarpStrained, a.id, level, roll, damage, rating, held)
                if not held:
                    breach(battle, state, a, "antimatter containment lost at warp")
                    break

    def adv_after_move(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Sequence[Step[Battle]]:
        t = te.tactics_of(battle)
        t.barred.clear()
        t.approach.clear()
        tow(battle, state, t)
        return (Each(_TACTICS.at(phase), sides),)

    def adv_phase_end(self, battle: Battle, state: AdvancedState, phase: int) -> None:
        t = te.tactics_of(battle)
        for (ship_id, facing), (base, reinforcement) in list(t.lowered.items()):
            if not state.of(ship_id).generator_ok[facing - 1]:  # hit while down: nothing to raise
                base = reinforcement = 0
            if state.of(ship_id).alive:
                battle.record(
                    te.FacingSet(ship_id, facing, base, reinforcement, "phase over", False)
                )
            else:
                t.lowered.pop((ship_id, facing), None)
        fight(battle, state, t)
        repair(battle, state, t)

    def adv_turn_end(self, battle: Battle, state: AdvancedState) -> None:
        # a beam kept on costs a crystal on a 0, once a game turn (ADV-TRAC-08)
        t = te.tactics_of(battle)
        for holder_id in list(t.beams):
            h = state.of(holder_id)
            if not h.alive:
                continue
            if tractor.upkeep_burns(battle.dice) and burn(
                battle, t, h, "burns a crystal keeping its beam on", 1
            ):
                tow_ = t.beams.get(holder_id)
                if tow_ is not None:
                    battle.record(te.TractorReleased(h.id, tow_.target, "crystals gone"))
                breach(battle, state, h, "its last crystal burned out holding a beam")
        t.strain.clear()
        for ship_id in sorted(t.seized):
            # the crew lock the boarders out from the auxiliary bridge, unless it is theirs too
            # (ADV-BRD-05)
            if state.of(ship_id).alive and "5" not in t.held.get(ship_id, set()):
                battle.record(te.BridgeLockedOut(ship_id))

    def fire_barred(self, state: AdvancedState, ship: AdvShip) -> bool:
        # a ship that transported, or docks, this phase does not fire (ADV-TRANS-02,
        # ADV-BASE-04); nor one whose bridge the boarders run (ADV-BRD-05)
        found = _tactics(state)
        return found is not None and (ship.id in found.barred or ship.id in found.seized)

    def fire_refusal(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> str | None:
        found = _tactics(state)
        if found is None or not found.approach:
            return None
        facings = {f for b, f in found.approach if b == ship.id}
        if facings and bases.approach_blocked(facings, _facing(ship, target)):
            return "a ship is docking through that facing: the base holds fire there (ADV-BASE-04)"
        return None

    def extra_moves(self, state: AdvancedState, ship: AdvShip) -> int:
        return 0 if _is_base(ship) else EMERGENCY_LEVELS * WARP_FACTOR_HEXES  # ADV-WARP-03

    def warp_without_impulse(self, state: AdvancedState, ship: AdvShip) -> bool:
        # no impulse: warp straight ahead while a nacelle has power (ADV-IMP-02)
        return (
            engines.warp_problem(ship.impulse, ship.warp_port + ship.warp_starboard, False, True)
            is None
        )

    def straight_only(self, state: AdvancedState, ship: AdvShip) -> bool:
        return not engines.can_manoeuvre(ship.impulse)  # ADV-IMP-01, ADV-IMP-02

    def nacelle_hit(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, part: str, left: int, damage: int
    ) -> None:
        hit = engines.hit_nacelle(left, damage)  # ADV-NAC-01: the excess is already on the hull
        if hit.blown_off and part not in ship.blown_off:
            battle.record(te.NacelleLost(ship.id, part))

    def many_targets(self, state: AdvancedState, ship: AdvShip) -> bool:
        return _is_base(ship)  # ADV-SB-01


def _tactics(state: AdvancedState) -> te.TacticsState | None:
    """The tactics state for a policy that sees only the advanced state."""
    found = state.tactics
    return found if isinstance(found, te.TacticsState) else None


def _ask_tactics(battle: Battle, side: str, phase: int) -> TacticsDecision | None:
    """A side's ships take their tactical actions: tractors, boarding, docking, self-destruct
    and the rest (each ship's legal options listed)."""
    if battle.over():
        return None
    state = state_of(battle)
    t = te.tactics_of(battle)
    listed: list[str] = []
    ships: list[str] = []
    for a in state.side(side):
        mine = options(state, t, a)
        if mine:
            ships.append(a.id)
            listed += mine
    if not listed:
        return None
    return TacticsDecision(side, phase, tuple(ships), tuple(listed))


def _act_all(battle: Battle, decision: TacticsDecision, order: TacticsOrder) -> None:
    state = state_of(battle)
    t = te.tactics_of(battle)
    for action in order.actions:
        a = state.of(action_ship(action))
        if not a.alive:
            continue
        if action not in options(state, t, a):  # an earlier action changed things
            continue
        act(battle, state, t, action)


_TACTICS = Asked(
    TacticsDecision, TacticsOrder, "TACTICS", _ask_tactics, on_decision(verify_tactics), _act_all
)
