"""The fleet builder (/fleets/build) in the real browser at a small phone's size (360 px): a
legal fleet built by tapping the catalogue, an illegal choice refused with its rule, nothing past
the screen's edge, the share string and the PDF sheet downloaded; nothing asked of the internet.

Skipped, with the reason, where /usr/bin/chromium or playwright is missing. Screenshots go to
KOLRAMI_SCREENSHOTS (a folder) when it is set, else to the test's temporary folder.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from kit import SMALL_PHONE
from kit import needs_browser
from test_phone_layout import OVERFLOWS

from kolrami.fleet.fleetx import from_share_string
from kolrami.fleet.legality import validate

pytestmark = needs_browser


def _total(page: Any) -> int:
    return int(page.text_content("#total"))


def _tap(page: Any, selector: str) -> None:
    """Tap a button and wait for the builder htmx puts back in its place."""
    before = page.get_attribute("#builder input[name=fleet]", "value")
    page.locator(selector).first.tap()
    deadline = time.monotonic() + 15
    while True:
        time.sleep(0.1)
        now = page.get_attribute("#builder input[name=fleet]", "value")
        refused = page.locator("#refusal").count() > 0
        if now != before or refused:
            return
        assert time.monotonic() < deadline, f"no answer to {selector}"


@pytest.mark.rule("FBS-05", "OP-13", "FBS-08")
def test_phone_builds_a_legal_fleet_refuses_a_wrong_card_and_downloads(
    server: str, browser: Any, shots: Path, tmp_path: Path
) -> None:
    context = browser.new_context(**SMALL_PHONE, accept_downloads=True)
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(f"{server}/fleets/build")

    # the catalogue filtered to Federation ships of at most 100 SP
    page.select_option("select[name=faction]", "FED")
    page.wait_for_selector("#entry-sting", state="detached")
    page.select_option("select[name=kind]", "ship")
    page.wait_for_selector("#entry-venn", state="detached")
    page.fill("input[name=cost_max]", "100")
    page.locator("input[name=cost_max]").blur()
    page.wait_for_selector("#entry-venture", state="detached")
    assert page.locator("#entry-reliant").count() == 1
    assert page.locator("#entry-enterprise").count() == 0

    _tap(page, "#entry-reliant button.add")
    assert _total(page) == 90
    _tap(page, "#entry-charger button.add")
    assert _total(page) == 160
    assert page.text_content("#verdict") == "legal"

    # cards for ship 1: a Klingon-only captain is refused with its rule, the fleet unchanged
    page.select_option("select[name=faction]", "")
    page.wait_for_selector("#entry-sting")
    page.select_option("select[name=kind]", "captain")
    page.wait_for_selector("#entry-korvekh")
    page.locator("#ship-0 button", has_text="Put cards here").tap()
    page.wait_for_selector("#ship-0.picked")
    _tap(page, "#entry-korvekh button.add")
    refusal = page.text_content("#refusal")
    assert "FBS-05" in refusal, refusal
    assert "Reliant" in refusal, refusal
    assert page.locator("#refusal a", has_text="FBS-05").get_attribute("href") == (
        "/play/rules/FBS-05"
    )
    assert _total(page) == 160, "the refused captain was added anyway"
    assert page.evaluate(OVERFLOWS) == [], "the refusal runs past a 360 px screen"
    page.screenshot(path=str(shots / "fleet-builder-phone-refusal.png"), full_page=False)

    _tap(page, "#entry-venn button.add")
    assert _total(page) == 165
    assert page.locator("#refusal").count() == 0
    assert page.text_content("#verdict") == "legal"
    page.fill("input[name=fleet_name]", "Friday cruisers")
    page.locator("input[name=fleet_name]").blur()
    deadline = time.monotonic() + 10
    while "friday" not in (page.get_attribute("#save-share", "href") or "").lower():
        # the name travels inside the share string: wait until the links carry the new one
        share = page.get_attribute("#builder input[name=fleet]", "value")
        if share and from_share_string(share).name == "Friday cruisers":
            break
        assert time.monotonic() < deadline, "the fleet's name did not reach the links"
        time.sleep(0.1)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "fleet-builder-phone.png"), full_page=True)

    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    assert page.evaluate(OVERFLOWS) == []

    with page.expect_download() as got:
        page.locator("#save-share").tap()
    share_path = tmp_path / "share.txt"
    got.value.save_as(share_path)
    fleet = from_share_string(share_path.read_text().strip())
    report = validate(fleet, 300)
    assert report.valid, report.errors
    assert fleet.name == "Friday cruisers"
    assert [s.id for s in fleet.ships] == ["reliant", "charger"]
    assert fleet.ships[0].captain == "venn"
    assert report.total_build == 165

    with page.expect_download() as got:
        page.locator("#save-pdf").tap()
    pdf = tmp_path / "sheet.pdf"
    got.value.save_as(pdf)
    assert pdf.read_bytes().startswith(b"%PDF")
    pypdf = pytest.importorskip("pypdf")
    text = "".join(p.extract_text() for p in pypdf.PdfReader(str(pdf)).pages)
    assert "Friday cruisers" in text
    assert "165" in text

    assert all(u.startswith(server) for u in asked), [u for u in asked if not u.startswith(server)]
    context.close()
