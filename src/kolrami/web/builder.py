"""The players' fleet builder (/fleets/build): the catalogue with its filters, a fleet changed one
choice at a time, and each choice checked by squad building (kolrami.fleet.legality).

The fleet travels with the page as its share string (a hidden field, and in the download links),
so nothing is kept on the server. A choice that would add a problem of its own (a card on a ship
that may not carry it, a fourth ship in a squadron, a second copy of a unique card ...) is refused
with its rule and the fleet stays as it was; going over the budget is allowed and shown, so that
a player can add first and trim after, as on paper.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import Card
from kolrami.catalog.cards import CardKind
from kolrami.catalog.cards import cards
from kolrami.catalog.models import FactionCode
from kolrami.catalog.models import ShipClass
from kolrami.catalog.models import UpgradeType
from kolrami.errors import KolramiError
from kolrami.fleet.document import MAX_SHIPS
from kolrami.fleet.document import MAX_SP_LIMIT
from kolrami.fleet.document import MAX_SQUADRON_NUMBER
from kolrami.fleet.fleetx import share_string
from kolrami.fleet.legality import DEFAULT_SP_LIMIT
from kolrami.fleet.legality import FleetReport
from kolrami.fleet.legality import Violation
from kolrami.fleet.legality import place
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import read_fleet
from kolrami.web.forms import from_text
from kolrami.web.forms import whole_number

#: Problems a choice may bring without being refused: the budget is checked as the fleet grows.
ALLOWED_NEW = frozenset({"over-budget"})
#: The catalogue's kinds, in the order the filter offers them.
KINDS = ("ship", "captain", "admiral", *(t.value for t in UpgradeType), "resource")


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the catalogue: a ship class or a card."""

    id: str
    name: str
    kind: str  # ship, captain, admiral, an upgrade type or resource
    faction: str  # FBS-05 code
    cost: int
    role: str  # a ship's type ("Heavy Cruiser"); a card's restriction, if any
    text: str


def _ship_entry(s: ShipClass) -> Entry:
    return Entry(s.id, s.name, "ship", s.faction.code.value, s.value, s.type, s.faction.value)


def _card_entry(c: Card) -> Entry:
    kind = c.type.value if c.type is not None else c.kind.value
    limits = [f.value for f in c.restriction.factions] + list(c.restriction.ship_types)
    role = ("only " + "/".join(limits)) if limits else ""
    return Entry(c.id, c.name, kind, c.faction.value, c.cost, role, c.text)


def catalogue() -> list[Entry]:
    """Every ship class and card, ships first, each group by cost then name."""
    ships = sorted(builtin_pack().ships, key=lambda s: (s.value, s.name))
    every = sorted(cards().values(), key=lambda c: (KINDS.index(_card_entry(c).kind), c.cost))
    return [_ship_entry(s) for s in ships] + [_card_entry(c) for c in every]


def factions() -> list[str]:
    """The FBS-05 codes that something in the catalogue has, in the sheet's order."""
    present = {e.faction for e in catalogue()}
    return [f.value for f in FactionCode if f.value in present]


@dataclass(frozen=True, slots=True)
class Filters:
    """What the catalogue shows: a faction code, a kind, a most cost (None: any)."""

    faction: str = ""
    kind: str = ""
    cost_max: int | None = None

    def keep(self, e: Entry) -> bool:
        """Whether the entry passes every filter."""
        return (
            (not self.faction or e.faction == self.faction)
            and (not self.kind or e.kind == self.kind)
            and (self.cost_max is None or e.cost <= self.cost_max)
        )


def filters_of(values: Mapping[str, str]) -> Filters:
    """The filters a form or query gives; unknown values show everything."""
    faction = values.get("faction", "")
    kind = values.get("kind", "")
    return Filters(
        faction if faction in factions() else "",
        kind if kind in KINDS else "",
        whole_number(values.get("cost_max", ""), 10_000),
    )


@dataclass(slots=True)
class Build:
    """The fleet being built: its ships (FleetX dicts), resource, name and limit; the ship that
    cards go to; what the last choice did."""

    ships: list[dict[str, Any]] = field(default_factory=list)
    resource: str | None = None
    name: str = "My fleet"
    limit: int = DEFAULT_SP_LIMIT
    target: int | None = None
    refusal: Violation | None = None
    refused_choice: str = ""
    problem: str = ""  # a field's problem (the limit, a pasted fleet that could not be read)
    unread: bool = False  # the page's own fleet field could not be read (the problem says why)

    def fleet(self) -> Fleet | None:
        """The fleet document, or None while it has no ship."""
        if not self.ships:
            return None
        doc: dict[str, Any] = {"name": self.name, "points_limit": self.limit, "ships": self.ships}
        if self.resource:
            doc["resource"] = self.resource
        return read_fleet(doc, "fleet builder")

    def report(self) -> FleetReport | None:
        """Squad building's verdict on the fleet, against its limit."""
        fleet = self.fleet()
        return None if fleet is None else validate(fleet, self.limit)

    def share(self) -> str:
        """The share string, or '' while the fleet has no ship."""
        fleet = self.fleet()
        return "" if fleet is None else share_string(fleet)


def load(values: Mapping[str, str]) -> Build:
    """The build the page sent: its share string, name, limit and the selected ship."""
    build = Build()
    build.name = values.get("fleet_name", "").strip()[:100] or "My fleet"
    limit_text = values.get("limit", "").strip()
    limit = whole_number(limit_text, MAX_SP_LIMIT) if limit_text else DEFAULT_SP_LIMIT
    if limit is None or limit < 1:
        build.problem = (
            f"limit '{limit_text[:12]}': a whole number of SP from 1 to {MAX_SP_LIMIT:,} "
            "(OP-13); 300 if empty"
        )
    else:
        build.limit = limit
    text = values.get("fleet", "").strip()
    if text:
        form = from_text(text)
        if form.fleet is not None:
            take(build, form.fleet)
        else:  # an address or a page changed by hand: said, and the builder starts empty
            lines = [m for ms in form.errors.values() for m in ms]
            build.problem = (
                f"fleet: {lines[0] if lines else 'no fleet'}; open the fleet again below, "
                "or start again"
            )
            build.unread = True
    build.target = _index(values.get("target", ""), len(build.ships))
    return build


def moved(build: Build, values: Mapping[str, str]) -> str:
    """The choice a changed squadron select makes ('squadron:I'), or '' when none changed."""
    for i, ship in enumerate(build.ships):
        n = whole_number(values.get(f"sq_{i}", ""), MAX_SQUADRON_NUMBER)
        if n is not None and n != ship.get("squadron", 1):
            return f"squadron:{i}"
    return ""


def take(build: Build, fleet: Fleet) -> None:
    build.ships = [s.model_dump(exclude_none=True, exclude_defaults=False) for s in fleet.ships]
    resources = fleet.resources()
    build.resource = resources[0] if resources else None


def _index(text: str, count: int) -> int | None:
    n = whole_number(text, MAX_SHIPS)
    return n if n is not None and n < count else None


def _problems(build: Build) -> list[tuple[str, str, str]]:
    report = build.report()
    if report is None:
        return []
    return [(e.code, e.rule, e.message) for e in report.errors if e.code not in ALLOWED_NEW]


def choose(build: Build, choice: str, values: Mapping[str, str]) -> Build:
    """Apply one choice (a button's value), or refuse it with the rule it would break.

    `ship:ID` adds a ship to the squadron the form names; `card:ID` puts a card on the selected
    ship (a resource on the fleet); `drop:I` removes ship I; `uncard:I:SLOT:ID` takes a card off;
    `squadron:I` moves ship I to the squadron in field `sq_I`; `pick:I` selects ship I;
    `open` reads a pasted share string or FleetX; `clear` starts again."""
    verb, _, rest = choice.partition(":")
    if build.unread and verb in ("open", "clear"):  # the fleet that could not be read is left
        build.problem, build.unread = "", False
    before = _problems(build)
    saved = ([dict(s) for s in build.ships], build.resource, build.target)
    try:
        _apply(build, verb, rest, values)
    except KolramiError as exc:
        build.problem = str(exc)
        return build
    if verb in ("ship", "card", "squadron"):
        new = [p for p in _problems(build) if p not in before]
        if new:
            report = build.report()
            assert report is not None  # a problem came from its ships
            first = next(e for e in report.errors if (e.code, e.rule, e.message) == new[0])
            build.refusal = Violation(
                first.code, first.rule, place(first.path, report), first.message
            )
            build.refused_choice = choice
            build.ships, build.resource, build.target = saved
    return build


def _apply(build: Build, verb: str, rest: str, values: Mapping[str, str]) -> None:
    pack = builtin_pack()
    if verb == "ship":
        cls = pack.get(rest)
        if len(build.ships) >= MAX_SHIPS:
            raise KolramiError(f"a fleet has at most {MAX_SHIPS} ships; remove one first")
        squadron = whole_number(values.get("squadron", "1"), MAX_SQUADRON_NUMBER) or 1
        build.ships.append({"id": cls.id, "squadron": max(1, squadron)})
        build.target = len(build.ships) - 1
    elif verb == "card":
        card = cards().get(rest)
        if card is None:
            raise KolramiError(f"no card '{rest[:40]}' (kolrami cards)")
        if card.kind is CardKind.RESOURCE:
            build.resource = card.id  # one resource a fleet (OP-15): a new one replaces it
            return
        if build.target is None:
            raise KolramiError(
                f"{card.name}: choose the ship it goes on first (its 'Put cards here' button)"
            )
        ship = build.ships[build.target]
        if card.kind is CardKind.UPGRADE and card.type is not None:
            ups = {k: list(v) for k, v in ship.get("upgrades", {}).items()}
            ups.setdefault(card.type.value, []).append(card.id)
            ship["upgrades"] = ups
        else:
            part = card.kind.value
            had = ship.get(part)
            ship[part] = card.id if had is None else [*_listed(had), card.id]
    elif verb == "drop":
        i = _index(rest, len(build.ships))
        if i is not None:
            build.ships.pop(i)
            build.target = None if not build.ships else min(i, len(build.ships) - 1)
    elif verb == "uncard":
        index, _, tail = rest.partition(":")
        slot, _, card_id = tail.partition(":")
        i = _index(index, len(build.ships))
        if slot == "resource":
            build.resource = None
        elif i is not None:
            _uncard(build.ships[i], slot, card_id)
    elif verb == "squadron":
        i = _index(rest, len(build.ships))
        n = whole_number(values.get(f"sq_{rest}", ""), MAX_SQUADRON_NUMBER)
        if i is not None and n:
            build.ships[i]["squadron"] = n
            build.target = i
    elif verb == "pick":
        build.target = _index(rest, len(build.ships))
    elif verb == "open":
        form = from_text(values.get("open_text", ""))
        if form.fleet is None:
            raise KolramiError("; ".join(m for ms in form.errors.values() for m in ms))
        take(build, form.fleet)
        build.name = form.fleet.name
        build.limit = form.fleet.points_limit or build.limit
        build.target = None
    elif verb == "clear":
        build.ships, build.resource, build.target = [], None, None


def card_ids(build: Build) -> dict[str, str]:
    """Each placed card's id by its path in the fleet (legality's paths: 'ships[0].captain',
    'ships[1].upgrades.crew[0]')."""
    out: dict[str, str] = {}
    for i, ship in enumerate(build.ships):
        for part in ("captain", "admiral"):
            value = ship.get(part)
            if isinstance(value, str):
                out[f"ships[{i}].{part}"] = value
            elif isinstance(value, list):
                out |= {f"ships[{i}].{part}[{j}]": c for j, c in enumerate(value)}
        for slot, ids in ship.get("upgrades", {}).items():
            out |= {f"ships[{i}].upgrades.{slot}[{j}]": c for j, c in enumerate(ids)}
    return out


def _listed(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _uncard(ship: dict[str, Any], slot: str, card_id: str) -> None:
    if slot in ("captain", "admiral"):
        left = [c for c in _listed(ship.get(slot) or []) if c != card_id]
        if left:
            ship[slot] = left[0] if len(left) == 1 else left
        else:
            ship.pop(slot, None)
        return
    ups = {k: list(v) for k, v in ship.get("upgrades", {}).items()}
    if card_id in ups.get(slot, []):
        ups[slot].remove(card_id)
        if not ups[slot]:
            ups.pop(slot)
    ship["upgrades"] = ups
