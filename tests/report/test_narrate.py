"""The battle told turn by turn (issue 23): hits, repairs, initiative, evasion and cards said as a
player reads them, and Peak Performance's resets and returns."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from kolrami.catalog import builtin_pack
from kolrami.engine.battle import Battle
from kolrami.fleet import load_fleet
from kolrami.report.narrate import Narrator
from kolrami.report.replay import render_replay
from kolrami.rules import events as ev
from kolrami.scenarios.models import load_scenario
from kolrami.sim.play import simulate


def play(scenario: str, seed: int) -> Battle:
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    return simulate(load_scenario(scenario), fleets, ("aggressive", "aggressive"), seed)


def told(battle: Battle, verbose: bool = False) -> str:
    out = Console(record=True, width=200, file=io.StringIO())
    Narrator(out, builtin_pack(), verbose).tell(battle.events())
    return out.export_text()


@pytest.fixture(scope="module")
def standard() -> str:
    return told(play("standard", 2))


@pytest.fixture(scope="module")
def hull_hits() -> str:
    return told(play("standard", 3))


@pytest.fixture(scope="module")
def peak() -> str:
    return told(play("peak-performance", 4))


def test_a_hit_on_the_hull_says_superstructure_once(hull_hits: str) -> None:
    assert re.search(r"superstructure (\d+), superstructure \1\b", hull_hits) is None
    assert re.search(r"damage → superstructure \d+\n", hull_hits)


def test_repairs_name_what_a_sheet_names(standard: str) -> None:
    repairs = [line for line in standard.splitlines() if "repair " in line]
    assert repairs
    assert not [line for line in repairs if "_" in line or re.search(r"\.\d", line)]
    assert any("engine power back to" in line for line in repairs)


def test_initiative_shows_the_cards_modifiers(standard: str) -> None:
    # the Sensor Picket's +1 made A's 1 level with B's 2: the roll-off went again
    assert (
        "d10 A 1+1 : B 2 (level: again), A 2+1 : B 6; B wins, A moves first "
        "(A +1 from Sensor Picket)"
    ) in standard


def test_evasion_is_said_as_evasion_not_a_weaker_weapon() -> None:
    # Captain Maren Ode gives the Charger (A3) evasion 1; the K'T'Roika's phasers are str 4
    text = "".join(told(play("standard", seed)) for seed in (2, 3, 4, 5))
    assert re.search(r"→ A3 Charger: \d+ phasers str 4 \(-1 evasion\)", text)
    assert not re.search(r"→ A3 Charger: \d+ phasers str 3\b", text)


def test_a_card_line_starts_with_the_ship_that_acted(standard: str) -> None:
    line = next(x for x in standard.splitlines() if "Commander Tavish Orrin" in x)
    assert re.match(r"\s+A2 Reliant, firing at B\d K'T'Roika, uses Commander Tavish Orrin", line)
    assert "(its captain): re-rolled a" in line
    assert "card orrin" not in standard


def test_lasting_cards_by_name_when_verbose() -> None:
    text = told(play("standard", 2), verbose=True)
    assert "Admiral Torga (B1 K'T'Roika's admiral) on B2 K'T'Roika: engine power 18" in text


def test_peak_performance_says_resets_returns_and_points(peak: str) -> None:
    assert re.search(r"B1 K'T'Roika reset by A\d \w+", peak)
    assert re.search(r"B1 K'T'Roika returns at \(\d+\.\d, \d+\.\d\) heading 3", peak)
    assert re.search(r"\+\d+ Fleet Points side A \(for B1 K'T'Roika\): \d+ in all", peak)


def test_the_replay_log_names_cards() -> None:
    battle = play("standard", 2)
    page = render_replay(battle.events())
    used = {e.card for e in battle.events() if isinstance(e, ev.CardUsed)}
    assert "orrin" in used
    assert "Commander Tavish Orrin (A2 Reliant's captain)" in page
    assert "Card orrin" not in page
    assert "photons.0" not in page
