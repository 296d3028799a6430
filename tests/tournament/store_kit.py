"""What the store's tests share: an event with its players registered."""

from __future__ import annotations

from collections.abc import Sequence

from kolrami.fleet import load_fleet
from kolrami.tournament.store import Store
from web_helpers import FLEETS


def event(db: str, players: int = 5, name: str = "Nov", fleets: Sequence[str] = FLEETS) -> Store:
    """A new event (seed 3) on the store at `db`, with players P0, P1, ... playing `fleets`
    in turn."""
    store = Store(db)
    store.create_event(name, "2026-11-30", seed=3)
    for i in range(players):
        store.add_player(name, f"P{i}", load_fleet(fleets[i % len(fleets)]))
    return store
