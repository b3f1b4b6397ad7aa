#!/usr/bin/env bash
# Idempotent set-up for a Debian machine: the Debian packages Qt (offscreen and
# Xvfb) and NWChem need, a virtual environment in .venv and the Python packages.
# Sourced by run.sh and test.sh; safe to run again (it skips what is done).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

DEB_PACKAGES=(nwchem xvfb xauth libxcb-icccm4 libxcb-keysyms1 libxcb-image0
  libxcb-render-util0 libxcb-shape0 libxcb-randr0 libxcb-xkb1 libxcb-cursor0
  libxkbcommon0 libxkbcommon-x11-0 libegl1 libgl1 libgl1-mesa-dri libglx-mesa0
  libfontconfig1 fonts-dejavu-core fonts-ipafont-gothic libdbus-1-3 libglib2.0-0
  # A real single-node SLURM cluster for the batch-job tests (tests/slurm_cluster.py
  # starts munged, slurmctld and slurmd of its own; the package scripts start nothing).
  slurm-wlm munge)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${DEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing Debian packages: ${missing[*]}" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "setup: these Debian packages are missing: ${missing[*]}" >&2
    echo "setup: install them with:  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

PY="${PYTHON:-python3}"
stamp=".venv/.molforma-setup"
want="$(cat pyproject.toml | sha256sum | cut -c1-16)"
if [[ ! -x .venv/bin/python ]]; then
  echo "setup: creating .venv" >&2
  "$PY" -m venv .venv >&2
fi
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  echo "setup: installing Python packages into .venv" >&2
  .venv/bin/python -m pip install -q --upgrade pip >&2 || true
  .venv/bin/python -m pip install -q -e ".[test]" >&2
  echo "$want" > "$stamp"
fi
