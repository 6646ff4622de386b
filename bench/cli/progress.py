"""Progress lines on stderr while a long run works."""
from __future__ import annotations

import sys
import time
from collections.abc import Callable


def progress_printer(quiet: bool = False, unit: str = "steps") -> Callable[[str, int], Callable[[int, int], None]]:
    """A factory: for each scenario, a callback printing `name i/n` at most ~4 times a second."""

    def factory(name: str, total: int) -> Callable[[int, int], None]:
        last = [0.0]
        tty = sys.stderr.isatty()

        def cb(i: int, n: int) -> None:
            now = time.monotonic()
            if quiet or (i < n and now - last[0] < (0.25 if tty else 5.0)):
                return
            last[0] = now
            end = "\n" if (i == n or not tty) else "\r"
            print(f"  {name}: {i}/{n} {unit}", end=end, file=sys.stderr, flush=True)

        return cb

    return factory
