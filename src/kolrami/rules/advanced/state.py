"""The advanced game's state: officers, and each ship's engines, shields, weapons and crew.

A Battle keeps it under `battle.extensions["advanced"]`; the FPF ShipState still holds what both
games share (position, heading, superstructure, destruction). Only the engine writes it;
captains read it through `BattleView.advanced()`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar

from kolrami.catalog.advanced import FACINGS
from kolrami.catalog.advanced import AdvancedPack
from kolrami.catalog.advanced import AdvancedSheet
from kolrami.catalog.advanced import Species
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.checks import OFFICER_BASE
from kolrami.rules.advanced.checks import Outcome
from kolrami.rules.advanced.checks import assign_by_strength
from kolrami.rules.advanced.checks import casualty_penalty
from kolrami.rules.advanced.checks import roll_rating
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.orders import PowerPlan
from kolrami.rules.changes import Sets

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState
    from kolrami.rules.advanced.modules import AdvancedRules

KEY = "advanced"
#: A game turn has five phases of movement and fire (ADV-SEQ-02).
PHASES = 5
#: Officers and the ratings each holds (ADV-OFF-05, ADV-OFF-06, ADV-OFF-07, ADV-OFF-08, ADV-OFF-09,
#: ADV-OFF-10, ADV-OFF-11, ADV-OFF-12); the Captain's drives Tactical Advantage.
SKILLS: dict[str, tuple[str, ...]] = {
    "captain": ("command",),
    "science": ("shield_tech", "damage_control", "sensors"),
    "helm": ("weapons", "helm_ops"),
    "engineer": ("warp_tech", "starship_eng"),
    "medical": ("medicine",),
    "comms": ("communications",),
}
ROLES = tuple(SKILLS)
#: A shaken officer is off duty for this many game turns (ADV-OFF-04, ADV-OFF-11).
SHAKEN_TURNS = 2
#: The third shaking kills (ADV-OFF-04).
SHAKEN_LIMIT = 3


@dataclass(slots=True, eq=False)
class Officer:
    """One bridge officer: ratings by skill; shaken count; turns still off duty."""

    role: str
    ratings: dict[str, int]
    shaken: int = 0
    out: int = 0
    replacement: bool = False

    @property
    def on_duty(self) -> bool:
        """Not shaken out of action."""
        return self.out == 0

    def rating(self, skill: str) -> int:
        """The rating a check uses: half while shaken (a junior stands in)."""
        value = self.ratings[skill]
        return value if self.on_duty else value // 2


#: What stops a sensor lock holding, and a cloak working, in the order their reasons are given:
#: (the Surroundings field, the reason).
_NO_LOCK = (
    ("nebula", "no lock holds in a nebula"),
    ("layer", "no lock holds inside a gas giant's atmosphere"),
)
_NO_CLOAK = (
    ("nebula", "cloaks do not work in a nebula"),
    ("disk", "cloaks do not work in an accretion disk"),
    ("layer", "cloaks do not work in a gas giant's atmosphere"),
)


@dataclass(frozen=True, slots=True)
class Surroundings:
    """What the terrain around a ship does to it now (module adv-terrain sets it through its
    events, kolrami.rules.advanced.terrain): inside a nebula, an ion storm, a black hole's
    accretion disk (its depth in hexes), a gas giant's atmosphere (layer 1 outer to 3
    deepest), a magnetar's reach, in standard orbit of a feature (its index), or nowhere."""

    nebula: bool = False
    storm: bool = False
    disk: int = 0
    layer: int = 0
    pull: bool = False
    orbit: int = -1

    @property
    def no_lock(self) -> str:
        """Why no sensor lock holds here, or ''."""
        return self._first(_NO_LOCK)

    @property
    def no_cloak(self) -> str:
        """Why a cloak does not work here, or ''."""
        return self._first(_NO_CLOAK)

    def _first(self, table: tuple[tuple[str, str], ...]) -> str:
        """The reason of the first of `table`'s (field, reason) whose field is set here, or ''."""
        for name, why in table:
            if getattr(self, name):
                return why
        return ""

    @property
    def no_torpedoes(self) -> str:
        """Why torpedoes cannot be fired from here, or ''."""
        return "torpedoes cannot be fired in an accretion disk" if self.disk else ""

    @property
    def shields_void(self) -> bool:
        """Shields give no protection: a nebula, or charged against a magnetar's pull."""
        return self.nebula or self.pull


CLEAR = Surroundings()


@dataclass(slots=True, eq=False)
class AdvShip:
    """One ship's advanced state."""

    ship: ShipState
    sheet: AdvancedSheet
    species: Species
    officers: dict[str, Officer]
    warp_port: int
    warp_starboard: int
    impulse: int
    base: list[int]
    reinforcement: list[int]
    generator_ok: list[bool]
    weapon_ok: list[bool]
    power: list[int]  # this turn: beam power, or 1 for an armed launcher
    fired: list[bool]  # this turn
    stores: int
    casualties: int = 0  # crew out of action now
    taken: int = 0  # casualties taken in all (fatalities are 15% of these, ADV-CAS-01)
    sensor_damage: int = 0  # game turns of sensor outage left
    lock: str | None = None
    shields_up: bool = False
    moves: int = 0  # hexes of movement bought this turn
    moved: int = 0  # hexes moved so far this turn
    cost: int = 0  # power allocated this turn
    plan: PowerPlan | None = None
    aim_bonus: int = 0  # helmsman's -2 bonuses left this turn
    extra_targets: int = 0  # helmsman's extra targets left this turn
    bonus_power: int = 0  # engineer's bonus power this turn
    shield_bonus: int = 0  # science officer's shield points this turn (may pass the maximum)
    recovery: int = 1  # percentage points of casualties back on duty this turn (ADV-CAS-02)
    evasion: Outcome | None = None  # this phase's evasion, if any
    evaded_from: int = 0  # heading before the evasion
    # --- cloaking (module adv-cloak) and the officers' tasks that go with it ---
    cloaked: bool = False  # the cloak is engaged for this game turn
    decloaked: bool = False  # dropped for this phase's fire, back on after it (ADV-CLOAK-01)
    moved_last: bool = False  # changed position in the latest movement step (ADV-SENS-02)
    pinged_by: set[str] = field(default_factory=set)  # sides that pinged it this phase
    exposed: bool = False  # hit through its cloak: locked ships fire freely this turn
    reveal: int = 0  # phases (this one included) its moves are shown to everyone
    #: this turn's lock roll failed (a decloak gives another, ADV-CLOAK-02)
    lock_failed: bool = False
    shake: Outcome | None = None  # the engineer's Cloak Tech bonus this turn (ADV-OFF-09)
    warp_bonus: int = 0  # extra warp factors of speed change this turn (ADV-OFF-10)
    last_moves: int = 0  # hexes bought last game turn (its speed, for ADV-OFF-10)
    decoded: int = 0  # game turns the enemy's traffic stays decoded (ADV-OFF-12)
    around: Surroundings = CLEAR  # what the terrain does to it now (module adv-terrain)
    blown_off: frozenset[str] = frozenset()  # nacelles lost for good (ADV-NAC-01, adv-tactics)
    # --- webs (module adv-webs) ---
    held: bool = False  # caught in a web: it can neither move nor fire (ADV-WEB-01)
    busy: bool = False  # spent this phase's fire on web work or a counter tractor
    tow_cap: int = -1  # most hexes a phase while towing a captive (-1: not towing)

    @property
    def id(self) -> str:
        """The ship id."""
        return self.ship.id

    @property
    def side(self) -> str:
        """A or B."""
        return self.ship.side

    @property
    def alive(self) -> bool:
        """In play."""
        return self.ship.alive

    @property
    def fatalities(self) -> int:
        """15% of all casualties taken, rounded down (ADV-CAS-01)."""
        return self.taken * 15 // 100

    @property
    def penalty(self) -> int:
        """+1 to every roll per full 10% casualties (ADV-CAS-03)."""
        return casualty_penalty(self.casualties, self.sheet.crew)

    @property
    def engine_power(self) -> int:
        """What the engines give now, after damage."""
        return self.warp_port + self.warp_starboard + self.impulse

    @property
    def available(self) -> int:
        """Power available this turn: the engines plus the engineer's bonus (ADV-POW-01)."""
        return self.engine_power + self.bonus_power

    @property
    def engines_undamaged(self) -> bool:
        """Warp and impulse at their sheet values (the engineer's power bonus needs it)."""
        s = self.sheet
        return (self.warp_port, self.warp_starboard, self.impulse) == (
            s.warp_port,
            s.warp_starboard,
            s.impulse,
        )

    @property
    def hidden(self) -> bool:
        """Cloaked now: the cloak engaged and not dropped for this phase's fire."""
        return self.cloaked and not self.decloaked

    @property
    def shielded(self) -> bool:
        """Shields up now: their charge paid and no cloak holding them down."""
        return self.shields_up and not self.hidden and not self.around.shields_void

    @property
    def venting(self) -> bool:
        """A cloaked ship with a nacelle lost (at 0 power) vents plasma (ADV-CLOAK-06)."""
        return self.cloaked and (self.warp_port == 0 or self.warp_starboard == 0)

    @property
    def sensors_ok(self) -> bool:
        """Sensors working (no outage left)."""
        return self.sensor_damage == 0

    def facing_cap(self, facing: int) -> int:
        """Most base points a facing holds: the sheet's, or 0 with its generator damaged."""
        return self.sheet.shield_points if self.generator_ok[facing - 1] else 0

    def overflow(self) -> int:
        """Base points above the facings' caps (science officer bonus points, ADV-SHLD-04)."""
        return sum(max(0, b - self.facing_cap(f)) for f, b in enumerate(self.base, start=1))

    def facing(self, number: int) -> tuple[int, int]:
        """(base, reinforcement) of a facing, as it stands (even with shields down)."""
        return self.base[number - 1], self.reinforcement[number - 1]

    def rating(self, role: str, skill: str) -> int:
        """The rating of one officer's skill (halved while shaken)."""
        return self.officers[role].rating(skill)


@dataclass(slots=True, eq=False)
class AdvancedState:
    """The advanced game's state of one battle."""

    pack: AdvancedPack
    rules: AdvancedRules
    hex_cm: int
    ships: dict[str, AdvShip] = field(default_factory=dict)
    tac: str = "A"
    phase: int = 0
    #: this phase's declared attacks, in resolution order
    attacks: list[Attack] = field(default_factory=list)
    #: (sensing ship, decloaked ship) pairs that used their fresh lock try this turn (ADV-CLOAK-02)
    fresh_tries: set[tuple[str, str]] = field(default_factory=set)
    #: the terrain module's own state (kolrami.rules.advanced.terrain.TerrainState), if it plays
    terrain: object | None = None
    #: module adv-tactics' state (kolrami.rules.advanced.tactics_events.TacticsState), if it plays
    tactics: object | None = None
    #: other modules' own state by module name (webs, probes, comms)
    extra: dict[str, object] = field(default_factory=dict)

    def sees(self, side: str, ship: ShipState) -> bool:
        """Whether `side` sees the enemy `ship` (the battle's `sight`)."""
        return self.rules.visible(self, side, self.ships[ship.id])

    def of(self, ship_id: str) -> AdvShip:
        """A ship's advanced state."""
        return self.ships[ship_id]

    def side(self, side: str) -> list[AdvShip]:
        """A side's ships in play, in battle order."""
        return [a for a in self.ships.values() if a.side == side and a.alive]


def allowance(adv: AdvShip, phase: int) -> int:
    """Hexes a ship may move in `phase`: its turn's movement spread evenly over the five phases,
    the odd hexes in the later ones, never more than it has left."""
    if adv.held:  # a webbed ship does not move (module adv-webs)
        return 0
    share = adv.moves * phase // PHASES - adv.moves * (phase - 1) // PHASES
    if adv.tow_cap >= 0:  # towing a captive (module adv-webs)
        share = min(share, adv.tow_cap)
    return max(0, min(share, adv.moves - adv.moved))


class AdvSets(Sets):
    """The advanced game's `Sets` change: its `on_state` fields go on the ship's `AdvShip`."""

    __slots__ = ()

    def game_state(self, battle: Battle) -> AdvShip:
        return state_of(battle).of(self.ship)


T = TypeVar("T")
D = TypeVar("D")
R = TypeVar("R")


def kept(store: dict[str, Any], key: str, kind: type[T], missing: str | None = None) -> T:
    """The state a game or a module keeps in `store` under `key` (a battle's extensions, the
    advanced state's `extra`), of type `kind`: made on first use, or, where `missing` says why
    it cannot be, LookupError(missing) while it is not there."""
    found = store.get(key)
    if isinstance(found, kind):
        return found
    if missing is not None:
        raise LookupError(missing)
    made = kind()
    store[key] = made
    return made


def state_of(battle: Battle) -> AdvancedState:
    """The advanced state of a battle the advanced driver is playing."""
    return kept(
        battle.extensions,
        KEY,
        AdvancedState,
        "this battle is not an advanced game (no advanced state)",
    )


# A question's check and carry-out take (battle, decision, order) (rules.steps.Asked); the
# advanced game's own take its state, or only the decision and the order: these adapt them.


def on_state(fn: Callable[[AdvancedState, D, R], None]) -> Callable[[Battle, D, R], None]:
    """`fn(state, decision, order)` as a question's check of the battle."""
    return lambda battle, decision, order: fn(state_of(battle), decision, order)


def on_decision(fn: Callable[[D, R], None]) -> Callable[[Battle, D, R], None]:
    """`fn(decision, order)` (a check of the order against its decision alone) as a
    question's check."""
    return lambda battle, decision, order: fn(decision, order)


def by_order(fn: Callable[[Battle, AdvancedState, R], None]) -> Callable[[Battle, D, R], None]:
    """`fn(battle, state, order)` (a module's carry-out) as a question's carry-out."""
    return lambda battle, decision, order: fn(battle, state_of(battle), order)


def setup(battle: Battle, pack: AdvancedPack, rules: AdvancedRules) -> AdvancedState:
    """Build every ship's advanced state and roll the fleets' officers (ADV-OFF-01, ADV-OFF-02)."""
    state = AdvancedState(pack, rules, battle.scenario.hex_cm)
    for ship in battle.ships.values():
        sheet = pack.sheet(ship.cls)
        n = len(sheet.weapons)
        state.ships[ship.id] = AdvShip(
            ship=ship,
            sheet=sheet,
            species=pack.species_of(sheet),
            officers={},
            warp_port=sheet.warp_port,
            warp_starboard=sheet.warp_starboard,
            impulse=sheet.impulse,
            base=[sheet.shield_points] * FACINGS,
            reinforcement=[0] * FACINGS,
            generator_ok=[True] * FACINGS,
            weapon_ok=[True] * n,
            power=[0] * n,
            fired=[False] * n,
            stores=sheet.torpedo_stores,
        )
    for side in ("A", "B"):
        fleet = [state.ships[s.id] for s in battle.ships.values() if s.side == side]
        roll_officers(battle, fleet)
    # who sees what: the modules decide (cloaks hide ships)
    battle.sight = state.sees
    for adv in state.ships.values():
        battle.note(
            ae.OfficersAssigned,
            adv.id,
            {role: dict(o.ratings) for role, o in adv.officers.items()},
        )
    return state


def roll_officers(battle: Battle, fleet: list[AdvShip]) -> None:
    """Roll each rating category for the whole fleet at once and hand the best results to the
    strongest ships (by points value; equal values keep fleet order) (ADV-OFF-02)."""
    strengths = [(a.ship.cls.value, a.ship.index) for a in fleet]
    for a in fleet:
        a.officers = {role: Officer(role, {}) for role in ROLES}
    for role, skills in SKILLS.items():
        for skill in skills:
            rolled = [roll_rating(battle.dice) for _ in fleet]
            for a, value in zip(fleet, assign_by_strength(rolled, strengths), strict=True):
                a.officers[role].ratings[skill] = value
    cloaked = [a for a in fleet if a.species.cloak_tech_base is not None]
    if cloaked:  # Cloak Tech, for the cloaking rules (ADV-CLOAK-05, part 2)
        base = [a.species.cloak_tech_base or OFFICER_BASE for a in cloaked]
        rolled = [roll_rating(battle.dice, 0) for _ in cloaked]
        strengths = [(a.ship.cls.value, a.ship.index) for a in cloaked]
        for a, value, b in zip(cloaked, assign_by_strength(rolled, strengths), base, strict=True):
            a.officers["engineer"].ratings["cloak_tech"] = value + b
