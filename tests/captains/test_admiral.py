"""`admiral`, the searching captain (issue 21): parameters, determinism, its own dice, the
side's view only, and a small seeded check that it still beats a doctrine.

The strength itself is measured in `make bench` (key `captains`), never asserted with timings.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from kolrami.captains.admiral import PER_CANDIDATE
from kolrami.captains.admiral import AdmiralCaptain
from kolrami.captains.admiral import EngagingCaptain
from kolrami.captains.admiral import behind
from kolrami.captains.admiral import luck
from kolrami.captains.admiral import value
from kolrami.captains.base import REPAIR_KINDS
from kolrami.captains.base import BattleView
from kolrami.captains.base import default_repairs
from kolrami.captains.registry import captain_version
from kolrami.captains.registry import make_captain
from kolrami.catalog.models import WeaponKind
from kolrami.cli import app
from kolrami.engine.battle import Battle
from kolrami.engine.battle import Result
from kolrami.engine.chance import Dice
from kolrami.engine.driver import Game
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import play
from kolrami.engine.orders import Decision
from kolrami.errors import InvalidInputError
from kolrami.fleet import Fleet
from kolrami.fleet import fpf_preset_names
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.events import BattleEnded
from kolrami.rules.events import RollOff
from kolrami.rules.events import VolleyFired
from kolrami.rules.exact import shot_damage_die
from kolrami.rules.fpf import orders as fo
from kolrami.rules.fpf.initiative import verify_reaction
from kolrami.rules.fpf.repairs import verify_repair_order
from kolrami.rules.peak import verify_return
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

CRUISERS = load_fleet("presets:federation-cruisers")


def test_parameters_are_given_after_a_colon() -> None:
    captain = make_captain("admiral:budget=3,horizon=0", Dice(1))
    assert isinstance(captain, AdmiralCaptain)
    assert (captain.budget, captain.horizon, captain.width) == (3, 0, 6)
    assert captain_version("admiral:budget=3") != captain_version("admiral:budget=4")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "admiral:budgte=3",
            "no parameter 'budgte'; admiral takes budget, caution, exact, horizon, reactions, "
            "repairs, width",
        ),
        ("admiral:cautoin=3", "no parameter 'cautoin'; admiral takes budget, caution"),
        ("admiral:cautoin=3", "(e.g. admiral:caution=1)"),  # the nearest name as the fix
        ("admiral:budget=lots", "budget must be a whole number >= 0, not 'lots'"),
        ("admiral:width=0", "width must be a whole number >= 1, not '0'"),
        ("admiral:reactions=3", "reactions must be a whole number from 0 to 2, not '3'"),
        ("admiral:reactions=3", "(e.g. admiral:reactions=1)"),
        ("admiral:reactions=x", "reactions must be a whole number from 0 to 2, not 'x'"),
        ("admiral:budget=1,budget=2", "budget given twice"),
        ("aggressive:budget=3", "aggressive takes no parameters"),
    ],
)
def test_a_bad_parameter_is_one_line_naming_the_captain_and_the_fix(
    name: str, message: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        make_captain(name, Dice(1))
    text = str(caught.value)
    assert message in text
    assert name in text
    assert "\n" not in text


def test_a_bad_parameter_given_in_python_is_one_line_too() -> None:
    with pytest.raises(InvalidInputError, match="reactions must be a whole number from 0 to 2"):
        AdmiralCaptain(Dice(1), reactions=3)
    with pytest.raises(InvalidInputError, match="budget must be a whole number of at least 0"):
        AdmiralCaptain(Dice(1), budget=-1)


def test_a_bad_parameter_on_the_command_line_exits_2() -> None:
    result = CliRunner().invoke(
        app, ["battle", "--captain-a", "admiral:budget=x", "--captain-b", "kiting"]
    )
    assert result.exit_code == 2
    assert "budget must be a whole number" in result.output


def test_the_admiral_plays_the_same_battle_for_the_same_seed() -> None:
    scenario = builtin_scenario("standard")
    logs = {
        simulate(scenario, (CRUISERS, CRUISERS), ("admiral:budget=4", "kiting"), 3).log.sha256()
        for _ in range(2)
    }
    assert len(logs) == 1


def _stopped_at(
    scenario: str,
    fleet: Fleet,
    seed: int,
    kind: type[Decision],
    where: Callable[[BattleView, Decision], bool] = lambda view, decision: True,
) -> tuple[Battle, Game, Decision]:
    """A mirror battle of `fleet` played by the aggressive doctrine to side A's first decision
    of `kind` (`where` it holds): the battle, its game (send it the answer) and the decision."""
    battle = new_battle(builtin_scenario(scenario), (fleet, fleet), seed)
    game = play(battle)
    doctrine = make_captain("aggressive", Dice(0))
    views = {side: battle.rules.view(battle, side) for side in "AB"}
    decision: Decision = next(game)
    while not (isinstance(decision, kind) and decision.side == "A" and where(views["A"], decision)):
        decision = game.send(doctrine.decide(views[decision.side], decision))
    return battle, game, decision


def test_the_search_never_touches_the_battle_or_its_dice() -> None:
    battle, _, decision = _stopped_at("standard", CRUISERS, 5, fo.OrdersDecision)
    assert isinstance(decision, fo.OrdersDecision)
    before = (battle.dice.getstate(), battle.log.sha256(), len(battle.log))
    admiral = AdmiralCaptain(captain_dice(5, "A"), budget=12)
    view = battle.rules.view(battle, "A")
    admiral.decide(view, decision)
    assert admiral.rollouts >= 6
    after = (battle.dice.getstate(), battle.log.sha256(), len(battle.log))
    assert after == before


def _two_courses(view: BattleView, decision: Decision) -> bool:
    assert isinstance(decision, fo.ReactionDecision)
    return len(EngagingCaptain(Dice(0)).reaction_options(view, decision)) == 2


def _reaction_with_a_choice(
    scenario: str,
) -> tuple[Battle, Game, fo.ReactionDecision, BattleView, fo.ReactionOrder, fo.ReactionOrder]:
    """The cruisers' mirror battle of seed 5 at side A's first reaction with a choice: the
    battle, its game, the decision, A's view, the doctrine's answer and the other course."""
    battle, game, decision = _stopped_at(
        scenario, CRUISERS, 5, fo.ReactionDecision, where=_two_courses
    )
    assert isinstance(decision, fo.ReactionDecision)
    view = battle.rules.view(battle, "A")
    own, other = EngagingCaptain(Dice(0)).reaction_options(view, decision)
    return battle, game, decision, view, own, other


@pytest.mark.rule("FPF-FIRE-11")
def test_the_admiral_weighs_a_reaction_against_the_other_course_by_rollouts() -> None:
    # the first reaction of side A with a choice: the doctrine's answer first, then the other
    # course (hold if it fires, fire if it holds); in a standard battle searched only when
    # asked (admiral:reactions=2), leaving the battle as it was
    battle, game, decision, view, own, other = _reaction_with_a_choice("standard")
    assert own == make_captain("aggressive", Dice(0)).decide(view, decision)
    assert (own.fire is None) != (other.fire is None)
    for option in (own, other):
        verify_reaction(battle, decision, option)
    before = (battle.dice.getstate(), battle.log.sha256(), len(battle.log))
    plain = AdmiralCaptain(captain_dice(5, "A"), budget=16)  # reactions=1: where ships return
    assert not view.resets_destroyed()
    assert plain.decide(view, decision) == own
    assert plain.rollouts == 0
    admiral = AdmiralCaptain(captain_dice(5, "A"), budget=16, reactions=2)
    order = admiral.decide(view, decision)
    assert admiral.rollouts == 16
    assert (battle.dice.getstate(), battle.log.sha256(), len(battle.log)) == before
    assert order in (own, other)
    game.send(order)  # and the battle takes it


@pytest.mark.rule("FPF-FIRE-11")
@pytest.mark.rule("PP-04")
def test_where_destroyed_ships_come_back_the_admiral_searches_reactions_by_default() -> None:
    # Peak Performance: the default admiral weighs a reaction with a choice by rollouts, as
    # reactions=2 does everywhere; reactions=0 gives the doctrine's answer without a search
    _, game, decision, view, own, _ = _reaction_with_a_choice("peak-performance")
    assert view.resets_destroyed()
    never = AdmiralCaptain(captain_dice(5, "A"), budget=16, reactions=0)
    assert never.decide(view, decision) == own
    assert never.rollouts == 0
    orders = set()
    for reactions in (1, 2):
        admiral = AdmiralCaptain(captain_dice(5, "A"), budget=16, reactions=reactions)
        orders.add(admiral.decide(view, decision))
        assert admiral.rollouts >= 2 * PER_CANDIDATE
    assert len(orders) == 1  # the same search: the same answer
    game.send(orders.pop())


@pytest.mark.rule("PP-11")
def test_the_admiral_weighs_where_a_reset_ship_returns_by_rollouts() -> None:
    # Peak Performance: play to side A's first return decision; the admiral weighs the
    # doctrine's spot and others along its zone by rollouts, and gives a legal one, leaving
    # the battle and its dice as they were
    battle, game, decision = _stopped_at(
        "peak-performance", load_fleet("presets:klingon-fleet"), 7, fo.ReturnDecision
    )
    assert isinstance(decision, fo.ReturnDecision)
    doctrine = make_captain("aggressive", Dice(0))
    views = {side: battle.rules.view(battle, side) for side in "AB"}
    admiral = AdmiralCaptain(captain_dice(7, "A"), budget=16)
    options = admiral.return_candidates(views["A"], decision)
    assert options[0] == doctrine.decide(views["A"], decision)  # the doctrine's spot first
    assert len({(o.x, o.y) for o in options if isinstance(o, fo.ReturnOrder)}) == len(options) > 2
    for option in options:
        verify_return(battle, decision, option)  # each a legal spot (PP-11)
    before = (battle.dice.getstate(), battle.log.sha256(), len(battle.log))
    order = admiral.decide(views["A"], decision)
    assert admiral.rollouts >= 8
    assert (battle.dice.getstate(), battle.log.sha256(), len(battle.log)) == before
    verify_return(battle, decision, order)
    game.send(order)  # and the battle takes it


@pytest.mark.rule("FPF-REP-02")
def test_asked_to_the_admiral_weighs_its_repairs_by_rollouts() -> None:
    # side A's first repairs where a ship has more damaged items than Damage Control points:
    # the doctrine's order first, then each kind of item put first, each a legal order; by
    # default (repairs=0) the doctrine's order without a search; with repairs=1 a search that
    # leaves the battle and its dice as they were
    def short(view: BattleView, decision: Decision) -> bool:
        assert isinstance(decision, fo.RepairDecision)
        return any(len(i) > p for i, p in zip(decision.items, decision.points, strict=True))

    battle, game, decision = _stopped_at(
        "standard", load_fleet("presets:federation-fleet"), 3, fo.RepairDecision, short
    )
    assert isinstance(decision, fo.RepairDecision)
    view = battle.rules.view(battle, "A")
    own = default_repairs(view, decision)
    assert own == make_captain("aggressive", Dice(0)).decide(view, decision)
    plain = AdmiralCaptain(captain_dice(3, "A"), budget=16)
    assert plain.decide(view, decision) == own
    assert plain.rollouts == 0
    admiral = AdmiralCaptain(captain_dice(3, "A"), budget=16, repairs=1)
    options = admiral.repair_candidates(view, decision)
    assert options[0] == own
    assert len({str(o) for o in options}) == len(options) > 1
    kinds = {default_repairs(view, decision, first) for first in REPAIR_KINDS}
    assert set(options[1:]) <= kinds
    for option in options:
        verify_repair_order(battle, decision, option)
    before = (battle.dice.getstate(), battle.log.sha256(), len(battle.log))
    order = admiral.decide(view, decision)
    assert admiral.rollouts >= 2 * PER_CANDIDATE
    assert (battle.dice.getstate(), battle.log.sha256(), len(battle.log)) == before
    assert isinstance(order, fo.RepairOrder)
    assert order in options
    game.send(order)  # and the battle takes it


@pytest.mark.rule("FPF-REP-01")
def test_a_repair_order_may_put_a_kind_of_item_first() -> None:
    # a Defender (one Damage Control point) with its photon knocked out, its shields and its
    # engines down:
    # the doctrine mends the weapon; put first, the shields or the engines get the point
    battle = sandbox([["defender"]], [["defender"]])
    ship = battle.ships["A1"]
    battle.set_mounts(ship, WeaponKind.PHOTON, (0,))
    place(battle, "A1", 50, 50, 0, shields=ship.shields - 4, engine_power=ship.engine_power - 3)
    decision = fo.RepairDecision("A", ("A1",), (("engine_power", "shields", "photons.0"),), (1,))
    view = battle.rules.view(battle, "A")
    assert default_repairs(view, decision).repairs == (("A1", "photons.0"),)
    assert default_repairs(view, decision, "weapons").repairs == (("A1", "photons.0"),)
    assert default_repairs(view, decision, "shields").repairs == (("A1", "shields"),)
    assert default_repairs(view, decision, "engine_power").repairs == (("A1", "engine_power"),)


def test_a_sampled_copy_hides_what_the_side_cannot_see() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]])
    place(battle, "A1", 50, 40, heading=0)
    place(battle, "B1", 90, 80, heading=3)
    view = battle.rules.view(battle, "A")
    seen = view.sample(Dice(1))
    assert (seen.ships["B1"].x, seen.ships["B1"].y) == (90, 80)
    battle.sight = lambda side, ship: False  # a cloak: side A sees no enemy
    hidden = [view.sample(Dice(n)).ships["B1"] for n in range(5)]
    assert all((s.x, s.y) != (90, 80) for s in hidden)
    assert len({(s.x, s.y) for s in hidden}) == 5  # drawn from each copy's own dice
    assert all(view.sample(Dice(n)).ships["A1"].x == 50 for n in range(3))  # its own: as is


def test_a_rollout_is_worth_the_enemy_s_losses_less_ours() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]])
    assert value(battle, "A", None) == 0
    b1 = battle.ships["B1"]
    b1.superstructure = b1.cls.superstructure // 2
    assert value(battle, "A", None) == pytest.approx(
        b1.points * (1 - (b1.cls.superstructure // 2) / b1.cls.superstructure)
    )
    assert value(battle, "B", None) == -value(battle, "A", None)


def test_a_rollout_decided_by_the_roll_off_is_worth_a_level_battle() -> None:
    # the roll-off's winner is a coin: a rollout that ends level counts neither side's win,
    # however the dice fell; a battle won outright counts both fleets' points
    battle = sandbox([["reliant"]], [["ktroika"]])
    fleets = sum(s.points for s in battle.ships.values())
    won = Result("A", "Fleet Points A 50 : B 0", 12, {"A": 0, "B": 0})
    assert value(battle, "A", won) == fleets
    battle.note(RollOff, [{"A": ["hit"], "B": []}], "A")
    battle.note(BattleEnded, "A", "Fleet Points level at 0; A wins", 12, {"A": 0, "B": 0})
    rolled = Result("A", "Fleet Points level at 0; A wins the roll-off 1:0", 12, {"A": 0, "B": 0})
    assert value(battle, "A", rolled) == value(battle, "B", rolled) == 0


@pytest.mark.rule("FPF-DMG-05")
def test_a_rollout_s_fire_is_valued_at_its_exact_odds_not_its_rolls() -> None:
    # four photon shots: all four penetrate (lucky), then none does (unlucky); the luck taken
    # back is the exact expectation less the rolls' penetrations at a photon's mean damage
    battle = sandbox([["reliant"]], [["ktroika"]])
    b1 = battle.ships["B1"]
    price = b1.points / b1.cls.superstructure
    expected = float(shot_damage_die(WeaponKind.PHOTON, 4, 5).mean())
    start = len(battle.log)
    shot = ("A1", "B1", "photon", 4, 5, 4, 10.0)
    battle.note(VolleyFired, *shot, [10, 10, 10, 10])
    assert luck(battle, "A", start) == pytest.approx(price * 4 * (expected - 3.5))
    assert luck(battle, "B", start) == pytest.approx(-price * 4 * (expected - 3.5))
    start = len(battle.log)
    battle.note(VolleyFired, *shot, [1, 1, 1, 1])
    assert luck(battle, "A", start) == pytest.approx(price * 4 * expected)
    assert luck(battle, "A", 0) == pytest.approx(price * 4 * (2 * expected - 3.5))


def test_a_candidate_must_beat_the_doctrine_s_order_by_more_than_its_noise() -> None:
    admiral = AdmiralCaptain(Dice(1))  # caution 10: one standard error of the paired mean
    own = [0.0, 0.0, 0.0, 0.0]
    assert admiral.convinced([1.5, 0.5, 1.2, 0.8], own)  # better on every rollout
    assert not admiral.convinced([30.0, -28.0, 31.0, -29.0], own)  # better on average, by luck
    assert not admiral.convinced([-1.0, -1.0, -1.0, -1.0], own)
    assert not admiral.convinced([5.0], [0.0])  # one rollout tells nothing of its spread
    careless = make_captain("admiral:caution=0", Dice(1))
    assert careless.convinced([30.0, -28.0, 31.0, -29.0], own)  # type: ignore[attr-defined]


def test_a_candidate_behind_the_doctrine_s_order_on_the_same_dice_drops_out() -> None:
    own = [1.0] * 12
    assert behind([0.0] * PER_CANDIDATE, own)  # behind after PER_CANDIDATE rollouts
    assert not behind([0.0] * (PER_CANDIDATE - 1), own)  # too few to tell
    assert not behind([1.0] * PER_CANDIDATE, own)  # level is not behind
    # compared with the doctrine's first rollouts only, those played on the same dice
    assert not behind([2.0] * PER_CANDIDATE, [0.0] * PER_CANDIDATE + [100.0] * 4)


def test_the_exact_odds_can_be_switched_off() -> None:
    assert AdmiralCaptain(Dice(1)).exact
    assert not make_captain("admiral:exact=0", Dice(1)).exact  # type: ignore[attr-defined]


#: Seed pairs of the strength check (two battles each, sides swapped) and the search's budget.
#: (4, not 3, since rules fpf-4: the first 6 battles gave the search 3.5 under fpf-3 and 3 under
#: fpf-4, at the test's edge by luck; seeds 0-11, 24 battles, give it 18.5 and 18.)
PAIRS = 4
BUDGET = 12


@pytest.mark.slow
def test_the_admiral_beats_the_aggressive_doctrine_more_often_than_not(sample: int) -> None:
    # Mirror fleets with their cards, sides swapped: a seeded regression check that the
    # search has not collapsed (its strength is measured with intervals in `make bench`).
    # The FPF presets (a Borg cube mirror is a draw whoever plays it). A value of the wrong
    # sign scored 1.5 of the first 6 battles; the search as built scores 5 of these 8.
    scenario = builtin_scenario("standard")
    presets = fpf_preset_names()
    points = 0.0
    played = 0
    for seed in range(PAIRS * sample):
        fleet = load_fleet(f"presets:{presets[seed % len(presets)]}")
        for side in "AB":
            admiral = f"admiral:budget={BUDGET}"
            pair = (admiral, "aggressive") if side == "A" else ("aggressive", admiral)
            result = simulate(scenario, (fleet, fleet), pair, seed).result
            assert result is not None
            points += 1.0 if result.winner == side else 0.5 if result.winner is None else 0.0
            played += 1
    assert points > played / 2, f"admiral scored {points:g} of {played} against aggressive"


def test_the_admiral_beats_the_random_captain_in_fixed_seed_battles() -> None:
    # a floor under the search: 4 mirror battles with cards, both scenarios, sides swapped
    # (FPF fleets: a Borg cube mirror in Peak Performance scores no Fleet Points, so its
    # roll-off, not the search, decided it; a value of the wrong sign still wins these four,
    # its candidates being the doctrine's: the check against aggressive below catches that)
    won = 0
    battles = (("standard", "federation-cruisers", 1), ("peak-performance", "klingon-wolfpack", 0))
    for name, preset, seed in battles:
        fleet = load_fleet(f"presets:{preset}")
        for side in "AB":
            pair = ("admiral:budget=8", "random") if side == "A" else ("random", "admiral:budget=8")
            result = simulate(builtin_scenario(name), (fleet, fleet), pair, seed).result
            assert result is not None
            won += result.winner == side
    assert won == 4, f"admiral won {won} of 4 against random"
