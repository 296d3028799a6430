"""What keeps wrong results out: roll-offs tied to their tie, who entered a result, look-alike
player names, server-side web sessions, and the event's ceiling of resets per ship.

Revision ID: 0004
Revises: 0003

- roll_offs: batch, after_round, battle_points, fleet_points, throws. Existing rows keep their
  result but have no batch: they settle no tie (nobody can tell now which tie they were for),
  so the standings show those players level until they roll off again.
- games.entered_by: who entered the result as it stands ('' for existing rows).
- players.name_key: the name as compared, filled in for existing players (the same
  normalisation as kolrami.tournament.names, written out here so that this migration never
  changes when that module does).
- web_sessions: one row per logged-in browser (existing cookies carry no session id and
  simply ask for a new login).
- events.max_resets: NULL, the default for the round's length.
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_LOOKALIKE = str.maketrans(
    # Cyrillic and Greek small letters drawn like the Latin ones below (keys are casefolded)
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u04bb\u0501"
    "\u051b\u051d\u03b1\u03bf\u03c1\u03bd\u03c4\u03b9\u03ba\u03c7\u03c5\u0475",
    "aeopcyxijshdqwaopvtikxuv",
)


def _key(name: str) -> str:
    text = unicodedata.normalize("NFKD", " ".join(name.split()))
    text = "".join(
        c for c in text if unicodedata.category(c) not in ("Cf", "Cc", "Cs", "Co", "Cn", "Mn")
    )
    return " ".join(text.casefold().translate(_LOOKALIKE).split())


def upgrade() -> None:
    with op.batch_alter_table("roll_offs") as batch:
        batch.add_column(sa.Column("batch", sa.Integer, nullable=True))
        batch.add_column(sa.Column("after_round", sa.Integer, nullable=True))
        batch.add_column(sa.Column("battle_points", sa.Integer, nullable=True))
        batch.add_column(sa.Column("fleet_points", sa.Integer, nullable=True))
        batch.add_column(sa.Column("throws", sa.Text, nullable=True))
    op.add_column(
        "games", sa.Column("entered_by", sa.String(120), nullable=False, server_default="")
    )
    op.add_column("events", sa.Column("max_resets", sa.Integer, nullable=True))
    op.add_column(
        "players", sa.Column("name_key", sa.String(120), nullable=False, server_default="")
    )
    op.create_index("ix_players_name_key", "players", ["name_key"])
    connection = op.get_bind()
    players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String))
    keyed = sa.table("players", sa.column("id", sa.Integer), sa.column("name_key", sa.String))
    for pid, name in connection.execute(sa.select(players.c.id, players.c.name)).all():
        connection.execute(sa.update(keyed).where(keyed.c.id == pid).values(name_key=_key(name)))
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "organizer_id",
            sa.Integer,
            sa.ForeignKey("organizers.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_sessions")
    op.drop_index("ix_players_name_key", "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name_key")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("max_resets")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("entered_by")
    with op.batch_alter_table("roll_offs") as batch:
        for column in ("throws", "fleet_points", "battle_points", "after_round", "batch"):
            batch.drop_column(column)
