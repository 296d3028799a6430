"""The tournament store: SQLite through SQLAlchemy 2 (or any database URL), migrated by Alembic.

Every operation is one transaction: a crash or a kill leaves the store as it was before the
operation, or with the whole of it (a round is paired, a result recorded, completely or not at
all). The rules themselves are in core.py; this module only reads and writes.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.orm import Session, sessionmaker

from kolrami.errors import InvalidInputError, KolramiError
from kolrami.fleet.legality import EventSettings, validate
from kolrami.fleet.model import Fleet, read_fleet
from kolrami.tournament import core
from kolrami.tournament.models import (
    CorrectionRow,
    EventRow,
    GameRow,
    PlayerRow,
    RollOffRow,
    RoundRow,
)

DEFAULT_DB = "sqlite:///kolrami.db"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class ConflictError(KolramiError):
    """Someone else changed the same result first (two tablets at once)."""


def database_url(url_or_path: str | None) -> str:
    """A URL from --db: a URL as given, a bare path as a SQLite file, nothing as ./kolrami.db."""
    if not url_or_path:
        return os.environ.get("KOLRAMI_DB", DEFAULT_DB)
    if "://" in url_or_path:
        return url_or_path
    return f"sqlite:///{url_or_path}"


def _engine(url: str) -> Engine:
    engine = create_engine(url)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

    return engine


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest schema (Alembic migrations, run in the package)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclass(frozen=True, slots=True)
class EventState:
    """An event as the rules see it: players and their status, rounds as core.Game lists."""

    name: str
    seed: int
    rounds_planned: int
    players: tuple[str, ...]
    active: tuple[str, ...]  # may be paired in the next round
    rounds: tuple[tuple[core.Game, ...], ...]
    roll_offs: dict[str, int]
    titles: tuple[str, ...]

    def standings(self) -> list[core.Standing]:
        """The standings from the results so far (a pure function of them)."""
        return core.standings(self.players, self.rounds, self.roll_offs, self.titles)


class Store:
    """One database of events."""

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        try:
            self.engine = _engine(self.url)
            upgrade(self.engine)
        except KolramiError:
            raise
        except Exception as exc:
            raise InvalidInputError(f"cannot open the store '{self.url}': {exc}") from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: committed whole, or rolled back whole."""
        with self._sessions.begin() as session:
            yield session
            pause = os.environ.get("KOLRAMI_TEST_PAUSE_IN_TRANSACTION")
            if pause:  # lets the crash-safety test kill the process mid-transaction
                session.flush()
                time.sleep(float(pause))

    # --- reading -------------------------------------------------------------------------------

    def _event(self, session: Session, name: str | None) -> EventRow:
        if name is None:
            row = session.scalars(select(EventRow).order_by(EventRow.id.desc())).first()
            if row is None:
                raise InvalidInputError("no event yet: create one with kolrami tournament new NAME")
            return row
        row = session.scalars(select(EventRow).where(EventRow.name == name)).first()
        if row is None:
            names = list(session.scalars(select(EventRow.name)))
            raise InvalidInputError(
                f"no event '{name}'" + (f"; events: {', '.join(names)}" if names else "")
            )
        return row

    def _player(self, session: Session, event_row: EventRow, name: str) -> PlayerRow:
        for p in event_row.players:
            if p.name == name:
                return p
        import difflib

        names = [p.name for p in event_row.players]
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else f"; players: {', '.join(names)}"
        raise InvalidInputError(f"no player '{name}' in {event_row.name}{hint}")

    def state(self, name: str | None = None) -> EventState:
        """The event as core.py sees it."""
        with self.transaction() as s:
            return self._state(s, self._event(s, name))

    def _state(self, session: Session, e: EventRow) -> EventState:
        names = {p.id: p.name for p in e.players}
        rounds = []
        for r in e.round_rows:
            games = []
            for g in r.games:
                fp: list[tuple[str, int]] = []
                if g.fp_a is not None:
                    fp.append((names[g.a_id], g.fp_a))
                if g.b_id is not None and g.fp_b is not None:
                    fp.append((names[g.b_id], g.fp_b))
                games.append(
                    core.Game(
                        r.number,
                        names[g.a_id],
                        names[g.b_id] if g.b_id else None,
                        names[g.winner_id] if g.winner_id else None,
                        tuple(fp),
                    )
                )
            rounds.append(tuple(games))
        next_round = len(rounds) + 1
        active = tuple(
            p.name
            for p in e.players
            if p.joined_round <= next_round
            and (p.dropped_after is None or p.dropped_after >= next_round)
        )
        rolls = {
            names[r.player_id]: r.result
            for r in session.scalars(select(RollOffRow).where(RollOffRow.event_id == e.id))
        }
        return EventState(
            e.name,
            e.seed,
            e.rounds,
            tuple(p.name for p in e.players),
            active,
            tuple(rounds),
            rolls,
            tuple(json.loads(e.titles)),
        )

    def events(self) -> list[str]:
        """Every event's name, newest last."""
        with self.transaction() as s:
            return list(s.scalars(select(EventRow.name).order_by(EventRow.id)))

    def fleets(self, name: str | None = None) -> dict[str, Fleet]:
        """Each player's registered fleet."""
        with self.transaction() as s:
            e = self._event(s, name)
            return {p.name: read_fleet(json.loads(p.fleet_json), p.name) for p in e.players}

    def settings(self, name: str | None = None) -> dict[str, Any]:
        """The event's settings."""
        with self.transaction() as s:
            e = self._event(s, name)
            return {
                "name": e.name,
                "date": e.date,
                "sp_limit": e.sp_limit,
                "scenario": e.scenario,
                "rounds": e.rounds,
                "round_minutes": e.round_minutes,
                "seed": e.seed,
                "titles": json.loads(e.titles),
                "faction_surcharge": e.faction_surcharge,
            }

    def games(self, name: str | None, round_number: int) -> list[dict[str, Any]]:
        """One round's tables with everything recorded on them."""
        with self.transaction() as s:
            e = self._event(s, name)
            r = self._round(e, round_number)
            names = {p.id: p.name for p in e.players}
            return [
                {
                    "table": g.table,
                    "a": names[g.a_id],
                    "b": names[g.b_id] if g.b_id else None,
                    "winner": names[g.winner_id] if g.winner_id else None,
                    "fp_a": g.fp_a,
                    "fp_b": g.fp_b,
                    "build_initials_a": g.build_initials_a,
                    "build_initials_b": g.build_initials_b,
                    "result_initials_a": g.result_initials_a,
                    "result_initials_b": g.result_initials_b,
                    "flag": g.flag,
                    "version": g.version,
                }
                for g in r.games
            ]

    def corrections(self, name: str | None = None) -> list[dict[str, str]]:
        """The corrections log, oldest first."""
        with self.transaction() as s:
            e = self._event(s, name)
            rows = s.scalars(
                select(CorrectionRow)
                .where(CorrectionRow.event_id == e.id)
                .order_by(CorrectionRow.id)
            )
            return [{"at": r.at.isoformat(), "who": r.who, "what": r.what} for r in rows]

    # --- writing ---------------------------------------------------------------------------------

    def create_event(
        self,
        name: str,
        date: str = "",
        sp_limit: int = 300,
        scenario: str = "peak-performance",
        rounds: int = 3,
        round_minutes: int = 60,
        seed: int | None = None,
        titles: tuple[str, ...] = core.DEFAULT_TITLES,
        faction_surcharge: int = 0,
    ) -> None:
        """A new event (OP-01: three rounds unless the organizer says otherwise)."""
        from kolrami.scenarios.models import load_scenario

        if not name.strip():
            raise InvalidInputError("an event needs a name")
        if sp_limit <= 0 or rounds <= 0 or round_minutes <= 0:
            raise InvalidInputError("SP limit, rounds and round minutes must be positive")
        load_scenario(scenario)  # a clear error now rather than at the first battle
        if seed is None:
            import secrets

            seed = secrets.randbelow(2**31)
        with self.transaction() as s:
            if s.scalars(select(EventRow).where(EventRow.name == name)).first():
                raise InvalidInputError(f"an event '{name}' exists already; pick another name")
            s.add(
                EventRow(
                    name=name,
                    date=date,
                    sp_limit=sp_limit,
                    scenario=scenario,
                    rounds=rounds,
                    round_minutes=round_minutes,
                    seed=seed,
                    titles=json.dumps(list(titles)),
                    faction_surcharge=faction_surcharge,
                )
            )

    def add_player(
        self,
        event_name: str | None,
        name: str,
        fleet: Fleet,
        email: str = "",
        allow_illegal: bool = False,
    ) -> list[str]:
        """Register a player and his fleet (OP-11); a late entry joins at the next round.

        The fleet must be legal for the event (FBS-12) unless `allow_illegal`; returns the
        problems found (empty when legal).
        """
        name = name.strip()
        if not name:
            raise InvalidInputError("a player needs a name")
        with self.transaction() as s:
            e = self._event(s, event_name)
            if any(p.name == name for p in e.players):
                raise InvalidInputError(f"'{name}' is registered already in {e.name}")
            report = validate(fleet, e.sp_limit, EventSettings(e.sp_limit, e.faction_surcharge))
            problems = [f"{err.path}: {err.message}" for err in report.errors]
            if problems and not allow_illegal:
                raise InvalidInputError(
                    f"{name}'s fleet is not legal for {e.name}: "
                    f"{problems[0]}"
                    + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
                )
            joined = len(e.round_rows) + 1
            if joined > e.rounds:
                raise InvalidInputError(f"{e.name} has played all its {e.rounds} rounds")
            s.add(
                PlayerRow(
                    event_id=e.id,
                    name=name,
                    email=email,
                    fleet_json=fleet.model_dump_json(),
                    joined_round=joined,
                )
            )
            return problems

    def drop_player(self, event_name: str | None, name: str, who: str = "organizer") -> None:
        """A player leaves: he is not paired from the next round on; his results stay."""
        with self.transaction() as s:
            e = self._event(s, event_name)
            p = self._player(s, e, name)
            if p.dropped_after is not None:
                raise InvalidInputError(
                    f"{name} has dropped already (after round {p.dropped_after})"
                )
            p.dropped_after = len(e.round_rows)
            s.add(
                CorrectionRow(
                    event_id=e.id, who=who, what=f"{name} dropped after round {p.dropped_after}"
                )
            )

    def pair_next_round(self, event_name: str | None = None) -> core.Pairing:
        """Pair the next round (OP-02..09), all tables or none."""
        with self.transaction() as s:
            e = self._event(s, event_name)
            state = self._state(s, e)
            number = len(state.rounds) + 1
            if number > e.rounds:
                raise InvalidInputError(f"{e.name} has {e.rounds} rounds and all are paired")
            if state.rounds and not all(g.complete for g in state.rounds[-1]):
                missing = [f"{g.a} v {g.b}" for g in state.rounds[-1] if not g.complete]
                raise InvalidInputError(
                    f"round {number - 1} is not finished: results missing for {', '.join(missing)}"
                )
            pairing = core.pair_round(number, state.active, state.rounds, e.seed)
            ids = {p.name: p.id for p in e.players}
            r = RoundRow(
                event_id=e.id,
                number=number,
                seed=e.seed,
                rematches=json.dumps([list(x) for x in pairing.rematches]),
            )
            s.add(r)
            s.flush()
            for table, g in enumerate(pairing.games, start=1):
                s.add(
                    GameRow(
                        round_id=r.id, table=table, a_id=ids[g.a], b_id=ids[g.b] if g.b else None
                    )
                )
            return pairing

    def _round(self, e: EventRow, number: int) -> RoundRow:
        for r in e.round_rows:
            if r.number == number:
                return r
        raise InvalidInputError(f"{e.name} has no round {number} yet ({len(e.round_rows)} paired)")

    def _game_of(self, e: EventRow, number: int, player: PlayerRow) -> GameRow:
        for g in self._round(e, number).games:
            if player.id in (g.a_id, g.b_id):
                return g
        raise InvalidInputError(f"{player.name} is not paired in round {number}")

    def record_result(
        self,
        event_name: str | None,
        number: int,
        player: str,
        won: bool,
        fleet_points: int,
        who: str = "organizer",
        expected_version: int | None = None,
    ) -> str:
        """A player's result and Fleet Points for a round; the opponent's result follows.

        Returns a warning when the Fleet Points cannot be scored against the opponent's fleet
        (the Peak Performance score check), else ''. Changing a result already entered is
        logged as a correction; with `expected_version` a stale edit is refused (ConflictError).
        """
        if fleet_points < 0:
            raise InvalidInputError(f"{fleet_points} Fleet Points: scores start at 0")
        with self.transaction() as s:
            e = self._event(s, event_name)
            p = self._player(s, e, player)
            g = self._game_of(e, number, p)
            if g.b_id is None:
                raise InvalidInputError(
                    f"{player} has the bye in round {number}: nothing to "
                    "report; its Fleet Points are the round's average"
                )
            if expected_version is not None and g.version != expected_version:
                raise ConflictError(
                    f"round {number}, table {g.table} was changed by someone else "
                    "a moment ago; reload it and enter the result again"
                )
            opponent_id = g.b_id if p.id == g.a_id else g.a_id
            winner = p.id if won else opponent_id
            before = (g.winner_id, g.fp_a, g.fp_b)
            if g.winner_id is not None and g.winner_id != winner:
                s.add(
                    CorrectionRow(
                        event_id=e.id,
                        who=who,
                        what=f"round {number} table {g.table}: winner changed to "
                        f"{player if won else 'the opponent of ' + player}",
                    )
                )
            g.winner_id = winner
            old_fp = g.fp_a if p.id == g.a_id else g.fp_b
            if p.id == g.a_id:
                g.fp_a = fleet_points
            else:
                g.fp_b = fleet_points
            if old_fp is not None and old_fp != fleet_points:
                s.add(
                    CorrectionRow(
                        event_id=e.id,
                        who=who,
                        what=f"round {number} table {g.table}: {player}'s Fleet "
                        f"Points {old_fp} -> {fleet_points}",
                    )
                )
            warning = self._score_warning(e, opponent_id, fleet_points)
            g.flag = warning
            if before == (g.winner_id, g.fp_a, g.fp_b):
                g.version = g.version  # nothing changed; keep the version
            return warning

    def _score_warning(self, e: EventRow, opponent_id: int, points: int) -> str:
        if "battle-simulation" not in _scenario_rules(e.scenario):
            return ""
        from kolrami.scenarios.models import load_scenario
        from kolrami.sim.score_check import check_score

        opponent = next(p for p in e.players if p.id == opponent_id)
        fleet = read_fleet(json.loads(opponent.fleet_json), opponent.name)
        try:
            verdict = check_score(fleet, points, load_scenario(e.scenario).turn_limit)
        except KolramiError:
            return ""
        if verdict.achievable:
            return ""
        near = " or ".join(str(x) for x in verdict.nearest if x is not None)
        return (
            f"{points} Fleet Points cannot be scored against {opponent.name}'s fleet "
            f"(PP-16..21)" + (f"; nearest possible: {near}" if near else "")
        )

    def verify(
        self, event_name: str | None, number: int, player: str, initials: str, stage: str
    ) -> None:
        """The opponent initials a player's build before the round or his result after it
        (OP-14, FBS-09, FBS-10). `player` is the one whose sheet is initialled."""
        if stage not in ("build", "result"):
            raise InvalidInputError(f"stage '{stage}': use build or result")
        initials = initials.strip()
        if not initials or len(initials) > 10:
            raise InvalidInputError("initials are 1 to 10 characters")
        with self.transaction() as s:
            e = self._event(s, event_name)
            p = self._player(s, e, player)
            g = self._game_of(e, number, p)
            if g.b_id is None:
                raise InvalidInputError(
                    f"{player} has the bye in round {number}: no opponent to initial"
                )
            if stage == "result" and g.winner_id is None:
                raise InvalidInputError(f"round {number}: no result for {player} yet to confirm")
            side = "a" if p.id == g.a_id else "b"
            setattr(g, f"{stage}_initials_{side}", initials)

    def record_roll_off(self, event_name: str | None, results: dict[str, int], source: str) -> None:
        """Roll-off results (hits and criticals) for tied players (OP-24)."""
        with self.transaction() as s:
            e = self._event(s, event_name)
            for name, result in results.items():
                p = self._player(s, e, name)
                s.add(RollOffRow(event_id=e.id, player_id=p.id, result=result, source=source))

    def roll_off_ties(self, event_name: str | None = None) -> dict[str, int]:
        """Roll off every group level on Battle and Fleet Points, seeded and recorded (OP-24)."""
        state = self.state(event_name)
        groups = core.tied_groups(state.standings())
        results: dict[str, int] = {}
        for n, group in enumerate(groups):
            from kolrami.engine.chance import derive_seed

            seed = derive_seed(state.seed, "roll-off", len(state.rounds), n)
            results.update(core.roll_off(group, seed))
        if results:
            self.record_roll_off(
                event_name, results, f"rolled by Kolrami after round {len(state.rounds)}"
            )
        return results

    # --- one document for the whole event ---------------------------------------------------

    def export(self, event_name: str | None = None) -> dict[str, Any]:
        """The whole event as one JSON document (for the regional organizer, or a backup)."""
        settings = self.settings(event_name)
        state = self.state(event_name)
        fleets = self.fleets(event_name)
        rounds = [self.games(state.name, n) for n in range(1, len(state.rounds) + 1)]
        with self.transaction() as s:
            e = self._event(s, event_name)
            players = [
                {
                    "name": p.name,
                    "email": p.email,
                    "joined_round": p.joined_round,
                    "dropped_after": p.dropped_after,
                    "fleet": fleets[p.name].model_dump(mode="json", exclude_none=True),
                }
                for p in e.players
            ]
        return {
            "kolrami": "event/1",
            "event": settings,
            "players": players,
            "rounds": rounds,
            "roll_offs": state.roll_offs,
            "corrections": self.corrections(event_name),
            "standings": [_standing_json(x) for x in state.standings()],
        }

    def import_event(self, doc: dict[str, Any]) -> str:
        """Recreate an exported event, in one transaction; returns its name."""
        try:
            ev = doc["event"]
            name = ev["name"]
            with self.transaction() as s:
                if s.scalars(select(EventRow).where(EventRow.name == name)).first():
                    raise InvalidInputError(f"an event '{name}' exists already in this store")
                e = EventRow(
                    name=name,
                    date=ev.get("date", ""),
                    sp_limit=ev["sp_limit"],
                    scenario=ev["scenario"],
                    rounds=ev["rounds"],
                    round_minutes=ev.get("round_minutes", 60),
                    seed=ev["seed"],
                    titles=json.dumps(ev.get("titles", list(core.DEFAULT_TITLES))),
                    faction_surcharge=ev.get("faction_surcharge", 0),
                )
                s.add(e)
                s.flush()
                ids = {}
                for p in doc["players"]:
                    row = PlayerRow(
                        event_id=e.id,
                        name=p["name"],
                        email=p.get("email", ""),
                        fleet_json=json.dumps(p["fleet"]),
                        joined_round=p.get("joined_round", 1),
                        dropped_after=p.get("dropped_after"),
                    )
                    s.add(row)
                    s.flush()
                    ids[p["name"]] = row.id
                for number, games in enumerate(doc["rounds"], start=1):
                    r = RoundRow(event_id=e.id, number=number, seed=ev["seed"])
                    s.add(r)
                    s.flush()
                    for g in games:
                        s.add(
                            GameRow(
                                round_id=r.id,
                                table=g["table"],
                                a_id=ids[g["a"]],
                                b_id=ids[g["b"]] if g.get("b") else None,
                                winner_id=ids[g["winner"]] if g.get("winner") else None,
                                fp_a=g.get("fp_a"),
                                fp_b=g.get("fp_b"),
                                build_initials_a=g.get("build_initials_a", ""),
                                build_initials_b=g.get("build_initials_b", ""),
                                result_initials_a=g.get("result_initials_a", ""),
                                result_initials_b=g.get("result_initials_b", ""),
                                flag=g.get("flag", ""),
                            )
                        )
                for pname, result in doc.get("roll_offs", {}).items():
                    s.add(
                        RollOffRow(
                            event_id=e.id, player_id=ids[pname], result=result, source="imported"
                        )
                    )
                for c in doc.get("corrections", []):
                    s.add(CorrectionRow(event_id=e.id, who=c["who"], what=c["what"]))
            return str(name)
        except (KeyError, TypeError) as exc:
            raise InvalidInputError(f"not a Kolrami event export: missing or bad {exc}") from None


def _scenario_rules(name: str) -> tuple[str, ...]:
    from kolrami.scenarios.models import load_scenario

    try:
        return load_scenario(name).rules
    except KolramiError:
        return ()


def _standing_json(s: core.Standing) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "title": s.title,
        "player": s.player,
        "battle_points": s.battle_points,
        "fleet_points": s.fleet_points,
        "byes": s.byes,
        "fp_by_round": s.fp_by_round,
    }
