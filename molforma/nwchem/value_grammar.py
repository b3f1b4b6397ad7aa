"""The grammar of every setting that reaches an NWChem input, a command line or a batch script
(no Qt).

One function per value, ``validate_<name>(value) -> value``, raising
:class:`~molforma.errors.ValidationError` with a code of its own and nothing changed. The
settings models (:mod:`molforma.nwchem.settings`), the MCP tools, the window's fields and
the batch submission (:mod:`molforma.jobs.batch`) all call these same functions, so a
value is judged alike whichever route sets it (a tool, a person's field, a window command,
a project file, a reused job).

The rules refuse rather than escape. PSI/J's SLURM template writes partition, account,
qos, job name and every extra option as ``#SBATCH --name="<shlex-quoted value>"``: a
value that :func:`shlex.quote` leaves as it is can neither end the line nor the quote, so
each batch grammar below is a subset of the characters ``shlex.quote`` keeps
(``[A-Za-z0-9_@%+=:,./-]``) and has no line break, space or quote. NWChem names (basis,
functional) keep the characters NWChem's library names use and refuse the words that
would change what a directive reads (``file``, ``end`` …).
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Callable, Mapping
from typing import Any

from molforma.errors import ValidationError
from molforma.i18n import register
from molforma.nwchem.grammar_text import CONTROL as _CONTROL
from molforma.nwchem.grammar_text import ENV_NAME as _ENV_NAME
from molforma.nwchem.grammar_text import shown
from molforma.nwchem.grammar_text import where as _where

# The cluster profiles' grammars (ssh, the remote shell) have a module of their own; the
# callers reach them here, with the rest.
from molforma.nwchem.remote_grammar import (
    validate_profile_name,
    validate_remote_command,
    validate_remote_environment_line,
    validate_remote_environment_lines,
    validate_remote_folder,
    validate_remote_profile,
    validate_ssh_config_path,
    validate_ssh_host,
)

MAX_TIME_LIMIT = 366 * 24 * 3600.0  # seconds: a year and a day, far past any partition
MAX_NAME = 128
MAX_DIRECTIVE = 256
MAX_BASIS = 100
MAX_FUNCTIONAL = 200
MAX_TITLE = 200
COUNT_RANGES: dict[str, tuple[int, int]] = {
    "processes": (1, 4096),
    "threads": (1, 1024),
    "nodes": (1, 4096),
    "tasksPerNode": (1, 4096),
}

# SLURM partition, account and QoS names (and what sbatch accepts for them unquoted).
_SLURM_NAME = re.compile(r"[A-Za-z0-9_.\-]+")
# The job name PSI/J writes: MolForma's own "molforma-<time>-<formula>-<task>".
_JOB_NAME = re.compile(r"[A-Za-z0-9_.+\-]{1,64}")
# --name=value: a long sbatch option, its value from shlex.quote's safe set.
_DIRECTIVE_NAME = re.compile(r"[a-z][a-z0-9\-]*")
_DIRECTIVE_VALUE = re.compile(r"[A-Za-z0-9_@%+=:,./\-]*")
# Options that would move the job's folder, output or environment away from the ones
# MolForma checked (the allowed directories, the job folder): sbatch also takes any
# unambiguous prefix of a long option, so a prefix of these is refused too.
RESERVED_DIRECTIVES: tuple[str, ...] = (
    "chdir",
    "output",
    "error",
    "input",
    "export",
    "export-file",
    "wrap",
    "job-name",
)
# Basis names in NWChem's library: 6-311++g(2d,2p), def2-svp, 6-31g*, lanl2dz_ecp.
_BASIS = re.compile(r"[A-Za-z0-9*+()_.,\-]+")
# Words of NWChem's "library" directive: a basis named so would read a file or change it.
_BASIS_WORDS = frozenset({"file", "library", "except", "rel", "end"})
# xc: words with optional numeric weights ("xpbe96 cpbe96", "hfexch 0.2 becke88 0.8"),
# separated by spaces.
_XC_WORD = re.compile(r"[A-Za-z0-9_.+\-ω]+")  # ω: the table's aliases (ωb97x-d3)
_XC_WORDS = frozenset({"end", "task", "python", "include", "library", "file", "shell"})

register(
    {
        "bad_slurm_name": {
            "en": "The execution setting {setting} '{value}' is not a SLURM name: use only "
            "letters, digits, '.', '_' and '-' (at most {maximum} characters), or leave it "
            "empty for the cluster's default.",
            "ja": "実行設定 {setting} の「{value}」はSLURMの名前ではありません。英数字と '.'、'_'、"
            "'-' だけ（{maximum} 文字まで）を使うか、空にしてクラスターの既定値にしてください。",
        },
        "bad_count_setting": {
            "en": "The execution setting {setting} must be a whole number from {minimum} to "
            "{maximum} (got {value}).",
            "ja": "実行設定 {setting} は {minimum} から {maximum} までの整数にしてください"
            "（指定値: {value}）。",
        },
        "bad_time_limit": {
            "en": "The time limit {value} is not allowed: give a number of seconds greater than "
            "0 and at most {maximum} ({days} days), or no limit. Change the execution "
            "setting time_limit.",
            "ja": "制限時間 {value} は使えません。0 より大きく {maximum} 秒（{days} 日）以下の秒数を"
            "指定するか、制限なしにしてください。実行設定 time_limit を変更してください。",
        },
        "bad_batch_directive": {
            "en": "The batch option '{value}' is not allowed: write --name=value with a name of "
            "lowercase letters, digits and '-', and a value of letters, digits and "
            "_ @ % + = : , . / - only (no spaces or quotes). Change the execution setting "
            "batch_directives.",
            "ja": "バッチ指定「{value}」は使えません。--name=value の形で、name は小文字英字・数字・"
            "'-'、value は英数字と _ @ % + = : , . / - だけ（空白や引用符は不可）にしてください。"
            "実行設定 batch_directives を変更してください。",
        },
        "reserved_batch_directive": {
            "en": "The batch option '{value}' cannot be used: MolForma sets --{name} itself (the "
            "job's folder, output and environment). Remove it from the execution setting "
            "batch_directives.",
            "ja": "バッチ指定「{value}」は使えません。--{name} は MolForma 自身が設定します"
            "（ジョブのフォルダー、出力、環境）。実行設定 batch_directives から外してください。",
        },
        "bad_job_name": {
            "en": "The batch job name '{value}' holds characters a batch script cannot carry; "
            "the job was not submitted.",
            "ja": "バッチジョブ名「{value}」にはバッチスクリプトで扱えない文字が含まれています。"
            "ジョブは投入していません。",
        },
        "bad_environment_variable": {
            "en": "The environment variable '{name}' cannot be used: a name is a letter or '_' "
            "followed by letters, digits or '_', and a value holds no NUL character. "
            "Change the execution setting environment.",
            "ja": "環境変数「{name}」は使えません。名前は英字か '_' で始まり英数字と '_' だけから成り、"
            "値に NUL 文字を含められません。実行設定 environment を変更してください。",
        },
        "bad_command_text": {
            "en": "The execution setting {setting} '{value}' cannot be used: give a command "
            "(for example nwchem) as words with balanced quotes and no line breaks or "
            "other control characters.",
            "ja": "実行設定 {setting} の「{value}」は使えません。コマンド（例: nwchem）を、引用符の"
            "対応が取れ、改行などの制御文字を含まない語の並びで指定してください。",
        },
        # The input generator raised these two codes first (characters NWChem cannot read);
        # this module is imported before it, so these fuller sentences are the ones registered.
        "bad_basis_name": {
            "en": "The basis set name '{value}' cannot be used: a basis is one word of letters, "
            "digits and * + ( ) _ . , - (at most 100 characters), not a word of NWChem's "
            "library directive (end, except, file, library, rel). Change the calculation "
            "setting basis.",
            "ja": "基底関数名「{value}」は使えません。基底関数は英数字と * + ( ) _ . , - から成る1語"
            "（100 文字まで）で、NWChem の library 指定の語（end、except、file、library、rel）"
            "以外にしてください。計算設定 basis を変更してください。",
        },
        "bad_functional": {
            "en": "The functional '{value}' cannot be used: write words of letters, digits and "
            "_ . + - separated by spaces (at most 200 characters), none of them an "
            "NWChem input word (end, file, include, library, python, shell, task). Change "
            "the calculation setting functional.",
            "ja": "汎関数「{value}」は使えません。英数字と _ . + - から成る語を空白で区切って"
            "（200 文字まで）書き、NWChem 入力の語（end、file、include、library、python、"
            "shell、task）を含めないでください。計算設定 functional を変更してください。",
        },
        "unknown_functional": {
            "en": "The functional '{value}' is not one MolForma can write for NWChem (nearest: "
            "{nearest}). Choose a functional from the list (get_catalog functionals), or "
            "write an xc line of NWChem's own keywords with their weights. Change the "
            "calculation setting functional.",
            "ja": "汎関数「{value}」は NWChem 用に書ける汎関数ではありません（近い名前: {nearest}）。"
            "一覧の汎関数（get_catalog functionals）を選ぶか、NWChem の xc キーワードと重みで"
            "xc 行を書いてください。計算設定 functional を変更してください。",
        },
        "functional_dispersion_separate": {
            "en": "'{value}' is {base} with a dispersion correction the list does not combine "
            "with it: choose {base} and set the advanced setting dispersion to "
            "{dispersion}.",
            "ja": "「{value}」は {base} に分散力補正を加えたもので、一覧にはその組み合わせがありません。"
            "{base} を選び、詳細設定 dispersion を {dispersion} にしてください。",
        },
        "functional_needs_range_separation": {
            "en": "The xc line '{value}' uses range-separated exchange ({keyword}), which needs "
            "cam parameters the functional field cannot carry; without them NWChem gives a "
            "meaningless energy. Choose a range-separated functional from the list: "
            "{names}.",
            "ja": "xc 行「{value}」は長距離補正交換（{keyword}）を使いますが、その cam パラメーターは"
            "汎関数欄に書けません。cam がないと NWChem は意味のないエネルギーを出します。"
            "一覧の長距離補正汎関数から選んでください: {names}。",
        },
        "basis_not_in_library": {
            "en": "The basis set '{basis}' is neither in the catalogue nor in NWChem's library "
            "here; NWChem stops unless it can find it. Nearest library names: {nearest}.",
            "ja": "基底関数「{basis}」はカタログにもこの環境の NWChem ライブラリにもありません。"
            "NWChem が見つけられなければ停止します。近いライブラリ名: {nearest}。",
        },
        "functional_needs_nwchem": {
            "en": "{functional} needs NWChem {version} or later; an older NWChem stops with "
            "'xc_input: invalid format'.",
            "ja": "{functional} には NWChem {version} 以降が必要です。それより古い NWChem は "
            "'xc_input: invalid format' で停止します。",
        },
        "bad_title": {
            "en": "The title '{value}' is not allowed: it may hold no line breaks, tabs or other "
            "control characters and at most {maximum} characters.",
            "ja": "タイトル「{value}」は使えません。改行・タブなどの制御文字を含めず、{maximum} 文字"
            "以内にしてください。",
        },
    }
)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# -- SLURM -------------------------------------------------------------------------------------
def validate_slurm_name(setting: str, value: Any) -> str | None:
    """A partition, account or QoS name; None or empty means the cluster's default.

    Raises:
        ValidationError: ``bad_slurm_name`` (``setting``, ``value``).
    """
    if value is None or value == "":
        return None if value is None else ""
    if not isinstance(value, str) or len(value) > MAX_NAME or not _SLURM_NAME.fullmatch(value):
        raise ValidationError(
            "bad_slurm_name", value=shown(value), **_where(setting), maximum=MAX_NAME
        )
    return value


def validate_partition(value: Any) -> str | None:
    """The SLURM partition (``bad_slurm_name``)."""
    return validate_slurm_name("partition", value)


def validate_qos(value: Any) -> str | None:
    """The SLURM quality of service (``bad_slurm_name``)."""
    return validate_slurm_name("qos", value)


def validate_account(value: Any) -> str | None:
    """The SLURM account (``bad_slurm_name``)."""
    return validate_slurm_name("account", value)


def validate_count(setting: str, value: Any) -> int:
    """A whole number in the range of ``setting`` (:data:`COUNT_RANGES`).

    Raises:
        ValidationError: ``bad_count_setting``.
    """
    low, high = COUNT_RANGES[setting]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValidationError(
            "bad_count_setting", value=shown(value), **_where(setting), minimum=low, maximum=high
        )
    return value


def validate_nodes(value: Any) -> int:
    """Nodes of a batch job, 1–4096 (``bad_count_setting``)."""
    return validate_count("nodes", value)


def validate_tasks_per_node(value: Any) -> int:
    """MPI processes per node of a batch job, 1–4096 (``bad_count_setting``)."""
    return validate_count("tasksPerNode", value)


def validate_threads(value: Any) -> int:
    """OMP_NUM_THREADS, a batch job's CPUs per task, 1–1024 (``bad_count_setting``)."""
    return validate_count("threads", value)


def validate_processes(value: Any) -> int:
    """MPI processes of a local run, 1–4096 (``bad_count_setting``)."""
    return validate_count("processes", value)


def validate_time_limit(value: Any) -> float | int | None:
    """The wall-time limit in seconds: None (no limit) or finite, > 0, at most 366 days.

    Raises:
        ValidationError: ``bad_time_limit``.
    """
    if value is None:
        return None
    if not _is_number(value) or not math.isfinite(value) or not 0 < value <= MAX_TIME_LIMIT:
        raise ValidationError(
            "bad_time_limit",
            value=shown(value),
            maximum=f"{MAX_TIME_LIMIT:.0f}",
            days=int(MAX_TIME_LIMIT // 86400),
            **_where("time_limit"),
        )
    return value if isinstance(value, int) else float(value)


def directive_parts(value: Any) -> tuple[str, str]:
    """``--mem=4G`` → ``("mem", "4G")`` (a leading ``#SBATCH`` is allowed).

    Raises:
        ValidationError: ``bad_batch_directive`` or ``reserved_batch_directive``.
    """
    if not isinstance(value, str) or len(value) > MAX_DIRECTIVE:
        raise ValidationError(
            "bad_batch_directive", value=shown(value), **_where("batch_directives")
        )
    text = value
    if text.startswith("#SBATCH "):
        text = text[len("#SBATCH ") :].lstrip(" ")
    name, sep, arg = text.partition("=")
    if (
        not name.startswith("--")
        or not sep
        or not _DIRECTIVE_NAME.fullmatch(name[2:])
        or not _DIRECTIVE_VALUE.fullmatch(arg)
    ):
        raise ValidationError(
            "bad_batch_directive", value=shown(value), **_where("batch_directives")
        )
    name = name[2:]
    hit = next((r for r in RESERVED_DIRECTIVES if r.startswith(name)), None)
    if hit is not None:
        raise ValidationError(
            "reserved_batch_directive", value=shown(value), name=hit, **_where("batch_directives")
        )
    return name, arg


def validate_batch_directive(value: Any) -> str:
    """One extra sbatch option, ``--name=value`` (see :func:`directive_parts`)."""
    directive_parts(value)
    return str(value)


def validate_batch_directives(value: Any) -> list[str]:
    """The list of extra sbatch options, each checked by :func:`validate_batch_directive`.

    Raises:
        ValidationError: ``bad_batch_directive``, ``reserved_batch_directive``.
    """
    if not isinstance(value, list | tuple) or len(value) > 64:
        raise ValidationError(
            "bad_batch_directive", value=shown(value), **_where("batch_directives")
        )
    return [validate_batch_directive(v) for v in value]


def validate_job_name(value: Any) -> str:
    """The batch job's name as PSI/J writes it (``bad_job_name``)."""
    if not isinstance(value, str) or not _JOB_NAME.fullmatch(value):
        raise ValidationError("bad_job_name", value=shown(value))
    return value


def validate_environment(value: Any) -> dict[str, str]:
    """Extra environment variables: identifier names, values without NUL.

    Raises:
        ValidationError: ``bad_environment_variable`` (``name``).
    """
    if not isinstance(value, Mapping):
        raise ValidationError(
            "bad_environment_variable", name=shown(value), **_where("environment")
        )
    for name, val in value.items():
        if (
            not isinstance(name, str)
            or not _ENV_NAME.fullmatch(name)
            or not isinstance(val, str)
            or "\0" in val
        ):
            raise ValidationError(
                "bad_environment_variable", name=shown(name), **_where("environment")
            )
    return dict(value)


def validate_command(setting: str, value: Any) -> str:
    """The executable or launcher command: shell words without control characters.

    Raises:
        ValidationError: ``bad_command_text`` (``setting``, ``value``, ``reason``).
    """
    if not isinstance(value, str):
        raise ValidationError(
            "bad_command_text", value=shown(value), **_where(setting), reason="not text"
        )
    if _CONTROL.search(value):
        raise ValidationError(
            "bad_command_text",
            value=shown(value),
            **_where(setting),
            reason="it holds a line break or another control character",
        )
    try:
        words = shlex.split(value)
    except ValueError as exc:
        raise ValidationError(
            "bad_command_text", value=shown(value), **_where(setting), reason=str(exc)
        ) from exc
    if not words:
        raise ValidationError(
            "bad_command_text", value=shown(value), **_where(setting), reason="it is empty"
        )
    return value


def validate_executable(value: Any) -> str:
    """The NWChem command (``bad_command_text``)."""
    return validate_command("executable", value)


def validate_launcher(value: Any) -> str:
    """The MPI launcher command (``bad_command_text``)."""
    return validate_command("launcher", value)


# -- NWChem names ------------------------------------------------------------------------------
def validate_basis(value: Any) -> str:
    """A basis set name as NWChem's ``library`` reads it; empty is left to the input check.

    Raises:
        ValidationError: ``bad_basis_name``.
    """
    if value == "":
        return ""
    if (
        not isinstance(value, str)
        or len(value) > MAX_BASIS
        or not _BASIS.fullmatch(value)
        or value.lower() in _BASIS_WORDS
    ):
        raise ValidationError(
            "bad_basis_name", value=shown(value), setting="basis", block="calculation", key="basis"
        )
    return value


def validate_functional(value: Any) -> str:
    """A DFT functional's characters: words NWChem's ``xc`` reader takes, no input word.
    Whether the functional table knows it is :func:`molforma.nwchem.functionals.check`'s
    to say (every route that sets one asks it: ``ops.set_nwchem``, the window's field).

    Raises:
        ValidationError: ``bad_functional``.
    """
    return validate_functional_text(value)


def validate_functional_text(value: Any) -> str:
    """The characters of a functional: what any stored value must hold (a project file
    with a functional the table does not know still opens, and the input check names it).

    Raises:
        ValidationError: ``bad_functional``.
    """
    if isinstance(value, str):
        value = value.strip(" ")  # spaces around the name are the generator's to drop
        if value == "":
            return ""
    # Runs of spaces are harmless on one line (the generator joins the words with one);
    # any other white space (a tab, a line break) is not a space and is refused.
    words = [w for w in value.split(" ") if w] if isinstance(value, str) else []
    if (
        not isinstance(value, str)
        or len(value) > MAX_FUNCTIONAL
        or not all(_XC_WORD.fullmatch(w) for w in words)
        or any(w.lower() in _XC_WORDS for w in words)
    ):
        raise ValidationError(
            "bad_functional",
            value=shown(value),
            setting="functional",
            block="calculation",
            key="functional",
        )
    return value


def validate_title(value: Any) -> str:
    """The molecule's title: no control characters, at most 200 characters.

    Raises:
        ValidationError: ``bad_title``.
    """
    if not isinstance(value, str) or len(value) > MAX_TITLE or _CONTROL.search(value):
        raise ValidationError(
            "bad_title",
            value=shown(value),
            maximum=MAX_TITLE,
            setting="title",
            block="document",
            key="title",
        )
    return value


# -- tables ------------------------------------------------------------------------------------
EXECUTION_VALIDATORS: dict[str, Callable[[Any], Any]] = {
    "executable": validate_executable,
    "launcher": validate_launcher,
    "environment": validate_environment,
    "processes": validate_processes,
    "threads": validate_threads,
    "time_limit": validate_time_limit,
    "partition": validate_partition,
    "account": validate_account,
    "qos": validate_qos,
    "nodes": validate_nodes,
    "tasksPerNode": validate_tasks_per_node,
    "batch_directives": validate_batch_directives,
    "remote_profile": validate_remote_profile,
}


def _solvent(value: Any) -> Any:
    from molforma.nwchem.solvents import validate_solvent

    return validate_solvent(value)  # the table's name: "Methanol" is stored as methanol


def _dielectric(value: Any) -> Any:
    from molforma.nwchem.solvents import validate_dielectric

    return validate_dielectric(value)


CALCULATION_VALIDATORS: dict[str, Callable[[Any], Any]] = {
    "basis": validate_basis,
    "functional": validate_functional,
    "solvent": _solvent,
    "dielectric": _dielectric,
}
MOLECULE_VALIDATORS: dict[str, Callable[[Any], Any]] = {"title": validate_title}


def _validate(
    table: Mapping[str, Callable[[Any], Any]], values: Mapping[str, Any]
) -> dict[str, Any]:
    return {k: (table[k](v) if k in table else v) for k, v in values.items()}


def validate_execution_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """Every execution value in ``values`` checked by its own validator (others as given)."""
    return _validate(EXECUTION_VALIDATORS, values)


def validate_calculation_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """Every calculation value in ``values`` checked by its own validator (others as given)."""
    return _validate(CALCULATION_VALIDATORS, values)


__all__ = [
    "CALCULATION_VALIDATORS",
    "EXECUTION_VALIDATORS",
    "MAX_TIME_LIMIT",
    "MOLECULE_VALIDATORS",
    "RESERVED_DIRECTIVES",
    "directive_parts",
    "shown",
    "validate_account",
    "validate_basis",
    "validate_batch_directive",
    "validate_batch_directives",
    "validate_calculation_values",
    "validate_command",
    "validate_count",
    "validate_environment",
    "validate_executable",
    "validate_execution_values",
    "validate_functional",
    "validate_functional_text",
    "validate_job_name",
    "validate_launcher",
    "validate_nodes",
    "validate_partition",
    "validate_processes",
    "validate_profile_name",
    "validate_qos",
    "validate_remote_command",
    "validate_remote_environment_line",
    "validate_remote_environment_lines",
    "validate_remote_folder",
    "validate_remote_profile",
    "validate_slurm_name",
    "validate_ssh_config_path",
    "validate_ssh_host",
    "validate_tasks_per_node",
    "validate_threads",
    "validate_time_limit",
    "validate_title",
]
