"""Issue 47 items 15 and 16 on the web: the phone's table page puts the start-of-round build
check first, with a link to each opponent's fleet; registration takes presets:NAME as the CLI
does, by the same rules; a fleet mixing factions is legal with the note that the faction
surcharge is off unless the event sets one."""

from __future__ import annotations

import json

import pytest
from fastapi import FastAPI
from typer.testing import CliRunner

from kolrami.cli import app as cli
from kolrami.tournament.store import Store
from web_helpers import Desk
from web_helpers import new_event
from web_helpers import organizer
from web_helpers import text

MIXED = json.dumps(
    {
        "name": "Feds and a Bird",
        "faction": "federation",
        "ships": [{"id": "reliant", "squadron": 1}, {"id": "sting", "squadron": 2}],
    }
)


@pytest.mark.rule("OP-14")
def test_the_build_check_comes_before_the_result_form_and_links_the_fleets(
    paired: tuple[Desk, int, Store, str],
) -> None:
    desk, eid, store, name = paired
    table = next(t for t in store.games(name, 1) if t["b"] is not None)
    page = desk.client.get(f"/events/{eid}/rounds/1/tables/{table['table']}").text
    assert page.index('id="build-check"') < page.index("Report the result")
    ids = {p["name"]: p["id"] for p in store.players(name)}
    for opponent in (table["a"], table["b"]):
        link = f'href="/events/{eid}/players/{ids[opponent]}"'
        assert link in page, opponent
        fleet = desk.client.get(f"/events/{eid}/players/{ids[opponent]}")
        assert fleet.status_code == 200  # public once round 1 is paired (OP-12)
        assert opponent in fleet.text


def test_registration_on_the_web_takes_a_preset_as_the_cli_does(app: FastAPI) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=0)
    store: Store = app.state.web.store
    name = store.event_name(eid)
    made = desk.post(
        f"/org/events/{eid}/players", {"name": "Ann", "fleet": "presets:klingon-strike"}
    )
    assert made.status_code == 303, text(made)
    assert store.fleets(name)["Ann"].name == "Klingon strike squadron"
    assert [p["name"] for p in store.players(name)] == ["Ann"]
    # a preset's name as the CLI suggests it; one that is no preset is refused beside the field
    wrong = desk.post(
        f"/org/events/{eid}/players", {"name": "Ben", "fleet": "presets:klingon-strik"}
    )
    assert wrong.status_code == 400
    assert 'id="err-fleet"' in text(wrong)
    assert "did you mean 'presets:klingon-strike'?" in text(wrong)
    # never a file on the server, whatever follows the prefix
    path = desk.post(f"/org/events/{eid}/players", {"name": "Ben", "fleet": "presets:/etc/passwd"})
    assert path.status_code == 400
    assert "preset fleet" in text(path)
    assert [p["name"] for p in store.players(name)] == ["Ann"]


@pytest.mark.rule("OP-13")
def test_a_preset_over_the_events_limit_is_refused_on_the_web_and_at_the_cli(
    app: FastAPI,
) -> None:
    desk = organizer(app)
    store: Store = app.state.web.store
    small = desk.client.post(  # an event of 100 SP: every preset is over it
        "/org/events",
        data={
            "name": "Tiny",
            "date": "2026-11-30",
            "sp_limit": "100",
            "scenario": "peak-performance",
            "rounds": "3",
            "minutes": "60",
            "titles": "Admiral",
            "seed": "1",
            "csrf_token": desk.csrf,
        },
        follow_redirects=False,
    )
    assert small.status_code == 303
    tiny = int(small.headers["location"].rsplit("/", 1)[1])
    refused = desk.post(
        f"/org/events/{tiny}/players", {"name": "Cat", "fleet": "presets:federation-cruisers"}
    )
    assert refused.status_code == 400
    assert "100 SP limit" in text(refused)
    assert store.players("Tiny") == []
    result = CliRunner().invoke(
        cli,
        [
            *("tournament", "player", "add", "Cat", "--fleet", "presets:federation-cruisers"),
            *("--event", "Tiny", "--db", store.url),
        ],
    )
    assert result.exit_code == 2, result.output
    assert "100 SP limit" in result.output
    assert store.players("Tiny") == []


def test_a_mixed_fleet_is_legal_with_the_surcharge_said_off(
    paired: tuple[Desk, int, Store, str],
) -> None:
    desk, eid, _, _ = paired
    page = desk.post(f"/org/events/{eid}/fleet-check", {"fleet": MIXED})
    said = " ".join(text(page).split())
    assert "legal" in said
    assert "ships of 2 factions (FED, KLI) in a fleet declared federation" in said
    assert "the faction surcharge is off unless the event sets one" in said


@pytest.mark.rule("OP-09")
def test_a_correction_after_the_next_round_was_paired_is_saved_with_a_word(
    paired: tuple[Desk, int, Store, str],
) -> None:
    """Issue 47 item 19 at the counter: the correction counts, and the page says that round
    2's bye and pairings rested on the old result."""
    desk, eid, store, name = paired
    for g in store.games(name, 1):
        if g["b"] is not None:
            form = {"winner": g["a"], "fp_a": "0", "fp_b": "0", "version": str(g["version"])}
            assert (
                desk.post(f"/org/events/{eid}/rounds/1/tables/{g['table']}", form).status_code
                == 303
            )
    plain = desk.refresh(f"/org/events/{eid}/rounds/1")
    assert "paired on round 1" not in plain
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    desk.refresh(f"/org/events/{eid}/rounds/1")
    g = next(g for g in store.games(name, 1) if g["b"] is not None)
    form = {"winner": g["b"], "fp_a": "0", "fp_b": "0", "version": str(g["version"])}
    fixed = desk.post(f"/org/events/{eid}/rounds/1/tables/{g['table']}", form)
    assert fixed.status_code == 200
    said = " ".join(text(fixed).split())
    assert "Saved." in said
    assert "Note: round 2 was paired on round 1's old result" in said
    assert "its pairings stand" in said
    assert next(x for x in store.games(name, 1) if x["table"] == g["table"])["winner"] == g["b"]
