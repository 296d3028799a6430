"""A pasted or uploaded fleet's problems as the registration page shows them (issue 23): ships
counted from 1 with their names, each rule named once."""

from __future__ import annotations

from kolrami.fleet.legality import EventSettings
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import FleetShip
from kolrami.web.forms import FleetForm
from kolrami.web.forms import check


def test_a_squadron_of_four_reads_as_a_player_counts() -> None:
    fleet = Fleet(name="Four", ships=tuple(FleetShip(id="sting", squadron=1) for _ in range(4)))
    form = check(FleetForm(fleet=fleet), EventSettings(300), None)
    (message,) = form.errors["fleet"]
    assert message.startswith("ship 4 (Sting), squadron: squadron 1 has 4 ships")
    assert message.count("FPF-MASK-02") == 1
    assert "ships[3]" not in message
