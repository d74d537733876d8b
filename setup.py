"""The compiled parts (compiled_parts.PARTS says which, and which Python each stands in
for): drawing on a layer (door/term/_record.c), laying a frame's rows (door/term/_lay.c),
the renderer's row loop (door/ui/_paint.c), the win bar's two-sided run
(engine/odds/_forward.c) and two sides' play through the values after it
(engine/odds/_after_play.c), a crib once the starter is cut (engine/odds/_crib.c) and the
master's full search of the play over sampled hands (engine/computer/_peg.c with two
players, engine/computer/_table_peg.c with three or four), each the same as its Python twin.

Optional: where they cannot be built (no C compiler), the install goes on and the door
runs the Python twins.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("door.term._lay", ["door/term/_lay.c"], optional=True),
        Extension("door.term._record", ["door/term/_record.c"], optional=True),
        Extension("door.ui._paint", ["door/ui/_paint.c"], optional=True),
        Extension(
            "engine.odds._forward",
            ["engine/odds/_forward.c"],
            optional=True,
            depends=["engine/odds/_float64_args.h"],
        ),
        Extension("engine.odds._by_role", ["engine/odds/_by_role.c"], optional=True),
        Extension(
            "engine.odds._after_play",
            ["engine/odds/_after_play.c"],
            optional=True,
            depends=["engine/odds/_float64_args.h"],
        ),
        Extension(
            "engine.odds._crib",
            ["engine/odds/_crib.c"],
            depends=["engine/odds/_card_args.h"],
            optional=True,
        ),
        Extension(
            "engine.odds._before_cut",
            ["engine/odds/_before_cut.c"],
            depends=["engine/odds/_card_args.h"],
            optional=True,
        ),
        Extension(
            "engine.computer._peg",
            ["engine/computer/_peg.c"],
            depends=["engine/computer/_peg_points.h", "engine/computer/_play_args.h"],
            optional=True,
        ),
        Extension(
            "engine.computer._table_peg",
            ["engine/computer/_table_peg.c"],
            depends=["engine/computer/_peg_points.h", "engine/computer/_play_args.h"],
            optional=True,
        ),
    ]
)
