"""FPF fire and arcs, clause by clause (FPF-FIRE-01..15, FPF-ARC-01, -02, -04)."""

from __future__ import annotations

from typing import Any

import pytest
from fpf_kit import Script
from fpf_kit import events_of
from fpf_kit import fight
from fpf_kit import load
from fpf_kit import volleys

from kolrami.catalog import Arc
from kolrami.catalog import WeaponKind
from kolrami.catalog.models import Weapon
from kolrami.engine.battle import Battle
from kolrami.engine.driver import run
from kolrami.engine.geometry import ARC_ORDER
from kolrami.engine.geometry import arc_index
from kolrami.engine.geometry import arc_to
from kolrami.engine.geometry import relative_bearing
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import OrderSyntaxError
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.rules.fpf.orders import ReactionOrder
from kolrami.rules.registry import parse_order
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from kolrami.scenarios.models import Masking
from scene_kit import place_all


def close_duel(a: str = "reliant", b: str = "ktroika", gap: float = 12, **kw: Any) -> Battle:
    """A1 at (90, 40) heading up, last speed 5; B1 `gap` cm ahead facing it, last speed 0.

    A activates first; with the order "AS1 SPD 0 T0 T0 FIRE ..." A1 fires before anything moves.
    """
    battle = sandbox([[a]], [[b]], turn_limit=1, **kw)
    place(battle, "A1", 90, 40, 0, speed=5)
    place(battle, "B1", 90, 40 + gap, 3, speed=0)
    return battle


STAND_AND_FIRE = "AS1 SPD 0 T0 T0 FIRE A1:F@B1"
B_STANDS = "BS1 SPD 0 T0 T0 HOLD"


# --- FPF-FIRE-01, -02: detection and lock-on ----------------------------------------------------


@pytest.mark.rule("FPF-FIRE-01", "FPF-FIRE-02")
def test_any_ship_may_be_locked_and_only_the_locked_one_is_shot() -> None:
    """A1 locks on B1 across the table, with no detection roll; B2 passes right in front of
    A1, in range, and is not shot at because nothing is locked on it."""
    battle = sandbox([["reliant"]], [["ktroika"], ["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,20 h0 v10; B1 170,110 h3 v5; B2 90,40 h3 v0")
    fight(battle, ["AS1 SPD 10 T0 T0 FIRE A1:F@B1"], ["BS2 SPD 0 T0 T0 HOLD"])
    declared = [(e.ship, e.target, e.arc) for e in events_of(battle, ev.FireDeclared)]
    assert declared == [("A1", "B1", "F")]
    assert volleys(battle) == []
    assert battle.dice.rolls == 0  # no detection, no roll-off, no shot


@pytest.mark.rule("FPF-FIRE-01")
def test_only_enemy_ships_in_play_are_targets() -> None:
    battle = sandbox([["reliant"], ["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 60,40 h0 v5; A2 120,40 h0 v0; B1 90,60 h3 v0")
    with pytest.raises(IllegalOrderError, match=r"cannot target 'A2'.*\(FPF-FIRE-01\)"):
        fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:F@A2"])


# --- FPF-FIRE-03: auto-tracking, no to-hit roll --------------------------------------------------


@pytest.mark.rule("FPF-FIRE-03", "FPF-DMG-03", "FPF-DMG-04")
def test_every_shot_in_range_only_rolls_to_penetrate() -> None:
    """Six beams roll six d10s for penetration, then one location die per beam through; there
    is no to-hit step. Six 10s put six 1-point hits on the engines."""
    battle = close_duel()
    dice = load(battle, [10] * 6 + [5, 5, 5, 6, 6, 7])
    fight(battle, [STAND_AND_FIRE], [B_STANDS])
    phaser, photon = events_of(battle, ev.VolleyFired)
    assert (phaser.weapon, phaser.shots, phaser.rolls) == ("phaser", 6, [10] * 6)
    assert (photon.weapon, photon.shots, photon.rolls) == ("photon", 3, [1, 1, 1])
    hits = events_of(battle, ev.HitScored)
    assert [(h.location_roll, h.damage, h.applied_to) for h in hits] == [
        (5, 1, "engine_power"),
        (5, 1, "engine_power"),
        (5, 1, "engine_power"),
        (6, 1, "engine_power"),
        (6, 1, "engine_power"),
        (7, 1, "engine_power"),
    ]
    b1 = battle.ships["B1"]
    assert (b1.engine_power, b1.superstructure) == (10, 16)
    assert dice.rolls == 6 + 6 + 3


@pytest.mark.rule("FPF-FIRE-03", "FPF-DMG-03")
def test_hits_are_exactly_the_penetrating_rolls() -> None:
    """With the battle's own seeded dice: every penetrating d10 makes one hit, no other does."""
    battle = close_duel("enterprise", "ktroika", seed=11)
    fight(battle, [STAND_AND_FIRE], [B_STANDS])
    fired = events_of(battle, ev.VolleyFired)
    assert [(v.weapon, v.shots) for v in fired] == [("phaser", 10), ("photon", 4)]
    hits = events_of(battle, ev.HitScored)
    for v in fired:
        expected = sum(penetrates(r, v.shields, v.strength) for r in v.rolls)
        assert len(v.rolls) == v.shots
        assert sum(1 for h in hits if h.weapon == v.weapon) == expected
    assert len(hits) > 0


# --- FPF-FIRE-04, -05, -07: one volley, one target, locks ----------------------------------------


@pytest.mark.rule("FPF-FIRE-04", "FPF-FIRE-07", "FPF-FIRE-15")
def test_locked_weapons_fire_once_each_as_the_target_comes_into_range() -> None:
    """A1 declares at 30 cm and closes 20 cm in 5 cm steps: the 24 cm phasers fire at 20 cm,
    the 16 cm photons at 15 cm, and neither fires again though B1 stays in range."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,30 h0 v20; B1 90,60 h3 v0")
    load(battle, [])
    fight(battle, ["AS1 SPD 20 T0 T0 FIRE A1:F@B1"], [B_STANDS])
    fired = events_of(battle, ev.VolleyFired)
    assert [(v.weapon, v.range_cm) for v in fired] == [("phaser", 20.0), ("photon", 15.0)]


@pytest.mark.rule("FPF-FIRE-04", "FPF-FIRE-05")
def test_a_ship_declares_one_target_through_one_arc() -> None:
    battle = sandbox([["charger"]], [["ktroika"], ["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,40 h0 v5; B1 90,55 h3 v0; B2 75,40 h3 v0")
    with pytest.raises(
        IllegalOrderError, match=r"A1 declares two targets.*\(FPF-FIRE-04, FPF-FIRE-05\)"
    ):
        fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:F@B1 A1:P@B2"])


@pytest.mark.rule("FPF-FIRE-05")
def test_all_weapons_of_a_ship_shoot_at_its_one_target() -> None:
    battle = sandbox([["reliant"]], [["ktroika"], ["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,40 h0 v5; B1 90,52 h3 v0")
    place(battle, "B2", 84, 50, 3, speed=0)  # nearer to A1 and in its front arc too
    load(battle, [])
    fight(battle, [STAND_AND_FIRE])
    assert volleys(battle) == [("A1", "phaser", "B1"), ("A1", "photon", "B1")]


@pytest.mark.rule("FPF-FIRE-07")
def test_a_lock_does_not_outlast_its_turn() -> None:
    """Declared in turn 1 and never in range that turn (40 cm); in turn 2 A1 holds fire and
    closes to 20 cm: nothing fires, the turn-1 lock is gone."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=2)
    place_all(battle, "A1 90,20 h0 v10; B1 90,80 h3 v0")
    fight(
        battle,
        ["AS1 SPD 20 T0 T0 FIRE A1:F@B1", "AS1 SPD 20 T0 T0 HOLD"],
        [B_STANDS, B_STANDS],
    )
    assert battle.ships["A1"].y == 60  # 20 cm from B1, in phaser range
    assert len(events_of(battle, ev.FireDeclared)) == 1
    assert volleys(battle) == []
    assert battle.ships["A1"].lock is None


# --- FPF-FIRE-06, -08, -09: declaration and the volley sequence ----------------------------------


def three_on_one() -> Battle:
    """Three Reliants in column 12, 18 and 24 cm from a K'T'Roika (Shields 14), no masking."""
    battle = sandbox([["reliant"] * 3], [["ktroika"]], turn_limit=1, masking=Masking.NONE)
    place(battle, "A1", 90, 40, 0, speed=5)  # A2 at y=34, A3 at y=28
    place(battle, "B1", 90, 52, 3, speed=0)
    return battle


THREE_FIRE = "AS1 SPD 0 T0 T0 FIRE A1:F@B1 A2:F@B1 A3:F@B1"


@pytest.mark.rule("FPF-FIRE-06")
def test_the_squadron_declares_every_target_before_any_shot() -> None:
    battle = three_on_one()
    load(battle, [])
    fight(battle, [THREE_FIRE], [B_STANDS])
    kinds = [
        (type(e).__name__, getattr(e, "ship", ""))
        for e in battle.events()
        if isinstance(e, ev.FireDeclared | ev.VolleyFired)
    ]
    assert kinds[:3] == [("FireDeclared", "A1"), ("FireDeclared", "A2"), ("FireDeclared", "A3")]
    assert all(k == "VolleyFired" for k, _ in kinds[3:])
    assert len(kinds) == 7


@pytest.mark.rule("FPF-FIRE-08")
def test_beams_land_before_torpedoes_roll() -> None:
    """A beam lowers Shields 14 to 13; the torpedoes then need 6+ (13 - 7), and a 6 gets in."""
    battle = close_duel()
    load(battle, [10, 1, 1, 1, 1, 1, 2, 6, 5, 1, 5, 3])
    fight(battle, [STAND_AND_FIRE], [B_STANDS])
    phaser, photon = events_of(battle, ev.VolleyFired)
    assert (phaser.weapon, phaser.shields) == ("phaser", 14)
    assert (photon.weapon, photon.shields, photon.rolls) == ("photon", 13, [6, 5, 1])
    hits = [(h.weapon, h.location, h.damage) for h in events_of(battle, ev.HitScored)]
    assert hits == [("phaser", "shields", 1), ("photon", "engine_power", 3)]
    b1 = battle.ships["B1"]
    assert (b1.shields, b1.engine_power, b1.superstructure) == (13, 13, 18)


@pytest.mark.rule("FPF-FIRE-09")
def test_worked_example_later_ships_gain_from_lowered_shields() -> None:
    """Three ships at Shields 14: ship 1's beams put 2 points on locations 1-4 (Shields 12);
    ship 2's strength-4 phasers then need 8+, so its 8 penetrates and its 7 does not. Beams go
    ship by ship, then torpedoes in the same ship order (only A1 is in photon range)."""
    battle = three_on_one()
    load(battle, [10, 10, 1, 1, 1, 1, 1, 3, 8, 7, 1, 1, 1, 1, 6])
    fight(battle, [THREE_FIRE], [B_STANDS])
    fired = events_of(battle, ev.VolleyFired)
    assert [(v.ship, v.weapon, v.shields, v.range_cm) for v in fired] == [
        ("A1", "phaser", 14, 12.0),
        ("A2", "phaser", 12, 18.0),
        ("A3", "phaser", 12, 24.0),
        ("A1", "photon", 12, 12.0),
    ]
    hits = [(h.ship, h.location_roll, h.applied_to) for h in events_of(battle, ev.HitScored)]
    assert hits == [("A1", 1, "shields"), ("A1", 3, "shields"), ("A2", 6, "engine_power")]
    b1 = battle.ships["B1"]
    assert (b1.shields, b1.engine_power, b1.superstructure) == (12, 15, 19)


# --- FPF-FIRE-10: fire only when activated ------------------------------------------------------


@pytest.mark.rule("FPF-FIRE-10")
def test_before_its_activation_a_squadron_may_only_react() -> None:
    """While A moves, B's one fire decision is a reaction; its orders come at its activation."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,20 h0 v20; B1 90,100 h3 v10")
    b = Script([])
    run(battle, {"A": Script([]), "B": b})
    fire_choices = [d for d in b.seen if isinstance(d, ReactionDecision | OrdersDecision)]
    assert [(type(d).__name__, d.squadron) for d in fire_choices] == [
        ("ReactionDecision", "BS1"),
        ("OrdersDecision", "BS1"),
    ]
    reaction = fire_choices[0]
    assert isinstance(reaction, ReactionDecision)
    assert reaction.mover == "AS1"


@pytest.mark.rule("FPF-FIRE-10")
def test_a_squadron_that_held_fire_does_not_shoot_later() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,20 h0 v20; B1 90,80 h3 v19")
    fight(battle, ["AS1 SPD 20 T0 T0 HOLD"], ["BS1 SPD 19 T0 T0 HOLD"])
    assert battle.ships["B1"].y - battle.ships["A1"].y == 21  # in A1's phaser range at the end
    assert volleys(battle) == []


@pytest.mark.rule("FPF-FIRE-10", "FPF-FIRE-07")
def test_a_lock_is_spent_when_its_activation_ends() -> None:
    """A1 locks on B1 at 60 cm in its own activation and never gets in range while it moves;
    B1 then moves to 21 cm of it in B's activation, and A1 may not fire then (FPF-FIRE-10)."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,20 h0 v20; B1 90,80 h3 v19")
    load(battle, [])
    fight(battle, ["AS1 SPD 20 T0 T0 FIRE A1:F@B1"], ["BS1 SPD 19 T0 T0 HOLD"])
    assert battle.ships["B1"].y - battle.ships["A1"].y == 21
    assert not events_of(battle, ev.VolleyFired)
    assert battle.ships["A1"].lock is None


@pytest.mark.rule("FPF-FIRE-07", "FPF-FIRE-10")
def test_a_lock_out_of_range_fires_when_its_own_move_brings_the_target_in() -> None:
    """A1 declares at 40 cm, out of its phasers' 24 cm, then closes 20 cm on B1 standing still:
    the lock fires on the way, 24 cm or less from B1, during A1's own activation."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,20 h0 v20; B1 90,60 h3 v0")
    load(battle, [1] * 40)
    fight(battle, ["AS1 SPD 20 T0 T0 FIRE A1:F@B1"], ["BS1 SPD 0 T0 T0 HOLD"])
    fired = [v for v in events_of(battle, ev.VolleyFired) if v.ship == "A1"]
    assert [v.weapon for v in fired][:1] == ["phaser"]
    assert 20 <= fired[0].range_cm <= 24


# --- FPF-FIRE-11: reaction fire ----------------------------------------------------------------


def reaction_setup(reactor: str = "ktroika") -> Battle:
    """A1 (faster) closes from 40 to 20 cm on B1, which stands still facing it."""
    battle = sandbox([["reliant"]], [[reactor]], turn_limit=1)
    place_all(battle, "A1 90,30 h0 v20; B1 90,70 h3 v0")
    load(battle, [])
    return battle


@pytest.mark.rule("FPF-FIRE-11")
def test_reaction_fire_hits_a_ship_moving_in_the_forward_arc() -> None:
    battle = reaction_setup()
    fight(battle, ["AS1 SPD 20 T0 T0 HOLD"], ["REACT BS1 B1:F@A1", B_STANDS])
    (declared,) = events_of(battle, ev.FireDeclared)
    assert (declared.ship, declared.target, declared.arc, declared.reaction) == (
        "B1",
        "A1",
        "F",
        True,
    )
    # the K'T'Roika's 22 cm phasers fire at 20 cm; its 14 cm photons never get the chance
    fired = events_of(battle, ev.VolleyFired)
    assert [(v.ship, v.weapon, v.range_cm) for v in fired] == [("B1", "phaser", 20.0)]
    assert battle.ships["B1"].lock is None  # spent when A1's move ended


@pytest.mark.rule("FPF-FIRE-11", "FPF-ARC-01")
def test_no_reaction_fire_at_a_ship_moving_outside_the_forward_arc() -> None:
    """A1 runs past B1's port side within 22 cm: in range, but never in the forward arc."""
    battle = reaction_setup()
    place_all(battle, "A1 110,50 h0 v20; B1 90,60 h3 v0")
    for y in (50, 60, 70):
        assert arc_to(90, 60, 3, 110, y) is Arc.P
    fight(battle, ["AS1 SPD 20 T0 T0 HOLD"], ["REACT BS1 B1:F@A1", B_STANDS])
    assert len(events_of(battle, ev.FireDeclared)) == 1
    assert volleys(battle) == []


@pytest.mark.rule("FPF-FIRE-11")
def test_reaction_fire_only_through_the_forward_arc() -> None:
    battle = reaction_setup("reliant")  # Reliant phasers also bear to port
    with pytest.raises(IllegalOrderError, match=r"forward arc only \(FPF-FIRE-11\)"):
        fight(battle, ["AS1 SPD 20 T0 T0 HOLD"], ["REACT BS1 B1:P@A1"])


@pytest.mark.rule("FPF-FIRE-11")
def test_reaction_fire_only_at_the_moving_squadron() -> None:
    battle = sandbox([["reliant"], ["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 60,30 h0 v20; A2 120,30 h0 v10; B1 90,70 h3 v0")
    with pytest.raises(IllegalOrderError, match=r"must target the moving squadron AS1"):
        fight(battle, [], ["REACT BS1 B1:F@A2"])


@pytest.mark.rule("FPF-FIRE-11", "FPF-FIRE-04")
def test_reaction_fire_uses_up_the_volley() -> None:
    battle = reaction_setup()
    with pytest.raises(IllegalOrderError, match=r"already used its volley.*\(FPF-FIRE-04\)"):
        fight(
            battle,
            ["AS1 SPD 20 T0 T0 HOLD"],
            ["REACT BS1 B1:F@A1", "BS1 SPD 0 T0 T0 FIRE B1:F@A1"],
        )


@pytest.mark.rule("FPF-FIRE-11")
def test_a_squadron_that_has_fired_is_not_offered_reaction_fire() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,20 h0 v10; B1 90,100 h3 v20")
    b = Script(["BS1 SPD 10 T0 T0 FIRE B1:F@A1"])
    run(battle, {"A": Script([]), "B": b})
    assert [type(d).__name__ for d in b.seen] == ["ActivationDecision", "OrdersDecision"]
    assert events_of(battle, ev.SquadronActivated)[1].squadron == "AS1"  # A moved after B fired


# --- FPF-FIRE-12, -13: declare fire or hold; the squadron fires as one --------------------------


@pytest.mark.rule("FPF-FIRE-12")
def test_orders_must_say_fire_or_hold() -> None:
    with pytest.raises(OrderSyntaxError, match=r"must end in FIRE <targets> or HOLD"):
        parse_order("AS1 SPD 20 T0 T0")
    assert parse_order("AS1 SPD 20 T0 T0 HOLD") == parse_order("AS1 SPD 20 T0 T0 HOLD")
    assert parse_order("REACT BS1 HOLD") == ReactionOrder("BS1", None)


@pytest.mark.rule("FPF-FIRE-12")
def test_hold_declares_nothing_and_fires_nothing() -> None:
    battle = close_duel()
    fight(battle, ["AS1 SPD 0 T0 T0 HOLD"], [B_STANDS])
    assert events_of(battle, ev.FireDeclared) == []
    assert volleys(battle) == []


@pytest.mark.rule("FPF-FIRE-13")
def test_a_squadron_fires_as_a_unit_or_not_at_all() -> None:
    battle = three_on_one()
    with pytest.raises(IllegalOrderError, match=r"A3 must declare a target too.*\(FPF-FIRE-13\)"):
        fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:F@B1 A2:F@B1"])


@pytest.mark.rule("FPF-FIRE-13", "FPF-FIRE-11")
def test_a_reacting_squadron_reacts_as_a_unit() -> None:
    battle = sandbox([["reliant"]], [["ktroika", "ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,30 h0 v20; B1 90,70 h3 v0")
    with pytest.raises(IllegalOrderError, match=r"B2 must declare a target too.*\(FPF-FIRE-13\)"):
        fight(battle, [], ["REACT BS1 B1:F@A1"])


# --- FPF-FIRE-14: head-on exchanges --------------------------------------------------------------


@pytest.mark.rule("FPF-FIRE-14")
def test_worked_example_venture_meets_ktroika() -> None:
    """Both fire at once (A1's own fire, B1's reaction): Venture phasers (24 cm), K'T'Roika
    phasers (22), Venture photons (16), K'T'Roika photons (14)."""
    battle = close_duel("venture", "ktroika")
    load(battle, [])
    fight(battle, ["AS1 SPD 5 T0 T0 FIRE A1:F@B1"], ["REACT BS1 B1:F@A1"])
    assert volleys(battle) == [
        ("A1", "phaser", "B1"),
        ("B1", "phaser", "A1"),
        ("A1", "photon", "B1"),
        ("B1", "photon", "A1"),
    ]


@pytest.mark.rule("FPF-FIRE-14")
def test_equal_ranges_on_both_sides_resolve_together() -> None:
    """Reliant and Charger phasers both reach 24 cm. Six Reliant beams wreck the Charger's
    phasers, yet the Charger's six beams, rolled at the same moment, all still fire."""
    battle = close_duel("reliant", "charger")
    # A1's six penetration rolls and six locations, then B1's six rolls; the rest fail
    load(battle, [10] * 6 + [8] * 6 + [1] * 6)
    fight(battle, ["AS1 SPD 5 T0 T0 FIRE A1:F@B1"], ["REACT BS1 B1:F@A1"])
    fired = events_of(battle, ev.VolleyFired)
    assert [(v.ship, v.weapon, v.shots) for v in fired] == [
        ("A1", "phaser", 6),
        ("B1", "phaser", 6),
        ("A1", "photon", 3),
        ("B1", "photon", 2),
    ]
    b1 = battle.ships["B1"]
    assert b1.mounts[WeaponKind.PHASER] == (0, 0)
    assert b1.superstructure == 18 - 6


# --- FPF-ARC -------------------------------------------------------------------------------------


@pytest.mark.rule("FPF-ARC-01")
@pytest.mark.parametrize(
    ("tx", "ty", "arc"),
    [
        (0, 10, Arc.F),
        (-10, 0, Arc.P),  # heading 0 points up the table: port is -x
        (10, 0, Arc.S),
        (0, -10, Arc.A),
        (10, 10, Arc.F),  # exactly on the front/starboard boundary: front
        (-10, 10, Arc.F),
        (10, -10, Arc.A),  # on the rear boundaries: rear
        (-10, -10, Arc.A),
        (-10, 9.9, Arc.P),
        (10, -9.9, Arc.S),
    ],
)
def test_four_90_degree_arcs(tx: float, ty: float, arc: Arc) -> None:
    assert arc_to(0, 0, 0, tx, ty) is arc


@pytest.mark.rule("FPF-ARC-01")
def test_the_captains_arc_index_is_arc_to() -> None:
    # arc_index is arc_to for tables indexed by arc: the same answer on every heading, and on
    # the boundaries (points on the diagonals, where front and rear win), which a grid hits
    points = [(x / 2, y / 2) for x in range(-21, 22) for y in range(-21, 22)]
    for heading in range(6):
        for tx, ty in points:
            got = ARC_ORDER[arc_index(3.0, -2.0, heading, 3.0 + tx, -2.0 + ty)]
            assert got is arc_to(3.0, -2.0, heading, 3.0 + tx, -2.0 + ty), (heading, tx, ty)


@pytest.mark.rule("FPF-ARC-01")
def test_arcs_turn_with_the_ship() -> None:
    """At heading 1 (60 degrees to port) the bow points at 150 degrees from +x."""
    bearing = relative_bearing(0, 0, 1, -8.660254, 5.0)
    assert min(bearing, 360 - bearing) == pytest.approx(0.0, abs=1e-4)
    assert relative_bearing(0, 0, 1, -5.0, -8.660254) == pytest.approx(90.0, abs=1e-4)
    assert arc_to(0, 0, 1, -8.660254, 5.0) is Arc.F
    assert arc_to(0, 0, 1, -5.0, -8.660254) is Arc.P
    assert arc_to(0, 0, 1, 8.660254, -5.0) is Arc.A
    assert arc_to(0, 0, 1, 5.0, 8.660254) is Arc.S


@pytest.mark.rule("FPF-ARC-02")
def test_a_ship_fires_through_its_declared_arc_only() -> None:
    """The Charger declares its port arc; B1 sits in its front arc, in range: nothing fires."""
    battle = close_duel("charger", "ktroika", gap=15)
    load(battle, [])
    fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:P@B1"], [B_STANDS])
    assert arc_to(90, 40, 0, 90, 55) is Arc.F
    assert volleys(battle) == []


@pytest.mark.rule("FPF-ARC-03")
def test_sheet_arc_codes_fwd_and_aft_read_as_front_and_rear() -> None:
    weapon = Weapon(arcs=("FWD", "P", "AFT"), strength=3, range_cm=20, mounts=(1,))
    assert weapon.arcs == (Arc.F, Arc.P, Arc.A)
    assert [a for a in Arc if weapon.bears(a)] == [Arc.F, Arc.P, Arc.A]


@pytest.mark.rule("FPF-ARC-03", "FPF-ARC-04")
def test_a_weapon_listing_every_arc_fires_into_any_of_them() -> None:
    """The Defender's photons are F/P/S/A, its phasers F/P: through the starboard arc only the
    photon launcher fires."""
    battle = close_duel("defender")
    place(battle, "B1", 102, 40, 3, speed=0)
    assert arc_to(90, 40, 0, 102, 40) is Arc.S
    load(battle, [])
    fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:S@B1"], [B_STANDS])
    assert volleys(battle) == [("A1", "photon", "B1")]


@pytest.mark.rule("FPF-ARC-04")
def test_worked_example_charger_weapons_by_arc() -> None:
    """Charger: port uses phasers and photons, rear phasers only, starboard nothing."""
    ship = close_duel("charger").ships["A1"]
    assert ship.bears(Arc.P) == [WeaponKind.PHASER, WeaponKind.PHOTON]
    assert ship.bears(Arc.A) == [WeaponKind.PHASER]
    assert ship.bears(Arc.S) == []
    assert ship.bears(Arc.F) == [WeaponKind.PHASER, WeaponKind.PHOTON]


@pytest.mark.rule("FPF-ARC-04")
@pytest.mark.parametrize(
    ("arc", "bx", "by", "weapons"),
    [("P", 78, 40, ["phaser", "photon"]), ("A", 90, 28, ["phaser"])],
)
def test_charger_fires_every_weapon_covering_the_arc(
    arc: str, bx: float, by: float, weapons: list[str]
) -> None:
    battle = close_duel("charger")
    place(battle, "B1", bx, by, 3, speed=0)
    load(battle, [])
    fight(battle, [f"AS1 SPD 0 T0 T0 FIRE A1:{arc}@B1"], [B_STANDS])
    assert [w for _, w, _ in volleys(battle)] == weapons


@pytest.mark.rule("FPF-ARC-04")
def test_no_weapon_in_the_arc_no_fire() -> None:
    battle = close_duel("charger")
    with pytest.raises(
        IllegalOrderError, match=r"no working weapon in arc S; its armed arcs: F/P/A \(FPF-ARC-04\)"
    ):
        fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:S@B1"])
