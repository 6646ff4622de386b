"""Contract of `point_in_time` (seed 003 §5.1: "all reads must support a point-in-time view").

A read with `at` (Unix seconds on the scenario clock) sees exactly the writes whose timestamp is
<= `at`, as graph-pit's model answers it: a node's payload and its `superseded_by`, edges out and in
(a deleted edge is live before its delete and gone from then on), a policy key and a namespace's
list. A time before the first write sees nothing; `at=None` is the latest view. Graph reads need
`graph`, policy reads `policy.kv` as well.
"""
from bench.backends import Capability as C

from tests.contract.conftest import need

CAPABILITY = C.POINT_IN_TIME


def _write(backend, clock, fn, *args):
    """Advance one second, write, return the write's time."""
    clock.advance(1)
    fn(*args)
    return clock.now()


def test_a_node_read_at_an_earlier_time_sees_the_old_value(backend, backend_clock):
    need(backend, C.GRAPH)
    nid = "file:p1/app.py"
    before = backend_clock.now()
    t1 = _write(backend, backend_clock, backend.graph_put_node, nid, "file", {"v": 1})
    t2 = _write(backend, backend_clock, backend.graph_put_node, nid, "file", {"v": 2})
    assert backend.graph_get_node(nid, at=before) is None
    assert backend.graph_get_node(nid, at=t1)["payload"] == {"v": 1}
    assert backend.graph_get_node(nid, at=t1 + 0.5)["payload"] == {"v": 1}
    assert backend.graph_get_node(nid, at=t2)["payload"] == {"v": 2}
    assert backend.graph_get_node(nid)["payload"] == {"v": 2}


def test_edges_before_and_after_a_delete(backend, backend_clock):
    need(backend, C.GRAPH)
    a, b, c = "file:p2/a.py", "file:p2/b.py", "file:p2/c.py"
    t1 = _write(backend, backend_clock, backend.graph_put_edge, a, "imports", b, None)
    t2 = _write(backend, backend_clock, backend.graph_put_edge, a, "imports", c, None)
    t3 = _write(backend, backend_clock, backend.graph_delete_edge, a, "imports", b)
    assert backend.graph_get_out(a, at=t1 - 0.5) == []
    assert backend.graph_get_out(a, at=t1) == [["imports", b]]
    assert backend.graph_get_out(a, at=t2) == [["imports", b], ["imports", c]]
    assert backend.graph_get_out(a, "imports", at=t3 - 0.5) == [["imports", b], ["imports", c]]
    assert backend.graph_get_out(a, at=t3) == [["imports", c]]
    assert backend.graph_get_in(b, at=t2) == [[a, "imports"]]
    assert backend.graph_get_in(b, at=t3) == [] and backend.graph_get_in(b) == []


def test_supersede_is_not_seen_before_it_happened(backend, backend_clock):
    need(backend, C.GRAPH)
    old, new = "mem:0000c001", "mem:0000c002"
    _write(backend, backend_clock, backend.graph_put_node, old, "mem", {"rule": "a"})
    t1 = _write(backend, backend_clock, backend.graph_put_node, new, "mem", {"rule": "b"})
    t2 = _write(backend, backend_clock, backend.graph_supersede, new, old)
    assert backend.graph_get_node(old, at=t1)["superseded_by"] is None
    assert backend.graph_get_node(old, at=t2)["superseded_by"] == new
    assert backend.graph_get_out(new, "supersedes", at=t1) == []
    assert backend.graph_get_out(new, "supersedes", at=t2) == [["supersedes", old]]


def test_policy_reads_at_earlier_times_see_the_old_payloads(backend, backend_clock):
    need(backend, C.POLICY_KV)
    scope, ns = "repo:pit-policy", "constraint"
    before = backend_clock.now()
    t1 = _write(backend, backend_clock, backend.policy_put, scope, ns, "k1", {"rule": "no global state"})
    t2 = _write(backend, backend_clock, backend.policy_put, scope, ns, "k2", {"rule": "typed errors"})
    t3 = _write(backend, backend_clock, backend.policy_put, scope, ns, "k1", {"rule": "no module state"})
    assert backend.policy_get(scope, ns, "k1", at=before) is None
    assert backend.policy_get(scope, ns, "k1", at=t1) == {"rule": "no global state"}
    assert backend.policy_get(scope, ns, "k1", at=t3 - 0.5) == {"rule": "no global state"}
    assert backend.policy_get(scope, ns, "k1", at=t3) == {"rule": "no module state"}
    assert backend.policy_list(scope, ns, at=before) == {}
    assert backend.policy_list(scope, ns, at=t1) == {"k1": {"rule": "no global state"}}
    assert backend.policy_list(scope, ns, at=t2) == {"k1": {"rule": "no global state"}, "k2": {"rule": "typed errors"}}
    assert backend.policy_list(scope, ns) == {"k1": {"rule": "no module state"}, "k2": {"rule": "typed errors"}}
