#!/usr/bin/env bash
# Set up (when needed) and start MolForma: ./run.sh [FILE] | --mcp | --mcp-gui [FILE] | ...
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$ROOT/scripts/setup.sh"
exec "$ROOT/.venv/bin/molforma" "$@"
