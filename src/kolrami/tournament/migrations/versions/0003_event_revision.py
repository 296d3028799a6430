"""An event's revision: a number that changes with every write to the event.

Revision ID: 0003
Revises: 0002

The web app keeps what its pages show of an event (standings, pairings, players) in memory and
checks this number before using it. The store bumps it in the same transaction as every write
that touches the event, whichever process writes (the CLI, another web worker), so a page never
shows a result older than the database. Existing events start at 1.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "events", sa.Column("revision", sa.Integer, nullable=False, server_default=sa.text("1"))
    )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("revision")
