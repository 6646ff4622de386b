"""`python -m reference.mcp_server --data DIR`: serve the store over MCP on stdio."""
import sys

from reference.mcp_server.cli import main

sys.exit(main())
