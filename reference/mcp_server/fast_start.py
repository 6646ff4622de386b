"""`serve_stdio`: answer `initialize` and `tools/list` at once, and load the real server meanwhile.

An agent starts the server at every session and waits for its first answers.
Importing the `mcp` SDK alone costs about a second of CPU, so this front (which
imports neither `mcp` nor the store) reads the client's JSON-RPC lines itself:

- `initialize` for a protocol version in `tool_listing.json` is answered from
  it, then handed on to the real server too (which needs the handshake; its own
  answer is dropped, after a check that it matches the saved one); unless a
  request reached the real server first (an abandoned `server/discover` probe
  may have opened the 2026 protocol era there), when only the real server answers;
- `tools/list` (without a cursor) is answered from it, for this server's
  profile and clock, until the real server's own answer is known: after the
  client's `notifications/initialized`, the front asks the real server for its
  `tools/list` once and, if it differs from the saved one (a package release
  that writes schemas differently), passes every later `tools/list` to the
  real server and logs a warning;
- every other line goes to the real server, which a worker thread starts at
  once (open the store, import `mcp`, build the tools) and which reads and
  writes through pipes; its answers are copied to stdout as they come.

Without a current `tool_listing.json` (see tool_cache.py) every line goes to the
real server: slower, never stale. As in the SDK's stdio transport, fd 0 and 1
are moved aside while serving, so a stray print cannot corrupt the wire.

Every line first passes `wire_guard` (too deep or too long: a JSON-RPC error with
the request's id, never a silent drop). If the real server cannot open the store,
every request the client sent, and every later one, is answered with that error
(naming the file) until the client closes its end; then `StartupError` is raised
as before (one line on stderr, exit 2).
"""
from __future__ import annotations

import json
import logging
import os
import sys
import threading
from typing import Any, BinaryIO

from reference.errors import StoreError
from reference.mcp_server.config import ServerConfig
from reference.mcp_server.profiles import server_modules
from reference.mcp_server.tool_cache import Listing, load
from reference.mcp_server.wire_guard import error_line, problem, read_line

log = logging.getLogger("reference.mcp_server")

CHECK_ID = "codemem-front-tools-check"   # the id of the front's own tools/list to the real server


class Front:
    """Reads the client's lines; answers what `listing` holds; passes the rest to the real server's pipe."""

    def __init__(self, listing: Listing | None, client_in: BinaryIO, client_out: BinaryIO,
                 server_in: BinaryIO) -> None:
        self.listing, self.client_in, self.client_out, self.server_in = listing, client_in, client_out, server_in
        self.write_lock = threading.Lock()
        self.version: str | None = None          # the protocol version answered from the listing
        self.init_id: Any = None                 # the initialize request's id (its real answer is dropped)
        self.sent_init: dict[str, Any] | None = None
        self.stale = False                       # the real server answered differently: stop answering here
        self.early = False                       # a request reached the real server before `initialize`
        self.pending: set[Any] = set()           # ids passed to the real server and not answered yet
        self.failed: str | None = None           # why the real server could not start

    def fail(self, message: str) -> None:
        """The real server will not answer: answer what it was sent, and everything from now on, with `message`."""
        with self.write_lock:
            self.failed = message
            waiting, self.pending = self.pending, set()
        for request_id in sorted(waiting, key=repr):
            self.send(error_line(request_id, message, code=-32603))

    def send(self, data: bytes) -> None:
        with self.write_lock:
            self.client_out.write(data)
            self.client_out.flush()

    def answer(self, request_id: Any, result: dict[str, Any]) -> None:
        self.send(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result},
                             separators=(",", ":")).encode() + b"\n")

    def read_client(self) -> None:
        """Until the client closes stdin: answer or pass on each line; then close the server's pipe."""
        try:
            while line := read_line(self.client_in):
                refused = problem(line)
                if refused is not None:
                    if refused[1] is not None:
                        self.send(error_line(refused[1], refused[0]))
                    log.warning("%s", refused[0])
                    continue
                if self.handled(line) or self.failed is not None:
                    continue
                try:
                    self.server_in.write(line)
                    self.server_in.flush()
                except (BrokenPipeError, ValueError):
                    if self.failed is None:
                        return         # the real server is shutting down
        finally:
            try:
                self.server_in.close()
            except OSError:
                pass

    def handled(self, line: bytes) -> bool:
        """True if this line was answered here (and must not reach the real server)."""
        try:
            msg = json.loads(line)
        except (ValueError, RecursionError):
            return False
        if (isinstance(msg, dict) and msg.get("method") == "notifications/initialized" and self.version is not None
                and self.failed is None):
            self.server_in.write(line)           # the handshake first, then the front's own question
            self.server_in.write(json.dumps({"jsonrpc": "2.0", "id": CHECK_ID, "method": "tools/list"}).encode()
                                 + b"\n")
            self.server_in.flush()
            return True
        if not isinstance(msg, dict) or "id" not in msg or "method" not in msg:
            return False
        method, params = msg.get("method"), msg.get("params") or {}
        with self.write_lock:
            failed = self.failed
            if failed is None:
                self.pending.add(_hashable(msg["id"]))
        if failed is not None:
            self.send(error_line(msg["id"], failed, code=-32603))
            return True
        if self.listing is None:
            return False
        if method != "initialize" and self.init_id is None:
            # e.g. a 2026-era client's `server/discover` probe, which its client abandons after 10 s on a slow
            # start: the real server then serves that era and refuses `initialize`, so only it may answer one
            self.early = True
        if method == "initialize" and self.init_id is None and not self.early and isinstance(params, dict):
            init = self.listing.initialize(str(params.get("protocolVersion")))
            if init is not None:
                self.version, self.init_id, self.sent_init = str(params["protocolVersion"]), msg["id"], init
                self.answer(msg["id"], init)
                self.pending.discard(_hashable(msg["id"]))       # answered; the real answer is dropped
                log.info("answered initialize (%s) from tool_listing.json", self.version)
            return False                                    # the real server needs the handshake too
        if method == "tools/list" and self.version is not None and not self.stale and not (isinstance(params, dict)
                                                                       and params.get("cursor")):
            self.answer(msg["id"], self.listing.tools(self.version))
            self.pending.discard(_hashable(msg["id"]))
            return True
        return False

    def copy_server(self, server_out: BinaryIO) -> None:
        """Copy the real server's lines to the client, dropping its answer to the handshake already given."""
        dropping = True
        for line in server_out:
            if self.version is not None and CHECK_ID.encode() in line and self.checked(line):
                continue
            self.settled(line)
            if dropping and self.init_id is not None:
                try:
                    msg = json.loads(line)
                except ValueError:
                    msg = None
                if isinstance(msg, dict) and msg.get("id") == self.init_id and "method" not in msg:
                    dropping = False
                    if msg.get("result") != self.sent_init:
                        self.stale = True
                        log.warning("tool_listing.json is stale: the real initialize answer differs "
                                    "(python -m reference.mcp_server.tool_cache)")
                    continue
            self.send(line)


    def checked(self, line: bytes) -> bool:
        """True if `line` answers the front's own tools/list; compares it with the saved answer."""
        try:
            msg = json.loads(line)
        except ValueError:
            return False
        if not (isinstance(msg, dict) and msg.get("id") == CHECK_ID and "method" not in msg):
            return False
        if msg.get("result") != self.listing.tools(self.version or ""):
            self.stale = True
            log.warning("tool_listing.json differs from this server's tools/list (another mcp or pydantic "
                        "release?): later tools/list calls go to the server; regenerate with "
                        "python -m reference.mcp_server.tool_cache")
        return True

    def settled(self, line: bytes) -> None:
        """Forget the id of an answer the real server sent (it is no longer waiting)."""
        if b'"method"' in line[:200]:
            return
        try:
            msg = json.loads(line)
        except ValueError:
            return
        if isinstance(msg, dict) and "id" in msg:
            with self.write_lock:
                self.pending.discard(_hashable(msg["id"]))


def _hashable(request_id: Any) -> Any:
    return request_id if isinstance(request_id, (str, int, float, type(None))) else repr(request_id)


def serve_stdio(config: ServerConfig, *, log_level: str = "WARNING") -> None:
    """Serve on stdin/stdout until the client disconnects; the store is closed on the way out.

    `StartupError` if the data folder cannot be opened (nothing else is served then)."""
    listing = load(server_modules(config))
    # Plain stderr lines; the SDK's own logging set-up (rich) then finds logging configured and adds nothing.
    logging.basicConfig(level=log_level, format="%(message)s", stream=sys.stderr)
    if listing is None:
        log.info("tool_listing.json is missing, stale or disabled: serving without it (every line goes to the real server)")
    # Keep fd 0/1 for the wire; point them at /dev/null and stderr for everything else.
    client_in = os.fdopen(os.dup(0), "rb")
    client_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    to_server_r, to_server_w = os.pipe()
    from_server_r, from_server_w = os.pipe()
    front = Front(listing, client_in, client_out, os.fdopen(to_server_w, "wb"))
    reader = threading.Thread(target=front.read_client, name="mcp-front-reader", daemon=True)
    copier = threading.Thread(target=front.copy_server, args=(os.fdopen(from_server_r, "rb"),),
                              name="mcp-front-copier", daemon=True)
    reader.start()
    copier.start()
    try:
        from reference.mcp_server.server import serve_streams

        with os.fdopen(to_server_r, "r", encoding="utf-8", errors="replace") as rin, \
                os.fdopen(from_server_w, "w", encoding="utf-8") as wout:
            serve_streams(config, log_level=log_level, stdin=rin, stdout=wout)
    except StoreError as exc:      # the store could not be opened: the client hears why, then it ends
        one_line = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
        front.fail(f"the server could not start: {one_line[:500]}")
        reader.join()
        raise
    finally:
        copier.join(timeout=5)
        sys.stdout.flush()
