"""The round timer, players joining from their phones, and the store an event is held at.

Revision ID: 0006a
Revises: 0005

- rounds: the timer of each round, kept in the database so that it survives a restart of the
  server: when it was started (NULL: not yet), when it was paused (NULL: running), the seconds
  it has been paused in all before that, and the minutes the organizer added.
- events.self_registration: players may ask to join from their phones (off for every event
  made before).
- events.venue: the store or club the event is held at, for the archive of past events.
- join_requests: a player's request to join (name, email, fleet), pending until the organizer
  approves or refuses it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006a"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (no table copy): other tables' rows point at events and rounds
    op.add_column("rounds", sa.Column("timer_started_at", sa.DateTime, nullable=True))
    op.add_column("rounds", sa.Column("timer_paused_at", sa.DateTime, nullable=True))
    op.add_column(
        "rounds",
        sa.Column("timer_paused_seconds", sa.Integer, nullable=False, server_default="0"),
    )
    op.add_column(
        "rounds",
        sa.Column("timer_added_minutes", sa.Integer, nullable=False, server_default="0"),
    )
    op.add_column(
        "events",
        sa.Column("self_registration", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("events", sa.Column("venue", sa.String(200), nullable=False, server_default=""))
    op.create_table(
        "join_requests",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("email", sa.String(200), nullable=False, server_default=""),
        sa.Column("fleet_json", sa.Text, nullable=False),
        sa.Column("status", sa.String(20), nullable=False, server_default="pending"),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_join_requests_event_id", "join_requests", ["event_id"])


def downgrade() -> None:
    op.drop_index("ix_join_requests_event_id", "join_requests")
    op.drop_table("join_requests")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("venue")
        batch.drop_column("self_registration")
    with op.batch_alter_table("rounds") as batch:
        for column in (
            "timer_added_minutes",
            "timer_paused_seconds",
            "timer_paused_at",
            "timer_started_at",
        ):
            batch.drop_column(column)
