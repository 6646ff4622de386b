"""The progress line: overall scenario count, step position, elapsed time and an ETA from it."""
import io

from bench.cli.progress import clock_text, progress_printer


class FakeClock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def lines(buf):
    return [x for x in buf.getvalue().splitlines() if x]


def test_line_counts_scenarios_and_estimates_time_left_from_the_whole_plan():
    clock, buf = FakeClock(), io.StringIO()
    factory = progress_printer(plan=[10, 30], stream=buf, now=clock, tty=False)
    first = factory("smoke", 10)
    clock.t += 10
    first(10, 10)            # 10 of 40 steps in 10 s: 30 steps left -> 30 s
    second = factory("knowledge", 30)
    clock.t += 10
    second(30, 30)
    assert lines(buf) == ["[scenario 1/2] smoke: step 10/10, 0:10 elapsed, ETA 0:30",
                          "[scenario 2/2] knowledge: step 30/30, 0:20 elapsed, ETA 0:00"]


def test_without_a_plan_the_estimate_covers_the_current_scenario():
    clock, buf = FakeClock(), io.StringIO()
    cb = progress_printer(unit="commits", stream=buf, now=clock, tty=False)("ingest", 0)
    clock.t += 5
    cb(1, 4)
    assert lines(buf) == ["ingest: commit 1/4, 0:05 elapsed, ETA 0:15"]


def test_lines_are_throttled_and_quiet_prints_nothing():
    clock, buf = FakeClock(), io.StringIO()
    cb = progress_printer(plan=[100], stream=buf, now=clock, tty=True)("s", 100)
    for i in range(1, 101):
        clock.t += 0.01
        cb(i, 100)
    out = buf.getvalue()
    assert out.count("\r") < 10 and out.endswith("step 100/100, 0:01 elapsed, ETA 0:00\n")
    quiet = io.StringIO()
    progress_printer(quiet=True, stream=quiet, now=clock)("s", 3)(3, 3)
    assert quiet.getvalue() == ""


def test_no_estimate_from_under_one_percent_of_the_steps():
    clock, buf = FakeClock(), io.StringIO()
    cb = progress_printer(plan=[1000], stream=buf, now=clock, tty=False)("large", 1000)
    clock.t += 2   # set-up, then one step
    cb(1, 1000)
    clock.t += 8
    cb(10, 1000)   # 10 of 1,000 in 10 s: 990 steps left -> 990 s
    assert lines(buf) == ["[scenario 1/1] large: step 1/1000, 0:02 elapsed, ETA ?",
                          "[scenario 1/1] large: step 10/1000, 0:10 elapsed, ETA 16:30"]


def test_more_scenarios_than_planned_keeps_counting():
    clock, buf = FakeClock(), io.StringIO()
    factory = progress_printer(plan=[1], stream=buf, now=clock, tty=False)
    factory("a", 1)(1, 1)
    clock.t += 1
    factory("b", 1)(1, 1)
    assert lines(buf)[-1].startswith("[scenario 2/2] b: step 1/1")


def test_clock_text():
    assert [clock_text(s) for s in (0, 59.6, 61, 3600 + 62)] == ["0:00", "1:00", "1:01", "1:01:02"]


def test_the_bracket_counts_the_suite_then_the_seed_default_replays():
    """A 2-scenario suite followed by one seed-default replay: `[scenario 2/2]`, then `[seed defaults 1/1]`
    (it read `[scenario 3/3]` before, a count the suite does not have); the ETA still spans all three."""
    clock, buf = FakeClock(), io.StringIO()
    factory = progress_printer(plan=[10, 10, 20], groups=[("scenario", 2), ("seed defaults", 1)],
                               stream=buf, now=clock, tty=False)
    for name, n in (("smoke", 10), ("knowledge", 10), ("knowledge [seed defaults]", 20)):
        cb = factory(name, n)
        clock.t += 10
        cb(n, n)
    assert [ln.split("]")[0] + "]" for ln in lines(buf)] == ["[scenario 1/2]", "[scenario 2/2]", "[seed defaults 1/1]"]
    assert lines(buf)[0].endswith("ETA 0:30")


def test_run_plans_its_groups_from_suite_repetitions_and_seed_replays(monkeypatch, tmp_path, capsys):
    """`run smoke knowledge --repeat 2` on the reference: each repetition counts 1/2, 2/2, then the seed-default
    replay of the scenarios its fitted constants affect counts on its own."""
    from bench.cli import progress as progress_mod
    from bench.cli.main import main
    seen = {}
    real = progress_mod.progress_printer

    def spy(*args, **kwargs):
        seen.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(progress_mod, "progress_printer", spy)
    assert main(["run", "smoke", "knowledge", "--repeat", "2", "--out", str(tmp_path), "--quiet"]) == 0
    groups = seen["groups"]
    assert groups[:2] == [("scenario", 2), ("scenario", 2)]
    assert sum(n for _, n in groups) == len(seen["plan"])
    assert groups[2:] == [] or groups[2][0] == "seed defaults"
