"""The grammar of a remote cluster profile's values (no Qt).

A profile (Preferences, reached over OpenSSH) names an ssh destination, an ssh_config
file, a remote work folder, environment lines and the remote commands. The same
refusals as :mod:`molforma.nwchem.value_grammar`, which re-exports every function here
for its callers: a value is judged alike by the Preferences, a project file and the job.
"""

from __future__ import annotations

import re
from typing import Any

from molforma.errors import ValidationError
from molforma.i18n import register
from molforma.nwchem.grammar_text import CONTROL as _CONTROL
from molforma.nwchem.grammar_text import ENV_NAME as _ENV_NAME
from molforma.nwchem.grammar_text import shown
from molforma.nwchem.grammar_text import where as _where

# Every profile value reaches ssh's command line, the remote shell (ssh hands its command
# to the login shell as one string) or the batch script written there. As for the batch
# values, the grammars refuse rather than escape: each word is made of the characters
# shlex.quote leaves alone, so quoting is a second lock, never the only one.
MAX_REMOTE_PATH = 1024
MAX_ENV_LINES = 64
MAX_ENV_LINE = 512
_PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")
# An ssh_config Host alias or host name, optionally user@; never a leading '-' (an option).
_SSH_HOST = re.compile(r"(?:[A-Za-z0-9_][A-Za-z0-9_.\-]{0,63}@)?[A-Za-z0-9_][A-Za-z0-9_.\-]{0,252}")
_SAFE_WORD = re.compile(r"[A-Za-z0-9_@%+=:,./\-]+")
# An environment line's word: safe characters and $NAME / ${NAME} references (PATH=$HOME/bin:$PATH),
# never $( ), backquotes, globs, redirections or separators.
_ENV_WORD = re.compile(
    r"(?:[A-Za-z0-9_@%+=:,./\-]|\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\})+"
)
# What an environment line may start with: loading software, nothing else.
ENV_LINE_COMMANDS: tuple[str, ...] = ("module", "ml", "source", ".", "export", "spack", "conda")

register(
    {
        "bad_profile_name": {
            "en": "The cluster profile name '{value}' cannot be used: a name is a letter or digit "
            "followed by letters, digits, '.', '_' or '-' (at most 64 characters).",
            "ja": "クラスタープロファイル名「{value}」は使えません。名前は英字か数字で始まり、"
            "英数字と '.'、'_'、'-' だけ（64 文字まで）にしてください。",
        },
        "bad_ssh_host": {
            "en": "The SSH host '{value}' of cluster profile '{profile}' cannot be used: give a "
            "Host alias of your ssh_config (or user@host) of letters, digits, '.', '_' and "
            "'-', not starting with '-'.",
            "ja": "クラスタープロファイル「{profile}」の SSH ホスト「{value}」は使えません。"
            "ssh_config の Host 別名（または user@host）を英数字と '.'、'_'、'-' で、"
            "'-' で始めずに指定してください。",
        },
        "bad_ssh_config_path": {
            "en": "The ssh_config file '{value}' of cluster profile '{profile}' cannot be used: "
            "give an absolute path (or ~/...) without line breaks or other control "
            "characters.",
            "ja": "クラスタープロファイル「{profile}」の ssh_config ファイル「{value}」は使えません。"
            "改行などの制御文字を含まない絶対パス（または ~/...）を指定してください。",
        },
        "bad_remote_folder": {
            "en": "The remote work folder '{value}' of cluster profile '{profile}' cannot be used: "
            "give an absolute path or one under the home folder (~/...) of letters, "
            "digits and _ @ % + = : , . / - only, with no '..' and not starting with '-'.",
            "ja": "クラスタープロファイル「{profile}」のリモート作業フォルダー「{value}」は使えません。"
            "英数字と _ @ % + = : , . / - だけから成る絶対パスまたはホーム以下のパス"
            "（~/...）を、'..' を含めず '-' で始めずに指定してください。",
        },
        "bad_remote_environment_line": {
            "en": "The environment line '{value}' of cluster profile '{profile}' cannot be used: "
            "a line starts with {commands} and its words hold only letters, digits, "
            "_ @ % + = : , . / - and $NAME or ${{NAME}} (no ;, |, &, quotes, $( ) or "
            "backquotes); at most {maximum} lines.",
            "ja": "クラスタープロファイル「{profile}」の環境設定行「{value}」は使えません。行は "
            "{commands} のいずれかで始め、各語は英数字と _ @ % + = : , . / - 、$NAME または "
            "${{NAME}} だけ（;、|、&、引用符、$( )、バッククォートは不可）にしてください。"
            "{maximum} 行までです。",
        },
        "bad_remote_command": {
            "en": "The {setting} '{value}' of cluster profile '{profile}' cannot be used: give "
            "words of letters, digits and _ @ % + = : , . / - separated by spaces (for "
            "example /opt/nwchem/bin/nwchem).",
            "ja": "クラスタープロファイル「{profile}」の {setting}「{value}」は使えません。英数字と "
            "_ @ % + = : , . / - から成る語を空白で区切って指定してください"
            "（例: /opt/nwchem/bin/nwchem）。",
        },
    }
)


def validate_profile_name(value: Any, setting: str = "name") -> str:
    """A cluster profile's name (``bad_profile_name``)."""
    if not isinstance(value, str) or not _PROFILE_NAME.fullmatch(value):
        raise ValidationError("bad_profile_name", value=shown(value), **_where(setting))
    return value


def validate_remote_profile(value: Any) -> str | None:
    """The execution setting naming the cluster profile a job goes to; None or empty: none.

    Raises:
        ValidationError: ``bad_profile_name``.
    """
    if value is None or value == "":
        return None if value is None else ""
    return validate_profile_name(value, "remote_profile")


def validate_ssh_host(value: Any, profile: str = "") -> str:
    """The ssh destination of a profile: a Host alias or ``user@host`` (``bad_ssh_host``)."""
    if not isinstance(value, str) or not _SSH_HOST.fullmatch(value):
        raise ValidationError("bad_ssh_host", value=shown(value), profile=profile, setting="host")
    return value


def validate_ssh_config_path(value: Any, profile: str = "") -> str | None:
    """The ssh_config file given to ssh with ``-F``; None: the account's own ~/.ssh/config.

    Raises:
        ValidationError: ``bad_ssh_config_path``.
    """
    if value is None:
        return None
    if (
        not isinstance(value, str)
        or not value
        or len(value.encode()) > 4095
        or _CONTROL.search(value)
        or not (value.startswith("/") or value.startswith("~/"))
    ):
        raise ValidationError(
            "bad_ssh_config_path", value=shown(value), profile=profile, setting="ssh_config"
        )
    return value


def validate_remote_folder(value: Any, profile: str = "") -> str:
    """The remote work folder: absolute, or under the remote home (``~/x`` or ``x``).

    Raises:
        ValidationError: ``bad_remote_folder``.
    """
    text = value[2:] if isinstance(value, str) and value.startswith("~/") else value
    if (
        not isinstance(text, str)
        or not text
        or len(text) > MAX_REMOTE_PATH
        or not _SAFE_WORD.fullmatch(text)
        or text.startswith("-")
        or ".." in text.split("/")
    ):
        raise ValidationError(
            "bad_remote_folder", value=shown(value), profile=profile, setting="remote_folder"
        )
    return str(value)


def _bad_env_line(value: Any, profile: str) -> ValidationError:
    return ValidationError(
        "bad_remote_environment_line",
        value=shown(value),
        profile=profile,
        setting="environment_lines",
        maximum=MAX_ENV_LINES,
        commands=", ".join(ENV_LINE_COMMANDS),
    )


def validate_remote_environment_line(value: Any, profile: str = "") -> str:
    """One line run before NWChem in the remote batch script (``module load nwchem/7.2``).

    Raises:
        ValidationError: ``bad_remote_environment_line``.
    """
    if not isinstance(value, str) or len(value) > MAX_ENV_LINE or _CONTROL.search(value):
        raise _bad_env_line(value, profile)
    words = value.split(" ")
    words = [w for w in words if w]
    if (
        not words
        or words[0] not in ENV_LINE_COMMANDS
        or not all(_ENV_WORD.fullmatch(w) for w in words[1:])
    ):
        raise _bad_env_line(value, profile)
    if words[0] == "export" and not all(_ENV_NAME.fullmatch(w.split("=", 1)[0]) for w in words[1:]):
        raise _bad_env_line(value, profile)
    if len(words) == 1 and words[0] in ("source", ".", "export"):
        raise _bad_env_line(value, profile)
    return value


def validate_remote_environment_lines(value: Any, profile: str = "") -> list[str]:
    """The profile's environment lines, each by :func:`validate_remote_environment_line`."""
    if not isinstance(value, list | tuple) or len(value) > MAX_ENV_LINES:
        raise _bad_env_line(value, profile)
    return [validate_remote_environment_line(v, profile) for v in value]


def validate_remote_command(setting: str, value: Any, profile: str = "") -> str:
    """The remote NWChem command or MPI launcher: safe words separated by spaces.

    Raises:
        ValidationError: ``bad_remote_command``.
    """
    words = [w for w in value.split(" ") if w] if isinstance(value, str) else []
    if (
        not isinstance(value, str)
        or len(value) > MAX_REMOTE_PATH
        or not words
        or not all(_SAFE_WORD.fullmatch(w) for w in words)
        or words[0].startswith("-")
    ):
        raise ValidationError(
            "bad_remote_command", value=shown(value), profile=profile, **_where(setting)
        )
    return value
