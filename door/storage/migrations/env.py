"""Alembic's entry point: runs the revisions on the connection door.storage.migrate hands in.

The door never lets Alembic open its own connection or touch logging: the server's log
set-up stays as it is, and migrations run inside the caller's transaction.
"""

from __future__ import annotations

from alembic import context

from door.storage.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through door.storage.migrate, which passes a connection")

context.configure(
    connection=connection,
    target_metadata=metadata,
    # SQLite cannot ALTER most things: batch mode copies the table instead.
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
