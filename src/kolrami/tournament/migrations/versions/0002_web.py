"""The web app: organizer accounts, event ownership, player reports, AI battle logs, secrets.

Revision ID: 0002
Revises: 0001

Only new tables: nothing of 0001 is altered, so an existing store upgrades in place and the CLI
keeps working on it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "organizers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("username", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "event_organizers",
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("organizer_id", sa.Integer, sa.ForeignKey("organizers.id"), primary_key=True),
    )
    op.create_table(
        "result_reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("winner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("fp_a", sa.Integer, nullable=False),
        sa.Column("fp_b", sa.Integer, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("resolved_by", sa.String(120), nullable=False),
    )
    op.create_table(
        "battle_logs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False, unique=True),
        sa.Column("captains", sa.String(200), nullable=False),
        sa.Column("jsonl", sa.Text, nullable=False),
    )
    op.create_table(
        "app_secrets",
        sa.Column("name", sa.String(60), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in (
        "app_secrets",
        "battle_logs",
        "result_reports",
        "event_organizers",
        "organizers",
    ):
        op.drop_table(table)
