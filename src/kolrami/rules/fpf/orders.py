"""FPF's decisions and orders (and Peak Performance's return), with text forms that round-trip.

`read_fpf` is the reader kolrami.rules.registry.parse_order hands the engine's parser; the rules
check an order with verify (IllegalOrderError, a message a player can read) before applying it.

Text forms (ship ids like A1, squadron ids like AS1):
  FIRST | SECOND                                   who moves first after winning a roll-off
  ACT AS1 [FORCE BS2]                              activate a squadron, maybe forcing prey first
  AS1 SPD 30 T+1 T0 [A3=SPD 20 T0 T0 ...] FIRE A1:F@B2 A2:F@B2 | HOLD
  REACT AS2 A4:F@B1 ... | REACT AS2 HOLD           reaction fire, forward arc only
  REPAIR A1:computer A2:phasers.0 | REPAIR NONE     damage-control points
  RETURN A1 40.0 10.0 H0                           where a reset ship returns (Peak Performance)
A manoeuvre is SPD n T<first turn> T<second turn>, or SPD n PIV<facing change> T<turn> for a
pivot from standstill; turns are -1 (starboard), 0 or +1 (port) hex faces. With the micro warp
module, JMP n T<first turn> T0 jumps n cm straight ahead after the first turn.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from kolrami.catalog.models import Arc
from kolrami.engine.orders import GameDecision
from kolrami.engine.orders import GameOrder
from kolrami.engine.orders import OrderSyntaxError
from kolrami.rules.order_text import listed
from kolrami.rules.order_text import matches
from kolrami.rules.order_text import signed


@dataclass(frozen=True, slots=True)
class Maneuver:
    """One ship's (or a formation leader's) movement for the turn (FPF-MOV-07, FPF-MOV-13)."""

    speed: int
    turn1: int = 0
    turn2: int = 0
    pivot: int | None = None  # facing change from standstill, in hex faces; replaces turn1
    jump: bool = False  # a micro warp jump straight ahead after the first turn (FPF-OPT-04)

    def __post_init__(self) -> None:
        if self.pivot is not None and self.turn1 != 0:
            raise ValueError("a pivot replaces the first turn: give turn1 0 with a pivot")

    def __str__(self) -> str:
        first = f"PIV{signed(self.pivot)}" if self.pivot is not None else f"T{signed(self.turn1)}"
        return f"{'JMP' if self.jump else 'SPD'} {self.speed} {first} T{signed(self.turn2)}"


@dataclass(frozen=True, slots=True)
class FireTarget:
    """One ship's lock: the arc it fires through and its target (FPF-FIRE-04, FPF-FIRE-05)."""

    ship: str
    arc: Arc
    target: str

    def __str__(self) -> str:
        return f"{self.ship}:{self.arc.value}@{self.target}"


@dataclass(frozen=True, slots=True)
class InitiativeOrder(GameOrder):
    """After winning an equal-speed roll-off: move first or second (FPF-MOV-03)."""

    first: bool

    def __str__(self) -> str:
        return "FIRST" if self.first else "SECOND"


@dataclass(frozen=True, slots=True)
class ActivateOrder(GameOrder):
    """Which squadron to activate; `force` makes a pursued enemy squadron move first
    (FPF-MOV-10)."""

    squadron: str
    force: str | None = None

    def __post_init__(self) -> None:
        if self.force == "":
            raise ValueError("force names a squadron, or is None")

    def __str__(self) -> str:
        return f"ACT {self.squadron}" + (f" FORCE {self.force}" if self.force else "")


@dataclass(frozen=True, slots=True)
class SquadronOrder(GameOrder):
    """An activated squadron's orders: movement, then its fire declaration or HOLD.

    `moves` maps a ship id to its manoeuvre; the key None is the formation (its leader's path,
    followed by the wingmen). `fire` None means the squadron holds fire.
    """

    squadron: str
    moves: tuple[tuple[str | None, Maneuver], ...]
    fire: tuple[FireTarget, ...] | None = None

    def __str__(self) -> str:
        parts = [self.squadron]
        for ship, m in self.moves:
            parts.append(str(m) if ship is None else f"{ship}={m}")
        if self.fire is None:
            parts.append("HOLD")
        else:
            parts.append("FIRE")
            parts.extend(str(t) for t in self.fire)
        return " ".join(parts)

    def move_of(self, ship: str | None) -> Maneuver | None:
        """The manoeuvre given for `ship` (None: the formation)."""
        for key, m in self.moves:
            if key == ship:
                return m
        return None


@dataclass(frozen=True, slots=True)
class ReactionOrder(GameOrder):
    """Reaction fire through the forward arc at a moving squadron, or HOLD (FPF-FIRE-11)."""

    squadron: str
    fire: tuple[FireTarget, ...] | None = None

    def __post_init__(self) -> None:
        if self.fire == ():
            raise ValueError("a reaction with no targets is a HOLD: give fire=None")

    def __str__(self) -> str:
        if self.fire is None:
            return f"REACT {self.squadron} HOLD"
        return f"REACT {self.squadron} " + " ".join(str(t) for t in self.fire)


@dataclass(frozen=True, slots=True)
class RepairOrder(GameOrder):
    """Damage-control points for the turn: (ship, item) pairs (FPF-REP-01, FPF-REP-07)."""

    repairs: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return listed("REPAIR", (f"{s}:{i}" for s, i in self.repairs))


@dataclass(frozen=True, slots=True)
class ReturnOrder(GameOrder):
    """Where a reset ship comes back: a point in its owner's zone and a heading (PP-11)."""

    ship: str
    x: float
    y: float
    heading: int

    def __post_init__(self) -> None:
        if not (math.isfinite(self.x) and math.isfinite(self.y)):
            raise ValueError("a return spot needs finite coordinates")

    def __str__(self) -> str:
        return f"RETURN {self.ship} {self.x!r} {self.y!r} H{self.heading}"


#: FPF's orders.
FpfOrder = (
    InitiativeOrder | ActivateOrder | SquadronOrder | ReactionOrder | RepairOrder | ReturnOrder
)


@dataclass(frozen=True, slots=True)
class InitiativeDecision(GameDecision):
    """`side` won the roll-off at `speed` and chooses to move first or second."""

    side: str
    speed: int


@dataclass(frozen=True, slots=True)
class ActivationDecision(GameDecision):
    """`side` activates one of `squadrons`; `forcible` lists prey it may force to move first."""

    side: str
    squadrons: tuple[str, ...]
    forcible: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class OrdersDecision(GameDecision):
    """`side` gives the orders of its activated `squadron`: a manoeuvre for each of `movers`
    (None: the formation), and fire for `firers` at any of `targets` unless it holds."""

    side: str
    squadron: str
    movers: tuple[str | None, ...] = ()
    firers: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    #: the distances a micro warp jump may cover, in cm, when the rules allow one (FPF-OPT-04)
    jump: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class ReactionDecision(GameDecision):
    """`side` may reaction-fire with `squadron` at the moving squadron `mover`: `firers` (those
    with a forward weapon) at any of `targets` (the mover's ships), or hold."""

    side: str
    squadron: str
    mover: str
    firers: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RepairDecision(GameDecision):
    """`side` spends the damage-control points of `ships` (FPF-REP-02); `items[i]` are what
    ships[i] has damaged and may repair, and `points[i]` its points this turn."""

    side: str
    ships: tuple[str, ...]
    items: tuple[tuple[str, ...], ...] = ()
    points: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ReturnDecision(GameDecision):
    """`side` chooses where its reset `ship` returns (Peak Performance, PP-11): `spots` are the
    legal spots on a 2 cm grid; any legal point may be chosen, with any heading."""

    side: str
    ship: str
    spots: tuple[tuple[float, float], ...] = ()


#: FPF's decisions.
FpfDecision = (
    InitiativeDecision
    | ActivationDecision
    | OrdersDecision
    | ReactionDecision
    | RepairDecision
    | ReturnDecision
)

_MANEUVER = r"(SPD|JMP) (\d+) (?:T([+-]?\d+)|PIV([+-]?\d+)) T([+-]?\d+)"
_TARGET = re.compile(r"^([A-Z]\d+):([FPSA])@([A-Z]\d+)$")
_MOVE_WITH_SHIP = re.compile(r"^(?:([A-Z]\d+)=)?" + _MANEUVER + "$")


def _maneuver(m: re.Match[str], offset: int) -> Maneuver:
    kind, speed, turn1, pivot, turn2 = (m.group(offset + i) for i in range(5))
    return Maneuver(
        int(speed),
        int(turn1) if turn1 is not None else 0,
        int(turn2),
        int(pivot) if pivot is not None else None,
        kind == "JMP",
    )


def _targets(tokens: list[str], text: str) -> tuple[FireTarget, ...]:
    found = matches(tokens, _TARGET, "a target like A1:F@B2", text, OrderSyntaxError)
    return tuple(FireTarget(m.group(1), Arc(m.group(2)), m.group(3)) for m in found)


def read_fpf(tokens: list[str], text: str) -> FpfOrder | None:
    """An FPF order from its tokens, or None when they are not one (an order reader for
    kolrami.engine.orders.parse)."""
    head = tokens[0]
    if head in ("FIRST", "SECOND") and len(tokens) == 1:
        return InitiativeOrder(head == "FIRST")
    if head == "ACT":
        if len(tokens) == 2:
            return ActivateOrder(tokens[1])
        if len(tokens) == 4 and tokens[2] == "FORCE":
            return ActivateOrder(tokens[1], tokens[3])
    elif head == "REACT" and len(tokens) >= 3:
        if tokens[2:] == ["HOLD"]:
            return ReactionOrder(tokens[1])
        return ReactionOrder(tokens[1], _targets(tokens[2:], text))
    elif head == "REPAIR" and len(tokens) >= 2:
        if tokens[1:] == ["NONE"]:
            return RepairOrder()
        pairs = []
        for tok in tokens[1:]:
            ship, sep, item = tok.partition(":")
            if not sep or not ship or not item:
                raise OrderSyntaxError(f"'{tok}' in '{text}' is not a repair like A1:computer")
            pairs.append((ship, item))
        return RepairOrder(tuple(pairs))
    elif head == "RETURN" and len(tokens) == 5:
        m = re.match(r"^H(\d)$", tokens[4])
        number = r"^-?\d+(\.\d+)?(e-?\d+)?$"
        if m and re.match(number, tokens[2]) and re.match(number, tokens[3]):
            return ReturnOrder(tokens[1], float(tokens[2]), float(tokens[3]), int(m.group(1)))
        raise OrderSyntaxError(f"'{text}' is not like RETURN A1 40.0 10.0 H0")
    elif re.match(r"^[A-Z]S\d+$", head):
        return _parse_squadron(tokens, text)
    return None


def _parse_squadron(tokens: list[str], text: str) -> SquadronOrder:
    squadron, rest = tokens[0], tokens[1:]
    if "HOLD" in rest:
        cut = rest.index("HOLD")
        move_tokens, tail, fire = rest[:cut], rest[cut + 1 :], None
        if tail:
            raise OrderSyntaxError(f"nothing may follow HOLD in '{text}'")
    elif "FIRE" in rest:
        cut = rest.index("FIRE")
        move_tokens = rest[:cut]
        fire = _targets(rest[cut + 1 :], text)
    else:
        raise OrderSyntaxError(f"'{text}' must end in FIRE <targets> or HOLD")
    moves: list[tuple[str | None, Maneuver]] = []
    # manoeuvres are 4 tokens each: [SHIP=]SPD n Tx|PIVx Ty
    i = 0
    while i < len(move_tokens):
        chunk = " ".join(move_tokens[i : i + 4])
        m = _MOVE_WITH_SHIP.match(chunk)
        if not m:
            raise OrderSyntaxError(f"cannot read the manoeuvre '{chunk}' in '{text}'")
        moves.append((m.group(1), _maneuver(m, 2)))
        i += 4
    return SquadronOrder(squadron, tuple(moves), fire)
