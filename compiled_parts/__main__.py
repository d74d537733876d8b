"""``python -m compiled_parts``: which compiled parts run in C."""

import sys

from compiled_parts import main

sys.exit(main())
