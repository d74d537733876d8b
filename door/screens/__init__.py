"""The door's screens: each module draws one part of a frame into a ``door.canvas.Canvas``.

They read state and draw; they never read keys or write to a terminal. ``door.table``
owns the flow of a game and decides what is on screen.
"""
