"""The compiled parts: drawing on a layer (door/term/_record.c), laying a frame's rows
(door/term/_lay.c), the renderer's row loop (door/ui/_paint.c), the win bar's
two-sided run (engine/_forward.c) and a crib once the starter is cut (engine/_crib.c),
each the same as the Python beside it.

Optional: where they cannot be built (no C compiler), the install goes on and the door
uses the Python (door/term/canvas.py's Recorder puts, door/term/layers.py's
``_lay_rows``, door/ui/renderer.py's ``_paint_rows``, engine/odds/model.py's
``_through_two_sides``, engine/computer/player.py's ``_crib_given_starter``).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("door.term._lay", ["door/term/_lay.c"], optional=True),
        Extension("door.term._record", ["door/term/_record.c"], optional=True),
        Extension("door.ui._paint", ["door/ui/_paint.c"], optional=True),
        Extension("engine._forward", ["engine/_forward.c"], optional=True),
        Extension("engine._crib", ["engine/_crib.c"], optional=True),
    ]
)
