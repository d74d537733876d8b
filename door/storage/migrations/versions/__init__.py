"""The revisions, oldest first by their down_revision chain. Alembic skips this file."""
