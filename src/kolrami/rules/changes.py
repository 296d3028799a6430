"""One declarative Change for every game: a change that sets its fields where they live.

Most changes of a ship carry the values after them under the names the state uses (`x`, `y`,
`superstructure`, an advanced ship's `base` shields ...), so applying one is copying those
fields. A kind says which fields go where, and `Sets.apply` copies them; what else it does (a
game's bookkeeping: who tows whom, a probe's record) goes in its `then`. A tractor's tow, for
example, is a frozen dataclass `Towed(Sets)` with its `kind`, its fields (`ship`, `by`, `x`,
`y`) and `on_ship = ("x", "y")`, and nothing else.

The kind's fields, its name and so its log form are its own dataclass's, as for any event
(`Event.to_json`); a game whose ships keep more state than `ShipState` (the advanced game's
`AdvShip`) says where with `game_state` (`rules.advanced.state.AdvSets`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import ClassVar

from kolrami.engine.events import Change

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle


class Sets(Change["Battle"]):
    """A change that sets the fields `on_ship` names on its ship (`battle.ships[self.ship]`)
    and those `on_state` names on the game's own state of it (`game_state`), each under its own
    name (a list copied), then does `then`."""

    __slots__ = ()
    #: fields copied onto the ship's `ShipState`
    on_ship: ClassVar[tuple[str, ...]] = ()
    #: fields copied onto the game's own state of the ship (`game_state`)
    on_state: ClassVar[tuple[str, ...]] = ()
    #: the ship the change is of (every kind has the field)
    ship: str

    def apply(self, battle: Battle) -> None:
        if self.on_ship:
            _copy(self, self.on_ship, battle.ships[self.ship])
        if self.on_state:
            _copy(self, self.on_state, self.game_state(battle))
        self.then(battle)

    def game_state(self, battle: Battle) -> object:
        """Where the game keeps its own state of the ship (a kind with `on_state` says)."""
        raise NotImplementedError(f"{type(self).__name__} does not say where its state is")

    def then(self, battle: Battle) -> None:
        """What the change does besides setting its fields (nothing unless the kind says)."""


def _copy(change: Sets, names: tuple[str, ...], target: object) -> None:
    """Set each named field of `change` on `target` (a list as a copy of its own)."""
    for name in names:
        value = getattr(change, name)
        setattr(target, name, list(value) if isinstance(value, list) else value)
