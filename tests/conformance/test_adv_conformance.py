"""Conformance of the advanced game: seeded battles between the built-in captains (the random
fuzzer among them), each log checked event by event against the rules' invariants, and one seed
giving one log.

`check` trusts only the log and the advanced sheets: it rebuilds each ship's superstructure,
casualties and movement allowance from the events and reports every invariant a log breaks. The
quick tests feed it logs with one fact falsified, to show each invariant can fail.
"""

from __future__ import annotations

import re
from collections import Counter
from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from kolrami.catalog import builtin_pack
from kolrami.catalog.advanced import AdvancedSheet
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.fleet import fpf_preset_names
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced import tactics_events as te
from kolrami.rules.advanced.boarding import BOARDERS_A_PHASE
from kolrami.rules.advanced.orders import action_verb
from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.state import state_of
from kolrami.rules.registry import read_log
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

EPS = 0.01
CAPTAINS = [
    ("random", "random"),
    ("aggressive", "random"),
    ("random", "kiting"),
    ("aggressive", "kiting"),
    ("kiting", "aggressive"),
]
RULES: list[tuple[str, ...]] = [
    (),
    ("adv-shield-reinforcement",),
    ("derelicts",),
    ("adv-cloak",),
    ("adv-cloak", "adv-warp-limit", "adv-shield-reinforcement"),
]
RATING_RANGE = {"normal": (48, 75), "replacement": (43, 70)}


def _allowance(moves: int, phase: int) -> int:
    return moves * phase // PHASES - moves * (phase - 1) // PHASES


def check(events: list[ev.Event]) -> list[str]:
    """Every invariant the log breaks, as 'key: detail' lines (empty when the log is sound)."""
    problems: list[str] = []

    def bad(key: str, detail: str) -> None:
        problems.append(f"{key}: {detail}")

    header = events[0]
    assert isinstance(header, ev.BattleStarted)
    hex_cm = int(header.header["scenario"].get("hex_cm", 4))
    pack, fpf = advanced_pack(), builtin_pack()
    sheets: dict[str, AdvancedSheet] = {}
    max_ss: dict[str, int] = {}
    ss: dict[str, int] = {}
    crew: dict[str, int] = {}
    taken: dict[str, int] = defaultdict(int)
    dead: set[str] = set()
    dead_phase: dict[str, tuple[int, int]] = {}
    moves: dict[str, int] = {}
    moved_in: set[tuple[int, int, str]] = set()
    attack_at: dict[tuple[int, int, str, str], set[tuple[int, ...]]] = defaultdict(set)
    weapon_used: dict[tuple[int, str, int], set[tuple[int, str]]] = defaultdict(set)
    hidden: set[str] = set()  # cloaked now (ADV-CLOAK-01)
    captured: set[str] = set()  # taken by boarders (ADV-BRD-06, ADV-BRD-09)
    no_fire: set[tuple[int, int, str]] = set()  # transported or docking (ADV-TRANS-02)
    turn = phase = 0
    if not isinstance(events[-1], ev.BattleEnded):
        bad("plays", "the log does not end with battle_ended")
    for e in events:
        if isinstance(e, ev.ShipPlaced):
            cls = fpf.get(e.cls)
            sheets[e.ship] = pack.sheet(cls)
            ss[e.ship] = max_ss[e.ship] = cls.superstructure
            crew[e.ship] = sheets[e.ship].crew
        elif isinstance(e, ev.TurnStarted):
            turn, phase = e.turn, 0
        elif isinstance(e, ae.PhaseStarted):
            phase = e.phase
        elif isinstance(e, ae.OfficersAssigned):
            for role, skills in e.officers.items():
                for skill, value in skills.items():
                    lo, hi = RATING_RANGE["normal"]
                    if skill == "cloak_tech":
                        base = pack.species[sheets[e.ship].species].cloak_tech_base or 45
                        lo, hi = base + 3, base + 30
                    if not lo <= value <= hi:
                        bad("ratings", f"{e.ship} {role} {skill} {value} outside {lo}-{hi}")
        elif isinstance(e, ae.OfficerShaken):
            if e.replacement is not None:
                for skill, value in e.replacement.items():
                    lo, hi = RATING_RANGE["replacement"]
                    if skill != "cloak_tech" and not lo <= value <= hi:
                        bad("ratings", f"{e.ship} replacement {skill} {value} outside {lo}-{hi}")
        elif isinstance(e, ae.PowerAllocated):
            sheet = sheets[e.ship]
            if e.cost > e.available:
                bad("power", f"{e.ship} allocates {e.cost} of {e.available}")
            if e.available > sheet.total_power + 2:
                bad("power", f"{e.ship} has {e.available} power, more than its engines and bonus")
            m = re.match(r"M(\d+)/", e.plan)
            moves[e.ship] = int(m.group(1)) if m else 0
            _facings(bad, e.ship, sheet, e.base, e.reinforcement)
        elif isinstance(e, ae.PowerCut):
            for item in e.cut:
                m = re.match(r"(\d+) hex(es)? of movement", item)
                if m:
                    moves[e.ship] = moves.get(e.ship, 0) - int(m.group(1))
        elif isinstance(e, ae.ShieldsRedistributed):
            _facings(bad, e.ship, sheets[e.ship], e.base, [0] * 6)
        elif isinstance(e, ev.ShipMoved):
            if e.ship in dead:
                bad("destroyed", f"{e.ship} moves after its destruction")
            if e.distance == 0:
                continue  # an evasion's turn on the spot
            key = (turn, phase, e.ship)
            if key in moved_in:
                bad("move-once", f"{e.ship} moves twice in phase {turn}.{phase}")
            moved_in.add(key)
            cap = _allowance(moves.get(e.ship, 0), phase) * hex_cm
            if e.distance > cap + EPS:
                bad("move-cap", f"{e.ship} moves {e.distance} cm in {turn}.{phase}, cap {cap}")
        elif isinstance(e, ae.CloakChanged):
            if e.hidden and not sheets[e.ship].cloak:
                bad("cloak", f"{e.ship} cloaks without a cloaking device")
            (hidden.add if e.hidden else hidden.discard)(e.ship)
        elif isinstance(e, ae.SensorLock):
            if e.roll and e.locked and e.target in hidden:
                bad("cloak-lock", f"{e.ship} locks on cloaked {e.target} without a search")
        elif isinstance(e, ae.CloakSearch):
            if e.locked and not (e.passed and e.moved and e.d10 + e.d10_modifier <= e.needed):
                bad("cloak-lock", f"{e.ship} locks on {e.target}: {e}")
            if e.locked and e.target not in hidden:
                bad("cloak-lock", f"{e.ship} searched out {e.target}, which is not cloaked")
        elif isinstance(e, ae.CloakPinged):
            if e.pinged and not (e.moved and e.d10 <= e.needed):
                bad("cloak-ping", f"{e.ship} pings {e.target}: {e}")
        elif isinstance(e, ae.DispersalRolled):
            if e.ship in hidden:
                bad("cloak-fire", f"{e.ship} fires a dispersal torpedo while cloaked")
            if e.hit and e.target not in hidden:
                bad("cloak", f"a dispersal torpedo catches {e.target}, which is not cloaked")
        elif isinstance(e, te.Beamed | te.Docked):
            no_fire.add((turn, phase, e.ship))
            if isinstance(e, te.Beamed) and not 0 < e.people <= BOARDERS_A_PHASE:
                bad("boarding", f"{e.ship} beams {e.people} across in one phase")
        elif isinstance(e, te.SelfDestructed | te.BlastDamage | te.DockRepaired):
            if e.ship in dead:
                bad("destroyed", f"{e.ship} changes after its destruction: {e.kind}")
            if e.superstructure > max_ss[e.ship] or e.superstructure < 0:
                bad("superstructure", f"{e.ship} at {e.superstructure} after {e.kind}")
            if isinstance(e, te.BlastDamage) and e.superstructure != max(0, ss[e.ship] - e.damage):
                bad("superstructure", f"{e.ship} blast {e.damage} from {ss[e.ship]}")
            ss[e.ship] = e.superstructure
        elif isinstance(e, te.ShipCaptured):
            captured.add(e.ship)
        elif isinstance(e, te.SectionFought):
            if e.taken_all - taken[e.target] != e.kills or e.casualties > crew[e.target]:
                bad("boarding", f"{e.target}: {e.kills} killed, taken {e.taken_all}")
            if e.kills + e.lost > e.boarders + e.defenders or e.left != e.boarders - e.lost:
                bad("boarding", f"{e.target}: {e.boarders} boarders, {e.lost} lost, {e.left} left")
            taken[e.target] = e.taken_all
        elif isinstance(e, ae.AttackRolled):
            if (turn, phase, e.ship) in no_fire:
                bad("transport-fire", f"{e.ship} fires in {turn}.{phase}, the phase it beamed")
            if e.ship in hidden:
                bad("cloak-fire", f"{e.ship} fires while cloaked in phase {turn}.{phase}")
            if e.ship in dead and dead_phase.get(e.ship) != (turn, phase):
                bad("destroyed", f"{e.ship} fires after the phase it was destroyed in")
            if e.target in dead:
                bad("destroyed", f"{e.target} is shot at after its destruction")
            weapons = tuple(e.weapons)
            attack_at[(turn, phase, e.ship, e.target)].add(weapons)
            for w in weapons:
                weapon_used[(turn, e.ship, w)].add((phase, e.target))
            sheet = sheets[e.ship]
            ws = [sheet.weapons[w] for w in weapons]
            reach = min(w.range_cm for w in ws)
            if e.needed not in (0, 4, 6, 8) or (e.needed > 0) != (e.range_cm <= reach + EPS):
                bad("to-hit", f"{e.ship} needs {e.needed} at {e.range_cm} cm (reach {reach})")
            if e.hit != (e.needed > 0 and e.roll + e.modifier <= e.needed):
                bad("to-hit", f"{e.ship} roll {e.roll}{e.modifier:+d} vs {e.needed}: hit={e.hit}")
            if e.hit and ws[0].beam and e.damage > sum(w.power for w in ws):
                bad("damage", f"{e.ship} beam damage {e.damage} above its banks' power")
            if e.hit and not ws[0].beam and e.damage != ws[0].damage:
                bad("damage", f"{e.ship} torpedo damage {e.damage}, sheet {ws[0].damage}")
        elif isinstance(e, ae.DamageDealt):
            if e.target in dead:
                bad("destroyed", f"{e.target} is hit after its destruction")
            if e.absorbed + e.through != e.damage or e.absorbed < 0:
                bad("shields", f"{e.target}: {e.absorbed} absorbed + {e.through} through")
            expected = ss[e.target] - e.through - (1 if e.aimed else 0)
            if e.superstructure != expected:
                bad("superstructure", f"{e.target} at {e.superstructure}, expected {expected}")
            ss[e.target] = e.superstructure
            sheet = sheets[e.target]
            if e.base + e.reinforcement > 2 * sheet.shield_points:
                bad("facing", f"{e.target} facing {e.facing} above 200%")
        elif isinstance(e, ae.Evaded):
            if e.turn not in (-1, 1):
                bad("evasion", f"{e.ship} turns {e.turn}")
            if e.superstructure != ss[e.ship] - 1:
                bad("superstructure", f"{e.ship} evasion stress: {e.superstructure}")
            ss[e.ship] = e.superstructure
        elif isinstance(e, ae.BonusRolled):
            if e.superstructure < ss[e.ship] or e.superstructure > max_ss[e.ship]:
                bad("superstructure", f"{e.ship} repaired to {e.superstructure}")
            ss[e.ship] = e.superstructure
            if e.outcome in ("failure", "critical") and e.effect:
                bad("checks", f"{e.ship} failed {e.choice} yet '{e.effect}'")
        elif isinstance(e, ae.CasualtiesTaken):
            taken[e.ship] += e.amount
            if e.casualties > crew[e.ship]:
                bad("casualties", f"{e.ship} {e.casualties} out of a crew of {crew[e.ship]}")
            if e.fatalities != taken[e.ship] * 15 // 100:
                bad("casualties", f"{e.ship} {e.fatalities} dead of {taken[e.ship]} taken")
        elif isinstance(e, ev.ShipDestroyed):
            if ss[e.ship] > 0 and e.ship not in captured:
                bad("destroyed", f"{e.ship} destroyed at superstructure {ss[e.ship]}")
            dead.add(e.ship)
            dead_phase[e.ship] = (turn, phase)
    for ship, value in ss.items():
        if value <= 0 and ship not in dead:
            bad("destroyed", f"{ship} at superstructure {value} was never destroyed")
    for (t, p, ship, target), sets in attack_at.items():
        if sheets[ship].max_moves == 0 and len(sets) == 2:
            kinds = {sheets[ship].weapons[w[0]].beam for w in sets}
            if len(kinds) == 2:
                continue  # a base's beam and missile together (ADV-SB-01)
        if len(sets) > 1:
            bad("fire-once", f"{ship} fires {sorted(sets)} at {target} in phase {t}.{p}")
    targets: dict[tuple[int, int, str], set[str]] = defaultdict(set)
    for t, p, ship, target in attack_at:
        targets[(t, p, ship)].add(target)
    for (t, p, ship), hit in targets.items():
        if len(hit) > 4 and sheets[ship].max_moves > 0:  # a base: any number (ADV-SB-01)
            bad("targets", f"{ship} engages {len(hit)} targets in phase {t}.{p}")
    for (t, ship, w), uses in weapon_used.items():
        if len(uses) > 1:
            bad("fire-once", f"{ship} w{w} fires {len(uses)} times in turn {t}")
    return problems


def _facings(bad: Any, ship: str, sheet: AdvancedSheet, base: list[int], reinf: list[int]) -> None:
    for f, (b, r) in enumerate(zip(base, reinf, strict=True), start=1):
        if b < 0 or r < 0:
            bad("facing", f"{ship} facing {f} negative: {b}+{r}")
        if b + r > 2 * sheet.shield_points:
            bad("facing", f"{ship} facing {f} at {b}+{r}, above 200% of {sheet.shield_points}")


def battles(count: int) -> list[Battle]:
    """`count` seeded advanced battles across presets, captain pairings and options."""
    sc = builtin_scenario("advanced")
    names = fpf_preset_names()
    out = []
    for seed in range(count):
        a = names[seed % len(names)]
        b = names[(seed // len(names) + 2) % len(names)]
        fleets = (load_fleet(f"presets:{a}"), load_fleet(f"presets:{b}"))
        captains = CAPTAINS[seed % len(CAPTAINS)]
        rules = RULES[(seed // len(CAPTAINS)) % len(RULES)]
        out.append(simulate(sc, fleets, captains, seed, extra_rules=rules))
    return out


def _state_invariants(b: Battle) -> list[str]:
    out = []
    for adv in state_of(b).ships.values():
        if adv.stores < 0:
            out.append(f"stores: {adv.id} has {adv.stores} torpedoes")
        if adv.engine_power > adv.sheet.total_power:
            out.append(f"power: {adv.id} engines above the sheet")
        if adv.casualties < 0 or adv.casualties > adv.sheet.crew:
            out.append(f"casualties: {adv.id} {adv.casualties}")
    return out


def checked_events(played: Iterable[tuple[Battle, list[str]]]) -> Iterator[ev.Event]:
    """Every event of each battle, in order, once its log and its end state pass the checks and
    nothing was found while it was played (`played`: each battle and what was found then)."""
    for b, found in played:
        events = list(b.events())
        problems = found + check(events) + _state_invariants(b)
        assert not problems, (b.seed, problems[:5])
        yield from events


@pytest.mark.slow
@pytest.mark.rule(
    "ADV-OFF-01",
    "ADV-OFF-04",
    "ADV-POW-01",
    "ADV-SHLD-05",
    "ADV-CAS-01",
    "ADV-FIRE-01",
    "ADV-FIRE-02",
    "ADV-SEQ-02",
    "ADV-TORP-01",
)
def test_seeded_advanced_battles_keep_the_invariants(sample: int) -> None:
    seen = Counter(type(e).__name__ for e in checked_events((b, []) for b in battles(30 * sample)))
    # the sample really exercises the rules
    for kind in ("DamageDealt", "Evaded", "ShipDestroyed", "OfficerShaken", "CasualtiesRecovered"):
        assert seen[kind] > 0, kind


class Watcher:
    """A captain that plays like `inner` and, at every decision, checks what its view shows of
    cloaked enemies against the referee's state (a captain sees only what its side may know)."""

    def __init__(self, inner: Any, battle: Battle, problems: list[str]) -> None:
        self.inner = inner
        self.name = inner.name
        self.battle = battle
        self.problems = problems

    def decide(self, view: Any, decision: Any) -> Any:
        state = state_of(self.battle)
        adv = view.advanced()
        seen = {s.id for s in view.enemies()} | {c.id for c in adv.contacts()}
        for a in state.ships.values():
            if a.side == view.side or not a.alive:
                continue
            pinged = any(state.of(p).side == view.side for p in a.pinged_by)
            allowed = not a.hidden or a.venting or a.reveal > 0 or pinged
            if a.id in seen and not allowed:
                self.problems.append(f"cloak-view: {view.side} sees cloaked {a.id}")
            if a.id not in seen and allowed:
                self.problems.append(f"cloak-view: {view.side} misses visible {a.id}")
            if a.hidden and adv.known(a.id) is not None:
                self.problems.append(f"cloak-view: {view.side} reads cloaked {a.id}'s sheet")
        return self.inner.decide(view, decision)


def cloak_battles(count: int) -> list[tuple[Battle, list[str]]]:
    """`count` seeded battles of the Klingon raiders (Birds of Prey: cloaks) with the cloak
    module on, every captain watched."""
    from kolrami.captains import make_captain
    from kolrami.engine.chance import Dice
    from kolrami.engine.chance import derive_seed
    from kolrami.engine.driver import run

    sc = builtin_scenario("advanced")
    names = [n for n in fpf_preset_names() if n != "klingon-raiders"]
    out = []
    for seed in range(count):
        other = load_fleet(f"presets:{names[seed % len(names)]}")
        raiders = load_fleet("presets:klingon-raiders")
        fleets = (raiders, other) if seed % 2 else (other, raiders)
        captains = CAPTAINS[seed % len(CAPTAINS)]
        rules = RULES[3 + seed % 2]
        b = new_battle(sc, fleets, seed, captains, extra_rules=rules)
        problems: list[str] = []
        players = {
            side: Watcher(make_captain(n, Dice(derive_seed(seed, "captain", side))), b, problems)
            for side, n in zip("AB", captains, strict=True)
        }
        run(b, players)
        out.append((b, problems))
    return out


@pytest.mark.slow
@pytest.mark.rule(
    "ADV-CLOAK-01",
    "ADV-CLOAK-02",
    "ADV-CLOAK-03",
    "ADV-CLOAK-04",
    "ADV-SENS-02",
    "ADV-OFF-09",
    "ADV-OFF-10",
)
def test_seeded_cloak_battles_keep_the_invariants(sample: int) -> None:
    seen: defaultdict[str, int] = defaultdict(int)
    for e in checked_events(cloak_battles(12 * sample)):
        seen[type(e).__name__] += 1
        if isinstance(e, ae.CloakSearch) and e.locked:
            seen["search locked"] += 1
        if isinstance(e, ae.CloakPinged) and e.pinged:
            seen["pinged"] += 1
    for kind in ("CloakChanged", "CloakSearch", "CloakPinged", "search locked"):
        assert seen[kind] > 0, (kind, dict(seen))


TACTICS_FLEETS = {
    "starbase-assault": [
        ("federation-starbase", "klingon-wolfpack"),
        ("klingon-outpost", "federation-cruisers"),
    ],
    "boarding-action": [
        ("gorn-hunters", "klingon-wolfpack"),
        ("federation-cruisers", "orion-raiders"),
    ],
}
TACTICS_VERBS = {"tractor", "release", "escape", "board", "dock", "undock", "crew", "destruct"}


def tactics_battles(count: int) -> list[Battle]:
    """`count` seeded battles of each tactics scenario, the fuzzer and the doctrines playing."""
    out = []
    for name, pairs in TACTICS_FLEETS.items():
        sc = builtin_scenario(name)
        for seed in range(count):
            a, b = pairs[seed % len(pairs)]
            fleets = (load_fleet(f"presets:{a}"), load_fleet(f"presets:{b}"))
            captains = CAPTAINS[seed % len(CAPTAINS)]
            out.append(simulate(sc, fleets, captains, seed))
    return out


@pytest.mark.slow
@pytest.mark.rule(
    "ADV-TRANS-02",
    "ADV-BRD-01",
    "ADV-SB-01",
    "ADV-SD-01",
)
def test_seeded_tactics_battles_keep_the_invariants_and_the_fuzzer_reaches_every_order(
    sample: int,
) -> None:
    chosen: defaultdict[str, int] = defaultdict(int)
    seen: defaultdict[str, int] = defaultdict(int)
    for e in checked_events((b, []) for b in tactics_battles(20 * sample)):
        seen[e.kind] += 1
        if isinstance(e, ev.OrderGiven) and e.order.startswith("TACTICS "):
            for action in e.order.split()[1:]:
                if action != "NONE":
                    chosen[action_verb(action)] += 1
    missing = TACTICS_VERBS - set(chosen)
    assert not missing, f"no captain ever chose {sorted(missing)}: {dict(chosen)}"
    for kind in ("towed", "section_fought", "docked", "dock_repaired", "blast_damage"):
        assert seen[kind] > 0, (kind, dict(seen))


@cache
def _battle_log() -> tuple[ev.Event, ...]:
    sc = builtin_scenario("advanced")
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    return tuple(simulate(sc, fleets, ("aggressive", "aggressive"), 3).events())


def _one() -> list[ev.Event]:
    """A sound log with every kind of event the falsification tests change."""
    return list(_battle_log())


def test_a_sound_log_passes() -> None:
    assert check(_one()) == []


def _falsify(events: list[ev.Event], kind: type[ev.Event], **changes: Any) -> list[ev.Event]:
    out = list(events)
    for i, e in enumerate(out):
        if isinstance(e, kind):
            out[i] = replace(e, **changes)
            return out
    raise AssertionError(f"no {kind.__name__} in the log")


@pytest.mark.parametrize(
    ("kind", "changes", "key"),
    [
        (ae.PowerAllocated, {"cost": 999}, "power"),
        (ae.PowerAllocated, {"base": [40, 0, 0, 0, 0, 0]}, "facing"),
        (ae.OfficersAssigned, {"officers": {"helm": {"weapons": 80}}}, "ratings"),
        (ae.DamageDealt, {"superstructure": 1}, "superstructure"),
        (ae.AttackRolled, {"hit": True, "roll": 10, "modifier": 0}, "to-hit"),
        (ev.ShipMoved, {"distance": 41.0}, "move-cap"),
        (ae.CasualtiesTaken, {"fatalities": 99}, "casualties"),
    ],
)
def test_each_invariant_can_fail(kind: type[ev.Event], changes: dict[str, Any], key: str) -> None:
    problems = check(_falsify(_one(), kind, **changes))
    assert any(p.startswith(key) for p in problems), problems


def test_one_seed_one_log() -> None:
    sc = builtin_scenario("advanced")
    fleets = (load_fleet("presets:klingon-strike"), load_fleet("presets:federation-venture"))
    for captains in (("random", "random"), ("aggressive", "kiting")):
        first = simulate(sc, fleets, captains, 21)
        again = simulate(sc, fleets, captains, 21)
        other = simulate(sc, fleets, captains, 22)
        assert first.log.jsonl() == again.log.jsonl()
        assert first.log.sha256() != other.log.sha256()


def test_an_advanced_log_reads_back_and_replays() -> None:
    from kolrami.captains import make_captain
    from kolrami.engine.chance import Dice
    from kolrami.engine.chance import derive_seed
    from kolrami.engine.driver import run
    from kolrami.rules import rebuild

    sc = builtin_scenario("advanced").model_copy(update={"turn_limit": 3})
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    b = simulate(sc, fleets, ("kiting", "random"), 5, extra_rules=("adv-shield-reinforcement",))
    text = b.log.jsonl()
    events = read_log(text)
    assert [e.to_json() for e in events] == [e.to_json() for e in b.events()]
    header = events[0]
    assert isinstance(header, ev.BattleStarted)
    scenario, fl, names, seed, extra = rebuild(header.header)
    again = new_battle(scenario, fl, seed, names, extra_rules=extra)
    captains = {
        side: make_captain(n, Dice(derive_seed(seed, "captain", side)))
        for side, n in zip("AB", names, strict=True)
    }
    run(again, captains)
    assert again.log.jsonl() == text


@pytest.mark.slow
@pytest.mark.parametrize("rules", [(), ("adv-cloak", "adv-warp-limit")])
@pytest.mark.parametrize("doctrine", ["aggressive", "kiting"])
def test_the_doctrines_beat_random_in_nine_equal_battles_of_ten(
    doctrine: str, rules: tuple[str, ...], sample: int
) -> None:
    """Mirror matches (the same fleet both sides), each doctrine on each side; with the cloak
    and warp-limit options too (the Klingon raiders' Birds of Prey cloak)."""
    sc = builtin_scenario("advanced")
    names = [p for p in fpf_preset_names() if not p.endswith("-fleet")]
    won = played = 0
    for seed in range(10 * sample):
        fleet = load_fleet(f"presets:{names[seed % len(names)]}")
        for side, captains in (("A", (doctrine, "random")), ("B", ("random", doctrine))):
            b = simulate(sc, (fleet, fleet), captains, seed, extra_rules=rules)
            assert b.result is not None
            won += b.result.winner == side
            played += 1
    assert won >= 0.9 * played, f"{doctrine} won {won} of {played}"
