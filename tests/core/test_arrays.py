"""The np.unique stand-ins agree with np.unique on random keys, and open no numpy.ma."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from molforma.document.arrays import first_of_each, has_repeats, runs


@pytest.mark.parametrize("seed", range(40))
def test_helpers_agree_with_np_unique(seed: int) -> None:
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 25, rng.integers(0, 40))
    s = np.sort(keys)
    for mine, ref in zip(runs(s), np.unique(s, return_index=True, return_counts=True), strict=True):
        assert mine.tolist() == ref.tolist()
    if len(keys):
        assert first_of_each(keys).tolist() == np.unique(keys, return_index=True)[1].tolist()
    assert has_repeats(keys) == (len(np.unique(keys)) != len(keys))


def test_opening_a_molecule_does_not_import_masked_arrays(tmp_path) -> None:
    # np.unique imports numpy.ma (20-25 ms of every start that opens a file).
    xyz = tmp_path / "w.xyz"
    xyz.write_text("3\nwater\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n")
    code = (
        "import sys; from molforma.app import ops; from molforma.document.document "
        f"import Document; ops.open_file(Document(), {str(xyz)!r}, preview=False); "
        "print('numpy.ma' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
