#!/usr/bin/env bash
# Builds the self-contained Linux bundle: one folder, molforma/, that runs with no Python
# installed (PyInstaller), packed as dist/molforma-<version>-linux-x86_64.tar.gz. Unpack it
# anywhere and run molforma/molforma. It says each step before starting it and how long it
# took, checks the bundle against its size budget and runs it once before packing.
#
#   scripts/build_bundle.sh           build (after scripts/setup.sh has made .venv)
#   MOLFORMA_BUNDLE_BUDGET_MB=400 ... another size budget for the unpacked folder (MB)
#
# PyInstaller is installed into its own environment, build/bundle-venv, which sees the
# packages of .venv (the product's dependencies) through a .pth file; neither .venv nor the
# product's dependencies get PyInstaller. Outputs: build/bundle/molforma/ (the unpacked
# bundle) and dist/ (the tarball); both are ignored by git.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

for arg in "$@"; do
  case "$arg" in
    -h|--help) sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "build_bundle: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

# What the bundle may weigh unpacked: Python, Qt's widgets, RDKit, NumPy and MolForma fit
# in about 300 MB; PySCF and scikit-image (the orbitals extra) are left out to stay under.
BUDGET_MB="${MOLFORMA_BUNDLE_BUDGET_MB:-350}"
PYINSTALLER_SPEC="pyinstaller>=6.10,<7"
PRODUCT_PY="$ROOT/.venv/bin/python"
BUILD_VENV="$ROOT/build/bundle-venv"
OUT="$ROOT/build/bundle"        # the unpacked bundle: $OUT/molforma/molforma
WORK="$ROOT/build/pyinstaller"  # PyInstaller's work folder
STEPS=6

say() { echo "build_bundle: $*" >&2; }
now() { if [[ -n "${EPOCHREALTIME:-}" ]]; then echo "${EPOCHREALTIME//[.,]/}"; else echo "$((SECONDS * 1000000))"; fi; }
T_START="$(now)"
STEP_T0=0
STEP_N=0
step() {  # step "what this step does": the line printed before a step starts
  STEP_N=$((STEP_N + 1))
  STEP_T0="$(now)"
  say "[$STEP_N/$STEPS] $*"
}
done_step() {  # done_step "outcome": the line printed when it ended, with its duration
  local tenths=$((($(now) - STEP_T0) / 100000))
  say "      $1 ($((tenths / 10)).$((tenths % 10)) s)"
}
fail() { say "error: $*"; exit 1; }
mb() { echo "$(( ($1 + 500000) / 1000000 ))"; }

# 1. The product's environment ------------------------------------------------------------
step "product environment: .venv with MolForma's dependencies, and binutils"
[[ -x "$PRODUCT_PY" ]] || fail ".venv is missing: run scripts/setup.sh (or ./test.sh) first"
"$PRODUCT_PY" -c "import molforma, PySide6, rdkit, pydantic, psij" 2>/dev/null \
  || fail ".venv lacks MolForma's dependencies: run scripts/setup.sh first"
# PyInstaller reads and writes ELF files with binutils' objdump and objcopy.
for tool in objdump objcopy; do
  command -v "$tool" >/dev/null 2>&1 \
    || fail "$tool is missing; PyInstaller needs binutils: sudo apt-get install binutils"
done
VERSION="$("$PRODUCT_PY" -c 'import molforma; print(molforma.__version__)')"
PY_VERSION="$("$PRODUCT_PY" -c 'import platform; print(platform.python_version())')"
"$PRODUCT_PY" -c "import sysconfig, sys; sys.exit(sysconfig.get_config_var('Py_ENABLE_SHARED') != 1)" \
  || fail "the Python of .venv has no shared libpython, which PyInstaller needs (build Python with --enable-shared)"
done_step "MolForma $VERSION, Python $PY_VERSION"

# 2. PyInstaller in its own environment ----------------------------------------------------
step "build environment: PyInstaller in build/bundle-venv"
if [[ ! -x "$BUILD_VENV/bin/python" ]]; then
  "$PRODUCT_PY" -m venv "$BUILD_VENV"
fi
if ! "$BUILD_VENV/bin/python" -c "import PyInstaller" 2>/dev/null; then
  say "      installing $PYINSTALLER_SPEC from PyPI (about 10 MB)"
  "$BUILD_VENV/bin/python" -m pip install -q --disable-pip-version-check "$PYINSTALLER_SPEC" >&2
fi
# The build environment imports the product's packages (and this checkout's MolForma)
# from .venv: PyInstaller collects what the interpreter it runs in can import.
site_build="$("$BUILD_VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
site_product="$("$PRODUCT_PY" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
"$BUILD_VENV/bin/python" - "$site_build/molforma-product.pth" "$site_product" "$ROOT" <<'PY'
import sys
pth, site_product, root = sys.argv[1:]
with open(pth, "w", encoding="utf-8") as f:
    f.write(f"import site; site.addsitedir({site_product!r})\n{root}\n")
PY
"$BUILD_VENV/bin/python" -c "import molforma, PySide6, rdkit; assert molforma.__file__.startswith('$ROOT/')" \
  || fail "build/bundle-venv cannot import this checkout's MolForma and its dependencies"
done_step "$("$BUILD_VENV/bin/python" -m PyInstaller --version | sed 's/^/PyInstaller /')"

# 3. PyInstaller ---------------------------------------------------------------------------
step "PyInstaller: one-folder bundle from scripts/bundle/molforma.spec (a minute or two)"
rm -rf "$OUT"
log="$ROOT/build/pyinstaller.log"
if ! MOLFORMA_BUNDLE_ROOT="$ROOT" "$BUILD_VENV/bin/python" -m PyInstaller --noconfirm \
    --log-level WARN --distpath "$OUT" --workpath "$WORK" scripts/bundle/molforma.spec >"$log" 2>&1; then
  tail -40 "$log" >&2
  fail "PyInstaller failed (whole log: build/pyinstaller.log)"
fi
[[ -x "$OUT/molforma/molforma" ]] || fail "PyInstaller made no $OUT/molforma/molforma"
done_step "build/bundle/molforma/ ($(mb "$(du -sb "$OUT/molforma" | cut -f1)") MB before trimming)"

# 4. Trim: the interpreter's debug information, and copies of one library ------------------
step "trim: libpython's debug information; identical copies of a library become links"
"$BUILD_VENV/bin/python" - "$OUT/molforma/_internal" <<'PY'
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

internal = Path(sys.argv[1])
# The interpreter of a source-built Python carries its debug information (about 17 MB);
# strip (binutils) takes it out where it is installed.
strip = shutil.which("strip")
for lib in internal.glob("libpython3*.so*"):
    if lib.is_file() and not lib.is_symlink():
        if strip is None:
            print(f"strip (binutils) is missing: {lib.name} keeps its debug information",
                  file=sys.stderr)
        else:
            subprocess.run([strip, "--strip-debug", str(lib)], check=True)
# PyInstaller puts a package's library both where the package loads it and at the top,
# where other libraries find it: keep the package's copy, link the other to it.
by_hash: dict[str, list[Path]] = {}
for p in internal.rglob("*"):
    if p.is_file() and not p.is_symlink() and p.stat().st_size > 64 * 1024:
        by_hash.setdefault(hashlib.sha256(p.read_bytes()).hexdigest(), []).append(p)
saved = 0
for paths in by_hash.values():
    if len(paths) < 2:
        continue
    keep = max(paths, key=lambda p: len(p.relative_to(internal).parts))
    for p in paths:
        if p != keep:
            saved += p.stat().st_size
            p.unlink()
            p.symlink_to(os.path.relpath(keep, p.parent))
print(f"{saved / 1e6:.0f} MB of copies linked", file=sys.stderr)
PY
SIZE="$(du -sb "$OUT/molforma" | cut -f1)"
done_step "$(mb "$SIZE") MB"

# 5. Check: size budget, and the bundle runs with no Python around it -----------------------
step "check: size budget $BUDGET_MB MB, and the bundle starts (--version, --mcp) with no Python on PATH"
if ((SIZE > BUDGET_MB * 1000000)); then
  du -sh "$OUT/molforma/_internal"/* | sort -h | tail -12 >&2
  fail "the bundle is $(mb "$SIZE") MB, over its budget of $BUDGET_MB MB (largest parts above)"
fi
clean_env=(env -i "PATH=/usr/bin:/bin" "HOME=${HOME:-/tmp}" "LANG=C.UTF-8")
got="$("${clean_env[@]}" "$OUT/molforma/molforma" --version)" || fail "molforma --version failed"
[[ "$got" == "molforma $VERSION" ]] || fail "molforma --version said '$got', not 'molforma $VERSION'"
discover='{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
answer="$(echo "$discover" | "${clean_env[@]}" MOLFORMA_CONFIG_DIR="$WORK/check-config" timeout 60 "$OUT/molforma/molforma" --mcp)" \
  || fail "molforma --mcp failed"
[[ "$answer" == *'"supportedVersions"'* ]] || fail "molforma --mcp did not answer server/discover: $answer"
done_step "$(mb "$SIZE") MB of $BUDGET_MB MB; $got; --mcp answers server/discover"

# 6. Pack ----------------------------------------------------------------------------------
TARBALL="dist/molforma-$VERSION-linux-x86_64.tar.gz"
step "pack: $TARBALL"
mkdir -p dist
rm -f "$TARBALL"
tar -C "$OUT" --owner=0 --group=0 --numeric-owner -cf - molforma | gzip -6 > "$TARBALL.part"
mv "$TARBALL.part" "$TARBALL"
done_step "$(mb "$(stat -c %s "$TARBALL")") MB packed"

total=$((($(now) - T_START) / 100000))
say "done in $((total / 10)).$((total % 10)) s: $TARBALL (unpack it and run molforma/molforma);"
say "      unpacked: build/bundle/molforma/molforma ($(mb "$SIZE") MB)"
