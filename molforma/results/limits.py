"""Results limits (docs/reference/results.md, Limits) and the error codes of the results readers (no Qt).

Every reader checks the same limits while it reads, so an oversize file fails
early with a :class:`~molforma.errors.ResultsError` whose code says which limit
was passed. The English and Japanese messages of those codes are registered here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from molforma.errors import ResultsError
from molforma.i18n import register

MAX_FILE_BYTES = 128 * 1024 * 1024
MAX_ATOMS = 2_000
MAX_STRUCTURES = 2_000
MAX_TRAJECTORY_ATOMS = 200_000
# An NWChem output keeps its geometries in a FrameStore (24 bytes an atom), so by
# default it has no structure cap: the 128 MiB file limit bounds its frames (at most
# about 1.5 million atom lines, 36 MB of coordinates).
UNCAPPED = 10**12


@dataclass(frozen=True)
class Limits:
    """The limits a reader enforces; the defaults are those of docs/reference/results.md."""

    max_file_bytes: int = MAX_FILE_BYTES
    max_atoms: int = MAX_ATOMS
    max_structures: int = MAX_STRUCTURES
    max_trajectory_atoms: int = MAX_TRAJECTORY_ATOMS

    def for_output(self) -> Limits:
        """The limits an NWChem output is read with: the documented structure and trajectory
        caps are lifted (the output's frames are kept compactly and the file size bounds
        them); limits set to something else than the defaults stay."""
        return Limits(
            self.max_file_bytes,
            self.max_atoms,
            UNCAPPED if self.max_structures == MAX_STRUCTURES else self.max_structures,
            UNCAPPED
            if self.max_trajectory_atoms == MAX_TRAJECTORY_ATOMS
            else self.max_trajectory_atoms,
        )


DEFAULT_LIMITS = Limits()
UNLIMITED = Limits(10**15, 10**9, 10**9, 10**15)


class StructureCounter:
    """Counts structures and atoms as a reader finds them and fails past a limit."""

    def __init__(self, limits: Limits, source: str) -> None:
        self.limits = limits
        self.source = source
        self.structures = 0
        self.atoms = 0

    def add(self, natoms: int) -> None:
        """Account for one more structure of ``natoms`` atoms.

        Raises:
            ResultsError: ``results_too_many_atoms``, ``results_too_many_structures`` or
                ``results_trajectory_too_large``.
        """
        lim = self.limits
        if natoms > lim.max_atoms:
            raise ResultsError(
                "results_too_many_atoms", path=self.source, atoms=natoms, limit=lim.max_atoms
            )
        self.structures += 1
        self.atoms += natoms
        if self.structures > lim.max_structures:
            raise ResultsError(
                "results_too_many_structures", path=self.source, limit=lim.max_structures
            )
        if self.atoms > lim.max_trajectory_atoms:
            raise ResultsError(
                "results_trajectory_too_large",
                path=self.source,
                limit=lim.max_trajectory_atoms,
            )


def check_cancel(cancel: threading.Event | None, source: str) -> None:
    """Raise ``results_cancelled`` when ``cancel`` is set.

    Raises:
        ResultsError: the load was cancelled.
    """
    if cancel is not None and cancel.is_set():
        raise ResultsError("results_cancelled", path=source)


register(
    {
        "results_file_too_large": {
            "en": "{path} is {size} bytes; results files may be at most {limit} bytes (128 MiB).",
            "ja": "{path} は {size} バイトです。結果ファイルの上限は {limit} バイト（128 MiB）です。",
        },
        "results_too_many_atoms": {
            "en": "{path}: a structure has {atoms} atoms; at most {limit} are supported.",
            "ja": "{path}: 構造の原子数が {atoms} です。上限は {limit} 原子です。",
        },
        "results_too_many_structures": {
            "en": "{path} has more than {limit} structures; results may hold at most {limit}.",
            "ja": "{path} の構造が {limit} を超えています。結果に持てる構造は {limit} までです。",
        },
        "results_trajectory_too_large": {
            "en": "{path}: the structures hold more than {limit} atoms in all "
            "(limit of a trajectory).",
            "ja": "{path}: 全構造の原子数の合計が {limit} を超えています（軌跡の上限）。",
        },
        "results_not_found": {
            "en": "No such file or folder: {path}",
            "ja": "ファイルまたはフォルダがありません: {path}",
        },
        "results_unreadable": {
            "en": "Cannot read {path}: {reason}",
            "ja": "{path} を読み込めません: {reason}",
        },
        "results_unknown_format": {
            "en": "{path} is not an NWChem output, MOLDEN or XYZ file.",
            "ja": "{path} は NWChem の出力、MOLDEN、XYZ のいずれでもありません。",
        },
        "results_bad_file": {
            "en": "{path}, line {line}: {reason}",
            "ja": "{path} の {line} 行目: {reason}",
        },
        "results_no_result_files": {
            "en": "The folder {path} holds no NWChem output, MOLDEN or XYZ file.",
            "ja": "フォルダ {path} に NWChem の出力、MOLDEN、XYZ ファイルがありません。",
        },
        "results_no_animation_steps": {
            "en": "No step files of mode {mode} ({pattern}) are left in {folder}.",
            "ja": "{folder} にモード {mode} のステップファイル（{pattern}）がありません。",
        },
        "results_cancelled": {
            "en": "Loading {path} was cancelled; the previous results are kept.",
            "ja": "{path} の読み込みを取り消しました。以前の結果はそのままです。",
        },
        "results_nothing_loaded": {
            "en": "No results are loaded. Open a file or a folder first.",
            "ja": "結果が読み込まれていません。先にファイルかフォルダを開いてください。",
        },
        "results_unknown_section": {
            "en": "Unknown results section '{section}'. Sections: {sections}.",
            "ja": "結果のセクション「{section}」はありません。セクション: {sections}。",
        },
        "results_bad_paging": {
            "en": "Bad paging argument: {detail}",
            "ja": "ページ指定が不正です: {detail}",
        },
        "results_bad_mode": {
            "en": "Mode {mode} does not exist; there are {count} modes (0-based).",
            "ja": "モード {mode} はありません。モード数は {count} です（0 から数えます）。",
        },
        "results_mode_required": {
            "en": "The section mode_displacements needs a mode index (0-based).",
            "ja": "mode_displacements セクションにはモード番号（0 から）が必要です。",
        },
        "results_no_displacements": {
            "en": "Mode {mode} has no displacement vectors.",
            "ja": "モード {mode} には変位ベクトルがありません。",
        },
        "results_item_too_large": {
            "en": "Item {index} of section {section} is {size} bytes; an item may be at most "
            "{limit} bytes.",
            "ja": "セクション {section} の項目 {index} は {size} バイトです。"
            "1 項目の上限は {limit} バイトです。",
        },
        "results_load_failed": {
            "en": "Loading {path} failed: {detail}",
            "ja": "{path} の読み込みに失敗しました: {detail}",
        },
    }
)
