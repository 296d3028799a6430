"""`admiral`: a captain that searches (issue 21).

At each activated squadron's orders, and in Peak Performance where a reset ship comes back
(PP-11) and each reaction to an enemy's activation (FPF-FIRE-11; in every battle with
`reactions=2`, never with `reactions=0`), it weighs a few candidate answers by playing each
forward many times, and gives the one that did best; every other decision it answers as the
aggressive doctrine does. A bandit over macro-actions, one decision at a time:

- **Candidates** (macro-actions: a manoeuvre for every mover and a fire plan): the engaging
  doctrine's orders of its best few manoeuvres (`ScoredCaptain.options`; the engaging doctrine
  is the aggressive one without its withdrawal, ENGAGING), the kiting doctrine's choice, and
  the engaging doctrine's own choice holding its fire (keeping the volley for reaction fire).
- **Returns** (Peak Performance, PP-11): the doctrine's spot for a reset ship, RETURN_SPREAD
  spots along the front edge of its zone and the middle of the back edge
  (`return_candidates`), searched the same way from the start of the turn.
- **Reactions** (FPF-FIRE-11; `reactions`: 0 never, 1 in battles whose destroyed ships come
  back, Peak Performance's (the default), 2 in every battle): the engaging doctrine's reaction
  and the other course (`ScoredCaptain.reaction_options`: holding if it fires; if it holds,
  firing every forward arc that has the mover in reach), played on from the reaction. Measured,
  the search of reactions wins battles where ships come back and none in standard battles,
  where it costs two thirds more time (docs/captains.md, ninth pass).
- **Repairs** (FPF-REP-02; only with `repairs=1`): the doctrine's repairs and each kind of
  item put first (`base.REPAIR_KINDS`), played on from the repairs. Measured, searching them
  won nothing (docs/captains.md, eleventh pass): by default the doctrine's.
- **Rollouts**: a copy of the battle as its side may know it (`BattleView.sample`: the battle's
  clone with dice of the captain's own, never the battle's future rolls; enemy ships it cannot
  see are put where they might be), the candidate given, then played on
  (`kolrami.engine.driver.apply`, halting at `Battle.horizon`) through the rest of the turn
  and `horizon` turns more: its own side
  by the engaging doctrine (as the admiral itself goes on to play), the enemy by each of
  ENEMY_MODELS in turn (the j-th rollout by the j-th modulo their number): the admiral does not
  know how the enemy thinks, and a search against one model of it overfits that model. A
  rollout is worth the enemy's losses less ours, in points: a ship destroyed counts its points,
  a damaged one the share of its hull lost; Fleet Points scored count too, and a battle won or
  lost by the end its whole fleet's points (a battle level at the end and decided by the
  roll-off, PP-22, counts as level: the roll-off is a coin, worth nought either way).
- **Common random numbers**: the j-th rollout of every candidate runs on the same dice, so two
  candidates are compared on the same luck.
- **Budget**: `budget` rollouts per decision, spent by successive halving: every candidate
  gets the same share, the better half goes on (the doctrine's own order always among them),
  until one is left; a small budget weighs fewer candidates (PER_CANDIDATE rollouts each at
  least), since a choice made on one or two rollouts is noise. A round's rollouts are played
  PER_CANDIDATE at a time, and a candidate that is behind the doctrine's own order on the same
  dice by then drops out (`behind`): it could hardly still beat it by `caution`.
- **Caution**: the best candidate is given only if its rollouts beat the doctrine's own order's
  by more than `caution` tenths of a standard error of their paired difference; else the
  doctrine's order (the best of several noisy means is more often a lucky one than a good one).

Deterministic for a seed: every rollout's dice derive from the captain's own dice's seed, the
number of the decision and the rollout's index. Parameters:
`admiral:budget=200,horizon=1,width=6,caution=10,exact=1,reactions=1,repairs=0`
(docs/captains.md).
"""

from __future__ import annotations

import dataclasses
import math
from functools import cache
from typing import ClassVar

from kolrami.captains.base import REPAIR_KINDS
from kolrami.captains.base import BattleView
from kolrami.captains.base import Bounds
from kolrami.captains.base import bounds_of
from kolrami.captains.base import default_repairs
from kolrami.captains.doctrines import AggressiveCaptain
from kolrami.captains.doctrines import KitingCaptain
from kolrami.captains.doctrines import ScoredCaptain
from kolrami.catalog.models import WeaponKind
from kolrami.engine.battle import Battle
from kolrami.engine.battle import Result
from kolrami.engine.chance import Dice
from kolrami.engine.chance import derive_seed
from kolrami.engine.driver import apply
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.errors import InvalidInputError
from kolrami.rules.events import RollOff
from kolrami.rules.events import VolleyFired
from kolrami.rules.exact import shot_damage_die
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.fpf.damage import penetration_probability
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.rules.fpf.orders import ReactionOrder
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.fpf.orders import RepairOrder
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.rules.fpf.orders import ReturnOrder
from kolrami.rules.fpf.orders import SquadronOrder

#: The default rollouts per decision, turns searched beyond this one, and candidates.
BUDGET = 64
HORIZON = 1
WIDTH = 6
#: How far a candidate must beat the doctrine's own order to be chosen over it, in tenths of a
#: standard error of their paired difference (`AdmiralCaptain.convinced`; 0: the best mean).
CAUTION = 10
#: The fewest rollouts each candidate gets in the first round (the budget sets how many).
PER_CANDIDATE = 8
#: Spots along the front edge of a reset ship's zone weighed for its return (PP-11).
RETURN_SPREAD = 4
#: Where it searches the reactions to an enemy's activation (`reactions`): never, in battles
#: whose destroyed ships are reset and come back (Peak Performance), in every battle.
REACT_NEVER, REACT_WHERE_RESET, REACT_ALWAYS = 0, 1, 2
#: The decisions it searches, and their answers.
Searched = OrdersDecision | ReactionDecision | RepairDecision | ReturnDecision
Answer = SquadronOrder | ReactionOrder | RepairOrder | ReturnOrder
#: The doctrine the admiral draws its candidates from and plays its own side's rollouts by:
#: the aggressive doctrine without the withdrawal of damaged ships. Measured: withdrawing
#: scores below not withdrawing at every weight tried (docs/captains.md), and an admiral whose
#: candidates withdraw keeps too few of its chances to trade (it drew a quarter of its
#: standard battles, mostly two fleets resting at opposite edges).
ENGAGING = dataclasses.replace(AggressiveCaptain.weights, withdraw=0.0)
#: The doctrines the enemy's side of the rollouts is played by, in turn. Measured against
#: kiting (seeds 0-127, budget 32): 0.871 with the aggressive doctrine alone, 0.965 with both.
ENEMY_MODELS: tuple[type[ScoredCaptain], ...] = (AggressiveCaptain, KitingCaptain)


class EngagingCaptain(AggressiveCaptain):
    """The aggressive doctrine with the ENGAGING weights: it does not withdraw damaged ships."""

    name = "engaging"
    weights = ENGAGING


class AdmiralCaptain:
    """Searches each activation's orders, a reset ship's return and (where ships come back,
    or as `reactions` says) each reaction by rollouts of the doctrines (a bandit over
    manoeuvre-and-fire plans with common random numbers); answers the rest as `aggressive`."""

    name = "admiral"
    #: it plays battles forward at its decisions: a sweep saves and shows progress battle
    #: by battle (`registry.searches`)
    searches: ClassVar[bool] = True
    #: the parameters it takes (`admiral:budget=200`), each a whole number, and their least
    #: value (or least and greatest)
    parameters: ClassVar[dict[str, Bounds]] = {
        "budget": 0,
        "horizon": 0,
        "width": 1,
        "exact": 0,
        "caution": 0,
        "reactions": (REACT_NEVER, REACT_ALWAYS),
        "repairs": (0, 1),
    }

    def __init__(
        self,
        dice: Dice,
        budget: int = BUDGET,
        horizon: int = HORIZON,
        width: int = WIDTH,
        exact: int = 1,
        caution: int = CAUTION,
        reactions: int = REACT_WHERE_RESET,
        repairs: int = 0,
    ) -> None:
        for key, value in (
            ("budget", budget),
            ("horizon", horizon),
            ("width", width),
            ("exact", exact),
            ("caution", caution),
            ("reactions", reactions),
            ("repairs", repairs),
        ):
            least, most = bounds_of(self.parameters[key])
            if not isinstance(value, int) or value < least or (most is not None and value > most):
                span = f"of at least {least}" if most is None else f"from {least} to {most}"
                raise InvalidInputError(
                    f"captain admiral: {key} must be a whole number {span}, not {value!r} "
                    f"(e.g. admiral:{key}={max(least, 1)})"
                )
        self.seed = dice.seed
        self.budget, self.horizon, self.width = budget, horizon, width
        self.caution = caution
        #: value fire by its exact odds (`luck`): 0 plays the rollouts' rolls as they fell
        self.exact = exact > 0
        #: where it searches the reactions to enemy activations (FPF-FIRE-11): REACT_NEVER,
        #: REACT_WHERE_RESET or REACT_ALWAYS (docs/captains.md)
        self.reactions = reactions
        #: whether it searches its repairs (FPF-REP-02) where a ship has more damage than
        #: points: 1 yes; 0, the default, gives the doctrine's order (measured: searching
        #: them won nothing, docs/captains.md, eleventh pass)
        self.repairs = repairs > 0
        self.doctrine = AggressiveCaptain(dice)  # the decisions it does not search
        self.engaging = EngagingCaptain(dice)  # the candidates
        self.kiting = KitingCaptain(dice)
        # a rollout's captains (they roll no dice): its own side, and the enemy's models
        self.own_playout = EngagingCaptain(Dice(0))
        self.enemy_models = tuple(model(Dice(0)) for model in ENEMY_MODELS)
        self.searched = 0  # decisions searched so far: part of each rollout's seed
        self.rollouts = 0

    def decide(self, view: BattleView, decision: Decision) -> Order:
        if self.budget > 0:
            if isinstance(decision, OrdersDecision):
                return self._search(view, decision, [*self.candidates(view, decision)])
            if isinstance(decision, ReactionDecision) and self.searches_reactions(view):
                return self._search(
                    view, decision, [*self.engaging.reaction_options(view, decision)]
                )
            if isinstance(decision, ReturnDecision):
                return self._search(view, decision, self.return_candidates(view, decision))
            if isinstance(decision, RepairDecision) and self.repairs:
                return self._search(view, decision, self.repair_candidates(view, decision))
        return self.doctrine.decide(view, decision)

    def searches_reactions(self, view: BattleView) -> bool:
        """Whether it searches this battle's reactions (`reactions`): always, never, or where
        destroyed ships are reset and come back (Peak Performance)."""
        if self.reactions == REACT_ALWAYS:
            return True
        return self.reactions == REACT_WHERE_RESET and view.resets_destroyed()

    # --- the search ---------------------------------------------------------------------------

    def candidates(self, view: BattleView, decision: OrdersDecision) -> list[SquadronOrder]:
        """The orders weighed: the engaging doctrine's best few, kiting's choice, the first
        holding fire; each once, in that order."""
        options = self.engaging.options(view, decision, max(1, self.width - 2))
        extra = [self.kiting.options(view, decision, 1)[0]]
        first = options[0]
        if first.fire is not None:
            extra.append(SquadronOrder(first.squadron, first.moves, None))
        seen = {str(o) for o in options}
        for order in extra:
            if str(order) not in seen and len(options) < self.width:
                seen.add(str(order))
                options.append(order)
        return options

    def repair_candidates(self, view: BattleView, decision: RepairDecision) -> list[Answer]:
        """How its ships may spend their Damage Control (FPF-REP-02): the doctrine's order
        first (control regained, then weapons knocked out, shields, engines, weapons
        weakened, Systems: `base.default_repairs`), then each kind of item (REPAIR_KINDS)
        put before the rest; each distinct order once. A side whose ships can repair all
        their damage has one."""
        options: list[Answer] = []
        seen: set[str] = set()
        for first in ("", *REPAIR_KINDS):
            order = default_repairs(view, decision, first)
            if str(order) not in seen:
                seen.add(str(order))
                options.append(order)
        return options[: self.width]

    def return_candidates(self, view: BattleView, decision: ReturnDecision) -> list[Answer]:
        """Where a reset ship may come back (Peak Performance, PP-11): the doctrine's spot
        first (`base.default_return`: across from the enemy, on the zone's front edge), then
        RETURN_SPREAD spots spread along that front edge, left to right, and the middle of
        the zone's back edge (the farthest from the fight); each facing the enemy's edge."""
        own = self.doctrine.decide(view, decision)
        assert isinstance(own, ReturnOrder)
        spots = decision.spots
        forward = max if view.side == "A" else min
        front = forward(y for _, y in spots)
        back = (min if view.side == "A" else max)(y for _, y in spots)
        row = sorted(x for x, y in spots if y == front)
        picks = [
            (row[round(i * (len(row) - 1) / (RETURN_SPREAD - 1))], front)
            for i in range(RETURN_SPREAD)
        ]
        rear = sorted(x for x, y in spots if y == back)
        picks.append((rear[len(rear) // 2], back))
        seen = {(own.x, own.y)}
        options: list[Answer] = [own]
        for x, y in picks:
            if (x, y) not in seen:
                seen.add((x, y))
                options.append(ReturnOrder(decision.ship, x, y, own.heading))
        return options[: self.width]

    def _search(
        self,
        view: BattleView,
        decision: Searched,
        options: list[Answer],
    ) -> Answer:
        """The best of `options` by rollouts (the first, the doctrine's own, unless another
        convincingly beats it)."""
        # at least PER_CANDIDATE rollouts each in the first round: fewer candidates when the
        # budget is small (a choice made on a rollout or two is noise, worse than the doctrine)
        options = options[: max(2, self.budget // PER_CANDIDATE)]
        if len(options) == 1:
            return options[0]
        self.searched += 1
        seeds: list[int] = []
        totals = [0.0] * len(options)
        worths: list[list[float]] = [[] for _ in options]  # each rollout's value, in order
        alive = list(range(len(options)))
        rounds = max(1, (len(options) - 1).bit_length())  # halvings to one survivor
        per_round = max(1, self.budget // rounds)
        spent = 0
        while len(alive) > 1 and spent < self.budget:
            size = len(alive)  # the round's candidates, as the halving counts them
            each = max(1, per_round // size)
            goal = {i: len(worths[i]) + each for i in alive}
            # the round's rollouts PER_CANDIDATE at a time, each candidate in turn; a candidate
            # behind the doctrine's own order on the same dice drops out between them
            while len(alive) > 1 and any(len(worths[i]) < goal[i] for i in alive):
                for i in alive:
                    done = len(worths[i])  # rollouts it has had so far
                    for j in range(done, min(goal[i], done + PER_CANDIDATE)):
                        while len(seeds) <= j:  # the j-th rollout's dice: the same for all
                            seeds.append(
                                derive_seed(self.seed, "admiral", self.searched, len(seeds))
                            )
                        worth = self.rollout(view, decision, options[i], seeds[j], j)
                        worths[i].append(worth)
                        totals[i] += worth
                        spent += 1
                alive = [i for i in alive if i == 0 or not behind(worths[i], worths[0])]
            if len(alive) == 1:
                break
            # the better half goes on (the earlier of equals first); the doctrine's own order
            # always stays, so a candidate must beat it on the same dice to be chosen
            # (halved as if none had dropped out: a search cut short by a drop-out would give
            # its best candidate fewer rollouts to prove itself than the budget has for it)
            ranked = sorted(alive, key=lambda i: (-totals[i] / len(worths[i]), i))
            keep = ranked[: max(1, size // 2)]
            alive = sorted({0, *keep}) if size > 2 else keep
        best = min(alive, key=lambda i: (-totals[i] / max(1, len(worths[i])), i))
        if best != 0 and not self.convinced(worths[best], worths[0]):
            best = 0
        return options[best]

    def convinced(self, other: list[float], own: list[float]) -> bool:
        """Whether a candidate's rollouts beat the doctrine's own order's by more than
        `caution` tenths of a standard error of their mean difference, rollout by rollout (the
        j-th of each ran on the same dice). A search that picks the best of several noisy
        means picks a lucky one more often than a good one; the doctrine's order is the
        prior it must beat."""
        n = min(len(other), len(own))
        if self.caution <= 0:
            return True
        if n < 2:
            return False
        diffs = [other[j] - own[j] for j in range(n)]
        mean = sum(diffs) / n
        spread = sum((d - mean) * (d - mean) for d in diffs) / (n - 1)
        return mean > self.caution / 10 * math.sqrt(spread / n)

    def rollout(
        self,
        view: BattleView,
        decision: Searched,
        order: Answer,
        seed: int,
        index: int = 0,
    ) -> float:
        """One playout of `order` on a copy of the battle with dice from `seed`, the enemy
        played by the `index`-th of the enemy's models (modulo their number): its value for
        this side."""
        self.rollouts += 1
        copy = view.sample(Dice(seed))
        start = len(copy.log)
        copy.horizon = copy.turn + self.horizon
        views = {side: copy.rules.view(copy, side) for side in ("A", "B")}
        own = self.own_playout
        other = self.enemy_models[index % len(self.enemy_models)]
        side = view.side
        asked = apply(copy, order)
        while asked is not None:
            captain = own if asked.side == side else other
            asked = apply(copy, captain.decide(views[asked.side], asked))
        result: Result | None = copy.result
        worth = value(copy, view.side, result)
        if self.exact:
            worth += luck(copy, view.side, start)
        return worth


def behind(other: list[float], own: list[float]) -> bool:
    """Whether a candidate's rollouts, PER_CANDIDATE of them at least, are worth less in all
    than the doctrine's own order's on the same dice (the first as many of its). Such a
    candidate drops out of the search: to be chosen it would have to make up the difference
    and then beat the doctrine's order by `caution` (measured on 102 reactions searched: of
    the 72 candidates behind after 8 rollouts, none was chosen after 32)."""
    n = len(other)
    return n >= PER_CANDIDATE and sum(other) < sum(own[:n])


def value(battle: Battle, side: str, result: Result | None) -> float:
    """What a rollout's end is worth to `side`, in points: the enemy's losses less its own (a
    ship destroyed or left derelict its points, a damaged one the share of its hull lost), the
    difference in Fleet Points, and for a battle decided its whole fleets' points. A battle
    that ended level and went to the roll-off (PP-22, OP-24) counts as undecided: which side
    the dice favoured says nothing of the candidate, and its whole fleets' points either way
    would swamp every other rollout's difference."""
    if result is not None and result.winner is not None and _rolled_off(battle):
        result = None
    total = 0.0
    fleets = 0.0
    for ship in battle.ships.values():
        fleets += ship.points
        if ship.destroyed or ship.derelict:
            lost = float(ship.points)
        else:
            lost = ship.points * (1.0 - max(0, ship.superstructure) / ship.cls.superstructure)
        total += -lost if ship.side == side else lost
    other = "B" if side == "A" else "A"
    total += battle.fleet_points[side] - battle.fleet_points[other]
    if result is not None and result.winner is not None:
        total += fleets if result.winner == side else -fleets
    return total


def _rolled_off(battle: Battle) -> bool:
    """Whether the battle's end was decided by a roll-off: its RollOff is the record just
    before the battle's end (`Battle.finish` logs the end right after the rules' result)."""
    log = battle.log
    for _ in log.fields_since(max(0, len(log) - 2), RollOff):
        return True
    return False


def luck(battle: Battle, side: str, start: int) -> float:
    """The rollout's fire luck taken back out (a control variate): for every volley fired
    since the `start`-th log record, the exact expected damage of its shots
    (`rules.exact.shot_damage_die`: penetration against the shields it met, then the weapon's
    damage) less what its penetration rolls dealt (each penetrating shot its weapon's mean
    damage), at the hull price `value` puts on the target (its points over its hull), plus
    for an enemy target, minus for one of ours. Its expectation is nought whatever the
    candidate, so adding it leaves a candidate's mean value where it was while taking most of
    the dice's noise out of the comparison: a fire plan is valued by its odds, not by one
    roll of them. (Cards that reroll dice make the rolls kept slightly better than a fair
    die's; their volleys count as if they were fair.)"""
    total = 0.0
    ships = battle.ships
    for target_id, weapon, shots, strength, shields, rolls in battle.log.fields_since(
        start, VolleyFired, "target", "weapon", "shots", "strength", "shields", "rolls"
    ):
        target = ships[target_id]
        expected, per_hit = _odds(weapon, shields, strength)
        hits = 0
        for roll in rolls:
            if penetrates(roll, shields, strength):
                hits += 1
        price = target.points / target.cls.superstructure
        gap = price * (shots * expected - hits * per_hit)
        total += -gap if target.side == side else gap
    return total


@cache
def _odds(weapon: str, shields: int, strength: int) -> tuple[float, float]:
    """One shot of `weapon` (a WeaponKind's value): its exact expected damage against `shields`
    and a penetrating shot's mean damage (FPF-DMG-04, FPF-DMG-05)."""
    die = shot_damage_die(WeaponKind(weapon), shields, strength)
    chance = penetration_probability(shields, strength)
    mean = float(die.mean())
    return mean, (mean / chance if chance else 0.0)
