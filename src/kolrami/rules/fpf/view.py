"""The view of an FPF-family battle a captain is given: what one side may know.

Its own ships in full, enemy ships as the rules let it see them (everything in FPF; the advanced
game's cloaks hide some). The view never exposes the battle's dice: a captain that wants chance
has its own generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import cast

from kolrami.engine import driver
from kolrami.engine.chance import Dice
from kolrami.engine.chance import derive_seed
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.engine.view import ShipView
from kolrami.engine.view import Snapshots
from kolrami.engine.view import SquadronView
from kolrami.rules.fpf import fire
from kolrami.rules.fpf import movement
from kolrami.rules.module import Capability
from kolrami.rules.module import rules_of

if TYPE_CHECKING:
    # (the type only: the advanced game, above FPF, makes its view through the rules'
    # `game_view` policy; pyproject's contract lists this one type-only import)
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState
    from kolrami.rules.advanced.view import AdvancedView
    from kolrami.scenarios.models import Scenario


class BattleView:
    """What one side may know of a battle, as frozen snapshots (kolrami.engine.view): a captain
    reads ships and squadrons as they are at its decision and cannot change the battle."""

    __slots__ = ("_battle", "_snap", "enemy", "side")

    def __init__(self, battle: Battle, side: str) -> None:
        self._battle = battle
        self._snap = Snapshots(battle)
        self.side = side
        self.enemy = "B" if side == "A" else "A"

    @property
    def turn(self) -> int:
        """The current turn number."""
        return self._battle.turn

    def verify(self, order: Order) -> None:
        """Raise IllegalOrderError (naming the rule and the fix) unless `order` is a legal
        answer to the decision this side is asked now: the rules' own check, the battle
        untouched."""
        pending = self._battle.pending
        if pending is None or pending.side != self.side:
            raise IllegalOrderError(f"side {self.side} is asked nothing now")
        driver.verify(self._battle, order)

    def can(self, order: Order) -> bool:
        """Whether `order` is a legal answer to the decision this side is asked now."""
        try:
            self.verify(order)
        except IllegalOrderError:
            return False
        return True

    @property
    def scenario(self) -> Scenario:
        """The scenario as this side knows it: the enemy's mines only once found (ADV-MINE-03;
        the log holds the whole scenario): the rules' `seen_scenario`."""
        return rules_of(self._battle).seen_scenario(self._battle, self.side)

    def own_ships(self) -> list[ShipView]:
        """This side's ships in play."""
        return self._snap.ships(self._battle.side_ships(self.side))

    def enemies(self) -> list[ShipView]:
        """Enemy ships in play that this side can see."""
        found = self._battle.side_ships(self.enemy)
        return self._snap.ships(found if self._battle.sight is None else self._seen(found))

    def _visible(self, ship_id: str) -> ShipState:
        ship = self._battle.ships[ship_id]
        if ship.side != self.side and not self._battle.visible(self.side, ship):
            raise KeyError(ship_id)
        return ship

    def ship(self, ship_id: str) -> ShipView:
        """A ship by id (own, or a visible enemy)."""
        return self._snap.ship(self._visible(ship_id).id)

    def squadron(self, squadron_id: str) -> SquadronView:
        """A squadron by id."""
        return self._snap.squadron(squadron_id)

    def members(self, squadron_id: str) -> list[ShipView]:
        """Ships of a squadron still in play (formation first)."""
        q = self._battle.squadrons[squadron_id]
        ships = self._battle.ships
        found = []
        formation = q.formation
        for sid in formation:
            s = ships[sid]  # (looked up once)
            if s.alive:
                found.append(s)
        for sid in q.ships:
            if sid not in formation:
                s = ships[sid]
                if s.alive:
                    found.append(s)
        return self._snap.ships(found if self._battle.sight is None else self._seen(found))

    def _seen(self, ships: list[ShipState]) -> list[ShipState]:
        """The ships of `ships` this side can see (cloaked enemies it cannot are left out)."""
        b = self._battle
        if b.sight is None:  # nothing is hidden (FPF)
            return ships
        return [s for s in ships if b.visible(self.side, s)]

    def movers(self, squadron_id: str) -> list[str | None]:
        """Who needs a manoeuvre in a squadron's orders (None: the formation)."""
        return movement.movers(self._battle, self._battle.squadrons[squadron_id])

    def firers(self, squadron_id: str) -> list[ShipView]:
        """Ships of a squadron able to fire."""
        able = fire.firers(self._battle, self._battle.squadrons[squadron_id])
        return self._snap.ships(able if self._battle.sight is None else self._seen(able))

    def speed_limits(self, mover: str | None, squadron_id: str, pivot: bool) -> tuple[int, int]:
        """Legal speeds for a mover (the formation when None)."""
        b = self._battle
        if mover is None:
            return movement.formation_limits(b, b.squadrons[squadron_id], pivot)
        return movement.speed_limits(b, self._visible(mover), pivot)

    def resets_destroyed(self) -> bool:
        """Whether a destroyed ship is reset and comes back instead (Peak Performance, PP-04:
        the battle's rules have Capability.RESETS_DESTROYED)."""
        return Capability.RESETS_DESTROYED in self._battle.rules.capabilities

    def fires_as_unit(self) -> bool:
        """Whether a firing squadron must fire with every ship (FPF-FIRE-13)."""
        return rules_of(self._battle).squadron_fires_as_unit(self._battle)

    def mover_position(self, mover: str | None, squadron_id: str) -> ShipView:
        """The ship whose position a mover's manoeuvre starts from (KeyError for a hidden
        enemy)."""
        if mover is None:
            q = self._battle.squadrons[squadron_id]
            return self.ship(q.formation[0])
        return self.ship(mover)

    def obstacles(self) -> list[tuple[float, float, float]]:
        """(x, y, radius) circles a ship's centre cannot enter: planets grown by a base radius."""
        r = self._battle.base_radius_cm
        out = []
        for t in self._battle.blockers:
            out.append((t.x, t.y, t.radius_cm + r))
        return out

    def return_spots(self, ship_id: str) -> list[tuple[float, float]]:
        """Legal spots where a reset ship may return (Peak Performance, PP-11; the rules'
        `return_spots`)."""
        return rules_of(self._battle).return_spots(self._battle, self._visible(ship_id))

    def fleet_points(self) -> dict[str, int]:
        """Fleet Points so far, when the scenario scores them."""
        return dict(self._battle.fleet_points)

    def count_candidates(self, n: int) -> None:
        """Report manoeuvres evaluated (for benchmarks)."""
        self._battle.stats.candidates += n

    def sample(self, dice: Dice) -> Battle:
        """A copy of the battle as this side may know it, for a search to play forward
        (`kolrami.engine.driver.apply`): the battle cloned with `dice` as its chance (never the
        battle's own future rolls), every enemy ship this side cannot see put where
        it might be, a spot on the table and a heading drawn from `dice` (the side knows
        nothing of it). The copy is the searcher's own: nothing done to it reaches the battle.
        Its seed, header and log's opening name a seed of its own, derived from `dice`'s: a
        battle rebuilt from them, the copy's orders replayed, rolls other dice than the
        battle's (issue 46)."""
        copy = self._battle.clone(dice)
        # the copy's own seed, from the searcher's dice (none of them rolled): its header and
        # log name no seed the battle's future rolls come from
        copy.reseed(derive_seed(dice.seed, "sample"))
        if copy.sight is not None:
            width, height = copy.table_width_cm, copy.table_height_cm
            for ship in copy.side_ships(self.enemy):
                if not self._battle.visible(self.side, self._battle.ships[ship.id]):
                    ship.x = (dice.d(1000) - 0.5) / 1000 * width
                    ship.y = (dice.d(1000) - 0.5) / 1000 * height
                    ship.heading = dice.d(6) - 1
        return copy

    def advanced(self) -> AdvancedView:
        """The advanced game's part of the view (officers, power, shields, locks); only in a
        battle the advanced driver plays (the rules' `game_view`)."""
        part = rules_of(self._battle).game_view(self._battle, self.side)
        if part is None:
            raise TypeError("only a battle the advanced driver plays has an advanced view")
        return cast("AdvancedView", part)
