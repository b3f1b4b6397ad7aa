"""scripts/setup.sh says each step before it starts it, and a dry run only reports them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.paths import REPO

GROUPS = {  # a reason the set-up gives, and a package of that group
    "NWChem": "nwchem",
    "Xvfb": "xvfb",
    "Qt's X11 libraries": "libxcb-cursor0",
    "OpenGL (Mesa)": "libgl1",
    "Japanese": "fonts-ipafont-gothic",
    "venv module": "python3-venv",
}


def _copy_of_the_repository(tmp: Path) -> Path:
    """A checkout with no .venv: only what the set-up reads."""
    root = tmp / "clone"
    (root / "scripts").mkdir(parents=True)
    shutil.copy2(REPO / "scripts" / "setup.sh", root / "scripts" / "setup.sh")
    shutil.copy2(REPO / "pyproject.toml", root / "pyproject.toml")
    return root


def _tree(root: Path) -> dict[str, float]:
    return {str(p.relative_to(root)): p.stat().st_mtime for p in sorted(root.rglob("*"))}


def _fake_bin(tmp: Path, tools: dict[str, str]) -> Path:
    """Executables that stand in for system tools (each a small shell script)."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, body in tools.items():
        path = bin_dir / name
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(0o755)
    return bin_dir


def _run(root: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["/bin/bash", str(root / "scripts" / "setup.sh"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _no_debian_package_installed(tmp: Path) -> tuple[dict[str, str], Path]:
    """dpkg-query says nothing is installed; apt-get and pip leave a mark when called."""
    called = tmp / "called"
    bin_dir = _fake_bin(
        tmp,
        {
            "dpkg-query": "exit 1",
            "apt-get": f"echo apt-get >> {called}",
            "sudo": f"echo sudo >> {called}",
        },
    )
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", PYTHON=sys.executable)
    env.pop("MOLFORMA_SETUP_DRY_RUN", None)
    return env, called


def test_a_dry_run_lists_python_debian_packages_with_reasons_venv_and_python_packages(
    tmp_path: Path,
) -> None:
    root = _copy_of_the_repository(tmp_path)
    env, called = _no_debian_package_installed(tmp_path)
    before = _tree(root)
    res = _run(root, "--dry-run", env=env)
    assert res.returncode == 0, res.stderr
    out = res.stderr
    steps = re.findall(r"^setup: \[(\d)/5\] (\w[^:]*):", out, re.M)
    assert steps == [
        ("1", "Python"),
        ("2", "Debian packages"),
        ("3", "virtual environment"),
        ("4", "Python packages"),
        ("5", "bytecode"),
    ]
    assert re.search(r"is Python 3\.(1[1-9]|[2-9]\d)\.\d+", out)
    for reason, package in GROUPS.items():
        line = next((ln for ln in out.splitlines() if reason in ln), "")
        assert package in line, f"no line gives the reason for {package}: {reason}"
    assert "would run: apt-get update && apt-get install -y python3-venv nwchem" in out
    assert "would run: " + sys.executable + " -m venv .venv" in out
    assert re.search(
        r"would run: \.venv/bin/python -m pip install --progress-bar (on|off) "
        r"--config-settings editable_mode=compat -e \.\[test\]",
        out,
    )
    assert "PySide6-Essentials" in out and "rdkit" in out and "cclib" in out
    # Every step says how long it took.
    assert len(re.findall(r"\(\d+\.\d s\)$", out, re.M)) == 5
    assert "nothing was changed" in out
    assert _tree(root) == before
    assert not (root / ".venv").exists() and not called.exists()


def test_the_environment_variable_makes_the_same_dry_run(tmp_path: Path) -> None:
    root = _copy_of_the_repository(tmp_path)
    env, called = _no_debian_package_installed(tmp_path)
    res = _run(root, env=dict(env, MOLFORMA_SETUP_DRY_RUN="1"))
    assert res.returncode == 0, res.stderr
    assert "dry run, would run: apt-get" in res.stderr
    assert not (root / ".venv").exists() and not called.exists()


def test_an_old_python_is_refused_first_with_what_is_needed_and_the_python_override(
    tmp_path: Path,
) -> None:
    root = _copy_of_the_repository(tmp_path)
    env, called = _no_debian_package_installed(tmp_path)
    old = _fake_bin(tmp_path, {"python3.9": "echo 3.9.18; exit 1"}) / "python3.9"
    res = _run(root, env=dict(env, PYTHON=str(old)))
    assert res.returncode == 1
    assert f"{old} is Python 3.9.18; MolForma needs Python 3.11 or newer" in res.stderr
    assert "PYTHON=python3.11 ./test.sh" in res.stderr
    assert "[2/5]" not in res.stderr  # nothing else was tried
    assert not (root / ".venv").exists() and not called.exists()


def test_a_python_that_does_not_exist_is_named_with_the_override_to_use(tmp_path: Path) -> None:
    root = _copy_of_the_repository(tmp_path)
    env, _ = _no_debian_package_installed(tmp_path)
    res = _run(root, env=dict(env, PYTHON="python3.99-nowhere"))
    assert res.returncode == 1
    assert "'python3.99-nowhere' is not a command" in res.stderr
    assert "PYTHON=python3.11 ./test.sh" in res.stderr


def test_on_a_system_without_dpkg_it_lists_the_packages_to_install_by_hand(tmp_path: Path) -> None:
    root = _copy_of_the_repository(tmp_path)
    # A PATH holding only the few tools the set-up needs besides the package managers.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("dirname", "sha256sum", "cut", "grep", "sed"):
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    (bin_dir / "python3").symlink_to(sys.executable)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    res = _run(root, "--dry-run", env=env)
    assert res.returncode == 0, res.stderr
    assert "not a Debian-like system" in res.stderr
    assert "install these by hand" in res.stderr
    for reason, package in GROUPS.items():
        line = next((ln for ln in res.stderr.splitlines() if reason in ln), "")
        assert package in line, f"{package} is not listed to install by hand"
    assert not (root / ".venv").exists()


def test_test_sh_and_run_sh_both_run_the_set_up_first() -> None:
    for script in ("test.sh", "run.sh"):
        lines = (REPO / script).read_text(encoding="utf-8").splitlines()
        code = [ln for ln in lines if ln and not ln.startswith("#")]
        assert code[2] == 'bash "$ROOT/scripts/setup.sh"', script


def test_a_venv_left_without_pip_by_an_interrupted_set_up_is_made_again(tmp_path: Path) -> None:
    # An interrupted `python -m venv` leaves .venv/bin/python without pip; taking it for a
    # finished .venv made every later run fail at "No module named pip".
    root = _copy_of_the_repository(tmp_path)
    env, _called = _no_debian_package_installed(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")],
        check=True,
        timeout=120,
    )
    dry = _run(root, "--dry-run", env=env)
    assert dry.returncode == 0, dry.stderr
    assert ".venv has no working pip" in dry.stderr
    assert f"would run: rm -rf .venv && {sys.executable} -m venv .venv" in dry.stderr
    steps = re.findall(r"^setup: \[(\d)/5\] (\w[^:]*):", dry.stderr, re.M)
    assert [n for n, _ in steps] == ["1", "2", "3", "4", "5"]
    assert (root / ".venv" / "bin" / "python").exists()  # a dry run changes nothing
