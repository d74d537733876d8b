"""The door's screens: each module draws one part of a frame into a ``door.term.canvas.Canvas``.

They read state and draw; they never read keys or write to a terminal. ``door.table.flow``
owns the flow of a game and decides what is on screen.
"""
