"""Whole numbers past 2**31 on every database: event and round seeds (0 to 2**63 - 1) and a
roll-off's sort key are 64-bit.

Revision ID: 0005
Revises: 0004

SQLite's INTEGER is 64-bit already, so only other databases (PostgreSQL, whose INTEGER is 32-bit)
have their columns changed; an SQLite store just records the new revision.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

COLUMNS = (("events", "seed"), ("rounds", "seed"), ("roll_offs", "result"))


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column in COLUMNS:
        op.alter_column(table, column, type_=sa.BigInteger, existing_type=sa.Integer)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column in COLUMNS:
        op.alter_column(table, column, type_=sa.Integer, existing_type=sa.BigInteger)
