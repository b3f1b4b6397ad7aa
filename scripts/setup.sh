#!/usr/bin/env bash
# Idempotent set-up behind ./run.sh and ./test.sh: checks Python, installs the Debian
# packages Qt (offscreen and Xvfb), NWChem and the Japanese window need, creates the
# virtual environment .venv and installs the Python packages. Safe to run again: it
# skips what is done. It says each step before starting it and how long it took.
#
#   scripts/setup.sh            set up
#   scripts/setup.sh --dry-run  only say what it would do (or MOLFORMA_SETUP_DRY_RUN=1)
#   PYTHON=python3.11 ./test.sh use another interpreter (3.11 or newer) for .venv
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

DRY_RUN="${MOLFORMA_SETUP_DRY_RUN:-0}"
for arg in "$@"; do
  case "$arg" in
    --dry-run|-n) DRY_RUN=1 ;;
    -h|--help) sed -n '2,9s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "setup: unknown argument '$arg' (only --dry-run)" >&2; exit 2 ;;
  esac
done
[[ "$DRY_RUN" == 1 ]] || DRY_RUN=0

# The Debian packages, one group per reason: "reason|package package ...".
DEB_GROUPS=(
  "Python's venv module, to create .venv|python3-venv"
  "NWChem, the quantum chemistry program MolForma runs|nwchem"
  "Xvfb, a virtual display for the OpenGL tests and xvfb-run|xvfb xauth"
  "Qt's X11 libraries, for the window on X11 and under Xvfb|libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0 libxcb-randr0 libxcb-xkb1 libxcb-cursor0 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0"
  "OpenGL (Mesa), for the 3D view|libegl1 libgl1 libgl1-mesa-dri libglx-mesa0"
  "fonts: DejaVu for Latin text, IPA Gothic for the Japanese window|fonts-dejavu-core fonts-ipafont-gothic"
  "SLURM and munge, for the real single-node cluster the batch-job tests start (tests/slurm_cluster.py; the package scripts start no service), and its PBS/Torque command wrappers (qsub, qstat, qdel) for the pbs cluster profile tests|slurm-wlm munge slurm-wlm-torque"
  "OpenSSH server, for the sshd the remote-cluster tests start in front of that cluster (tests/ssh_rig.py; the package scripts start no service)|openssh-server"
  "desktop integration tests: desktop-file-validate, xdg-mime (with the mimetype reader it uses outside a desktop session), update-mime-database, gtk-update-icon-cache, appstreamcli|desktop-file-utils xdg-utils libfile-mimeinfo-perl shared-mime-info gtk-update-icon-cache appstream"
  "binutils, whose objdump and objcopy PyInstaller uses to build the Linux bundle the bundle tests run (scripts/build_bundle.sh)|binutils"
)
MIN_PYTHON="3.11"

say() { echo "setup: $*" >&2; }
# Microseconds since the epoch (bash 5's EPOCHREALTIME; whole seconds before that).
now() { if [[ -n "${EPOCHREALTIME:-}" ]]; then echo "${EPOCHREALTIME//[.,]/}"; else echo "$((SECONDS * 1000000))"; fi; }
STEP_T0=0
STEP_N=0
step() {  # step "what this step does": the line printed before a step starts
  STEP_N=$((STEP_N + 1))
  STEP_T0="$(now)"
  say "[$STEP_N/5] $*"
}
done_step() {  # done_step "outcome": the line printed when it ended, with its duration
  local tenths=$((($(now) - STEP_T0) / 100000))
  say "      $1 ($((tenths / 10)).$((tenths % 10)) s)"
}
would() { say "      dry run, would run: $*"; }

((DRY_RUN)) && say "dry run: reporting what would be done, changing nothing"

# 1. Python ------------------------------------------------------------------------
PY="${PYTHON:-python3}"
py_version() {  # prints X.Y.Z of interpreter $1; fails when it is older than MIN_PYTHON
  "$1" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3]); sys.exit(sys.version_info < (3, 11))'
}
step "Python: checking that $PY is Python $MIN_PYTHON or newer"
if ! command -v "$PY" >/dev/null 2>&1; then
  say "error: '$PY' is not a command. MolForma needs Python $MIN_PYTHON or newer."
  say "  Install it (Debian 12: apt-get install python3 python3-venv) or name one, e.g."
  say "  PYTHON=python3.11 ./test.sh   (PYTHON=/path/to/python3.12 ./run.sh works too)"
  exit 1
fi
if ! version="$(py_version "$PY" 2>/dev/null)"; then
  say "error: $PY is Python ${version:-of unknown version}; MolForma needs Python $MIN_PYTHON or newer."
  say "  Install a newer one (Debian 12 has 3.11: apt-get install python3 python3-venv) and"
  say "  point the set-up at it: PYTHON=python3.11 ./test.sh   (or PYTHON=python3.11 ./run.sh)"
  exit 1
fi
if [[ -x .venv/bin/python ]] && ! venv_version="$(py_version .venv/bin/python 2>/dev/null)"; then
  say "error: .venv was made with Python ${venv_version:-of unknown version}; MolForma needs $MIN_PYTHON+."
  say "  Remove it and set up again: rm -rf .venv && PYTHON=python3.11 ./test.sh"
  exit 1
fi
done_step "$PY is Python $version ($(command -v "$PY"))"

# 2. Debian packages ---------------------------------------------------------------
all_packages=()
for g in "${DEB_GROUPS[@]}"; do
  read -r -a pkgs <<<"${g#*|}"
  all_packages+=("${pkgs[@]}")
done
if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  step "Debian packages: checking ${#all_packages[@]} packages"
  missing=()
  for g in "${DEB_GROUPS[@]}"; do
    read -r -a pkgs <<<"${g#*|}"
    group_missing=()
    for p in "${pkgs[@]}"; do
      dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || group_missing+=("$p")
    done
    if ((${#group_missing[@]})); then
      say "      missing, ${g%%|*}: ${group_missing[*]}"
      missing+=("${group_missing[@]}")
    fi
  done
  if ((${#missing[@]} == 0)); then
    done_step "all installed"
  elif ((DRY_RUN)); then
    would "apt-get update && apt-get install -y ${missing[*]}"
    done_step "${#missing[@]} to install"
  elif ((EUID == 0)); then
    say "      installing ${#missing[@]} packages with apt-get (the first time, NWChem and Qt's libraries: a few hundred MB)"
    apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >&2
    done_step "installed ${missing[*]}"
  else
    say "error: these Debian packages are missing; install them (as root) and run again:"
    say "  sudo apt-get install -y ${missing[*]}"
    exit 1
  fi
else
  step "system packages: this is not a Debian-like system (no dpkg-query / apt-get)"
  say "      install these by hand with your system's package manager (Debian names):"
  for g in "${DEB_GROUPS[@]}"; do
    say "      - ${g%%|*}: ${g#*|}"
  done
  done_step "not checked; continuing (the tests that need NWChem or Xvfb fail without them)"
fi

# 3. Virtual environment -----------------------------------------------------------
if [[ -x .venv/bin/python ]] && ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
  # A .venv whose creation was interrupted has Python but no pip: made again, not kept.
  step "virtual environment: .venv has no working pip (its creation was interrupted); making it again with $PY"
  if ((DRY_RUN)); then
    would "rm -rf .venv && $PY -m venv .venv"
    done_step "would be made again"
  else
    rm -rf .venv
    "$PY" -m venv .venv >&2
    done_step "made again"
  fi
elif [[ -x .venv/bin/python ]]; then
  step "virtual environment: .venv"
  done_step "exists ($(.venv/bin/python -c 'import platform; print("Python", platform.python_version())'))"
else
  step "virtual environment: creating .venv with $PY (Python $version)"
  if ((DRY_RUN)); then
    would "$PY -m venv .venv"
    done_step "would be created"
  else
    "$PY" -m venv .venv >&2
    done_step "created"
  fi
fi

# 4. Python packages ---------------------------------------------------------------
stamp=".venv/.molforma-setup"
want="$(sha256sum pyproject.toml | cut -c1-16)"
have=""
[[ -f "$stamp" ]] && have="$(<"$stamp")"
if [[ "$have" == "$want" ]]; then
  step "Python packages: .venv matches pyproject.toml"
  done_step "up to date"
else
  # The names come from pyproject.toml, so this line never disagrees with what is installed.
  names="$("$PY" -c 'import re, tomllib
p = tomllib.load(open("pyproject.toml", "rb"))["project"]
deps = p["dependencies"] + p["optional-dependencies"]["test"]
print(", ".join(re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0] for d in deps))')"
  step "Python packages: installing MolForma and its dependencies into .venv with pip: $names (the first time about 200 MB of downloads, 800 MB installed)"
  progress=off
  [[ -t 2 ]] && progress=on
  if ((DRY_RUN)); then
    would ".venv/bin/python -m pip install --upgrade pip"
    would ".venv/bin/python -m pip install --progress-bar $progress --config-settings editable_mode=compat -e .[test]"
    done_step "would be installed"
  else
    .venv/bin/python -m pip install -q --upgrade pip >&2 || say "      (pip could not upgrade itself; going on with the one in .venv)"
    # No -q: pip names each download and, on a terminal, shows a progress bar.
    # editable_mode=compat puts the checkout on sys.path with a .pth line; the default
    # import-hook finder costs about 60 ms at every Python start (each MCP server,
    # each NWChem job helper, each spawned test process).
    .venv/bin/python -m pip install --progress-bar "$progress" --config-settings editable_mode=compat \
      -e ".[test]" >&2
    echo "$want" > "$stamp"
    done_step "installed"
  fi
fi
# This machine kind sets PYTHONDONTWRITEBYTECODE=1, so without this every MolForma process
# (each MCP server start, each test child) compiles the whole package again: ~0.3 s of a start.
step "bytecode: compiling molforma/ once, so each process start reads it instead"
if ((DRY_RUN)); then
  would ".venv/bin/python -m compileall -q molforma"
  done_step "would be compiled"
else
  .venv/bin/python -m compileall -q molforma >&2
  done_step "compiled"
fi
((DRY_RUN)) && say "dry run: nothing was changed"
exit 0
