"""Cloaks and the officers' tasks around them: the module `adv-cloak` (ADV-CLOAK-01..08,
ADV-SENS-02, ADV-OFF-09), the Warp Tech speed change (`adv-warp-limit`, ADV-OFF-10), the
Communications officer's decoding (ADV-OFF-12) and plasma torpedoes (ADV-EVA-04)."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import arm
from adv_kit import battle
from adv_kit import events_of
from adv_kit import officers_at
from adv_kit import put
from adv_kit import table

from kolrami.captains.base import BattleView
from kolrami.catalog.advanced import AdvancedPack
from kolrami.catalog.advanced import AdvWeaponKind
from kolrami.catalog.advanced import advanced_pack
from kolrami.catalog.advanced import parse_advanced
from kolrami.catalog.loader import fpf_pack
from kolrami.engine.battle import Battle
from kolrami.engine.driver import advance
from kolrami.engine.driver import apply
from kolrami.engine.orders import IllegalOrderError
from kolrami.errors import DataPackError
from kolrami.rules.advanced import cloak
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced import orders as ao
from kolrami.rules.advanced.checks import Outcome
from kolrami.rules.advanced.checks import rating
from kolrami.rules.advanced.combat import can_fire
from kolrami.rules.advanced.combat import deal
from kolrami.rules.advanced.combat import evasion_candidates
from kolrami.rules.advanced.combat import fire
from kolrami.rules.advanced.combat import legal_attacks
from kolrami.rules.advanced.combat import verify_attacks
from kolrami.rules.advanced.modules import AdvancedRules
from kolrami.rules.advanced.officers import bonus_options
from kolrami.rules.advanced.officers import take_bonus
from kolrami.rules.advanced.officers import try_lock
from kolrami.rules.advanced.officers import verify_bonus
from kolrami.rules.advanced.orders import parse_advanced as parse_order
from kolrami.rules.advanced.power import absorb
from kolrami.rules.advanced.power import apply_plan
from kolrami.rules.advanced.power import verify_plan
from kolrami.rules.advanced.state import KEY
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import setup
from scene_kit import place_all

CLOAK = ("adv-cloak",)
HEADER = '[pack]\nid = "x"\ndata_version = "1.0.0"\nbase_pack = "fpf-core"\n'


def _hunt(rules: tuple[str, ...] = CLOAK) -> tuple[Battle, AdvancedState]:
    """A Reliant (A1) at (50, 40) heading up the table; a Bird of Prey (B1) 20 cm ahead."""
    b, state = table(["reliant"], ["bird-of-prey"], rules=rules)
    place_all(b, "A1 50,40 h0; B1 50,60 h3")
    arm(b, state, "A1")
    return b, state


def _cloak(b: Battle, state: AdvancedState, ship: str = "B1", moved: bool = True) -> None:
    adv = state.of(ship)
    adv.cloaked = True
    adv.moved_last = moved


# --- data and orders ------------------------------------------------------------------------------


@pytest.mark.rule("ADV-CLOAK-05")
def test_cloak_tech_ratings_follow_the_example() -> None:
    assert rating((4, 7, 2), 55) == 68  # Romulan
    assert rating((4, 7, 2), 40) == 53  # Klingon
    _, state = table(["reliant"], ["bird-of-prey"])
    assert 43 <= state.of("B1").officers["engineer"].ratings["cloak_tech"] <= 70
    assert "cloak_tech" not in state.of("A1").officers["engineer"].ratings


@pytest.mark.rule("ADV-CLOAK-01")
def test_only_the_bird_of_prey_carries_a_cloak_and_an_override_can_change_that() -> None:
    fpf = fpf_pack()  # of the FPF classes (the house Romulans cloak too: test_house_pack.py)
    pack = advanced_pack()
    assert {c.id for c in fpf.ships if pack.sheet(c).cloak} == {"bird-of-prey"}
    custom = parse_advanced(HEADER + '[[override]]\nid = "drakonath"\ncloak = true\n', "t.toml")
    sheet = custom.sheet(fpf.get("drakonath"))
    assert sheet.cloak
    assert sheet.cloak_power == sheet.shield_cost
    with pytest.raises(DataPackError, match=r"override 'reliant'.*cloak = true"):
        parse_advanced(HEADER + '[[override]]\nid = "reliant"\ncloak_cost = 3\n', "t.toml")


@pytest.mark.parametrize(
    "text",
    [
        "LOCK A1:?3 A2:B1",
        "POWER A1:M6/S/W1.1.1/C",
        "DECLOAK A1 A2",
        "DECLOAK NONE",
        "ATTACK A1:2>H45.60 A1:0+1>B2@impulse*",
    ],
)
def test_cloak_orders_read_back(text: str) -> None:
    order = parse_order(text.split(), text)
    assert str(order) == text
    assert parse_order(str(order).split(), str(order)) == order


def test_a_search_names_a_facing() -> None:
    with pytest.raises(ValueError, match="not a lock like"):
        parse_order(["LOCK", "A1:?7"], "LOCK A1:?7")


# --- engaging the cloak, and what it hides ------------------------------------------------------


@pytest.mark.rule("ADV-CLOAK-01")
def test_a_cloak_needs_the_module_and_a_cloaking_device() -> None:
    _, state = table(["reliant"], ["bird-of-prey"])
    plan = ao.PowerPlan("B1", 0, False, (0, 0, 0), cloak=True)
    with pytest.raises(IllegalOrderError, match="switch on 'adv-cloak'"):
        verify_plan(state, state.of("B1"), plan)
    _, state = table(["reliant"], ["bird-of-prey"], rules=CLOAK)
    verify_plan(state, state.of("B1"), plan)
    with pytest.raises(IllegalOrderError, match=r"no cloaking device.*'cloak'"):
        verify_plan(state, state.of("A1"), ao.PowerPlan("A1", 0, False, (0,) * 4, cloak=True))
    # the cloak costs the shields' charge: 4 power for a Bird of Prey
    assert state.of("B1").sheet.cloak_power == 4


@pytest.mark.rule("ADV-CLOAK-01", "ADV-SENS-04")
def test_engaging_the_cloak_hides_the_ship_holds_its_shields_down_and_ends_locks() -> None:
    b, state = _hunt()
    a1, b1 = state.of("A1"), state.of("B1")
    a1.lock = "B1"
    apply_plan(b, state, b1, ao.PowerPlan("B1", 0, True, (1, 1, 1), cloak=True))
    state.rules.power_set(b, state)
    assert b1.hidden
    assert a1.lock is None
    view = BattleView(b, "A")
    assert view.enemies() == []
    assert view.advanced().contacts() == []
    assert view.advanced().unseen() == ["B1"]
    with pytest.raises(KeyError):
        view.advanced().contact("B1")
    with pytest.raises(KeyError):
        view.ship("B1")
    assert absorb(b1, 2, 5) == (0, 5)  # charged, but held down by the cloak
    assert legal_attacks(state, a1) == []  # no fire at what it cannot find


@pytest.mark.rule("ADV-CLOAK-01", "ADV-CLOAK-02")
def test_a_ship_decloaks_to_fire_and_cloaks_again_after_the_phase() -> None:
    b, state = _hunt()
    a1, b1 = state.of("A1"), state.of("B1")
    arm(b, state, "B1")
    _cloak(b, state)
    a1.lock_failed = True
    officers_at(a1, 60)
    b.extensions[KEY] = state
    b.then(*state.rules.moved(b, state, 1, ("A", "B")))
    decision = advance(b)
    assert decision == ao.DecloakDecision("B", 1, ("B1",))
    b.dice = Loaded([30])  # A1's fresh lock try (ADV-CLOAK-02): 30 <= 60
    assert apply(b, ao.DecloakOrder(("B1",))) is None
    assert not b1.hidden
    assert a1.lock == "B1"
    assert BattleView(b, "A").advanced().contacts()[0].id == "B1"
    assert can_fire(b1)  # it may fire now
    state.rules.end_phase(b, state, 1)
    assert b1.hidden
    assert a1.lock is None
    hidden = [e.hidden for e in events_of(b, ae.CloakChanged)]
    assert hidden == [False, True]


@pytest.mark.rule("ADV-CLOAK-01")
def test_a_cloaked_ship_is_not_asked_to_fire() -> None:
    b, state = _hunt()
    arm(b, state, "B1")
    _cloak(b, state)
    with pytest.raises(IllegalOrderError, match="cannot fire now"):
        verify_attacks(
            state,
            ao.AttackDecision("B", 1, ("A9",)),
            ao.AttackOrder((ao.Attack("B1", (0,), "A1"),)),
        )
    assert not can_fire(state.of("B1"))
    assert can_fire(state.of("B1"), cloaked_ok=True)


# --- searching, locking and pinging ------------------------------------------------------------


@pytest.mark.rule("ADV-SENS-02")
def test_a_cloaked_ship_is_locked_by_searching_its_facing() -> None:
    b, state = _hunt()
    a1 = state.of("A1")
    officers_at(a1, 60)
    _cloak(b, state)
    decision = ao.LockDecision("A", ("A1",))
    with pytest.raises(IllegalOrderError, match="searching a facing"):
        officers_verify(state, decision, ao.LockOrder((("A1", "B1"),)))
    officers_verify(state, decision, ao.LockOrder((("A1", "?2"),)))
    b.dice = Loaded([40, 5])  # B1 is dead ahead (facing 2): sensors 40 <= 60, then d10 5
    try_lock(b, state, a1, "?2")
    assert a1.lock == "B1"
    a1.lock = None
    b.dice = Loaded([40, 6])  # a 6 misses
    try_lock(b, state, a1, "?2")
    assert a1.lock is None
    assert a1.lock_failed
    b.dice = Loaded([40, 1])  # the wrong facing finds nothing
    try_lock(b, state, a1, "?5")
    assert a1.lock is None
    state.of("B1").moved_last = False
    b.dice = Loaded([40, 1])  # it did not move: no lock, whatever the dice
    try_lock(b, state, a1, "?2")
    assert a1.lock is None
    searches = events_of(b, ae.CloakSearch)
    assert [s.locked for s in searches] == [True, False, False, False]
    assert searches[2].target == ""
    assert not searches[3].moved


def officers_verify(state: AdvancedState, decision: ao.LockDecision, order: ao.LockOrder) -> None:
    from kolrami.rules.advanced.officers import verify_locks

    verify_locks(state, decision, order)


def test_a_search_needs_the_module() -> None:
    _, state = table(["reliant"], ["bird-of-prey"])
    with pytest.raises(IllegalOrderError, match="switch on 'adv-cloak'"):
        officers_verify(state, ao.LockDecision("A", ("A1",)), ao.LockOrder((("A1", "?2"),)))


@pytest.mark.rule("ADV-OFF-09")
@pytest.mark.parametrize(
    ("shake", "dice", "locked", "note"),
    [
        (Outcome.SUCCESS, [40, 5], False, "Cloak Tech +1"),  # 5 + 1 > 5
        (Outcome.SUCCESS, [40, 4], True, "Cloak Tech +1"),
        (Outcome.EXCEPTIONAL, [40, 1], False, "the search fails"),
        (Outcome.EXCEPTIONAL, [3, 1], True, "resolved normally"),  # both 01-05 cancel
    ],
)
def test_the_engineers_cloak_tech_spoils_searches(
    shake: Outcome, dice: list[int], locked: bool, note: str
) -> None:
    b, state = _hunt()
    a1 = state.of("A1")
    officers_at(a1, 60)
    _cloak(b, state)
    state.of("B1").shake = shake
    b.dice = Loaded(dice)
    try_lock(b, state, a1, "?2")
    assert (a1.lock == "B1") is locked
    assert note in events_of(b, ae.CloakSearch)[0].note


@pytest.mark.rule("ADV-OFF-09")
def test_cloak_tech_is_a_bonus_roll_of_cloaked_species_that_shakes_off_locks() -> None:
    b, state = _hunt()
    b1, a1 = state.of("B1"), state.of("A1")
    assert "cloak" in bonus_options(state, b1)["engineer"]
    assert "cloak" not in bonus_options(state, a1)["engineer"]
    _, plain = table(["reliant"], ["bird-of-prey"])
    assert "cloak" not in bonus_options(plain, plain.of("B1"))["engineer"]
    with pytest.raises(IllegalOrderError, match="not 'cloak'"):
        verify_bonus(
            state, ao.BonusDecision("A", ("A1",)), ao.BonusOrder((("A1", "engineer", "cloak"),))
        )
    _cloak(b, state)
    a1.lock = "B1"
    officers_at(b1, 60)
    b.dice = Loaded([30])
    take_bonus(b, state, b1, "engineer", "cloak")
    assert b1.shake is Outcome.SUCCESS
    assert a1.lock is None
    assert "shaken off" in events_of(b, ae.BonusRolled)[0].effect


@pytest.mark.rule("ADV-CLOAK-03")
def test_a_lock_pings_a_cloaked_ship_that_moved() -> None:
    b, state = _hunt()
    a1, b1 = state.of("A1"), state.of("B1")
    _cloak(b, state)
    a1.lock = "B1"
    b.dice = Loaded([3])
    b.then(*state.rules.moved(b, state, 1, ("A", "B")))
    assert advance(b) is None  # B1 has nothing armed
    assert b1.pinged_by == {"A1"}
    view = BattleView(b, "A").advanced()
    assert [c.id for c in view.contacts()] == ["B1"]
    assert view.known("B1") is None  # a cloaked ship hands over no sheet (ADV-SENS-03)
    assert BattleView(b, "A").advanced().unseen() == []
    state.rules.end_phase(b, state, 1)
    assert view.unseen() == ["B1"]
    b1.moved_last = False
    b.dice = Loaded([1])
    b.then(*state.rules.moved(b, state, 2, ("A", "B")))
    assert advance(b) is None
    assert not b1.pinged_by  # it did not move
    b1.moved_last = True
    b.dice = Loaded([4])
    b.then(*state.rules.moved(b, state, 3, ("A", "B")))
    assert advance(b) is None
    assert not b1.pinged_by
    assert [p.pinged for p in events_of(b, ae.CloakPinged)] == [True, False, False]


# --- firing at a cloaked ship -------------------------------------------------------------------


def _pinged(b: Battle, state: AdvancedState) -> None:
    _cloak(b, state)
    state.of("A1").lock = "B1"
    state.of("B1").pinged_by.add("A1")


@pytest.mark.rule("ADV-CLOAK-04")
def test_fire_at_a_cloaked_ship_needs_a_lock_and_a_ping() -> None:
    b, state = _hunt()
    a1 = state.of("A1")
    _cloak(b, state)
    decision = ao.AttackDecision("A", 1, ("A1",))
    order = ao.AttackOrder((ao.Attack("A1", (0,), "B1"),))
    with pytest.raises(IllegalOrderError, match="needs a sensor lock"):
        verify_attacks(state, decision, order)
    a1.lock = "B1"
    with pytest.raises(IllegalOrderError, match="needs a ping"):
        verify_attacks(state, decision, order)
    state.of("B1").pinged_by.add("A1")
    verify_attacks(state, decision, order)


@pytest.mark.rule("ADV-CLOAK-04")
def test_a_hit_through_the_cloak_stands_only_if_its_cloak_tech_fails() -> None:
    b, state = _hunt()
    a1, b1 = state.of("A1"), state.of("B1")
    officers_at(a1, 60)
    officers_at(b1, 50)
    _pinged(b, state)
    # weapons 10, sensors 20, d10 1 hits; Cloak Tech 40 <= 50 holds: the shot misses
    b.dice = Loaded([10, 20, 1, 40])
    fire(b, state, ao.Attack("A1", (0,), "B1"))
    assert b1.ship.superstructure == b1.ship.cls.superstructure
    assert events_of(b, ae.CloakSave)[0].passed
    assert not b1.exposed
    # a failed Sensors check stops the attack before its to-hit roll
    b.dice = Loaded([10, 90])
    fire(b, state, ao.Attack("A1", (3,), "B1"))
    assert [c.purpose for c in events_of(b, ae.FireCheck)][-1] == "sensors (cloaked target)"
    # Cloak Tech 70 > 50 fails: the hit stands, the ship is revealed to all, locked ships fire
    b.dice = Loaded([10, 20, 1, 70, 10])  # ... and the location roll: hull
    fire(b, state, ao.Attack("A1", (1,), "B1"))
    assert b1.exposed
    assert b1.reveal == cloak.REVEAL_PHASES
    assert b1.ship.superstructure < b1.ship.cls.superstructure
    assert BattleView(b, "A").advanced().unseen() == []
    b1.pinged_by.clear()
    assert state.rules.fire_problem(state, a1, b1) is None  # no ping needed now


@pytest.mark.rule("ADV-CLOAK-06")
def test_a_venting_ship_is_seen_and_its_cloak_rolls_suffer() -> None:
    assert cloak.vented(68) == 13
    assert cloak.boosted(60, 99) == 99
    assert cloak.boosted(5, 9) == 9
    assert cloak.boosted(3, 9) == 5
    b, state = _hunt()
    b1 = state.of("B1")
    officers_at(b1, 68)
    _cloak(b, state)
    assert not b1.venting
    assert BattleView(b, "A").advanced().unseen() == ["B1"]
    b1.warp_port = 0  # a nacelle gone
    assert b1.venting
    assert BattleView(b, "A").advanced().unseen() == []
    assert cloak.cloak_tech(b1) == 13
    a1 = state.of("A1")
    officers_at(a1, 60)
    b.dice = Loaded([95, 9])  # sensors 95 <= 99, d10 9 <= 9
    try_lock(b, state, a1, "?2")
    assert a1.lock == "B1"


# --- dispersal torpedoes ------------------------------------------------------------------------


@pytest.mark.rule("ADV-CLOAK-08")
@pytest.mark.parametrize(
    ("share", "reroll", "damage", "revealed"),
    [(6, 0, 6, False), (10, 3, 10, False), (10, 10, 20, True), (1, 0, 1, False)],
)
def test_dispersal_damage_follows_the_example(
    share: int, reroll: int, damage: int, revealed: bool
) -> None:
    assert cloak.dispersal_damage(20, share, reroll) == (damage, revealed)


@pytest.mark.rule("ADV-CLOAK-07", "ADV-CLOAK-08")
def test_a_dispersal_torpedo_hunts_a_cloaked_ship_at_a_point() -> None:
    b, state = table(["reliant"], ["bird-of-prey"], rules=CLOAK)
    place_all(b, "A1 50,40 h0; B1 50,50 h3")
    arm(b, state, "A1")
    a1, b1 = state.of("A1"), state.of("B1")
    _cloak(b, state)
    aft = 3  # the single photon launcher, forward
    decision = ao.AttackDecision("A", 5, ("A1",))
    verify_attacks(state, decision, ao.AttackOrder((ao.Attack("A1", (aft,), "H50.49"),)))
    with pytest.raises(IllegalOrderError, match="only torpedoes"):
        verify_attacks(state, decision, ao.AttackOrder((ao.Attack("A1", (0,), "H50.49"),)))
    assert evasion_candidates(state, "B") == []
    state.attacks = [ao.Attack("A1", (aft,), "H50.49")]
    assert evasion_candidates(state, "B") == ["B1"]  # it may evade first
    state.attacks = []
    n = a1.sheet.weapons[aft].torpedoes
    # per torpedo: to-hit 1, hunt 3, share 10 then again 10: a direct hit, revealed
    b.dice = Loaded([1, 3, 10, 10, 10] + [1] * 6 * (n - 1))  # then the location: hull
    fire(b, state, ao.Attack("A1", (aft,), "H50.49"))
    shots = events_of(b, ae.DispersalRolled)
    assert shots[0].hit
    assert shots[0].revealed
    assert shots[0].target == "B1"
    assert shots[0].damage == a1.sheet.weapons[aft].damage
    assert b1.reveal > 0
    # a point where nobody is: nothing, whatever the dice
    b2, state2 = table(["reliant"], ["bird-of-prey"], rules=CLOAK)
    place_all(b2, "A1 50,40 h0; B1 80,50 h3")
    arm(b2, state2, "A1")
    _cloak(b2, state2)
    b2.dice = Loaded([1, 1] * n)
    fire(b2, state2, ao.Attack("A1", (aft,), "H50.49"))
    assert not any(s.hit for s in events_of(b2, ae.DispersalRolled))


def test_dispersal_torpedoes_need_the_module() -> None:
    b, state = table(["reliant"], ["bird-of-prey"])
    put(b, "A1", 50, 40, 0)
    arm(b, state, "A1")
    with pytest.raises(IllegalOrderError, match="adv-cloak"):
        verify_attacks(
            state,
            ao.AttackDecision("A", 5, ("A1",)),
            ao.AttackOrder((ao.Attack("A1", (3,), "H50.49"),)),
        )


# --- plasma (ADV-EVA-04) ------------------------------------------------------------------------

# the pieces of the test packs below (TOML)
HUMAN = '[[species]]\nid = "human"\nfactions = ["Federation"]\n'
KLINGON = (
    '[[species]]\nid = "klingon"\nfactions = ["Klingon"]\nbeam = "disruptor"\n'
    "cloak_tech_base = 40\n"
)


def torpedoes(ship: str, range_cm: int) -> str:
    """An override arming `ship` with one plasma torpedo and one photon, forward, at `range_cm`."""
    return f'[[override]]\nid = "{ship}"\n' + "".join(
        f'[[override.weapons]]\nkind = "{kind}"\narcs = ["F"]\nmount = "F"\n'
        f"range_cm = {range_cm}\ntorpedoes = 1\ndamage = 12\narm_cost = {cost}\n"
        for kind, cost in (("plasma", 2), ("photon", 1))
    )


PLASMA_PACK = HEADER + KLINGON + torpedoes("ktroika", 20)


def _with_pack(pack: AdvancedPack, a: list[str], bs: list[str]) -> tuple[Battle, AdvancedState]:
    bt = battle(a, bs)
    state = setup(bt, pack, AdvancedRules.of(bt))
    bt.extensions[KEY] = state
    return bt, state


@pytest.mark.rule("ADV-EVA-04")
def test_plasma_cannot_be_evaded() -> None:
    pack = parse_advanced(PLASMA_PACK, "test-plasma.toml")
    b, state = _with_pack(pack, ["reliant"], ["ktroika"])
    place_all(b, "A1 50,40 h0; B1 50,60 h3")
    arm(b, state, "A1")
    arm(b, state, "B1")
    assert state.of("B1").sheet.weapons[0].kind is AdvWeaponKind.PLASMA
    assert not AdvWeaponKind.PLASMA.beam
    assert not AdvWeaponKind.PLASMA.dodgeable
    state.attacks = [ao.Attack("B1", (0,), "A1")]
    assert evasion_candidates(state, "A") == []  # plasma alone: nothing to dodge
    state.attacks.append(ao.Attack("B1", (1,), "A1"))
    assert evasion_candidates(state, "A") == ["A1"]
    a1 = state.of("A1")
    a1.evasion, a1.evaded_from = Outcome.EXCEPTIONAL, 0
    a1.ship.heading = 1
    deal(b, state, state.of("B1"), a1, 12, False, None, False, 0, dodgeable=False)
    deal(b, state, state.of("B1"), a1, 12, False, None, False, 0, dodgeable=True)
    plasma, photon = events_of(b, ae.DamageDealt)
    assert (plasma.damage, plasma.facing) == (12, 2)  # full, on the facing first aimed at
    assert photon.damage == 0  # the photon was dodged


# --- Warp Tech: two warp factors (ADV-OFF-10) ---------------------------------------------------


@pytest.mark.rule("ADV-OFF-10")
def test_speed_changes_one_warp_factor_a_turn_two_with_warp_tech() -> None:
    b, state = table(["reliant"], ["ktroika"], rules=("adv-warp-limit",))
    a1 = state.of("A1")
    officers_at(a1, 60)
    a1.last_moves = 3
    verify_plan(state, a1, ao.PowerPlan("A1", 5, False, (0,) * 4))
    with pytest.raises(IllegalOrderError, match=r"one warp factor.*ADV-OFF-10"):
        verify_plan(state, a1, ao.PowerPlan("A1", 6, False, (0,) * 4))
    verify_plan(state, a1, ao.PowerPlan("A1", 0, False, (0,) * 4))  # slowing is free
    assert "warp" in bonus_options(state, a1)["engineer"]
    b.dice = Loaded([30])
    take_bonus(b, state, a1, "engineer", "warp")
    verify_plan(state, a1, ao.PowerPlan("A1", 7, False, (0,) * 4))
    with pytest.raises(IllegalOrderError, match="ADV-OFF-10"):
        verify_plan(state, a1, ao.PowerPlan("A1", 8, False, (0,) * 4))
    _, free = table(["reliant"], ["ktroika"])
    verify_plan(free, free.of("A1"), ao.PowerPlan("A1", 9, False, (0,) * 4))
    assert "warp" not in bonus_options(free, free.of("A1"))["engineer"]


# --- the Communications officer (ADV-OFF-12) ----------------------------------------------------


@pytest.mark.rule("ADV-OFF-12", "ADV-COMM-01")
def test_one_civilisations_code_cannot_be_broken() -> None:
    _, state = table(["reliant"], ["ktroika", "sting"])
    a1 = state.of("A1")
    assert "comms" not in bonus_options(state, a1)
    with pytest.raises(IllegalOrderError, match=r"cannot be broken within a battle.*ADV-COMM-01"):
        verify_bonus(
            state, ao.BonusDecision("A", ("A1",)), ao.BonusOrder((("A1", "comms", "decode"),))
        )


MIXED_PACK = (
    HEADER
    + HUMAN
    + KLINGON
    + '[[species]]\nid = "romulan"\nbeam = "disruptor"\ncloak_tech_base = 55\n'
    + '[[override]]\nid = "sting"\nspecies = "romulan"\n'
)


@pytest.mark.rule("ADV-OFF-12", "ADV-COMM-02")
def test_decoding_the_shared_code_shows_the_enemy_power_plans() -> None:
    pack = parse_advanced(MIXED_PACK, "test-mixed.toml")
    b, state = _with_pack(pack, ["reliant"], ["ktroika", "sting"])
    a1, b1 = state.of("A1"), state.of("B1")
    assert bonus_options(state, a1)["comms"] == ("decode",)
    # the Klingon-Romulan allies cannot break their own shared code
    assert "comms" not in bonus_options(state, b1)
    officers_at(a1, 60)
    b.dice = Loaded([30])
    take_bonus(b, state, a1, "comms", "decode")
    assert a1.decoded == 1
    view = BattleView(b, "A").advanced()
    assert view.decoded() == {}  # nothing allocated yet
    arm(b, state, "B1", move=2)
    arm(b, state, "B2")
    state.rules.power_set(b, state)
    assert set(view.decoded()) == {"B1", "B2"}
    assert view.decoded()["B1"].move == 2
    assert BattleView(b, "B").advanced().decoded() == {}
    assert events_of(b, ae.TrafficDecoded)[0].side == "A"


# --- whole battles ------------------------------------------------------------------------------


def test_cloaked_battles_narrate_and_repeat() -> None:
    from kolrami.fleet import load_fleet
    from kolrami.scenarios.models import builtin_scenario
    from kolrami.sim.play import simulate

    sc = builtin_scenario("advanced").model_copy(update={"turn_limit": 4})
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-raiders"))
    rules = ("adv-cloak", "adv-warp-limit")
    one = simulate(sc, fleets, ("aggressive", "kiting"), 4, extra_rules=rules)
    two = simulate(sc, fleets, ("aggressive", "kiting"), 4, extra_rules=rules)
    assert one.log.jsonl() == two.log.jsonl()
    changes = [e for e in one.events() if isinstance(e, ae.CloakChanged)]
    assert changes
    assert "vanishes under its cloak" in str(changes[0].story(lambda s: s, False))


# --- what an illegal order may tell about a hidden ship -------------------------------------------


@pytest.mark.rule("ADV-CLOAK-03", "ADV-CLOAK-04")
@pytest.mark.parametrize("lock", [None, "B1"])
def test_an_illegal_attack_at_a_hidden_ship_does_not_tell_where_it_is(lock: str | None) -> None:
    b, state = table(["reliant"], ["bird-of-prey"], rules=CLOAK)
    put(b, "A1", 50, 40, 0)
    put(b, "B1", 120, 110, 3)  # far out of range, cloaked, not pinged
    arm(b, state, "A1")
    _cloak(b, state)
    state.of("A1").lock = lock
    for w in range(len(state.of("A1").sheet.weapons)):
        with pytest.raises(IllegalOrderError) as err:
            verify_attacks(
                state,
                ao.AttackDecision("A", 1, ("A1",)),
                ao.AttackOrder((ao.Attack("A1", (w,), "B1"),)),
            )
        message = str(err.value)
        assert "cm away" not in message
        assert "degrees" not in message
        assert "cloaked" in message


@pytest.mark.rule("ADV-CLOAK-04")
def test_fire_at_an_exposed_ship_no_longer_shown_does_not_tell_where_it_is() -> None:
    b, state = table(["reliant"], ["bird-of-prey"], rules=CLOAK)
    place_all(b, "A1 50,40 h0; B1 120,110 h3")
    arm(b, state, "A1")
    _cloak(b, state)
    state.of("A1").lock = "B1"
    state.of("B1").exposed = True  # hit through its cloak earlier this turn, no longer shown
    assert BattleView(b, "A").advanced().unseen() == ["B1"]
    with pytest.raises(IllegalOrderError) as err:
        verify_attacks(
            state,
            ao.AttackDecision("A", 3, ("A1",)),
            ao.AttackOrder((ao.Attack("A1", (0,), "B1"),)),
        )
    assert "cm away" not in str(err.value)
    assert "degrees" not in str(err.value)


@pytest.mark.rule("ADV-CLOAK-01")
def test_the_squadron_helpers_of_the_view_do_not_show_a_hidden_ship() -> None:
    b, state = _hunt()
    _cloak(b, state)
    view = BattleView(b, "A")
    squadron = b.ships["B1"].squadron
    assert view.members(squadron) == []
    assert view.firers(squadron) == []
    with pytest.raises(KeyError):
        view.mover_position("B1", squadron)
    with pytest.raises(KeyError):
        view.speed_limits("B1", squadron, False)
    # its own side still sees it
    own = BattleView(b, "B")
    assert [s.id for s in own.members(squadron)] == ["B1"]
    assert own.mover_position("B1", squadron).id == "B1"


@pytest.mark.rule("ADV-OFF-12", "ADV-COMM-02")
def test_only_the_other_bloc_breaks_a_shared_code() -> None:
    pack = parse_advanced(
        MIXED_PACK + '\n[[species]]\nid = "orion"\n\n[[override]]\nid = "reliant"\n'
        'species = "orion"\n',
        "test-orion.toml",
    )
    _, state = _with_pack(pack, ["reliant"], ["ktroika", "sting"])
    a1 = state.of("A1")
    assert a1.species.id == "orion"
    # the Klingon-Romulan code is broken by Federation and Gorn officers only
    assert "comms" not in bonus_options(state, a1)
    with pytest.raises(IllegalOrderError, match=r"ADV-COMM"):
        verify_bonus(
            state, ao.BonusDecision("A", ("A1",)), ao.BonusOrder((("A1", "comms", "decode"),))
        )


PLASMA_HUNTER_PACK = HEADER + HUMAN + KLINGON + torpedoes("reliant", 40)


@pytest.mark.rule("ADV-EVA-04", "ADV-CLOAK-07")
def test_a_plasma_dispersal_torpedo_is_not_dodged_by_an_evasion() -> None:
    pack = parse_advanced(PLASMA_HUNTER_PACK, "test-plasma-hunter.toml")
    b, state = _with_pack(pack, ["reliant"], ["bird-of-prey"])
    place_all(b, "A1 50,40 h0; B1 50,60 h3")
    arm(b, state, "A1")
    _cloak(b, state)
    b1 = state.of("B1")
    # B1 evaded (a photon dispersal shot at it this phase) and turned one hexside
    b1.evasion, b1.evaded_from = Outcome.SUCCESS, 3
    b1.ship.heading = 4
    b.dice = Loaded([1, 1, 6, 10])  # to-hit 1, hunt 1, share 6 of half 12: 3; location: hull
    cloak.CloakingDevice().fire_at_point(b, state, state.of("A1"), 0, 50, 60)
    dealt = events_of(b, ae.DamageDealt)[0]
    assert dealt.damage == 3  # in full: plasma is not dodged
    assert dealt.facing == 2  # on the facing it presented before it turned


@pytest.mark.rule("ADV-CLOAK-01")
def test_a_cloak_cost_without_a_cloak_names_the_field_the_rule_and_the_fix() -> None:
    with pytest.raises(DataPackError) as err:
        parse_advanced(HEADER + '[[override]]\nid = "reliant"\ncloak_cost = 3\n', "t.toml")
    message = str(err.value)
    assert "\n" not in message
    assert "override 'reliant': field 'cloak_cost'" in message
    assert "ADV-CLOAK-01" in message
    assert "cloak = true" in message
