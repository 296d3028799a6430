"""The one table of a ship's fields: ShipState (kolrami.engine.battle) and its snapshot's
fields (kolrami.engine.view) are generated from it by `scripts/gen_ship_fields.py`, between
the `<generated ...>` markers: the declarations, `__init__`, `copy`, and the snapshot's slots,
annotations and `__init__`. tests/engine/test_ship_fields.py checks that the generated code is
the table's.

Why generated code and not a metaclass or a loop over `fields()`: both classes are compiled
(mypyc), and the copy and the snapshot are on the hot path of every search, so each must be
written out attribute by attribute; the table keeps the writing-out in one place.

A new field: add a row, run `python scripts/gen_ship_fields.py`, done.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ShipField:
    """One field of a ship.

    - `default`: the default's source (None: a required argument, given in order);
    - `factory`: its default is a fresh one of this (`list`, `dict`): the argument defaults to
      None, and the copy and the snapshot take copies of their own;
    - `init`: given to `__init__` (False: set from `initial`);
    - `view`: how the snapshot takes it: "same", "copy" (a dict of its own), "tuple", "facts"
      (the class facts), or None (not in the snapshot); `view_name`: its name there;
    - `note`: the comment above the field (`#:` lines) and `tail`: the comment after it.
    """

    name: str
    type: str
    default: str | None = None
    factory: str | None = None
    init: bool = True
    initial: str | None = None
    view: str | None = "same"
    view_name: str | None = None
    view_type: str | None = None
    note: str = ""
    tail: str = ""
    #: a comment block before the field (plain `#` lines)
    block: str = ""


FIELDS: tuple[ShipField, ...] = (
    ShipField("id", "str"),
    ShipField("side", "str"),
    ShipField("cls", "ShipClass"),
    ShipField("squadron", "str"),
    ShipField(
        "index", "int", view=None, tail="position in the battle's ship order, for stable sorting"
    ),
    ShipField("x", "float"),
    ShipField("y", "float"),
    ShipField("heading", "int"),
    ShipField("speed", "int", tail="this turn's speed once moved; last turn's until then"),
    ShipField("last_speed", "int"),
    ShipField("superstructure", "int"),
    ShipField("shields", "int"),
    ShipField("engine_power", "int"),
    ShipField("systems", "int"),
    ShipField(
        "mounts",
        "dict[WeaponKind, tuple[int, ...]]",
        view="copy",
        note="working shots of each mount, by weapon kind: tuples, replaced whole when one "
        "changes (`Battle.set_mounts`), so a view's snapshot can share them",
    ),
    ShipField(
        "_destroyed",
        "bool",
        "False",
        view_name="destroyed",
        block="Kept through the properties below, which keep `alive` and `on_table` up to date: "
        "those two are read thousands of times a battle, these three written a few times.",
    ),
    ShipField("_derelict", "bool", "False", view_name="derelict"),
    ShipField("_out_of_play", "bool", "False", view_name="out_of_play"),
    ShipField(
        "alive",
        "bool",
        init=False,
        initial="True",
        note="in play and able to act or be targeted (not destroyed, derelict or reset)",
    ),
    ShipField(
        "on_table",
        "bool",
        init=False,
        initial="True",
        note="a model on the table: alive ships and derelicts; not destroyed or reset ships",
    ),
    ShipField("tokens", "int", "0", tail="tokens a scenario's rules give it (Critical Hit Tokens)"),
    ShipField(
        "cards",
        "list[str]",
        factory="list",
        view="tuple",
        view_type="tuple[str, ...]",
        tail="the cards on the ship now",
    ),
    ShipField("start_cards", "tuple[str, ...]", "()", tail="the cards it began the battle with"),
    ShipField("points", "int", "0", tail="Total SP: ship value plus cards"),
    ShipField(
        "max_shields",
        "int",
        "0",
        block="The ship's own values as the battle began: the sheet's, changed by cards for "
        "good. Repairs restore these, a reset returns to them.",
    ),
    ShipField("max_engine", "int", "0"),
    ShipField("max_systems", "int", "0"),
    ShipField("damage_control", "int", "0"),
    ShipField("strength", "dict[WeaponKind, int]", factory="dict", view="copy"),
    ShipField("ranges", "dict[WeaponKind, int]", factory="dict", view="copy"),
    ShipField(
        "evasion", "int", "0", tail="shots at it need this much more on the d10 (card effects)"
    ),
    ShipField(
        "detached", "bool", "False", tail="flies on its own, out of its squadron's formation"
    ),
    ShipField("in_control", "bool", "True"),
    ShipField(
        "fired", "bool", "False", tail="used its volley this turn (declared fire or reaction)"
    ),
    ShipField("moved", "bool", "False"),
    ShipField("lock", "Lock | None", "None", view=None),
    ShipField(
        "known",
        "ClassFacts | None",
        init=False,
        initial="None",
        view="facts",
        view_type="ClassFacts",
        note="`facts(cls)`, kept once asked (`class_facts`): looking it up costs an id() and a "
        "dict",
    ),
)
