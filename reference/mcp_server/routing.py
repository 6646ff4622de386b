"""Routing guidance appended to tool descriptions: when an agent should call a tool on its own.

The three texts marked "seed 000 §6" are the seed's words (§6.1-6.3). The seed
gives no routing for the other tools; their texts follow the same form and say
when the tool is the right one, so an agent picks it without being told.
"""
from __future__ import annotations

ROUTING: dict[str, str] = {
    # seed 000 §6.1
    "memory_search_structured": """Use automatically when:
- User begins a new debugging session
- User asks about prior decisions or context
- User initiates architectural discussion
- User references "what we discussed" or "remember when"
- Starting work on a file that has associated memories""",
    # seed 000 §6.2
    "memory_write_structured": """Use automatically when:
- User provides reasoning about a design decision
- A significant constraint or limitation is identified
- An assumption is being made that affects implementation
- A tradeoff is being accepted
- Context is provided that may be relevant later
- Completing a debugging session with findings""",
    "memory_write_batch": """Use when:
- Several findings, decisions or notes are ready to store at once (one call instead of one each)
- Importing notes, a history or another tool's memories""",
    # seed 000 §6.3
    "pattern_scan": """Use when:
- Reviewing code for security issues
- Checking for anti-patterns or code smells
- Validating code against style guidelines
- Searching for specific patterns across memories""",
    "pattern_scan_memories": """Use when:
- Searching for specific patterns across memories
- Auditing stored memories for secrets or security smells
- Checking which past notes mention a code smell before a review""",
    "pattern_load": """Use when:
- The user defines a style rule, banned call or smell to look for
- A review needs patterns that no loaded set (see pattern_list) covers""",
    "pattern_list": """Use when:
- Before pattern_scan, to pick a pattern set id
- The user asks which checks are available""",
    "memory_get": """Use when:
- Another tool returned a memory id and its full entry is needed
- The user names a memory id""",
    "memory_list_structured": """Use when:
- Browsing everything recorded for a task type or area (no query text)
- The user asks "what do we have on <area>" or for recent memories""",
    "memory_status": """Use when:
- A memory read or list failed with a "damaged" store error: it names every damaged record""",
    "memory_write": """Use when:
- A free-form note belongs to a conversation thread (prefer memory_write_structured
  when the note has a task, insight or context type)""",
    "memory_search": """Use when:
- Recalling free-form notes by meaning, without taxonomy filters
  (prefer memory_search_structured when a task or area is known)""",
    "memory_list_threads": """Use when:
- Resuming work: to see which conversation threads have notes""",
    "jit_index_file": """Use automatically when:
- A file was created or changed and will be searched or discussed later""",
    "jit_index_directory": """Use automatically when:
- Starting work in a repository whose code is not indexed yet""",
    "jit_search": """Use automatically when:
- Looking for anything related to a topic across code and memories at once""",
    "code_search": """Use automatically when:
- Looking for the code that implements a behaviour described in words""",
    "symbol_search": """Use automatically when:
- Looking for a function, class or method by (part of) its name""",
    "register_file": """Use when:
- A non-code file (docs, config) should be findable by jit_search without symbols""",
    "graph_put_node": """Use automatically when:
- A file, symbol, module, decision or constraint becomes an entity worth linking""",
    "graph_get_node": """Use when:
- Checking an entity's current (or past, with `at`) state, or whether it was superseded""",
    "graph_put_edge": """Use automatically when:
- A relation is learned: defines, references, calls, imports, tests, implements,
  constrains, decided_for, derived_from""",
    "graph_get_out": """Use automatically when:
- Starting work on a file or symbol: "what is related to this?" (outgoing edges)""",
    "graph_get_in": """Use automatically when:
- Before changing a file or symbol: what depends on it, tests it or constrains it (incoming edges)""",
    "graph_delete_edge": """Use when:
- A recorded relation no longer holds (the history keeps it)""",
    "graph_supersede": """Use automatically when:
- A new decision, constraint or memory item replaces an older one""",
    "policy_put": """Use automatically when:
- A decision, constraint or procedure (build/test/lint workflow) is agreed for a scope""",
    "policy_get": """Use automatically when:
- Before acting in a scope: "what decision or constraint applies here?\"""",
    "policy_list": """Use automatically when:
- Starting a task in a scope: list its decisions, constraints and procedures""",
    "policy_delete": """Use when:
- A decision, constraint or procedure is retracted (the history keeps it)""",
    "graph_diff_since": """Use automatically when:
- Resuming after a break: "what changed since the last task or run?\"""",
    "graph_export_snapshot": """Use when:
- A run ends and its memory state should be kept for replay or regression checks""",
    # seed 001 (Oracle): the seed says when each is used in its prose; written in the form above
    "oracle_search": """Use automatically when:
- The user asks about something discussed, decided or written before
- Context about an entity (file, feature, project) is needed, optionally in a time window""",
    "oracle_entities": """Use when:
- Looking for which files, features, projects or dates the knowledge base knows about""",
    "oracle_relationships": """Use when:
- Checking whether a memory was updated, extended or derived from by another one""",
    "oracle_timeline": """Use when:
- The user asks what happened in a period ("last week", "in January")""",
    "oracle_learn": """Use automatically when:
- A significant insight from the conversation should be kept (a pattern, a lesson, a fix that worked)""",
    # seed 004 (Memory Lane)
    "memory-lane_store": """Use automatically when:
- The user corrects the agent ("that's wrong, do X instead"): type correction
- A decision is made or a commitment given ("always", "never", "from now on")
- A gap, insight or workflow note about a project, feature or agent comes up""",
    "memory-lane_find": """Use automatically when:
- Starting work on a feature, project or file: recall corrections and decisions about it first
- The user mentions a past mistake, choice or habit""",
    "memory-lane_feedback": """Use automatically when:
- A recalled memory turned out helpful, or misleading (harmful)""",
    "memory-lane_inject": """Use automatically when:
- A new user prompt arrives (the injection hook): recall what matters for it, once per session""",
    # seed 002 (project memory): it names no tool; these say when the harness's tool names apply
    "project_memory_search": """Use automatically when:
- Starting a task on a branch: what earlier commits and sessions on this branch (or main) say about it""",
    "project_placeholder": """Use automatically when:
- A consultation (a model answered, a plan was made) should be tied to the next commit""",
    "project_locate_files": """Use automatically when:
- A task is described in words and the files to change are not known yet""",
    "project_index_snapshot": """Use when:
- A repository snapshot should be searchable by project_locate_files""",
    "project_gc": """Use when:
- Branches were deleted in git: drop their memories""",
    "project_memory_get": """Use when:
- A project memory id came back from a search and its commit, branch and files are needed""",
    "project_memory_list": """Use when:
- Auditing the project memory (duplicates, size)""",
    "project_stats": """Use when:
- Checking the project memory's branches, commits and pending placeholders""",
    "project_switch_branch": """Use when:
- The git hook (or the agent) switches branch""",
    "project_record_commit": """Use when:
- The post-commit hook reports a commit""",
    "snapshot_get_node": """Use when:
- Checking what an entity looked like in a saved run (replay, regression checks)""",
    "snapshot_get_out": """Use when:
- Comparing an entity's relations in a saved run with the live graph (graph_get_out)""",
    "snapshot_get_in": """Use when:
- Comparing what depended on an entity in a saved run with the live graph (graph_get_in)""",
}


def routing(name: str) -> str | None:
    """The routing text of tool `name`, or None."""
    return ROUTING.get(name)
