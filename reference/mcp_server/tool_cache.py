"""The saved `initialize` and `tools/list` answers that let the server answer before `mcp` is imported.

Importing the `mcp` SDK and building 53 tool schemas takes over a second of
CPU; an agent waits for it at the start of every session. `tool_listing.json`
(next to this file) holds the real server's answers, captured over stdio for
every handshake protocol version; `fast_start` serves them while the real
server loads. The file records a fingerprint of the sources that define the
answers (this package's `.py` files and `reference/clock.py`); when it does not
match, the server serves without it. It also records the `mcp` and `pydantic`
versions it was captured with, for the reader only: a fresh install gets
whatever versions `pyproject.toml` allows, and their answers are the same unless
a release changes how schemas are written. That case is caught twice: the front
asks the real server for its own `tools/list` once it has loaded, and from the
first difference on passes every `tools/list` to the real server (fast_start.py,
with a warning naming the regeneration command); and the tests compare the saved
answers with a real server's on the installed versions
(tests/reference/mcp_server/test_fast_start.py, run on the newest versions by
`.ci/fresh-venv`). Regenerate after changing a tool:

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
LISTING_ENV = "CODEMEM_MCP_LISTING"       # another file of saved answers (tests: a listing that differs)


def fingerprint() -> str:
    """sha256 over this package's .py sources and reference/clock.py: what defines the answers.

    No installed package's version is part of it (a fresh install gets newer patch releases than the
    file was made with, and matching on them switched fast start off for nothing); the versions are
    recorded beside it (`captured_with`), and a real difference is caught as the module docstring says."""
    h = hashlib.sha256()
    files = sorted(HERE.rglob("*.py")) + [HERE.parent / "clock.py"]
    for path in files:
        h.update(path.relative_to(HERE.parent).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def captured_with() -> dict[str, str]:
    """The versions of the packages that write the answers (recorded in the file; not matched)."""
    from importlib.metadata import version

    return {"mcp": version("mcp"), "pydantic": version("pydantic")}


def listing_path() -> Path:
    """The saved answers' file: tool_listing.json beside this module, or `$CODEMEM_MCP_LISTING`."""
    return Path(os.environ.get(LISTING_ENV) or LISTING)


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
    path = listing_path()
    if os.environ.get(NO_CACHE_ENV) or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
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
    data = {"fingerprint": fingerprint(), "captured_with": captured_with(), "modules": _names_by_module(),
            "initialize": versions, "tools": tools[0]}
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
