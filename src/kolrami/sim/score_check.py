"""Is a reported Peak Performance score possible? (PP-16, PP-17, PP-18, PP-19, PP-20, PP-21)

A player's Fleet Points all come from the opponent's fleet: each reset of a ship scores its Total
SP, and at the end each of its Critical Hit Tokens (one per reset) scores 5 more, so one reset is
worth Total SP + 5. The fleet's resource scores once, when every ship has been reset at least
once (or again on each later reset with the PP-19 repeat option). A ship can be reset at most
once a turn, because it is out of play until the next turn starts (PP-11), so at most
`turns` times. The check searches the counts of resets per ship that give the reported total.
"""

from __future__ import annotations

from dataclasses import dataclass

from kolrami.catalog import ShipPack
from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import card_cost
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import member_cards
from kolrami.rules.peak import BONUS_PER_TOKEN


@dataclass(frozen=True, slots=True)
class ShipLine:
    """One ship of the scored fleet and how often it was reset in the breakdown."""

    label: str
    total_sp: int
    resets: int

    @property
    def points(self) -> int:
        """What its resets scored: Total SP each, plus the end bonus per token."""
        return self.resets * (self.total_sp + BONUS_PER_TOKEN)


@dataclass(frozen=True, slots=True)
class ScoreCheck:
    """The verdict on a reported total, with one way to reach it when it is possible."""

    points: int
    achievable: bool
    ships: tuple[ShipLine, ...]
    resource: str | None
    resource_points: int
    kill_points: int
    bonus_points: int
    nearest: tuple[int | None, int | None]  # closest achievable totals below and above

    def to_json(self) -> dict[str, object]:
        """The verdict as JSON."""
        return {
            "points": self.points,
            "achievable": self.achievable,
            "breakdown": None
            if not self.achievable
            else {
                "kills": [
                    {
                        "ship": s.label,
                        "total_sp": s.total_sp,
                        "resets": s.resets,
                        "points": s.resets * s.total_sp,
                    }
                    for s in self.ships
                ],
                "resource": {"card": self.resource, "points": self.resource_points},
                "kill_points": self.kill_points,
                "bonus": self.bonus_points,
            },
            "nearest_achievable": {"below": self.nearest[0], "above": self.nearest[1]},
        }


def ship_totals(fleet: Fleet, pack: ShipPack) -> list[tuple[str, int]]:
    """(label, Total SP) for each ship: class value plus its cards (FBS-08)."""
    out = []
    for i, s in enumerate(fleet.ships):
        cls = pack.get(s.id)
        label = f"{s.name or cls.name} (ships[{i}])"
        out.append((label, cls.value + sum(card_cost(c) for c in member_cards(s))))
    return out


def check_score(
    fleet: Fleet,
    points: int,
    turns: int = 12,
    resource_repeat: bool = False,
    pack: ShipPack | None = None,
    max_total: int | None = None,
) -> ScoreCheck:
    """Whether `points` can be scored against `fleet` in a battle of `turns` turns: each ship
    reset at most `turns` times, and the fleet at most `max_total` times in all (None: no
    limit but the ships'). The nearest totals obey the same limits."""
    if points < 0:
        raise InvalidInputError(f"{points} Fleet Points is negative; scores start at 0")
    if turns < 1:
        raise InvalidInputError(f"a battle of {turns} turns cannot be scored; use 1 or more")
    pack = pack or builtin_pack()
    totals = ship_totals(fleet, pack)
    values = [sp + BONUS_PER_TOKEN for _, sp in totals]
    resource = next(iter(fleet.resources()), None)
    resource_sp = card_cost(resource) if resource else 0
    n = len(values)

    def solve(target: int) -> tuple[list[int], int] | None:
        # (resets per ship, resource awards) reaching `target`, fewest resets first
        options: list[tuple[int, list[int], int]] = []
        # without the resource: if the fleet has one, some ship must never have been reset,
        # or the resource would have scored (PP-18)
        caps_without = (
            [[0 if j == i else turns for j in range(n)] for i in range(n)]
            if resource_sp
            else [[turns] * n]
        )
        for caps in caps_without:
            best = _resets_for(values, caps, target)
            if best is not None:
                options.append((sum(best), best, 0))
        if resource_sp:
            # every ship reset at least once: the resource scores once (or, repeating, once
            # plus once per later reset: 1 .. resets - n + 1 times)
            floor = sum(values)
            max_awards = 1 + (n * turns - n if resource_repeat else 0)
            for awards in range(1, max_awards + 1):
                rest = target - floor - awards * resource_sp
                if rest < 0:
                    break
                extra = _resets_for(values, [turns - 1] * n, rest)
                if extra is None:
                    continue
                kills = [k + 1 for k in extra]
                if awards - 1 <= sum(kills) - n:
                    options.append((sum(kills), kills, awards))
        if max_total is not None:  # each option has the fewest resets for its target
            options = [o for o in options if o[0] <= max_total]
        if not options:
            return None
        _, kills, awards = min(options, key=lambda o: (o[0], o[2], [-k for k in o[1]]))
        return kills, awards

    found = solve(points)
    lines = tuple(
        ShipLine(label, sp, found[0][i] if found else 0) for i, (label, sp) in enumerate(totals)
    )
    awards = found[1] if found else 0
    kill_points = sum(s.resets * s.total_sp for s in lines)
    bonus = sum(s.resets for s in lines) * BONUS_PER_TOKEN
    nearest: tuple[int | None, int | None] = (None, None)
    if found is None:
        # nothing above the ceiling can be scored: the search down starts there at most, so a
        # typo's extra digit costs no more than a score just above the fleet's top
        ceiling = sum(values) * turns + resource_sp * (n * turns if resource_repeat else 1)
        start = min(points - 1, ceiling)
        below = next((p for p in range(start, -1, -1) if solve(p) is not None), None)
        above = next((p for p in range(points + 1, ceiling + 1) if solve(p) is not None), None)
        nearest = (below, above)
    return ScoreCheck(
        points=points,
        achievable=found is not None,
        ships=lines,
        resource=resource,
        resource_points=awards * resource_sp,
        kill_points=kill_points,
        bonus_points=bonus,
        nearest=nearest,
    )


def _resets_for(values: list[int], caps: list[int], target: int) -> list[int] | None:
    """Counts k_i <= caps[i] with sum(k_i * values[i]) == target, fewest in total; or None."""
    if target < 0:
        return None
    # dp[s] = (fewest resets, most ships reset, counts) reaching s: the plainest story
    dp: dict[int, tuple[int, int, tuple[int, ...]]] = {0: (0, 0, ())}
    for value, cap in zip(values, caps, strict=True):
        nxt: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        for s, (count, spread, counts) in dp.items():
            for k in range(cap + 1):
                t = s + k * value
                if t > target:
                    break
                # ties go to the earlier ships (counts are kept negated for the comparison)
                cand = (count + k, spread - (k > 0), (*counts, -k))
                if t not in nxt or cand < nxt[t]:
                    nxt[t] = cand
        dp = nxt
    hit = dp.get(target)
    return [-k for k in hit[2]] if hit else None
