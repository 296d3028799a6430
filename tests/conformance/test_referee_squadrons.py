"""Non-combatant escorts (FPF-MASK-04): a fleet field, the rule in play, and the referee's check.

A squadron holds three fighting ships (FPF-MASK-02); a ship marked `escort` fires nothing all
battle and may fly as a fourth (docs/rules.md FPF-MASK-04). The referee reads the header's fleets
and flags an escort that fires, a second escort in a squadron and a fourth fighting ship.
"""

from __future__ import annotations

import pytest
import referee_logs as logs
from referee import read_log
from referee import referee
from referee_logs import Log
from referee_logs import at
from referee_logs import base_log
from referee_logs import clauses
from referee_logs import inserted

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.fleet.document import Fleet
from kolrami.fleet.document import FleetShip
from kolrami.fleet.legality import validate
from kolrami.rules import new_battle
from kolrami.rules.fpf.masking import escorts
from kolrami.rules.sandbox import fleet_of
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate


def with_escort(fleet: Fleet, cls: str = "charger", squadron: int = 1) -> Fleet:
    """`fleet` and one more ship of `cls` in `squadron`, marked a non-combatant escort."""
    ships = (*fleet.ships, FleetShip(id=cls, squadron=squadron, escort=True))
    return fleet.model_copy(update={"ships": ships, "points_limit": None})


@pytest.mark.rule("FPF-MASK-04")
def test_an_escort_may_fly_as_a_fourth_ship() -> None:
    fleet = with_escort(load_fleet("presets:federation-cruisers"))
    codes = [v.code for v in validate(fleet, limit=None).errors]
    assert "squadron-size" not in codes
    assert "squadron-escorts" not in codes
    two = with_escort(fleet)
    problems = [v for v in validate(two, limit=None).errors if v.code == "squadron-escorts"]
    assert len(problems) == 1
    assert problems[0].rule == "FPF-MASK-04"
    assert problems[0].path == "ships[4].escort"


@pytest.mark.rule("FPF-MASK-04", "FPF-MASK-02")
def test_an_escort_does_not_make_room_for_a_fourth_fighter() -> None:
    four = Fleet(ships=tuple(FleetShip(id="sting", squadron=1, escort=i == 4) for i in range(5)))
    with pytest.raises(InvalidInputError, match=r"squadron 1 has 4 ships.*FPF-MASK-04"):
        new_battle(builtin_scenario("standard"), (four, fleet_of([["ktroika"]])), 1)
    three = Fleet(ships=tuple(FleetShip(id="sting", squadron=1, escort=i == 3) for i in range(4)))
    battle = new_battle(builtin_scenario("standard"), (three, fleet_of([["ktroika"]])), 1)
    assert battle.squadrons["AS1"].ships == ["A1", "A2", "A3", "A4"]


@pytest.mark.rule("FPF-MASK-04")
def test_the_field_is_written_only_when_set() -> None:
    plain = FleetShip(id="reliant")
    assert "escort" not in plain.model_dump(mode="json")
    marked = FleetShip(id="reliant", escort=True)
    assert marked.model_dump(mode="json")["escort"] is True
    assert FleetShip.model_validate_json(marked.model_dump_json()).escort


@pytest.mark.rule("FPF-MASK-04")
def test_an_escort_fires_nothing_and_the_referee_agrees() -> None:
    fleets = (
        with_escort(load_fleet("presets:federation-cruisers")),
        load_fleet("presets:klingon-wolfpack"),
    )
    battle = simulate(builtin_scenario("standard"), fleets, ("aggressive", "aggressive"), 3)
    escort = battle.ships["A4"]
    assert escort.squadron == "AS1"
    assert battle.squadrons["AS1"].ships[-1] == "A4"
    assert any(escort.mounts.values()), "its weapons are on the sheet, unused"
    assert escorts(battle) == {"A4"}
    events = read_log(battle.log.jsonl())
    assert not [e for e in events if e["e"] == "volley_fired" and e["ship"] == "A4"]
    assert [e for e in events if e["e"] == "volley_fired"], "the others fought"
    assert referee(events) == []


def escorted_log() -> Log:
    """The referee's clean turn with A2 marked an escort in the header."""
    log = base_log()
    fleet = log[0]["header"]["fleets"][0]
    fleet["ships"][1] = {**fleet["ships"][1], "escort": True}
    return log


@pytest.mark.rule("FPF-MASK-04")
def test_the_referee_flags_an_escort_that_fires() -> None:
    assert "FPF-MASK-04" in clauses(escorted_log())
    assert "FPF-MASK-04" not in clauses(base_log())


@pytest.mark.rule("FPF-MASK-04", "FPF-MASK-02")
def test_the_referee_counts_fighters_and_escorts_apart() -> None:
    log = base_log()
    fleet = log[0]["header"]["fleets"][0]
    i = at(log, e="ship_placed", ship="A2") + 1
    extra = [logs.placed(f"A{n}", "charger", 80.0 + n, 14.0, 0) for n in (3, 4, 5)]
    fleet["ships"] = [*fleet["ships"], *(dict(fleet["ships"][0]) for _ in extra)]
    assert "FPF-MASK-02" in clauses(inserted(log, i, *extra[:2]))
    fleet["ships"][3] = {**fleet["ships"][3], "escort": True}
    fleet["ships"][4] = {**fleet["ships"][4], "escort": True}
    both = clauses(inserted(log, i, *extra[:3]))
    assert "FPF-MASK-02" not in both
    assert "FPF-MASK-04" in both
