"""Notes on disk: NoteIndexer (replace on change, delete, unchanged) and the watchdog NoteWatcher."""
import time

import pytest

from reference.clock import iso
from reference.knowledge import KnowledgeError, NoteIndexer, NoteWatcher


@pytest.fixture
def notes(tmp_path):
    d = tmp_path / "notes"
    (d / "learnings").mkdir(parents=True)
    return d


def test_index_replace_unchanged_and_delete(store, layer, notes):
    idx = NoteIndexer(layer, notes)
    f = notes / "learnings" / "2026-01-25_retro.md"
    f.write_text("Retro: src/features/auth/session.ts leaks.")
    first = idx.index_file(f)
    e = store.get_memory(first)
    assert e.metadata["source_path"] == "learnings/2026-01-25_retro.md" and e.metadata["kind"] == "note"
    t = layer.temporal(first)
    assert (iso(t.document_date), t.date_source) == ("2026-01-25T00:00:00Z", "file_name")
    assert idx.index_file(f) == first  # same bytes: nothing written
    f.write_text("Retro: src/features/auth/session.ts no longer leaks.")
    second = idx.index_file(f)
    assert second != first and store.get_memory(first) is None
    assert [m.id for m in store.list_memories()] == [second]
    f.write_text("   ")
    assert idx.index_file(f) is None and store.list_memories() == []


def test_only_notes_under_root(store, layer, notes, tmp_path):
    idx = NoteIndexer(layer, notes)
    (notes / "a.py").write_text("x = 1")
    (notes / ".hidden.md").write_text("secret")
    (notes / "b.txt").write_text("plain note")
    assert list(idx.scan()) == ["b.txt"]
    with pytest.raises(KnowledgeError, match="not a note"):
        idx.index_file(notes / "a.py")
    (notes / "bad.md").write_bytes(b"\xff\xfe broken")
    with pytest.raises(KnowledgeError, match="UTF-8"):
        idx.index_file(notes / "bad.md")
    with pytest.raises(KnowledgeError, match="does not exist"):
        NoteIndexer(layer, tmp_path / "missing")


def _eventually(cond, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.05)
    return False


def test_watcher_makes_new_changed_and_deleted_files_searchable(store, layer, notes):
    (notes / "old.md").write_text("Existing quokka note")
    errors = []
    with NoteWatcher(NoteIndexer(layer, notes), debounce_s=0.2, on_error=lambda p, e: errors.append(e)):
        assert [h.entry.text for h in store.keyword_search("quokka")] == ["Existing quokka note"]  # initial scan
        f = notes / "learnings" / "new.md"
        f.write_text("The wombat cache is warmed at boot.")
        assert _eventually(lambda: store.keyword_search("wombat"))
        f.write_text("The numbat cache is warmed lazily.")
        assert _eventually(lambda: store.keyword_search("numbat") and not store.keyword_search("wombat"))
        f.unlink()
        assert _eventually(lambda: not store.keyword_search("numbat"))
        (notes / "bad.md").write_bytes(b"\xff broken")
        assert _eventually(lambda: errors)
    assert "UTF-8" in str(errors[0])
    assert [h.entry.text for h in store.keyword_search("quokka")] == ["Existing quokka note"]
