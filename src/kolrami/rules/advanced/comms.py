"""Communications (module `adv-comms`): ADV-COMM-03, ADV-COMM-04, ADV-COMM-05 (ADV-COMM-01 and
ADV-COMM-02, the codes a Communications officer may break, are in
kolrami.rules.advanced.officers with the Tholians' gift for any code, ADV-COMM-03).

Open traffic: a fleet whose ships talk across species in the open (a Tholian with any other
species, or the Federation/Gorn bloc with the Klingon/Romulan one) is heard by the enemy every
turn, as if decoded (ADV-COMM-03). Jamming: at the start of each turn, after the first
movement, a side may have its ships start or stop jamming (`JamDecision`); a jammer passes a
Communications check to flood an enemy ship's channel (ADV-COMM-04) or to find a probe's
hyperchannel (ADV-COMM-05). A jammed ship cannot clear it; the jamming lasts until the jammer
stops or is destroyed. Starship sensors cannot be jammed: a jammed ship still locks and fires,
but it is cut from its fleet (its probes' data does not reach it, and a jammed Tholian cannot
coordinate a permanent web or a constriction); a jammed probe link sends nothing. Jamming takes
no action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kolrami.engine.battle import other
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.field_events import ChannelOpen
from kolrami.rules.advanced.field_events import JamTried
from kolrami.rules.advanced.field_events import comms_of
from kolrami.rules.advanced.field_events import probes_of
from kolrami.rules.advanced.field_orders import JamDecision
from kolrami.rules.advanced.field_orders import JamOrder
from kolrami.rules.advanced.modules import AdvancedModule
from kolrami.rules.advanced.officers import SHARED_CODES
from kolrami.rules.advanced.state import by_order
from kolrami.rules.advanced.state import on_decision
from kolrami.rules.advanced.state import state_of
from kolrami.rules.steps import Asked
from kolrami.rules.steps import Each

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.step import Step
    from kolrami.rules.advanced.state import AdvancedState

COMM_CLAUSES = ("ADV-COMM-03", "ADV-COMM-04", "ADV-COMM-05")
THOLIAN = "tholian"


def open_reason(species: set[str]) -> str:
    """Why a fleet of these species talks in the open, or '' (ADV-COMM-03): Tholians speaking
    to another species, or traffic between the Federation/Gorn and Klingon/Romulan blocs."""
    if THOLIAN in species and len(species) > 1:
        return "Tholians speak to other species in the open"
    if all(species & code for code in SHARED_CODES):
        return "traffic between the Federation/Gorn and Klingon/Romulan blocs is open"
    return ""


def jam_options(state: AdvancedState, side: str) -> list[tuple[str, str]]:
    """(ship, target) for each jamming `side` may start or stop now: an enemy ship it sees, an
    enemy probe, or '-' to stop (ADV-COMM-04, ADV-COMM-05)."""
    jams = comms_of(state).jams
    out: list[tuple[str, str]] = []
    enemies = [e for e in state.side(other(side)) if state.rules.visible(state, side, e)]
    probes = [p for p in probes_of(state).probes.values() if p.alive and p.side != side]
    for a in state.side(side):
        if a.around.storm or not a.officers["comms"].on_duty:
            continue  # no subspace traffic in an ion storm (ADV-ION-03); the officer is out
        if a.id in jams:
            out.append((a.id, "-"))
        out += [(a.id, e.id) for e in enemies if jams.get(a.id) != e.id]
        out += [(a.id, p.id) for p in probes if jams.get(a.id) != p.id]
    return out


def verify_jams(decision: JamDecision, order: JamOrder) -> None:
    """A side's jamming order: options of the decision, one a ship."""
    seen: set[str] = set()
    for ship, target in order.jams:
        if (ship, target) not in decision.options:
            raise IllegalOrderError(
                f"{ship}>{target} is not a jamming open now (an enemy ship it sees, an enemy "
                "probe, or '-' to stop; ADV-COMM-04, ADV-COMM-05)"
            )
        if ship in seen:
            raise IllegalOrderError(f"{ship} jams one channel at a time")
        seen.add(ship)


def carry_out(battle: Battle, state: AdvancedState, order: JamOrder) -> None:
    """Each jamming: a Communications check (ADV-COMM-04, ADV-COMM-05); stopping needs none."""
    for ship, target in order.jams:
        adv = state.of(ship)
        if target == "-":
            battle.record(JamTried(ship, "-", 0, 0, True))
            continue
        result = check(battle.dice, adv.rating("comms", "communications"), adv.penalty)
        battle.record(JamTried(ship, target, result.roll, result.rating, result.outcome.passed))


class Communications(AdvancedModule):
    """Open traffic, jamming ships' channels and probes' links."""

    name = "adv-comms"
    clauses = COMM_CLAUSES
    summary = (
        "Advanced option: Tholian and cross-bloc traffic is heard by all; ships jam enemy "
        "channels (cutting a ship from its fleet) and probes' links."
    )

    def adv_after_power(self, battle: Battle, state: AdvancedState) -> None:
        for speaker in ("A", "B"):
            species = {a.species.id for a in state.side(speaker)}
            why = open_reason(species)
            listener = other(speaker)
            if not why or not state.side(listener):
                continue
            if any(a.decoded for a in state.side(listener)):
                continue  # already decoded this turn: the core logged the plans
            battle.record(ChannelOpen(listener, speaker, why))
            plans = {
                a.id: str(a.plan).partition(":")[2]
                for a in state.side(speaker)
                if a.plan is not None
            }
            if plans:
                battle.note(ae.TrafficDecoded, listener, plans)

    def adv_after_move(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Sequence[Step[Battle]]:
        jams = comms_of(state).jams
        live = {p.id for p in probes_of(state).probes.values() if p.alive}
        for jammer, target in list(jams.items()):  # the jammer or its target gone
            if not state.of(jammer).alive or (
                target not in live and (target not in state.ships or not state.of(target).alive)
            ):
                battle.record(JamTried(jammer, "-", 0, 0, True))
        if phase != 1:
            return ()
        return (Each(_JAMS, sides),)


def _ask_jams(battle: Battle, side: str, phase: int) -> JamDecision | None:
    """In a turn's first phase a side's ships may start or stop jamming (ADV-COMM-04)."""
    options = tuple(jam_options(state_of(battle), side))
    return JamDecision(side, battle.turn, options) if options else None


_JAMS = Asked(
    JamDecision, JamOrder, "JAM", _ask_jams, on_decision(verify_jams), by_order(carry_out)
)
