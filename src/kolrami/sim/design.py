"""The designer's questions: which stat moves a class's balance (--vary), and at what cost the
class would be even with the field (--even). See docs/assessment.md, "The designer's questions".

Both play a class, or variants of it, against a field of other classes through the ordinary
assessment plan (seeds, backends, resuming), so their numbers mean what the sweep's mean.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from kolrami.catalog import ShipClass
from kolrami.catalog import ShipPack
from kolrami.catalog import builtin_pack
from kolrami.errors import InvalidInputError
from kolrami.fleet.legality import MAX_SQUADRON
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import FleetShip
from kolrami.sim.assess import MAX_SHIPS_A_SIDE
from kolrami.sim.assess import Combatant
from kolrami.sim.assess import KindOf
from kolrami.sim.assess import Plan
from kolrami.sim.assess import Record
from kolrami.sim.assess import _score_x
from kolrami.sim.stats import wilson

#: The stats --vary takes, by the name a designer types, with what each changes.
STATS = {
    "shields": "shields",
    "weapon-strength": "the strength of every weapon (by the same step as the first)",
    "speed": "the top speed, cm",
    "damage-control": "damage control",
    "hull": "superstructure",
}
_ALIASES = {
    "shield": "shields",
    "weapons": "weapon-strength",
    "weapon": "weapon-strength",
    "strength": "weapon-strength",
    "weaponstrength": "weapon-strength",
    "max-speed": "speed",
    "dc": "damage-control",
    "damagecontrol": "damage-control",
    "superstructure": "hull",
}
#: The most values one --vary plays (each value is a full sweep against the field).
MAX_VALUES = 13
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")


@dataclass(frozen=True, slots=True)
class Vary:
    """A stat and the values to give it."""

    stat: str
    values: tuple[int, ...]


def parse_vary(text: str) -> Vary:
    """'shields=10..16' -> Vary('shields', (10, ..., 16)); one-line errors naming what is taken."""
    accepted = ", ".join(STATS)
    name, sep, span = text.partition("=")
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, _ALIASES.get(key.replace("-", ""), key))
    if not sep or key not in STATS:
        raise InvalidInputError(
            f"--vary '{text}': give STAT=LO..HI with STAT one of {accepted} (e.g. "
            "--vary shields=10..16)"
        )
    m = _RANGE.match(span)
    if m is None:
        raise InvalidInputError(
            f"--vary '{text}': the range must read LO..HI in whole numbers (e.g. {key}=10..16)"
        )
    lo, hi = int(m.group(1)), int(m.group(2))
    if lo >= hi:
        raise InvalidInputError(
            f"--vary '{text}': the range {lo}..{hi} is "
            + ("empty" if lo == hi else "reversed")
            + f"; give LO below HI (e.g. {key}={min(lo, hi)}..{max(lo, hi) + (lo == hi)})"
        )
    step = max(1, math.ceil((hi - lo) / (MAX_VALUES - 1)))
    values = tuple(range(lo, hi + 1, step))
    if values[-1] != hi:
        values = (*values, hi)
    return Vary(key, values)


def stat_of(cls: ShipClass, stat: str) -> int | None:
    """The class's printed value of `stat` (None: it has none to vary)."""
    if stat == "shields":
        return cls.shields
    if stat == "hull":
        return cls.superstructure
    if stat == "damage-control":
        return cls.damage_control if cls.damage_control > 0 else None
    if stat == "speed":
        return cls.max_speed_cm if cls.max_speed_cm > 0 else None
    weapon = cls.phasers or cls.photons
    return None if weapon is None else weapon.strength


def variant(cls: ShipClass, stat: str, value: int) -> ShipClass:
    """`cls` with `stat` set to `value`, as its own class (id 'reliant-shields-12')."""
    changes: dict[str, object] = {
        "id": f"{cls.id}-{stat}-{value}".replace("--", "-m"),
        "name": f"{cls.name} ({stat} {value})",
    }
    if stat == "shields":
        changes["shields"] = value
    elif stat == "hull":
        changes["superstructure"] = value
    elif stat == "damage-control":
        changes["damage_control"] = value
    elif stat == "speed":
        changes["max_speed_cm"] = value
    else:
        base = stat_of(cls, stat)
        assert base is not None
        step = value - base
        for kind in ("phasers", "photons"):
            w = getattr(cls, kind)
            if w is not None:
                changes[kind] = w.model_copy(update={"strength": max(0, w.strength + step)})
    try:
        # validate again: a copy with update= skips the model's checks
        return ShipClass.model_validate({**cls.model_dump(), **changes})
    except ValidationError as e:
        first = e.errors()[0]
        raise InvalidInputError(
            f"--vary {stat}={value} for {cls.name}: {first['msg']} "
            f"({'.'.join(map(str, first['loc']))}); choose values the class's sheet allows"
        ) from None


def check_vary(cls: ShipClass, vary: Vary) -> None:
    """Refuse a stat the class lacks, in one line naming the stats it has."""
    if stat_of(cls, vary.stat) is None:
        has = ", ".join(s for s in STATS if stat_of(cls, s) is not None)
        raise InvalidInputError(
            f"--vary {vary.stat}: {cls.name} has no {vary.stat} to vary"
            + (" (a fixed base: it never moves)" if vary.stat == "speed" else "")
            + f"; it has {has}"
        )


def _one(cls_id: str, count: int, label: str) -> Fleet:
    ships = tuple(FleetShip(id=cls_id, squadron=i // MAX_SQUADRON + 1) for i in range(count))
    return Fleet(name=label, ships=ships)


def field_of(cls: ShipClass, names: Sequence[str] | None = None) -> list[ShipClass]:
    """The field a class is measured against: the named classes, or the ten FPF classes,
    without the class itself."""
    pack = builtin_pack()
    if names:
        field = [pack.get(n) for n in names]
    else:
        # (numpy and the simulation: loaded only for this command, not at start-up)
        from kolrami.catalog.loader import fpf_pack

        field = list(fpf_pack().ships)
    return [c for c in field if c.id != cls.id]


def _combatant(cls: ShipClass, count: int = 1, cost: int | None = None) -> Combatant:
    label = cls.name if count == 1 else f"{count} x {cls.name}"
    return Combatant(
        f"design:{cls.id}x{count}",
        label,
        KindOf.CLASS if count == 1 else KindOf.SQUADRON,
        _one(cls.id, count, label),
        cost if cost is not None else count * cls.value,
        cls.id,
        count,
    )


def _pack_with(extra: Sequence[ShipClass]) -> ShipPack:
    base = builtin_pack()
    known = {s.id for s in base.ships}
    ships = base.ships + tuple(s for s in extra if s.id not in known)
    # a new pack, not a copy: a copy would keep the original's cached name index
    return ShipPack(pack=base.pack, ships=ships, extra_packs=base.extra_packs)


# --- --vary ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VaryPoint:
    """The class at one value of the stat: its score against the field, with its interval."""

    value: int
    battles: int
    score: float
    low: float
    high: float
    printed: bool  # the value on the class's sheet


def vary_plan(cls: ShipClass, vary: Vary, field: Sequence[ShipClass], **plan: object) -> Plan:
    """A plan: each variant of `cls` against every class of `field` (not against each other)."""
    check_vary(cls, vary)
    variants = [variant(cls, vary.stat, v) for v in vary.values]
    combatants = [_combatant(v, cost=cls.value) for v in variants] + [_combatant(f) for f in field]
    return Plan(
        tuple(combatants),
        challengers=len(variants),
        pack=_pack_with(variants),
        **plan,  # type: ignore[arg-type]
    )


def pooled(plan: Plan, records: Mapping[tuple[str, int], Record], i: int) -> tuple[int, float]:
    """Battles and score (wins + half the draws) of challenger i against the whole field."""
    n, pts = 0, 0.0
    for m in plan.matchups:
        if m.x != i:
            continue
        upto = plan.stop_point(m, records) if plan.precision is not None else plan.battles
        for k in range(upto or plan.battles):
            r = records.get((m.id, k))
            if r is not None:
                n += 1
                pts += _score_x(r)
    return n, pts


def vary_points(
    cls: ShipClass, vary: Vary, plan: Plan, records: Mapping[tuple[str, int], Record]
) -> list[VaryPoint]:
    """The class's score against the field at each value (95% Wilson intervals, pooled over the
    field's classes, each class weighing the same)."""
    printed = stat_of(cls, vary.stat)
    out = []
    for i, value in enumerate(vary.values):
        n, pts = pooled(plan, records, i)
        low, high = wilson(pts, n)
        out.append(VaryPoint(value, n, pts / n if n else math.nan, low, high, value == printed))
    return out


# --- --even ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EvenStep:
    """One cost the search tried: the class's score against the field at equal points."""

    cost: float
    battles: int
    score: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class EvenResult:
    """The cost at which the class wins half its games against the field at equal points."""

    cls: str
    printed_cost: int
    points: int  # the budget each opponent is fielded at
    cost: float | None  # None: not bracketed within the costs tried
    low: float | None
    high: float | None
    steps: tuple[EvenStep, ...]
    note: str = ""


def _fielded(f: ShipClass, points: int) -> int:
    return max(1, points // f.value)


def even_counts(
    cost: float, field: Sequence[ShipClass], points: int
) -> list[tuple[ShipClass, int, int, float]]:
    """For each opponent: (class, fewer, more, weight of more) copies of the class that its
    fielded points buy at `cost`: P / cost copies, interpolated between the two whole numbers."""
    out = []
    for f in field:
        want = _fielded(f, points) * f.value / cost
        lo = math.floor(want)
        out.append((f, lo, lo + 1, want - lo))
    return out


def even_plan(
    cls: ShipClass, counts: Sequence[int], field: Sequence[ShipClass], points: int, **plan: object
) -> Plan:
    """A plan: `counts` copies of the class against each opponent fielded at `points`."""
    challengers = [_combatant(cls, n) for n in counts]
    rest = [_combatant(f, _fielded(f, points)) for f in field]
    return Plan(tuple(challengers + rest), challengers=len(challengers), **plan)  # type: ignore[arg-type]


def _score_at(
    cost: float,
    cls: ShipClass,
    field: Sequence[ShipClass],
    points: int,
    table: Mapping[tuple[str, int], tuple[int, float]],
) -> EvenStep:
    """The class's interpolated score against the field at `cost`, from the table of (opponent,
    copies) -> (battles, points); the interval from the battles behind it (Wilson, on the
    interpolated points and the battles they rest on)."""
    n_all, score = 0.0, 0.0
    rows = even_counts(cost, field, points)
    for f, lo, hi, w in rows:
        parts: list[tuple[float, float, float]] = []
        for count, weight in ((lo, 1.0 - w), (hi, w)):
            if count <= 0:
                parts.append((weight, 0.0, 0.0))  # no ship: no chance
                continue
            played, won = table[f.id, min(count, MAX_SHIPS_A_SIDE)]
            parts.append((weight, float(played), won / played if played else 0.5))
        score += sum(weight * sc for weight, _, sc in parts) / len(rows)
        n_all += sum(weight * nn for weight, nn, _ in parts)
    battles = round(n_all)
    low, high = wilson(score * battles, battles)
    return EvenStep(cost, battles, score, low, high)


Runner = Callable[[Plan], Mapping[tuple[str, int], Record]]


def even_search(
    cls: ShipClass,
    field: Sequence[ShipClass],
    points: int,
    run: Runner,
    steps: int = 6,
    **plan: object,
) -> EvenResult:
    """Bracket the cost at which `cls` scores 1/2 against `field` at equal points, then halve
    the bracket (in log cost) `steps` times; the interval: the costs whose score's 95% interval
    contains 1/2, read off the costs tried."""
    table: dict[tuple[str, int], tuple[int, float]] = {}

    def at(cost: float) -> EvenStep:
        need = sorted(
            {
                min(c, MAX_SHIPS_A_SIDE)
                for _, lo, hi, _ in even_counts(cost, field, points)
                for c in (lo, hi)
                if c > 0
            }
        )
        missing = [c for c in need if any((f.id, c) not in table for f in field)]
        if missing:
            p = even_plan(cls, missing, field, points, **plan)
            records = run(p)
            for m in p.matchups:
                count = missing[m.x]
                f = field[m.y - len(missing)]
                n, pts = 0, 0.0
                for k in range(p.battles):
                    r = records.get((m.id, k))
                    if r is not None:
                        n += 1
                        pts += _score_x(r)
                table[f.id, count] = (n, pts)
        return _score_at(cost, cls, field, points, table)

    tried: list[EvenStep] = []
    cost = float(cls.value)
    first = at(cost)
    tried.append(first)
    lo_c = hi_c = None
    step = first
    # a better score than 1/2 means the class is worth more: its even cost lies above
    factor = 2.0 if first.score > 0.5 else 0.5
    for _ in range(5):
        nxt_cost = step.cost * factor
        if nxt_cost * 1.0 > points * 4 or nxt_cost < 1:
            break
        nxt = at(nxt_cost)
        tried.append(nxt)
        if (nxt.score - 0.5) * (step.score - 0.5) <= 0:
            lo_c, hi_c = sorted((step.cost, nxt.cost))
            break
        step = nxt
    note = ""
    if lo_c is None or hi_c is None:
        note = "the score did not cross one half within the costs tried"
        return _even_result(cls, points, None, tried, note)
    for _ in range(steps):
        mid = math.sqrt(lo_c * hi_c)
        s = at(mid)
        tried.append(s)
        # scores fall as the cost rises (fewer copies): the even cost lies where it is 1/2
        if s.score > 0.5:
            lo_c = mid
        else:
            hi_c = mid
        if hi_c / lo_c < 1.04:
            break
    return _even_result(cls, points, math.sqrt(lo_c * hi_c), tried, note)


def _even_result(
    cls: ShipClass, points: int, cost: float | None, tried: list[EvenStep], note: str
) -> EvenResult:
    steps = tuple(sorted(tried, key=lambda s: s.cost))
    if cost is None:
        return EvenResult(cls.name, cls.value, points, None, None, None, steps, note)
    # the interval: the costs whose score's 95% interval contains 1/2, its ends read off
    # where the lower and upper bounds cross 1/2 (linear in log cost between the costs tried)
    low = _crossing(steps, [s.low for s in steps])
    high = _crossing(steps, [s.high for s in steps])
    if low is None or high is None:
        note = "the interval reaches beyond the costs tried: play more --battles"
    return EvenResult(cls.name, cls.value, points, cost, low, high, steps, note)


def _crossing(steps: Sequence[EvenStep], ys: Sequence[float]) -> float | None:
    """The cost at which `ys` (falling with cost) first crosses 1/2, interpolated in log cost;
    None when it does not cross within the costs tried."""
    for a, b, ya, yb in zip(steps, steps[1:], ys, ys[1:], strict=False):
        if ya >= 0.5 > yb:
            t = (ya - 0.5) / (ya - yb)
            return math.exp(math.log(a.cost) + t * (math.log(b.cost) - math.log(a.cost)))
    return None
