"""The events of Tholian webs, probes and communications (modules adv-webs, adv-probes,
adv-comms): the modules' own state, and one Change per effect (GUIDE 3.11). Each change carries
the values after it and `apply` sets them, so a reader of the log (the replay) applies the same
facts; the other events record the rolls that led to them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import ClassVar

from kolrami.engine.events import Change
from kolrami.engine.events import Event
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvSets
from kolrami.rules.advanced.state import kept
from kolrami.rules.advanced.state import state_of
from kolrami.rules.changes import Sets

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

Name = Callable[[str], str]

WEBS_KEY = "adv-webs"
PROBES_KEY = "adv-probes"
COMMS_KEY = "adv-comms"


# --- the modules' state -------------------------------------------------------------------------


@dataclass(slots=True)
class Web:
    """A web holding `target`: temporary (phases left) or permanent; its makers and power."""

    id: str
    target: str
    makers: list[str]
    permanent: bool
    phases: int  # temporary: phases left; permanent: its makers' temporary duration
    power: int
    tower: str = ""  # the Tholian towing the captive, if any
    tow_turns: int = 0  # game turns the tow has lasted (the first shapes the warp fields)
    constrict: int = 0  # turns of constriction left (0: not constricting)


@dataclass(slots=True)
class Weaving:
    """A permanent web being woven around `target`, centred where it stood when weaving began."""

    target: str
    x: float
    y: float
    work: int
    weavers: list[str]


@dataclass(slots=True)
class WebState:
    """What module adv-webs keeps during a battle."""

    webs: dict[str, Web] = field(default_factory=dict)
    weaving: dict[str, Weaving] = field(default_factory=dict)
    made: int = 0


@dataclass(slots=True)
class Probe:
    """A sensor probe on the table: its owner, place, link, and when it was launched."""

    id: str
    owner: str
    side: str
    x: float
    y: float
    linked: bool
    turn: int
    phase: int
    alive: bool = True


@dataclass(slots=True)
class ProbeState:
    """What module adv-probes keeps: the probes, and the ships that lost one (ADV-PROBE-06)."""

    probes: dict[str, Probe] = field(default_factory=dict)
    #: ships that lost a probe, and the (turn, phase) it was lost
    lost: dict[str, tuple[int, int]] = field(default_factory=dict)
    launched: int = 0


@dataclass(slots=True)
class CommsState:
    """What module adv-comms keeps: who jams whom (a ship id or a probe id)."""

    jams: dict[str, str] = field(default_factory=dict)


def webs_of(state: AdvancedState) -> WebState:
    """The battle's web state (made on first use)."""
    return kept(state.extra, WEBS_KEY, WebState)


def probes_of(state: AdvancedState) -> ProbeState:
    """The battle's probe state (made on first use)."""
    return kept(state.extra, PROBES_KEY, ProbeState)


def comms_of(state: AdvancedState) -> CommsState:
    """The battle's jamming state (made on first use)."""
    return kept(state.extra, COMMS_KEY, CommsState)


# --- webs ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WebCast(Change["Battle"]):
    """A web closes on `target` (ADV-WEB-01 temporary, ADV-WEB-03 permanent): it can neither
    move nor fire; its makers spent this phase's fire on it."""

    kind: ClassVar[str] = "web_cast"
    web: str
    target: str
    makers: list[str]
    permanent: bool
    phases: int
    power: int

    def apply(self, battle: Battle) -> None:
        state = state_of(battle)
        w = webs_of(state)
        w.made += 1
        w.webs[self.web] = Web(
            self.web, self.target, list(self.makers), self.permanent, self.phases, self.power
        )
        w.weaving.pop(self.target, None)
        state.of(self.target).held = True
        for m in self.makers:
            state.of(m).busy = True

    def story(self, name: Name, verbose: bool) -> str | None:
        what = "a permanent web" if self.permanent else f"a web for {self.phases} phases"
        makers = ", ".join(name(m) for m in self.makers)
        return f"  {makers} wrap {name(self.target)} in {what} (power {self.power})"


@dataclass(frozen=True, slots=True)
class WebWoven(Change["Battle"]):
    """A phase of weaving a permanent web around `target` (ADV-WEB-03): the work done so far
    (of 6) and the weavers; work 0 with no weavers: the target flew out and the weaving is lost."""

    kind: ClassVar[str] = "web_woven"
    target: str
    x: float
    y: float
    work: int
    weavers: list[str]

    def apply(self, battle: Battle) -> None:
        state = state_of(battle)
        w = webs_of(state)
        if not self.weavers:
            w.weaving.pop(self.target, None)
            return
        w.weaving[self.target] = Weaving(self.target, self.x, self.y, self.work, list(self.weavers))
        for m in self.weavers:
            state.of(m).busy = True

    def story(self, name: Name, verbose: bool) -> str | None:
        if not self.weavers:
            return f"  {name(self.target)} flies out of the web being woven around it"
        who = ", ".join(name(m) for m in self.weavers)
        return f"  {who} weave a web around {name(self.target)}: {self.work}/6"


@dataclass(frozen=True, slots=True)
class WebChanged(Change["Battle"]):
    """A web's count changes: phases left of a temporary web, the tow (tower, game turns, the
    tower's hexes a phase), constriction turns left; `phases` 0 on a temporary web ends it."""

    kind: ClassVar[str] = "web_changed"
    web: str
    phases: int
    tower: str
    tow_turns: int
    tow_cap: int
    constrict: int

    def apply(self, battle: Battle) -> None:
        state = state_of(battle)
        w = webs_of(state).webs[self.web]
        if w.tower and w.tower != self.tower:
            state.of(w.tower).tow_cap = -1
        w.phases, w.tower, w.tow_turns, w.constrict = (
            self.phases,
            self.tower,
            self.tow_turns,
            self.constrict,
        )
        if self.tower:
            state.of(self.tower).tow_cap = self.tow_cap

    def story(self, name: Name, verbose: bool) -> str | None:
        if not verbose:
            return None
        parts = [f"{self.phases} phases"]
        if self.tower:
            parts.append(f"towed by {name(self.tower)} at {self.tow_cap} hexes a phase")
        if self.constrict:
            parts.append(f"{self.constrict} turns of constriction left")
        return f"  web {self.web}: " + ", ".join(parts)


@dataclass(frozen=True, slots=True)
class WebReleased(Change["Battle"]):
    """A web lets its captive go: it ran out, was broken by a counter tractor, its captive was
    destroyed, or it was a weave its makers abandoned."""

    kind: ClassVar[str] = "web_released"
    web: str
    reason: str

    def apply(self, battle: Battle) -> None:
        state = state_of(battle)
        w = webs_of(state).webs.pop(self.web)
        state.of(w.target).held = False
        if w.tower:
            state.of(w.tower).tow_cap = -1

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  web {self.web} releases its captive ({self.reason})"


@dataclass(frozen=True, slots=True)
class WebBusy(Change["Battle"]):
    """Ships spend this phase's fire on web work (towing, constricting, a counter tractor), or,
    with `busy` false at the phase's end, are free to fire again."""

    kind: ClassVar[str] = "web_busy"
    ships: list[str]
    busy: bool

    def apply(self, battle: Battle) -> None:
        state = state_of(battle)
        for s in self.ships:
            state.of(s).busy = self.busy

    def story(self, name: Name, verbose: bool) -> str | None:
        return None


@dataclass(frozen=True, slots=True)
class CounterTractor(Event):
    """A rescuer's counter tractor at a web (ADV-WEB-06): its Science Officer's Sensors check to
    match the web's frequency."""

    kind: ClassVar[str] = "counter_tractor"
    ship: str
    web: str
    roll: int
    rating: int
    passed: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        how = "the web breaks" if self.passed else "no match"
        return (
            f"  {name(self.ship)} locks a counter tractor on web {self.web}: Sensors "
            f"{self.roll:02d} vs {self.rating}: {how}"
        )


@dataclass(frozen=True, slots=True)
class WebSqueezed(AdvSets):
    """A constricting web tightens on its captive (ADV-WEB-05): shields and superstructure after."""

    kind: ClassVar[str] = "web_squeezed"
    hull_of: ClassVar[str | None] = "ship"
    on_ship: ClassVar[tuple[str, ...]] = ("superstructure",)
    on_state: ClassVar[tuple[str, ...]] = ("base", "reinforcement")
    ship: str
    base: list[int]
    reinforcement: list[int]
    superstructure: int

    def story(self, name: Name, verbose: bool) -> str | None:
        if self.superstructure <= 0:
            return f"  the web crushes {name(self.ship)}; the web absorbs the blast"
        return (
            f"  the web tightens on {name(self.ship)}: shields gone, superstructure "
            f"{self.superstructure}"
        )


@dataclass(frozen=True, slots=True)
class WebTowed(Sets):
    """A captive dragged behind its tower to (x, y) (ADV-WEB-02, ADV-WEB-07)."""

    kind: ClassVar[str] = "web_towed"
    on_ship: ClassVar[tuple[str, ...]] = ("x", "y")
    ship: str
    x: float
    y: float

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.ship)} is towed to ({self.x:.1f}, {self.y:.1f})" if verbose else None


# --- probes -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProbeLaunched(AdvSets):
    """A probe launched from a photon casing to (x, y) (ADV-PROBE-01): the ship's stores after,
    and whether its link holds (a replacement's Science Officer rolls for it, ADV-PROBE-06)."""

    kind: ClassVar[str] = "probe_launched"
    on_state: ClassVar[tuple[str, ...]] = ("stores",)
    probe: str
    ship: str
    x: float
    y: float
    stores: int
    linked: bool
    turn: int
    phase: int

    def then(self, battle: Battle) -> None:
        state = state_of(battle)
        p = probes_of(state)
        adv = state.of(self.ship)
        p.launched += 1
        p.probes[self.probe] = Probe(
            self.probe, self.ship, adv.side, self.x, self.y, self.linked, self.turn, self.phase
        )

    def story(self, name: Name, verbose: bool) -> str | None:
        link = "linked" if self.linked else "no link yet"
        return (
            f"  {name(self.ship)} launches probe {self.probe} to ({self.x:.0f}, {self.y:.0f}) "
            f"({link}; {self.stores} casings left)"
        )


@dataclass(frozen=True, slots=True)
class ProbeLinked(Change["Battle"]):
    """A probe's link to its ship: the Science Officer's Sensors roll (ADV-PROBE-06)."""

    kind: ClassVar[str] = "probe_linked"
    probe: str
    roll: int
    rating: int
    linked: bool

    def apply(self, battle: Battle) -> None:
        probes_of(state_of(battle)).probes[self.probe].linked = self.linked

    def story(self, name: Name, verbose: bool) -> str | None:
        how = "linked" if self.linked else "no link"
        return f"  probe {self.probe}: Sensors {self.roll:02d} vs {self.rating}: {how}"


@dataclass(frozen=True, slots=True)
class ProbeSensed(Change["Battle"]):
    """A probe's sweep for a cloaked ship near it (ADV-PROBE-02): the d10 (1-5 finds a ship that
    moved); found, the probe's ship knows where it is this phase, as a ping would show it."""

    kind: ClassVar[str] = "probe_sensed"
    probe: str
    owner: str
    target: str
    roll: int
    needed: int
    found: bool

    def apply(self, battle: Battle) -> None:
        if self.found:
            state_of(battle).of(self.target).pinged_by.add(self.owner)

    def story(self, name: Name, verbose: bool) -> str | None:
        if not self.found and not verbose:
            return None
        how = "found" if self.found else "nothing"
        return f"  probe {self.probe} sweeps for {name(self.target)}: d10 {self.roll}: {how}"


@dataclass(frozen=True, slots=True)
class ProbeIntercepted(Change["Battle"]):
    """An enemy's Sensors check to intercept a probe's data (ADV-PROBE-04); intercepted, the
    data shows it where the probe's ship is this phase."""

    kind: ClassVar[str] = "probe_intercepted"
    probe: str
    ship: str
    owner: str
    roll: int
    rating: int
    passed: bool

    def apply(self, battle: Battle) -> None:
        if self.passed:
            state_of(battle).of(self.owner).pinged_by.add(self.ship)

    def story(self, name: Name, verbose: bool) -> str | None:
        if not self.passed and not verbose:
            return None
        how = "intercepted" if self.passed else "missed"
        return (
            f"  {name(self.ship)} listens to probe {self.probe}: Sensors {self.roll:02d} vs "
            f"{self.rating}: {how}"
        )


@dataclass(frozen=True, slots=True)
class ProbeFiredAt(Change["Battle"]):
    """A beam fired at a probe (ADV-PROBE-05): the to-hit d10, the Weapons check, and the
    result; the beam is spent for the turn."""

    kind: ClassVar[str] = "probe_fired_at"
    ship: str
    weapon: int
    probe: str
    roll: int
    needed: int
    check: int
    rating: int
    destroyed: bool

    def apply(self, battle: Battle) -> None:
        state = state_of(battle)
        state.of(self.ship).fired[self.weapon] = True
        if self.destroyed:
            p = probes_of(state)
            probe = p.probes[self.probe]
            probe.alive = False
            p.lost[probe.owner] = (battle.turn, state.phase)

    def story(self, name: Name, verbose: bool) -> str | None:
        how = "destroyed" if self.destroyed else "missed"
        return (
            f"  {name(self.ship)} w{self.weapon} at probe {self.probe}: d10 {self.roll} vs "
            f"{self.needed}, Weapons {self.check:02d} vs {self.rating}: {how}"
        )


# --- communications -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JamTried(Change["Battle"]):
    """A ship tries to jam a ship's channel or a probe's link (ADV-COMM-04, ADV-COMM-05), or
    stops (target '-', or the jammer was destroyed): its Communications check and the result."""

    kind: ClassVar[str] = "jam_tried"
    ship: str
    target: str
    roll: int
    rating: int
    passed: bool

    def apply(self, battle: Battle) -> None:
        jams = comms_of(state_of(battle)).jams
        if self.target == "-":
            jams.pop(self.ship, None)
        elif self.passed:
            jams[self.ship] = self.target

    def story(self, name: Name, verbose: bool) -> str | None:
        if self.target == "-":
            return f"  {name(self.ship)} stops jamming"
        what = f"probe {self.target}" if self.target.startswith("p") else name(self.target)
        how = "jammed" if self.passed else "no"
        return (
            f"  {name(self.ship)} jams {what}: Communications {self.roll:02d} vs "
            f"{self.rating}: {how}"
        )


@dataclass(frozen=True, slots=True)
class ChannelOpen(Change["Battle"]):
    """A fleet's traffic goes in the open (ADV-COMM-03): `side` hears it, as if decoded, for
    this game turn."""

    kind: ClassVar[str] = "channel_open"
    side: str
    speaker: str
    why: str

    def apply(self, battle: Battle) -> None:
        for a in state_of(battle).side(self.side):
            a.decoded = max(a.decoded, 1)

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  side {self.side} hears side {self.speaker}'s traffic in the open ({self.why})"


#: Every event of these modules, for the registry's log reader.
FIELD_EVENTS: tuple[type[Event], ...] = (
    WebCast,
    WebWoven,
    WebChanged,
    WebReleased,
    WebBusy,
    CounterTractor,
    WebSqueezed,
    WebTowed,
    ProbeLaunched,
    ProbeLinked,
    ProbeSensed,
    ProbeIntercepted,
    ProbeFiredAt,
    JamTried,
    ChannelOpen,
)
