"""A battle in progress with a human at one side or both (`kolrami play`, the web's /play).

A `PlaySession` drives a battle one decision at a time (kolrami.engine.driver.play): the seats
held by AI captains answer at once, each with its own side's view only; a human seat
waits for `submit(text)`, an order in the log's text form. An order is checked with the rules'
own verify functions before it is sent, so a refusal is the rules' message with its clause id
and the battle is untouched. Everything that happened is the battle's event log: a session is
saved as that log and resumed by replaying its orders, and the finished log re-runs identically
with `kolrami replay LOG --orders`.

Undo takes back the last order a human gave, with whatever the AI seats answered after it, by
playing the battle again from its log without that order. The seed is the battle's, so the
dice that followed the order come again: where some had rolled (and been seen) since it was
given, the undo is written in the log's header (`undone`: whose order, which, after how many
orders, how many dice had been seen), so a replay shows it. A game that forbids that (a
tournament's or a ladder's: `undo="unseen"`, kept in the header too) takes back only an order no
die has followed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from kolrami import rules
from kolrami.captains.base import default_repairs
from kolrami.captains.base import default_return
from kolrami.captains.registry import make_captain
from kolrami.catalog.models import Arc
from kolrami.catalog.models import WeaponKind
from kolrami.engine.battle import Battle
from kolrami.engine.driver import Game
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import play
from kolrami.engine.events import BattleStarted
from kolrami.engine.events import Event
from kolrami.engine.events import OrderGiven
from kolrami.engine.geometry import arc_to
from kolrami.engine.geometry import distance as cm_between
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.engine.orders import OrderSyntaxError
from kolrami.engine.view import ShipView
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.advanced.choices import Choice
from kolrami.rules.advanced.choices import Menu
from kolrami.rules.advanced.choices import describe
from kolrami.rules.advanced.choices import menu
from kolrami.rules.fpf.movement import plan_path
from kolrami.rules.fpf.orders import ActivationDecision
from kolrami.rules.fpf.orders import InitiativeDecision
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.rules.fpf.view import BattleView
from kolrami.rules.registry import parse_order
from kolrami.rules.registry import read_log
from kolrami.scenarios.models import Scenario
from kolrami.sim.odds import VolleyOdds
from kolrami.sim.odds import WeaponGroup
from kolrami.sim.odds import volley_odds

#: The seat name of a human player (what the log's header names as that side's captain).
HUMAN = "human"
SIDES = ("A", "B")
#: What undo may take back: any human order, noting in the log one whose dice were seen
#: ("record", the default), or only an order no die has followed ("unseen": tournament and
#: ladder games). The log's header keeps a policy other than the default ("undo").
UNDO_RECORD = "record"
UNDO_UNSEEN = "unseen"
UNDO_POLICIES = (UNDO_RECORD, UNDO_UNSEEN)

_RULE_ID = re.compile(r"\b((?:FPF|PP|ADV|OP|FBS|CARD)(?:-[A-Z]+)*-\d+)\b")


def rule_ids(message: str) -> list[str]:
    """The clause ids a refusal names, in order (the rules cite them as '(FPF-MOV-07)')."""
    return _RULE_ID.findall(message)


#: docs/rules.md in a source checkout (the readings of the rules, by clause id); absent from an
#: installed wheel, where a refusal still names its clause
RULES_DOC = Path(__file__).resolve().parents[3] / "docs" / "rules.md"


def rule_reading(rule_id: str, doc: Path = RULES_DOC) -> tuple[str, str] | None:
    """The heading and text of the docs/rules.md section whose heading names `rule_id`, or
    None when the document has none (or is not there)."""
    try:
        text = doc.read_text(encoding="utf-8")
    except OSError:
        return None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("#") and re.search(rf"\b{re.escape(rule_id)}\b", line):
            body = []
            for more in lines[i + 1 :]:
                if more.startswith("#"):
                    break
                body.append(more)
            return line.lstrip("# ").strip(), "\n".join(body).strip()
    return None


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an order was not taken: one line, and the clause ids behind it."""

    message: str
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InReach:
    """A target one of a side's ships bears on now: through `arc`, at `range_cm`, with the
    weapon kinds that reach it."""

    firer: str
    arc: Arc
    target: str
    range_cm: float
    kinds: tuple[WeaponKind, ...]


def verify(battle: Battle, decision: Decision, order: Order) -> None:
    """The rules' own check of `order` as the answer to `decision`, the battle's pending one
    (IllegalOrderError says why, with the clause id): the asking step's check, for every game;
    the battle is never touched."""
    if battle.pending != decision:
        raise IllegalOrderError(f"the battle does not wait on {decision} now")
    rules.verify(battle, order)


class PlaySession:
    """One battle, its seats (a captain's name or HUMAN for each side) and where it stands."""

    def __init__(
        self,
        scenario: Scenario,
        fleets: tuple[Fleet, Fleet],
        seed: int,
        seats: tuple[str, str],
        extra_rules: tuple[str, ...] = (),
        orders: Sequence[str] = (),
        undo: str = UNDO_RECORD,
        undone: Sequence[dict[str, Any]] = (),
    ) -> None:
        if undo not in UNDO_POLICIES:
            raise InvalidInputError(f"undo '{undo}': choose {' or '.join(UNDO_POLICIES)}")
        self.scenario = scenario
        self.fleets = fleets
        self.seed = seed
        self.seats = seats
        self.extra_rules = extra_rules
        self.undo_policy = undo
        #: the undos taken after their dice were seen, as the log's header lists them
        self.undone: list[dict[str, Any]] = [dict(u) for u in undone]
        self._start(orders)

    # --- building and replaying --------------------------------------------------------------

    def _start(self, orders: Sequence[str]) -> None:
        battle = new_battle(
            self.scenario, self.fleets, self.seed, self.seats, None, self.extra_rules
        )
        self.battle = battle
        # what undo may do, and the undos that saw dice: in the log's header (line 1), which
        # the battle writes out when the log is read
        if self.undo_policy != UNDO_RECORD:
            battle.header["undo"] = self.undo_policy
        if self.undone:
            battle.header["undone"] = [dict(u) for u in self.undone]
        self.views: dict[str, BattleView] = {s: battle.rules.view(battle, s) for s in SIDES}
        self.captains = {
            side: make_captain(name, captain_dice(self.seed, side))
            for side, name in zip(SIDES, self.seats, strict=True)
            if name != HUMAN
        }
        self.game: Game = play(battle)
        self.result: Any = None
        #: the battle's dice rolled before each logged order: undo goes back no further than
        #: the last roll or the other side's order
        self._rolls: list[int] = []
        self._sides: list[str] = []
        self.decision: Decision | None = None
        self._menu: tuple[tuple[int, Decision], Menu | None] | None = None
        try:
            self.decision = next(self.game)
        except StopIteration as stop:  # pragma: no cover - every battle asks something
            self.result = stop.value
        for text in orders:
            if self.decision is None:
                raise InvalidInputError("the log has orders after its battle ended")
            side = self.decision.side
            if side in self.captains:  # keep the AI's own state as it was when it played
                self.captains[side].decide(self.views[side], self.decision)
            try:
                order = parse_order(text)
            except OrderSyntaxError as exc:
                raise InvalidInputError(f"the log's order '{text}' does not read: {exc}") from None
            self._send(order)
        self._advance()

    @classmethod
    def resume(cls, text: str, seats: tuple[str, str] | None = None) -> PlaySession:
        """A session from a (partial or whole) event log: its header's battle with its orders
        replayed; `seats` replaces the header's captains (who plays each side from now on)."""
        try:
            events = read_log(text)
        except (ValueError, TypeError) as exc:
            raise InvalidInputError(f"not a Kolrami event log: {exc}") from None
        if not events or not isinstance(events[0], BattleStarted):
            raise InvalidInputError("the log does not start with a battle_started header")
        header = events[0].header
        scenario, fleets, captains, seed, extra = rebuild(header)
        orders = [e.order for e in events if isinstance(e, OrderGiven)]
        undone = header.get("undone", [])
        policy = header.get("undo", UNDO_RECORD)
        if not isinstance(undone, list) or not all(isinstance(u, dict) for u in undone):
            raise InvalidInputError("the log's header lists its undos in a form not read here")
        return cls(scenario, fleets, seed, seats or captains, extra, orders, policy, undone)

    def _send(self, order: Order) -> None:
        assert self.decision is not None
        self._rolls.append(self.battle.dice.rolls)
        self._sides.append(self.decision.side)
        try:
            self.decision = self.game.send(order)
        except StopIteration as stop:
            self.decision = None
            self.result = stop.value

    def _advance(self) -> None:
        """Let the AI seats answer until a human decides or the battle ends."""
        while self.decision is not None and self.decision.side in self.captains:
            side = self.decision.side
            self._send(self.captains[side].decide(self.views[side], self.decision))

    # --- what a player does ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the battle has ended."""
        return self.decision is None

    def check(self, text: str) -> tuple[Order | None, Refusal | None]:
        """The order `text` reads as, or why it cannot be given now."""
        if self.decision is None:
            return None, Refusal("the battle is over", ())
        try:
            order = parse_order(text.strip())
        except OrderSyntaxError as exc:
            return None, Refusal(str(exc), ())
        try:
            verify(self.battle, self.decision, order)
        except IllegalOrderError as exc:
            msg = str(exc)
            return None, Refusal(msg, tuple(rule_ids(msg)))
        return order, None

    def submit(self, text: str) -> Refusal | None:
        """Give the order `text` for the side now deciding; None when it was taken (then the AI
        seats play on), else the refusal, with the battle untouched."""
        order, refusal = self.check(text)
        if refusal is not None:
            return refusal
        assert order is not None
        self._send(order)
        self._advance()
        return None

    def menu(self) -> Menu | None:
        """The legal choices of the decision asked now, each an order the rules accept
        (kolrami.rules.advanced.choices: the advanced game's decisions and Peak Performance's
        returns), or None where the decision has no such list (FPF's orders are composed)."""
        d = self.decision
        if d is None:
            return None
        key = (len(self._sides), d)
        if self._menu is None or self._menu[0] != key:
            self._menu = (key, menu(self.views[d.side], d))
        return self._menu[1]

    def pick(self, text: str) -> str | None:
        """The order that numbers like `3` or `2 5` pick from the menu (parts of different
        ships' choices combine into one order), or None when `text` is not numbers.
        InvalidInputError names a number out of range or parts that do not combine."""
        words = text.split()
        if not words or not all(w.isdigit() for w in words):
            return None
        m = self.menu()
        if m is None or not m.choices:
            raise InvalidInputError(
                "this decision has no numbered choices: give the order in the log's text form"
            )
        picks: list[Choice] = []
        for w in words:
            n = int(w)
            if not 1 <= n <= len(m.choices):
                raise InvalidInputError(
                    f"choice {n}: pick a number from 1 to {len(m.choices)} (? lists them)"
                )
            picks.append(m.choices[n - 1])
        try:
            return m.combine(picks)
        except ValueError as exc:
            raise InvalidInputError(f"choices {text.strip()}: {exc}") from None

    def orders(self) -> list[tuple[str, str]]:
        """(side, order text) of every order given so far."""
        return [(e.side, e.order) for e in self.battle.log if isinstance(e, OrderGiven)]

    def _human_orders(self) -> list[int]:
        """The indexes (in the orders given) of the orders human seats gave."""
        return [i for i, side in enumerate(self._sides) if self.seats[SIDES.index(side)] == HUMAN]

    def dice_seen(self, index: int) -> int:
        """How many of the battle's dice have rolled since order `index` was given."""
        return self.battle.dice.rolls - self._rolls[index]

    def undoable(self) -> int:
        """How many human orders undo can take back, one after another (under "unseen", back
        to the last one a die has followed)."""
        if self.decision is None:
            return 0
        human = self._human_orders()
        if self.undo_policy == UNDO_RECORD:
            return len(human)
        return sum(1 for i in human if self.dice_seen(i) == 0)

    def last_undoable(self) -> tuple[int, str, str, list[tuple[str, str]]] | None:
        """What undo would take back now: (index, side, order text, the AI seats' answers
        after it as (side, text)), or None when no human has given an order."""
        human = self._human_orders()
        if self.decision is None or not human:
            return None
        k = human[-1]
        given = self.orders()
        return k, given[k][0], given[k][1], given[k + 1 :]

    def undo(self) -> str:
        """Take back the last order a human gave (and what the AI seats answered after it),
        by playing the battle again from its log without it; returns its text. Where dice had
        rolled since it was given, the undo is noted in the log's header; under "unseen" such
        an order stands."""
        last = self.last_undoable()
        if last is None:
            raise InvalidInputError(
                "nothing to undo: no order has been given at this terminal yet"
                if self.decision is not None
                else "nothing to undo: the battle is over"
            )
        k, side, text, _ = last
        seen = self.dice_seen(k)
        if seen and self.undo_policy == UNDO_UNSEEN:
            raise InvalidInputError(
                f"'{text}' stands: {seen} {'die has' if seen == 1 else 'dice have'} rolled "
                "since it was given, and this game takes back only an order no die has "
                "followed (a tournament or ladder game)"
            )
        texts = [t for _, t in self.orders()]
        if seen:
            self.undone.append({"side": side, "order": text, "after": k, "dice_seen": seen})
        self._start(texts[:k])
        return text

    def log_text(self) -> str:
        """The event log so far, as JSON lines: save it to resume the battle."""
        return self.battle.log.jsonl()

    def events_since(self, start: int) -> list[Event]:
        """The log's events from index `start` on."""
        return self.battle.log.events()[start:]

    def hides_anything(self) -> bool:
        """Whether this battle's rules can hide something from one side (cloaks, mines): then a
        hot-seat game shows a 'pass the device' screen between the sides."""
        return self.battle.sight is not None

    def view(self, side: str) -> BattleView:
        """What `side` may know (its captain's view)."""
        return self.views[side]

    # --- help for a human --------------------------------------------------------------------

    def in_reach(self, side: str) -> list[InReach]:
        """Every (own ship, arc, visible enemy) where a working weapon bears and reaches now."""
        view = self.views[side]
        out = []
        for s in view.own_ships():
            if not s.on_table:
                continue
            for e in view.enemies():
                if not e.on_table:
                    continue
                arc = arc_to(s.x, s.y, s.heading, e.x, e.y)
                r = cm_between(s.x, s.y, e.x, e.y)
                kinds = tuple(k for k in s.bears(arc) if r <= s.ranges[k])
                if kinds:
                    out.append(InReach(s.id, arc, e.id, r, kinds))
        return out

    def odds(
        self, side: str, firer: str, arc: Arc, target: str, anywhere: bool = False
    ) -> VolleyOdds:
        """Exact odds of `firer`'s volley through `arc` at `target` as the ships stand now (the
        odds `kolrami odds` gives, with the firer's working shots and the target's shields);
        `anywhere`: every weapon bearing on the arc, as if the target were within their range
        (a lock declared now fires during the move, wherever it then reaches)."""
        view = self.views[side]
        try:
            s, t = view.ship(firer), view.ship(target)
        except KeyError:
            raise InvalidInputError(f"no ship '{firer}' or '{target}' in {side}'s view") from None
        groups = volley_groups(s, arc, t, anywhere)
        return volley_odds(groups, t.shields, t.cls.hit_locations)

    def end_positions(self, side: str) -> dict[str, list[tuple[str, float, float, int]]]:
        """For the squadron `side` is ordering: each mover's reachable end points, by
        manoeuvre (its text, x, y, heading), speeds in 5 cm steps and both ends."""
        d = self.decision
        if not isinstance(d, OrdersDecision) or d.side != side:
            return {}
        view = self.views[side]
        out: dict[str, list[tuple[str, float, float, int]]] = {}
        for mover in d.movers:
            start = view.mover_position(mover, d.squadron)
            lo, hi = view.speed_limits(mover, d.squadron, False)
            if lo > hi:
                continue
            speeds = sorted({lo, hi, *range((lo // 5 + 1) * 5, hi, 5)})
            ends = []
            ignore = set(view.squadron(d.squadron).ships)
            for speed in speeds:
                turns = [(0, 0)] if speed == 0 else [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)]
                for t1, t2 in turns:
                    m = Maneuver(speed, t1, t2)
                    path, _, _ = plan_path(self.battle, start.x, start.y, start.heading, m, ignore)
                    x, y, h = path[-1]
                    ends.append((str(m), x, y, h))
            out["formation" if mover is None else mover] = ends
        return out


def volley_groups(
    firer: ShipView, arc: Arc, target: ShipView, anywhere: bool = False
) -> list[WeaponGroup]:
    """The weapon groups `firer` fires through `arc` at `target` now: working shots of each
    kind that bears and reaches (any range when `anywhere`), phasers first (FPF-FIRE-08,
    FPF-FIRE-15)."""
    r = cm_between(firer.x, firer.y, target.x, target.y)
    groups = []
    for kind in (WeaponKind.PHASER, WeaponKind.PHOTON):
        reaches = anywhere or r <= firer.ranges[kind]
        if kind in firer.bears(arc) and reaches and firer.shots(kind) > 0:
            groups.append(
                WeaponGroup(kind, firer.strength[kind], firer.shots(kind), firer.ranges[kind])
            )
    if not groups:
        raise InvalidInputError(
            f"{firer.id} has no working weapon in arc {arc.value} that reaches {target.id} "
            f"at {r:.0f} cm (FPF-ARC-04, FPF-FIRE-15)"
        )
    return groups


def percent(p: Fraction | float) -> str:
    """A probability as a percentage with one decimal."""
    v = float(p) * 100
    return "<0.1%" if 0 < v < 0.05 else f"{v:.1f}%"


#: A decision with more whole choices than this (a ship's moves) lists them in columns.
COLUMNS_FROM = 8


def menu_lines(m: Menu) -> list[str]:
    """A menu's numbered choices, in lines a player reads: parts of an order (one ship's)
    with what they do, whole orders alone in columns when there are many."""
    lines = []
    whole = [(i, c) for i, c in enumerate(m.choices, 1) if not c.item]
    if len(whole) > COLUMNS_FROM:
        width = max(len(c.order) for _, c in whole) + 6
        row: list[str] = []
        for i, c in whole:
            row.append(f"{i:>3}. {c.order}".ljust(width))
            if len(row) == 4:
                lines.append(" ".join(row).rstrip())
                row = []
        if row:
            lines.append(" ".join(row).rstrip())
    else:
        lines += [f"{i:>3}. {c.order}  ({c.label})" for i, c in whole]
    lines += [f"{i:>3}. {c.item}  ({c.label})" for i, c in enumerate(m.choices, 1) if c.item]
    if any(c.item for c in m.choices):
        lines.append(
            f"  type a number, or numbers of different ships' choices together (e.g. 2 5) for "
            f"one {m.head} order; or type the order"
        )
    else:
        lines.append("  type a number, or the order")
    lines.append(f"  e.g. {m.choices[0].order}")
    return lines


def choices(session: PlaySession, decision: Decision) -> list[str]:
    """The legal choices of `decision`, in lines a player reads, with an example order."""
    view = session.view(decision.side)
    d = decision
    m = session.menu() if decision == session.decision else None
    if m is not None and m.choices and not isinstance(d, ReturnDecision):
        return [describe(d), *menu_lines(m)]
    if isinstance(d, InitiativeDecision):
        return [f"You won the roll-off at {d.speed} cm: FIRST or SECOND (FPF-MOV-03)"]
    if isinstance(d, ActivationDecision):
        lines = ["Activate one squadron: " + " | ".join(f"ACT {q}" for q in d.squadrons)]
        for q, prey in d.forcible:
            lines.append(
                f"  {q} may force {', '.join(prey)} to move first: ACT {q} FORCE {prey[0]}"
            )
        return lines
    if isinstance(d, OrdersDecision):
        lines = [f"Orders for {d.squadron}: a manoeuvre for each mover, then FIRE or HOLD"]
        example = [d.squadron]
        for mover in d.movers:
            ship = view.mover_position(mover, d.squadron)
            lo, hi = view.speed_limits(mover, d.squadron, False)
            name = f"formation (led by {ship.id})" if mover is None else mover
            pivot = ""
            if ship.last_speed == 0:
                plo, phi = view.speed_limits(mover, d.squadron, True)
                if plo <= phi:
                    pivot = f"; or SPD {plo}-{phi} PIV-2..+3 T-1|0|+1 (pivot)"
            prefix = "" if mover is None else f"{mover}="
            lines.append(
                f"  {name}: {prefix}SPD {lo}-{hi} T-1|0|+1 T-1|0|+1 (last speed {ship.last_speed})"
                + pivot
            )
            speed = min(max(ship.last_speed, lo), hi)
            example.append(f"{prefix}SPD {speed} T0 T0")
        if d.firers:
            armed = []
            for sid in d.firers:
                arcs = "/".join(a.value for a in view.ship(sid).armed_arcs())
                armed.append(f"{sid} ({arcs})")
            lines.append(f"  may fire: {', '.join(armed)} at any of {', '.join(d.targets)}")
            if view.fires_as_unit():
                lines.append("  the squadron fires as a unit: every firer or none (FPF-FIRE-13)")
            reach_now = {r.firer: r for r in session.in_reach(d.side)}
            locks = []
            for sid in d.firers:
                r = reach_now.get(sid)
                if r is not None:
                    locks.append(f"{sid}:{r.arc.value}@{r.target}")
            if locks and len(locks) == len(d.firers):
                lines.append(f"  e.g. {' '.join(example)} FIRE {' '.join(locks)}")
        lines.append(f"  e.g. {' '.join(example)} HOLD")
        return lines
    if isinstance(d, ReactionDecision):
        return _reaction_choices(view, d)
    if isinstance(d, RepairDecision):
        lines = ["Damage control (FPF-REP-02): spend each ship's points on damaged items"]
        for sid, items, points in zip(d.ships, d.items, d.points, strict=True):
            lines.append(f"  {sid}: {points} point(s); damaged: {', '.join(items)}; computer")
        lines.append(f"  e.g. {default_repairs(view, d)}  |  REPAIR NONE")
        return lines
    if isinstance(d, ReturnDecision):
        lines = [
            f"{d.ship} returns to the table (PP-11): RETURN {d.ship} x y H<0-5>, "
            f"{len(d.spots)} legal spots",
            f"  e.g. {default_return(view, d)}",
        ]
        if m is not None and m.choices:
            lines += ["  or one of these:", *menu_lines(m)[:-1]]
        return lines
    return [f"{type(d).__name__}: {d}", "  give its order in the log's text form"]


def forward_targets(view: BattleView, firer: str, targets: Sequence[str]) -> list[str]:
    """Those of `targets` inside `firer`'s forward arc now, nearest first: a reaction lock
    fires only at a target moving inside that arc (FPF-FIRE-11, FPF-ARC-02)."""
    s = view.ship(firer)
    found = []
    for tid in targets:
        t = view.ship(tid)
        if t.on_table and arc_to(s.x, s.y, s.heading, t.x, t.y) is Arc.F:
            found.append((cm_between(s.x, s.y, t.x, t.y), tid))
    return [tid for _, tid in sorted(found)]


def _reaction_choices(view: BattleView, d: ReactionDecision) -> list[str]:
    """A reaction's choices: the example fire aims each firer at a target in its forward arc
    now; where a firer has none, holding is the example, and the lines say why."""
    ahead = {sid: forward_targets(view, sid, d.targets) for sid in d.firers}
    lines = [
        f"{d.mover} is about to move: {d.squadron} may react through its forward arc "
        f"(FPF-FIRE-11) at {', '.join(d.targets)}; a lock fires only while its target moves "
        "inside that arc, and declaring it uses the squadron's volley for the turn"
    ]
    for sid in d.firers:
        now = ahead[sid]
        lines.append(
            f"  {sid}: in its forward arc now: {', '.join(now)}"
            if now
            else f"  {sid}: none of {d.mover} is in its forward arc now"
        )
    if d.firers and all(ahead.values()):
        fire = " ".join(f"{sid}:F@{ahead[sid][0]}" for sid in d.firers)
        lines.append(f"  REACT {d.squadron} HOLD  |  REACT {d.squadron} {fire}")
    else:  # a lock on a ship outside the arc would most likely waste the volley
        lines.append(f"  REACT {d.squadron} HOLD")
    return lines
