"""The event export's file, read as strictly as the forms and the CLI read what an organizer
types: every field's type and range, names through registration's rules, fleets through the
fleet model, games naming registered players. Anything else is refused in one line naming the
field (`players[2].name: ...`), before anything is stored, so no stored value can make a page
fail."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import StrictBool
from pydantic import StrictInt
from pydantic import ValidationError
from pydantic import field_validator

from kolrami.errors import InvalidInputError
from kolrami.fleet.model import parse_fleet
from kolrami.scenarios.models import BUILTIN
from kolrami.tournament.names import clean_name
from kolrami.tournament.names import name_key
from kolrami.tournament.scoring import MAX_FLEET_POINTS
from kolrami.tournament.scoring import MAX_ROUNDS
from kolrami.tournament.scoring import MAX_SEED
from kolrami.tournament.scoring import MAX_SP_LIMIT
from kolrami.tournament.scoring import check_event_settings
from kolrami.tournament.services.timer import MAX_ROUND_ADDED_MINUTES

#: how an export names itself
FORMAT = "event/1"
#: the most tables a round can have (a round of 2,000 players)
MAX_TABLES = 1_000
#: text fields' lengths: a title, initials, a flag, a correction line
SHORT, LINE, LONG = 40, 200, 2_000

_LOOSE = ConfigDict(extra="ignore", str_max_length=LONG)

Count = Annotated[StrictInt, Field(ge=0, le=MAX_FLEET_POINTS)]
Round = Annotated[StrictInt, Field(ge=1, le=MAX_ROUNDS)]


class _Settings(BaseModel):
    model_config = _LOOSE
    name: Annotated[str, Field(max_length=LINE)]
    date: Annotated[str, Field(max_length=SHORT)] = ""
    sp_limit: Annotated[StrictInt, Field(ge=1, le=MAX_SP_LIMIT)]
    scenario: Annotated[str, Field(max_length=LINE)]
    rounds: Round
    round_minutes: StrictInt = 60
    seed: Annotated[StrictInt, Field(ge=0, le=MAX_SEED)]
    titles: Annotated[list[Annotated[str, Field(max_length=SHORT)]], Field(max_length=50)] = [
        "Admiral",
        "Vice Admiral",
    ]
    faction_surcharge: Annotated[StrictInt, Field(ge=0, le=MAX_SP_LIMIT)] = 0
    max_resets: StrictInt | None = None
    #: the venue and whether players may ask to join from their phones (issue 44)
    venue: Annotated[str, Field(max_length=LINE)] = ""
    self_registration: StrictBool = False


class _Player(BaseModel):
    model_config = _LOOSE
    name: Annotated[str, Field(max_length=LINE)]
    email: Annotated[str, Field(max_length=LINE)] = ""
    joined_round: Round = 1
    dropped_after: Annotated[StrictInt, Field(ge=0, le=MAX_ROUNDS)] | None = None
    fleet: dict[str, Any]


class _Game(BaseModel):
    model_config = _LOOSE
    table: Annotated[StrictInt, Field(ge=1, le=MAX_TABLES)]
    a: Annotated[str, Field(max_length=LINE)]
    b: Annotated[str, Field(max_length=LINE)] | None = None
    winner: Annotated[str, Field(max_length=LINE)] | None = None
    fp_a: Count | None = None
    fp_b: Count | None = None
    build_initials_a: Annotated[str, Field(max_length=SHORT)] = ""
    build_initials_b: Annotated[str, Field(max_length=SHORT)] = ""
    result_initials_a: Annotated[str, Field(max_length=SHORT)] = ""
    result_initials_b: Annotated[str, Field(max_length=SHORT)] = ""
    flag: Annotated[str, Field(max_length=LONG)] = ""
    entered_by: Annotated[str, Field(max_length=LINE)] = ""


class _RollOff(BaseModel):
    model_config = _LOOSE
    after_round: Annotated[StrictInt, Field(ge=0, le=MAX_ROUNDS)] = 0
    battle_points: Count
    fleet_points: Count
    throws: dict[
        Annotated[str, Field(max_length=LINE)],
        Annotated[list[Annotated[StrictInt, Field(ge=0, le=5)]], Field(max_length=20)],
    ]
    source: Annotated[str, Field(max_length=LINE)] = "imported"


class _Correction(BaseModel):
    model_config = _LOOSE
    who: Annotated[str, Field(max_length=LINE)]
    what: Annotated[str, Field(max_length=LONG)]
    at: Annotated[str, Field(max_length=SHORT)] | None = None


#: the years a timer's times may name: a page adds the round's length to them
EARLIEST, LATEST = 2000, 3000


class _Timer(BaseModel):
    """A round's timer as the export keeps it (issue 44): times in UTC, ISO 8601."""

    model_config = _LOOSE
    round: Round
    started_at: Annotated[str, Field(max_length=SHORT)] | None = None
    paused_at: Annotated[str, Field(max_length=SHORT)] | None = None
    paused_seconds: Annotated[StrictInt, Field(ge=0, le=10**8)] = 0
    added_minutes: Annotated[StrictInt, Field(ge=0, le=MAX_ROUND_ADDED_MINUTES)] = 0

    @field_validator("started_at", "paused_at")
    @classmethod
    def _time(cls, text: str | None) -> str | None:
        if text is None:
            return None
        at = datetime.fromisoformat(text)  # a ValueError is pydantic's "value error"
        if at.tzinfo is not None:
            raise ValueError("a time in UTC without a zone, as the export writes it")
        if not EARLIEST <= at.year <= LATEST:
            raise ValueError(f"a time from {EARLIEST} to {LATEST}")
        return text


class _Export(BaseModel):
    model_config = _LOOSE
    kolrami: str
    event: _Settings
    players: Annotated[list[_Player], Field(max_length=5_000)]
    rounds: Annotated[
        list[Annotated[list[_Game], Field(max_length=MAX_TABLES)]], Field(max_length=MAX_ROUNDS)
    ]
    roll_offs: Annotated[list[_RollOff], Field(max_length=5_000)] | dict[str, StrictInt] = []
    corrections: Annotated[list[_Correction], Field(max_length=100_000)] = []
    timers: Annotated[list[_Timer], Field(max_length=MAX_ROUNDS)] = []


def checked(doc: Any, source: str = "the event export") -> dict[str, Any]:
    """The export `doc`, checked and with its names as registration keeps them; refused in
    one line naming the field and the fix (InvalidInputError)."""
    if isinstance(doc, dict) and doc.get("spec") == "fleetx":
        raise InvalidInputError(
            f"{source} is a fleet (FleetX), not an event export; register it as a player's "
            "fleet, or choose the event's export"
        )
    if not isinstance(doc, dict) or doc.get("kolrami") != FORMAT:
        raise InvalidInputError(
            f'{source}: not a Kolrami event export (it has no "kolrami": "{FORMAT}"); export '
            "the event again (kolrami tournament export)"
        )
    try:
        export = _Export.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"] if not str(p).startswith("function-"))
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise InvalidInputError(
            f"{source}: {where}: {first['msg'].lower()}{more}; export the event again "
            "(kolrami tournament export)"
        ) from None
    ev = export.event
    try:
        check_event_settings(
            ev.date, ev.sp_limit, ev.rounds, ev.round_minutes, ev.seed, ev.max_resets
        )
    except InvalidInputError as exc:
        raise InvalidInputError(f"{source}: event.{exc.field}: {exc}", field=exc.field) from None
    clean_name(ev.name, "the event")
    if ev.scenario not in BUILTIN:  # never a path: an import reads no other file
        raise InvalidInputError(
            f"{source}: event.scenario {ev.scenario[:60]!r}: not a built-in scenario "
            f"({', '.join(sorted(BUILTIN))}); an event on a scenario file is moved with its file "
            "and created again (kolrami tournament new --scenario FILE)"
        )
    names = _players(export, source)
    for number, games in enumerate(export.rounds, start=1):
        _games(games, number, names, source)
    _timers(export, source)
    out = export.model_dump()
    out["event"]["name"] = clean_name(ev.name, "the event")
    return out


def _named(name: str, where: str, what: str) -> str:
    """A name as registration takes it: the name given must be the name it keeps."""
    kept = clean_name(name, what)
    if kept != name:
        raise InvalidInputError(
            f"{where} {name!r}: not a name registration keeps (invisible or control "
            f"characters, or spaces to tidy); it would be {kept!r}: export the event again"
        )
    return kept


def _players(export: _Export, source: str) -> set[str]:
    names: set[str] = set()
    keys: dict[str, str] = {}
    for i, p in enumerate(export.players):
        where = f"{source}: players[{i}]"
        name = _named(p.name, f"{where}.name", "a player")
        key = name_key(name)
        if key in keys:
            raise InvalidInputError(
                f"{where}.name {name!r}: looks like {keys[key]!r}, registered already; one "
                "player a name (the forms refuse look-alike names too)"
            )
        keys[key] = name
        names.add(name)
        if p.dropped_after is not None and p.dropped_after < p.joined_round - 1:
            raise InvalidInputError(
                f"{where}: dropped after round {p.dropped_after}, before joining in round "
                f"{p.joined_round}"
            )
        try:
            parse_fleet(p.fleet, f"{where}.fleet")
        except InvalidInputError as exc:
            raise InvalidInputError(str(exc)) from None
    return names


def _games(games: list[_Game], number: int, names: set[str], source: str) -> None:
    tables: set[int] = set()
    for i, g in enumerate(games):
        where = f"{source}: rounds[{number - 1}][{i}]"
        if g.table in tables:
            raise InvalidInputError(f"{where}: table {g.table} is listed twice in round {number}")
        tables.add(g.table)
        for side in (g.a, g.b, g.winner):
            if side is not None and side and side not in names:
                raise InvalidInputError(f"{where}: {side!r} is not one of the export's players")
        if g.winner and g.winner not in (g.a, g.b):
            raise InvalidInputError(f"{where}: the winner {g.winner!r} did not play at this table")


def _timers(export: _Export, source: str) -> None:
    """Each timer names a paired round once; a pause starts after the start."""
    seen: set[int] = set()
    for i, t in enumerate(export.timers):
        where = f"{source}: timers[{i}]"
        if t.round > len(export.rounds) or t.round in seen:
            raise InvalidInputError(
                f"{where}: round {t.round} is not a paired round of the export, or is listed "
                "twice; export the event again"
            )
        seen.add(t.round)
        if t.started_at is None and (
            t.paused_at is not None or t.paused_seconds or t.added_minutes
        ):
            raise InvalidInputError(f"{where}: a timer never started has no pause nor added time")
        if t.paused_at is not None and t.started_at is not None and t.paused_at < t.started_at:
            raise InvalidInputError(f"{where}: paused before it was started")
