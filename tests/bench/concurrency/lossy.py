"""A planted backend that loses concurrent writes: it keeps memories in a dict and rewrites its file on close.

Every agent loads the file when it opens (all open before any writes: the census starts them together), so
the last agent to close overwrites what the others wrote: the design of a whole-file rewrite store.
"""
import json
from pathlib import Path

from bench.backends.capabilities import Capability as C
from bench.backends.interface import Backend


class LastCloserWins(Backend):
    name = "planted-lossy"
    capabilities = frozenset({C.MEMORY_WRITE, C.MEMORY_GET})

    def open(self, data_dir, clock, telemetry):
        self.path = Path(data_dir) / "all.json"
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        self.data = json.loads(self.path.read_text()) if self.path.exists() else {}
        self.clock = clock

    def close(self):
        self.path.write_text(json.dumps(self.data))

    def storage_bytes(self):
        return self.path.stat().st_size if self.path.exists() else 0

    def write_memory(self, text, **kwargs):
        mid = f"mem:{abs(hash((text, self.clock.now()))) % 16**8:08x}"
        self.data[mid] = text
        return mid

    def get_memory(self, memory_id):
        return {"id": memory_id, "text": self.data[memory_id]} if memory_id in self.data else None
