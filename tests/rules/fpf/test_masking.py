"""FPF masking and squadron size, clause by clause (FPF-MASK-01..03, -05, -06)."""

from __future__ import annotations

import pytest
from fpf_kit import events_of
from fpf_kit import fight
from fpf_kit import load
from fpf_kit import volleys

from kolrami.engine.battle import Battle
from kolrami.errors import InvalidInputError
from kolrami.rules import events as ev
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from kolrami.scenarios.models import Masking
from scene_kit import place_all


def masked_line(
    a_speed: int, b_speed: int, blocker_speed: int, masking: Masking = Masking.STATIONARY
) -> Battle:
    """A1 (Reliant) at (90, 40) facing B1 (K'T'Roika) 20 cm ahead; B2 (a Sting, its own
    squadron) sits on the line of fire between them. Speeds are last turn's."""
    battle = sandbox([["reliant"]], [["ktroika"], ["sting"]], turn_limit=1, masking=masking)
    place(battle, "A1", 90, 40, 0, speed=a_speed)
    place(battle, "B1", 90, 60, 3, speed=b_speed)
    place(battle, "B2", 91, 50, 3, speed=blocker_speed)  # 1 cm off the line: its base crosses it
    # a roll-off when A shares a speed with B (A rolls 6, B 5), then every shot fails
    load(battle, [6, 5] if a_speed in (b_speed, blocker_speed) else [])
    return battle


STAND = "SPD 0 T0 T0"


def fought(spots: str, orders: str) -> Battle:
    """A1 (Reliant) against B1 (K'T'Roika) and B2 (a Sting, its own squadron) placed at `spots`,
    one turn fought with every shot failing, squadron AS1 given `orders`."""
    battle = sandbox([["reliant"]], [["ktroika"], ["sting"]], turn_limit=1)
    place_all(battle, spots)
    load(battle, [])
    fight(battle, [f"AS1 {orders}"])
    return battle


@pytest.mark.rule("FPF-MASK-01")
def test_no_masking_between_moving_ships() -> None:
    """Firer and target both under way: the Sting's base on the line masks nothing."""
    battle = fought(
        "A1 90,30 h0 v20; B1 90,65 h3 v10; B2 91,58 h3 v10", "SPD 20 T0 T0 FIRE A1:F@B1"
    )
    fired = events_of(battle, ev.VolleyFired)
    assert [(v.weapon, v.range_cm) for v in fired] == [("phaser", 20.0), ("photon", 15.0)]


@pytest.mark.rule("FPF-MASK-03")
def test_stationary_firer_and_target_are_masked_by_a_base_on_the_line() -> None:
    battle = masked_line(0, 0, 0)
    fight(battle, [f"AS1 {STAND} FIRE A1:F@B1"])
    assert len(events_of(battle, ev.FireDeclared)) == 1
    assert volleys(battle) == []


@pytest.mark.rule("FPF-MASK-03")
def test_a_base_clear_of_the_line_masks_nothing() -> None:
    battle = masked_line(0, 0, 0)
    place(battle, "B2", 93, 50, 3, speed=0)  # 3 cm off: the 2.5 cm base misses the line
    fight(battle, [f"AS1 {STAND} FIRE A1:F@B1"])
    assert [w for _, w, _ in volleys(battle)] == ["phaser"]  # 20 cm: beyond photon range


@pytest.mark.rule("FPF-MASK-03")
def test_a_friendly_base_masks_too() -> None:
    battle = sandbox([["reliant"], ["sting"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,40 h0 v0; A2 89,50 h0 v0; B1 90,60 h3 v0")
    load(battle, [6, 5])  # the roll-off at speed 0, then every shot fails
    fight(battle, [f"AS1 {STAND} FIRE A1:F@B1"])
    assert volleys(battle) == []


@pytest.mark.rule("FPF-MASK-03")
def test_a_moving_firer_is_masked_from_a_stationary_target() -> None:
    """A1 moves 5 cm toward B1, which stays put: B1 is stationary, so the Sting masks it."""
    battle = masked_line(10, 0, 0)
    place(battle, "A1", 90, 35, 0, speed=10)
    fight(battle, ["AS1 SPD 5 T0 T0 FIRE A1:F@B1"])
    assert battle.ships["A1"].speed == 5
    assert volleys(battle) == []


@pytest.mark.rule("FPF-MASK-03")
def test_a_firer_standing_still_this_turn_is_masked() -> None:
    """A1 moved 10 cm last turn but stands still this turn and fires past the Sting at B1,
    which moves 5 cm closer afterwards: A1 is stationary when it shoots, so it is masked."""
    battle = masked_line(10, 5, 0)
    fight(battle, [f"AS1 {STAND} FIRE A1:F@B1"], ["BS1 SPD 5 T0 T0 HOLD"])
    assert battle.ships["A1"].speed == 0
    assert volleys(battle) == []


@pytest.mark.rule("FPF-MASK-03", "FPF-MASK-01")
def test_a_firer_under_way_this_turn_is_not_masked() -> None:
    """A1 stood still last turn, now moves 10 cm; B1 already moved 5 cm this turn. Neither is
    stationary, so the Sting does not mask: the phasers fire at 20 cm, photons at 15 cm, all
    during A1's move."""
    battle = sandbox([["reliant"]], [["ktroika"], ["sting"]], turn_limit=1)
    place_all(battle, "A1 90,30 h0 v0; B1 90,60 h3 v5; B2 90,47 h0 v0")
    load(battle, [6, 5])  # A and BS2 roll off at speed 0; after that every shot fails
    fight(battle, ["AS1 SPD 10 T0 T0 FIRE A1:F@B1"], [f"BS2 {STAND} HOLD"])
    during_move: list[tuple[str, float]] = []
    for e in battle.events():
        if isinstance(e, ev.ShipMoved) and e.ship == "A1":
            break
        if isinstance(e, ev.VolleyFired):
            during_move.append((e.weapon, e.range_cm))
    assert during_move == [("phaser", 20.0), ("photon", 15.0)]


@pytest.mark.rule("FPF-MASK-05")
def test_a_squadron_flies_over_ships_and_shoots_one_it_passed() -> None:
    """A1 flies 30 cm straight over B2's base without stopping and shoots B2 on the way."""
    battle = fought(
        "A1 90,30 h0 v30; B1 170,110 h3 v0; B2 90,45 h3 v5", "SPD 30 T0 T0 FIRE A1:F@B2"
    )
    assert events_of(battle, ev.StoppedShort) == []
    assert (battle.ships["A1"].y, battle.ships["A1"].speed) == (60, 30)
    fired = events_of(battle, ev.VolleyFired)
    assert [(v.weapon, v.range_cm) for v in fired] == [("phaser", 15.0), ("photon", 15.0)]


@pytest.mark.rule("FPF-MASK-06")
def test_method_2_never_masks() -> None:
    battle = masked_line(0, 0, 0, Masking.NONE)
    assert "masking-none" in battle.rules.names
    fight(battle, [f"AS1 {STAND} FIRE A1:F@B1"])
    assert [w for _, w, _ in volleys(battle)] == ["phaser"]


@pytest.mark.rule("FPF-MASK-02")
def test_a_squadron_holds_at_most_three_ships() -> None:
    with pytest.raises(InvalidInputError, match=r"squadron 1 has 4 ships.*\(FPF-MASK-02\)"):
        sandbox([["sting"] * 4], [["ktroika"]])
    battle = sandbox([["sting"] * 3], [["ktroika"]])
    assert battle.squadrons["AS1"].ships == ["A1", "A2", "A3"]
