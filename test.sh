#!/usr/bin/env bash
# Set up (when needed) and run the whole test suite. Extra arguments go to pytest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$ROOT/scripts/setup.sh"
cd "$ROOT"
# GUI tests run the real window offscreen with the QPainter renderer; the OpenGL
# renderer tests start their own Xvfb through xvfb-run.
export QT_QPA_PLATFORM=offscreen MOLFORMA_RENDERER=painter
exec .venv/bin/python -m pytest "$@"
