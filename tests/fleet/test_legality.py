"""Squad building: one test per error code, and the sheet's arithmetic (FBS, OP-11..17)."""

from __future__ import annotations

from typing import Any

import pytest

from kolrami.fleet import load_fleet
from kolrami.fleet import preset_names
from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import FleetReport
from kolrami.fleet.legality import SheetLine
from kolrami.fleet.legality import ShipTotal
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import read_fleet


def fleet(ships: list[dict[str, Any]], **extra: Any) -> Fleet:
    return read_fleet({"name": "Test", "ships": ships, **extra}, "test")


def codes(report: FleetReport) -> list[tuple[str, str, str]]:
    return [(e.code, e.rule, e.path) for e in report.errors]


STAR_HAWK_47 = {
    "id": "star-hawk",
    "captain": "korvekh",
    "admiral": "torga",
    "upgrades": {
        "weapon": ["heavy-warheads"],
        "tech": ["impulse-booster"],
        "squadron": ["flank-speed"],
    },
}


@pytest.mark.rule("FBS-03", "FBS-06", "FBS-11")
def test_worked_example_a_47_sp_ship() -> None:
    # ship 30 + captain 4 + admiral 4 + upgrades 4, 3 and 2 = 47 (the seed's total, our cards)
    report = validate(fleet([STAR_HAWK_47]))
    assert report.valid
    (ship,) = report.ships
    assert [(r.type, r.sp) for r in ship.lines] == [
        ("Ship", 30),
        ("Captain", 4),
        ("Admiral", 4),
        ("W", 4),
        ("T", 3),
        ("S", 2),
    ]  # upgrades in the order the fleet lists them
    assert ship.total_sp == 47


@pytest.mark.rule("FBS-07", "FBS-08")
def test_worked_example_total_build() -> None:
    def ship(i: int, sp: int) -> ShipTotal:
        return ShipTotal(i, 1, "x", "x", (SheetLine("x", "Ship", "FED", sp, f"ships[{i}].id"),))

    report = FleetReport(Fleet(name="t", ships=fleet([{"id": "reliant"}]).ships), EventSettings())
    report.ships = [ship(0, 47), ship(1, 30), ship(2, 13)]
    report.resource = SheetLine("Reinforcements Sideboard", "Resource", "IND", 10, "resource")
    assert report.total_build == 47 + 30 + 13 + 10 == 100


@pytest.mark.rule("OP-13", "OP-16", "FBS-08", "FBS-12")
def test_over_budget_counts_the_resource() -> None:
    ships = [{"id": "enterprise"}, {"id": "charger"}, {"id": "defender"}]  # 180 + 70 + 45 = 295
    assert validate(fleet(ships)).valid
    report = validate(fleet(ships, resource="reinforcements-sideboard"))
    assert report.total_build == 305
    assert codes(report) == [("over-budget", "OP-13", "ships")]
    assert "by 5" in report.errors[0].message
    assert validate(fleet(ships, resource="reinforcements-sideboard"), limit=305).valid


@pytest.mark.rule("OP-15")
def test_too_many_resources() -> None:
    report = validate(fleet([{"id": "defender"}], resource=["sensor-picket", "munitions-barge"]))
    assert codes(report) == [("too-many-resources", "OP-15", "resource")]
    assert validate(fleet([{"id": "defender"}])).valid  # zero resources is fine


@pytest.mark.rule("FBS-12")
def test_unknown_cards_are_reported_and_kept() -> None:
    f = fleet(
        [{"id": "reliance", "captain": "vennn", "upgrades": {"crew": ["ghost-crew"]}}],
        resource="spare-parts",
    )
    report = validate(f)
    assert [c for c, _, _ in codes(report)] == ["unknown-card"] * 4
    assert [p for _, _, p in codes(report)] == [
        "ships[0].id",
        "ships[0].captain",
        "ships[0].upgrades.crew[0]",
        "resource",
    ]
    assert "did you mean 'Reliant'?" in report.errors[0].message
    assert "did you mean 'venn'?" in report.errors[1].message
    assert f.ships[0].upgrades == {"crew": ["ghost-crew"]}  # nothing dropped


@pytest.mark.rule("OP-13")
def test_duplicate_unique() -> None:
    report = validate(
        fleet([{"id": "reliant", "captain": "venn"}, {"id": "reliant", "captain": "venn"}])
    )
    assert codes(report) == [("duplicate-unique", "OP-13", "ships[1].captain")]
    # non-unique upgrades may repeat
    assert validate(fleet([{"id": "sting", "upgrades": {"weapon": ["heavy-warheads"] * 2}}])).valid


@pytest.mark.rule("FBS-11")
def test_captain_and_admiral_limits() -> None:
    report = validate(fleet([{"id": "reliant", "captain": ["venn", "orrin"]}]))
    assert codes(report) == [("captain-limit", "FBS-11", "ships[0].captain")]
    two = validate(
        fleet([{"id": "reliant", "admiral": "quist"}, {"id": "charger", "admiral": "okafor"}])
    )
    assert codes(two) == [("admiral-limit", "FBS-11", "ships[1].admiral")]


@pytest.mark.rule("FBS-03")
def test_slot_limit() -> None:
    report = validate(
        fleet([{"id": "defender", "upgrades": {"weapon": ["phaser-focus", "long-tubes"]}}])
    )
    assert codes(report) == [("slot-limit", "FBS-03", "ships[0].upgrades.weapon[1]")]
    borg = validate(fleet([{"id": "enterprise", "upgrades": {"borg": ["adaptive-shielding"]}}]))
    assert codes(borg) == [("slot-limit", "FBS-03", "ships[0].upgrades.borg[0]")]


@pytest.mark.rule("FPF-MASK-02")
def test_squadron_size() -> None:
    report = validate(fleet([{"id": "defender", "squadron": 2}] * 4))
    assert codes(report) == [("squadron-size", "FPF-MASK-02", "ships[3].squadron")]


@pytest.mark.rule("FBS-05")
def test_faction_restriction() -> None:
    report = validate(fleet([{"id": "reliant", "captain": "korvekh"}]))
    assert codes(report) == [("faction-restriction", "FBS-05", "ships[0].captain")]
    assert "only serve on KLI ships" in report.errors[0].message


@pytest.mark.rule("FBS-04")
def test_wrong_card_type() -> None:
    report = validate(
        fleet(
            [
                {
                    "id": "reliant",
                    "captain": "quist",
                    "upgrades": {"crew": ["phaser-focus"], "laser": ["long-tubes"]},
                }
            ],
            resource="venn",
        )
    )
    assert [(c, p) for c, _, p in codes(report)] == [
        ("wrong-card-type", "ships[0].captain"),
        ("wrong-card-type", "ships[0].upgrades.crew[0]"),
        ("wrong-card-type", "ships[0].upgrades.laser[0]"),
        ("wrong-card-type", "resource"),
    ]


def test_every_problem_is_reported_at_once() -> None:
    report = validate(
        fleet(
            [
                {
                    "id": "enterprise",
                    "captain": ["venn", "orrin"],
                    "upgrades": {"weapon": ["phaser-focus"] * 3},
                },
                {"id": "enterprise", "captain": "venn"},
            ],
            resource=["sensor-picket", "sensor-picket"],
        )
    )
    assert {e.code for e in report.errors} == {
        "captain-limit",
        "slot-limit",
        "duplicate-unique",
        "too-many-resources",
        "over-budget",
    }
    for e in report.errors:
        assert e.message
        assert e.rule
        assert e.path


@pytest.mark.rule("OP-13")
def test_faction_surcharge_is_an_event_setting() -> None:
    f = fleet([{"id": "ktroika", "captain": "rask"}])  # a FED captain on a KLI ship
    assert validate(f).ships[0].total_sp == 84
    charged = validate(f, settings=EventSettings(300, faction_surcharge=1))
    assert charged.ships[0].total_sp == 85
    indie = fleet([{"id": "ktroika", "captain": "morrow"}])  # Independent: never a surcharge
    assert validate(indie, settings=EventSettings(300, faction_surcharge=1)).ships[0].total_sp == 82


@pytest.mark.rule("OP-11", "OP-13", "FBS-12")
@pytest.mark.parametrize("name", preset_names())
def test_every_preset_is_legal(name: str) -> None:
    report = validate(load_fleet(name))
    assert report.valid, report.errors
    assert report.total_build <= 300
