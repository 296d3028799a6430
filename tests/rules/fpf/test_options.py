"""FPF's optional rules as engine modules, clause by clause (FPF-OPT-01, FPF-OPT-02, FPF-OPT-04,
FPF-OPT-05, FPF-OPT-06, FPF-OPT-09), the ideas it names without rules (FPF-OPT-03, FPF-OPT-07,
FPF-OPT-08), and the Bird of Prey engine note (docs/rules.md, FPF-DATA)."""

from __future__ import annotations

import math
from importlib import resources

import pytest
from fpf_kit import events_of
from fpf_kit import fight
from fpf_kit import load
from fpf_kit import moved
from fpf_kit import volleys

from kolrami.catalog import Arc
from kolrami.engine.battle import Battle
from kolrami.engine.orders import IllegalOrderError
from kolrami.errors import InvalidInputError
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import apply_damage
from kolrami.rules.registry import describe
from kolrami.rules.registry import select
from kolrami.rules.registry import unwritten_options
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from kolrami.scenarios.models import Masking
from kolrami.scenarios.models import Nebula
from kolrami.scenarios.models import parse_scenario
from scene_kit import place_all

R3 = math.sqrt(3) / 2
B_STANDS = "BS1 SPD 0 T0 T0 HOLD"


# --- FPF-OPT-01: derelicts -----------------------------------------------------------------------


def wreck_b2(*rules: str) -> Battle:
    """A1 heads for the spot of B2 (a Bird of Prey of squadron BS2), which is then reduced to 0
    superstructure; B1 stays in play far away."""
    battle = sandbox([["reliant"]], [["ktroika"], ["bird-of-prey"]], turn_limit=1, rules=rules)
    place_all(battle, "A1 90,40 h0 v20; B1 170,110 h3 v0; B2 90,60 h3 v0")
    apply_damage(battle, battle.ships["B2"], 2, 6, Arc.F, battle.ships["A1"], "photon")
    return battle


@pytest.mark.rule("FPF-OPT-01")
def test_a_derelict_stays_on_the_table_out_of_play() -> None:
    battle = wreck_b2("derelicts")
    b2 = battle.ships["B2"]
    assert (b2.derelict, b2.destroyed, b2.alive, b2.on_table) == (True, False, False, True)
    (gone,) = events_of(battle, ev.ShipDestroyed)
    assert (gone.ship, gone.derelict) == ("B2", True)
    assert battle.destroyed_value() == {"A": 0, "B": 15}
    fight(battle, ["AS1 SPD 20 T0 T0 HOLD"])
    (stop,) = events_of(battle, ev.StoppedShort)
    assert (stop.ship, stop.of) == ("A1", "B2")
    assert battle.ships["A1"].y == pytest.approx(55.0, abs=1e-3)


@pytest.mark.rule("FPF-OPT-01", "FPF-FIRE-01")
def test_a_derelict_cannot_be_targeted() -> None:
    battle = wreck_b2("derelicts")
    with pytest.raises(IllegalOrderError, match=r"cannot target 'B2'.*\(FPF-FIRE-01\)"):
        fight(battle, ["AS1 SPD 10 T0 T0 FIRE A1:F@B2"])


@pytest.mark.rule("FPF-OPT-01", "FPF-MASK-03")
def test_a_derelict_masks_like_a_ship() -> None:
    battle = sandbox(
        [["reliant"]], [["ktroika"], ["bird-of-prey"]], turn_limit=1, rules=("derelicts",)
    )
    place_all(battle, "A1 90,40 h0 v0; B1 90,60 h3 v0; B2 91,50 h3 v0")
    apply_damage(battle, battle.ships["B2"], 2, 6, Arc.F, None, "photon")
    load(battle, [6, 5])  # the speed-0 roll-off; every shot after it fails
    fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:F@B1"])
    assert volleys(battle) == []


@pytest.mark.rule("FPF-OPT-01", "FPF-DMG-11")
def test_without_the_option_the_wreck_is_gone() -> None:
    battle = wreck_b2()
    b2 = battle.ships["B2"]
    assert (b2.derelict, b2.destroyed, b2.on_table) == (False, True, False)
    fight(battle, ["AS1 SPD 20 T0 T0 HOLD"])
    assert events_of(battle, ev.StoppedShort) == []
    assert battle.ships["A1"].y == 60


# --- FPF-OPT-02: individual hold fire ----------------------------------------------------------


def three_reliants(*rules: str) -> Battle:
    battle = sandbox(
        [["reliant"] * 3], [["ktroika"]], turn_limit=1, masking=Masking.NONE, rules=rules
    )
    place_all(battle, "A1 90,40 h0 v5; B1 90,52 h3 v0")
    load(battle, [])
    return battle


@pytest.mark.rule("FPF-OPT-02")
def test_individual_hold_fire_lets_part_of_a_squadron_shoot() -> None:
    battle = three_reliants("individual-hold-fire")
    fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:F@B1"], [B_STANDS])
    assert [e.ship for e in events_of(battle, ev.FireDeclared)] == ["A1"]
    assert volleys(battle) == [("A1", "phaser", "B1"), ("A1", "photon", "B1")]


@pytest.mark.rule("FPF-OPT-02", "FPF-FIRE-13")
def test_without_the_option_the_squadron_fires_whole() -> None:
    battle = three_reliants()
    with pytest.raises(IllegalOrderError, match=r"A2, A3 must declare.*\(FPF-FIRE-13\)"):
        fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:F@B1"])


# --- FPF-OPT-04..06: micro warp jump -------------------------------------------------------------


def jumper(cls: str = "reliant", unit: float = 1.0, **state: object) -> Battle:
    """A1 at (90, 20) heading up (last speed 30); the enemy in a far corner. `unit` is the
    jump's unit in cm (1.0: the 40-60 are read as cm)."""
    battle = sandbox(
        [[cls]], [["ktroika"]], turn_limit=1, rules=("micro-warp-jump",), micro_warp_unit_cm=unit
    )
    place(battle, "A1", 90, 20, 0, speed=30, **state)
    place(battle, "B1", 170, 110, 3, speed=0)
    return battle


@pytest.mark.rule("FPF-OPT-04")
def test_a_jump_turns_once_then_goes_straight() -> None:
    battle = jumper()
    fight(battle, ["AS1 JMP 50 T+1 T0 HOLD"])
    a1 = battle.ships["A1"]
    assert (a1.x, a1.y, a1.heading) == pytest.approx((90 - 50 * R3, 45.0, 1))
    (move,) = moved(battle, "A1")
    assert move.distance == 50
    assert a1.speed == 40  # recorded flat out for next turn's initiative


@pytest.mark.rule("FPF-OPT-04")
def test_a_jump_in_inches_goes_beyond_40_cm() -> None:
    """Read as printed, 40-60 inches: 102-152 cm. A 105 cm jump up the table."""
    battle = jumper(unit=2.54)
    place(battle, "A1", 90, 10, 0, speed=30)
    fight(battle, ["AS1 JMP 105 T0 T0 HOLD"])
    assert battle.ships["A1"].y == 115
    assert moved(battle, "A1")[0].distance == 105


@pytest.mark.rule("FPF-OPT-04")
@pytest.mark.parametrize(
    ("unit", "order", "message"),
    [
        (2.54, "AS1 JMP 60 T0 T0 HOLD", r"covers 102-152 cm \(40-60 x 2.54 cm\), not 60"),
        (1.0, "AS1 JMP 39 T0 T0 HOLD", r"covers 40-60 cm .*not 39"),
        (1.0, "AS1 JMP 61 T0 T0 HOLD", r"covers 40-60 cm .*not 61"),
        (1.0, "AS1 JMP 50 T0 T+1 HOLD", r"only the first turn"),
    ],
)
def test_illegal_jumps(unit: float, order: str, message: str) -> None:
    battle = jumper(unit=unit)
    with pytest.raises(IllegalOrderError, match=message + r".*\(FPF-OPT-04\)"):
        fight(battle, [order])


@pytest.mark.rule("FPF-OPT-04")
def test_no_jump_without_the_module() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 90, 20, 0, speed=30)
    with pytest.raises(IllegalOrderError, match=r"switch on the module 'micro-warp-jump'"):
        fight(battle, ["AS1 JMP 50 T0 T0 HOLD"])


@pytest.mark.rule("FPF-OPT-05")
def test_a_jumping_squadron_fires_photons_only() -> None:
    """Jumping 50 cm at B1, A1 passes within phaser range (24) and photon range (16): only
    the photons fire."""
    battle = jumper()
    place(battle, "B1", 90, 80, 3, speed=0)
    load(battle, [])
    fight(battle, ["AS1 JMP 50 T0 T0 FIRE A1:F@B1"], [B_STANDS])
    fired = events_of(battle, ev.VolleyFired)
    assert [(v.weapon, v.range_cm) for v in fired] == [("photon", 15.0)]


@pytest.mark.rule("FPF-OPT-06")
def test_worked_example_drakonath_at_half_superstructure_strains() -> None:
    """Superstructure 34 down to 17 (half): the jump costs d6, a 4, leaving 13; it still jumps."""
    battle = jumper("drakonath", superstructure=17)
    load(battle, [4])
    fight(battle, ["AS1 JMP 50 T0 T0 HOLD"])
    a1 = battle.ships["A1"]
    assert (a1.superstructure, a1.y) == (13, 70)
    strain = [h for h in events_of(battle, ev.HitScored) if h.weapon == "jump strain"]
    assert [(h.target, h.damage, h.superstructure) for h in strain] == [("A1", 4, 13)]


@pytest.mark.rule("FPF-OPT-06")
def test_above_half_superstructure_a_jump_costs_nothing() -> None:
    battle = jumper("drakonath", superstructure=18)
    dice = load(battle, [4])
    fight(battle, ["AS1 JMP 50 T0 T0 HOLD"])
    assert battle.ships["A1"].superstructure == 18
    assert dice.rolls == 0


# --- FPF-OPT-09: nebulae -------------------------------------------------------------------------


def nebula_shot(inside: bool) -> Battle:
    """A Reliant fires six beams (rolls 9, 8, 2, 1, 1, 1) at a K'T'Roika whose shields are
    down to 0, with or without a nebula round the target."""
    terrain = (Nebula(kind="nebula", x=90, y=52, radius_cm=6),) if inside else ()
    battle = sandbox(
        [["reliant"]], [["ktroika"]], turn_limit=1, rules=("nebula-fire",), terrain=terrain
    )
    place(battle, "A1", 90, 40, 0, speed=5)
    place(battle, "B1", 90, 52, 3, speed=0, shields=0)
    load(battle, [9, 8, 2, 1, 1, 1] + [5] * 6)
    fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:F@B1"], ["REPAIR NONE", B_STANDS])
    return battle


@pytest.mark.rule("FPF-OPT-09")
def test_in_a_nebula_only_9_and_10_get_through() -> None:
    battle = nebula_shot(inside=True)
    hits = [h for h in events_of(battle, ev.HitScored) if h.weapon == "phaser"]
    assert len(hits) == 1
    assert battle.ships["B1"].engine_power == 15


@pytest.mark.rule("FPF-OPT-09", "FPF-DMG-01")
def test_outside_a_nebula_shields_count_as_usual() -> None:
    """Shields 0 minus strength 4: everything but a natural 1 gets through."""
    battle = nebula_shot(inside=False)
    hits = [h for h in events_of(battle, ev.HitScored) if h.weapon == "phaser"]
    assert len(hits) == 3
    assert battle.ships["B1"].engine_power == 13


# --- the Bird of Prey's engine note (FPF-DATA) ---------------------------------------------------


@pytest.mark.rule("FPF-DMG-07")
@pytest.mark.parametrize(("rules", "power"), [((), 17), (("bop-engine-double-damage",), 14)])
def test_bird_of_prey_engine_hits_count_double_with_the_option(
    rules: tuple[str, ...], power: int
) -> None:
    battle = sandbox([["bird-of-prey"]], [["ktroika"]], rules=rules)
    bop = battle.ships["A1"]
    apply_damage(battle, bop, 6, 3, Arc.F, None, "photon")
    assert (bop.engine_power, bop.superstructure) == (power, 3)
    other = battle.ships["B1"]
    apply_damage(battle, other, 6, 3, Arc.F, None, "photon")
    assert other.engine_power == 13  # a K'T'Roika's sheet has no such note


# --- FPF-OPT-03, FPF-OPT-07, FPF-OPT-08: ideas named without rules ------------------------------


@pytest.mark.rule("FPF-OPT-03")
@pytest.mark.parametrize(
    "asked", ["fighters", "Boarding pods", "special_weapons", "armor", "tech-levels", "slingshot"]
)
def test_an_add_on_fpf_names_without_rules_is_refused_with_its_clause(asked: str) -> None:
    with pytest.raises(InvalidInputError, match=r"FPF-OPT-03 names .* gives no rules"):
        sandbox([["reliant"]], [["ktroika"]], rules=(asked,))


@pytest.mark.rule("FPF-OPT-07")
@pytest.mark.rule("FPF-OPT-08")
def test_close_in_defence_and_a_to_hit_table_are_named_not_played() -> None:
    for asked, clause in (("cids", "FPF-OPT-07"), ("to-hit-table", "FPF-OPT-08")):
        with pytest.raises(InvalidInputError, match=f"{clause} names"):
            sandbox([["reliant"]], [["ktroika"]], rules=(asked,))
    listed = {name: clause for name, clause, _ in unwritten_options()}
    assert listed["cids"] == "FPF-OPT-07"
    assert listed["to-hit-table"] == "FPF-OPT-08"
    assert not set(listed) & {name for name, *_ in describe()}, "an idea is also a module"


@pytest.mark.rule("FPF-OPT-03")
def test_a_scenario_that_asks_for_fighters_is_refused_before_play() -> None:
    standard = resources.files("kolrami.scenarios").joinpath("data", "standard.toml")
    text = standard.read_text(encoding="utf-8")
    assert "rules = []" in text
    scenario = parse_scenario(text.replace("rules = []", 'rules = ["fighters"]'), "fighters.toml")
    with pytest.raises(InvalidInputError, match="FPF-OPT-03"):
        select(scenario)
