"""The door is one event loop on one core: NumPy must not spin a thread per core."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CHILD = """
import os, door, numpy
a = numpy.ones((400, 400))
a @ a  # a product large enough that OpenBLAS would share it between threads
print(len(os.listdir("/proc/self/task")))
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_importing_the_door_keeps_numpy_to_one_thread() -> None:
    env = {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}
    result = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert int(result.stdout) == 1
