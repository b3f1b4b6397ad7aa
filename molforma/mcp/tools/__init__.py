"""MCP tool modules: each registers its tools with ``molforma.mcp.registry.tool`` (no Qt)."""
