"""Fire in the advanced game: arcs and facings (ADV-ARC), targets and banks (ADV-FIRE), disruptor
pairs (ADV-DIS), aimed beams (ADV-LOCK), the targeting subsystem (ADV-TGT), evasion (ADV-EVA) and
torpedo stores (ADV-TORP)."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import arm
from adv_kit import events_of
from adv_kit import officers_at
from adv_kit import put
from adv_kit import table

from kolrami.catalog.advanced import DEFAULT_CHART
from kolrami.catalog.advanced import AdvLocation
from kolrami.catalog.models import Arc
from kolrami.engine.battle import Battle
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.checks import Outcome
from kolrami.rules.advanced.combat import deal
from kolrami.rules.advanced.combat import declare
from kolrami.rules.advanced.combat import evade
from kolrami.rules.advanced.combat import evasion_candidates
from kolrami.rules.advanced.combat import fire
from kolrami.rules.advanced.combat import legal_attacks
from kolrami.rules.advanced.combat import resolve
from kolrami.rules.advanced.combat import shifted_row
from kolrami.rules.advanced.combat import tgt_rows
from kolrami.rules.advanced.combat import verify_attacks
from kolrami.rules.advanced.combat import verify_evasions
from kolrami.rules.advanced.geometry import arc_bits
from kolrami.rules.advanced.geometry import bears
from kolrami.rules.advanced.geometry import facing_of_bearing
from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.geometry import in_arc
from kolrami.rules.advanced.geometry import mount_code
from kolrami.rules.advanced.geometry import weapon_bears
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.orders import AttackDecision
from kolrami.rules.advanced.orders import AttackOrder
from kolrami.rules.advanced.orders import EvadeDecision
from kolrami.rules.advanced.orders import EvadeOrder
from kolrami.rules.advanced.state import AdvancedState
from scene_kit import place_all


def _attack(state: AdvancedState, side: str, *attacks: Attack) -> None:
    ships = tuple(a.id for a in state.side(side))
    verify_attacks(state, AttackDecision(side, 1, ships), AttackOrder(attacks))


def _duel(a: str = "reliant", b: str = "ktroika") -> tuple[Battle, AdvancedState]:
    """A1 at (50, 40) heading up the table; B1 20 cm ahead, bow to bow; both armed."""
    battle, state = table([a], [b])
    place_all(battle, "A1 50,40 h0; B1 50,60 h3")
    arm(battle, state, "A1")
    arm(battle, state, "B1")
    return battle, state


# --- arcs and facings ---------------------------------------------------------------------------


@pytest.mark.rule("ADV-ARC-04")
@pytest.mark.parametrize(
    ("bearing", "facing"),
    [
        (0, 2),
        (29.9, 2),
        (30, 1),
        (60, 1),
        (90, 6),
        (120, 6),
        (180, 5),
        (240, 4),
        (300, 3),
        (330, 2),
    ],
)
def test_facings_are_numbered_from_forward_port(bearing: float, facing: int) -> None:
    assert facing_of_bearing(bearing) == facing


@pytest.mark.rule("ADV-ARC-04")
def test_the_facing_a_shot_strikes_faces_the_firer() -> None:
    assert facing_toward(50, 60, 3, 50, 40) == 2  # bow on
    assert facing_toward(50, 60, 0, 50, 40) == 5  # from astern
    assert facing_toward(50, 60, 0, 30, 60) == 6  # from port abeam (90 degrees: aft-port)
    assert facing_toward(50, 60, 0, 70, 62) == 3  # from starboard, a little ahead


@pytest.mark.rule("ADV-ARC-01")
def test_forward_and_aft_arcs_are_fpf_s() -> None:
    for bearing in (0, 44, 316, 45, 315):
        assert in_arc(Arc.F, bearing)
    assert not in_arc(Arc.F, 46)
    for bearing in (135, 180, 225):
        assert in_arc(Arc.A, bearing)
    assert not in_arc(Arc.A, 134)


@pytest.mark.rule("ADV-ARC-02")
def test_side_arcs_are_narrower_than_fpf_s() -> None:
    # port: between the lines out through hexsides 1 and 6 (60-120); FPF's port arc is 45-135
    assert in_arc(Arc.P, 60)
    assert in_arc(Arc.P, 90)
    assert in_arc(Arc.P, 120)
    assert not in_arc(Arc.P, 55)
    assert not in_arc(Arc.P, 125)
    assert in_arc(Arc.S, 270)
    assert not in_arc(Arc.S, 235)
    # a forward/port weapon covers the union of the two
    assert weapon_bears((Arc.F, Arc.P), 100)
    assert not weapon_bears((Arc.F, Arc.P), 50)


@pytest.mark.rule("ADV-ARC-03")
def test_rotating_mounts_fire_everywhere_but_aft() -> None:
    pod = (Arc.F, Arc.P, Arc.S)
    for bearing in (0, 50, 100, 130, 230, 280):
        assert weapon_bears(pod, bearing)
    for bearing in (135, 180, 225):
        assert not weapon_bears(pod, bearing)
    assert weapon_bears((Arc.F, Arc.P, Arc.S, Arc.A), 180)  # rated all four: all round


@pytest.mark.rule("ADV-ARC-01", "ADV-ARC-02", "ADV-ARC-03")
def test_mount_codes_and_arc_bits_answer_as_weapon_bears() -> None:
    # the captains' precomputed form of the same test, for every set of arcs a sheet can rate,
    # at every half degree and just either side of each arc's edges
    edges = (45.0, 60.0, 120.0, 135.0, 225.0, 240.0, 300.0, 315.0)
    bearings = [h / 2 for h in range(-720, 1440)]
    bearings += [e + d for e in edges for d in (-1e-9, 0.0, 1e-9)]
    every = (Arc.F, Arc.P, Arc.S, Arc.A)
    for mask in range(1, 16):
        arcs = tuple(a for n, a in enumerate(every) if mask >> n & 1)
        mount = mount_code(arcs)
        for bearing in bearings:
            assert bears(mount, arc_bits(bearing)) == weapon_bears(arcs, bearing), (arcs, bearing)


@pytest.mark.rule("ADV-ARC-02", "ADV-FIRE-01")
def test_a_target_outside_the_arc_cannot_be_engaged() -> None:
    b, state = _duel()
    put(b, "B1", 38, 50, 3)  # bearing about 50 degrees: neither forward nor the port arc
    with pytest.raises(IllegalOrderError, match="side arcs 60-120"):
        _attack(state, "A", Attack("A1", (2,), "B1"))


# --- targets and banks --------------------------------------------------------------------------


@pytest.mark.rule("ADV-FIRE-01")
def test_one_bank_per_target_per_phase_and_each_weapon_once_a_turn() -> None:
    b, state = _duel()
    with pytest.raises(IllegalOrderError, match=r"one bank .* per target per phase"):
        _attack(state, "A", Attack("A1", (0,), "B1"), Attack("A1", (1,), "B1"))
    with pytest.raises(IllegalOrderError, match="w0 fires once"):
        _attack(state, "A", Attack("A1", (0,), "B1"), Attack("A1", (0,), "B1"))
    put(b, "B1", 50, 52, 3)  # in reach of everything
    with pytest.raises(IllegalOrderError, match="one weapon, or one disruptor pair"):
        _attack(state, "A", Attack("A1", (0, 1, 2), "B1"))
    state.of("A1").fired[0] = True
    with pytest.raises(IllegalOrderError, match="already fired this turn"):
        _attack(state, "A", Attack("A1", (0,), "B1"))
    assert all(0 not in w for w, _ in legal_attacks(state, state.of("A1")))


@pytest.mark.rule("ADV-FIRE-02", "ADV-OFF-06")
def test_two_targets_a_phase_more_with_the_helmsman() -> None:
    b, state = table(["enterprise"], ["ktroika", "ktroika", "ktroika", "ktroika"])
    put(b, "A1", 90, 40, 0)
    for i, x in enumerate((80, 87, 94, 101), start=1):
        put(b, f"B{i}", x, 58, 3)
    adv = arm(b, state, "A1")
    three = [Attack("A1", (i,), f"B{i + 1}") for i in range(3)]
    four = [*three, Attack("A1", (3,), "B4")]
    _attack(state, "A", *three[:2])
    with pytest.raises(IllegalOrderError, match="engages 3 targets; 2 allowed"):
        _attack(state, "A", *three)
    adv.extra_targets = 2  # an exceptional Weapons bonus
    _attack(state, "A", *four)
    declare(state, adv, tuple(four))
    assert adv.extra_targets == 0  # both spent in one phase: a fourth target


@pytest.mark.rule("ADV-FIRE-03", "ADV-OFF-07")
def test_fire_without_a_lock_is_manual_and_needs_a_weapons_check() -> None:
    b, state = _duel()
    adv = state.of("A1")
    officers_at(adv, 60)
    b.dice = Loaded([61])  # the Weapons check fails: no to-hit roll follows
    fire(b, state, Attack("A1", (0,), "B1"))
    checks = events_of(b, ae.FireCheck)
    assert [(c.purpose, c.rating, c.passed) for c in checks] == [("manual fire", 60, False)]
    assert not events_of(b, ae.AttackRolled)
    assert adv.fired[0]  # the shot is spent
    adv.lock = "B1"
    b.dice = Loaded([9])  # with a lock: straight to the to-hit roll (a miss)
    fire(b, state, Attack("A1", (1,), "B1"))
    assert len(events_of(b, ae.FireCheck)) == 1
    assert events_of(b, ae.AttackRolled)[-1].needed == 4  # 20 cm of 24: the long band


def test_to_hit_numbers_by_range_band() -> None:
    _b, state = _duel()
    adv = state.of("A1")
    rules = state.rules
    w = adv.sheet.weapons[0]  # 24 cm
    assert [rules.to_hit_number(state, adv, w, d) for d in (5, 8, 9, 16, 17, 24, 25)] == [
        8,
        8,
        6,
        6,
        4,
        4,
        0,
    ]


# --- disruptor pairs --------------------------------------------------------------------------


@pytest.mark.rule("ADV-DIS-01")
def test_disruptors_pair_fore_fore_aft_aft_or_port_starboard_at_equal_power() -> None:
    b, state = _duel("reliant", "sting")  # Sting: two rotating disruptors mounted forward
    put(b, "B1", 50, 56, 3)  # within their 18 cm
    sting = state.of("B1")
    pair = Attack("B1", (0, 1), "A1")
    _attack(state, "B", pair)
    sting.power[1] = 2
    with pytest.raises(IllegalOrderError, match="same power"):
        _attack(state, "B", pair)
    sting.power[1] = 3
    w0, w1 = sting.sheet.weapons[0], sting.sheet.weapons[1]
    sting.sheet = sting.sheet.model_copy(
        update={"weapons": (w0.model_copy(update={"mount": Arc.P}), w1, *sting.sheet.weapons[2:])}
    )
    with pytest.raises(IllegalOrderError, match="not P\\+F"):
        _attack(state, "B", pair)
    sting.sheet = sting.sheet.model_copy(
        update={
            "weapons": (
                w0.model_copy(update={"mount": Arc.P}),
                w1.model_copy(update={"mount": Arc.S}),
                *sting.sheet.weapons[2:],
            )
        }
    )
    _attack(state, "B", pair)
    with pytest.raises(IllegalOrderError, match="only two disruptors"):
        _attack(state, "A", Attack("A1", (0, 1), "B1"))  # phasers do not pair


@pytest.mark.rule("ADV-DIS-01")
def test_a_pair_fires_as_one_attack_with_both_charges() -> None:
    b, state = _duel("reliant", "sting")
    put(b, "B1", 50, 56, 3)
    state.of("B1").lock = "A1"
    b.dice = Loaded([1, 10])  # hit; hull
    fire(b, state, Attack("B1", (0, 1), "A1"))
    rolled = events_of(b, ae.AttackRolled)
    assert len(rolled) == 1
    assert (rolled[0].weapons, rolled[0].damage, rolled[0].weapon) == ([0, 1], 6, "disruptor pair")


@pytest.mark.rule("ADV-DIS-02")
def test_heavy_disruptors_fire_only_together_in_one_burst() -> None:
    b, state = _duel("reliant", "drakonath")
    with pytest.raises(IllegalOrderError, match="only as a pair"):
        _attack(state, "B", Attack("B1", (0,), "A1"))
    _attack(state, "B", Attack("B1", (0, 1), "A1"))
    state.of("B1").lock = "A1"
    b.dice = Loaded([2, 10])
    fire(b, state, Attack("B1", (0, 1), "A1"))
    hit = events_of(b, ae.AttackRolled)[-1]
    assert (hit.damage, hit.weapon) == (12, "heavy-disruptor pair")
    assert ((0,), "A1") not in legal_attacks(state, state.of("B1"))


# --- aimed beams and the targeting subsystem ------------------------------------------------------


@pytest.mark.rule("ADV-LOCK-01", "ADV-LOCK-02")
def test_an_aimed_beam_that_passes_its_check_strikes_the_system_and_the_hull() -> None:
    b, state = _duel()
    adv = state.of("A1")
    officers_at(adv, 60)
    adv.lock = "B1"
    target = state.of("B1")
    target.shields_up = False
    b.dice = Loaded([40, 1])  # aim check passes; to-hit 1
    fire(b, state, Attack("A1", (0,), "B1", aim="impulse"))
    hit = events_of(b, ae.DamageDealt)[-1]
    assert hit.aimed
    assert hit.location == "impulse"
    assert hit.location_roll == 0
    assert target.ship.superstructure == 22 - 6 - 1  # +1 superstructure for an aimed hit
    assert target.impulse == target.sheet.impulse - 6


@pytest.mark.rule("ADV-LOCK-01")
def test_a_failed_aim_check_leaves_the_location_to_the_die() -> None:
    b, state = _duel()
    adv = state.of("A1")
    officers_at(adv, 60)
    adv.lock = "B1"
    state.of("B1").shields_up = False
    b.dice = Loaded([70, 4, 10])  # aim fails; to-hit 4 (needs 4: no undershoot); hull
    fire(b, state, Attack("A1", (0,), "B1", aim="w0"))
    hit = events_of(b, ae.DamageDealt)[-1]
    assert not hit.aimed
    assert hit.location == "hull"
    assert hit.shift == 0
    assert state.of("B1").ship.superstructure == 22 - 6


@pytest.mark.rule("ADV-LOCK-02")
@pytest.mark.parametrize("aim", ["sensors", "shield", "bridge", "w9", "nacelle"])
def test_sensors_and_shield_generators_cannot_be_aimed_at(aim: str) -> None:
    _, state = _duel()
    with pytest.raises(IllegalOrderError, match=r"aimed at|no system"):
        _attack(state, "A", Attack("A1", (0,), "B1", aim=aim))


@pytest.mark.rule("ADV-LOCK-02")
@pytest.mark.parametrize("aim", ["warp_port", "warp_starboard", "impulse", "w0", "w3"])
def test_nacelles_impulse_and_weapons_can_be_aimed_at(aim: str) -> None:
    _, state = _duel()
    _attack(state, "A", Attack("A1", (0,), "B1", aim=aim))


@pytest.mark.rule("ADV-LOCK-03", "ADV-TGT-01")
def test_torpedoes_never_lock_but_the_targeting_subsystem_steers_them() -> None:
    b, state = _duel()
    adv = state.of("A1")
    adv.lock = "B1"
    state.of("B1").shields_up = False
    put(b, "B1", 50, 48, 3)  # 8 cm: the close band of w2 (two torpedoes), needs 8
    b.dice = Loaded([2, 10, 9])  # first: in by 6 (2 rows), location 10 (hull); second misses
    fire(b, state, Attack("A1", (2,), "B1", aim="crew"))
    assert not events_of(b, ae.FireCheck)  # no aim check for torpedoes
    hit = events_of(b, ae.DamageDealt)[0]
    assert not hit.aimed
    assert (hit.location_roll, hit.shift, hit.location) == (10, -1, "crew")  # one row reaches


@pytest.mark.rule("ADV-TGT-01")
def test_the_targeting_subsystem_example() -> None:
    # needed 9 or less, rolled 2: 7 under, two rows of adjustment
    assert tgt_rows(9 - 2) == 2
    assert tgt_rows(2) == 0
    assert tgt_rows(3) == 1
    assert tgt_rows(-4) == 0
    chart = DEFAULT_CHART
    assert shifted_row(chart, 10, AdvLocation.IMPULSE, 2) == 7  # hull -> shield (row 8)
    assert shifted_row(chart, 10, AdvLocation.IMPULSE, 3) == 6  # ... -> impulse (row 7)
    assert shifted_row(chart, 3, AdvLocation.BEAM, 2) == 2  # already there
    assert shifted_row(chart, 5, None, 2) == 4  # nothing preferred: as rolled


# --- evasion ----------------------------------------------------------------------------------


def _torpedo_duel() -> tuple[Battle, AdvancedState]:
    b, state = _duel()
    put(b, "B1", 50, 52, 3)  # 12 cm: the Reliant's torpedoes reach
    return b, state


@pytest.mark.rule("ADV-EVA-01", "ADV-OFF-07")
def test_evasion_turns_one_hexside_for_one_stress_and_a_helm_ops_check() -> None:
    b, state = _torpedo_duel()
    target = state.of("B1")
    officers_at(target, 55)
    declare(state, state.of("A1"), (Attack("A1", (2,), "B1"),))
    assert evasion_candidates(state, "B") == ["B1"]
    assert evasion_candidates(state, "A") == []  # beams are not evaded
    decision = EvadeDecision("B", 1, ("B1",))
    with pytest.raises(IllegalOrderError, match="one hexside"):
        verify_evasions(state, decision, EvadeOrder((("B1", 2),)))
    verify_evasions(state, decision, EvadeOrder((("B1", -1),)))
    b.dice = Loaded([50])
    evade(b, state, target, -1)
    assert target.ship.heading == 2
    assert target.evaded_from == 3
    assert target.ship.superstructure == 21
    assert target.evasion is Outcome.SUCCESS
    event = events_of(b, ae.Evaded)[-1]
    assert (event.rating, event.outcome) == (55, "success")


@pytest.mark.rule("ADV-EVA-01")
def test_no_impulse_no_dodging() -> None:
    _b, state = _torpedo_duel()
    state.of("B1").impulse = 0
    declare(state, state.of("A1"), (Attack("A1", (2,), "B1"),))
    assert evasion_candidates(state, "B") == []


@pytest.mark.rule("ADV-EVA-02")
@pytest.mark.parametrize(
    ("outcome", "damage", "on_new_facing"),
    [(Outcome.FAILURE, 12, False), (Outcome.SUCCESS, 6, True), (Outcome.EXCEPTIONAL, 0, True)],
)
def test_the_evasion_example(outcome: Outcome, damage: int, on_new_facing: bool) -> None:
    # a 12-point torpedo aimed at shield 2: failure 12 on shield 2, success 6 on the new
    # facing, 01-05 nothing
    b, state = _torpedo_duel()
    target = state.of("B1")
    target.evaded_from, target.ship.heading, target.evasion = 3, 4, outcome
    new = facing_toward(50, 52, 4, 50, 40)
    assert new != 2
    deal(b, state, state.of("A1"), target, 12, False, None, False, 0)
    hit = events_of(b, ae.DamageDealt)[-1]
    assert hit.damage == damage
    assert hit.facing == (new if on_new_facing else 2)


@pytest.mark.rule("ADV-EVA-02")
def test_the_stress_point_is_taken_whatever_the_check() -> None:
    for roll, outcome in ((90, Outcome.FAILURE), (50, Outcome.SUCCESS), (4, Outcome.EXCEPTIONAL)):
        b, state = _torpedo_duel()
        target = state.of("B1")
        officers_at(target, 60)
        b.dice = Loaded([roll])
        evade(b, state, target, 1)
        assert target.evasion is outcome
        assert target.ship.superstructure == 22 - 1


@pytest.mark.rule("ADV-EVA-03")
def test_an_evading_ship_gives_up_its_own_fire_that_phase() -> None:
    b, state = _torpedo_duel()
    declare(state, state.of("B1"), (Attack("B1", (0,), "A1"),))
    declare(state, state.of("A1"), (Attack("A1", (2,), "B1"),))
    b.dice = Loaded([30, 10, 10, 10])  # helm ops; then A1's manual check fails... see below
    state.of("A1").lock = "B1"
    evade(b, state, state.of("B1"), 1)
    assert [a.ship for a in state.attacks] == ["A1"]
    resolve(b, state)
    assert {e.ship for e in events_of(b, ae.AttackRolled)} == {"A1"}
    assert not state.of("B1").fired[0]  # its charge is kept for a later phase


@pytest.mark.rule("ADV-TORP-01")
def test_torpedoes_come_out_of_the_stores() -> None:
    b, state = _torpedo_duel()
    adv = state.of("A1")
    officers_at(adv, 1)
    start = adv.stores
    b.dice = Loaded([90])  # no lock: the manual check fails, the torpedoes are gone anyway
    fire(b, state, Attack("A1", (2,), "B1"))
    assert adv.stores == start - 2
