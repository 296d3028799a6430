"""A fixed list of macro-actions for every FPF decision (the action space of `kolrami.rl`, and
what a learned captain chooses among at play time).

Every decision the FPF rules put to a side is answered by one of ACTIONS: a slot of a block
for that kind of decision (orders, initiative, activation, reaction, repairs, returns). Each
block's first slot is the aggressive doctrine's own answer, so that a policy always has the
built-in captain's choice; the other slots are the alternatives the captains already weigh:
the doctrines' ranked manoeuvre-and-fire plans (`ScoredCaptain.options`, as the admiral's
candidates are), holding fire, the doctrines' reactions (`reaction_options`), each squadron to
activate (forcing its first prey or not), `base.default_repairs` with each kind of item first,
and the admiral's return spots (`AdmiralCaptain.return_candidates`).

A slot is offered (its mask is 1) only when its order passes the rules' own check
(`BattleView.can`) and differs from every earlier slot's order, so a masked-in action is always
legal and no two offered actions give the same order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kolrami.captains.admiral import AdmiralCaptain
from kolrami.captains.admiral import EngagingCaptain
from kolrami.captains.base import REPAIR_KINDS
from kolrami.captains.base import BattleView
from kolrami.captains.base import default_repairs
from kolrami.captains.doctrines import AggressiveCaptain
from kolrami.captains.doctrines import KitingCaptain
from kolrami.engine.chance import Dice
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.rules.fpf.orders import ActivateOrder
from kolrami.rules.fpf.orders import ActivationDecision
from kolrami.rules.fpf.orders import InitiativeDecision
from kolrami.rules.fpf.orders import InitiativeOrder
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.rules.fpf.orders import ReactionOrder
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.fpf.orders import RepairOrder
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.rules.fpf.orders import SquadronOrder

#: The most squadrons a side may field in an environment (the activation block's size).
MAX_SQUADRONS: Final = 6
#: Ranked plans of the engaging doctrine offered at an activated squadron's orders.
ENGAGING_RANKS: Final = 4

#: The kinds of decision, in the order of their blocks (and of the observation's one-hot).
KINDS: Final = ("orders", "initiative", "activation", "reaction", "repairs", "returns")
DECISION_KINDS: Final[dict[type[Decision], str]] = {
    OrdersDecision: "orders",
    InitiativeDecision: "initiative",
    ActivationDecision: "activation",
    ReactionDecision: "reaction",
    RepairDecision: "repairs",
    ReturnDecision: "returns",
}


def _names() -> tuple[str, ...]:
    orders = [
        "orders:aggressive",
        "orders:kiting",
        *(f"orders:engaging-{r + 1}" for r in range(ENGAGING_RANKS)),
        "orders:engaging-1-hold",
        "orders:kiting-hold",
        "orders:aggressive-hold",
    ]
    activation = ["activation:aggressive"]
    for k in range(1, MAX_SQUADRONS + 1):
        activation += [f"activation:squadron-{k}", f"activation:squadron-{k}-force"]
    return (
        *orders,
        "initiative:aggressive",
        "initiative:first",
        "initiative:second",
        *activation,
        "reaction:aggressive",
        "reaction:hold",
        "reaction:fire",
        "repairs:aggressive",
        *(f"repairs:{kind}-first" for kind in REPAIR_KINDS),
        "repairs:none",
        "returns:aggressive",
        *(f"returns:spot-{k}" for k in range(1, 6)),
    )


#: Every macro-action's name, by index: `block:choice`.
ACTIONS: Final = _names()
#: The number of macro-actions (the size of the Discrete action space).
N_ACTIONS: Final = len(ACTIONS)
#: Where each kind's block starts, and its length.
BLOCKS: Final[dict[str, tuple[int, int]]] = {
    kind: (
        next(i for i, n in enumerate(ACTIONS) if n.startswith(kind + ":")),
        sum(1 for n in ACTIONS if n.startswith(kind + ":")),
    )
    for kind in KINDS
}


def kind_of(decision: Decision) -> str:
    """The kind of an FPF decision (a key of BLOCKS); ValueError for another game's."""
    kind = DECISION_KINDS.get(type(decision))
    if kind is None:
        raise ValueError(f"{type(decision).__name__} is not an FPF decision")
    return kind


@dataclass(frozen=True, slots=True)
class Choices:
    """The macro-actions at one decision: `orders[i]` is action i's order (None: not offered),
    `mask[i]` 1 where it is offered (legal, and no earlier action gives the same order)."""

    decision: Decision
    orders: tuple[Order | None, ...]
    mask: tuple[int, ...]

    def legal(self) -> list[int]:
        """The offered actions' indexes."""
        return [i for i, m in enumerate(self.mask) if m]

    def describe(self) -> str:
        """The offered actions, `index name (order)`, for a refusal."""
        return "; ".join(f"{i} {ACTIONS[i]} ({self.orders[i]})" for i in self.legal())


class MacroActions:
    """Enumerates the macro-actions of one side's decisions from its view alone (the doctrines
    it asks roll no dice: the same view and decision give the same choices)."""

    def __init__(self) -> None:
        self.aggressive = AggressiveCaptain(Dice(0))
        self.engaging = EngagingCaptain(Dice(0))
        self.kiting = KitingCaptain(Dice(0))
        self.admiral = AdmiralCaptain(Dice(0), budget=0)

    def choices(self, view: BattleView, decision: Decision) -> Choices:
        """Every macro-action's order at `decision` and which are offered."""
        kind = kind_of(decision)
        start, size = BLOCKS[kind]
        block = self._block(kind, view, decision)
        assert len(block) == size, (kind, len(block), size)
        orders: list[Order | None] = [None] * N_ACTIONS
        mask = [0] * N_ACTIONS
        seen: set[Order] = set()
        for i, order in enumerate(block):
            if order is None or order in seen:
                continue
            seen.add(order)
            if view.can(order):
                orders[start + i] = order
                mask[start + i] = 1
        return Choices(decision, tuple(orders), tuple(mask))

    def _block(self, kind: str, view: BattleView, decision: Decision) -> list[Order | None]:
        own = self.aggressive.decide(view, decision)
        if isinstance(decision, OrdersDecision):
            engaging = self.engaging.options(view, decision, ENGAGING_RANKS)
            kiting = self.kiting.decide(view, decision)
            ranked: list[Order | None] = [*engaging, *[None] * (ENGAGING_RANKS - len(engaging))]
            return [
                own,
                kiting,
                *ranked,
                _holding(engaging[0]),
                _holding(kiting),
                _holding(own),
            ]
        if isinstance(decision, InitiativeDecision):
            return [own, InitiativeOrder(True), InitiativeOrder(False)]
        if isinstance(decision, ActivationDecision):
            out: list[Order | None] = [own]
            prey = dict(decision.forcible)
            for k in range(1, MAX_SQUADRONS + 1):
                q = f"{decision.side}S{k}"
                if q in decision.squadrons:
                    forced = prey.get(q, ())
                    out += [ActivateOrder(q), ActivateOrder(q, forced[0]) if forced else None]
                else:
                    out += [None, None]
            return out
        if isinstance(decision, ReactionDecision):
            options = self.aggressive.reaction_options(view, decision)
            fire = next((o for o in options if o.fire is not None), None)
            return [own, ReactionOrder(decision.squadron), fire]
        if isinstance(decision, RepairDecision):
            return [
                own,
                *(default_repairs(view, decision, first) for first in REPAIR_KINDS),
                RepairOrder(),
            ]
        assert isinstance(decision, ReturnDecision), kind
        spots: list[Order | None] = [
            *self.admiral.return_candidates(view, decision)[1:],
        ]
        spots += [None] * (5 - len(spots))
        return [own, *spots[:5]]


def _holding(order: Order) -> Order | None:
    """An activated squadron's order with its fire held (None when it holds already)."""
    if not isinstance(order, SquadronOrder) or order.fire is None:
        return None
    return SquadronOrder(order.squadron, order.moves, None)
