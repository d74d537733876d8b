"""The door's application: a caller's arrival and log-in, the lobby, presence, records, the
sysop.
"""
