"""The tournament's checks of what is entered (no database here): an event's settings, Fleet
Points, the score check's ceilings and warnings, the winner's Fleet Points (PP-22) and the lines
a correction logs."""

from __future__ import annotations

import functools
import json
import math
from datetime import datetime

from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError
from kolrami.fleet.model import read_fleet
from kolrami.rules import scenario_capabilities
from kolrami.rules.module import Capability
from kolrami.scenarios.models import load_scenario
from kolrami.sim.score_check import check_score

#: The clauses that say how Fleet Points are scored, cited when a score no fleet can reach.
FP_RULES = "(PP-16, PP-17, PP-18, PP-19, PP-20, PP-21)"


class ScoreCheckError(KolramiError):
    """A result the score check rejects, refused until the organizer accepts it (PP-16, PP-17,
    PP-18, PP-19, PP-20, PP-21)."""


#: The largest whole numbers the store keeps (64-bit on SQLite and PostgreSQL alike, migration
#: 0005); no setting or score of a real event comes near these.
MAX_SP_LIMIT = 100_000
MAX_ROUNDS = 20
MAX_MINUTES = 24 * 60
MAX_FLEET_POINTS = 1_000_000
MAX_SEED = 2**63 - 1


def check_event_settings(
    date: str,
    sp_limit: int,
    rounds: int,
    round_minutes: int,
    seed: int | None,
    max_resets: int | None = None,
    faction_surcharge: int = 0,
) -> None:
    """Refuse an event's settings that no event can have, each with the setting and the fix."""
    if date:
        try:
            datetime.strptime(date, "%Y-%m-%d")
        except ValueError:
            raise InvalidInputError(
                f"date '{date[:40]}': not a calendar date; write it as 2026-11-30",
                field="date",
            ) from None
    if not 0 < sp_limit <= MAX_SP_LIMIT:
        raise InvalidInputError(
            f"SP limit {sp_limit}: use 1 to {MAX_SP_LIMIT} (OP-13)", field="sp_limit"
        )
    if not 0 < rounds <= MAX_ROUNDS:
        raise InvalidInputError(f"{rounds} rounds: use 1 to {MAX_ROUNDS} (OP-01)", field="rounds")
    if not 0 < round_minutes <= MAX_MINUTES:
        raise InvalidInputError(
            f"{round_minutes} minutes a round: use 1 to {MAX_MINUTES} (OP-02)",
            field="round_minutes",
        )
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InvalidInputError(
            f"seed {seed}: use a whole number from 0 to 2**63 - 1", field="seed"
        )
    if not 0 <= faction_surcharge <= MAX_SP_LIMIT:  # what the event export accepts
        raise InvalidInputError(
            f"faction surcharge {faction_surcharge} SP: use 0 (off) to {MAX_SP_LIMIT}",
            field="faction_surcharge",
        )
    if max_resets is not None and not 0 < max_resets <= 200:
        raise InvalidInputError(
            f"{max_resets} resets of one ship a round: use 1 to 200 (the score check's ceiling)",
            field="max_resets",
        )


def check_fleet_points(points: int) -> None:
    """Refuse Fleet Points below 0 or beyond any score (they would not fit the store)."""
    if points < 0:
        raise InvalidInputError(f"{points} Fleet Points: scores start at 0", field="fleet_points")
    if points > MAX_FLEET_POINTS:
        raise InvalidInputError(
            f"{points} Fleet Points: no battle scores more than {MAX_FLEET_POINTS}; "
            "check the sheet",
            field="fleet_points",
        )


#: What 1,120 simulated Peak Performance battles of a 60-minute round (12 turns) saw (every
#: ordered pair of the 8 presets, 2 captain pairings, 10 seeds; scripts/reset_ceiling.py): one
#: ship reset at most 8 times, one fleet at most 18 times, and no player scored more than 624
#: Fleet Points. A score beyond these (scaled to the event's round) is implausible: flagged for
#: the organizer to look at, apart from what is impossible. The event may set its own ceiling
#: of resets per ship (max_resets).
RESETS_PER_HOUR = 8
FLEET_RESETS_PER_HOUR = 18
FLEET_POINTS_PER_HOUR = 650


def round_ceilings(max_resets: int | None, round_minutes: int) -> tuple[int, int, int]:
    """The event's ceilings for one round: resets of a ship (its setting, else the measured
    one), resets of a fleet, Fleet Points; scaled to the round's length (OP-02, PP-20)."""
    scale = round_minutes / 60
    fleet = max(1, math.ceil(FLEET_RESETS_PER_HOUR * scale))
    points = max(1, math.ceil(FLEET_POINTS_PER_HOUR * scale))
    if max_resets is not None:
        return max_resets, max(fleet, max_resets), points
    return max(1, math.ceil(RESETS_PER_HOUR * scale)), fleet, points


def winner_refusal(winner: str, winner_fp: int, loser: str, loser_fp: int) -> str:
    """The one line refusing a winner with fewer Fleet Points (PP-22)."""
    return (
        f"{winner} cannot have won with {winner_fp} Fleet Points against {loser}'s "
        f"{loser_fp}: in Peak Performance the player with more Fleet Points wins (PP-22), and "
        "equal totals go to the roll-off; check who won or the points"
    )


@functools.lru_cache(maxsize=4096)
def score_warning(
    fleet_json: str, player: str, points: int, scenario: str, ceiling: tuple[int, int, int]
) -> str:
    """The score check of `points` against a player's fleet (as stored): '' when they are
    plausible (within the event's ceilings); else whether they are impossible (no battle of
    the scenario's length gives them) or implausible, with the nearest plausible totals (never
    an implausible one). A pure function of its arguments, so kept: entering a result checks
    both sides."""
    fleet = read_fleet(json.loads(fleet_json), player)
    per_ship, per_fleet, most = ceiling
    try:
        turns = load_scenario(scenario).turn_limit
        target = min(points, most)
        plausible = check_score(fleet, target, min(per_ship, turns), max_total=per_fleet)
        if plausible.achievable and target == points:
            return ""
        possible = check_score(fleet, points, turns).achievable
    except KolramiError:
        return ""
    below = target if plausible.achievable else plausible.nearest[0]
    above = plausible.nearest[1] if target == points else None
    near = " or ".join(str(x) for x in (below, above) if x is not None and x <= most)
    nearest = f"; nearest plausible: {near}" if near else ""
    if possible:
        return (
            f"{points} Fleet Points against {player}'s fleet is implausible for a "
            f"round: beyond {most} Fleet Points, {per_ship} resets of a ship or {per_fleet} of "
            f"the fleet (the event's ceilings, PP-20, OP-02); check the sheet{nearest}"
        )
    return f"{points} Fleet Points cannot be scored against {player}'s fleet {FP_RULES}{nearest}"


def score_check(
    scenario: str,
    fleet_json: str,
    player: str,
    points: int,
    ceiling: tuple[int, int, int] = (RESETS_PER_HOUR, FLEET_RESETS_PER_HOUR, FLEET_POINTS_PER_HOUR),
) -> str:
    """The score check of `points` scored against a player's fleet, when the scenario scores
    Fleet Points (Peak Performance's rules): '' when they can be scored or not checked."""
    if Capability.SCORES_FLEET_POINTS not in capabilities_of(scenario):
        return ""
    return score_warning(fleet_json, player, points, scenario, ceiling)


def result_corrections(
    number: int,
    table: int,
    player: str,
    won: bool,
    old_winner: int | None,
    winner: int,
    old_fp: int | None,
    fleet_points: int,
) -> list[str]:
    """The corrections log's lines for one player's result on a table that already had one:
    the winner changed, the player's Fleet Points changed (none for a first entry)."""
    lines = []
    if old_winner is not None and old_winner != winner:
        lines.append(
            f"round {number} table {table}: winner changed to "
            f"{player if won else 'the opponent of ' + player}"
        )
    if old_fp is not None and old_fp != fleet_points:
        lines.append(
            f"round {number} table {table}: {player}'s Fleet Points {old_fp} -> {fleet_points}"
        )
    return lines


def capabilities_of(name: str) -> frozenset[Capability]:
    """What a stored event's scenario makes its battles do (nothing when it cannot be loaded)."""
    try:
        return scenario_capabilities(load_scenario(name))
    except KolramiError:
        return frozenset()
