"""Accounts, statistics, saved games and game logs in a database (SQLite or PostgreSQL).

``door.storage.store.Store`` is the interface; ``door.storage.errors`` what it raises.
This package module imports neither, so ``door.storage.settings`` (read by the config
loader) does not load SQLAlchemy.
"""
