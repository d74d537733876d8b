"""The compiled parts: drawing on a layer (door/term/_record.c), laying a frame's rows
(door/term/_lay.c) and the renderer's row loop (door/ui/_paint.c), each the same as
Python beside it.

Optional: where they cannot be built (no C compiler), the install goes on and the door
uses the Python (door/term/canvas.py's Recorder puts, door/term/layers.py's
``_lay_rows``, door/ui/renderer.py's ``_paint_rows``).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("door.term._lay", ["door/term/_lay.c"], optional=True),
        Extension("door.term._record", ["door/term/_record.c"], optional=True),
        Extension("door.ui._paint", ["door/ui/_paint.c"], optional=True),
    ]
)
