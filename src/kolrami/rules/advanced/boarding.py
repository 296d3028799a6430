"""Transporters and boarding (ADV-TRANS-01, ADV-TRANS-02, ADV-TRANS-03, ADV-TRANS-04, ADV-BRD-01,
ADV-BRD-02, ADV-BRD-03, ADV-BRD-04, ADV-BRD-05, ADV-BRD-06, ADV-BRD-07, ADV-BRD-08, ADV-BRD-09,
ADV-BRD-10): who may beam across, how many, and how a section or a base falls.

The arithmetic of a boarding action and the checks on a beam-across, as functions a driver step,
a captain and a test can all call: `verify_beam` raises a precise reason, `can_beam` answers a
bool, `assault` works out one section's fight. Readings are in docs/rules.md under each id.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from kolrami.catalog.advanced import Species
from kolrami.engine.orders import IllegalOrderError

#: At most this many boarders beam over in one phase (ADV-BRD-01).
BOARDERS_A_PHASE = 20
#: Transporters reach 2 hexes (ADV-TRANS-03).
TRANSPORTER_HEXES = 2
#: Borg send three drones over singly first; they are lost while the collective adapts
#: (ADV-BRD-03).
BORG_SCOUTS = 3
#: A Tholian base's humanoid slaves resist at 30% of their normal strength (ADV-BRD-08).
SLAVE_SHARE = 0.3
#: Boarders take a ship's section once they have killed one defender in six (ADV-BRD-04).
SECTION_SHARE = 6
#: A base falls once half its crew and half its marines or security are eliminated (ADV-BRD-09).
BASE_SHARE = 0.5
#: Hours a Tholian lasts in class N (Venus-type) conditions without a suit (ADV-BRD-10): kept for
#: scenarios; it does not let Tholians board.
THOLIAN_CLASS_N_HOURS = 12
#: The species that needs class Y conditions and so neither boards nor is boarded (ADV-BRD-07).
THOLIAN = "tholian"
#: The species whose drones scout a boarding action first (ADV-BRD-03).
BORG = "borg"
#: The humanoid slaves a Tholian base keeps are taken to be of this species (docs/rules.md
#: ADV-BRD-08).
SLAVE_SPECIES = "human"
#: Game turns of sensor outage kept on a ship while boarders hold its sensors section (section
#: 1, ADV-BRD-05): renewed every phase, so it never runs out while they hold it.
SENSORS_HELD = 2


class Troop(StrEnum):
    """The troop classes of ADV-BRD-02."""

    PERSONNEL = "personnel"
    SECURITY = "security"
    MARINES = "marines"
    BRIDGE = "bridge"  # bridge command crew fight at their species' marine rating


def strength(species: Species, troop: Troop) -> int:
    """Combat strength of one person of `troop` (ADV-BRD-02). Borg add the assimilated species'
    personnel rating in the data (species table, catalog/data/adv_ships.toml)."""
    if troop is Troop.BRIDGE:
        return species.marines
    value: int = getattr(species, troop.value)
    return value


#: What holding each facing's section does (ADV-BRD-05), facings 1-6 as ADV-ARC-04 numbers them.
SECTION_EFFECTS: dict[int, str] = {
    1: "sensors: manual fire only (Weapons check), no sight or data beyond 2 hexes",
    2: "bridge: the boarders control the ship for the rest of the game turn",
    3: "impulse: the impulse engine is out, the ship cannot move",
    4: "starboard warp: switched off (not damaged); engineering is the next objective",
    5: "auxiliary bridge: with the bridge, full control; can cut power if engineering is not held",
    6: "port warp: switched off (not damaged); engineering is the next objective",
}
ENGINEERING = "engineering"


@dataclass(frozen=True, slots=True)
class Assault:
    """How one section's fight went (ADV-BRD-04): kills, boarders lost and left, and whether the
    section is taken."""

    kills: int
    lost: int
    left: int
    taken: bool


def assault(
    boarders: int, boarder_strength: int, defenders: int, defender_strength: int
) -> Assault:
    """The fight for a section at the end of the game turn (ADV-BRD-04). The boarders must kill
    a sixth of the defenders (rounded up); the strength of those kills comes off theirs, so they
    lose ceil(cost / their strength) troops. When their whole strength does not exceed the cost
    they are wiped out, having killed the share their strength pays for."""
    if boarders <= 0 or boarder_strength <= 0:
        return Assault(0, 0, max(0, boarders), False)
    needed = math.ceil(defenders / SECTION_SHARE)
    cost = needed * defender_strength
    power = boarders * boarder_strength
    if needed == 0:
        return Assault(0, 0, boarders, True)
    if power <= cost:
        kills = power // defender_strength if defender_strength else needed
        return Assault(min(kills, needed), boarders, 0, False)
    lost = math.ceil(cost / boarder_strength)
    return Assault(needed, lost, boarders - lost, True)


def base_assault(
    boarders: int,
    boarder_strength: int,
    crew: int,
    guards: int,
    crew_strength: int,
    guard_strength: int,
) -> Assault:
    """Boarding a base or outpost (ADV-BRD-09): entered at its command centre whatever the
    facing, taken once half its crew and half its marines or security are eliminated; the cost
    is paid as in a section fight (ADV-BRD-04)."""
    need_crew = math.ceil(crew * BASE_SHARE)
    need_guards = math.ceil(guards * BASE_SHARE)
    cost = need_crew * crew_strength + need_guards * guard_strength
    power = boarders * boarder_strength
    if power <= cost:
        return Assault(0, boarders, 0, False)
    lost = math.ceil(cost / boarder_strength)
    return Assault(need_crew + need_guards, lost, boarders - lost, True)


def slave_strength(species: Species) -> int:
    """Resistance per slave on a Tholian base: 30% of the personnel rating, rounded down, and
    no marines (ADV-BRD-08)."""
    return int(species.personnel * SLAVE_SHARE)


def borg_landed(sent: int, scouts_lost_before: int) -> tuple[int, int]:
    """(boarders that arrive, scouts lost) when the Borg beam `sent` drones over, having lost
    `scouts_lost_before` scouts already in this action: the first three sent singly are lost
    (ADV-BRD-03)."""
    lose = min(sent, max(0, BORG_SCOUTS - scouts_lost_before)) if sent == 1 else 0
    return sent - lose, lose


def scouts_first(people: int, scouts_lost_before: int) -> int:
    """How many of a wave of `people` Borg drones go over singly first, as scouts, and are lost
    (ADV-BRD-03): one at a time while fewer than three have been lost in the action."""
    lost = 0
    while lost < people and borg_landed(1, scouts_lost_before + lost)[1]:
        lost += 1
    return lost


def captured(held: set[int | str]) -> bool:
    """A ship is captured for good once sections 2, 3, 5, either 4 or 6, and engineering are all
    held (ADV-BRD-06)."""
    return {2, 3, 5, ENGINEERING} <= held and (4 in held or 6 in held)


@dataclass(frozen=True, slots=True)
class Beam:
    """What a beam-across needs to know about the two ships (ADV-TRANS-01, ADV-TRANS-02,
    ADV-TRANS-03, ADV-TRANS-04)."""

    ship: str
    target: str
    hexes: float
    sensors_working: bool
    facing_shield: int  # shield points on the ship's facing toward the target
    drop_facing: bool  # the ship drops that facing for the phase if it is up
    fired: bool  # the ship has fired (or will) this phase
    people: int
    ship_species: str
    target_species: str
    target_base: bool = False  # a base: a Tholian one may be boarded (ADV-BRD-08)


def beam_problem(beam: Beam) -> str | None:
    """Why the beam-across may not happen, or None."""
    who = f"{beam.ship} beaming to {beam.target}"
    slave_base = beam.target_base and beam.target_species == THOLIAN  # ADV-BRD-08
    if beam.ship_species == THOLIAN or (beam.target_species == THOLIAN and not slave_base):
        return (
            f"{who}: Tholians need class Y conditions; nobody boards them or is boarded by "
            "them (ADV-BRD-07), but for a Tholian base's slave quarters (ADV-BRD-08)"
        )
    if beam.hexes > TRANSPORTER_HEXES:
        return (
            f"{who}: {beam.hexes:g} hexes away; transporters reach {TRANSPORTER_HEXES} "
            "(ADV-TRANS-03)"
        )
    if not beam.sensors_working:
        return f"{who}: its sensors are out; beaming needs them, not a lock (ADV-TRANS-04)"
    if beam.facing_shield > 0 and not beam.drop_facing:
        return f"{who}: the facing toward it is shielded; drop it for the phase (ADV-TRANS-01)"
    if beam.fired:
        return f"{who}: a ship that transports does not fire in that phase (ADV-TRANS-02)"
    if not 0 < beam.people <= BOARDERS_A_PHASE:
        return (
            f"{who}: {beam.people} people; 1 to {BOARDERS_A_PHASE} beam over a phase (ADV-BRD-01)"
        )
    return None


def verify_beam(beam: Beam) -> None:
    """Raise IllegalOrderError with the reason when the beam-across may not happen."""
    problem = beam_problem(beam)
    if problem is not None:
        raise IllegalOrderError(problem)


def can_beam(beam: Beam) -> bool:
    """Whether the beam-across may happen."""
    return beam_problem(beam) is None
