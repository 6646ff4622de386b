"""Ranking inside the branch filter (ranking.py): only allowed branches, the asked branch's work first, recency."""
from __future__ import annotations

from reference.lexical.params import MOMENT
from reference.project import CommitInfo, ProjectMemory
from reference.project.ranking import BranchRanking

ADVANCE = 2 * MOMENT   # commits a write moment apart, so the recency prior tells them apart (lexical/index.py)


def sha(n: int) -> str:
    return f"{n:040x}"


def _commit(p, store, n, branch, subject, files=("a.py",)):
    store.clock.advance(ADVANCE)
    return p.record_commit(CommitInfo(sha(n), (sha(n - 1),), branch, 1_000_000 + n, subject, "", files)).memory_id


def _world(store):
    p = ProjectMemory.for_store(store)
    p.switch_branch("main", default=True)
    ids = {}
    ids["main_match"] = _commit(p, store, 1, "main", "Fix the csv import of quoted columns")
    ids["side"] = _commit(p, store, 2, "side", "Add a --delimiter option to the importer", ("cli.py",))
    ids["other"] = _commit(p, store, 3, "other", "Fix the csv import of quoted columns again")
    for n in range(4, 30):
        _commit(p, store, n, "main", f"Chore number {n} on docs", (f"docs/d{n}.rst",))
    return p, ids


def test_hits_stay_inside_the_filter_and_the_asked_branch_comes_first(store):
    p, ids = _world(store)
    hits = p.search("csv import quoted columns", 10, branch="side")
    got = [h.id for h in hits]
    assert ids["other"] not in got                                         # not in the filter
    assert all(h.entry.metadata["branch"] in ("main", "side") for h in hits)
    assert got[0] == ids["side"] and ids["main_match"] in got             # the branch's own work, then main


def test_without_the_branch_prior_the_better_match_leads(store):
    p, ids = _world(store)
    plain = BranchRanking(store, branch_weight=0.0)
    got = [h.id for h in plain.search("csv import quoted columns", 10, ["main", "side"], "side")]
    assert got[0] == ids["main_match"]


def test_on_the_default_branch_equal_texts_come_newest_first(store):
    p = ProjectMemory.for_store(store)
    p.switch_branch("main", default=True)
    old = _commit(p, store, 1, "main", "Vacuum after bulk upsert")
    for n in range(2, 12):
        _commit(p, store, n, "main", f"Chore {n}", (f"d{n}.rst",))
    new = _commit(p, store, 12, "main", "Vacuum after bulk upsert.")
    got = [h.id for h in p.search("vacuum bulk upsert", 2)]
    assert got == [new, old]


def test_a_blank_query_lists_the_filter_newest_first(store):
    p, ids = _world(store)
    got = [h.id for h in p.search("  ", 3, branch="side")]
    assert len(got) == 3 and ids["other"] not in got
