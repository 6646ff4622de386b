"""Progress lines on stderr while a long run works.

A line reads `[scenario 2/5] knowledge: step 120/400, 0:12 elapsed, ETA 0:30`. When the caller gives
the plan (the step count of every scenario it will replay, in order), the ETA is the elapsed time scaled
by the steps of the whole run still to come (`?` until 1% of the steps are done); without a plan, it
covers the current scenario only. The bracket counts within a group of the plan (`groups`): a suite
of 21 scenarios shows `[scenario i/21]` in each repetition (and for each backend of a comparison), and
the seed-default replays that follow show `[seed defaults j/3]`, not `[scenario 22/24]`.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO


def clock_text(seconds: float) -> str:
    """`m:ss`, or `h:mm:ss` from an hour on."""
    s = max(0, round(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


class _Run:
    """What has been done so far across all scenarios of one run."""

    def __init__(self, plan: Sequence[int] | None, now: Callable[[], float],
                 groups: Sequence[tuple[str, int]] | None = None) -> None:
        self.plan = list(plan) if plan is not None else None
        self.groups = list(groups) if groups else ([("scenario", len(self.plan))] if self.plan else [])
        self.now = now
        self.started = now()
        self.index = 0          # scenarios begun
        self.done_before = 0    # steps of the scenarios already finished

    def line(self, name: str, unit: str, i: int, n: int, scenario_started: float) -> str:
        now = self.now()
        head = f"[{self.position()}] " if self.plan else ""
        if self.plan:
            done, total, elapsed = self.done_before + i, sum(self.plan), now - self.started
        else:
            done, total, elapsed = i, n, now - scenario_started
        # from under 1% of the steps the rate mostly measures set-up (2:46:24 at step 1 of the large suite)
        eta = clock_text(elapsed * (total - done) / done) if done and done * 100 >= total else "?"
        return f"{head}{name}: {unit[:-1] if unit.endswith('s') else unit} {i}/{n}, " \
               f"{clock_text(elapsed)} elapsed, ETA {eta}"

    def position(self) -> str:
        """`scenario 3/21`: the label and place of the current scenario within its group of the plan."""
        before = 0
        for label, size in self.groups:
            if self.index <= before + size:
                return f"{label} {self.index - before}/{size}"
            before += size
        return f"scenario {self.index}/{len(self.plan or [])}"   # more scenarios than planned: keep counting


def progress_printer(quiet: bool = False, unit: str = "steps", plan: Sequence[int] | None = None,
                     stream: TextIO | None = None, now: Callable[[], float] = time.monotonic,
                     tty: bool | None = None, groups: Sequence[tuple[str, int]] | None = None,
                     ) -> Callable[[str, int], Callable[[int, int], None]]:
    """A factory: for each scenario, a callback printing its progress line at most ~4 times a second.

    `plan`: the step count of each scenario the factory will be called for, in order (repetitions and
    backends included); the factory counts its calls to know which scenario is running. `groups`:
    (label, how many scenarios) in plan order, what the bracket counts within (default: one group
    `scenario` over the whole plan). `stream`,
    `now` and `tty` default to stderr, the monotonic clock and whether stderr is a terminal.
    """
    run = _Run(plan, now, groups)

    def factory(name: str, total: int) -> Callable[[int, int], None]:
        out = stream or sys.stderr
        is_tty = out.isatty() if tty is None else tty
        if run.plan is not None and run.index:
            run.done_before += run.plan[run.index - 1] if run.index <= len(run.plan) else 0
        run.index += 1
        if run.plan is not None and run.index > len(run.plan):
            run.plan.append(total)   # more scenarios than planned: keep counting rather than lie
        started = now()
        last = [float("-inf")]

        def cb(i: int, n: int) -> None:
            t = now()
            if quiet or (i < n and t - last[0] < (0.25 if is_tty else 5.0)):
                return
            last[0] = t
            end = "\n" if (i == n or not is_tty) else "\r"
            print(run.line(name, unit, i, n, started), end=end, file=out, flush=True)

        return cb

    return factory
