"""Contract of `code.index` and `code.search` (seed 000 §0-§4.2): index files, find symbols and code.

- `index_file(path, root)` indexes one file under its key `file:<path relative to root>` and reports
  it (`files_indexed`, `file_keys`); indexing it again unchanged reports it unchanged;
  `index_directory(root)` indexes every source file under root.
- With `code.search`: `symbol_search(name)` ranks the symbol `sym:<path>#<name>:<kind>:<start>:<end>`
  first (1-based lines, seed 000 §9); `code_search(words of a body)` finds that file's code;
  `search_all(query, types)` finds across kinds and `types` keeps only the kinds asked for;
  hits are best first (scores never increase down the list).
- A file outside the root is refused with ValueError and nothing is indexed.
"""
import pytest

from bench.backends import Capability as C

from tests.contract.conftest import need

CAPABILITY = C.CODE_INDEX

BILLING = '''def compute_invoice_total(lines):
    """Sum invoice lines in integer cents."""
    return sum(line.cents for line in lines)


class LedgerWriter:
    def flush_ledger_batch(self):
        return None
'''
UPLOAD = '''import time


def upload_with_backoff(blob, attempts=5):
    """Retry a flaky upload with exponential backoff and jitter."""
    for n in range(attempts):
        time.sleep(2 ** n)
'''


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("code-repo")
    (root / "pkg").mkdir()
    (root / "pkg" / "billing.py").write_text(BILLING)
    (root / "pkg" / "upload.py").write_text(UPLOAD)
    return root


def _ordered(hits):
    return all(a.score >= b.score for a, b in zip(hits, hits[1:]))


def test_index_a_file_then_find_its_symbol(backend, repo):
    out = backend.index_file(repo / "pkg" / "billing.py", repo)
    assert out["files_indexed"] == 1 and out["file_keys"] == ["file:pkg/billing.py"]
    again = backend.index_file(repo / "pkg" / "billing.py", repo)
    assert again["files_indexed"] == 0 and again["files_unchanged"] == 1
    need(backend, C.CODE_SEARCH)
    hits = backend.symbol_search("compute_invoice_total", top_k=5)
    assert hits and hits[0].id == "sym:pkg/billing.py#compute_invoice_total:function:1:3" and _ordered(hits)


def test_index_a_directory_then_search_code_and_everything(backend, repo):
    out = backend.index_directory(repo)
    assert set(out["file_keys"]) == {"file:pkg/billing.py", "file:pkg/upload.py"}
    need(backend, C.CODE_SEARCH)
    code = backend.code_search("retry a flaky upload with exponential backoff", top_k=5)
    assert code and code[0].id in {"file:pkg/upload.py", "chunk:pkg/upload.py:0"} and _ordered(code)
    everything = backend.search_all("upload with backoff", top_k=10)
    assert "sym:pkg/upload.py#upload_with_backoff:function:4:7" in [h.id for h in everything] and _ordered(everything)
    symbols = backend.search_all("upload with backoff", top_k=10, types=["symbol"])
    assert symbols and all(h.id.startswith("sym:") for h in symbols)
    assert symbols[0].id == "sym:pkg/upload.py#upload_with_backoff:function:4:7"


def test_a_file_outside_the_root_is_refused(backend, repo, tmp_path):
    (tmp_path / "elsewhere.py").write_text("def zebra_outside_root():\n    return 1\n")
    with pytest.raises(ValueError):
        backend.index_file(tmp_path / "elsewhere.py", repo)
    need(backend, C.CODE_SEARCH)
    assert not any("zebra_outside_root" in h.id for h in backend.symbol_search("zebra_outside_root", top_k=5))
