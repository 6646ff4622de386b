"""Concurrent agents: N processes write to one shared store at once, then a census counts what survived."""
