"""The first thing a newcomer does: ``whistlab run --rules PRESET`` and ``whistlab report`` on it.

A run of one variant and one line-up has no counterpart to pair with and one row per figure;
its report must still be built, with every figure laid out (matplotlib's warnings are errors
here: a panel whose height collapsed to nothing warns and is unreadable). Found by hand: a
Portland run of one variant failed with a polars error, and its dealer figure's panels had no
height once the legend was drawn below them.
"""

from __future__ import annotations

import warnings

import pytest

from whistlab.cli import main

CASES = [("spades.standard", "games"), ("spades.three", "games"), ("portland", "games"),
         ("portland", "hands"), ("portland.honours", "games"), ("norwegian", "games"),
         ("norwegian.three", "hands")]


@pytest.mark.parametrize(("rules", "mode"), CASES, ids=["/".join(c) for c in CASES])
def test_a_one_variant_run_has_a_report(tmp_path, capsys, rules, mode):
    out = tmp_path / "r"
    size = "40" if mode == "games" else "400"
    assert main(["run", "--rules", rules, f"--{mode}", size, "--block-size", size,
                 "--n-jobs", "1", "--quiet", "--out", str(out)]) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code = main(["report", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    page = (out / "report" / "index.html").read_text(encoding="utf-8")
    assert "<nav" in page and "Traceback" not in page
    assert list((out / "report" / "figures").glob("*.png"))
