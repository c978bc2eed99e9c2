"""Arrow columns from numpy buffers (`sim.arrow`): the same arrays as ``pyarrow.array`` makes, read
back exactly, and a block's tables and files made without importing pandas (issue 19: a third of
a second in every worker process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from sim import arrow

ROOT = Path(__file__).resolve().parents[1]
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float32, np.float64, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 1000])
def test_array_is_pyarrows_and_reads_back(dtype, n):
    rng = np.random.default_rng(n)
    values = (rng.random(n) < 0.5 if dtype is np.bool_
              else rng.integers(-100, 100, n)).astype(dtype)
    made = arrow.array(values)
    assert made.type == pa.array(values).type
    assert made.equals(pa.array(values))
    back = arrow.values(made)
    assert back.dtype == values.dtype and (back == values).all()
    chunked = pa.chunked_array([made.slice(0, n // 3), made.slice(n // 3)], type=made.type)
    assert (arrow.values(chunked) == values).all()
    assert (arrow.values(made.slice(min(1, n))) == values[min(1, n):]).all()


def test_strided_arrays_and_refusals():
    every_third = np.arange(20, dtype=np.int16)[::3]
    assert arrow.array(every_third).equals(pa.array(every_third.copy()))
    alternate = (np.arange(20) % 3 == 0)[::2]
    assert arrow.array(alternate).equals(pa.array(alternate.copy()))
    with pytest.raises(ValueError):
        arrow.array(np.zeros((2, 2), np.int8))
    with pytest.raises(ValueError):
        arrow.values(pa.array(["a"]))


def test_repeated_text():
    assert arrow.repeated("héllo", 5).equals(pa.array(["héllo"] * 5, pa.string()))
    assert arrow.repeated("x", 0).equals(pa.array([], pa.string()))
    assert arrow.table({"a": np.arange(3, dtype=np.int8), "b": np.ones(3, bool)}).equals(
        pa.table({"a": np.arange(3, dtype=np.int8), "b": np.ones(3, bool)}))


NO_PANDAS = """
import json, sys
from pathlib import Path
from whistlab.experiment import build_experiment
from whistlab.runner import run_block, write_block
exp = build_experiment({"name": "np", "rules": "spades.standard", "strategy": "seed",
                        "games": 40, "seed": 3, "block_size": 20})
c, b, files = run_block(exp, 0, 1)
write_block(files, Path(sys.argv[1]), exp.cells[c], b)
print(json.dumps(sorted(m for m in ("pandas", "scipy", "polars", "matplotlib")
                        if m in sys.modules)))
"""


def test_a_block_is_made_and_written_without_pandas(tmp_path):
    """What a worker process does (simulate a block, build its tables, write its Parquet files)
    imports neither pandas nor the report's libraries."""
    done = subprocess.run([sys.executable, "-c", NO_PANDAS, str(tmp_path)], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
    assert list((tmp_path / "hands").glob("*.parquet"))
