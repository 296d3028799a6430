"""The owner of each event in the web app: only he removes himself or hands the event over.

Revision ID: 0007
Revises: 0006a

- event_organizers.owner: true on the one link of each event that owns it. An event shared
  before this revision is owned by the account among its organizers that was made first (the
  lowest id: nothing older says who created it).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006a"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (no table copy), then one portable UPDATE with a correlated subquery
    op.add_column(
        "event_organizers",
        sa.Column("owner", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    links = sa.table(
        "event_organizers",
        sa.column("event_id", sa.Integer),
        sa.column("organizer_id", sa.Integer),
        sa.column("owner", sa.Boolean),
    )
    first = sa.alias(links, "first")
    lowest = (
        sa.select(sa.func.min(first.c.organizer_id))
        .where(first.c.event_id == links.c.event_id)
        .scalar_subquery()
    )
    op.execute(links.update().where(links.c.organizer_id == lowest).values(owner=True))


def downgrade() -> None:
    with op.batch_alter_table("event_organizers") as batch:
        batch.drop_column("owner")
