"""The audit refuses to be changed: a trigger aborts any UPDATE or DELETE of its rows (and
on PostgreSQL a TRUNCATE), so no code path, now or later, can rewrite what the sysop did.
Entries are only ever added; a restore that replaces the whole database lifts the guard
within its own transaction (door/storage/audit.py, ``clear_audit``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

REFUSED = "the audit is append-only"

SQLITE_UP = [
    f"""CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
    BEGIN SELECT RAISE(ABORT, '{REFUSED}: an entry cannot be changed'); END""",
    f"""CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
    BEGIN SELECT RAISE(ABORT, '{REFUSED}: an entry cannot be removed'); END""",
]
SQLITE_DOWN = ["DROP TRIGGER audit_no_update", "DROP TRIGGER audit_no_delete"]

POSTGRESQL_UP = [
    f"""CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{REFUSED}: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$""",
    """CREATE TRIGGER audit_no_change BEFORE UPDATE OR DELETE ON audit
    FOR EACH ROW EXECUTE FUNCTION audit_append_only()""",
    """CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit
    FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only()""",
]
POSTGRESQL_DOWN = [
    "DROP TRIGGER audit_no_truncate ON audit",
    "DROP TRIGGER audit_no_change ON audit",
    "DROP FUNCTION audit_append_only()",
]


def upgrade() -> None:
    statements = POSTGRESQL_UP if op.get_bind().dialect.name == "postgresql" else SQLITE_UP
    for statement in statements:
        op.execute(statement)


def downgrade() -> None:
    statements = POSTGRESQL_DOWN if op.get_bind().dialect.name == "postgresql" else SQLITE_DOWN
    for statement in statements:
        op.execute(statement)
