"""Card costs: what a card adds to a ship's or a fleet's points (FBS-08, PP-16, PP-18).

A small loader over catalog/data/cards.toml; the fleets work grows it into the full card model.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

from kolrami.errors import UnknownNameError


class Card(BaseModel):
    """A card: id, name, SP cost and what it does."""

    model_config = ConfigDict(frozen=True, extra="allow")

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: str
    cost: int = Field(ge=0)
    effect: str = ""


@cache
def cards() -> dict[str, Card]:
    """Every built-in card by id."""
    text = resources.files("kolrami.catalog").joinpath("data", "cards.toml").read_text()
    raw = tomllib.loads(text)
    out: dict[str, Card] = {}
    for kind, entries in raw.items():
        for entry in entries:
            card = Card.model_validate({**entry, "kind": kind})
            out[card.id] = card
    return out


def card_cost(card_id: str) -> int:
    """SP cost of a card; an unknown id is an error naming the card."""
    card = cards().get(card_id)
    if card is None:
        import difflib

        close = difflib.get_close_matches(card_id, list(cards()), n=1)
        raise UnknownNameError("card", card_id, close[0] if close else None, sorted(cards()))
    return card.cost
