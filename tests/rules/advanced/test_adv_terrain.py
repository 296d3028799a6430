"""The advanced game's terrain: module adv-terrain (nebulae, ion storms, mines, black holes,
neutron stars, magnetars, gas giants, orbit) and the black hole's cloak interference."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import arm
from adv_kit import events_of
from adv_kit import put

from kolrami.captains.base import BattleView
from kolrami.catalog.advanced import AdvWeaponKind
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.rules import new_battle
from kolrami.rules.advanced import cloak
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.combat import fire
from kolrami.rules.advanced.combat import ready_problem
from kolrami.rules.advanced.modules import AdvancedRules
from kolrami.rules.advanced.officers import bonus_options
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.state import KEY
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import setup
from kolrami.rules.advanced.terrain import Terrain
from kolrami.rules.advanced.terrain import TerrainState
from kolrami.rules.advanced.terrain import mines_of
from kolrami.rules.advanced.terrain.ion import storm_advance
from kolrami.rules.advanced.terrain.nebula import sensing_number
from kolrami.rules.advanced.terrain.orbit import orbit_band
from kolrami.rules.advanced.terrain_events import MineRolled
from kolrami.rules.advanced.terrain_events import TerrainCheck
from kolrami.rules.advanced.terrain_events import TerrainDamage
from kolrami.rules.sandbox import fleet_of
from kolrami.scenarios.models import BlackHole
from kolrami.scenarios.models import Feature
from kolrami.scenarios.models import GasGiant
from kolrami.scenarios.models import IonStorm
from kolrami.scenarios.models import Magnetar
from kolrami.scenarios.models import Minefield
from kolrami.scenarios.models import Moon
from kolrami.scenarios.models import Nebula
from kolrami.scenarios.models import NeutronStar
from kolrami.scenarios.models import Planet
from kolrami.scenarios.models import builtin_scenario
from scene_kit import place_all

MODULE = Terrain()
NEBULA = Nebula(kind="nebula", x=50, y=40, radius_cm=10)
HOLE = BlackHole(kind="black-hole", x=90, y=60, horizon_cm=4, rings=6)  # disk out to 28 cm


def terrain_table(
    features: tuple[Feature, ...],
    side_a: tuple[str, ...] = ("reliant",),
    side_b: tuple[str, ...] = ("ktroika",),
    rules: tuple[str, ...] = (),
) -> tuple[Battle, AdvancedState]:
    """An advanced battle on a table with `features`, state set up, turn 1, nothing played."""
    sc = builtin_scenario("advanced").model_copy(
        update={"terrain": features, "rules": ("advanced", "adv-terrain", *rules)}
    )
    fleets = (fleet_of([[c] for c in side_a], "A"), fleet_of([[c] for c in side_b], "B"))
    b = new_battle(sc, fleets, 1)
    state = setup(b, advanced_pack(), AdvancedRules.of(b))
    b.extensions[KEY] = state
    state.terrain = TerrainState(mines_of(sc))
    b.turn = 1
    return b, state


def after_move(b: Battle, state: AdvancedState, phase: int = 1) -> None:
    list(MODULE.adv_after_move(b, state, phase, ("A", "B")))


def moved(b: Battle, state: AdvancedState, ship: str, start: tuple[float, float]) -> None:
    """Record that `ship` moved this phase from `start` to where it is now."""
    t = state.terrain
    assert isinstance(t, TerrainState)
    t.last[ship] = start
    state.of(ship).moved_last = True


def damage_to(b: Battle, ship: str, source: str) -> list[TerrainDamage]:
    return [e for e in events_of(b, TerrainDamage) if e.ship == ship and source in e.source]


# --- nebulae -------------------------------------------------------------------------------------


@pytest.mark.rule("ADV-NEB-05", "ADV-NEB-01")
def test_shields_are_useless_in_a_nebula_and_no_crew_is_lost_to_its_radiation() -> None:
    b, state = terrain_table((NEBULA,))
    place_all(b, "A1 50,40 h0; B1 150,100 h3")
    a = arm(b, state, "A1")
    assert a.shielded
    after_move(b, state)
    assert a.around.nebula
    assert not a.shielded
    MODULE.adv_phase_end(b, state, 1)
    assert a.casualties == 0
    assert not events_of(b, ae.CasualtiesTaken)


@pytest.mark.rule("ADV-NEB-03")
def test_no_lock_holds_in_a_nebula_so_fire_is_manual() -> None:
    b, state = terrain_table((NEBULA,))
    place_all(b, "A1 50,40 h0; B1 50,60 h3")
    a, k = arm(b, state, "A1"), arm(b, state, "B1")
    k.lock = "A1"
    after_move(b, state)
    assert k.lock is None  # the target went into the nebula
    assert not state.rules.lock_allowed(state, k, a)
    assert not state.rules.lock_allowed(state, a, k)
    b.dice = Loaded([99, 1])  # the Helm: Weapons check fails: no shot
    fire(b, state, Attack("B1", (0,), "A1"))
    checks = events_of(b, ae.FireCheck)
    assert checks[-1].purpose == "manual fire"
    assert not checks[-1].passed


#: (terrain, ship spots, where): a bird of prey, B1, in it tries to cloak.
CLOAKLESS = [
    pytest.param(
        NEBULA, "A1 150,100 h0; B1 50,40 h3", "a nebula", marks=pytest.mark.rule("ADV-NEB-04")
    ),
    pytest.param(
        HOLE, "A1 10,10 h0; B1 100,60 h3", "an accretion disk", marks=pytest.mark.rule("ADV-BH-07")
    ),
]


@pytest.mark.parametrize(("terrain", "spots", "where"), CLOAKLESS)
def test_no_cloak_works_in_a_nebula_or_a_black_holes_disk(
    terrain: Feature, spots: str, where: str
) -> None:
    b, state = terrain_table((terrain,), side_b=("bird-of-prey",), rules=("adv-cloak",))
    place_all(b, spots)
    k = arm(b, state, "B1")
    cloak.engage(b, state, k, "test")
    after_move(b, state)
    assert not k.cloaked
    assert state.rules.cloak_problem(state, k) == f"cloaks do not work in {where}"


@pytest.mark.rule("ADV-NEB-02")
def test_a_fleet_all_inside_a_nebula_sees_nothing_beyond_a_hex_on_a_failed_sensing_roll() -> None:
    b, state = terrain_table((NEBULA,))
    place_all(b, "A1 50,40 h0; B1 50,70 h3")
    b.dice = Loaded([4])  # not under 4: no sight this phase
    after_move(b, state)
    assert BattleView(b, "A").enemies() == []
    assert [e.id for e in BattleView(b, "B").enemies()] == ["A1"]  # B is outside: it sees
    b.dice = Loaded([3])
    after_move(b, state, 2)
    assert [e.id for e in BattleView(b, "A").enemies()] == ["B1"]
    assert [c.passed for c in events_of(b, TerrainCheck)] == [False, True]
    assert (sensing_number(0), sensing_number(2), sensing_number(4)) == (4, 5, 6)


# --- ion storms ----------------------------------------------------------------------------------

STORM = IonStorm(kind="ion-storm", front=((10, 0), (10, 120)), heading_deg=0, speed_hexes=5)


@pytest.mark.rule("ADV-ION-01")
def test_the_storm_front_moves_at_its_speed_and_everything_behind_it_is_storm() -> None:
    assert storm_advance(STORM, 4, 1, 5) == 20.0  # 5 hexes of 4 cm in one game turn
    assert storm_advance(STORM, 4, 2, 1) == 24.0
    b, state = terrain_table((STORM,))
    place_all(b, "A1 25,40 h0; B1 150,100 h3")
    after_move(b, state, 1)  # front at 14 cm
    assert not state.of("A1").around.storm
    after_move(b, state, 4)  # front at 26 cm
    assert state.of("A1").around.storm
    assert not state.of("B1").around.storm


@pytest.mark.rule("ADV-ION-02")
def test_the_storm_deals_1_to_every_facing_inside_and_to_the_touching_facing_outside() -> None:
    b, state = terrain_table((STORM,))
    put(b, "A1", 5, 40, 0)  # behind the front: inside
    put(b, "B1", 15.5, 80, 0)  # 1.5 cm ahead of the front after phase 1 (14 cm): touching
    arm(b, state, "A1")
    arm(b, state, "B1")
    MODULE.adv_phase_end(b, state, 1)
    inside = damage_to(b, "A1", "ion storm")
    assert sorted(e.facing for e in inside) == [1, 2, 3, 4, 5, 6]
    assert all(e.damage == 1 and e.absorbed == 1 for e in inside)
    touching = damage_to(b, "B1", "ion storm")
    # heading 0 is +y; the storm lies toward -x: B1's starboard... its side toward the storm
    assert len(touching) == 1
    assert touching[0].facing in (1, 6)
    assert state.of("A1").base == [state.of("A1").sheet.shield_points - 1] * 6


@pytest.mark.rule("ADV-ION-03")
def test_no_subspace_traffic_gets_out_of_a_storm() -> None:
    b, state = terrain_table((STORM,), side_b=("bird-of-prey",))
    place_all(b, "A1 5,40 h0; B1 150,100 h3")
    after_move(b, state)
    assert "decode" not in bonus_options(state, state.of("A1")).get("comms", ())


# --- mines ---------------------------------------------------------------------------------------


def mined(cloaked: bool = False, *extra: Feature) -> tuple[Battle, AdvancedState]:
    mines = Minefield(kind="minefield", owner="B", mines=((50, 44),), damage=8, cloaked=cloaked)
    b, state = terrain_table((*extra, mines))
    put(b, "A1", 50, 44, 0)  # moved forward (+y) from (50, 38) into the mined hex
    put(b, "B1", 150, 100, 3)
    arm(b, state, "A1", shields=False)
    moved(b, state, "A1", (50, 38))
    return b, state


@pytest.mark.rule("ADV-MINE-04", "ADV-MINE-07")
def test_a_mine_rolls_6_or_less_on_entry_then_one_more_each_phase_and_hits_the_facing_in() -> None:
    b, state = mined()
    b.dice = Loaded([7])  # 7 > 6: holds
    after_move(b, state, 1)
    b.dice = Loaded([8])  # staying: 8 > 7 holds
    after_move(b, state, 2)
    b.dice = Loaded([8, 99])  # 8 <= 8: explodes; Helm Ops 99: no dodge
    after_move(b, state, 3)
    rolls = events_of(b, MineRolled)
    assert [(r.roll, r.needed, r.exploded) for r in rolls] == [
        (7, 6, False),
        (8, 7, False),
        (8, 8, True),
    ]
    hit = damage_to(b, "A1", "mine")
    assert [(h.facing, h.damage, h.absorbed) for h in hit] == [(2, 8, 0)]  # forward: shield 2
    assert b.ships["A1"].superstructure == b.ships["A1"].cls.superstructure - 8


@pytest.mark.rule("ADV-MINE-07")
def test_backing_into_a_mine_strikes_the_aft_facing() -> None:
    b, state = mined()
    moved(b, state, "A1", (50, 50))  # came in from ahead of it: backing in
    b.dice = Loaded([1, 99])
    after_move(b, state)
    assert [h.facing for h in damage_to(b, "A1", "mine")] == [5]


@pytest.mark.rule("ADV-MINE-05", "ADV-MINE-06")
def test_half_helm_ops_dodges_the_blast_and_the_hex_is_then_clear() -> None:
    b, state = mined()
    state.of("A1").officers["helm"].ratings["helm_ops"] = 65
    b.dice = Loaded([3, 32])  # explodes; 32 <= 65 // 2: dodged
    after_move(b, state)
    roll = events_of(b, MineRolled)[-1]
    assert roll.exploded
    assert roll.dodged
    assert roll.dodge_rating == 32
    assert not damage_to(b, "A1", "mine")
    after_move(b, state, 2)  # a cleared hex rolls no more (the dice would run out)
    assert len(events_of(b, MineRolled)) == 1


@pytest.mark.rule("ADV-MINE-03")
def test_a_captain_cannot_see_the_enemy_mines_until_a_ship_enters_their_hex() -> None:
    b, state = mined()
    a_view, b_view = BattleView(b, "A"), BattleView(b, "B")
    assert [t.kind for t in a_view.scenario.terrain] == []  # side A: no mines at all
    assert [t.kind for t in b_view.scenario.terrain] == ["minefield"]  # its own
    header = next(iter(b.events()))
    assert isinstance(header, ev.BattleStarted)
    assert header.header["scenario"]["terrain"][0]["mines"] == [[50, 44]]  # the log has it
    b.dice = Loaded([9])
    after_move(b, state)
    seen = a_view.scenario.terrain
    assert len(seen) == 1
    assert isinstance(seen[0], Minefield)
    assert seen[0].mines == ((50, 44),)


@pytest.mark.rule("ADV-MINE-01", "ADV-MINE-08")
def test_a_cloaked_mine_stays_hidden_on_entry_unless_a_nebula_fails_its_cloak() -> None:
    b, state = mined(cloaked=True)
    b.dice = Loaded([9])
    after_move(b, state)
    assert BattleView(b, "A").scenario.terrain == ()
    nebula = Nebula(kind="nebula", x=50, y=44, radius_cm=6)
    b, state = mined(True, nebula)
    b.dice = Loaded([9, 1])  # the mine holds; A's sensing roll (all of A in the nebula)
    after_move(b, state)
    assert [t.kind for t in BattleView(b, "A").scenario.terrain] == ["nebula", "minefield"]


# --- black holes ---------------------------------------------------------------------------------


def in_disk(depth: int, rules: tuple[str, ...] = ()) -> tuple[Battle, AdvancedState]:
    b, state = terrain_table((HOLE,), side_b=("bird-of-prey",), rules=rules)
    put(b, "A1", 90 + 28 - 4 * depth + 1, 60, 0)
    put(b, "B1", 10, 110, 3)
    arm(b, state, "A1")
    after_move(b, state)
    assert state.of("A1").around.disk == depth
    return b, state


@pytest.mark.rule("ADV-BH-01")
@pytest.mark.parametrize(("depth", "damage"), [(1, 1), (3, 3), (5, 5), (6, 6)])
def test_the_disk_burns_the_superstructure_by_depth(depth: int, damage: int) -> None:
    b, state = in_disk(depth)
    b.dice = Loaded([1])  # the debris check passes
    MODULE.adv_phase_end(b, state, 1)
    ring = damage_to(b, "A1", "accretion disk")
    assert [(r.facing, r.damage) for r in ring] == [(0, damage)]


@pytest.mark.rule("ADV-BH-02")
def test_a_failed_helm_check_in_the_disk_brings_debris_on_a_d6_facing_for_a_d3() -> None:
    b, state = in_disk(1)
    b.dice = Loaded([100, 4, 3])
    MODULE.adv_phase_end(b, state, 1)
    debris = damage_to(b, "A1", "debris")
    assert [(d.facing, d.damage) for d in debris] == [(4, 3)]


@pytest.mark.rule("ADV-BH-03")
def test_a_ship_that_does_not_pay_for_holding_position_is_dragged_inward() -> None:
    b, state = in_disk(2)
    x = b.ships["A1"].x
    b.dice = Loaded([1])
    MODULE.adv_phase_end(b, state, 1)
    assert b.ships["A1"].x == pytest.approx(x - 4)


@pytest.mark.rule("ADV-BH-04", "ADV-BH-05")
def test_the_disk_spoils_aim_by_depth_and_charges_beams_double() -> None:
    _b, state = in_disk(3)
    a = state.of("A1")
    phaser = next(w for w in a.sheet.weapons if w.beam)
    torpedo = next(w for w in a.sheet.weapons if not w.beam)
    assert state.rules.to_hit_penalty(state, a, phaser) == 3
    assert state.rules.terrain_damage(state, a, phaser, 5) == 11
    assert state.rules.terrain_damage(state, a, torpedo, 5) == 5


@pytest.mark.rule("ADV-BH-06")
def test_no_torpedoes_are_fired_in_the_disk() -> None:
    _b, state = in_disk(1)
    a = state.of("A1")
    launcher = next(i for i, w in enumerate(a.sheet.weapons) if not w.beam)
    problem = ready_problem(a, launcher)
    assert problem is not None
    assert "accretion disk" in problem


@pytest.mark.rule("ADV-BH-09")
def test_the_event_horizon_destroys_a_ship() -> None:
    b, state = terrain_table((HOLE,))
    place_all(b, "A1 92,60 h0; B1 10,110 h3")
    after_move(b, state)
    assert not b.ships["A1"].alive
    assert b.ships["A1"].superstructure == 0


@pytest.mark.rule("ADV-CLOAK-09")
def test_near_a_black_hole_a_cloaked_ship_must_pass_cloak_tech_each_turn() -> None:
    b, state = terrain_table((HOLE,), side_b=("bird-of-prey",), rules=("adv-cloak",))
    place_all(b, "A1 10,10 h0; B1 160,100 h3")
    k = state.of("B1")
    arm(b, state, "A1")
    cloak.engage(b, state, k, "test")
    b.dice = Loaded([100])  # Cloak Tech fails
    cloak.interference(b, state, k)
    assert not k.cloaked
    assert events_of(b, TerrainCheck)[-1].what.startswith("black hole interference")


# --- neutron stars and magnetars ------------------------------------------------------------------


@pytest.mark.rule("ADV-NS-01")
def test_entering_a_neutron_stars_hex_destroys_the_ship() -> None:
    b, state = terrain_table((NeutronStar(kind="neutron-star", x=50, y=50),))
    put(b, "A1", 51, 50, 0)
    put(b, "B1", 50, 60, 3)  # 10 cm away: safe
    after_move(b, state)
    assert not b.ships["A1"].alive
    assert b.ships["B1"].alive


@pytest.mark.rule("ADV-MAG-01")
def test_a_magnetar_pulls_an_unresisting_ship_and_resisting_costs_the_shields() -> None:
    b, state = terrain_table((Magnetar(kind="magnetar", x=10, y=60),))
    put(b, "A1", 50, 60, 0)  # 10 hexes away: in reach
    put(b, "B1", 50, 20, 3)
    arm(b, state, "A1", shields=False)
    k = arm(b, state, "B1", shields=True)
    after_move(b, state)
    assert k.around.pull
    assert not k.shielded
    MODULE.adv_phase_end(b, state, 1)
    assert b.ships["A1"].x == pytest.approx(46)
    assert (b.ships["B1"].x, b.ships["B1"].y) == (50, 20)


# --- gas giants ----------------------------------------------------------------------------------

GIANT = GasGiant(kind="gas-giant", x=60, y=60, radius_hexes=6)  # 24 cm


def in_layer(dist: float) -> tuple[Battle, AdvancedState]:
    b, state = terrain_table((GIANT,), side_b=("bird-of-prey",), rules=("adv-cloak",))
    put(b, "A1", 60 + dist, 60, 0)
    put(b, "B1", 150, 100, 3)
    arm(b, state, "A1")
    state.of("A1").moved_last = True
    after_move(b, state)
    return b, state


@pytest.mark.rule("ADV-GG-01", "ADV-GG-02")
@pytest.mark.parametrize(
    ("dist", "layer", "pressure", "factor"), [(22, 1, 1, 1.5), (18, 2, 6, 2.0), (10, 3, 18, 4.0)]
)
def test_pressure_on_the_leading_facings_and_torpedoes_by_layer(
    dist: float, layer: int, pressure: int, factor: float
) -> None:
    b, state = in_layer(dist)
    a = state.of("A1")
    assert a.around.layer == layer
    MODULE.adv_phase_end(b, state, 1)
    hits = damage_to(b, "A1", "pressure")
    assert sorted((h.facing, h.damage) for h in hits) == [
        (1, pressure),
        (2, pressure),
        (3, pressure),
    ]
    photon = next(w for w in a.sheet.weapons if w.kind is AdvWeaponKind.PHOTON)
    assert state.rules.to_hit_penalty(state, a, photon) == 5
    assert state.rules.terrain_damage(state, a, photon, 10) == int(10 * factor)
    assert a.around.no_lock  # weapons aimed by hand


@pytest.mark.rule("ADV-GG-03")
def test_the_core_hex_destroys_a_ship() -> None:
    b, _state = in_layer(1)
    assert not b.ships["A1"].alive


@pytest.mark.rule("ADV-GG-04")
def test_movement_in_the_atmosphere_is_hidden_beyond_one_hex() -> None:
    b, _state = in_layer(22)
    assert [e.id for e in BattleView(b, "B").enemies()] == []
    put(b, "B1", 60 + 22, 64, 3)  # one hex away
    assert [e.id for e in BattleView(b, "B").enemies()] == ["A1"]


@pytest.mark.rule("ADV-GG-05")
def test_no_cloak_in_the_atmosphere_and_plasma_does_half() -> None:
    _b, state = in_layer(22)
    a = state.of("A1")
    assert a.around.no_cloak
    photon = next(w for w in a.sheet.weapons if w.kind is AdvWeaponKind.PHOTON)
    plasma = photon.model_copy(update={"kind": AdvWeaponKind.PLASMA})
    assert state.rules.terrain_damage(state, a, plasma, 9) == 4


# --- standard orbit ------------------------------------------------------------------------------


@pytest.mark.rule("ADV-ORB-02")
def test_orbit_lies_next_to_a_planet_two_out_from_a_gas_giant_and_next_to_a_disk() -> None:
    assert orbit_band(Planet(kind="planet", x=0, y=0, radius_cm=6), 4) == (6, 10)
    assert orbit_band(Moon(kind="moon", x=0, y=0, radius_cm=2), 4) == (2, 6)
    assert orbit_band(GIANT, 4) == (28, 32)
    assert orbit_band(HOLE, 4) == (28, 32)


@pytest.mark.rule("ADV-ORB-01")
def test_a_ship_in_orbit_moves_a_hex_a_phase_without_movement_points() -> None:
    b, state = terrain_table((Moon(kind="moon", x=90, y=60, radius_cm=3),))
    put(b, "A1", 95, 60, 0)  # 5 cm out: the orbit hex
    put(b, "B1", 10, 110, 3)
    a = arm(b, state, "A1", move=0)
    after_move(b, state, 1)
    assert a.around.orbit == 0
    assert a.moves == 0
    after_move(b, state, 2)
    s = b.ships["A1"]
    assert ((s.x - 90) ** 2 + (s.y - 60) ** 2) ** 0.5 == pytest.approx(5, abs=0.01)
    assert s.y > 60  # counter-clockwise
