"""What the play-session tests share
(tests/sim/test_play_session.py, tests/cli/test_play_undo.py).
"""

from __future__ import annotations

from pathlib import Path

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


#: A small advanced scenario where every kind of order comes up by hand within a turn: tactics,
#: laying a mine, shooting a firing mine (tests/close-quarters.toml).
CLOSE_QUARTERS = str(Path(__file__).with_name("close-quarters.toml"))


def by_hand(kind: str, ships: tuple[str, ...], listed: list[tuple[int, str, str]]) -> str:
    """What a test player types for an advanced decision of `kind`, from its numbered choices
    (number, order or part, what it does): the first ship sails unshielded to lay mines, the
    second keeps power for tractors; a tactical action other than self-destruct, a mine laid
    or shot, the first ship's first attack; else choice 1."""
    parts = [(n, text, label) for n, text, label in listed if not text.startswith(_HEADS)]
    if kind == "PowerDecision":
        want = {ships[0]: "no shields", ships[1]: "shields, half speed"} if len(ships) > 1 else {}
        picks: dict[str, int] = {}
        for n, text, label in parts:
            ship = text.split(":")[0]
            how = label.partition(": ")[2]
            if ship not in picks and how.startswith(want.get(ship, "shields, full weapons")):
                picks[ship] = n
        return " ".join(str(n) for n in picks.values()) or "1"
    if kind == "TacticsDecision":
        found = [n for n, text, _ in parts if "destruct" not in text]
        return str(found[0]) if found else "1"
    if kind == "LayDecision":
        return str(parts[0][0]) if parts else "1"
    if kind == "AttackDecision":
        mine = [n for n, text, _ in parts if ">M" in text]
        return str((mine or [n for n, _, _ in parts] or [1])[0])
    return "1"


_HEADS: tuple[str, ...] = ("BONUS ", "LOCK ", "POWER ", "MOVE ", "DECLOAK ", "ATTACK ", "EVADE ")
_HEADS += ("SHIELDS ", "TACTICS ", "LAY ", "WEB ", "PROBE ", "JAM ", "RETURN ")
