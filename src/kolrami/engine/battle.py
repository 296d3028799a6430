"""Battle state and the primitives rule modules use: deployment, movement, fire, damage.

A Battle is built from a frozen Scenario, two fleets and a seed. Its turn structure
lives in rule modules (kolrami.rules.fpf); this file knows how ships move, how a volley is rolled
and how damage lands, and records every change in the event log.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Final
from typing import Generic
from typing import ParamSpec
from typing import TypeVar
from typing import cast

from kolrami import __version__
from kolrami.catalog import Arc
from kolrami.catalog import ShipClass
from kolrami.catalog import ShipPack
from kolrami.catalog import WeaponKind
from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import Card
from kolrami.catalog.cards import card_cost
from kolrami.catalog.models import Location
from kolrami.engine import events as ev
from kolrami.engine.binder import Rules
from kolrami.engine.chance import Dice
from kolrami.engine.eventlog import EventLog
from kolrami.engine.geometry import Trail
from kolrami.engine.geometry import advance
from kolrami.engine.orders import Decision
from kolrami.engine.step import Step
from kolrami.errors import InvalidInputError
from kolrami.fleet.legality import PLAY_BLOCKING
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import member_cards
from kolrami.scenarios.models import Movement
from kolrami.scenarios.models import Scenario

SIDES: Final[tuple[str, ...]] = ("A", "B")
T = TypeVar("T")
P = ParamSpec("P")


def other(side: str) -> str:
    """The opposing side."""
    return "B" if side == "A" else "A"


@dataclass(slots=True, eq=False, init=False)
class Lock:
    """A declared target and the weapons still waiting to fire at it (the rules say when)."""

    target: str
    arc: Arc
    pending: list[WeaponKind]
    reaction_to: str | None  # reaction fire: only while this squadron moves

    # (its own __init__: compiled, a dataclass's generated one runs as plain Python, and fire
    # declarations build dozens of locks a battle)
    def __init__(
        self, target: str, arc: Arc, pending: list[WeaponKind], reaction_to: str | None = None
    ) -> None:
        self.target = target
        self.arc = arc
        self.pending = pending
        self.reaction_to = reaction_to


class ClassFacts:
    """What the rules read of a ship class again and again, as plain attributes (a catalog
    model's fields and properties are several times slower to read, from compiled code most of
    all): one for each class, by its identity (`facts`)."""

    __slots__ = ("bearing", "by_face", "cls", "printed", "stationary")

    def __init__(self, cls: ShipClass) -> None:
        self.cls = cls  # held: no other object can take its id while the entry stands
        self.stationary: bool = cls.stationary
        self.bearing: dict[Arc, tuple[WeaponKind, ...]] = cls.bearing
        self.by_face: dict[int, Location] = cls.hit_locations.by_face
        #: each weapon kind's printed mounts (working shots), in the sheet's order
        self.printed: tuple[tuple[WeaponKind, tuple[int, ...]], ...] = tuple(
            (kind, weapon.mounts) for kind, weapon in cls.weapons()
        )


#: `facts` of each ship class met so far, by the class's identity
_FACTS: Final[dict[int, ClassFacts]] = {}


def facts(cls: ShipClass) -> ClassFacts:
    """The plain facts of a ship class (`ClassFacts`), worked out once for each class."""
    found = _FACTS.get(id(cls))
    if found is None:
        found = _FACTS[id(cls)] = ClassFacts(cls)
    return found


# A builtin such as sum() or any(), called from compiled code, is looked up in the builtins
# module at every call and called as a Python object; these loops over a mount tuple run
# natively, and give the same ints and truth values.


def working_shots(mounts: tuple[int, ...]) -> int:
    """`sum(mounts)`: the working shots of some mounts (knocked-out mounts count 0)."""
    total = 0
    for shots in mounts:
        total += shots
    return total


def any_working(mounts: tuple[int, ...]) -> bool:
    """`any(mounts)`: whether any of some mounts has a working shot."""
    for shots in mounts:  # noqa: SIM110 - a builtin call costs more, compiled (above)
        if shots:
            return True
    return False


def weapons_bearing(
    cls: ShipClass, mounts: dict[WeaponKind, tuple[int, ...]], arc: Arc
) -> list[WeaponKind]:
    """Weapon kinds with working shots (`mounts`) of a ship of class `cls` that fire into `arc`:
    what `ShipState.bears` and a view's `ShipView.bears` both answer."""
    return bearing_of(facts(cls), mounts, arc)


def bearing_of(
    known: ClassFacts, mounts: dict[WeaponKind, tuple[int, ...]], arc: Arc
) -> list[WeaponKind]:
    """`weapons_bearing` of a class whose facts are `known`."""
    # (a loop: in Python 3.11 a comprehension is a call of its own, and this one is hot)
    out = []
    for k in known.bearing[arc]:
        if any_working(mounts[k]):
            out.append(k)
    return out


def all_out(mounts: dict[WeaponKind, tuple[int, ...]]) -> bool:
    """Every weapon out of action (`detoothed`, for a ship and for its snapshot)."""
    for shots in mounts.values():  # noqa: SIM110 - quicker than any(map(any, ...))
        if any_working(shots):
            return False
    return True


@dataclass(slots=True, eq=False, init=False)
class ShipState:
    """One ship in battle. Captains read it; only the engine writes it. (What can be read off
    its numbers, `bears` and the rest, a view's snapshot of it, kolrami.engine.view.ShipView,
    answers the same way through the same functions.)"""

    # <generated by scripts/gen_ship_fields.py: ship-state-fields>
    id: str
    side: str
    cls: ShipClass
    squadron: str
    index: int  # position in the battle's ship order, for stable sorting
    x: float
    y: float
    heading: int
    speed: int  # this turn's speed once moved; last turn's until then
    last_speed: int
    superstructure: int
    shields: int
    engine_power: int
    systems: int
    #: working shots of each mount, by weapon kind: tuples, replaced whole when one changes
    #: (`Battle.set_mounts`), so a view's snapshot can share them
    mounts: dict[WeaponKind, tuple[int, ...]]
    # Kept through the properties below, which keep `alive` and `on_table` up to date: those two
    # are read thousands of times a battle, these three written a few times.
    _destroyed: bool = False
    _derelict: bool = False
    _out_of_play: bool = False
    #: in play and able to act or be targeted (not destroyed, derelict or reset)
    alive: bool = field(default=True, init=False)
    #: a model on the table: alive ships and derelicts; not destroyed or reset ships
    on_table: bool = field(default=True, init=False)
    tokens: int = 0  # tokens a scenario's rules give it (Critical Hit Tokens)
    cards: list[str] = field(default_factory=list)  # the cards on the ship now
    start_cards: tuple[str, ...] = ()  # the cards it began the battle with
    points: int = 0  # Total SP: ship value plus cards
    # The ship's own values as the battle began: the sheet's, changed by cards for good. Repairs
    # restore these, a reset returns to them.
    max_shields: int = 0
    max_engine: int = 0
    max_systems: int = 0
    damage_control: int = 0
    strength: dict[WeaponKind, int] = field(default_factory=dict)
    ranges: dict[WeaponKind, int] = field(default_factory=dict)
    evasion: int = 0  # shots at it need this much more on the d10 (card effects)
    detached: bool = False  # flies on its own, out of its squadron's formation
    in_control: bool = True
    fired: bool = False  # used its volley this turn (declared fire or reaction)
    moved: bool = False
    lock: Lock | None = None
    #: `facts(cls)`, kept once asked (`class_facts`): looking it up costs an id() and a dict
    known: ClassFacts | None = field(default=None, init=False)
    # </generated>

    # (its own __init__, the dataclass's signature: compiled, a dataclass's generated one runs
    # as plain Python, and is called with a dict of the keywords)
    # <generated by scripts/gen_ship_fields.py: ship-state-init>
    def __init__(
        self,
        id: str,
        side: str,
        cls: ShipClass,
        squadron: str,
        index: int,
        x: float,
        y: float,
        heading: int,
        speed: int,
        last_speed: int,
        superstructure: int,
        shields: int,
        engine_power: int,
        systems: int,
        mounts: dict[WeaponKind, tuple[int, ...]],
        _destroyed: bool = False,
        _derelict: bool = False,
        _out_of_play: bool = False,
        tokens: int = 0,
        cards: list[str] | None = None,
        start_cards: tuple[str, ...] = (),
        points: int = 0,
        max_shields: int = 0,
        max_engine: int = 0,
        max_systems: int = 0,
        damage_control: int = 0,
        strength: dict[WeaponKind, int] | None = None,
        ranges: dict[WeaponKind, int] | None = None,
        evasion: int = 0,
        detached: bool = False,
        in_control: bool = True,
        fired: bool = False,
        moved: bool = False,
        lock: Lock | None = None,
    ) -> None:
        self.id = id
        self.side = side
        self.cls = cls
        self.squadron = squadron
        self.index = index
        self.x = x
        self.y = y
        self.heading = heading
        self.speed = speed
        self.last_speed = last_speed
        self.superstructure = superstructure
        self.shields = shields
        self.engine_power = engine_power
        self.systems = systems
        self.mounts = mounts
        self._destroyed = _destroyed
        self._derelict = _derelict
        self._out_of_play = _out_of_play
        self.alive = True
        self.on_table = True
        self.tokens = tokens
        self.cards = [] if cards is None else cards
        self.start_cards = start_cards
        self.points = points
        self.max_shields = max_shields
        self.max_engine = max_engine
        self.max_systems = max_systems
        self.damage_control = damage_control
        self.strength = {} if strength is None else strength
        self.ranges = {} if ranges is None else ranges
        self.evasion = evasion
        self.detached = detached
        self.in_control = in_control
        self.fired = fired
        self.moved = moved
        self.lock = lock
        self.known = None

    # </generated>

    def class_facts(self) -> ClassFacts:
        """`facts(self.cls)`: what the rules read of the ship's class, kept after the first time."""
        known = self.known
        if known is None:
            known = self.known = facts(self.cls)
        return known

    def shots(self, kind: WeaponKind) -> int:
        """Working shots of a weapon kind now (knocked-out mounts count 0)."""
        return working_shots(self.mounts[kind])

    def bears(self, arc: Arc) -> list[WeaponKind]:
        """Weapon kinds with working shots that fire into `arc`."""
        return bearing_of(self.class_facts(), self.mounts, arc)

    def range_of(self, kind: WeaponKind) -> int:
        """Range of a weapon kind in cm (0 when the sheet has none)."""
        return self.ranges.get(kind, 0)

    def armed_arcs(self) -> list[Arc]:
        """Arcs into which a working weapon bears."""
        return [a for a in Arc if self.bears(a)]

    @property
    def detoothed(self) -> bool:
        """Every weapon out of action."""
        return all_out(self.mounts)

    @property
    def toast(self) -> bool:
        """Shields at or below half their printed value (for display)."""
        return self.shields * 2 <= self.max_shields

    # <generated by scripts/gen_ship_fields.py: ship-state-copy>
    def copy(self) -> ShipState:
        """An independent copy: its own mounts, cards and lock; the same ship class."""
        # Field by field: copy.copy of a slotted dataclass reconstructs it through setattr by
        # name, five times as slow (and a compiled one cannot be), and a search clones the
        # battle thousands of times.
        other = ShipState(
            self.id,
            self.side,
            self.cls,
            self.squadron,
            self.index,
            self.x,
            self.y,
            self.heading,
            self.speed,
            self.last_speed,
            self.superstructure,
            self.shields,
            self.engine_power,
            self.systems,
            self.mounts.copy(),
        )
        other._destroyed = self._destroyed
        other._derelict = self._derelict
        other._out_of_play = self._out_of_play
        other.alive = self.alive
        other.on_table = self.on_table
        other.tokens = self.tokens
        other.cards = self.cards.copy()
        other.start_cards = self.start_cards
        other.points = self.points
        other.max_shields = self.max_shields
        other.max_engine = self.max_engine
        other.max_systems = self.max_systems
        other.damage_control = self.damage_control
        other.strength = self.strength.copy()
        other.ranges = self.ranges.copy()
        other.evasion = self.evasion
        other.detached = self.detached
        other.in_control = self.in_control
        other.fired = self.fired
        other.moved = self.moved
        other.known = self.known
        other.lock = None
        lock = self.lock
        if lock is not None:
            other.lock = Lock(lock.target, lock.arc, list(lock.pending), lock.reaction_to)
        return other

    # </generated>

    def _settle(self) -> None:
        self.on_table = not self._destroyed and not self._out_of_play
        self.alive = self.on_table and not self._derelict

    @property
    def destroyed(self) -> bool:
        """Removed from play for good."""
        return self._destroyed

    @destroyed.setter
    def destroyed(self, value: bool) -> None:
        self._destroyed = value
        self._settle()

    @property
    def derelict(self) -> bool:
        """Left on the table as a wreck."""
        return self._derelict

    @derelict.setter
    def derelict(self, value: bool) -> None:
        self._derelict = value
        self._settle()

    @property
    def out_of_play(self) -> bool:
        """Reset and waiting to return to play."""
        return self._out_of_play

    @out_of_play.setter
    def out_of_play(self, value: bool) -> None:
        self._out_of_play = value
        self._settle()


@dataclass(slots=True, eq=False, init=False)
class SquadronState:
    """A squadron: its ships in formation order (leader first) and the leader's trail."""

    id: str
    side: str
    ships: list[str]  # every member, in fleet order
    formation: list[str]  # members flying in formation, leader first
    offsets: dict[str, float]  # cm behind the leader along the trail
    trail: Trail
    activated: bool = False
    fired: bool = False
    #: it made a micro warp jump this turn: photons only, its reaction fire included
    jumped: bool = False

    # (its own __init__, as ShipState's)
    def __init__(
        self,
        id: str,
        side: str,
        ships: list[str],
        formation: list[str],
        offsets: dict[str, float],
        trail: Trail,
        activated: bool = False,
        fired: bool = False,
        jumped: bool = False,
    ) -> None:
        self.id = id
        self.side = side
        self.ships = ships
        self.formation = formation
        self.offsets = offsets
        self.trail = trail
        self.activated = activated
        self.fired = fired
        self.jumped = jumped

    def copy(self) -> SquadronState:
        """An independent copy, trail included."""
        return SquadronState(
            self.id,
            self.side,
            list(self.ships),
            list(self.formation),
            dict(self.offsets),
            self.trail.copy(),
            self.activated,
            self.fired,
            self.jumped,
        )

    @property
    def leader(self) -> str | None:
        """The formation leader, if the formation has anyone left."""
        return self.formation[0] if self.formation else None


@dataclass(slots=True)
class Stats:
    """Counters for benchmarks and reports."""

    activations: int = 0
    volleys: int = 0
    shots: int = 0
    candidates: int = 0  # manoeuvres the captains evaluated


@dataclass(slots=True)
class Result:
    """How the battle ended."""

    winner: str | None
    reason: str
    turns: int
    destroyed_value: dict[str, int]


class Battle:
    """The full state of one battle, its rules, its dice and its log."""

    def __init__(
        self,
        scenario: Scenario,
        fleets: tuple[Fleet, Fleet],
        seed: int,
        rules: Rules,
        rules_version: str,
        captains: tuple[str, str] = ("", ""),
        pack: ShipPack | None = None,
        copy_of: Battle | None = None,
    ) -> None:
        if copy_of is not None:  # `clone`: a copy of that battle's state, nothing set up
            self._copy(copy_of)
            return
        self.scenario = scenario
        #: the table's size and a base's radius, as plain numbers: movement reads them at every
        #: step, and a (pydantic) scenario's fields are several times slower to read
        self.table_width_cm: float = scenario.table_width_cm
        self.table_height_cm: float = scenario.table_height_cm
        self.base_radius_cm: float = scenario.base_radius_cm
        self.formation_spacing_cm: float = scenario.formation_spacing_cm
        self.pack = pack or builtin_pack()
        for side, fleet in zip(SIDES, fleets, strict=True):
            _check_playable(fleet, side, self.pack)
        self.fleets = fleets
        self.seed = seed
        self.dice = Dice(seed)
        self.rules = rules
        self.rules_version = rules_version
        self.log = EventLog()
        self.stats = Stats()
        self.turn = 0
        self.result: Result | None = None
        self.ships: dict[str, ShipState] = {}
        #: `ships.values()` as a list, in the same order (set with `ships` at deployment and in a
        #: clone; the hot loops walk it: a list is walked natively, a dict's values are not)
        self.all_ships: list[ShipState] = []
        self.squadrons: dict[str, SquadronState] = {}
        self.moving: str | None = None  # squadron now moving (for reaction fire)
        self.locked: list[ShipState] = []  # ships with weapons locked and not yet fired
        #: who sees what, when the rules hide ships (cloaks); None: everyone sees everything
        self.sight: Callable[[str, ShipState], bool] | None = None
        #: terrain that blocks movement and fire (planets)
        self.blockers = tuple(t for t in scenario.terrain if t.kind == "planet")
        #: card effects' bookkeeping: re-rolls left this turn, uses of once-a-battle cards
        self.rerolls_left: dict[str, int] = {}
        self.card_uses: dict[tuple[str, str], int] = {}
        #: (ship, card, its effect's hook): rules/cards.py
        self.cards_in_play: list[tuple[ShipState, Card, str]] | None = None
        #: Fleet Points so far, for scenarios that score them
        self.fleet_points = dict.fromkeys(SIDES, 0)
        self.resource_scored = dict.fromkeys(SIDES, False)
        #: cards each ship lost for good: discarded or taken by an opponent
        self.lost_cards: dict[str, set[str]] = {}
        self.activation_order: list[str] = []
        #: state that rule packages keep of their own, each under its own key
        self.extensions: dict[str, Any] = {}
        #: the turn as a state machine (kolrami.engine.driver): the steps left to do, the next
        #: one last; the decision the battle waits on and the step that asked it
        self.agenda: list[Step[Battle]] = []
        self.pending: Decision | None = None
        self.asking: Step[Battle] | None = None
        #: a rollout's horizon: the battle halts, asking nothing, before it would begin the turn
        #: after this one (None: it plays to its end)
        self.horizon: int | None = None
        self.header: dict[str, Any] = {
            "kolrami": __version__,
            "rules_version": rules_version,
            "data_version": self.pack.data_version,
            "seed": seed,
            "scenario": _dump(scenario),
            "rules": self.rules.names,
            "fleets": [_dump(f) for f in fleets],
            "captains": list(captains),
            "log_format": ev.LOG_FORMAT,
        }
        self.note(ev.BattleStarted, self.header)
        self._deploy()
        self.all_ships = list(self.ships.values())

    # --- set-up ----------------------------------------------------------------------------------

    def _deploy(self) -> None:
        """Standard set-up: side A along the near edge heading 0, B along the far edge heading 3.

        Squadrons are spread evenly along the edge, in the middle of their deployment zone;
        wingmen line up behind their leader. Where everyone goes is worked out once for each
        scenario, pair of fleets and pack (`_deployment`); each battle places its own ships.
        """
        sc = self.scenario
        plan = _DEPLOYMENTS.get((sc, *self.fleets, self.pack), self._deployment)
        individual = sc.movement is Movement.INDIVIDUAL
        start_speed = sc.start_speed_cm  # (a scenario's and a class's fields: slow reads)
        for sq_id, side, (lx, ly, heading, length), members in plan:
            ids = []
            offsets = {}
            for sid, cls, (px, py, ph), offset, cards, points, sheet, weapons in members:
                superstructure, shields, engine_power, systems, damage_control = sheet
                mounts, power, reach = weapons
                # a fixed base stands still from the start (docs/rules.md, Bases in FPF)
                speed = 0 if cls.stationary else start_speed
                self.ships[sid] = ShipState(
                    id=sid,
                    side=side,
                    cls=cls,
                    squadron=sq_id,
                    index=len(self.ships),
                    x=px,
                    y=py,
                    heading=ph,
                    speed=speed,
                    last_speed=speed,
                    superstructure=superstructure,
                    shields=shields,
                    engine_power=engine_power,
                    systems=systems,
                    mounts=mounts.copy(),
                    cards=list(cards),
                    start_cards=cards,
                    points=points,
                    max_shields=shields,
                    max_engine=engine_power,
                    max_systems=systems,
                    damage_control=damage_control,
                    strength=power.copy(),
                    ranges=reach.copy(),
                    detached=individual,
                )
                ids.append(sid)
                offsets[sid] = offset
                x3, y3 = round(px, 3), round(py, 3)
                self.note(ev.ShipPlaced, sid, cls.id, side, sq_id, x3, y3, ph, points)
            self.squadrons[sq_id] = SquadronState(
                id=sq_id,
                side=side,
                ships=ids,
                formation=[] if individual else list(ids),
                offsets={} if individual else offsets,
                trail=Trail(lx, ly, heading, length),
            )

    def _deployment(self) -> list[_SquadronPlan]:
        """Where `_deploy` puts every squadron and ship of this scenario, fleets and pack."""
        sc = self.scenario
        out = []
        for side, fleet in zip(SIDES, self.fleets, strict=True):
            heading = 0 if side == "A" else 3  # facing the enemy's edge
            squadrons = fleet.squadrons()
            n = len(squadrons)
            count = 0  # ships of this side placed so far: ids run A1, A2 ...
            for k, (number, members) in enumerate(squadrons.items()):
                sq_id = f"{side}S{number}"
                x = sc.table_width_cm * (k + 1) / (n + 1)
                zone_mid = sc.deployment_depth_cm / 2
                y = zone_mid if side == "A" else sc.table_height_cm - zone_mid
                # the column is centred on its zone: leader ahead, wingmen behind
                back = sc.formation_spacing_cm * (len(members) - 1)
                lx, ly = advance(x, y, heading, back / 2)
                length = back + sc.formation_spacing_cm * 4
                trail = Trail(lx, ly, heading, length)
                ships: list[_ShipPlan] = []
                for i, member in enumerate(members):
                    count += 1
                    cls = self.pack.get(member.id)
                    mounts = {k: w.mounts for k, w in cls.weapons()}
                    for kind in WeaponKind:
                        mounts.setdefault(kind, ())
                    strength = {k: w.strength for k, w in cls.weapons()}
                    reach = {k: w.range_cm for k, w in cls.weapons()}
                    cards = tuple(member_cards(member))
                    # Total SP: ship value plus its cards, what a kill scores
                    points = cls.value + sum(card_cost(c) for c in cards)
                    sheet = (
                        cls.superstructure,
                        cls.shields,
                        cls.engine_power,
                        cls.computer,
                        cls.damage_control,
                    )
                    place = trail.point_at(i * sc.formation_spacing_cm)
                    offset = i * sc.formation_spacing_cm
                    ships.append(
                        (
                            f"{side}{count}",
                            cls,
                            place,
                            offset,
                            cards,
                            points,
                            sheet,
                            (mounts, strength, reach),
                        )
                    )
                out.append((sq_id, side, (lx, ly, heading, length), ships))
        return out

    # --- queries ------------------------------------------------------------------------------

    def side_ships(self, side: str) -> list[ShipState]:
        """Ships of a side still alive."""
        out = []
        for s in self.all_ships:
            if s.side == side and s.alive:
                out.append(s)
        return out

    def side_squadrons(self, side: str) -> list[SquadronState]:
        """Squadrons of a side with a ship still alive."""
        ships = self.ships
        out = []
        for q in self.squadrons.values():
            if q.side == side:
                for s in q.ships:
                    if ships[s].alive:
                        out.append(q)
                        break
        return out

    def visible(self, side: str, ship: ShipState) -> bool:
        """Whether `side` can see `ship`: always, unless the rules set `sight` (cloaks hide
        ships)."""
        return self.sight is None or ship.side == side or self.sight(side, ship)

    # --- movement -----------------------------------------------------------------------------

    # --- fire ---------------------------------------------------------------------------------

    def record(self, change: ev.Change[Battle]) -> None:
        """The one door for a change to a ship's numbers: apply the change, then log it. The
        rules build the change with the values after it (type-checked by the event's fields),
        so the log holds exactly what the battle became."""
        change.apply(self)
        self.log.add(change)

    def note(self, cls: Callable[P, ev.Event], *values: P.args, **named: P.kwargs) -> None:
        """Log a fact: an event that changes nothing (a volley rolled, a ship stopped short,
        a turn begun), given with every one of its field values in field order. A change of
        the battle goes through `record` or `change`, never here (tests/conformance/
        test_one_door.py)."""
        if named:
            raise TypeError("events are logged with their field values in order")
        self.log.append(cls, values)

    def change(
        self, cls: Callable[P, ev.Change[Battle]], *values: P.args, **named: P.kwargs
    ) -> None:
        """`record(cls(*values))` for a change given with every one of its field values, in
        field order: the log keeps them as given, and need not read them back off the event
        (a dozen attribute reads on the path of every hit)."""
        if named:
            raise TypeError("changes are given with their field values in order")
        # (the values as the one tuple they came in: compiled, a call with `*values` and
        # `**named` both spelled out copies them into a new list and dict first)
        kind = cast("type[ev.Change[Battle]]", cls)
        kind.apply_values(self, values)
        self.log.append(cls, values)

    def set_control(self, ship: ShipState, in_control: bool) -> None:
        """A ship loses or regains control; it leaves its formation when lost."""
        self.record(ev.ControlChanged(ship.id, in_control))
        if not in_control:
            self.leave_formation(ship)

    def leave_formation(self, ship: ShipState) -> None:
        """Take a ship out of its squadron's formation; a new leader takes over if needed."""
        if ship.id in self.squadrons[ship.squadron].formation:
            self.record(ev.FormationLeft(ship.id, ship.squadron))

    def set_mounts(self, ship: ShipState, kind: WeaponKind, mounts: Sequence[int]) -> None:
        """The working shots of a ship's mounts of one weapon kind change (damage, repair)."""
        ship.mounts[kind] = tuple(mounts)

    def discard_card(self, ship: ShipState, card: str) -> None:
        """A ship discards one of its cards; it is gone for the battle."""
        ship.cards.remove(card)
        self.lost_cards.setdefault(ship.id, set()).add(card)

    def take_card(self, thief: ShipState, victim: ShipState, card: str) -> None:
        """A card stolen or assimilated: it moves from the victim to the thief for good."""
        victim.cards.remove(card)
        self.lost_cards.setdefault(victim.id, set()).add(card)
        thief.cards.append(card)

    def remove(self, ship: ShipState, by: ShipState | None, derelict: bool) -> None:
        """Take a destroyed ship out of play, or leave it on the table as a derelict."""
        self.record(ev.ShipDestroyed(ship.id, by.id if by else "", derelict))
        self.leave_formation(ship)

    # --- end ----------------------------------------------------------------------------------

    def destroyed_value(self) -> dict[str, int]:
        """Points of each side's fleet destroyed so far (keyed by the side that lost them): each
        ship's Total SP, its class value and its cards, what the fleet paid for it."""
        out = dict.fromkeys(SIDES, 0)
        for s in self.ships.values():
            if s.destroyed or s.derelict:
                out[s.side] += s.points
        return out

    def over(self) -> bool:
        """Whether the battle has ended before its turn limit (the rules decide how)."""
        return self.result is not None or self.rules.battle_over(self)

    def finish(self) -> Result:
        """Record the result (once)."""
        if self.result is None:
            winner, reason = self.rules.result(self)
            self.result = Result(winner, reason, self.turn, self.destroyed_value())
            self.note(ev.BattleEnded, winner, reason, self.turn, self.result.destroyed_value)
        return self.result

    def clone(self, dice: Dice) -> Battle:
        """A copy of the battle to try things on, with `dice` as its chance: a search's own
        generator, never the battle's future rolls. Ships, squadrons, the log and
        every rule package's state are the copy's own; the frozen definitions (scenario, fleets,
        ship classes, pack) and the bound rules are shared. The copy waits on the same decision
        (`pending`) with the same steps ahead: `kolrami.engine.driver.apply` plays it on."""
        other = Battle(
            self.scenario, self.fleets, self.seed, self.rules, self.rules_version, copy_of=self
        )
        other.dice = dice
        other.log = self.log.copy()
        st = self.stats
        other.stats = Stats(st.activations, st.volleys, st.shots, st.candidates)
        ships = {sid: ship.copy() for sid, ship in self.ships.items()}
        other.ships = ships
        other.all_ships = list(ships.values())
        other.squadrons = {qid: q.copy() for qid, q in self.squadrons.items()}
        other.locked = [ships[s.id] for s in self.locked]
        other.rerolls_left = dict(self.rerolls_left)
        other.card_uses = dict(self.card_uses)
        if self.cards_in_play is not None:
            other.cards_in_play = [(ships[s.id], c, hook) for s, c, hook in self.cards_in_play]
        other.fleet_points = dict(self.fleet_points)
        other.resource_scored = dict(self.resource_scored)
        other.lost_cards = {sid: set(cards) for sid, cards in self.lost_cards.items()}
        other.activation_order = list(self.activation_order)
        # the rule packages' own state, deep: it may refer to ships and to itself (a bound
        # `sight` follows it), never to the frozen definitions, which stay shared
        memo: dict[int, Any] = {id(self): other, id(self.rules): self.rules}
        memo.update((id(s), ships[s.id]) for s in self.ships.values())
        for obj in (self.scenario, self.fleets, self.pack, *self.scenario.terrain):
            memo[id(obj)] = obj
        other.extensions = copy.deepcopy(self.extensions, memo)
        other.sight = copy.deepcopy(self.sight, memo)
        # the continuation: steps are values, shared; the list is the copy's own
        other.agenda = list(self.agenda)
        return other

    def reseed(self, seed: int) -> None:
        """A copy's seed made `seed`: its own seed, header and log's opening say it, so nothing
        in the copy holds the seed of the battle it was cloned from, from which that battle's
        future rolls could be derived (a rebuild from its header replaying its orders: the view's
        `sample`). Its dice are the copy's own already (`clone`)."""
        self.seed = seed
        self.header = {**self.header, "seed": seed}
        self.log.reopen(ev.BattleStarted, (self.header,))

    def then(self, *steps: Step[Battle]) -> None:
        """Put `steps` on the agenda to run next, in the order given (kolrami.engine.driver)."""
        agenda = self.agenda
        i = len(steps) - 1
        while i >= 0:
            agenda.append(steps[i])
            i -= 1

    # <generated by scripts/gen_ship_fields.py: battle-copy>
    def _copy(self, source: Battle) -> None:
        """Every attribute as `source` has it, shared (`clone` replaces the ones a
        copy must have of its own). Written out: a compiled Battle has no instance
        dict to copy; the list is the attributes `__init__` gives (written out by
        scripts/gen_ship_fields.py)."""
        self.scenario = source.scenario
        self.table_width_cm = source.table_width_cm
        self.table_height_cm = source.table_height_cm
        self.base_radius_cm = source.base_radius_cm
        self.formation_spacing_cm = source.formation_spacing_cm
        self.pack = source.pack
        self.fleets = source.fleets
        self.seed = source.seed
        self.dice = source.dice
        self.rules = source.rules
        self.rules_version = source.rules_version
        self.log = source.log
        self.stats = source.stats
        self.turn = source.turn
        self.result = source.result
        self.ships = source.ships
        self.all_ships = source.all_ships
        self.squadrons = source.squadrons
        self.moving = source.moving
        self.locked = source.locked
        self.sight = source.sight
        self.blockers = source.blockers
        self.rerolls_left = source.rerolls_left
        self.card_uses = source.card_uses
        self.cards_in_play = source.cards_in_play
        self.fleet_points = source.fleet_points
        self.resource_scored = source.resource_scored
        self.lost_cards = source.lost_cards
        self.activation_order = source.activation_order
        self.extensions = source.extensions
        self.agenda = source.agenda
        self.pending = source.pending
        self.asking = source.asking
        self.horizon = source.horizon
        self.header = source.header

    # </generated>

    def events(self) -> Iterator[ev.Event]:
        """The battle's events, built on demand."""
        return iter(self.log)


class _ByIdentity(Generic[T]):
    """Results worked out once per object (or objects) and kept by identity: sweeps and
    tournaments play the same frozen scenario and fleet objects again and again. An entry holds
    its objects, so their ids cannot pass to others while it stands; at most `size` entries."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._known: dict[tuple[int, ...], tuple[tuple[object, ...], T]] = {}

    def get(self, objects: tuple[object, ...], make: Callable[[], T]) -> T:
        """The result for `objects`: the kept one, or `make()` (kept unless it raises)."""
        key = tuple(map(id, objects))
        known = self._known.get(key)
        if known is not None:
            return known[1]
        value = make()
        if len(self._known) >= self.size:
            self._known.clear()
        self._known[key] = (objects, value)
        return value


#: One ship of a deployment: its id, class, place (x, y, heading), offset behind its leader,
#: cards, Total SP, sheet values (superstructure, shields, engine power, systems, damage
#: control) and weapons (mounts, strength and range by kind: templates, copied for each battle).
_ShipPlan = tuple[
    str,
    ShipClass,
    tuple[float, float, int],
    float,
    tuple[str, ...],
    int,
    tuple[int, int, int, int, int],
    tuple[dict[WeaponKind, tuple[int, ...]], dict[WeaponKind, int], dict[WeaponKind, int]],
]
#: One squadron of a deployment: its id, side, trail (x, y, heading, length) and ships.
_SquadronPlan = tuple[str, str, tuple[float, float, int, float], list[_ShipPlan]]

_PLAYABLE: Final[_ByIdentity[None]] = _ByIdentity()  # (fleet, pack) pairs already checked
#: deployments by (scenario, fleet A, fleet B, pack): worked out once, placed by every battle
_DEPLOYMENTS: Final[_ByIdentity[list[_SquadronPlan]]] = _ByIdentity()
_DUMPS: Final[_ByIdentity[dict[str, Any]]] = _ByIdentity()  # JSON forms of scenarios and fleets


def _dump(model: Scenario | Fleet) -> dict[str, Any]:
    """The JSON form of a (frozen) scenario or fleet for a log header, made once per object.
    Headers share it: read-only."""
    return _DUMPS.get((model,), lambda: model.model_dump(mode="json"))


def _check_playable(fleet: Fleet, side: str, pack: ShipPack) -> None:
    """Refuse a fleet a battle cannot field (unknown ids, squadrons over three ...); a fleet
    found playable with a pack is not checked again."""

    def check() -> None:
        found = validate(fleet, limit=None, pack=pack).errors
        problems = [e for e in found if e.code in PLAY_BLOCKING]
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            first = problems[0]
            raise InvalidInputError(
                f"fleet {side} '{fleet.name}': {first.path}: {first.message}{more}"
            )

    _PLAYABLE.get((fleet, pack), check)
