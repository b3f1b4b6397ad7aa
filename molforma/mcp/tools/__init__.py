"""MCP tool modules: each registers its tools with ``molforma.mcp.tool_registry.tool`` (no Qt)."""
