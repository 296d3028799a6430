"""What the play-session tests share
(tests/sim/test_play_session.py, tests/cli/test_play_undo.py).
"""

from __future__ import annotations

from kolrami.captains.doctrines import RandomCaptain
from kolrami.engine.chance import Dice
from kolrami.sim.session import PlaySession


def until_dice_follow(session: PlaySession) -> int:
    """Random legal orders (dice seed 5) for the seat asked until one is followed by dice; the
    index of that order, the last one that may be undone."""
    captain = RandomCaptain(Dice(5))
    while True:
        d = session.decision
        assert d is not None
        assert session.submit(str(captain.decide(session.view(d.side), d))) is None
        last = session.last_undoable()
        assert last is not None
        if session.dice_seen(last[0]):
            return last[0]
