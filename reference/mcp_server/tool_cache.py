"""The saved `initialize` and `tools/list` answers that let the server answer before `mcp` is imported.

Importing the `mcp` SDK and building 53 tool schemas takes over a second of
CPU; an agent waits for it at the start of every session. `tool_listing.json`
(next to this file) holds the real server's answers, captured over stdio for
every handshake protocol version; `fast_start` serves them while the real
server loads. The file records a fingerprint of what determines the answers
(this package's sources, `reference/clock.py`, the `mcp` and `pydantic`
versions); when it does not match, the server serves without it (slower, never
stale). Regenerate after changing a tool:

    python -m reference.mcp_server.tool_cache
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LISTING = HERE / "tool_listing.json"
NO_CACHE_ENV = "CODEMEM_MCP_NO_CACHE"     # set (to anything) to serve without the saved answers


def fingerprint() -> str:
    """sha256 over this package's .py sources, reference/clock.py and the mcp and pydantic versions."""
    from importlib.metadata import version

    h = hashlib.sha256()
    files = sorted(HERE.rglob("*.py")) + [HERE.parent / "clock.py"]
    for path in files:
        h.update(path.relative_to(HERE.parent).as_posix().encode())
        h.update(path.read_bytes())
    h.update(f"mcp {version('mcp')} pydantic {version('pydantic')}".encode())
    return h.hexdigest()


class Listing:
    """The saved answers, narrowed to one server's tool modules."""

    def __init__(self, data: dict[str, Any], modules: list[str]) -> None:
        self._initialize: dict[str, Any] = data["initialize"]
        names = {n for m in modules for n in data["modules"].get(m, [])}
        self._tools = {**data["tools"], "tools": [t for t in data["tools"]["tools"] if t["name"] in names]}

    def initialize(self, version: str) -> dict[str, Any] | None:
        """The `initialize` result for protocol `version`, or None when it was not saved."""
        return self._initialize.get(version)

    def tools(self, version: str) -> dict[str, Any]:
        """The `tools/list` result (the same for every saved protocol version): this server's tools, in order."""
        return self._tools


def load(modules: list[str]) -> Listing | None:
    """The saved answers for a server with `modules`; None if disabled, missing or stale."""
    if os.environ.get(NO_CACHE_ENV) or not LISTING.is_file():
        return None
    try:
        data = json.loads(LISTING.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("fingerprint") != fingerprint() or not set(modules) <= set(data.get("modules", {})):
        return None
    return Listing(data, modules)


def capture(version: str, *, tools: str = "all", clock: str = "logical:0") -> tuple[dict, dict]:
    """(initialize result, tools/list result) of a real server process started without the saved answers."""
    import subprocess
    import sys
    import tempfile

    env = {**os.environ, NO_CACHE_ENV: "1"}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "reference.mcp_server", "--data", str(Path(tmp) / "data"),
               "--tools", tools, "--clock", clock]
        lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": version, "capabilities": {},
                             "clientInfo": {"name": "tool_cache", "version": "1"}}},
                 {"jsonrpc": "2.0", "method": "notifications/initialized"},
                 {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        answers: dict[int, Any] = {}
        try:
            for m in lines:
                proc.stdin.write(json.dumps(m) + "\n")
                proc.stdin.flush()
                while "id" in m and m["id"] not in answers:      # wait for each answer (EOF would cancel it)
                    got = json.loads(proc.stdout.readline())
                    answers[got.get("id")] = got
        finally:
            proc.stdin.close()
            proc.wait(timeout=300)
    return answers[1]["result"], answers[2]["result"]


def main() -> int:
    """Capture the answers for every handshake protocol version and write tool_listing.json."""
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    versions, tools = {}, []
    for version in HANDSHAKE_PROTOCOL_VERSIONS:
        init, listed = capture(version)
        versions[version] = init
        tools.append(listed)
    if any(t != tools[0] for t in tools):     # one list is kept; revisit if a protocol version changes it
        raise SystemExit("tools/list differs between protocol versions; tool_listing.json keeps one")
    data = {"fingerprint": fingerprint(), "modules": _names_by_module(), "initialize": versions,
            "tools": tools[0]}
    LISTING.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {LISTING} ({LISTING.stat().st_size:,} bytes; protocol versions {', '.join(versions)})")
    return 0


def _names_by_module() -> dict[str, list[str]]:
    """Tool names each module registers (on a logical clock, so `harness` is included)."""
    import tempfile

    from reference.mcp_server.config import ServerConfig
    from reference.mcp_server.context import ServerContext
    from reference.mcp_server.profiles import PROFILES
    from reference.mcp_server.server import register_tools

    with tempfile.TemporaryDirectory() as tmp:
        ctx = ServerContext(ServerConfig(Path(tmp) / "data", clock="logical:0"))
        try:
            return {m: register_tools(ctx, [m]).names() for m in [*PROFILES["all"], "harness"]}
        finally:
            ctx.close()


if __name__ == "__main__":
    raise SystemExit(main())
