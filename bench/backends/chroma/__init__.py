"""The `chroma` backend: ChromaDB in embedded persistent mode (optional extra `chroma`)."""
