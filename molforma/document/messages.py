"""Japanese and English sentences for the document's error codes (no Qt)."""

from __future__ import annotations

from molforma.i18n import register

register(
    {
        "bad_element": {
            "en": "'{element}' is not an element symbol (atom {id}).",
            "ja": "「{element}」は元素記号ではありません（原子 {id}）。",
        },
        "bad_coordinate": {
            "en": "Coordinate {value} of atom {id} is not a usable number.",
            "ja": "原子 {id} の座標 {value} は使える数値ではありません。",
        },
        "formal_charge_range": {
            "en": "Formal charge {value} of atom {id} is outside -99..20.",
            "ja": "原子 {id} の形式電荷 {value} は -99〜20 の範囲外です。",
        },
        "unpaired_range": {
            "en": "Unpaired electrons {value} of atom {id} are outside 0..8.",
            "ja": "原子 {id} の不対電子数 {value} は 0〜8 の範囲外です。",
        },
        "bad_atom_name": {
            "en": "Atom name {name!r} of atom {id} is too long (max {max}) or has control characters.",
            "ja": "原子 {id} の名前 {name!r} が長すぎる（最大 {max} 文字）か制御文字を含みます。",
        },
        "unknown_isotope": {
            "en": "{element}-{massNumber} is not in the isotope table (atom {id}). "
            "Use 'mass' for an arbitrary mass.",
            "ja": "{element}-{massNumber} は同位体表にありません（原子 {id}）。"
            "任意の質量には mass を使ってください。",
        },
        "bad_mass": {
            "en": "Mass {mass} of atom {id} must be a positive number below 1000.",
            "ja": "原子 {id} の質量 {mass} は 1000 未満の正の数である必要があります。",
        },
        "bad_fixed": {
            "en": "'fixed' of atom {id} must be true or false.",
            "ja": "原子 {id} の fixed は true か false である必要があります。",
        },
        "too_many_atoms": {
            "en": "{count} atoms: a document holds at most {max}.",
            "ja": "原子数 {count}: 文書の上限は {max} 個です。",
        },
        "bad_atom_id": {
            "en": "'{id}' is not a valid atom id (like 'a12').",
            "ja": "「{id}」は正しい原子IDではありません（例: a12）。",
        },
        "duplicate_atom_id": {
            "en": "Atom id {id} appears twice.",
            "ja": "原子ID {id} が重複しています。",
        },
        "bond_unknown_atom": {
            "en": "A bond refers to an unknown atom ({a}-{b}).",
            "ja": "結合が存在しない原子を参照しています（{a}-{b}）。",
        },
        "bond_self": {
            "en": "Atom {a} cannot be bonded to itself.",
            "ja": "原子 {a} を自分自身と結合できません。",
        },
        "duplicate_bond": {
            "en": "The bond {a}-{b} is given twice.",
            "ja": "結合 {a}-{b} が重複しています。",
        },
        "bad_bond_order": {
            "en": "Bond order {order} of {a}-{b} must be 1, 2 or 3.",
            "ja": "結合 {a}-{b} の次数 {order} は 1、2、3 のいずれかです。",
        },
        "no_bond": {"en": "There is no bond {a}-{b}.", "ja": "結合 {a}-{b} はありません。"},
        "bad_charge": {
            "en": "Charge {value} is not a usable integer.",
            "ja": "電荷 {value} は使える整数ではありません。",
        },
        "bad_multiplicity": {
            "en": "Multiplicity {value} must be an integer from 1 to 20.",
            "ja": "多重度 {value} は 1〜20 の整数です。",
        },
        "atoms_too_close": {
            "en": "Atoms {a} and {b} would be {distance} Å apart (minimum {min} Å): duplicate position.",
            "ja": "原子 {a} と {b} の距離が {distance} Å になります（最小 {min} Å）。座標が重複しています。",
        },
        "bad_next_atom_id": {
            "en": "nextAtomId {nextAtomId} must be above the largest id number {maxId}.",
            "ja": "nextAtomId {nextAtomId} は最大のID番号 {maxId} より大きい必要があります。",
        },
        "bad_setting": {
            "en": "Setting {block}.{key} is invalid: {reason}",
            "ja": "設定 {block}.{key} が不正です: {reason}",
        },
        "unknown_setting": {
            "en": "Unknown setting '{key}' in {block}. Known: {known}",
            "ja": "{block} に不明な設定「{key}」があります。使える設定: {known}",
        },
        "nothing_to_undo": {"en": "Nothing to undo.", "ja": "元に戻す操作がありません。"},
        "nothing_to_redo": {"en": "Nothing to redo.", "ja": "やり直す操作がありません。"},
        "fixed_atom": {
            "en": "Atom {id} is fixed and cannot move.",
            "ja": "原子 {id} は固定されているため動かせません。",
        },
        "bad_move": {
            "en": "move_atoms needs exactly one of positions, translate or rotate.",
            "ja": "move_atoms には positions・translate・rotate のどれか一つを指定してください。",
        },
        "bad_axis": {
            "en": "The rotation axis must not be zero.",
            "ja": "回転軸がゼロベクトルです。",
        },
        "empty_edit": {
            "en": "Nothing to change: {detail}",
            "ja": "変更する内容がありません: {detail}",
        },
        "bad_new_atom_ref": {
            "en": "'{ref}' does not name an atom of this call (#0..#{last}).",
            "ja": "「{ref}」はこの呼び出しの原子（#0〜#{last}）を指していません。",
        },
        "file_too_large": {
            "en": "{path} is {size} bytes; the limit is {limit} bytes.",
            "ja": "{path} は {size} バイトです。上限は {limit} バイトです。",
        },
        "unknown_format": {
            "en": "Unknown format '{format}'. Known: {known}",
            "ja": "不明な形式「{format}」です。使える形式: {known}",
        },
        "save_with_candidate": {
            "en": "Confirm or cancel the candidate before saving.",
            "ja": "保存する前に候補を確定または取り消してください。",
        },
        # shared by validate_document and the NWChem input checks
        "empty_molecule": {"en": "The molecule has no atoms.", "ja": "分子に原子がありません。"},
        "multiplicity_parity": {
            "en": "{electrons} electrons cannot have multiplicity {multiplicity}: check the "
            "charge and multiplicity.",
            "ja": "電子数 {electrons} ではスピン多重度 {multiplicity} になりません。"
            "電荷とスピン多重度を確認してください。",
        },
        "too_few_electrons": {
            "en": "The charge leaves {electrons} electrons.",
            "ja": "電荷の結果、電子数が {electrons} になります。",
        },
        "reference_multiplicity": {
            "en": "The RHF reference needs a singlet; multiplicity is {multiplicity}. "
            "Use ROHF or UHF, or leave the reference automatic.",
            "ja": "RHF は一重項専用ですが、スピン多重度は {multiplicity} です。"
            "ROHF か UHF を選ぶか、参照を自動にしてください。",
        },
        "all_atoms_fixed": {
            "en": "Every atom is fixed: there is nothing to optimise.",
            "ja": "すべての原子が固定されているため、構造最適化できません。",
        },
        "fixed_atoms_internal_coordinates": {
            "en": "Fixed atoms need Cartesian coordinates: NWChem cannot combine Cartesian "
            "constraints with internal coordinates. Tick 'Keep my frame' (nocenter) or leave "
            "it automatic, or unfix the atoms.",
            "ja": "固定原子にはデカルト座標が必要です。NWChem はデカルト座標の拘束と内部座標を"
            "同時に使えません。「座標系を保持（中心移動なし）」をオンにするか自動のままにする"
            "か、原子の固定を外してください。",
        },
        "unknown_history_action": {
            "en": "Unknown history action '{action}'.",
            "ja": "不明な履歴操作「{action}」です。",
        },
    }
)
