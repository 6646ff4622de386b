"""The `mem0` backend: mem0 (`mem0ai`) in-process, local MiniLM embeddings, Qdrant local, no LLM."""
