"""The fleet builder (/fleets/build) through the test client: choices applied one at a time,
an illegal one refused with its rule and the fleet unchanged, every problem of an opened fleet
listed with its rule, the catalogue's filters, and the downloads (FleetX, share string, PDF)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import from_share_string
from kolrami.fleet.fleetx import share_string
from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import token


@pytest.fixture
def c(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Store(str(tmp_path / "s.db")), play_dir=tmp_path / "games"))


def _share(html: str) -> str:
    found = re.search(r'name="fleet" value="([^"]*)"', html)
    assert found, "no fleet field"
    return found.group(1)


def _send(c: TestClient, share: str, act: str, **more: str) -> tuple[int, str]:
    csrf = token(c.get("/fleets/build").text)
    answer = c.post("/fleets/build", data={"csrf_token": csrf, "fleet": share, "act": act, **more})
    return answer.status_code, answer.text


def test_ships_and_cards_add_up_live(c: TestClient) -> None:
    status, page = _send(c, "", "ship:reliant")
    assert status == 200
    assert 'id="total">90<' in page
    assert ">legal<" in page
    status, page = _send(c, _share(page), "card:venn", target="0")
    assert status == 200
    assert 'id="total">95<' in page
    fleet = from_share_string(_share(page))
    assert fleet.ships[0].captain == "venn"
    status, page = _send(c, _share(page), "uncard:0:captain:venn")
    assert from_share_string(_share(page)).ships[0].captain is None


@pytest.mark.rule("FBS-05")
def test_a_card_the_ship_may_not_carry_is_refused_with_its_rule(c: TestClient) -> None:
    _, page = _send(c, "", "ship:reliant")
    share = _share(page)
    status, page = _send(c, share, "card:korvekh", target="0")
    assert status == 422
    assert "Refused: ship 1 (Reliant), captain:" in page
    assert "/play/rules/FBS-05" in page
    assert _share(page) == share, "the refused card changed the fleet"


@pytest.mark.rule("FPF-MASK-02")
def test_a_fourth_ship_in_a_squadron_is_refused(c: TestClient) -> None:
    share = ""
    for _ in range(3):
        _, page = _send(c, share, "ship:bird-of-prey")
        share = _share(page)
    status, page = _send(c, share, "ship:bird-of-prey")
    assert status == 422
    assert "FPF-MASK-02" in page
    assert len(from_share_string(_share(page)).ships) == 3
    status, page = _send(c, share, "ship:bird-of-prey", squadron="2")
    assert status == 200
    assert len(from_share_string(_share(page)).ships) == 4


@pytest.mark.rule("OP-13")
def test_over_the_budget_is_allowed_and_shown_with_rule_and_fix(c: TestClient) -> None:
    share = ""
    for ship in ("enterprise", "venture"):
        _, page = _send(c, share, "ship:" + ship)
        share = _share(page)
    assert "Total Build 290 SP" not in page
    status, page = _send(c, share, "ship:charger", squadron="2")
    assert status == 200
    assert "360" in page
    assert "exceeds the 300 SP limit by 60" in page
    assert "OP-13" in page


def test_an_opened_fleet_lists_every_problem(c: TestClient) -> None:
    bad = json.dumps(
        {"name": "Odd", "ships": [{"id": "reliant", "captain": "korvekh"}, {"id": "nope"}]}
    )
    status, page = _send(c, "", "open", open_text=bad)
    assert status == 200
    assert "FBS-05" in page
    assert "FBS-12" in page
    assert "2 problems" in page


def test_an_unreadable_fleet_to_open_is_one_line(c: TestClient) -> None:
    status, page = _send(c, "", "open", open_text="hello")
    assert status == 422
    assert "not a share string" in page


def test_the_catalogue_filters_by_faction_kind_and_cost(c: TestClient) -> None:
    page = c.get("/fleets/build", params={"faction": "KLI", "kind": "ship", "cost_max": "75"}).text
    shown = set(re.findall(r'id="entry-([a-z0-9-]+)"', page))
    assert shown == {"bird-of-prey", "star-hawk", "sting", "outpost"}
    cards = c.get("/fleets/build", params={"kind": "captain", "cost_max": "3"}).text
    assert set(re.findall(r'id="entry-([a-z0-9-]+)"', cards)) == {"ode", "dharkesh", "morrow"}


def test_downloads_fleetx_share_string_and_pdf(c: TestClient) -> None:
    fleet = load_fleet("presets:klingon-raiders")
    share = share_string(fleet)
    got = c.get("/fleets/build/fleet.json", params={"fleet": share})
    assert got.status_code == 200
    assert "attachment" in got.headers["content-disposition"]
    assert (
        json.loads(got.text)["ships"] == fleet.model_dump(mode="json", exclude_none=True)["ships"]
    )
    text = c.get("/fleets/build/share.txt", params={"fleet": share}).text.strip()
    assert from_share_string(text) == from_share_string(share)
    pdf = c.get("/fleets/build/sheet.pdf", params={"fleet": share, "player": "Dev"})
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.content[:4] == b"%PDF"
    bad = c.get("/fleets/build/sheet.pdf", params={"fleet": "KF1-broken"})
    assert bad.status_code == 400
    assert "share string" in bad.text


def _line(page: str, which: str = "problem") -> str:
    found = re.search(rf'<p class="refusal" id="{which}" role="alert">([^<]*)</p>', page)
    assert found, f"no {which} line"
    return found.group(1)


def test_choices_that_name_nothing_are_one_line_and_change_nothing(c: TestClient) -> None:
    _, page = _send(c, "", "ship:reliant")
    share = _share(page)
    for act, said in (
        ("ship:nope", "no ship class &#39;nope&#39;"),
        ("card:nope", "no card &#39;nope&#39; (kolrami cards)"),
        ("card:venn", "choose the ship it goes on first"),
    ):
        status, page = _send(c, share, act)
        assert status == 422, act
        assert said in _line(page), act
        assert _share(page) == share, act


def test_a_post_without_its_csrf_token_is_refused(c: TestClient) -> None:
    c.get("/fleets/build")
    got = c.post("/fleets/build", data={"act": "ship:reliant"})
    assert got.status_code == 403
    assert "reload the page" in got.text
    assert 'name="fleet"' not in got.text


def test_a_fleet_field_changed_by_hand_is_said_and_opening_again_clears_it(c: TestClient) -> None:
    page = c.get("/fleets/build", params={"fleet": "KF1-broken"})
    assert page.status_code == 400
    assert _line(page.text).startswith("fleet: not a Kolrami share string")
    assert _share(page.text) == ""
    status, page_text = _send(c, "hello", "ship:reliant")
    assert status == 422
    assert "not a share string" in _line(page_text)
    assert 'id="total">90<' in page_text, "the choice is still made, on an empty fleet"
    good = share_string(load_fleet("presets:klingon-raiders"))
    status, page_text = _send(c, "KF1-" + "A" * 40_000, "open", open_text=good)
    assert status == 200
    assert 'id="problem"' not in page_text
    opened = from_share_string(_share(page_text))
    assert opened.ships == from_share_string(good).ships


def test_names_typed_into_the_page_come_back_escaped(c: TestClient) -> None:
    evil = "<script>alert(1)</script>"
    doc = {"name": evil, "ships": [{"id": "reliant"}]}
    status, page = _send(c, "", "open", open_text=json.dumps(doc), player='<b>"x"</b>')
    assert status == 200
    assert evil not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>" not in page
    sheet = c.get("/fleets/build/sheet.pdf", params={"fleet": _share(page), "player": evil})
    assert sheet.status_code == 200
    assert 'filename="script-alert-1-script.pdf"' in sheet.headers["content-disposition"]


def test_a_download_address_too_long_or_empty_is_refused(c: TestClient) -> None:
    long = c.get("/fleets/build/share.txt", params={"fleet": "KF1-" + "A" * 40_000})
    assert long.status_code == 422
    assert "at most" in long.text
    for path in ("/fleets/build/fleet.json", "/fleets/build/share.txt", "/fleets/build/sheet.pdf"):
        empty = c.get(path)
        assert empty.status_code == 400, path
        assert "share string" in empty.text, path
    big_name = c.get(
        "/fleets/build/sheet.pdf",
        params={"fleet": share_string(load_fleet("presets:klingon-raiders")), "player": "x" * 101},
    )
    assert big_name.status_code == 422
