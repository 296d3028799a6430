"""`Sets` (rules/changes.py): a change that names where its fields go sets them there, a list
as its own copy, then does its kind's own part; its log form is its dataclass's, as before."""

from __future__ import annotations

from adv_kit import table

from kolrami.rules.advanced.field_events import WebSqueezed
from kolrami.rules.advanced.tactics_events import DockRepaired
from kolrami.rules.advanced.tactics_events import Towed
from kolrami.rules.advanced.terrain_events import MineLaid


def test_a_sets_change_copies_its_fields_onto_the_ship_and_its_advanced_state() -> None:
    b, state = table(["enterprise"], ["ktroika"])
    ship = next(iter(b.ships))
    b.record(Towed(ship, "B1", 12.5, 7.25))
    assert (b.ships[ship].x, b.ships[ship].y) == (12.5, 7.25)
    shields = [1, 2, 3, 4, 5, 6]
    b.record(WebSqueezed(ship, shields, [0] * 6, 9))
    adv = state.of(ship)
    assert adv.base == shields
    assert adv.base is not shields  # (its own list: the log's values stay as logged)
    assert b.ships[ship].superstructure == 9
    b.record(DockRepaired(ship, "B1", 2, 1, 11, 3))
    assert (b.ships[ship].superstructure, adv.casualties) == (11, 3)
    b.record(MineLaid(ship, "M1", 1.0, 2.0, 4))
    assert adv.stores == 4


def test_a_sets_change_keeps_its_log_form() -> None:
    assert Towed("A1", "B1", 1.0, 2.0).to_json() == {
        "e": "towed",
        "ship": "A1",
        "by": "B1",
        "x": 1.0,
        "y": 2.0,
    }
    assert MineLaid("A1", "M1", 1.0, 2.0, 3).to_json()["e"] == "mine_laid"
