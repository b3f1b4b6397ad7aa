"""The desktop's own tools and file associations (no Qt).

The database tools (``update-mime-database``, ``update-desktop-database``,
``gtk-update-icon-cache``) are run when present, and missing ones are named with their
Debian package. ``xdg-mime default`` makes MolForma the default of its file types,
except where the person chose another default; the uninstall takes back only the
defaults the install made (``mimeapps.list``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from molforma.i18n import render
from molforma.subcommands.desktop_entry import (
    _TMP_SUFFIX,
    _TOOL_TIMEOUT,
    DESKTOP_FILE,
    MIME_TYPES,
    TOOL_PACKAGES,
    config_home,
    data_home,
)


def run_tool(args: list[str], lines: list[str]) -> bool:
    """Run a database tool; say what ran, or why it was skipped. False when it failed."""
    tool = args[0]
    exe = shutil.which(tool)
    if exe is None:
        consequence = {
            "update-mime-database": "desktop_missing_mime",
            "update-desktop-database": "desktop_missing_desktop_db",
            "gtk-update-icon-cache": "desktop_missing_icons",
            "xdg-mime": "desktop_missing_xdg_mime",
        }[tool]
        lines.append(
            render(
                "desktop_tool_missing",
                {"tool": tool, "package": TOOL_PACKAGES[tool], "consequence": render(consequence)},
            )
        )
        return True
    shown = " ".join(args)
    try:
        res = subprocess.run(
            [exe, *args[1:]],
            capture_output=True,
            text=True,
            timeout=_TOOL_TIMEOUT,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        lines.append(
            render("desktop_tool_failed", {"status": "-", "command": shown, "detail": str(exc)})
        )
        return False
    if res.returncode != 0:
        detail = (res.stderr.strip() or res.stdout.strip()).splitlines()
        lines.append(
            render(
                "desktop_tool_failed",
                {"status": res.returncode, "command": shown, "detail": detail[0] if detail else ""},
            )
        )
        return False
    lines.append(render("desktop_ran", {"command": shown}))
    return True


def update_databases(root: Path, lines: list[str], *, installing: bool) -> bool:
    ok = True
    if (root / "mime").is_dir():
        ok &= run_tool(["update-mime-database", str(root / "mime")], lines)
    if (root / "applications").is_dir():
        ok &= run_tool(["update-desktop-database", str(root / "applications")], lines)
    hicolor = root / "icons" / "hicolor"
    if (hicolor / "icon-theme.cache").is_file():
        # Only an existing cache is refreshed: a stale one hides new icons, while making
        # one where none was would be a file the uninstall could not fairly take away.
        ok &= run_tool(
            ["gtk-update-icon-cache", "--force", "--ignore-theme-index", "--quiet", str(hicolor)],
            lines,
        )
    elif installing and hicolor.is_dir():
        lines.append(render("desktop_no_icon_cache", {"dir": hicolor}))
    return ok


# --- mimeapps.list ----------------------------------------------------------------------

_ASSOCIATION_SECTIONS = ("[Default Applications]", "[Added Associations]")


def mimeapps_files() -> list[Path]:
    # Where xdg-mime and gio write the person's choices, and the older place KDE used.
    return [config_home() / "mimeapps.list", data_home() / "applications" / "mimeapps.list"]


def defaults_in(path: Path) -> dict[str, str]:
    """``type -> first desktop id`` of the ``[Default Applications]`` section."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    out: dict[str, str] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line
        elif section == "[Default Applications]" and "=" in line:
            key, _, value = line.partition("=")
            first = value.split(";")[0].strip()
            if first:
                out.setdefault(key.strip(), first)
    return out


def _without_us(text: str) -> tuple[str, list[str]]:
    """``text`` of a mimeapps.list with MolForma's desktop id taken out of its
    association lists; the types it was the default of."""
    out: list[str] = []
    dropped: list[str] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line
        elif section in _ASSOCIATION_SECTIONS and "=" in line:
            key, _, value = line.partition("=")
            apps = [a for a in value.split(";") if a.strip()]
            kept = [a for a in apps if a.strip() != DESKTOP_FILE]
            if len(kept) != len(apps):
                if section == "[Default Applications]":
                    dropped.append(key.strip())
                if not kept:
                    continue
                raw = f"{key}={';'.join(kept)};"
        out.append(raw)
    # A section left with no entries goes too.
    cleaned: list[str] = []
    for i, raw in enumerate(out):
        if raw.strip().startswith("["):
            rest = out[i + 1 :]
            nxt = next((r for r in rest if r.strip()), "")
            if not nxt or nxt.strip().startswith("["):
                continue
        cleaned.append(raw)
    while cleaned and not cleaned[-1].strip():
        cleaned.pop()
    return ("\n".join(cleaned) + "\n" if cleaned else ""), dropped


def remove_defaults(made: Sequence[str], lines: list[str]) -> None:
    dropped: list[str] = []
    for path in mimeapps_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # none there, or not one MolForma could have written to
        new, gone = _without_us(text)
        dropped += [t for t in gone if t not in dropped]
        if new == text:
            continue
        label = str(path)
        if not new.strip() and made_by_install(path, made):
            path.unlink()
            lines.append(render("desktop_removed", {"path": label}))
            continue
        tmp = path.with_name(f".{path.name}{_TMP_SUFFIX}")
        tmp.write_text(new, encoding="utf-8")
        os.replace(tmp, path)
    if dropped:
        lines.append(render("desktop_default_removed", {"types": ", ".join(dropped)}))


def made_by_install(path: Path, made: Sequence[str]) -> bool:
    try:
        rel = path.relative_to(config_home())
    except ValueError:
        return False
    return f"config:{rel}" in made


def set_defaults(lines: list[str]) -> tuple[list[str], list[str], bool]:
    """Make MolForma the default of its types the person gave no other default.
    The types set, what ``xdg-mime`` made in the configuration folder for it, and
    False when it was asked and did not do it."""
    listing = config_home() / "mimeapps.list"
    chosen = defaults_in(listing)
    wanted = []
    for mime in MIME_TYPES:
        app = chosen.get(mime)
        if app and app != DESKTOP_FILE:
            lines.append(render("desktop_default_kept", {"type": mime, "app": app}))
        else:
            wanted.append(mime)
    if not wanted:
        return [], [], True
    home = config_home()
    had_home, had_list = home.exists(), listing.exists()
    if shutil.which("xdg-mime") is None:
        run_tool(["xdg-mime"], lines)  # says it was skipped and what that means
        return [], [], True
    ran = run_tool(["xdg-mime", "default", DESKTOP_FILE, *wanted], lines)
    made = []
    if not had_list and listing.exists():
        made.append("config:mimeapps.list")
    if not had_home and home.exists():
        made.append("config:.")
    if not ran:
        return [], made, False
    # xdg-mime answers 0 even when it could not write the list (every desktop's path
    # goes through $XDG_CONFIG_HOME/mimeapps.list), so the list itself is the proof.
    now = defaults_in(listing)
    done = [m for m in wanted if now.get(m) == DESKTOP_FILE]
    missing = [m for m in wanted if m not in done]
    if done:
        lines.append(render("desktop_default_set", {"types": ", ".join(done)}))
    if missing:
        lines.append(
            render("desktop_default_not_set", {"types": ", ".join(missing), "path": listing})
        )
    return done, made, not missing
