"""/play takes a side's fleet from a preset, a share string or an uploaded FleetX file; a fleet
that is not FleetX, too large or illegal is one line under its field, and no game is stored."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kolrami.fleet import load_fleet
from kolrami.fleet.document import MAX_FLEET_BYTES
from kolrami.fleet.fleetx import dumps
from kolrami.fleet.fleetx import share_string
from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import token


@pytest.fixture
def c(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Store(str(tmp_path / "s.db")), play_dir=tmp_path / "games"))


def _games(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "games"
    return sorted(folder.glob("*.jsonl")) if folder.exists() else []


def _post(
    c: TestClient, data: dict[str, str], files: dict[str, tuple[str, bytes, str]] | None = None
) -> tuple[int, str, str]:
    csrf = token(c.get("/play").text)
    sent = {"csrf_token": csrf, "turns": "2", "seed": "4", "seat_b": "aggressive", **data}
    got = c.post("/play", data=sent, files=files or {}, follow_redirects=False)
    return got.status_code, got.headers.get("location", ""), got.text


def test_a_share_string_and_an_uploaded_file_are_played(c: TestClient, tmp_path: Path) -> None:
    raiders = load_fleet("presets:klingon-raiders")
    status, game, page = _post(c, {"fleet_a_text": share_string(raiders)})
    assert status == 303, page
    log = c.get(f"{game}/log.jsonl").text
    assert raiders.name in log.splitlines()[0]
    venture = load_fleet("presets:federation-venture")
    upload = {"fleet_b_file": ("mine.json", dumps(venture).encode(), "application/json")}
    status, game, page = _post(c, {}, upload)
    assert status == 303, page
    assert venture.name in c.get(f"{game}/log.jsonl").text.splitlines()[0]
    assert len(_games(tmp_path)) == 2


def _line_under(page: str, field: str) -> str:
    found = re.search(rf'<p class="error" id="err-{field}" role="alert">([^<]*)</p>', page)
    assert found, f"no line under {field}"
    return found.group(1)


def test_a_file_that_is_not_fleetx_is_one_line_and_nothing_stored(
    c: TestClient, tmp_path: Path
) -> None:
    upload = {"fleet_a_file": ("notes.json", b'{"hello": "world"}', "application/json")}
    status, _, page = _post(c, {}, upload)
    assert status == 400
    line = _line_under(page, "fleet_a_file")
    assert line.startswith("side A: notes.json: ships")
    upload = {"fleet_a_file": ("photo.png", b"\x89PNG\r\n\x1a\n\xff\xfe", "image/png")}
    status, _, page = _post(c, {}, upload)
    assert status == 400
    assert "not a text file" in _line_under(page, "fleet_a_file")
    assert _games(tmp_path) == []


def test_a_file_too_large_is_one_line_and_nothing_stored(c: TestClient, tmp_path: Path) -> None:
    big = b'{"name": "' + b"x" * (MAX_FLEET_BYTES + 10) + b'"}'
    status, _, page = _post(c, {}, {"fleet_b_file": ("big.json", big, "application/json")})
    assert status == 400
    assert "larger than 256 KiB" in _line_under(page, "fleet_b_file")
    assert _games(tmp_path) == []


@pytest.mark.rule("FBS-05", "OP-13")
def test_an_illegal_fleet_is_refused_with_its_rule_and_nothing_stored(
    c: TestClient, tmp_path: Path
) -> None:
    wrong = {"name": "Odd", "ships": [{"id": "reliant", "captain": "korvekh"}]}
    upload = {"fleet_a_file": ("odd.json", json.dumps(wrong).encode(), "application/json")}
    status, _, page = _post(c, {}, upload)
    assert status == 400
    line = _line_under(page, "fleet_a_file")
    assert "ship 1 (Reliant), captain" in line
    assert "(FBS-05)" in line
    over = {"name": "Big", "points_limit": 100, "ships": [{"id": "enterprise"}]}
    status, _, page = _post(c, {"fleet_b_text": json.dumps(over)})
    assert status == 400
    assert "OP-13" in _line_under(page, "fleet_b_text")
    assert _games(tmp_path) == []


def test_a_broken_share_string_keeps_what_was_typed(c: TestClient, tmp_path: Path) -> None:
    status, _, page = _post(c, {"fleet_a_text": "KF1-nonsense", "seed": "77"})
    assert status == 400
    assert "share string" in _line_under(page, "fleet_a_text")
    assert "KF1-nonsense</textarea>" in page
    assert 'value="77"' in page
    assert _games(tmp_path) == []


def test_the_builder_link_fills_in_the_share_string(c: TestClient) -> None:
    share = share_string(load_fleet("presets:klingon-strike"))
    page = c.get("/play", params={"fleet_a": share}).text
    assert f">{share}</textarea>" in page


def test_an_unknown_preset_is_one_line_under_its_select(c: TestClient, tmp_path: Path) -> None:
    status, _, page = _post(c, {"fleet_a": "<b>nope</b>"})
    assert status == 400
    line = _line_under(page, "fleet_a")
    assert line == (
        "side A: no preset fleet &#39;&lt;b&gt;nope&lt;/b&gt;&#39;; choose one of the list"
    )
    assert _games(tmp_path) == []


def test_a_pasted_fleet_too_large_is_one_line_and_not_shown_again(
    c: TestClient, tmp_path: Path
) -> None:
    big = "KF1-" + "A" * (MAX_FLEET_BYTES + 10)
    status, _, page = _post(c, {"fleet_b_text": big})
    assert status == 400
    line = _line_under(page, "fleet_b_text")
    assert line.startswith("side B: the pasted fleet is larger than 256 KiB")
    assert "upload its FleetX file" in line
    assert "AAAAAAAAAA" not in page
    assert _games(tmp_path) == []


def test_a_fleet_sent_without_the_csrf_token_makes_no_game(c: TestClient, tmp_path: Path) -> None:
    share = share_string(load_fleet("presets:klingon-raiders"))
    c.get("/play")
    got = c.post("/play", data={"fleet_a_text": share, "turns": "2"}, follow_redirects=False)
    assert got.status_code == 403
    assert _games(tmp_path) == []
