"""Cards: captains, admirals, upgrades and resources (data/cards.toml), and their costs.

Cards are data: who they are, what they cost, who may carry them, and which engine hook carries
out their effect with which parameters (the hooks live in kolrami.rules.cards). The squad-building
rules that check a fleet's cards are in kolrami.fleet.legality.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Literal
from typing import Self

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import model_validator

from kolrami.catalog.loader import read_toml
from kolrami.catalog.loader import validated
from kolrami.catalog.models import FactionCode
from kolrami.catalog.models import UpgradeType
from kolrami.catalog.models import WeaponKind
from kolrami.catalog.names import Names
from kolrami.errors import DataPackError


class CardKind(StrEnum):
    """What a card is; a FleetX ship carries one captain, one admiral, and upgrades."""

    CAPTAIN = "captain"
    ADMIRAL = "admiral"
    UPGRADE = "upgrade"
    RESOURCE = "resource"


class Scope(StrEnum):
    """Who an effect reaches."""

    SHIP = "ship"
    SQUADRON = "squadron"
    FLEET = "fleet"


Hook = Literal["stat", "weapon", "reroll", "evasion", "initiative", "repair-team"]
Stat = Literal["shields", "engine_power", "computer", "damage_control"]


class Effect(BaseModel):
    """An engine hook and its parameters (see the header of data/cards.toml)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hook: Hook
    scope: Scope = Scope.SHIP
    stat: Stat | None = None
    amount: int = 0
    weapon: WeaponKind | None = None
    strength: int = 0
    range_cm: int = 0
    per_turn: int = 0
    uses: int = 0

    @model_validator(mode="after")
    def _parameters_fit_the_hook(self) -> Self:
        need = {
            "stat": self.stat is not None and self.amount != 0,
            "weapon": self.weapon is not None and (self.strength != 0 or self.range_cm != 0),
            "reroll": self.per_turn > 0,
            "evasion": self.amount > 0,
            "initiative": self.amount > 0,
            "repair-team": self.amount > 0 and self.uses > 0,
        }
        if not need[self.hook]:
            raise ValueError(f"hook '{self.hook}' is missing its parameters")
        return self

    def describe(self) -> str:
        """One line for `kolrami card`: hook, parameters, scope."""
        parts: list[str] = [self.hook]
        if self.stat:
            parts.append(f"{self.stat} {self.amount:+d}")
        elif self.weapon:
            if self.strength:
                parts.append(f"{self.weapon.value} strength {self.strength:+d}")
            if self.range_cm:
                parts.append(f"{self.weapon.value} range {self.range_cm:+d} cm")
        elif self.hook == "reroll":
            parts.append(f"{self.per_turn} a turn")
        elif self.hook == "repair-team":
            parts.append(f"{self.amount} repairs, {self.uses} use(s)")
        else:
            parts.append(f"{self.amount:+d}")
        return f"{' '.join(parts)} ({self.scope.value})"


class Restriction(BaseModel):
    """Who may carry a card: ships of these factions and/or these types (empty: anyone)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    factions: tuple[FactionCode, ...] = ()
    ship_types: tuple[str, ...] = ()


class Card(BaseModel):
    """One card of the set."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: str = Field(min_length=1)
    kind: CardKind
    type: UpgradeType | None = Field(None, description="Upgrade type (upgrades only).")
    faction: FactionCode
    cost: int = Field(ge=0, description="SP cost.")
    unique: bool = False
    skill: int | None = Field(None, ge=1, le=9, description="Captains only.")
    text: str = Field(min_length=1)
    effect: Effect
    restriction: Restriction = Restriction()

    @model_validator(mode="after")
    def _kind_fields(self) -> Self:
        if (self.kind is CardKind.UPGRADE) != (self.type is not None):
            raise ValueError("upgrades, and only upgrades, have a type")
        if (self.kind is CardKind.CAPTAIN) != (self.skill is not None):
            raise ValueError("captains, and only captains, have a skill")
        return self

    @property
    def type_code(self) -> str:
        """The sheet's Type column: C/E/T/W/B/S for upgrades, else the kind's name."""
        return self.type.code if self.type is not None else self.kind.value.title()


def parse_cards(text: str, source: str) -> dict[str, Card]:
    """Validate a card file; one message naming the file, the card and the field."""
    raw = read_toml(text, source)
    out: dict[str, Card] = {}
    for table, entries in raw.items():
        try:
            kind = CardKind(table)
        except ValueError:
            raise DataPackError(
                f"{source}: unknown table [[{table}]]; use captain, admiral, upgrade or resource"
            ) from None
        for number, entry in enumerate(entries, start=1):
            label = entry.get("id", f"#{number}") if isinstance(entry, dict) else f"#{number}"
            card = validated(Card, {**entry, "kind": kind}, f"{source}: {table} '{label}'")
            if card.id in out:
                raise DataPackError(f"{source}: {table} '{label}': field 'id': duplicate id")
            out[card.id] = card
    return out


@cache
def cards() -> dict[str, Card]:
    """Every built-in card by id."""
    text = resources.files("kolrami.catalog").joinpath("data", "cards.toml").read_text()
    return parse_cards(text, "kolrami/catalog/data/cards.toml")


@cache
def card_names() -> Names[Card]:
    """Every built-in card by id and name, found loosely (kolrami.catalog.names)."""
    return Names.of("card", ((c, c.name, (c.id,)) for c in cards().values()))


def get_card(card_id: str) -> Card:
    """A card by id or name, loosely ('torga', 'Admiral Torga', 'Torga'); an unknown one is an
    error with suggestions."""
    card = cards().get(card_id)
    return card if card is not None else card_names().find(card_id)


def card_cost(card_id: str) -> int:
    """SP cost of a card; an unknown id is an error naming the card."""
    return get_card(card_id).cost
