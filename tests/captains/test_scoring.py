"""The doctrines' scoring kernel (captains/scoring.py) against a simple reference written here.

The reference works everything out the long way, in exact fractions: the expected damage of a
shot by enumerating its d10 roll and (for a photon) its d6 damage face by face with the rules'
own `penetrates`; the arc with `geometry.arc_to` (not the kernel's written-out test); every
candidate manoeuvre scored in full, one after another, with no shortcut. Hypothesis draws the
situations: preset fleets with ships anywhere on the table, facing anywhere, with knocked-out
mounts, lowered shields and hulls, planets, speed limits and doctrine weights.

Scores are compared to within 1e-9 (the kernel adds floats); a choice between candidates must
be one of the reference's best, and no earlier candidate may be clearly better.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from kolrami.captains import scoring
from kolrami.captains.doctrines import AggressiveCaptain
from kolrami.captains.doctrines import KitingCaptain
from kolrami.catalog.models import Arc
from kolrami.catalog.models import WeaponKind
from kolrami.engine.geometry import ARC_ORDER
from kolrami.engine.geometry import HEADINGS
from kolrami.engine.geometry import advance
from kolrami.engine.geometry import arc_to
from kolrami.engine.geometry import segment_hits_circle
from kolrami.engine.view import ShipView
from kolrami.engine.view import snapshot
from kolrami.fleet import load_fleet
from kolrami.fleet import preset_names
from kolrami.rules import new_battle
from kolrami.rules.fpf.damage import DAMAGE_SIDES
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from kolrami.scenarios.models import builtin_scenario

TOLERANCE = 1e-9
SCENARIO = builtin_scenario("standard")
WIDTH, HEIGHT = SCENARIO.table_width_cm, SCENARIO.table_height_cm

# --- the reference ----------------------------------------------------------------------------


def shot_mean(kind: WeaponKind, strength: int, shields: int) -> Fraction:
    """Mean damage of one shot: every d10 roll, and for a photon every d6 face, one by one."""
    sides = DAMAGE_SIDES[kind]
    total = Fraction(0)
    for roll in range(1, 11):
        if penetrates(roll, shields, strength):
            for face in range(1, sides + 1):
                total += Fraction(face, 10 * sides)
    return total


def volley_at(ships: list[ShipView], arc: Arc, distance: float, shields: int) -> Fraction:
    """Expected damage of every working shot of every weapon of `ships` that bears into `arc`
    and reaches `distance`, on a target with `shields`."""
    total = Fraction(0)
    for ship in ships:
        for kind in WeaponKind:
            weapon = ship.cls.weapon(kind)
            if weapon is None or arc not in weapon.arcs or distance > ship.ranges[kind]:
                continue
            for mount in ship.mounts[kind]:
                for _ in range(mount):
                    total += shot_mean(kind, ship.strength[kind], shields)
    return total


def volley_on(
    ships: list[ShipView], x: float, y: float, heading: int, tx: float, ty: float, shields: int
) -> Fraction:
    """`volley_at` of `ships`, all placed at (x, y) facing `heading`, on a target at (tx, ty)."""
    arc = arc_to(x, y, heading, tx, ty)
    return volley_at(ships, arc, math.hypot(tx - x, ty - y), shields)


def threat_on(enemies: list[ShipView], x: float, y: float, shields: int) -> Fraction:
    """What the enemies could deal on a ship at (x, y) from where they stand, 8 cm further."""
    total = Fraction(0)
    for e in enemies:
        arc = arc_to(e.x, e.y, e.heading, x, y)
        total += volley_at([e], arc, math.hypot(x - e.x, y - e.y) + 8, shields)
    return total


def reference_score(
    origin: ShipView,
    group: list[ShipView],
    maneuver: Maneuver,
    focus: ShipView,
    enemies: list[ShipView],
    obstacles: list[tuple[float, float, float]],
    weights: scoring.Weights,
) -> float:
    """One candidate's score, every term worked out from scratch."""
    first = maneuver.pivot if maneuver.pivot is not None else maneuver.turn1
    h1 = (origin.heading + first) % HEADINGS
    mx, my = advance(origin.x, origin.y, h1, maneuver.speed / 2)
    h2 = (h1 + maneuver.turn2) % HEADINGS
    ex, ey = advance(mx, my, h2, maneuver.speed / 2)
    dealt = max(
        volley_on(group, mx, my, h1, focus.x, focus.y, focus.shields),
        volley_on(group, ex, ey, h2, focus.x, focus.y, focus.shields),
    )
    if weights.full_path:  # the start point too, once turned (no bases to stop short of here)
        start = volley_on(group, origin.x, origin.y, h1, focus.x, focus.y, focus.shields)
        dealt = max(dealt, start)
    if dealt >= focus.superstructure:
        dealt *= Fraction(3, 2)
    own_shields = min(s.shields for s in group)
    to_close = math.hypot(focus.x - ex, focus.y - ey)
    score = float(dealt) - weights.threat * float(threat_on(enemies, ex, ey, own_shields))
    score -= weights.closing * to_close
    if weights.keep_out and dealt == 0:
        score -= weights.closing * abs(to_close - 30)
    nearest = min(ex, ey, WIDTH - ex, HEIGHT - ey)
    if nearest < 8:
        score -= (8 - nearest) * 0.5
    for c in obstacles:
        if segment_hits_circle(origin.x, origin.y, mx, my, *c) or segment_hits_circle(
            mx, my, ex, ey, *c
        ):
            score -= 1000
    return score


def reference_candidates(lo: int, hi: int, plo: int, phi: int) -> list[Maneuver]:
    """Low, middle and top speed with every pair of turns; every pivot at top pivot speed."""
    out = []
    for speed in sorted({lo, hi, (lo + hi) // 2}):
        if speed == 0:
            out.append(Maneuver(0))
        else:
            out += [Maneuver(speed, t1, t2) for t1 in (-1, 0, 1) for t2 in (-1, 0, 1)]
    if plo <= phi:
        out += [Maneuver(phi, 0, t2, p) for p in (-2, -1, 1, 2, 3) for t2 in (-1, 0, 1)]
    return out


# --- situations -------------------------------------------------------------------------------


@dataclass
class Setting:
    """A battle's ships, placed and damaged as drawn; side A scores, side B is the enemy."""

    ours: list[ShipView]
    enemies: list[ShipView]
    obstacles: list[tuple[float, float, float]]


@st.composite
def settings_(draw: st.DrawFn) -> Setting:
    names = preset_names()
    fleet_a = draw(st.sampled_from(names))
    fleet_b = draw(st.sampled_from(names))
    battle = new_battle(
        SCENARIO, (load_fleet(f"presets:{fleet_a}"), load_fleet(f"presets:{fleet_b}")), 1
    )
    coordinate = st.floats(-5, 185, allow_nan=False)
    for ship in battle.ships.values():
        ship.x = draw(coordinate)
        ship.y = draw(st.floats(-5, 125, allow_nan=False))
        ship.heading = draw(st.integers(0, HEADINGS - 1))
        ship.shields = draw(st.integers(0, ship.shields))
        ship.superstructure = draw(st.integers(1, ship.superstructure))
        for kind, mounts in ship.mounts.items():
            ship.mounts[kind] = tuple(
                0 if draw(st.integers(0, 3)) == 0 else m  # knocked out
                for m in mounts
            )
    ours = [snapshot(s) for s in battle.ships.values() if s.side == "A"]
    enemies = [snapshot(s) for s in battle.ships.values() if s.side == "B"]
    n_ours = draw(st.integers(1, len(ours)))
    n_enemies = draw(st.integers(1, len(enemies)))
    planet = st.tuples(st.floats(0, 180), st.floats(0, 120), st.floats(2, 20))
    obstacles = draw(st.lists(planet, max_size=2))
    return Setting(ours[:n_ours], enemies[:n_enemies], obstacles)


WEIGHTS = st.one_of(
    st.sampled_from([AggressiveCaptain.weights, KitingCaptain.weights]),
    st.builds(
        scoring.Weights,
        threat=st.floats(0, 2),
        closing=st.floats(0, 0.2),
        keep_out=st.booleans(),
        react=st.just(True),
        full_path=st.booleans(),
    ),
)
SPEEDS = st.tuples(st.integers(0, 20), st.integers(0, 30)).map(lambda t: (t[0], t[0] + t[1]))
PIVOTS = st.one_of(st.just((1, 0)), st.integers(0, 10).map(lambda n: (0, n)))
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def two_spots() -> st.SearchStrategy[list[tuple[float, float, int]]]:
    """Two places on the table with a heading each: a firer's and its target's."""
    return st.lists(
        st.tuples(st.floats(0, 180), st.floats(0, 120), st.integers(0, HEADINGS - 1)),
        min_size=2,
        max_size=2,
    )


# --- the tests --------------------------------------------------------------------------------


@pytest.mark.rule("FPF-DMG-01", "FPF-DMG-02", "FPF-DMG-04", "FPF-DMG-05")
@given(setting=settings_(), shields=st.integers(0, 30))
@FAST
def test_weapon_groups_expect_what_every_roll_gives(setting: Setting, shields: int) -> None:
    for ship in setting.ours + setting.enemies:
        groups = scoring.weapon_groups(ship, shields)
        kinds = [kind for kind, _ in ship.cls.weapons()]
        assert len(groups) == len(kinds)
        for group, kind in zip(groups, kinds, strict=True):
            weapon = ship.cls.weapon(kind)
            assert weapon is not None
            assert group.shots == sum(ship.mounts[kind])
            assert group.range_cm == ship.ranges[kind]
            arcs = [a for a in ARC_ORDER if a in weapon.arcs]
            assert [ARC_ORDER[i] for i in group.arcs] == arcs
            assert group.mask == sum(1 << ARC_ORDER.index(a) for a in arcs)
            expected = group.shots * shot_mean(kind, ship.strength[kind], shields)
            assert group.damage == pytest.approx(float(expected), abs=TOLERANCE)


@pytest.mark.rule("FPF-ARC-01", "FPF-ARC-04", "FPF-DMG-01", "FPF-DMG-04", "FPF-DMG-05")
@given(
    setting=settings_(),
    x=st.floats(0, 180),
    y=st.floats(0, 120),
    heading=st.integers(0, HEADINGS - 1),
    extra=st.sampled_from([0, scoring.ENEMY_MOVE_CM]),
)
@FAST
def test_firepower_at_a_point_is_every_bearing_shot_in_reach(
    setting: Setting, x: float, y: float, heading: int, extra: int
) -> None:
    ours, target = setting.ours, setting.enemies[0]
    firepower = scoring.Firepower(ours, target.shields, scoring.Arsenal())
    distance = math.hypot(target.x - x, target.y - y) + extra
    got = firepower.damage_on(x, y, heading, target.x, target.y, distance)
    arc = arc_to(x, y, heading, target.x, target.y)
    expected = volley_at(ours, arc, distance, target.shields)
    assert got == pytest.approx(float(expected), abs=1e-6)


@given(setting=settings_(), x=st.floats(0, 180), y=st.floats(0, 120))
@FAST
def test_the_threat_is_what_every_enemy_could_fire_back(
    setting: Setting, x: float, y: float
) -> None:
    own_shields = min(s.shields for s in setting.ours)
    arsenal = scoring.Arsenal()
    enemies = [scoring.enemy(e, own_shields, arsenal) for e in setting.enemies]
    expected = threat_on(setting.enemies, x, y, own_shields)
    assert scoring.threat_at(enemies, x, y) == pytest.approx(float(expected), abs=1e-6)


@given(setting=settings_())
@FAST
def test_the_focus_target_takes_the_largest_share_of_hull_then_the_nearest(
    setting: Setting,
) -> None:
    ours, enemies = setting.ours, setting.enemies
    cx = sum(s.x for s in ours) / len(ours)
    cy = sum(s.y for s in ours) / len(ours)

    def key(e: ShipView) -> tuple[float, float]:
        volley = Fraction(0)
        for ship in ours:
            for kind in WeaponKind:
                if ship.cls.weapon(kind) is not None:
                    mean = shot_mean(kind, ship.strength[kind], e.shields)
                    volley += sum(ship.mounts[kind]) * mean
        return min(1.0, float(volley) / max(1, e.superstructure)), -math.hypot(e.x - cx, e.y - cy)

    chosen = scoring.focus_target(ours, enemies, scoring.Arsenal())
    keys = [key(e) for e in enemies]
    share = max(k[0] for k in keys)
    got = key(chosen)
    assert got[0] == pytest.approx(share, abs=TOLERANCE)
    nearest = max(k[1] for k in keys if abs(k[0] - share) <= TOLERANCE)
    assert got[1] == pytest.approx(nearest, abs=TOLERANCE)


@given(lo_hi=SPEEDS, pivots=PIVOTS)
def test_the_candidates_are_every_listed_manoeuvre_in_order(
    lo_hi: tuple[int, int], pivots: tuple[int, int]
) -> None:
    (lo, hi), (plo, phi) = lo_hi, pivots
    found = scoring.candidates(lo, hi, plo, phi)
    flat = [m for leg in found.legs for m in leg.maneuvers]
    assert flat == reference_candidates(lo, hi, plo, phi)
    assert found.count == len(flat)
    for leg in found.legs:
        for m in leg.maneuvers:
            assert leg.half == m.speed / 2
            assert leg.turn == (m.pivot if m.pivot is not None else m.turn1)


@given(setting=settings_(), weights=WEIGHTS, lo_hi=SPEEDS, pivots=PIVOTS)
@FAST
def test_the_best_move_is_the_best_of_every_candidate_scored_in_full(
    setting: Setting, weights: scoring.Weights, lo_hi: tuple[int, int], pivots: tuple[int, int]
) -> None:
    ours, enemy_ships = setting.ours, setting.enemies
    origin = ours[0]
    arsenal = scoring.Arsenal()
    focus = scoring.focus_target(ours, enemy_ships, arsenal)
    own_shields = min(s.shields for s in ours)
    situation = scoring.Situation(
        focus,
        scoring.Firepower(ours, focus.shields, arsenal),
        [scoring.enemy(e, own_shields, arsenal) for e in enemy_ships],
        (WIDTH, HEIGHT),
        setting.obstacles,
    )
    (lo, hi), (plo, phi) = lo_hi, pivots
    move = scoring.best_move(origin, scoring.candidates(lo, hi, plo, phi).legs, situation, weights)
    everything = reference_candidates(lo, hi, plo, phi)
    scores = [
        reference_score(origin, ours, m, focus, enemy_ships, setting.obstacles, weights)
        for m in everything
    ]
    chosen = everything.index(move.maneuver)
    assert move.score == pytest.approx(scores[chosen], abs=1e-6)
    assert scores[chosen] >= max(scores) - 1e-6
    assert all(s <= scores[chosen] + 1e-6 for s in scores[:chosen])  # the first of equals
    # and the plan is where the manoeuvre goes
    m = move.maneuver
    first = m.pivot if m.pivot is not None else m.turn1
    h1 = (origin.heading + first) % HEADINGS
    mx, my = advance(origin.x, origin.y, h1, m.speed / 2)
    h2 = (h1 + m.turn2) % HEADINGS
    ex, ey = advance(mx, my, h2, m.speed / 2)
    assert move.plan == scoring.Plan(mx, my, h1, ex, ey, h2)


@given(
    setting=settings_(),
    points=two_spots(),
    planned=st.booleans(),
)
@FAST
def test_the_best_lock_is_the_most_expected_damage_on_a_target(
    setting: Setting, points: list[tuple[float, float, int]], planned: bool
) -> None:
    ship, enemies = setting.ours[0], setting.enemies
    focus = enemies[-1]
    plan = scoring.Plan(*points[0], *points[1]) if planned else None
    where = points if planned else [(ship.x, ship.y, ship.heading)] * 2

    values: list[tuple[float, str, str]] = []  # (value, arc, target) of every lock that bears
    for e in enemies:
        for x, y, heading in where:
            arc = arc_to(x, y, heading, e.x, e.y)
            working = [
                k
                for k in WeaponKind
                if (w := ship.cls.weapon(k)) is not None and arc in w.arcs and any(ship.mounts[k])
            ]
            if not working:
                continue
            distance = math.hypot(e.x - x, e.y - y)
            damage = Fraction(0)
            for k in working:
                if distance <= ship.ranges[k]:
                    damage += sum(ship.mounts[k]) * shot_mean(k, ship.strength[k], e.shields)
            value = float(damage) * (1.2 if e is focus else 1.0)
            if value == 0:
                value = 0.01 / (1 + distance)
            values.append((value, arc.value, e.id))

    found = scoring.best_target(ship, plan, enemies, focus, scoring.Arsenal())
    if not values:
        assert found is None
        return
    assert found is not None
    value, arc_index, target = found
    top = max(v for v, _, _ in values)
    assert value == pytest.approx(top, rel=1e-9, abs=1e-12)
    assert (ARC_ORDER[arc_index].value, target.id) in {
        (a, t) for v, a, t in values if v >= top - max(1e-9, 1e-9 * top)
    }


def test_a_plan_moves_over_to_a_wingman_by_the_same_offsets() -> None:
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-fleet"))
    battle = new_battle(SCENARIO, fleets, 1)
    leader, wingman = [snapshot(s) for s in battle.ships.values() if s.side == "A"][:2]
    plan = scoring.Plan(leader.x + 3, leader.y + 5, 1, leader.x + 7, leader.y + 11, 2)
    moved = plan.shifted(leader, wingman)
    assert moved == scoring.Plan(wingman.x + 3, wingman.y + 5, 1, wingman.x + 7, wingman.y + 11, 2)


def test_an_enemy_threatens_a_point_within_its_range_less_its_own_move() -> None:
    # An enemy facing us: a point 7.5 cm inside its longest range is out of reach once the
    # 8 cm it may move first are counted; 8.5 cm inside, the longest-range weapon reaches it.
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-fleet"))
    battle = new_battle(SCENARIO, fleets, 1)
    ship = next(s for s in battle.ships.values() if s.side == "B")
    ship.x, ship.y, ship.heading = 90.0, 60.0, 0  # facing +y
    e = snapshot(ship)
    reach = max(e.ranges.values())
    threat = [scoring.enemy(e, 3, scoring.Arsenal())]
    assert scoring.threat_at(threat, 90.0, 60.0 + reach - scoring.ENEMY_MOVE_CM + 0.5) == 0.0
    assert scoring.threat_at(threat, 90.0, 60.0 + reach - scoring.ENEMY_MOVE_CM - 0.5) > 0.0
    assert scoring.ENEMY_MOVE_CM == 8


@pytest.mark.rule("FPF-OPT-04")
def test_a_jump_is_made_only_when_it_lands_well_nearer() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]])
    place(battle, "A1", 90, 10, 0)
    place(battle, "B1", 90, 115, 3)
    origin, focus = snapshot(battle.ships["A1"]), snapshot(battle.ships["B1"])
    table = (180.0, 120.0)
    leap = scoring.jump_toward(origin, focus, (40, 60), table)  # jumps measured in cm
    assert leap is not None
    assert leap.jump
    assert (leap.turn1, leap.turn2) == (0, 0)
    assert leap.speed == 60
    # in the printed inches (102-152 cm) every jump leaves the table or lands on top of it
    assert scoring.jump_toward(origin, focus, (102, 152), table) is None


# --- the shortcuts on hypot bounds choose exactly as hypot does -------------------------------


def plain_best_lock(
    ship: ShipView, plan: scoring.Plan | None, enemies: list[ShipView], focus: ShipView
) -> tuple[float, int, str] | None:
    """`best_lock` with every distance worked out by hypot (as it was before its bounds), for
    exact comparison: the same points, arcs, sums and ties."""
    if plan is None:
        points = [(ship.x, ship.y, ship.heading)]
    else:
        mx, my, ex, ey = plan.mid_x, plan.mid_y, plan.end_x, plan.end_y
        points = [
            (ship.x, ship.y, plan.mid_heading),
            ((ship.x + mx) / 2, (ship.y + my) / 2, plan.mid_heading),
            (mx, my, plan.mid_heading),
            ((mx + ex) / 2, (my + ey) / 2, plan.end_heading),
            (ex, ey, plan.end_heading),
        ]
    best: tuple[float, int, str] | None = None
    for e in enemies:
        groups = [g for g in scoring.weapon_groups(ship, e.shields) if g.shots > 0]
        nearest = [math.inf] * 4
        for x, y, heading in points:
            arc = ARC_ORDER.index(arc_to(x, y, heading, e.x, e.y))
            if any(arc in g.arcs for g in groups):
                nearest[arc] = min(nearest[arc], math.hypot(e.x - x, e.y - y))
        for arc in range(4):
            if nearest[arc] == math.inf:
                continue
            damage = 0.0
            for g in groups:
                if arc in g.arcs and nearest[arc] <= g.range_cm:
                    damage += g.damage
            value = damage * (scoring.FOCUS_BONUS if e is focus else 1.0)
            if value == 0.0:
                value = scoring.NEAR_MISS_VALUE / (1 + nearest[arc])
            if best is None or value > best[0]:
                best = (value, arc, e.id)
    return best


def plain_threat_at(ships: list[ShipView], shields: int, x: float, y: float) -> float:
    """`threat_at` with the distance worked out by hypot every time."""
    threat = 0.0
    for e in ships:
        groups = [g for g in scoring.weapon_groups(e, shields) if g.damage > 0.0]
        distance = math.hypot(x - e.x, y - e.y) + scoring.ENEMY_MOVE_CM
        arc = ARC_ORDER.index(arc_to(e.x, e.y, e.heading % HEADINGS, x, y))
        if distance <= max((g.range_cm for g in groups), default=0.0):
            threat += sum_in_order(
                g.damage for g in groups if arc in g.arcs and distance <= g.range_cm
            )
    return threat


def sum_in_order(values: Iterable[float]) -> float:
    total = 0.0
    for v in values:
        total += v
    return total


@given(
    setting=settings_(),
    points=two_spots(),
    planned=st.booleans(),
    at_range=st.booleans(),
)
@FAST
def test_the_best_lock_is_exactly_the_plain_one(
    setting: Setting, points: list[tuple[float, float, int]], planned: bool, at_range: bool
) -> None:
    ship, enemies = setting.ours[0], setting.enemies
    if at_range:  # the end point a weapon's range from the first enemy, give or take an ulp
        planned = True
        target, reach = enemies[0], float(max(ship.ranges.values()))
        points[1] = (target.x - reach * 0.6, target.y - reach * 0.8, points[1][2])
    focus = enemies[-1]
    plan = scoring.Plan(*points[0], *points[1]) if planned else None
    found = scoring.best_lock(ship, plan, enemies, focus, scoring.Arsenal())
    plain = plain_best_lock(ship, plan, enemies, focus)
    assert (found and (found[0], found[1], found[2].id)) == plain


@given(setting=settings_(), x=st.floats(0, 180), y=st.floats(0, 120), shields=st.integers(0, 6))
@FAST
def test_the_threat_is_exactly_the_plain_one(
    setting: Setting, x: float, y: float, shields: int
) -> None:
    ships = setting.enemies
    near = ships[0]  # and one point exactly its reach less the enemy's move away
    reach = float(max(near.ranges.values())) - scoring.ENEMY_MOVE_CM
    for px, py in ((x, y), (near.x + reach * 0.6, near.y + reach * 0.8)):
        threats = [scoring.enemy(e, shields, scoring.Arsenal()) for e in ships]
        assert scoring.threat_at(threats, px, py) == plain_threat_at(ships, shields, px, py)


@given(
    setting=settings_(),
    x=st.floats(0, 180),
    y=st.floats(0, 120),
    heading=st.integers(0, HEADINGS - 1),
    at_range=st.booleans(),
)
@FAST
def test_the_damage_between_bounds_is_exactly_the_damage_at_the_distance(
    setting: Setting, x: float, y: float, heading: int, at_range: bool
) -> None:
    target = setting.enemies[0]
    ours = scoring.Firepower(setting.ours, target.shields, scoring.Arsenal())
    if at_range:  # a weapon's range away, give or take an ulp: between the bounds
        x, y = target.x - ours.reach * 0.6, target.y - ours.reach * 0.8
    lower, upper = scoring.hypot_bounds(target.x - x, target.y - y)
    distance = math.hypot(target.x - x, target.y - y)
    exact = ours.damage_on(x, y, heading, target.x, target.y, distance)
    assert ours.damage_between(x, y, heading, target.x, target.y, lower, upper) == exact
