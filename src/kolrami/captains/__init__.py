"""Captains: one protocol for every kind of player, and the built-in AI doctrines."""

from kolrami.captains.base import BattleView, Captain, captain_names, make_captain

__all__ = ["BattleView", "Captain", "captain_names", "make_captain"]
