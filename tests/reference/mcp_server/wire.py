"""`RawServer`: a server process driven line by line over stdio, for requests no SDK client would send.

Timing rule of the tests using it: no speed is asserted; each answer is awaited
for at most `ANSWER_WAIT` seconds, a generous bound that only proves the server
answers at all (the failures of issue 25 were answers that never came).
"""
from __future__ import annotations

import json
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

ANSWER_WAIT = 60.0
INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}


class RawServer:
    """`python -m reference.mcp_server --data DIR ...`; `send` a line, `answer()` the next line as JSON."""

    def __init__(self, data: Path, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "reference.mcp_server", "--data", str(data), *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 0

    def send(self, message: dict[str, Any] | bytes | str) -> None:
        line = message if isinstance(message, bytes) else (
            message if isinstance(message, str) else json.dumps(message)).encode()
        self.proc.stdin.write(line.rstrip(b"\n") + b"\n")
        self.proc.stdin.flush()

    def answer(self, wait: float = ANSWER_WAIT) -> dict[str, Any] | None:
        ready, _, _ = select.select([self.proc.stdout], [], [], wait)
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.answer()

    def initialize(self) -> dict[str, Any] | None:
        got = self.request("initialize", INIT)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return got

    def call_line(self, tool: str, arguments_json: str) -> bytes:
        """A tools/call line with `arguments_json` spliced in as given (it may be deeper than any parser allows)."""
        self.next_id += 1
        return (f'{{"jsonrpc":"2.0","id":{self.next_id},"method":"tools/call",'
                f'"params":{{"name":"{tool}","arguments":{arguments_json}}}}}').encode()

    def close(self) -> tuple[int, str]:
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            code = self.proc.wait(timeout=60)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return code, self.proc.stderr.read().decode(errors="replace")
