"""Edits before and during an event: co-organizers, players renamed or removed and fleets
changed before round 1 (locked after, OP-12), a drop undone, the current round cancelled and
paired again before any result, and two players' pairings swapped by hand (with a warning when
the swap makes a rematch, OP-04, or gives the bye against OP-08 or OP-09). Every change is
logged in the event's audit with the account that made it."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.tournament import core
from kolrami.tournament.models import EventOrganizerRow
from kolrami.tournament.models import EventRow
from kolrami.tournament.models import GameRow
from kolrami.tournament.models import ResultReportRow
from kolrami.tournament.models import RoundRow
from kolrami.tournament.names import clean_name
from kolrami.tournament.names import name_key
from kolrami.tournament.repositories import Accounts
from kolrami.tournament.repositories import Audit
from kolrami.tournament.repositories import Events
from kolrami.tournament.repositories import Players
from kolrami.tournament.repositories import Rounds
from kolrami.tournament.services.pairing import pair_next_round
from kolrami.tournament.services.standings import event_state

# --- co-organizers ---------------------------------------------------------------------------


def co_organizers(s: Session, event_name: str | None) -> list[dict[str, Any]]:
    """The organizer accounts that run an event in the web app: id, user name and whether
    it owns the event."""
    events, accounts = Events(s), Accounts(s)
    e = events.named(event_name)
    owner = events.owner(e)
    rows = [accounts.get(i) for i in events.organizers(e)]
    return sorted(
        ({"id": r.id, "username": r.username, "owner": r.id == owner} for r in rows if r),
        key=lambda r: str(r["username"]).lower(),
    )


def share_event(s: Session, event_name: str | None, username: str, who: str) -> str:
    """Share an event with another organizer account: it runs the event too from now on.
    Returns the account's user name."""
    e = Events(s).named(event_name)
    account = Accounts(s).by_name(username.strip())
    if account is None:
        raise InvalidInputError(
            f"no organizer account '{username.strip()[:80]}': make it first (Add another "
            "organizer account), then share the event with it",
            field="username",
        )
    if account.id in Events(s).organizers(e):
        raise InvalidInputError(f"'{account.username}' runs {e.name} already", field="username")
    s.add(EventOrganizerRow(event_id=e.id, organizer_id=account.id))
    Audit(s).log(e, who, f"{who} shared {e.name} with organizer {account.username}")
    return account.username


def _co_organizer(s: Session, e: EventRow, username: str) -> EventOrganizerRow:
    """The link of the organizer account `username` to an event that it runs."""
    account = Accounts(s).by_name(username.strip())
    link = None if account is None else s.get(EventOrganizerRow, (e.id, account.id))
    if link is None:
        raise InvalidInputError(
            f"'{username.strip()[:80]}' is not an organizer of {e.name}", field="username"
        )
    return link


def unshare_event(
    s: Session, event_name: str | None, username: str, who: str, by: int | None
) -> None:
    """An organizer account stops running an event; never the last one (nobody could open
    it in the web app). The owner is removed only by themselves (the next organizer, lowest id
    first, then owns the event) or once they have handed it over; `by` is the account asking."""
    e = Events(s).named(event_name)
    link = _co_organizer(s, e, username)
    name = username.strip()
    runs = Events(s).organizers(e)
    if len(runs) == 1:
        raise InvalidInputError(
            f"'{name}' is the only organizer of {e.name}: share it with another account first",
            field="username",
        )
    if link.owner and by != link.organizer_id:
        raise InvalidInputError(
            f"'{name}' owns {e.name}: only {name} can leave it, or hand it over first "
            "(Hand the event over)",
            field="username",
        )
    s.delete(link)
    Audit(s).log(e, who, f"{who} removed organizer {name} from {e.name}")
    if link.owner:
        successor = min(i for i in runs if i != link.organizer_id)
        heir = s.get(EventOrganizerRow, (e.id, successor))
        assert heir is not None  # one of the links listed above
        heir.owner = True
        account = Accounts(s).get(successor)
        Audit(s).log(e, who, f"{account.username if account else successor} owns {e.name} now")


def hand_over(s: Session, event_name: str | None, username: str, who: str, by: int | None) -> str:
    """The owner hands an event over to one of its co-organizers, who owns it from now on
    (then the former owner can be removed like any co-organizer). Returns the new owner's
    user name."""
    e = Events(s).named(event_name)
    link = _co_organizer(s, e, username)
    owner = Events(s).owner(e)
    if owner is None or by != owner:
        raise InvalidInputError(
            f"only the owner of {e.name} can hand it over; ask them", field="owner"
        )
    if link.owner:
        raise InvalidInputError(f"'{username.strip()}' owns {e.name} already", field="owner")
    old = s.get(EventOrganizerRow, (e.id, owner))
    assert old is not None  # the owner's link, found just above
    old.owner, link.owner = False, True
    account = Accounts(s).get(link.organizer_id)
    assert account is not None  # a link's account (links go with their account)
    Audit(s).log(e, who, f"{who} handed {e.name} over to organizer {account.username}")
    return account.username


# --- players and fleets before round 1 (OP-12) ------------------------------------------------


def _unlocked(s: Session, e: EventRow, what: str) -> None:
    """Players and fleets change only until round 1 is paired (OP-12)."""
    paired = Rounds(s).paired(e)
    if paired:
        raise InvalidInputError(
            f"{what}: {e.name} has {paired} round{'s' if paired > 1 else ''} paired, and "
            "players and fleets are locked once round 1 is paired (OP-12); drop the player "
            "instead, or cancel round 1 first while it has no result"
        )


def rename_player(s: Session, event_name: str | None, name: str, new_name: str, who: str) -> str:
    """A player's name corrected before round 1 (OP-12); returns the new name as kept."""
    e = Events(s).named(event_name)
    p = Players(s).named(e, name)
    _unlocked(s, e, f"cannot rename {p.name}")
    new = clean_name(new_name)
    key = name_key(new)
    same = Players(s).same_name(e, new, key)
    if same is not None and same != p.name:
        raise InvalidInputError(
            f"'{new}' is or looks like '{same}', registered already in {e.name}: pick a name "
            "that differs by more than case, accents or look-alike letters",
            field="new_name",
        )
    old = p.name
    p.name, p.name_key = new, key
    Audit(s).log(e, who, f"{old} renamed {new}")
    return new


def remove_player(s: Session, event_name: str | None, name: str, who: str) -> None:
    """A player registered by mistake, removed before round 1 (OP-12); after it, drop him."""
    e = Events(s).named(event_name)
    p = Players(s).named(e, name)
    _unlocked(s, e, f"cannot remove {p.name}")
    old = p.name
    s.delete(p)
    Audit(s).log(e, who, f"{old} removed from {e.name} before round 1")


def change_fleet(s: Session, event_name: str | None, name: str, fleet: Fleet, who: str) -> int:
    """A player's fleet replaced before round 1 (OP-12); it must be legal for the event
    (FBS-12). Returns its Total Build."""
    e = Events(s).named(event_name)
    p = Players(s).named(e, name)
    _unlocked(s, e, f"cannot change {p.name}'s fleet")
    report = validate(fleet, e.sp_limit, EventSettings(e.sp_limit, e.faction_surcharge))
    if report.errors:
        first = report.errors[0]
        more = f" (and {len(report.errors) - 1} more)" if len(report.errors) > 1 else ""
        raise InvalidInputError(
            f"{p.name}'s new fleet is not legal for {e.name}: {first.path}: {first.message}" + more,
            field="fleet",
        )
    p.fleet_json = fleet.model_dump_json()
    Audit(s).log(e, who, f"{p.name}'s fleet changed to {fleet.name} ({report.total_build} SP)")
    return report.total_build


def undo_drop(s: Session, event_name: str | None, name: str, who: str) -> None:
    """A drop made by mistake undone: the player is paired again from the next round. Only
    while no round was paired since the drop (he would have missed it)."""
    e = Events(s).named(event_name)
    p = Players(s).named(e, name)
    if p.dropped_after is None:
        raise InvalidInputError(f"{p.name} has not dropped: nothing to undo")
    paired = Rounds(s).paired(e)
    if p.dropped_after < paired:
        raise InvalidInputError(
            f"{p.name} dropped after round {p.dropped_after} and round {paired} was paired "
            f"without him: cancel round {paired} first (while it has no result), then undo the "
            "drop"
        )
    p.dropped_after = None
    Audit(s).log(e, who, f"{p.name}'s drop undone: playing again")


# --- the current round: cancel, pair again, swap by hand --------------------------------------


def _current(e: EventRow) -> RoundRow:
    if not e.round_rows:
        raise InvalidInputError(f"{e.name} has no round paired yet")
    return e.round_rows[-1]


def _has_result(s: Session, g: GameRow) -> bool:
    """A result is in for the table: entered, or reported by a player."""
    if g.winner_id is not None or g.fp_a is not None or g.fp_b is not None:
        return True
    query = select(ResultReportRow.id).where(ResultReportRow.game_id == g.id)
    return s.scalars(query).first() is not None


def cancel_round(s: Session, event_name: str | None, who: str) -> int:
    """Cancel the latest round before any of its results is in (entered or reported): its
    tables are removed, a player dropped during it does not play it, and a late entry made
    during it may. Returns the round's number."""
    e = Events(s).named(event_name)
    r = _current(e)
    done = [g for g in r.games if _has_result(s, g)]
    if done:
        tables = ", ".join(str(g.table) for g in done)
        raise InvalidInputError(
            f"round {r.number} of {e.name} has a result in at table {tables}: a round is "
            "cancelled only before any result; swap players by hand instead, or correct the "
            "result"
        )
    number = r.number
    for g in list(r.games):
        s.delete(g)
    s.flush()
    s.delete(r)
    notes = []
    for p in e.players:
        if p.dropped_after == number:  # dropped while the round was paired: he leaves before it
            p.dropped_after = number - 1
            notes.append(f"{p.name} stays dropped")
        if p.joined_round == number + 1:  # registered while it was paired: he may play it
            p.joined_round = number
            notes.append(f"{p.name} joins at round {number}")
    s.flush()
    s.expire(e)
    extra = f" ({'; '.join(notes)})" if notes else ""
    Audit(s).log(e, who, f"round {number} cancelled before any result{extra}")
    return number


def repair_round(s: Session, event_name: str | None, who: str) -> core.Pairing:
    """Cancel the latest round before any result and pair it again (with the players as they
    are now: a drop, a late entry, a drop undone), all in one transaction."""
    e = Events(s).named(event_name)
    cancel_round(s, e.name, who)
    pairing = pair_next_round(s, e.name, who=None)
    Audit(s).log(e.id, who, f"round {pairing.round} paired again")
    return pairing


def swap_players(
    s: Session, event_name: str | None, first: str, second: str, who: str
) -> list[str]:
    """Swap two players' places in the current round's pairings (each takes the other's
    table and opponent, or the bye). Refused at a table with a result in; allowed, with a
    warning returned (and logged), when it makes a rematch (OP-04) or gives the bye against
    OP-08 or OP-09. The build checks of both tables are cleared (new opponents, OP-14)."""
    e = Events(s).named(event_name)
    r = _current(e)
    players = Players(s)
    a, b = players.named(e, first), players.named(e, second)
    if a.id == b.id:
        raise InvalidInputError(f"swap {a.name} with whom? name two different players")
    rounds = Rounds(s)
    ga, gb = rounds.game_of(e, r.number, a), rounds.game_of(e, r.number, b)
    if ga.id == gb.id:
        raise InvalidInputError(
            f"{a.name} and {b.name} play each other at table {ga.table} already: swap one of "
            "them with a player of another table"
        )
    for g in (ga, gb):
        if _has_result(s, g):
            raise InvalidInputError(
                f"table {g.table} of round {r.number} has a result in: swap only players "
                "whose tables have none"
            )
    for g in (ga, gb):
        if g.a_id == a.id:
            g.a_id = b.id
        elif g.b_id == a.id:
            g.b_id = b.id
        elif g.a_id == b.id:
            g.a_id = a.id
        else:
            g.b_id = a.id
        g.build_initials_a = g.build_initials_b = ""
    s.flush()
    warnings = _swap_warnings(s, e, r, (ga, gb))
    names = {p.id: p.name for p in e.players}
    rematches = [
        [names[g.a_id], names[g.b_id]]
        for g in r.games
        if g.b_id is not None and _met_before(e, r.number, g.a_id, g.b_id)
    ]
    r.rematches = json.dumps(rematches)
    note = f"; warning: {'; '.join(warnings)}" if warnings else ""
    Audit(s).log(
        e,
        who,
        f"round {r.number}: {a.name} (table {ga.table}) and {b.name} (table {gb.table}) "
        f"swapped by hand{note}",
    )
    return warnings


def _met_before(e: EventRow, number: int, x: int, y: int) -> bool:
    for r in e.round_rows:
        if r.number < number:
            for g in r.games:
                if {g.a_id, g.b_id} == {x, y}:
                    return True
    return False


def _swap_warnings(s: Session, e: EventRow, r: RoundRow, games: tuple[GameRow, ...]) -> list[str]:
    """What a swap breaks of the pairing rules, said, not refused."""
    names = {p.id: p.name for p in e.players}
    out = []
    for g in games:
        if g.b_id is None:
            continue
        for earlier in e.round_rows:
            if earlier.number < r.number and any(
                {x.a_id, x.b_id} == {g.a_id, g.b_id} for x in earlier.games
            ):
                out.append(
                    f"{names[g.a_id]} and {names[g.b_id]} met in round {earlier.number}: a "
                    "rematch, which the pairing avoids while it can (OP-04)"
                )
                break
    bye = next((g for g in games if g.b_id is None), None)
    if bye is None:
        return out
    player = names[bye.a_id]
    if r.number == 1:
        out.append(f"the round 1 bye was drawn at random (OP-08); {player} has it by hand now")
        return out
    state = event_state(s, e)
    previous = state.rounds[: r.number - 1]
    had = {g.a for rnd in previous for g in rnd if g.bye}
    active = [names[g.a_id] for g in r.games] + [names[g.b_id] for g in r.games if g.b_id]
    if player in had:
        out.append(
            f"{player} had a bye already; the bye goes to a player without one while there is "
            "one (OP-09)"
        )
        return out
    table = {x.player: x for x in core.standings(state.players, previous)}
    fewest = min(table[p].battle_points for p in active if p not in had and p in table)
    if player in table and table[player].battle_points > fewest:
        lowest = sorted(
            p for p in active if p not in had and p in table and table[p].battle_points == fewest
        )
        out.append(
            f"{player} has {table[player].battle_points} Battle Points; the bye goes to the "
            f"fewest among those without one (OP-09): {', '.join(lowest)} with {fewest}"
        )
    return out
