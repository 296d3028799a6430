"""Captains: one protocol for every kind of player, and the built-in AI doctrines."""

from kolrami.captains.base import BattleView
from kolrami.captains.base import Captain
from kolrami.captains.registry import captain_names
from kolrami.captains.registry import make_captain

__all__ = ["BattleView", "Captain", "captain_names", "make_captain"]
