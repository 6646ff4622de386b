"""Tool modules of the MCP server, one per area. `build_server` registers each in this order.

To add an area, write `tools/<area>.py` with

    def register(server: ToolRegistry, ctx: ServerContext) -> None:
        @server.tool(routing=routing("<tool name>"))
        def <tool name>(...) -> ...:
            '''Description the agent reads.'''

(and optionally `available(ctx) -> bool` to leave the area out), put its
routing text in `routing.py`, and append the module name below.
"""
from __future__ import annotations

TOOL_MODULES: list[str] = [
    "memory",      # seed 000 §5.1 structured memory
    "threads",     # seed 000 §0 memory_write / memory_search / memory_list_threads
    "batch",       # memory_write_batch: several structured memories in one call
    "code",        # seed 000 §0 jit_* / code_search / symbol_search / register_file
    "patterns",    # seed 000 §5.2
    "graph",       # seed 003 graph API
    "policy",      # seed 003 policy KV
    "snapshot",    # seed 003 mmap snapshots
    "knowledge",   # seed 001 oracle_* tools (KnowledgeLayer)
    "lane",        # seed 004 memory-lane_* tools (MemoryLane)
    "project",     # seed 002 project memory (the harness's tool names)
    "harness",     # private _harness_* tools (logical clock only)
]
