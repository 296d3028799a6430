"""One door for every change: the rules change a ship's numbers, place, control and fate only
by a Change event through `Battle.record` or `Battle.change`, whose `apply` is the only code
that sets them. Then the log holds exactly what the battle became, and its readers apply the
same facts. A fact (an event that changes nothing) is logged with `Battle.note`.

Checked over the source: no rule module (the FPF family, Peak Performance, cards, the advanced
game) assigns a ship's numbers or place outside a Change's `apply`, but for the few places named
in ALLOWED with their reason; no code notes a Change (which would log it without applying it);
only the battle appends to its log.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from kolrami import rules
from kolrami.captains.registry import make_captain
from kolrami.engine import events as engine_events
from kolrami.engine.battle import Battle
from kolrami.engine.driver import captain_dice
from kolrami.engine.events import Change
from kolrami.fleet import load_fleet
from kolrami.rules import events as ev
from kolrami.rules import new_battle
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced import tactics_events as te
from kolrami.scenarios.models import builtin_scenario

SRC = Path(__file__).resolve().parents[2] / "src" / "kolrami"

#: a ship's numbers: what damage, repairs, cards and resets change
NUMBERS = frozenset(
    {
        "superstructure",
        "shields",
        "engine_power",
        "systems",
        "max_shields",
        "max_engine",
        "max_systems",
        "damage_control",
        "evasion",
        "tokens",
        "cards",
        "strength",
        "ranges",
        "mounts",
        "out_of_play",
    }
)

#: the FPF family's rule modules (the advanced game keeps its own numbers, rules/advanced)
FPF_FAMILY = [
    *sorted((SRC / "rules" / "fpf").glob("*.py")),
    SRC / "rules" / "cards.py",
    SRC / "rules" / "peak.py",
    SRC / "rules" / "sandbox.py",
]


def assigned(source: str, name: str) -> list[str]:
    """'name:line attr' for every assignment to a ship's number in a module's source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if not isinstance(node, ast.stmt):
            continue
        if isinstance(node, ast.Assign):
            targets = [t for target in node.targets for t in _flat(target)]
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = _flat(node.target)
        for t in targets:
            if isinstance(t, ast.Subscript):
                t = t.value
            if isinstance(t, ast.Attribute) and t.attr in NUMBERS:
                found.append(f"{name}:{node.lineno} {t.attr}")
    return found


def _flat(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, ast.Tuple | ast.List):
        return [t for element in target.elts for t in _flat(element)]
    return [target]


#: a ship's place, heading, speed, control and fate: what a move, a lost control or a
#: destruction changes (ShipMoved, ControlChanged, ShipDestroyed, FormationLeft)
PLACE = frozenset({"x", "y", "heading", "speed", "in_control", "destroyed", "derelict", "detached"})

#: (file, function): the writes of a ship's numbers or place outside a Change, and why
ALLOWED = {
    # the in-flight place and speed of a ship during its move, step by step, for the locked
    # weapons that fire on the way; the ShipMoved change settles them when the move ends
    ("rules/fpf/movement.py", "_fly"): "in flight",
    ("rules/fpf/movement.py", "_flying_at"): "in flight",
    # a captain's sample: a guess at where hidden enemies are, on the searcher's own copy
    ("rules/fpf/view.py", "sample"): "a searcher's copy",
    # a scripted setup (tests, docs): it places ships, logged as ShipPlaced
    ("rules/sandbox.py", "place"): "scripted setup",
    # a track's helper, called only from the apply of the track changes
    ("rules/events.py", "_set_track"): "inside apply",
    # a declarative Change's own part (rules/changes.py Sets: apply copies the fields, then
    # calls `then`)
    ("rules/events.py", "then"): "inside apply",
}

RULES = sorted((SRC / "rules").rglob("*.py"))
ADVANCED = PLACE | {"superstructure"}


def writes(source: str, name: str, watched: frozenset[str]) -> list[str]:
    """'name:line function attr' for every assignment to a watched field of a ship outside
    a Change's apply (a method named apply or apply_values) or a constructor."""
    found: list[str] = []

    def walk(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            here = child.name if isinstance(child, ast.FunctionDef) else function
            if isinstance(child, ast.stmt) and here not in ("apply", "apply_values", "__init__"):
                for line in assigned_in(child, watched):
                    found.append(f"{name}:{child.lineno} {here} {line}")
            walk(child, here)

    walk(ast.parse(source), "<module>")
    return found


def assigned_in(node: ast.stmt, watched: frozenset[str]) -> list[str]:
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = [t for target in node.targets for t in _flat(target)]
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        targets = _flat(node.target)
    out = []
    for t in targets:
        if isinstance(t, ast.Subscript):
            t = t.value
        if isinstance(t, ast.Attribute) and t.attr in watched:
            out.append(t.attr)
    return out


def test_the_fpf_family_changes_a_ships_numbers_only_through_change_events() -> None:
    found = [
        line
        for path in FPF_FAMILY
        for line in assigned(path.read_text(encoding="utf-8"), str(path.relative_to(SRC)))
        if not _allowed(line)
    ]
    assert found == [], f"set through battle.record(<Change>(...)) instead: {found}"


def _allowed(line: str) -> bool:
    """Whether an `assigned` finding ('file:line attr') lies in an ALLOWED function."""
    name, rest = line.split(":", 1)
    number = int(rest.split()[0])
    tree = ast.parse((SRC / name).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.FunctionDef)
            and (name, node.name) in ALLOWED
            and node.lineno <= number <= (node.end_lineno or node.lineno)
        ):
            return True
    return False


def test_no_rule_module_sets_a_place_or_a_number_outside_a_change() -> None:
    """Every rules package, the advanced game's included: a ship's place, control, fate and
    numbers are written only in a Change's apply, or in the ALLOWED places."""
    found = []
    for path in RULES:
        rel = str(path.relative_to(SRC))
        # the advanced game keeps its own shields, power and evasion (rules/advanced/state.py):
        # of the FPF ship's numbers it changes the superstructure
        watched = ADVANCED if rel.startswith("rules/advanced/") else NUMBERS | PLACE
        for line in writes(path.read_text(encoding="utf-8"), rel, watched):
            _, function, _ = line.split(" ")
            if (rel, function) not in ALLOWED:
                found.append(line)
    assert found == [], f"set through battle.record(<Change>(...)) instead: {found}"


def test_the_door_check_sees_a_move_outside_a_change() -> None:
    source = (
        "class Moved:\n    def apply(self, battle):\n        battle.ship.x = 1\n"
        "def turn(ship):\n    ship.heading = 2\n    ship.x, ship.y = 0, 1\n"
    )
    assert writes(source, "s", PLACE) == ["s:5 turn heading", "s:6 turn x", "s:6 turn y"]


def test_the_check_sees_an_assignment() -> None:
    source = "def f(ship):\n    ship.shields -= 1\n    ship.x, ship.tokens = 0, 1\n"
    assert assigned(source, "sample") == ["sample:2 shields", "sample:3 tokens"]


def change_kinds() -> set[str]:
    return {
        name
        for module in (engine_events, ev, ae, te)
        for name, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, Change) and cls is not Change
    }


def test_no_change_is_logged_without_being_applied() -> None:
    kinds = change_kinds()
    assert {"HitScored", "Repaired", "CardUsed", "ShipReset", "ShipReturned"} <= kinds
    assert {"ShipMoved", "ControlChanged", "FormationLeft", "ShipDestroyed"} <= kinds
    assert {"Evaded", "BonusRolled", "DamageDealt"} <= kinds
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "note"
                and node.args
                and isinstance(node.args[0], ast.Attribute | ast.Name)
            ):
                first = node.args[0]
                name = first.attr if isinstance(first, ast.Attribute) else first.id
                if name in kinds:
                    found.append(f"{path.relative_to(SRC)}:{node.lineno} {name}")
    assert found == [], f"log a change with battle.change or battle.record: {found}"


def test_only_the_battle_appends_to_its_log() -> None:
    """`EventLog.append` and `add` log without applying: only the battle calls them (note,
    change, record), so no rule can log a change it did not make."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = str(path.relative_to(SRC))
        if rel in ("engine/battle.py", "engine/eventlog.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "add", "record")
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "log"
                and not (  # an object's own list called log (the replay's lines)
                    isinstance(node.func.value.value, ast.Name)
                    and node.func.value.value.id == "self"
                )
            ):
                found.append(f"{rel}:{node.lineno}")
    assert found == [], f"log through the battle (note, change, record): {found}"


#: what a ship's changes set: its place (on the table), and its numbers, control and fate
REBUILT = ("superstructure", "shields", "engine_power", "systems", "tokens", "in_control")
FATE = ("destroyed", "derelict", "out_of_play", "detached")
PLACED = ("x", "y", "heading", "speed")


def _played(scenario: str, seed: int, fleets: tuple[str, str]) -> tuple[Battle, Battle]:
    """A battle played to its end (random against aggressive), and a fresh one of the same
    setup, started (which sets up a module's own state) but not played."""
    pair = (load_fleet(f"presets:{fleets[0]}"), load_fleet(f"presets:{fleets[1]}"))
    names = ("random", "aggressive")
    battle = new_battle(builtin_scenario(scenario), pair, seed, names)
    captains = {s: make_captain(n, captain_dice(seed, s)) for s, n in zip("AB", names, strict=True)}
    views = {s: battle.rules.view(battle, s) for s in "AB"}
    decision = rules.start(battle)
    while decision is not None:
        decision = rules.apply(
            battle, captains[decision.side].decide(views[decision.side], decision)
        )
    fresh = new_battle(builtin_scenario(scenario), pair, seed, names)
    rules.start(fresh)
    return battle, fresh


@pytest.mark.parametrize(
    ("scenario", "fleets"),
    [
        ("standard", ("federation-cruisers", "klingon-wolfpack")),
        ("peak-performance", ("federation-cruisers", "klingon-wolfpack")),
        ("advanced", ("federation-cruisers", "klingon-wolfpack")),
        ("nebula-ambush", ("federation-cruisers", "klingon-wolfpack")),
        ("black-hole", ("federation-cruisers", "klingon-wolfpack")),
        ("web-trap", ("tholian-weavers", "federation-cruisers")),
    ],
)
def test_the_logs_changes_make_the_battle_again(scenario: str, fleets: tuple[str, str]) -> None:
    """The log holds what the battle became: a fresh battle of the same setup, given only the
    log's Change events (each applied, no rule run), ends with every ship's numbers, control and
    fate as the battle's, and every ship on the table where the battle's is (to the log's
    0.001 cm). A ship taken out during its move leaves play where it was hit, which no change
    says: its place is not compared."""
    for seed in range(3):
        battle, fresh = _played(scenario, seed, fleets)
        for event in battle.events():
            if isinstance(event, Change):
                event.apply(fresh)
        for sid, ship in battle.ships.items():
            made = fresh.ships[sid]
            where = f"{scenario} seed {seed} {sid}"
            for name in (*REBUILT, *FATE):
                assert getattr(made, name) == getattr(ship, name), f"{where} {name}"
            if ship.on_table:
                assert made.heading == ship.heading, where
                assert made.speed == ship.speed, where
                assert made.x == pytest.approx(ship.x, abs=0.0011), where
                assert made.y == pytest.approx(ship.y, abs=0.0011), where
