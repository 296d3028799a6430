"""The first tournament store: events, players, rounds, games, roll-offs, corrections.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("date", sa.String(40), nullable=False),
        sa.Column("sp_limit", sa.Integer, nullable=False),
        sa.Column("scenario", sa.String(200), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("round_minutes", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("titles", sa.Text, nullable=False),
        sa.Column("faction_surcharge", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("email", sa.String(200), nullable=False),
        sa.Column("fleet_json", sa.Text, nullable=False),
        sa.Column("pin_hash", sa.String(200), nullable=True),
        sa.Column("joined_round", sa.Integer, nullable=False),
        sa.Column("dropped_after", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("event_id", "name"),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("rematches", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("event_id", "number"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), nullable=False),
        sa.Column("table", sa.Integer, nullable=False),
        sa.Column("a_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("b_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("winner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("fp_a", sa.Integer, nullable=True),
        sa.Column("fp_b", sa.Integer, nullable=True),
        sa.Column("build_initials_a", sa.String(10), nullable=False),
        sa.Column("build_initials_b", sa.String(10), nullable=False),
        sa.Column("result_initials_a", sa.String(10), nullable=False),
        sa.Column("result_initials_b", sa.String(10), nullable=False),
        sa.Column("flag", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "roll_offs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("result", sa.Integer, nullable=False),
        sa.Column("source", sa.String(100), nullable=False),
    )
    op.create_table(
        "corrections",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("who", sa.String(120), nullable=False),
        sa.Column("what", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("corrections", "roll_offs", "games", "rounds", "players", "events"):
        op.drop_table(table)
