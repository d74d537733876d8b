"""Alembic's environment and revisions for the door's database (see door.storage.migrate).

A package only so that it ships with the door.
"""
