"""FPF damage inside the battle engine, clause by clause (FPF-DMG-03..15).

The pure penetration rules are tested in tests/test_fpf_damage.py; here damage is rolled by the
engine (with loaded dice) or laid on directly with Battle.apply_damage.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from fpf_kit import events_of
from fpf_kit import fight
from fpf_kit import load
from fpf_kit import moved
from fpf_kit import volleys

from kolrami.catalog import Arc
from kolrami.catalog import WeaponKind
from kolrami.engine.battle import Battle
from kolrami.engine.battle import ShipState
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import apply_damage
from kolrami.rules.fpf.fire import firers
from kolrami.rules.fpf.movement import movers
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox

R3 = math.sqrt(3) / 2


def close_duel(a: str = "reliant", b: str = "ktroika", gap: float = 12) -> Battle:
    """A1 at (90, 40) heading up (last speed 5), B1 `gap` cm ahead facing it (last speed 0)."""
    battle = sandbox([[a]], [[b]], turn_limit=1)
    place(battle, "A1", 90, 40, 0, speed=5)
    place(battle, "B1", 90, 40 + gap, 3, speed=0)
    return battle


STAND_AND_FIRE = "AS1 SPD 0 T0 T0 FIRE A1:F@B1"
B_STANDS = "BS1 SPD 0 T0 T0 HOLD"


def ship(cls: str, **state: Any) -> tuple[Battle, ShipState]:
    """A battle with one ship of `cls` on side A (state set by hand) and a foe far away."""
    battle = sandbox([[cls]], [["ktroika"]])
    place(battle, "A1", 90, 40, 0, **state)
    return battle, battle.ships["A1"]


def last_hit(battle: Battle) -> ev.HitScored:
    return events_of(battle, ev.HitScored)[-1]


# --- FPF-DMG-02: the natural 1 and 10 in the engine ---------------------------------------------


@pytest.mark.rule("FPF-DMG-02")
@pytest.mark.parametrize(
    ("a", "b", "b_shields", "rolls", "hits"),
    [
        # strength 2 against Shields 16: 14+ is impossible, yet the 10 gets through
        ("bird-of-prey", "enterprise", 16, [10, 9], 1),
        # strength 5 against Shields 0: every face but the 1 gets through
        ("enterprise", "ktroika", 0, [1, 2, 1, 1, 1, 1, 1, 1, 1, 1], 1),
    ],
)
def test_natural_results_in_a_volley(
    a: str, b: str, b_shields: int, rolls: list[int], hits: int
) -> None:
    battle = close_duel(a, b)
    place(battle, "B1", 90, 52, 3, speed=0, shields=b_shields)
    load(battle, [*rolls, 5, 5])
    fight(battle, [STAND_AND_FIRE], ["REPAIR NONE", B_STANDS])
    phaser = events_of(battle, ev.VolleyFired)[0]
    assert (phaser.weapon, phaser.shields, phaser.rolls) == ("phaser", b_shields, rolls)
    assert sum(1 for h in events_of(battle, ev.HitScored) if h.weapon == "phaser") == hits


# --- FPF-DMG-05, -06: torpedo damage and the location table --------------------------------------


@pytest.mark.rule("FPF-DMG-05", "FPF-DMG-03")
def test_each_penetrating_torpedo_rolls_location_and_d6() -> None:
    """Three torpedoes roll 10, 10, 1: two get through; each rolls a location die and a d6
    (location 5 for 4, location 1 for 6)."""
    battle = close_duel()
    load(battle, [1] * 6 + [10, 10, 1] + [5, 4, 1, 6])
    fight(battle, [STAND_AND_FIRE], [B_STANDS])
    hits = [(h.weapon, h.location_roll, h.damage) for h in events_of(battle, ev.HitScored)]
    assert hits == [("photon", 5, 4), ("photon", 1, 6)]
    b1 = battle.ships["B1"]
    assert (b1.engine_power, b1.shields, b1.superstructure) == (12, 8, 12)


@pytest.mark.rule("FPF-DMG-06")
def test_location_faces_in_the_engine() -> None:
    battle, enterprise = ship("enterprise")
    for face in range(1, 11):
        apply_damage(battle, enterprise, face, 1, Arc.F, None, "phaser")
    hits = events_of(battle, ev.HitScored)
    assert [h.location for h in hits] == [
        "shields",
        "shields",
        "shields",
        "shields",
        "engine_power",
        "engine_power",
        "engine_power",
        "phasers",
        "photons",
        "computer",
    ]
    assert (enterprise.shields, enterprise.engine_power, enterprise.systems) == (12, 17, 4)
    # a hit takes a shot off the weakest working mount (docs/rules.md, FPF-DATA)
    assert enterprise.mounts == {WeaponKind.PHASER: (4, 1, 2, 2), WeaponKind.PHOTON: (1, 2)}
    assert enterprise.superstructure == 32 - 10


# --- FPF-DMG-07, -08, -09: where damage goes -----------------------------------------------------


@pytest.mark.rule("FPF-DMG-07")
def test_worked_example_torpedo_4_on_location_6_of_a_d7t() -> None:
    battle, d7 = ship("ktroika")
    apply_damage(battle, d7, 6, 4, Arc.F, None, "photon")
    assert (d7.engine_power, d7.superstructure) == (12, 18)
    hit = last_hit(battle)
    assert (hit.location, hit.applied_to, hit.superstructure, hit.value) == (
        "engine_power",
        "engine_power",
        18,
        12,
    )


@pytest.mark.rule("FPF-DMG-07")
def test_location_value_stops_at_zero_but_the_hull_takes_it_all() -> None:
    battle, reliant = ship("reliant")
    apply_damage(battle, reliant, 9, 6, Arc.F, None, "photon")  # 3 torpedo shots on the sheet
    assert reliant.mounts[WeaponKind.PHOTON] == (0, 0)
    assert reliant.superstructure == 22 - 6


@pytest.mark.rule("FPF-DMG-08")
@pytest.mark.parametrize(
    ("face", "state", "field"),
    [(2, {"shields": 0}, "shields"), (6, {"engine_power": 0}, "engine_power")],
)
def test_damage_to_an_item_already_at_zero_goes_to_the_hull_only(
    face: int, state: dict[str, int], field: str
) -> None:
    battle, reliant = ship("reliant", **state)
    apply_damage(battle, reliant, face, 3, Arc.F, None, "photon")
    assert getattr(reliant, field) == 0
    assert reliant.superstructure == 19
    assert last_hit(battle).applied_to == "superstructure"


@pytest.mark.rule("FPF-DMG-08")
def test_a_wrecked_weapon_row_passes_damage_to_the_hull() -> None:
    battle, reliant = ship("reliant")
    reliant.mounts[WeaponKind.PHASER] = (0, 0)
    apply_damage(battle, reliant, 8, 2, Arc.F, None, "phaser")
    assert reliant.mounts[WeaponKind.PHASER] == (0, 0)
    assert (reliant.superstructure, last_hit(battle).applied_to) == (20, "superstructure")


@pytest.mark.rule("FPF-DMG-09")
def test_worked_example_bird_of_prey_hit_from_the_front_on_location_9() -> None:
    """Its photons fire aft only, so a hit from the front on location 9 spares them."""
    battle, bop = ship("bird-of-prey")
    apply_damage(battle, bop, 9, 1, Arc.F, None, "phaser")
    assert bop.mounts[WeaponKind.PHOTON] == (1,)
    assert bop.superstructure == 5
    assert last_hit(battle).applied_to == "superstructure"


@pytest.mark.rule("FPF-DMG-09")
def test_bird_of_prey_hit_from_astern_loses_its_launcher() -> None:
    battle, bop = ship("bird-of-prey")
    apply_damage(battle, bop, 9, 1, Arc.A, None, "phaser")
    assert bop.mounts[WeaponKind.PHOTON] == (0,)
    assert (bop.superstructure, last_hit(battle).applied_to) == (5, "photons")


@pytest.mark.rule("FPF-DMG-09", "FPF-ARC-01")
@pytest.mark.parametrize(("bop_heading", "photons"), [(3, (1,)), (0, (0,))])
def test_the_attack_arc_comes_from_where_the_shooter_sits(
    bop_heading: int, photons: tuple[int, ...]
) -> None:
    """A1 shoots the Bird of Prey from below: bow-on (heading 3) the hit on 9 spares the aft
    launcher; stern-on (heading 0) it wrecks it."""
    battle = close_duel("reliant", "bird-of-prey")
    place(battle, "B1", 90, 52, bop_heading, speed=0)
    load(battle, [10, 1, 1, 1, 1, 1, 9])
    fight(battle, [STAND_AND_FIRE], [B_STANDS])
    b1 = battle.ships["B1"]
    assert b1.mounts[WeaponKind.PHOTON] == photons
    assert b1.superstructure == 5


# --- FPF-DMG-10, -11, -12: shields, destruction, immediacy ---------------------------------------


@pytest.mark.rule("FPF-DMG-10")
def test_shield_hits_lower_the_one_shield_value_never_below_zero() -> None:
    battle, reliant = ship("reliant")
    apply_damage(battle, reliant, 3, 5, Arc.F, None, "photon")
    assert reliant.shields == 9
    apply_damage(battle, reliant, 4, 6, Arc.A, None, "photon")  # from astern: the same shields
    assert reliant.shields == 3
    apply_damage(battle, reliant, 1, 5, Arc.P, None, "photon")
    assert reliant.shields == 0
    assert reliant.superstructure == 22 - 16


@pytest.mark.rule("FPF-DMG-11")
def test_a_ship_at_zero_superstructure_is_destroyed_and_the_battle_ends() -> None:
    """The Enterprise's first torpedo through does 6 to a Bird of Prey with 6 superstructure."""
    battle = close_duel("enterprise", "bird-of-prey")
    load(battle, [1] * 10 + [10, 1, 1, 1] + [5, 6])
    result = fight(battle, [STAND_AND_FIRE])
    b1 = battle.ships["B1"]
    assert (b1.superstructure, b1.destroyed, b1.alive) == (0, True, False)
    (gone,) = events_of(battle, ev.ShipDestroyed)
    assert (gone.ship, gone.by, gone.derelict) == ("B1", "A1", False)
    assert (result.winner, result.reason, result.turns) == ("A", "enemy fleet destroyed", 1)
    assert result.destroyed_value == {"A": 0, "B": 15}


@pytest.mark.rule("FPF-DMG-11")
def test_one_point_of_superstructure_left_keeps_a_ship_alive() -> None:
    battle, bop = ship("bird-of-prey")
    apply_damage(battle, bop, 2, 5, Arc.F, None, "photon")
    assert (bop.superstructure, bop.alive) == (1, True)
    apply_damage(battle, bop, 2, 3, Arc.F, None, "photon")
    assert (bop.superstructure, bop.destroyed) == (-2, True)
    assert battle.side_ships("A") == []


def head_on_kill() -> Battle:
    """Enterprise (A1) against a Reliant (B1) left with 3 superstructure, 12 cm apart; B1 and
    B2 react. At the 24 cm tier both phaser volleys roll together: ten 10s from A1 (locations
    2) destroy B1 with their third hit; B1's six 10s (locations 5) were rolled with them."""
    battle = sandbox([["enterprise"]], [["reliant", "reliant"]], turn_limit=1)
    place(battle, "A1", 90, 40, 0, speed=5)
    place(battle, "B1", 90, 52, 3, speed=0, superstructure=3)
    place(battle, "B2", 120, 100, 3, speed=0)
    # then at 16 cm: A1's four torpedoes miss; B1's three (if it could still fire) would hit
    load(battle, [10] * 10 + [2] * 10 + [10] * 6 + [5] * 6 + [1] * 4 + [10] * 3 + [5, 1] * 3)
    fight(battle, ["AS1 SPD 5 T0 T0 FIRE A1:F@B1"], ["REACT BS1 B1:F@A1 B2:F@A1"])
    return battle


@pytest.mark.rule("FPF-DMG-11", "FPF-FIRE-14")
def test_shots_rolled_in_the_same_tier_land_after_their_ship_dies() -> None:
    battle = head_on_kill()
    b1, a1 = battle.ships["B1"], battle.ships["A1"]
    assert (b1.destroyed, b1.superstructure) == (True, 0)
    b1_hits = [
        h for h in events_of(battle, ev.HitScored) if h.ship == "B1" and h.weapon == "phaser"
    ]
    assert len(b1_hits) == 6
    assert a1.engine_power <= 20 - 6


@pytest.mark.rule("FPF-DMG-11", "FPF-FIRE-14")
def test_a_ship_destroyed_in_a_head_on_exchange_fires_no_more() -> None:
    battle = head_on_kill()
    assert ("B1", "photon", "A1") not in volleys(battle)
    assert battle.ships["A1"].engine_power == 20 - 6  # only the six phaser hits


@pytest.mark.rule("FPF-DMG-11")
def test_no_volley_is_rolled_at_a_destroyed_ship() -> None:
    """Six Enterprise beams through (locations 5) destroy a Bird of Prey (superstructure 6);
    its torpedoes have nothing left to shoot at."""
    battle = close_duel("enterprise", "bird-of-prey")
    load(battle, [10] * 6 + [1] * 4 + [5] * 6)
    fight(battle, [STAND_AND_FIRE])
    assert battle.ships["B1"].destroyed
    assert volleys(battle) == [("A1", "phaser", "B1")]


@pytest.mark.rule("FPF-DMG-12")
def test_weapons_knocked_out_before_the_target_fires_back() -> None:
    """The Venture's beams wreck both K'T'Roika launchers; when B1 fires in its own
    activation it has phasers only."""
    battle = close_duel("venture", "ktroika")
    load(battle, [10, 10, 1, 1, 1, 1, 9, 9])
    fight(battle, [STAND_AND_FIRE], ["BS1 SPD 0 T0 T0 FIRE B1:F@A1"])
    assert battle.ships["B1"].mounts[WeaponKind.PHOTON] == (0, 0)
    assert volleys(battle) == [
        ("A1", "phaser", "B1"),
        ("A1", "photon", "B1"),
        ("B1", "phaser", "A1"),
    ]


# --- FPF-DMG-13, -14, -15: control, Systems, status ----------------------------------------------


def sting_loses_control() -> Battle:
    """A Sting closes 25 cm on a K'T'Roika that reacts: at 20 cm three beams hit the Sting's
    computer (Systems 3 -> 0), before its own 18 cm phasers are in range."""
    battle = sandbox([["sting"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 90, 30, 0, speed=25)
    place(battle, "B1", 90, 70, 3, speed=0)
    load(battle, [10, 10, 10, 1, 1, 1, 10, 10, 10])
    fight(battle, ["AS1 SPD 25 T0 T0 FIRE A1:F@B1"], ["REACT BS1 B1:F@A1"])
    return battle


@pytest.mark.rule("FPF-DMG-13", "FPF-DMG-12")
def test_losing_control_mid_move_drops_the_lock() -> None:
    """Out of control, the Sting never fires, though B1 comes within its 18 cm range."""
    battle = sting_loses_control()
    a1 = battle.ships["A1"]
    assert (a1.systems, a1.in_control, a1.lock) == (0, False, None)
    assert volleys(battle)[0] == ("B1", "phaser", "A1")
    assert [v for v in volleys(battle) if v[0] == "A1"] == []
    assert [(c.ship, c.in_control) for c in events_of(battle, ev.ControlChanged)] == [("A1", False)]


@pytest.mark.rule("FPF-DMG-13", "FPF-MOV-02", "FPF-MOV-06")
def test_a_ship_losing_control_mid_move_moves_only_once() -> None:
    """The Sting finishes the 25 cm it began (y 30 -> 55), and that is its whole move."""
    battle = sting_loses_control()
    a1 = battle.ships["A1"]
    assert [m.distance for m in moved(battle, "A1")] == [25]
    assert (a1.y, a1.heading) == (55, 0)
    assert volleys(battle) == [("B1", "phaser", "A1")]  # B1's photons (14 cm) never reach


def computer_out(battle: Battle, ship_id: str) -> None:
    s = battle.ships[ship_id]
    apply_damage(battle, s, 10, s.systems, Arc.F, None, "phaser")


@pytest.mark.rule("FPF-DMG-13")
def test_an_out_of_control_ship_cannot_be_ordered_to_fire() -> None:
    battle = sandbox([["reliant", "reliant"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 60, 20, 0, speed=20)
    place(battle, "B1", 170, 110, 3, speed=0)
    computer_out(battle, "A1")
    with pytest.raises(IllegalOrderError, match=r"A1 cannot fire: .*out of control.*FPF-DMG-13"):
        fight(battle, ["REPAIR NONE", "AS1 SPD 20 T0 T0 FIRE A1:F@B1 A2:F@B1"])


@pytest.mark.rule("FPF-DMG-13", "FPF-FIRE-13")
def test_an_out_of_control_ship_holds_its_heading_while_the_rest_manoeuvre() -> None:
    """A1 (Systems 0) leaves the formation and coasts 20 cm straight on; A2 takes the lead,
    turns to port, and the squadron fires without A1."""
    battle = sandbox([["reliant", "reliant"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 60, 20, 0, speed=20)  # A2 follows at (60, 14)
    place(battle, "B1", 170, 110, 3, speed=0)
    computer_out(battle, "A1")
    a1, a2 = battle.ships["A1"], battle.ships["A2"]
    assert (a1.in_control, a1.detached, battle.squadrons["AS1"].formation) == (False, True, ["A2"])
    fight(battle, ["REPAIR NONE", "AS1 SPD 20 T+1 T0 FIRE A2:F@B1"])
    assert (a1.x, a1.y, a1.heading) == (60, 40, 0)
    assert (a2.x, a2.y, a2.heading) == pytest.approx((60 - 20 * R3, 24.0, 1))
    assert [e.ship for e in events_of(battle, ev.FireDeclared)] == ["A2"]


@pytest.mark.rule("FPF-DMG-14")
def test_worked_example_systems_2_hit_for_4() -> None:
    battle, venture = ship("venture", systems=2)
    apply_damage(battle, venture, 10, 4, Arc.F, None, "phaser")
    assert venture.systems == -2
    assert venture.in_control is False
    assert (last_hit(battle).applied_to, last_hit(battle).value) == ("computer", -2)


@pytest.mark.rule("FPF-DMG-14")
def test_systems_stop_at_minus_10() -> None:
    battle, enterprise = ship("enterprise")
    apply_damage(battle, enterprise, 10, 6, Arc.F, None, "photon")
    apply_damage(battle, enterprise, 10, 6, Arc.F, None, "photon")
    apply_damage(battle, enterprise, 10, 6, Arc.F, None, "photon")
    assert enterprise.systems == -10
    assert enterprise.superstructure == 32 - 18


@pytest.mark.rule("FPF-DMG-15")
def test_detoothed_ship_has_no_weapon_and_cannot_fire() -> None:
    battle = close_duel("reliant", "ktroika")
    a1 = battle.ships["A1"]
    apply_damage(battle, a1, 8, 6, Arc.F, None, "photon")
    assert not a1.detoothed
    apply_damage(battle, a1, 9, 3, Arc.F, None, "photon")
    assert a1.detoothed
    assert firers(battle, battle.squadrons["AS1"]) == []
    with pytest.raises(IllegalOrderError, match=r"no working weapon \(FPF-DMG-13, FPF-DMG-15\)"):
        fight(battle, ["REPAIR NONE", STAND_AND_FIRE])


@pytest.mark.rule("FPF-DMG-15")
def test_toast_is_shields_at_half_or_less() -> None:
    battle, d7 = ship("ktroika")
    apply_damage(battle, d7, 1, 6, Arc.F, None, "photon")
    assert (d7.shields, d7.toast) == (8, False)
    apply_damage(battle, d7, 1, 1, Arc.F, None, "phaser")
    assert (d7.shields, d7.toast) == (7, True)


@pytest.mark.rule("FPF-DMG-15", "FPF-DMG-13")
@pytest.mark.parametrize("field", ["engine_power", "systems"])
def test_ballistic_at_zero_engines_or_systems(field: str) -> None:
    battle, reliant = ship("reliant", **{field: 1})
    face = 5 if field == "engine_power" else 10
    apply_damage(battle, reliant, face, 1, Arc.F, None, "phaser")
    assert getattr(reliant, field) == 0
    assert reliant.in_control is False
    assert movers(battle, battle.squadrons["AS1"]) == []
