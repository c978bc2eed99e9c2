"""Tables as the tests read them from a results folder: whole. The files lack the columns their
rules do not bring (docs/SCHEMA.md, "written"); these helpers put them back with the value they
hold, as `reports.data.scan_blocks` and `whistlab.load` do, for tests that read with pandas or
polars directly."""

from __future__ import annotations

import pandas as pd
import polars as pl

from sim.games import GAMES


def whole_pandas(frame: pd.DataFrame, game: str = "spades") -> pd.DataFrame:
    missing = GAMES[game].missing_columns(frame.columns)
    if not missing:
        return frame
    added = pd.DataFrame({name: pd.Series([value] * len(frame), dtype=value.dtype,
                                          index=frame.index) for name, value in missing.items()})
    return pd.concat([frame, added], axis=1)


def whole_polars(frame: pl.DataFrame, game: str = "spades") -> pl.DataFrame:
    missing = GAMES[game].missing_columns(frame.columns)
    return frame.with_columns(pl.Series(name, [value.item()] * frame.height,
                                        dtype=pl.from_numpy(value.reshape(1)).dtypes[0])
                              for name, value in missing.items())


def read_whole(files, game: str = "spades") -> pd.DataFrame:
    """Parquet files (or a table's folder) as one pandas DataFrame, each file made whole."""
    from pathlib import Path

    files = sorted(Path(files).glob("*.parquet")) if Path(str(files)).is_dir() else list(files)
    return pd.concat([whole_pandas(pd.read_parquet(f), game) for f in files],
                     ignore_index=True)


def read_whole_polars(files, game: str = "spades") -> pl.DataFrame:
    """Parquet files (a glob or a list) as one polars DataFrame, each file made whole."""
    import glob

    files = sorted(glob.glob(str(files))) if isinstance(files, str | bytes) or hasattr(
        files, "as_posix") else list(files)
    return pl.concat([whole_polars(pl.read_parquet(f), game) for f in files], how="diagonal")
