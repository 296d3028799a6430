"""Sensor probes (module `adv-probes`): ADV-PROBE-01, ADV-PROBE-02, ADV-PROBE-03, ADV-PROBE-04,
ADV-PROBE-05, ADV-PROBE-06, with the torpedo stores they draw on (ADV-TORP-01).

After each phase's movement a side whose ships may launch or shoot probes gets a
`ProbeDecision` (kolrami.rules.advanced.field_orders). A probe takes one photon casing from the
ship's stores (never one armed this turn), at most one a ship a phase, and costs no action; it
flies to a point up to 10 hexes off and stays there. Each phase a linked probe sweeps 6 hexes
around it: a cloaked enemy that moved is found on 1-5 on a d10 (the probe's ship then knows where
it is for the phase, as a ping shows it), and its side sees every other ship there whatever the
terrain hides (probes clear sensor shadows). An enemy locked on the probe's ship or within the
probe's reach may intercept its data with a Sensors check, which shows it where a cloaked probe
ship is. A beam shoots a probe down with a to-hit roll and a Weapons check, one beam a probe; a
ship that lost a probe may launch another from the next phase, and its Science Officer must roll
Sensors to link it. Every effect is a Change of kolrami.rules.advanced.field_events.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kolrami.catalog.advanced import AdvWeaponKind
from kolrami.engine.battle import other
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import combat
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.cloak import LOCK_D10
from kolrami.rules.advanced.field_events import Probe
from kolrami.rules.advanced.field_events import ProbeFiredAt
from kolrami.rules.advanced.field_events import ProbeIntercepted
from kolrami.rules.advanced.field_events import ProbeLaunched
from kolrami.rules.advanced.field_events import ProbeLinked
from kolrami.rules.advanced.field_events import ProbeSensed
from kolrami.rules.advanced.field_events import comms_of
from kolrami.rules.advanced.field_events import probes_of
from kolrami.rules.advanced.field_orders import ProbeDecision
from kolrami.rules.advanced.field_orders import ProbeOrder
from kolrami.rules.advanced.modules import AdvancedModule
from kolrami.rules.advanced.state import by_order
from kolrami.rules.advanced.state import state_of
from kolrami.rules.steps import Asked
from kolrami.rules.steps import Call
from kolrami.rules.steps import Each

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.step import Step
    from kolrami.rules.advanced.state import AdvancedState
    from kolrami.rules.advanced.state import AdvShip

PROBE_CLAUSES = (
    "ADV-PROBE-01",
    "ADV-PROBE-02",
    "ADV-PROBE-03",
    "ADV-PROBE-04",
    "ADV-PROBE-05",
    "ADV-PROBE-06",
)
#: A probe flies up to 10 hexes from its ship; it senses 6 hexes around it (house readings).
REACH_HEXES = 10
SENSE_HEXES = 6


def casings_free(adv: AdvShip) -> int:
    """Photon casings a probe may take: the stores less the torpedoes armed and not yet fired
    this turn (ADV-PROBE-01, ADV-TORP-01)."""
    armed = sum(
        w.torpedoes
        for i, w in enumerate(adv.sheet.weapons)
        if not w.beam and adv.power[i] and not adv.fired[i]
    )
    return adv.stores - armed


def _launcher(adv: AdvShip) -> bool:
    return any(
        w.kind is AdvWeaponKind.PHOTON and ok
        for w, ok in zip(adv.sheet.weapons, adv.weapon_ok, strict=True)
    )


def launch_problem(
    state: AdvancedState, adv: AdvShip, turn: int, point: tuple[int, int] | None = None
) -> str | None:
    """Why `adv` cannot launch a probe now (to `point`, when given), or None (ADV-PROBE-01,
    ADV-PROBE-06)."""
    if not adv.alive:
        return "the ship is gone"
    if not _launcher(adv):
        return "a probe is launched from a working photon launcher (ADV-PROBE-01)"
    if casings_free(adv) < 1:
        return "no photon casing left that is not armed this turn (ADV-PROBE-01, ADV-TORP-01)"
    p = probes_of(state)
    now = (turn, state.phase)
    if any(q.owner == adv.id and (q.turn, q.phase) == now for q in p.probes.values()):
        return "one probe a phase (ADV-PROBE-01)"
    if p.lost.get(adv.id) == now:
        return "a replacement probe waits for the next movement phase (ADV-PROBE-06)"
    if point is not None:
        x, y = point
        d = math.hypot(x - adv.ship.x, y - adv.ship.y)
        if d > REACH_HEXES * state.hex_cm:
            return (
                f"a probe flies up to {REACH_HEXES * state.hex_cm} cm; the point is {d:.0f} cm away"
            )
    return None


def launch_options(state: AdvancedState, side: str, turn: int) -> list[tuple[str, int]]:
    """(ship, reach in cm) for each of `side`'s ships that may launch a probe now."""
    return [
        (a.id, REACH_HEXES * state.hex_cm)
        for a in state.side(side)
        if launch_problem(state, a, turn) is None
    ]


def live_probes(state: AdvancedState) -> list[Probe]:
    """The probes on the table."""
    return [p for p in probes_of(state).probes.values() if p.alive]


def _probe_dist(adv: AdvShip, probe: Probe) -> float:
    return math.hypot(adv.ship.x - probe.x, adv.ship.y - probe.y)


def shot_options(state: AdvancedState, side: str) -> list[tuple[str, int, str]]:
    """(ship, beam, probe) for each beam of `side` that could fire at an enemy probe now
    (ADV-PROBE-05)."""
    out: list[tuple[str, int, str]] = []
    enemy = [p for p in live_probes(state) if p.side != side]
    if not enemy:
        return out
    for a in state.side(side):
        if not combat.can_fire(a):
            continue
        for i, w in enumerate(a.sheet.weapons):
            if not w.beam or combat.ready_problem(a, i) is not None:
                continue
            out += [(a.id, i, p.id) for p in enemy if _probe_dist(a, p) <= w.range_cm]
    return out


def working(state: AdvancedState, probe: Probe) -> bool:
    """The probe's data reaches its ship: linked, the ship in play and not jammed, the link not
    jammed (module adv-comms: ADV-COMM-04, ADV-COMM-05)."""
    if not probe.alive or not probe.linked or not state.of(probe.owner).alive:
        return False
    jams = set(comms_of(state).jams.values())
    return probe.owner not in jams and probe.id not in jams


def verify_probes(
    state: AdvancedState, decision: ProbeDecision, order: ProbeOrder, turn: int
) -> None:
    """A side's probe order: launches by ships that may, one each, to points in reach; shots
    from the decision's options, each beam at one probe."""
    ships = dict(decision.launch)
    seen: set[str] = set()
    for launch in order.launches:
        if launch.ship not in ships or launch.ship in seen:
            raise IllegalOrderError(
                f"{launch.ship} cannot launch a probe now; ships that can: "
                f"{', '.join(ships) or 'none'} (one a phase, ADV-PROBE-01)"
            )
        seen.add(launch.ship)
        problem = launch_problem(state, state.of(launch.ship), turn, (launch.x, launch.y))
        if problem:
            raise IllegalOrderError(f"{launch.ship}: {problem}")
    beams: set[tuple[str, int]] = set()
    for shot in order.shots:
        if (shot.ship, shot.weapon, shot.probe) not in decision.shots:
            raise IllegalOrderError(
                f"{shot} is not a shot open now (a ready beam in range of an enemy probe, "
                "ADV-PROBE-05)"
            )
        if (shot.ship, shot.weapon) in beams:
            raise IllegalOrderError(
                f"{shot.ship} w{shot.weapon}: one beam's power is not split among probes "
                "(ADV-PROBE-05)"
            )
        beams.add((shot.ship, shot.weapon))


def carry_out(battle: Battle, state: AdvancedState, order: ProbeOrder) -> None:
    """Apply a verified probe order: shots first, then launches."""
    p = probes_of(state)
    for shot in order.shots:  # ADV-PROBE-05
        adv = state.of(shot.ship)
        probe = p.probes[shot.probe]
        if not probe.alive:
            continue
        w = adv.sheet.weapons[shot.weapon]
        needed = state.rules.to_hit_number(state, adv, w, _probe_dist(adv, probe))
        roll = battle.dice.d10()
        hit = roll <= needed
        result = check(battle.dice, adv.rating("helm", "weapons"), adv.penalty)
        battle.record(
            ProbeFiredAt(
                adv.id,
                shot.weapon,
                probe.id,
                roll,
                needed,
                result.roll,
                result.rating,
                hit and result.outcome.passed,
            )
        )
    for launch in order.launches:  # ADV-PROBE-01
        adv = state.of(launch.ship)
        replacement = adv.id in p.lost
        pid = f"p{p.launched + 1}"
        battle.record(
            ProbeLaunched(
                pid,
                adv.id,
                float(launch.x),
                float(launch.y),
                adv.stores - 1,
                not replacement,
                battle.turn,
                state.phase,
            )
        )
        if replacement:  # ADV-PROBE-06: the Science Officer regains the lock
            _link(battle, state, p.probes[pid])


def _link(battle: Battle, state: AdvancedState, probe: Probe) -> None:
    owner = state.of(probe.owner)
    result = check(battle.dice, owner.rating("science", "sensors"), owner.penalty)
    battle.record(ProbeLinked(probe.id, result.roll, result.rating, result.outcome.passed))


def sweep(battle: Battle, state: AdvancedState) -> None:
    """Each working probe sweeps for cloaked enemies that moved (ADV-PROBE-02); unlinked probes
    try their link again; enemies try to intercept the data of cloaked probe ships
    (ADV-PROBE-04)."""
    reach = SENSE_HEXES * state.hex_cm
    for probe in live_probes(state):
        owner = state.of(probe.owner)
        if not probe.linked and owner.alive:
            _link(battle, state, probe)
        if working(state, probe):
            for e in state.side(other(probe.side)):
                if not e.hidden or not e.moved_last or probe.owner in e.pinged_by:
                    continue
                if _probe_dist(e, probe) > reach:
                    continue
                roll = battle.dice.d10()
                battle.record(
                    ProbeSensed(probe.id, probe.owner, e.id, roll, LOCK_D10, roll <= LOCK_D10)
                )
        if not owner.alive or not owner.hidden or not probe.linked:
            continue
        listeners = [
            e
            for e in state.side(other(probe.side))
            if e.sensors_ok and (e.lock == owner.id or _probe_dist(e, probe) <= reach)
        ]
        if not listeners:
            continue
        best = max(listeners, key=lambda e: (e.rating("science", "sensors"), -e.ship.index))
        result = check(battle.dice, best.rating("science", "sensors"), best.penalty)
        battle.record(
            ProbeIntercepted(
                probe.id, best.id, owner.id, result.roll, result.rating, result.outcome.passed
            )
        )


def probe_sees(state: AdvancedState, side: str, ship: AdvShip) -> bool:
    """Whether a working probe of `side` has `ship` within its sweep (ADV-PROBE-02,
    ADV-PROBE-03: its data ignores sensor shadows)."""
    reach = SENSE_HEXES * state.hex_cm
    return any(
        p.side == side and working(state, p) and _probe_dist(ship, p) <= reach
        for p in live_probes(state)
    )


class SensorProbes(AdvancedModule):
    """Sensor probes: launched from photon casings, sensing past shadows, shot down, jammed."""

    name = "adv-probes"
    clauses = PROBE_CLAUSES
    summary = (
        "Advanced option: ships launch sensor probes from photon casings (one a phase); a "
        "probe finds cloaked ships near it and sees past terrain; probes can be intercepted, "
        "jammed and shot down."
    )

    def adv_after_move(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Sequence[Step[Battle]]:
        return (Each(_PROBES.at(phase), sides), Call(_sweep))

    def reveals(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        return probe_sees(state, side, ship)


def _sweep(battle: Battle) -> None:
    sweep(battle, state_of(battle))


def _ask_probes(battle: Battle, side: str, phase: int) -> ProbeDecision | None:
    """A side launches probes and shoots enemy probes down (ADV-PROBE-01)."""
    state = state_of(battle)
    launch = tuple(launch_options(state, side, battle.turn))
    shots = tuple(shot_options(state, side))
    if not launch and not shots:
        return None
    return ProbeDecision(side, phase, launch, shots)


def _check_probes(battle: Battle, decision: ProbeDecision, order: ProbeOrder) -> None:
    verify_probes(state_of(battle), decision, order, battle.turn)


_PROBES = Asked(ProbeDecision, ProbeOrder, "PROBE", _ask_probes, _check_probes, by_order(carry_out))
