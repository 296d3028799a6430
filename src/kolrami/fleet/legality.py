"""Squad building: every rule a fleet must meet, checked at once, each problem reported with a
stable code, the catalogue rule, a path into the fleet and how to fix it (OP-13, OP-14, OP-15,
OP-16, FBS-03, FBS-04, FBS-05, FBS-06, FBS-07, FBS-08, FBS-09, FBS-10, FBS-11, FBS-12,
FPF-MASK-02).

One engine of rules: each check below reads the fleet and the card data and yields Violations;
`validate` runs them all and adds up the sheet's totals (FBS-06, FBS-08).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from kolrami.catalog import ShipPack
from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import Card
from kolrami.catalog.cards import CardKind
from kolrami.catalog.cards import cards
from kolrami.catalog.models import FactionCode
from kolrami.catalog.models import ShipClass
from kolrami.catalog.models import UpgradeType
from kolrami.errors import UnknownNameError
from kolrami.fleet.document import Fleet

DEFAULT_SP_LIMIT = 300  # see docs/rules.md, OP-13
MAX_SQUADRON = 3  # FPF-MASK-02
MAX_ESCORTS = 1  # a non-combatant escort in a fourth slot (FPF-MASK-04)
ADMIRALS_PER_FLEET = 1  # see docs/rules.md, FBS-11

#: Codes that stop a battle, not just an event entry (kolrami.fleet.model.parse_fleet).
PLAY_BLOCKING = frozenset(
    {
        "unknown-card",
        "squadron-size",
        "squadron-escorts",
        "wrong-card-type",
        "captain-limit",
        "admiral-limit",
    }
)


@dataclass(frozen=True, slots=True)
class Violation:
    """One problem: a stable code, the rule it breaks, where it is, and how to fix it."""

    code: str
    rule: str
    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        """As JSON."""
        return {"code": self.code, "rule": self.rule, "path": self.path, "message": self.message}


@dataclass(frozen=True, slots=True)
class EventSettings:
    """What an event decides about squad building."""

    sp_limit: int | None = DEFAULT_SP_LIMIT
    #: extra SP per card whose faction is neither the ship's nor Independent (0: off)
    faction_surcharge: int = 0
    admirals_per_fleet: int = ADMIRALS_PER_FLEET


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One row of a ship block on the Fleet Build Sheet (FBS-03)."""

    title: str
    type: str  # Ship, Captain, Admiral, or the upgrade code C/E/T/W/B/S (FBS-04)
    faction: str  # FBS-05 code
    sp: int
    path: str
    known: bool = True


@dataclass(frozen=True, slots=True)
class ShipTotal:
    """A ship's rows and its Total SP (FBS-06)."""

    index: int
    squadron: int
    ship_class: str
    name: str
    lines: tuple[SheetLine, ...]

    @property
    def total_sp(self) -> int:
        """The sum of the rows."""
        return sum(line.sp for line in self.lines)


@dataclass(slots=True)
class FleetReport:
    """Everything squad building says about a fleet."""

    fleet: Fleet
    settings: EventSettings
    ships: list[ShipTotal] = field(default_factory=list)
    resource: SheetLine | None = None
    errors: list[Violation] = field(default_factory=list)

    @property
    def total_build(self) -> int:
        """Ships plus the resource (FBS-08)."""
        return sum(s.total_sp for s in self.ships) + (self.resource.sp if self.resource else 0)

    @property
    def valid(self) -> bool:
        """No problem found."""
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        """The shape `kolrami fleet validate --json` and `fleet show --json` print: the build
        sheet's rows and totals, and every problem."""
        return {
            "name": self.fleet.name,
            "valid": self.valid,
            "total_build": self.total_build,
            "sp_limit": self.settings.sp_limit,
            "ships": [
                {
                    "number": s.index + 1,
                    "class": s.ship_class,
                    "name": s.name,
                    "squadron": s.squadron,
                    "cards": [_line_json(line) for line in s.lines],
                    "total_sp": s.total_sp,
                }
                for s in self.ships
            ],
            "resource": _line_json(self.resource) if self.resource else None,
            "errors": [e.to_json() for e in self.errors],
        }


def _line_json(line: SheetLine) -> dict[str, Any]:
    return {
        "title": line.title,
        "type": line.type,
        "faction": line.faction,
        "sp": line.sp,
        "known": line.known,
    }


class _Context:
    """What the checks share: the fleet, its classes and cards looked up once."""

    def __init__(self, fleet: Fleet, pack: ShipPack, settings: EventSettings) -> None:
        self.fleet = fleet
        self.pack = pack
        self.settings = settings
        self.cards = cards()
        self.classes: list[ShipClass | None] = []
        for s in fleet.ships:
            try:
                self.classes.append(pack.get(s.id))
            except UnknownNameError:
                self.classes.append(None)

    def placed(self) -> Iterator[tuple[int, str, str, str]]:
        """(ship index, slot, card id, path) for every card on every ship."""
        for i, ship in enumerate(self.fleet.ships):
            for j, card in enumerate(ship.captains()):
                yield i, "captain", card, _path(i, "captain", j, ship.captain)
            for j, card in enumerate(ship.admirals()):
                yield i, "admiral", card, _path(i, "admiral", j, ship.admiral)
            for slot, ids in ship.upgrades.items():
                for j, card in enumerate(ids):
                    yield i, slot, card, f"ships[{i}].upgrades.{slot}[{j}]"


def _path(i: int, slot: str, j: int, value: str | list[str] | None) -> str:
    return f"ships[{i}].{slot}" + (f"[{j}]" if isinstance(value, list) else "")


Check = Callable[[_Context], Iterator[Violation]]
CHECKS: list[Check] = []


def check(func: Check) -> Check:
    """Register a squad-building check."""
    CHECKS.append(func)
    return func


def _suggest(unknown: str, known: list[str]) -> str:
    close = difflib.get_close_matches(unknown, known, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


@check
def _unknown_ids(ctx: _Context) -> Iterator[Violation]:
    for i, (ship, cls) in enumerate(zip(ctx.fleet.ships, ctx.classes, strict=True)):
        if cls is None:
            try:
                ctx.pack.get(ship.id)
            except UnknownNameError as exc:
                yield Violation(
                    "unknown-card", "FBS-12", f"ships[{i}].id", f"{exc} (kolrami ships)"
                )
    for _, _, card, path in ctx.placed():
        if card not in ctx.cards:
            yield Violation(
                "unknown-card",
                "FBS-12",
                path,
                f"no card '{card}'{_suggest(card, list(ctx.cards))}; see kolrami "
                "cards (the id is kept in the fleet)",
            )
    for j, res in enumerate(ctx.fleet.resources()):
        if res not in ctx.cards:
            path = "resource" + (f"[{j}]" if isinstance(ctx.fleet.resource, list) else "")
            yield Violation(
                "unknown-card",
                "FBS-12",
                path,
                f"no resource '{res}'{_suggest(res, list(ctx.cards))}; see "
                "kolrami cards --type resource",
            )


@check
def _card_types(ctx: _Context) -> Iterator[Violation]:
    wanted = {"captain": CardKind.CAPTAIN, "admiral": CardKind.ADMIRAL}
    for _, slot, card_id, path in ctx.placed():
        card = ctx.cards.get(card_id)
        if card is None:
            continue
        if slot in wanted:
            if card.kind is not wanted[slot]:
                yield Violation(
                    "wrong-card-type",
                    "FBS-04",
                    path,
                    f"'{card.name}' is a {card.kind.value}, not a {slot}; move it to its own place",
                )
            continue
        try:
            kind = UpgradeType(slot)
        except ValueError:
            names = ", ".join(t.value for t in UpgradeType)
            yield Violation(
                "wrong-card-type",
                "FBS-04",
                path,
                f"'{slot}' is not an upgrade type; use one of {names}",
            )
            continue
        if card.kind is not CardKind.UPGRADE or card.type is not kind:
            what = card.type.value if card.type else card.kind.value
            yield Violation(
                "wrong-card-type",
                "FBS-04",
                path,
                f"'{card.name}' is a {what} card, not a {kind.value} upgrade; put it "
                f"under its own type",
            )
    for j, res in enumerate(ctx.fleet.resources()):
        card = ctx.cards.get(res)
        if card is not None and card.kind is not CardKind.RESOURCE:
            path = "resource" + (f"[{j}]" if isinstance(ctx.fleet.resource, list) else "")
            yield Violation(
                "wrong-card-type",
                "FBS-07",
                path,
                f"'{card.name}' is a {card.kind.value}, not a resource",
            )


@check
def _squadron_size(ctx: _Context) -> Iterator[Violation]:
    # a non-combatant escort rides in a fourth slot of its own, one a squadron (FPF-MASK-04)
    seen: dict[int, int] = {}
    escorts: dict[int, int] = {}
    for i, ship in enumerate(ctx.fleet.ships):
        if ship.escort:
            escorts[ship.squadron] = escorts.get(ship.squadron, 0) + 1
            if escorts[ship.squadron] == MAX_ESCORTS + 1:
                yield Violation(
                    "squadron-escorts",
                    "FPF-MASK-04",
                    f"ships[{i}].escort",
                    f"squadron {ship.squadron} has more than {MAX_ESCORTS} non-combatant "
                    f"escort; one may fly as its fourth ship (FPF-MASK-04): clear 'escort' on "
                    "this ship or move it to another squadron",
                )
            continue
        seen[ship.squadron] = seen.get(ship.squadron, 0) + 1
        if seen[ship.squadron] == MAX_SQUADRON + 1:
            count = sum(1 for s in ctx.fleet.ships if s.squadron == ship.squadron and not s.escort)
            yield Violation(
                "squadron-size",
                "FPF-MASK-02",
                f"ships[{i}].squadron",
                f"squadron {ship.squadron} has {count} ships; a squadron holds at "
                f"most {MAX_SQUADRON} (FPF-MASK-02): move a ship to another "
                "squadron, or mark a ship that fires nothing 'escort' (FPF-MASK-04)",
            )


@check
def _bases_alone(ctx: _Context) -> Iterator[Violation]:
    """A fixed base flies in a squadron of its own: in a formation it would hold every wingman
    at speed 0 (docs/rules.md, Bases in FPF)."""
    for i, (ship, cls) in enumerate(zip(ctx.fleet.ships, ctx.classes, strict=True)):
        if cls is None or not cls.stationary:
            continue
        mates = sum(1 for s in ctx.fleet.ships if s.squadron == ship.squadron) - 1
        if mates:
            yield Violation(
                "base-in-squadron",
                "FPF-MASK-02",
                f"ships[{i}].squadron",
                f"{cls.name} is a fixed base and shares squadron {ship.squadron} with {mates} "
                "other ship(s); give it a squadron of its own (docs/rules.md, Bases in FPF)",
            )


@check
def _captains_and_admirals(ctx: _Context) -> Iterator[Violation]:
    admirals = 0
    for i, ship in enumerate(ctx.fleet.ships):
        for role, aboard in (("captain", ship.captains()), ("admiral", ship.admirals())):
            if len(aboard) > 1:
                yield Violation(
                    f"{role}-limit",
                    "FBS-11",
                    f"ships[{i}].{role}",
                    f"{len(aboard)} {role}s on one ship; keep one",
                )
        for j, _ in enumerate(ship.admirals()):
            admirals += 1
            if admirals == ctx.settings.admirals_per_fleet + 1:
                yield Violation(
                    "admiral-limit",
                    "FBS-11",
                    _path(i, "admiral", j, ship.admiral),
                    f"a fleet takes at most {ctx.settings.admirals_per_fleet} "
                    "admiral(s); remove the others",
                )


@check
def _slots(ctx: _Context) -> Iterator[Violation]:
    for i, (ship, cls) in enumerate(zip(ctx.fleet.ships, ctx.classes, strict=True)):
        if cls is None:
            continue
        for slot, ids in ship.upgrades.items():
            try:
                kind = UpgradeType(slot)
            except ValueError:
                continue  # reported as wrong-card-type
            room = cls.slots.of(kind)
            for j in range(room, len(ids)):
                yield Violation(
                    "slot-limit",
                    "FBS-03",
                    f"ships[{i}].upgrades.{slot}[{j}]",
                    f"{cls.name} has {room} {kind.value} slot(s) and carries "
                    f"{len(ids)}; remove {len(ids) - room}",
                )


@check
def _unique(ctx: _Context) -> Iterator[Violation]:
    first: dict[str, str] = {}
    for _, _, card_id, path in ctx.placed():
        card = ctx.cards.get(card_id)
        if card is None or not card.unique:
            continue
        if card_id in first:
            yield Violation(
                "duplicate-unique",
                "OP-13",
                path,
                f"'{card.name}' is unique and already at {first[card_id]}; a fleet takes one copy",
            )
        else:
            first[card_id] = path


@check
def _restrictions(ctx: _Context) -> Iterator[Violation]:
    for i, _slot, card_id, path in ctx.placed():
        card, cls = ctx.cards.get(card_id), ctx.classes[i]
        if card is None or cls is None:
            continue
        r = card.restriction
        if r.factions and cls.faction.code not in r.factions:
            allowed = "/".join(f.value for f in r.factions)
            yield Violation(
                "faction-restriction",
                "FBS-05",
                path,
                f"'{card.name}' may only serve on {allowed} ships, not on a "
                f"{cls.faction.code.value} {cls.name}",
            )
        if r.ship_types and cls.type not in r.ship_types:
            yield Violation(
                "faction-restriction",
                "FBS-05",
                path,
                f"'{card.name}' fits only {', '.join(r.ship_types)} ships, not a {cls.type}",
            )


@check
def _resources(ctx: _Context) -> Iterator[Violation]:
    found = ctx.fleet.resources()
    if len(found) > 1:
        yield Violation(
            "too-many-resources",
            "OP-15",
            "resource",
            f"{len(found)} resources; a fleet takes at most one: keep one of {', '.join(found)}",
        )


def _card_sp(ctx: _Context, card: Card, cls: ShipClass) -> int:
    surcharge = ctx.settings.faction_surcharge
    mismatch = card.faction not in (cls.faction.code, FactionCode.IND)
    return card.cost + (surcharge if surcharge and mismatch else 0)


def _totals(ctx: _Context, report: FleetReport) -> None:
    """The sheet's rows and totals (FBS-03, FBS-06, FBS-08)."""
    by_ship: dict[int, list[SheetLine]] = {i: [] for i in range(len(ctx.fleet.ships))}
    for i, ship in enumerate(ctx.fleet.ships):
        cls = ctx.classes[i]
        by_ship[i].append(
            SheetLine(
                cls.name if cls else ship.id,
                "Ship",
                cls.faction.code.value if cls else "?",
                cls.value if cls else 0,
                f"ships[{i}].id",
                cls is not None,
            )
        )
    for i, slot, card_id, path in ctx.placed():
        card, cls = ctx.cards.get(card_id), ctx.classes[i]
        if card is None or cls is None:
            by_ship[i].append(SheetLine(card_id, slot.title(), "?", 0, path, False))
            continue
        by_ship[i].append(
            SheetLine(card.name, card.type_code, card.faction.value, _card_sp(ctx, card, cls), path)
        )
    for i, ship in enumerate(ctx.fleet.ships):
        cls = ctx.classes[i]
        report.ships.append(
            ShipTotal(
                i,
                ship.squadron,
                ship.id,
                ship.name or (cls.name if cls else ship.id),
                tuple(by_ship[i]),
            )
        )
    resources = ctx.fleet.resources()
    if resources:
        card = ctx.cards.get(resources[0])
        report.resource = SheetLine(
            card.name if card else resources[0],
            "Resource",
            card.faction.value if card else "?",
            card.cost if card else 0,
            "resource",
            card is not None,
        )
        for extra in resources[1:]:
            more = ctx.cards.get(extra)
            report.resource = SheetLine(
                report.resource.title,
                "Resource",
                report.resource.faction,
                report.resource.sp + (more.cost if more else 0),
                "resource",
                report.resource.known,
            )


def validate(
    fleet: Fleet,
    limit: int | None = DEFAULT_SP_LIMIT,
    settings: EventSettings | None = None,
    pack: ShipPack | None = None,
) -> FleetReport:
    """Run every check and total the sheet; `limit` None skips the budget (OP-13)."""
    settings = settings or EventSettings(sp_limit=limit)
    if settings.sp_limit != limit:
        settings = EventSettings(limit, settings.faction_surcharge, settings.admirals_per_fleet)
    ctx = _Context(fleet, pack or builtin_pack(), settings)
    report = FleetReport(fleet, settings)
    for rule in CHECKS:
        report.errors.extend(rule(ctx))
    _totals(ctx, report)
    if settings.sp_limit is not None and report.total_build > settings.sp_limit:
        over = report.total_build - settings.sp_limit
        report.errors.append(
            Violation(
                "over-budget",
                "OP-13",
                "ships",
                f"Total Build {report.total_build} SP exceeds the {settings.sp_limit} SP limit by "
                f"{over}; remove {over} SP of ships or cards (FBS-08, FBS-12)",
            )
        )
    return report


def place(path: str, report: FleetReport) -> str:
    """A problem's place as a player counts: 'ships[3].squadron' is 'ship 4 (Sting), squadron'."""
    m = re.match(r"ships\[(\d+)\]\.?(.*)", path)
    if m is None:
        return path
    index = int(m.group(1))
    named = next((f" ({s.name})" for s in report.ships if s.index == index), "")
    rest = m.group(2).replace("_", " ")
    return f"ship {index + 1}{named}" + (f", {rest}" if rest else "")


def faction_notes(report: FleetReport, how_to_check: str = "") -> list[str]:
    """What mixes factions in the fleet, and what that costs under the report's settings: the
    faction surcharge is an event setting, off (0) unless the event sets one (docs/rules.md,
    "Faction-mismatch surcharge"). A mixed fleet is legal; these notes say so, and that the
    rule is off, so that a Klingon ship in a Federation fleet does not pass unremarked (issue
    47 item 16). `how_to_check` (the CLI's "check with --surcharge N") ends the note on the
    cost when the surcharge is off."""
    extra = report.settings.faction_surcharge
    off = "the faction surcharge is off unless the event sets one" + (
        f" ({how_to_check})" if how_to_check else ""
    )
    mixed = sorted({s.lines[0].faction for s in report.ships if s.lines})
    cards = [
        f"{line.title} ({line.faction}) on {ship.name} ({ship.lines[0].faction})"
        for ship in report.ships
        for line in ship.lines[1:]
        if line.known and line.faction not in (ship.lines[0].faction, FactionCode.IND.value)
    ]
    notes = []
    if len(mixed) > 1:
        declared = f" in a fleet declared {report.fleet.faction}" if report.fleet.faction else ""
        rule = (
            f"the event's faction surcharge ({extra} SP) is on cards of another faction than "
            "their ship, never on ships"
            if extra
            else off
        )
        notes.append(
            f"ships of {len(mixed)} factions ({', '.join(mixed)}){declared}: allowed in one "
            f"fleet; {rule}"
        )
    if cards:
        cost = (
            f"each costs {extra} SP more (the event's faction surcharge)"
            if extra
            else f"no extra SP here: {off}"
        )
        shown = "; ".join(cards[:3]) + (f"; and {len(cards) - 3} more" if len(cards) > 3 else "")
        notes.append(f"cards of another faction: {shown}; {cost}")
    return notes
