"""The advanced game's decisions and orders, with text forms that round-trip (GUIDE 3.2).

They are the engine's GameDecision and GameOrder, so one Captain protocol answers both games;
`read_advanced` is the reader kolrami.rules.registry.parse_order hands the engine's parser.

Text forms (ship ids like A1; weapons by their index on the advanced sheet, w0 = 0):
  BONUS A1.science:shields A1.helm:aim A2.engineer:power | BONUS NONE     officer bonus rolls
  LOCK A1:B2 A2:?3 | LOCK NONE             sensor locks; ?3 searches facing 3 for a cloaked ship
  POWER A1:M6/S/W10.5.0.5.1.1[/X1][/D16.16.16.16.16.16][/R0.0.4.0.0.0][/C] ... | POWER NONE
      M hexes of movement; S shields charged (N: not); W power per weapon (beams: power,
      launchers: 1 armed / 0 not); X bonus power turned into shield points; D the six facings'
      shield points after redistribution; R reinforcement points bought per facing; C cloak
  MOVE A1 3 T+1 T0                                                       hexes, two turn points
  DECLOAK A1 A2 | DECLOAK NONE                         cloaked ships that drop the cloak to fire
  ATTACK A1:0+1>B2@impulse* A1:4>H45.60 | ATTACK NONE  weapons > target, @ aimed system, * -2
      bonus; a launcher may fire a dispersal torpedo at a point of the table, H<x>.<y> in cm;
      M<f>.<n> names mine n of the scenario's terrain feature f, a firing mine (ADV-MINE-09)
  EVADE A1:+1 | EVADE NONE                                               turn one hexside
  SHIELDS A1=16.16.10.16.16.16 | SHIELDS NONE                            end-of-phase redistribution
  TACTICS A1:tractor>B2=full A2:board>B1 A3:dock>A4 | TACTICS NONE      module adv-tactics: one
      of the options its decision lists per ship (tractor, release, escape, board, dock, undock,
      crew, destruct=warp-breach|impulse-overload|scuttle)
  LAY A1 A2 | LAY NONE                          ships that lay a mine where they are (ADV-MINE-02)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kolrami.engine.orders import GameDecision
from kolrami.engine.orders import GameOrder
from kolrami.rules.order_text import Listed
from kolrami.rules.order_text import dotted
from kolrami.rules.order_text import groups
from kolrami.rules.order_text import listed
from kolrami.rules.order_text import signed
from kolrami.rules.order_text import whole


def _non_negative(name: str, values: tuple[int, ...]) -> None:
    if any(v < 0 for v in values):
        raise ValueError(f"{name} values are 0 or more, not {values}")


# --- decisions ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShipsDecision(GameDecision):
    """A decision of `side` for each of its `ships`, once a game turn (each kind says what)."""

    side: str
    ships: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PhaseDecision(GameDecision):
    """A decision of `side` for each of its `ships` in phase `phase` (each kind says what)."""

    side: str
    phase: int
    ships: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BonusDecision(ShipsDecision):
    """`side` chooses each officer's bonus roll for `ships` (ADV-OFF-03)."""


@dataclass(frozen=True, slots=True)
class LockDecision(ShipsDecision):
    """`side` names a sensor-lock target for each of `ships` (ADV-SENS-01)."""


@dataclass(frozen=True, slots=True)
class PowerDecision(ShipsDecision):
    """`side` allocates the power of `ships` for the game turn (ADV-POW, ADV-SHLD)."""


@dataclass(frozen=True, slots=True)
class MoveDecision(GameDecision):
    """`side` moves `ship` up to `hexes` hexes in movement phase `phase` (ADV-SEQ-03)."""

    side: str
    ship: str
    hexes: int
    phase: int
    #: no impulse: the move is straight ahead on warp, no turns (ADV-IMP-02, module adv-tactics)
    straight: bool = False


@dataclass(frozen=True, slots=True)
class DecloakDecision(PhaseDecision):
    """`side` may have its cloaked `ships` drop the cloak for phase `phase`'s fire
    (ADV-CLOAK-01)."""


@dataclass(frozen=True, slots=True)
class AttackDecision(PhaseDecision):
    """`side` declares the fire of `ships` in firing phase `phase` (ADV-FIRE)."""


@dataclass(frozen=True, slots=True)
class EvadeDecision(PhaseDecision):
    """`side` may have `ships`, targeted by torpedoes, evade instead of firing (ADV-EVA)."""


@dataclass(frozen=True, slots=True)
class ShieldDecision(PhaseDecision):
    """`side` may redistribute the shields of `ships` after firing phase `phase` (ADV-SEQ-05)."""


@dataclass(frozen=True, slots=True)
class TacticsDecision(PhaseDecision):
    """`side` may give each of `ships` one of its listed `options` after phase `phase`'s
    movement: tractor beams, transporters, docking, self-destruct (module adv-tactics)."""

    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LayDecision(PhaseDecision):
    """`side` may have `ships` lay a mine each where they stand in phase `phase`; asked only
    where a scenario lets mines be laid (ADV-MINE-02, module adv-terrain)."""


AdvancedDecision = (
    TacticsDecision
    | BonusDecision
    | LockDecision
    | PowerDecision
    | MoveDecision
    | DecloakDecision
    | AttackDecision
    | EvadeDecision
    | ShieldDecision
    | LayDecision
)


# --- orders -------------------------------------------------------------------------------------


def search_facing(target: str) -> int | None:
    """The facing a lock target `?n` searches (ADV-SENS-02), or None for a ship id."""
    if len(target) == 2 and target[0] == "?" and target[1] in "123456":
        return int(target[1])
    return None


def dispersal_point(target: str) -> tuple[int, int] | None:
    """The table point (cm) an attack target `H<x>.<y>` names (ADV-CLOAK-07), or None."""
    m = _POINT.match(target)
    return (int(m.group(1)), int(m.group(2))) if m else None


_POINT = re.compile(r"^H(\d+)\.(\d+)$")


def mine_target(target: str) -> str | None:
    """The mine key ('2.3') an attack target `M2.3` names (ADV-MINE-09), or None."""
    m = _MINE.match(target)
    return f"{m.group(1)}.{m.group(2)}" if m else None


_MINE = re.compile(r"^M(\d+)\.(\d+)$")


@dataclass(frozen=True, slots=True)
class BonusOrder(GameOrder):
    """(ship, officer, choice) for each bonus roll taken (ADV-OFF-03, ADV-OFF-04, ADV-OFF-05,
    ADV-OFF-06, ADV-OFF-07, ADV-OFF-08, ADV-OFF-09, ADV-OFF-10, ADV-OFF-11)."""

    choices: tuple[tuple[str, str, str], ...] = ()

    def __str__(self) -> str:
        return listed("BONUS", (f"{s}.{r}:{c}" for s, r, c in self.choices))


@dataclass(frozen=True, slots=True)
class LockOrder(GameOrder):
    """(ship, target) for each sensor lock tried or kept (ADV-SENS-01, ADV-SENS-04); a target `?n`
    searches the ship's facing n for a cloaked ship (ADV-SENS-02)."""

    locks: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for _, target in self.locks:
            if target.startswith("?") and search_facing(target) is None:
                raise ValueError(f"a search names a facing 1-6, like ?3, not '{target}'")

    def __str__(self) -> str:
        return listed("LOCK", (f"{s}:{t}" for s, t in self.locks))


@dataclass(frozen=True, slots=True)
class PowerPlan:
    """One ship's power for the game turn."""

    ship: str
    move: int
    shields: bool
    weapons: tuple[int, ...]
    extra: int = 0  # bonus power turned into shield points (ADV-SHLD-02, ADV-SHLD-03)
    dist: tuple[int, ...] | None = None  # the facings' points after redistribution
    reinforce: tuple[int, ...] | None = None  # reinforcement bought per facing (ADV-SHLD-05)
    cloak: bool = False  # the cloak engaged for the turn (module adv-cloak)

    def __post_init__(self) -> None:
        _non_negative("power", (self.move, self.extra, *self.weapons))
        for name, values in (("D", self.dist), ("R", self.reinforce)):
            if values is not None:
                if not values:
                    raise ValueError(f"{name} lists at least one facing, or is left out")
                _non_negative(name, values)

    def __str__(self) -> str:
        parts = [f"M{self.move}", "S" if self.shields else "N", f"W{dotted(self.weapons)}"]
        if self.extra:
            parts.append(f"X{self.extra}")
        if self.dist is not None:
            parts.append(f"D{dotted(self.dist)}")
        if self.reinforce is not None:
            parts.append(f"R{dotted(self.reinforce)}")
        if self.cloak:
            parts.append("C")
        return f"{self.ship}:" + "/".join(parts)


@dataclass(frozen=True, slots=True)
class PowerOrder(GameOrder):
    """Power plans, one per ship (ships left out allocate nothing)."""

    plans: tuple[PowerPlan, ...] = ()

    def __str__(self) -> str:
        return listed("POWER", (str(p) for p in self.plans))

    def plan_of(self, ship: str) -> PowerPlan | None:
        """The plan given for `ship`."""
        for p in self.plans:
            if p.ship == ship:
                return p
        return None


@dataclass(frozen=True, slots=True)
class MoveOrder(GameOrder):
    """A ship's move in one movement phase: hexes, then a turn at the start and at the middle."""

    ship: str
    hexes: int
    turn1: int = 0
    turn2: int = 0

    def __post_init__(self) -> None:
        _non_negative("hexes", (self.hexes,))

    def __str__(self) -> str:
        return f"MOVE {self.ship} {self.hexes} T{signed(self.turn1)} T{signed(self.turn2)}"


@dataclass(frozen=True, slots=True)
class DecloakOrder(GameOrder):
    """The cloaked ships that drop their cloak to fire this phase (ADV-CLOAK-01)."""

    ships: tuple[str, ...] = ()

    def __str__(self) -> str:
        return listed("DECLOAK", self.ships)


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack: weapons (one, or a disruptor pair) of `ship` at `target`, a ship id or, for
    a dispersal torpedo hunting a cloaked ship, a point `H<x>.<y>` (ADV-CLOAK-07).

    `aim` names a system of the target: for beams an aimed lock (ADV-LOCK-01), for torpedoes
    the row the targeting subsystem shifts toward (ADV-TGT-01). `bonus` spends one of the
    helmsman's -2 bonuses on the to-hit roll (ADV-OFF-06).
    """

    ship: str
    weapons: tuple[int, ...]
    target: str
    aim: str | None = None
    bonus: bool = False

    def __post_init__(self) -> None:
        if not self.weapons:
            raise ValueError("an attack fires at least one weapon")
        _non_negative("weapon", self.weapons)
        if self.aim == "":
            raise ValueError("aim names a system, or is None")

    def __str__(self) -> str:
        aim = f"@{self.aim}" if self.aim else ""
        weapons = "+".join(str(w) for w in self.weapons)
        return f"{self.ship}:{weapons}>{self.target}{aim}{'*' if self.bonus else ''}"


@dataclass(frozen=True, slots=True)
class AttackOrder(GameOrder):
    """A side's attacks in one firing phase."""

    attacks: tuple[Attack, ...] = ()

    def __str__(self) -> str:
        return listed("ATTACK", (str(a) for a in self.attacks))


@dataclass(frozen=True, slots=True)
class EvadeOrder(GameOrder):
    """(ship, turn) for each ship that evades incoming torpedoes (ADV-EVA-01)."""

    evasions: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        return listed("EVADE", (f"{s}:{signed(t)}" for s, t in self.evasions))


@dataclass(frozen=True, slots=True)
class ShieldOrder(GameOrder):
    """(ship, the six facings' points) for each redistribution tried (ADV-SEQ-05)."""

    plans: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def __post_init__(self) -> None:
        for _, values in self.plans:
            if not values:
                raise ValueError("a redistribution lists the facings' points")
            _non_negative("shield", values)

    def __str__(self) -> str:
        return listed("SHIELDS", (f"{s}={dotted(v)}" for s, v in self.plans))


@dataclass(frozen=True, slots=True)
class TacticsOrder(GameOrder):
    """The tactical actions taken, each one of the decision's options like `A1:board>B2`."""

    actions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for action in self.actions:
            if not _ACTION.match(action):
                raise ValueError(f"'{action}' is not an action like A1:tractor>B2=full")

    def __str__(self) -> str:
        return listed("TACTICS", self.actions)


def action_ship(action: str) -> str:
    """The ship a tactical action is for (`A1` of `A1:board>B2`)."""
    return action.partition(":")[0]


def action_verb(action: str) -> str:
    """What a tactical action does (`board` of `A1:board>B2`)."""
    rest = action.partition(":")[2]
    return re.split(r"[>=]", rest, maxsplit=1)[0]


@dataclass(frozen=True, slots=True)
class LayOrder(GameOrder):
    """The ships that lay a mine this phase (ADV-MINE-02)."""

    ships: tuple[str, ...] = ()

    def __str__(self) -> str:
        return listed("LAY", self.ships)


AdvancedOrder = (
    TacticsOrder
    | BonusOrder
    | LockOrder
    | PowerOrder
    | MoveOrder
    | DecloakOrder
    | AttackOrder
    | EvadeOrder
    | ShieldOrder
    | LayOrder
)

#: What each advanced decision is answered with (for scripted captains).
FITS: dict[type, type] = {
    BonusDecision: BonusOrder,
    LockDecision: LockOrder,
    PowerDecision: PowerOrder,
    MoveDecision: MoveOrder,
    DecloakDecision: DecloakOrder,
    AttackDecision: AttackOrder,
    EvadeDecision: EvadeOrder,
    ShieldDecision: ShieldOrder,
    TacticsDecision: TacticsOrder,
    LayDecision: LayOrder,
}


# --- parsing ------------------------------------------------------------------------------------

_SHIP = r"[A-Z]\d+"
_LIST = r"\d+(?:\.\d+)*"
_BONUS = re.compile(rf"^({_SHIP})\.([a-z]+):([a-z_]+)$")
_PAIR = re.compile(rf"^({_SHIP}):({_SHIP}|\?[1-6])$")
_PLAN = re.compile(
    rf"^({_SHIP}):M(\d+)/([SN])/W((?:{_LIST})?)(?:/X(\d+))?(?:/D({_LIST}))?(?:/R({_LIST}))?"
    r"(/C)?$"
)
_MOVE = re.compile(rf"^MOVE ({_SHIP}) (\d+) T([+-]?\d+) T([+-]?\d+)$")
_ATTACK = re.compile(
    rf"^({_SHIP}):(\d+(?:\+\d+)*)>({_SHIP}|H\d+\.\d+|M\d+\.\d+)(?:@([a-z_]+\d*|w\d+))?(\*)?$"
)
_EVADE = re.compile(rf"^({_SHIP}):([+-]?\d+)$")
_SHIELDS = re.compile(rf"^({_SHIP})=({_LIST})$")
_ACTION = re.compile(rf"^{_SHIP}:[a-z]+(?:>{_SHIP})?(?:=[a-z-]+)?$")
_SHIP_ID = re.compile(rf"^{_SHIP}$")

HEADS: dict[str, str] = {
    "BONUS": "BONUS A1.science:shields ... | BONUS NONE",
    "LOCK": "LOCK A1:B2 ... | LOCK NONE",
    "POWER": "POWER A1:M6/S/W10.5.1 ... | POWER NONE",
    "MOVE": "MOVE A1 3 T+1 T0",
    "DECLOAK": "DECLOAK A1 ... | DECLOAK NONE",
    "ATTACK": "ATTACK A1:0+1>B2@impulse* ... | ATTACK NONE",
    "EVADE": "EVADE A1:+1 ... | EVADE NONE",
    "SHIELDS": "SHIELDS A1=16.16.10.16.16.16 ... | SHIELDS NONE",
    "TACTICS": "TACTICS A1:tractor>B2=full ... | TACTICS NONE",
    "LAY": "LAY A1 ... | LAY NONE",
}


def _split(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(".")) if text else ()


def read_advanced(tokens: list[str], text: str) -> AdvancedOrder | None:
    """An advanced order, or None when the tokens are not one (an order reader for
    kolrami.engine.orders.parse)."""
    return parse_advanced(tokens, text) if tokens[0] in HEADS else None


def parse_advanced(tokens: list[str], text: str) -> AdvancedOrder:
    """An advanced order from its tokens; ValueError names what does not read."""
    head, rest = tokens[0], tokens[1:]
    if head == "MOVE":
        m = _MOVE.match(" ".join(tokens))
        if not m:
            raise ValueError(f"'{text}' is not like {HEADS['MOVE']}")
        return MoveOrder(m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)))
    if not rest:
        raise ValueError(f"'{text}' is not like {HEADS[head]}")
    if head not in _LISTS:
        raise ValueError(f"cannot read the order '{text}'")
    return _LISTS[head].read(rest)


def _plan(m: re.Match[str]) -> PowerPlan:
    return PowerPlan(
        m.group(1),
        int(m.group(2)),
        m.group(3) == "S",
        _split(m.group(4)),
        int(m.group(5)) if m.group(5) else 0,
        _split(m.group(6)) if m.group(6) else None,
        _split(m.group(7)) if m.group(7) else None,
        bool(m.group(8)),
    )


def _attack(m: re.Match[str]) -> Attack:
    weapons = tuple(int(w) for w in m.group(2).split("+"))
    return Attack(m.group(1), weapons, m.group(3), m.group(4), bool(m.group(5)))


def _evasion(m: re.Match[str]) -> tuple[str, int]:
    return m.group(1), int(m.group(2))


def _plan_of(m: re.Match[str]) -> tuple[str, tuple[int, ...]]:
    return m.group(1), _split(m.group(2))


#: Every advanced order but MOVE lists items of one form, or says NONE.
_LISTS: dict[str, Listed[AdvancedOrder]] = {
    "BONUS": Listed(BonusOrder, _BONUS, "a bonus like A1.science:shields", groups),
    "LOCK": Listed(LockOrder, _PAIR, "a lock like A1:B2, or a search like A1:?3", groups),
    "POWER": Listed(PowerOrder, _PLAN, "a power plan like A1:M6/S/W10.5.1", _plan),
    "ATTACK": Listed(AttackOrder, _ATTACK, "an attack like A1:0+1>B2@impulse*", _attack),
    "DECLOAK": Listed(DecloakOrder, _SHIP_ID, "a ship id like A1", whole),
    "LAY": Listed(LayOrder, _SHIP_ID, "a ship id like A1", whole),
    "EVADE": Listed(EvadeOrder, _EVADE, "an evasion like A1:+1", _evasion),
    "SHIELDS": Listed(
        ShieldOrder, _SHIELDS, "a redistribution like A1=16.16.10.16.16.16", _plan_of
    ),
    "TACTICS": Listed(TacticsOrder, _ACTION, "an action like A1:tractor>B2=full", whole),
}
