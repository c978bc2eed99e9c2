"""Results do not change under a restructuring (issue 19): every preset × strategy × mode and every
shipped experiment makes tables whose content agrees with the digests stored before it
(tests/data/digests.json, made by ``python tests/digests.py`` at the last commit before the first
structural one; see tests/digests.py for what "agrees" means when a constant column is no longer
written)."""

from __future__ import annotations

import json

import pytest

import digests

STORED = json.loads(digests.STORED.read_text(encoding="utf-8"))


def test_every_cell_has_a_stored_digest():
    """A preset, strategy or experiment added later needs its digest made by the code it was
    added to; one missing here would go unchecked."""
    assert {digests.cell_key(*cell) for cell in digests.CELLS} <= set(STORED["presets"])
    assert {p.stem for p in digests.shipped()} <= set(STORED["experiments"])


def _check(old: dict, new: dict) -> None:
    assert set(new) == set(old), (sorted(old), sorted(new))
    problems = {table: digests.agrees(old[table], new[table]) for table in old}
    assert not any(problems.values()), problems


@pytest.mark.slow
@pytest.mark.parametrize("cell", digests.CELLS, ids=[digests.cell_key(*c) for c in digests.CELLS])
def test_preset_cell_unchanged(cell):
    _check(STORED["presets"][digests.cell_key(*cell)], digests.run_cell(*cell))


@pytest.mark.slow
@pytest.mark.parametrize("path", digests.shipped(), ids=[p.stem for p in digests.shipped()])
def test_shipped_experiment_unchanged(path):
    _check(STORED["experiments"][path.stem], digests.run_shipped(path))


def test_agrees_sees_a_change():
    """The comparison itself: a changed value, a changed constant, a dropped varying column."""
    import pyarrow as pa

    base = pa.table({"a": [1, 2, 3], "b": [0, 0, 0], "c": [5, 5, 6]})
    old = digests.table_summary(base)
    assert digests.agrees(old, digests.table_summary(base)) == []
    assert digests.agrees(old, digests.table_summary(base.drop_columns(["b"]))) == []
    assert digests.agrees(old, digests.table_summary(base.drop_columns(["a"])))
    assert digests.agrees(old, digests.table_summary(
        base.set_column(1, "b", pa.array([1, 1, 1]))))
    assert digests.agrees(old, digests.table_summary(
        base.set_column(0, "a", pa.array([1, 2, 4]))))
    # a column the schema gained since: left out where it holds only the value of rules that do
    # not bring it (or nothing), kept (and so a change) where it holds another
    for values, kept in (([0, 0, 0], False), ([0, None, 0], False), ([0, 4, 0], True)):
        added = base.append_column("face_up_twice_2", pa.array(values, pa.uint64()))
        assert ("face_up_twice_2" in digests.without_added(added).column_names) == kept
        assert bool(digests.agrees(old, digests.table_summary(digests.without_added(added)))) \
            == kept
    assert digests.agrees(old, digests.table_summary(base.append_column("d", pa.array([0] * 3))))
