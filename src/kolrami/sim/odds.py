"""Exact odds of a volley (FPF-DMG-01, FPF-DMG-02, FPF-DMG-03, FPF-DMG-04, FPF-DMG-05, FPF-DMG-06,
FPF-FIRE-08, FPF-FIRE-09, FPF-DMG-10).

A volley is a sequence of weapon groups: one ship's phasers, then its photons (FPF-FIRE-08). The
shots of one group roll together against the same shields; their damage then applies at once, so
a later group faces the shields the earlier ones left (FPF-FIRE-09, FPF-DMG-10). That is the
`sequential` model, the default and the rules as we read them. The `independent` model lets every
group face the starting shields, for comparison. Both are exact: fractions from icepool, never
sampling.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import icepool

from kolrami.catalog.models import STANDARD_HIT_LOCATIONS
from kolrami.catalog.models import Arc
from kolrami.catalog.models import HitLocations
from kolrami.catalog.models import Location
from kolrami.catalog.models import ShipClass
from kolrami.catalog.models import WeaponKind
from kolrami.errors import InvalidInputError
from kolrami.rules.exact import Die
from kolrami.rules.exact import shot_damage_die
from kolrami.rules.fpf.damage import DAMAGE_SIDES
from kolrami.rules.fpf.damage import check_shot_inputs
from kolrami.rules.fpf.damage import penetrating_faces


class Model(StrEnum):
    """How groups after the first see the shields (see the module docstring)."""

    SEQUENTIAL = "sequential"
    INDEPENDENT = "independent"


@dataclass(frozen=True, slots=True)
class WeaponGroup:
    """Weapons of one kind on one ship that fire together: `shots` rolls at one strength."""

    kind: WeaponKind
    strength: int
    shots: int
    range_cm: int | None = None
    label: str = ""  # e.g. the arcs of the sheet row it came from


@dataclass(frozen=True, slots=True)
class GroupOdds:
    """The exact outcome of one group, as it stands inside the volley."""

    group: WeaponGroup
    per_shot_penetration: Fraction
    p_any_penetration: Fraction
    expected_damage: Fraction
    damage: dict[int, Fraction]
    location: dict[Location, Fraction]
    shields_faced: dict[int, Fraction]


@dataclass(frozen=True, slots=True)
class VolleyOdds:
    """The exact outcome of a whole volley against one target."""

    shields: int
    model: Model
    groups: tuple[GroupOdds, ...]
    p_any_penetration: Fraction
    expected_damage: Fraction
    damage: dict[int, Fraction]
    location: dict[Location, Fraction]

    def p_damage_at_least(self, amount: int) -> Fraction:
        """Chance the volley deals `amount` damage or more (e.g. a target's superstructure)."""
        return sum((p for d, p in self.damage.items() if d >= amount), Fraction(0))


def _p_pen(shields: int, strength: int) -> Fraction:
    return Fraction(penetrating_faces(shields, strength), 10)


def _dist(d: Die) -> dict[int, Fraction]:
    return {int(k): Fraction(d.probability(k)) for k in d.outcomes()}


def _product(values: Iterable[Fraction]) -> Fraction:
    out = Fraction(1)
    for v in values:
        out *= v
    return out


def _add(into: dict[Any, Fraction], key: Any, weight: Fraction) -> None:
    into[key] = into.get(key, Fraction(0)) + weight


@cache
def _damage_power(kind: WeaponKind, hits: int) -> dict[int, Fraction]:
    """Damage of `hits` penetrating shots: exactly `hits` for phasers, `hits` d6 for photons."""
    sides = DAMAGE_SIDES[kind]
    return _dist(hits @ icepool.d(sides)) if sides > 1 and hits else {hits: Fraction(1)}


@cache
def _group_damage(kind: WeaponKind, shields: int, strength: int, shots: int) -> dict[int, Fraction]:
    """Damage of one group of `shots` at fixed shields: a sum of independent shots."""
    return _dist(shots @ shot_damage_die(kind, shields, strength))


def _split_hits(
    shots: int, p: Fraction, q_a: Fraction, q_b: Fraction
) -> dict[tuple[int, int], Fraction]:
    """P(a shots penetrate onto location set A and b onto set B); A and B are disjoint."""
    pa, pb = p * q_a, p * q_b
    rest = 1 - pa - pb
    out: dict[tuple[int, int], Fraction] = {}
    for a in range(shots + 1):
        for b in range(shots - a + 1):
            w = comb(shots, a) * comb(shots - a, b) * pa**a * pb**b * rest ** (shots - a - b)
            if w:
                out[a, b] = w
    return out


@cache
def _group_joint(
    kind: WeaponKind, shields: int, strength: int, shots: int, q_shields: Fraction
) -> dict[tuple[int, int], Fraction]:
    """Joint P(damage dealt, damage to the shield location) of one group at fixed shields."""
    p = _p_pen(shields, strength)
    out: dict[tuple[int, int], Fraction] = {}
    for (j, m), w in _split_hits(shots, p, q_shields, 1 - q_shields).items():
        for s, ws in _damage_power(kind, j).items():
            for o, wo in _damage_power(kind, m).items():
                _add(out, (s + o, s), w * ws * wo)
    return out


State = dict[tuple[int, int], Fraction]


def _sequence_states(
    groups: Sequence[WeaponGroup], shields: int, q_shields: Fraction
) -> list[State]:
    """Before each group, the joint P(total damage so far, shields now) (FPF-FIRE-09,
    FPF-DMG-10)."""
    state: State = {(0, shields): Fraction(1)}
    states = [state]
    for g in groups[:-1]:
        nxt: State = {}
        for (total, h), w in state.items():
            for (d, s), q in _group_joint(g.kind, h, g.strength, g.shots, q_shields).items():
                _add(nxt, (total + d, max(0, h - s)), w * q)
        state = nxt
        states.append(state)
    return states


def _sequence_damage(before_last: State, last: WeaponGroup) -> dict[int, Fraction]:
    """Total damage: the state before the last group plus that group at the shields it faces."""
    out: dict[int, Fraction] = {}
    for (total, h), w in before_last.items():
        for d, q in _group_damage(last.kind, h, last.strength, last.shots).items():
            _add(out, total + d, w * q)
    return dict(sorted(out.items()))


def _sequence_location(
    groups: Sequence[WeaponGroup], shields: int, table: HitLocations, loc: Location
) -> Fraction:
    """P(the volley strikes `loc` at least once), sequential model."""
    q_sh = table.probability_exact(Location.SHIELDS)
    if loc is Location.SHIELDS:
        # Shields erode only through shield hits, so 'never struck' means 'never eroded'.
        return 1 - _product((1 - _p_pen(shields, g.strength) * q_sh) ** g.shots for g in groups)
    q_loc = table.probability_exact(loc)
    clear = {shields: Fraction(1)}  # P(shields now = h and `loc` not struck so far)
    for g in groups[:-1]:
        nxt: dict[int, Fraction] = {}
        for h, w in clear.items():
            for (j, struck), q in _split_hits(g.shots, _p_pen(h, g.strength), q_sh, q_loc).items():
                if struck:
                    continue
                for s, ws in _damage_power(g.kind, j).items():
                    _add(nxt, max(0, h - s), w * q * ws)
        clear = nxt
    last = groups[-1]  # its erosion no longer matters: only whether it strikes `loc`
    return 1 - sum(
        (w * (1 - _p_pen(h, last.strength) * q_loc) ** last.shots for h, w in clear.items()),
        Fraction(0),
    )


def _convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            _add(out, x + y, p * q)
    return dict(sorted(out.items()))


def _shield_marginal(state: State) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (_, h), w in state.items():
        _add(out, h, w)
    return dict(sorted(out.items(), reverse=True))


def volley_odds(
    groups: Sequence[WeaponGroup],
    shields: int,
    table: HitLocations = STANDARD_HIT_LOCATIONS,
    model: Model = Model.SEQUENTIAL,
) -> VolleyOdds:
    """Exact odds of `groups` firing in order at a target with `shields`."""
    if not groups:
        raise InvalidInputError("a volley needs at least one weapon group")
    for g in groups:
        check_shot_inputs(g.strength, g.shots, shields)

    if model is Model.SEQUENTIAL:
        states = _sequence_states(groups, shields, table.probability_exact(Location.SHIELDS))
        damage = _sequence_damage(states[-1], groups[-1])
        location = {loc: _sequence_location(groups, shields, table, loc) for loc in Location}
        faced = [_shield_marginal(st) for st in states]
    else:
        damage = {0: Fraction(1)}
        for g in groups:
            damage = _convolve(damage, _group_damage(g.kind, shields, g.strength, g.shots))
        location = {
            loc: 1
            - _product(
                (1 - _p_pen(shields, g.strength) * table.probability_exact(loc)) ** g.shots
                for g in groups
            )
            for loc in Location
        }
        faced = [{shields: Fraction(1)} for _ in groups]

    # No penetration means no erosion, so 'nothing gets through' is the same in both models.
    p_none = _product((1 - _p_pen(shields, g.strength)) ** g.shots for g in groups)
    return VolleyOdds(
        shields=shields,
        model=model,
        groups=tuple(_group_odds(g, f, table) for g, f in zip(groups, faced, strict=True)),
        p_any_penetration=1 - p_none,
        expected_damage=sum((d * q for d, q in damage.items()), Fraction(0)),
        damage=damage,
        location=location,
    )


def _group_odds(g: WeaponGroup, faced: dict[int, Fraction], table: HitLocations) -> GroupOdds:
    """One group's own outcome, mixed over the shields it may face."""
    damage: dict[int, Fraction] = {}
    for h, w in faced.items():
        for d, q in _group_damage(g.kind, h, g.strength, g.shots).items():
            _add(damage, d, w * q)

    def struck(q: Fraction) -> Callable[[Fraction], Fraction]:
        return lambda p: 1 - (1 - p * q) ** g.shots

    def mix(f: Callable[[Fraction], Fraction]) -> Fraction:
        return sum((w * f(_p_pen(h, g.strength)) for h, w in faced.items()), Fraction(0))

    return GroupOdds(
        group=g,
        per_shot_penetration=mix(lambda p: p),
        p_any_penetration=mix(lambda p: 1 - (1 - p) ** g.shots),
        expected_damage=sum((d * q for d, q in damage.items()), Fraction(0)),
        damage=dict(sorted(damage.items())),
        location={loc: mix(struck(table.probability_exact(loc))) for loc in Location},
        shields_faced=faced,
    )


def ship_volley(
    firer: ShipClass, arc: Arc, target: ShipClass, range_cm: float | None = None
) -> list[WeaponGroup]:
    """The groups `firer` fires out of `arc` (FPF-ARC-04), phasers first (FPF-FIRE-08).

    With `range_cm`, weapons whose range is shorter stay silent (FPF-FIRE-15).
    """
    if range_cm is not None and range_cm < 0:
        raise InvalidInputError(f"range {range_cm} cm is negative; ranges are 0 cm or more")
    bearing = [(k, w) for k, w in firer.weapons() if w.bears(arc)]
    if not bearing:
        arcs = ", ".join(a.value for a in firer.arcs_with_weapons()) or "none"
        raise InvalidInputError(
            f"{firer.name} has no weapon bearing on its {arc.full_name} arc ({arc.value}) "
            f"(FPF-ARC-04); arcs with weapons: {arcs}"
        )
    in_range = [(k, w) for k, w in bearing if range_cm is None or range_cm <= w.range_cm]
    if not in_range:
        longest = max(w.range_cm for _, w in bearing)
        raise InvalidInputError(
            f"at {range_cm:g} cm no weapon of {firer.name} reaches {target.name} (FPF-FIRE-15); "
            f"its longest {arc.value}-arc range is {longest} cm"
        )
    return [
        WeaponGroup(
            kind=k,
            strength=w.strength,
            shots=w.shots,
            range_cm=w.range_cm,
            label=w.arcs_label,
        )
        for k, w in in_range
    ]
