"""Decisions and orders of the Tholian webs, probes and communications modules (adv-webs,
adv-probes, adv-comms), with text forms that round-trip (GUIDE 3.2).

Each decision lists its legal options, so a captain picks among them and the random captain
reaches every one. Text forms (ship ids like A1, probes like p1):
  WEB A1:T>B2 A2:P>B2 A3:K>B2 A1:W>B2 A4:F>A2 | WEB NONE
      T temporary web, P weave a permanent web, K constrict, W tow, F free a captive by a
      counter tractor (ADV-WEB-01, ADV-WEB-02, ADV-WEB-03, ADV-WEB-05, ADV-WEB-06, ADV-WEB-07)
  PROBE A1:L45.60 A2:X0>p1 | PROBE NONE
      L launch a probe to the table point (x, y) in cm; X<weapon> shoot a probe with a beam
  JAM A1>B2 A2>p1 A3>- | JAM NONE     jam a ship's channel or a probe's link; '-' stops jamming
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kolrami.engine.orders import GameDecision
from kolrami.engine.orders import GameOrder
from kolrami.rules.order_text import Listed
from kolrami.rules.order_text import groups
from kolrami.rules.order_text import listed

#: The web actions by their letter.
WEB_ACTIONS = {
    "T": "temporary web",
    "P": "weave a permanent web",
    "K": "constrict",
    "W": "tow",
    "F": "free by counter tractor",
}


@dataclass(frozen=True, slots=True)
class WebDecision(GameDecision):
    """`side` may give web orders in phase `phase`: `options` holds each legal
    (ship, action, target)."""

    side: str
    phase: int
    options: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True, slots=True)
class ProbeDecision(GameDecision):
    """`side` may launch probes and shoot the enemy's in phase `phase`: `launch` holds
    (ship, reach in cm) for each ship that may launch one, `shots` each (ship, beam, probe)."""

    side: str
    phase: int
    launch: tuple[tuple[str, int], ...]
    shots: tuple[tuple[str, int, str], ...]


@dataclass(frozen=True, slots=True)
class JamDecision(GameDecision):
    """`side` may start or stop jamming at the start of turn `turn`: `options` holds each legal
    (ship, target) with target a ship id, a probe id, or '-' to stop."""

    side: str
    turn: int
    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class WebOrder(GameOrder):
    """(ship, action, target) for each web action taken."""

    actions: tuple[tuple[str, str, str], ...] = ()

    def __post_init__(self) -> None:
        for _, action, _ in self.actions:
            if action not in WEB_ACTIONS:
                raise ValueError(f"a web action is one of {', '.join(WEB_ACTIONS)}, not '{action}'")

    def __str__(self) -> str:
        return listed("WEB", (f"{s}:{a}>{t}" for s, a, t in self.actions))


@dataclass(frozen=True, slots=True)
class ProbeLaunch:
    """A probe launched by `ship` to the table point (x, y) in cm."""

    ship: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.ship}:L{self.x}.{self.y}"


@dataclass(frozen=True, slots=True)
class ProbeShot:
    """Beam `weapon` of `ship` fired at `probe`."""

    ship: str
    weapon: int
    probe: str

    def __str__(self) -> str:
        return f"{self.ship}:X{self.weapon}>{self.probe}"


@dataclass(frozen=True, slots=True)
class ProbeOrder(GameOrder):
    """A side's probe launches and shots at probes in one phase."""

    launches: tuple[ProbeLaunch, ...] = ()
    shots: tuple[ProbeShot, ...] = ()

    def __str__(self) -> str:
        return listed("PROBE", (*self.launches, *self.shots))


@dataclass(frozen=True, slots=True)
class JamOrder(GameOrder):
    """(ship, target) for each jamming started ('-': stopped)."""

    jams: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return listed("JAM", (f"{s}>{t}" for s, t in self.jams))


FieldDecision = WebDecision | ProbeDecision | JamDecision
FieldOrder = WebOrder | ProbeOrder | JamOrder
FIELD_DECISIONS = (WebDecision, ProbeDecision, JamDecision)
#: What each decision is answered with (for scripted captains).
FIELD_FITS: dict[type, type] = {
    WebDecision: WebOrder,
    ProbeDecision: ProbeOrder,
    JamDecision: JamOrder,
}

_SHIP = r"[A-Z]\d+"
_PROBE = r"p\d+"
_WEB = re.compile(rf"^({_SHIP}):([TPKWF])>({_SHIP})$")
_LAUNCH = re.compile(rf"^({_SHIP}):L(\d+)\.(\d+)$")
_SHOT = re.compile(rf"^({_SHIP}):X(\d+)>({_PROBE})$")
_JAM = re.compile(rf"^({_SHIP})>({_SHIP}|{_PROBE}|-)$")
HEADS = {
    "WEB": "WEB A1:T>B2 ... | WEB NONE",
    "PROBE": "PROBE A1:L45.60 A2:X0>p1 ... | PROBE NONE",
    "JAM": "JAM A1>B2 A2>p1 A3>- ... | JAM NONE",
}


def read_field(tokens: list[str], text: str) -> FieldOrder | None:
    """A web, probe or jamming order, or None when the tokens are not one (an order reader for
    kolrami.engine.orders.parse)."""
    head, rest = tokens[0], tokens[1:]
    if head not in HEADS:
        return None
    if not rest:
        raise ValueError(f"'{text}' is not like {HEADS[head]}")
    if head in _LISTS:
        return _LISTS[head].read(rest)
    if rest == ["NONE"]:
        return ProbeOrder()
    launches, shots = [], []
    for tok in rest:
        m = _LAUNCH.match(tok)
        if m:
            launches.append(ProbeLaunch(m.group(1), int(m.group(2)), int(m.group(3))))
            continue
        m = _SHOT.match(tok)
        if not m:
            raise ValueError(
                f"'{tok}' is not a probe launch like A1:L45.60 or a shot like A1:X0>p1"
            )
        shots.append(ProbeShot(m.group(1), int(m.group(2)), m.group(3)))
    return ProbeOrder(tuple(launches), tuple(shots))


#: The web and jamming orders list items of one form, or say NONE.
_LISTS: dict[str, Listed[FieldOrder]] = {
    "WEB": Listed(WebOrder, _WEB, "a web action like A1:T>B2", groups),
    "JAM": Listed(JamOrder, _JAM, "a jamming like A1>B2, A1>p1 or A1>-", groups),
}
