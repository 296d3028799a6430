"""Clause citations: a rule is found by its catalogue id with one grep.

Every id cited in src/ is a catalogue id, written out in full (no ranges such as FPF-DMG-01..06,
no short forms such as "-06, -07" or MOV-10), and every clause a test checks is cited in the
file of its group: the code that carries it out.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "kolrami"
CATALOGUE = ROOT.parent / "shared" / "rules" / "catalogue.toml"

#: A full citation: FPF-DMG-05, ADV-CLOAK-03, PP-16, OP-24, FBS-08.
CITATION = re.compile(r"\b(?:(?:FPF|ADV)-[A-Z]+-\d+|(?:PP|OP|FBS)-\d+)\b")
#: A citation followed by a range, a slash list or a bare "-NN" continuation.
RANGE = re.compile(r"\b(?:(?:FPF|ADV)-[A-Z]+-\d+|(?:PP|OP|FBS)-\d+)(?:\.\.|\u2013|/\d|, ?-\d)")
#: A clause group's code without its prefix (MOV-10 for FPF-MOV-10).
GROUPS = (
    "TURN|MOV|FIRE|DMG|REP|ARC|MASK|OPT|OFF|CAS|CHK|SEQ|SENS|POW|SHLD|DIS|LOCK|TGT|EVA|TORP|CLOAK|"
    "COMM|TRAC|TRANS|BRD|WEB|BASE|PROBE|WARP|IMP|SD|SB|NAC|NEB|ION|MINE|BH|NS|MAG|GG|ORB"
)
SHORT = re.compile(rf"(?<![A-Z]-)(?<![A-Za-z])(?:{GROUPS})-\d+\b")

#: Where each clause group is carried out (paths under src/kolrami).
GROUP_FILES: dict[str, tuple[str, ...]] = {
    "FPF-TURN": ("rules/fpf/turn.py", "rules/fpf/fire.py", "rules/fpf/movement.py"),
    "FPF-MOV": ("rules/fpf/movement.py", "rules/fpf/initiative.py"),
    "FPF-FIRE": ("rules/fpf/fire.py",),
    "FPF-ARC": ("rules/fpf/fire.py", "catalog/models.py"),  # the sheets' arc codes
    "FPF-DMG": ("rules/fpf/damage.py",),
    "FPF-REP": ("rules/fpf/repairs.py",),
    "FPF-MASK": ("rules/fpf/masking.py", "fleet/legality.py"),  # squadrons of three
    "FPF-OPT": ("rules/fpf/options.py",),
    "PP": ("rules/peak.py",),
    "OP": ("tournament/core.py",),
    "FBS": ("fleet/legality.py", "report/build_sheet.py"),
    "ADV-CHK": ("rules/advanced/checks.py",),
    "ADV-OFF": ("rules/advanced/officers.py", "rules/advanced/checks.py"),
    "ADV-CAS": ("rules/advanced/officers.py", "catalog/advanced.py"),  # species' resistance
    "ADV-COMM": ("rules/advanced/officers.py", "rules/advanced/comms.py"),
    "ADV-WEB": ("rules/advanced/webs.py",),
    "ADV-PROBE": ("rules/advanced/probes.py",),
    "ADV-SENS": ("rules/advanced/officers.py", "rules/advanced/cloak.py", "rules/advanced/view.py"),
    "ADV-SEQ": ("rules/advanced/driver.py",),
    "ADV-POW": ("rules/advanced/power.py",),
    "ADV-SHLD": ("rules/advanced/power.py",),
    "ADV-ARC": ("rules/advanced/geometry.py",),
    "ADV-FIRE": ("rules/advanced/combat.py",),
    "ADV-DIS": ("rules/advanced/combat.py",),
    "ADV-LOCK": ("rules/advanced/combat.py",),
    "ADV-TGT": ("rules/advanced/combat.py",),
    "ADV-EVA": ("rules/advanced/combat.py",),
    "ADV-TORP": ("rules/advanced/combat.py", "rules/advanced/probes.py"),
    "ADV-CLOAK": ("rules/advanced/cloak.py",),
    # the battlefield's own rules: one file a group in the terrain package
    "ADV-NEB": ("rules/advanced/terrain/nebula.py",),
    "ADV-ION": ("rules/advanced/terrain/ion.py",),
    "ADV-MINE": ("rules/advanced/terrain/mines.py",),
    "ADV-BH": ("rules/advanced/terrain/black_hole.py",),
    "ADV-NS": ("rules/advanced/terrain/neutron.py",),
    "ADV-MAG": ("rules/advanced/terrain/magnetar.py",),
    "ADV-GG": ("rules/advanced/terrain/gas_giant.py",),
    "ADV-ORB": ("rules/advanced/terrain/orbit.py",),
    "ADV-TRAC": ("rules/advanced/tractor.py",),
    "ADV-TRANS": ("rules/advanced/boarding.py",),
    "ADV-BRD": ("rules/advanced/boarding.py", "catalog/advanced.py"),  # the troop table
    "ADV-IMP": ("rules/advanced/engines.py",),
    "ADV-WARP": ("rules/advanced/engines.py",),
    "ADV-NAC": ("rules/advanced/engines.py",),
    "ADV-SD": ("rules/advanced/engines.py",),
    "ADV-BASE": ("rules/advanced/bases.py",),
    "ADV-SB": ("rules/advanced/bases.py",),
}

MARK = re.compile(r"rule\(\s*((?:['\"][A-Z0-9-]+['\"]\s*,?\s*)+)\)")
QUOTED = re.compile(r"['\"]([A-Z]+(?:-[A-Z]+)*-\d+)['\"]")


#: The catalogue's ids, kept beside this test so that the checks run without ../shared.
IDS_FILE = Path(__file__).resolve().parent / "catalogue_ids.txt"


def catalogue_ids() -> set[str]:
    lines = IDS_FILE.read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


@pytest.mark.skipif(not CATALOGUE.exists(), reason="no ../shared catalogue to compare with")
def test_the_kept_ids_are_the_catalogue_s() -> None:
    shared = {r["id"] for r in tomllib.loads(CATALOGUE.read_text())["rule"]}
    assert catalogue_ids() == shared, "rewrite catalogue_ids.txt from ../shared/rules"


def sources() -> Iterator[Path]:
    yield from sorted(SRC.rglob("*.py"))


def tagged_ids() -> set[str]:
    """Every clause id a test is tagged with (@pytest.mark.rule)."""
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for m in MARK.finditer(path.read_text()):
            found |= set(QUOTED.findall(m.group(1)))
    return found


def group(rule_id: str) -> str:
    return rule_id.rsplit("-", 1)[0]


#: Every text file the package ships: code, and the data, templates and scripts that cite clauses.
TEXT_SUFFIXES = {".py", ".toml", ".j2", ".js", ".css", ".html", ".md", ".txt", ".json"}


def shipped_text() -> Iterator[Path]:
    for path in sorted(SRC.rglob("*")):
        if path.is_file() and path.suffix in TEXT_SUFFIXES and "vendor" not in path.parts:
            yield path


def test_no_citation_is_a_range_or_a_short_form() -> None:
    bad = []
    for path in shipped_text():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if RANGE.search(line) or SHORT.search(line):
                bad.append(f"{path.relative_to(SRC)}:{number}: {line.strip()}")
    assert not bad, "cite each clause id in full:\n" + "\n".join(bad)


def test_every_cited_id_is_in_the_catalogue() -> None:
    known = catalogue_ids()
    unknown = sorted(
        f"{path.relative_to(SRC)}: {cited}"
        for path in sources()
        for cited in set(CITATION.findall(path.read_text()))
        if cited not in known
    )
    assert not unknown, "not catalogue ids:\n" + "\n".join(unknown)


def test_every_tested_clause_is_cited_in_the_file_of_its_group() -> None:
    cited: dict[str, set[str]] = {}
    for path in sources():
        for rule_id in set(CITATION.findall(path.read_text())):
            cited.setdefault(rule_id, set()).add(str(path.relative_to(SRC)))
    missing = []
    for rule_id in sorted(tagged_ids() & catalogue_ids()):
        files = GROUP_FILES.get(group(rule_id))
        assert files is not None, f"no file is named for the clause group of {rule_id}"
        if not cited.get(rule_id, set()) & set(files):
            missing.append(f"{rule_id}: cite it in {' or '.join(files)}")
    assert not missing, "tested clauses not cited where they are carried out:\n" + "\n".join(
        missing
    )


def test_the_short_form_pattern_catches_what_it_should() -> None:
    assert SHORT.search("forced activation (MOV-10)")
    assert not SHORT.search("forced activation (FPF-MOV-10)")
    assert RANGE.search("(FPF-DMG-01..06)")
    assert RANGE.search("(FPF-FIRE-08/09)")
    assert RANGE.search("(FPF-MOV-06, -11)")
    assert not RANGE.search("(FPF-MOV-06, FPF-MOV-11)")
