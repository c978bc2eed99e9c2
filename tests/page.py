"""What the report tests read: the report pages' HTML (every tag, every linked URL — a
self-contained page links none — and the section titles, h2), a report's CSV tables and a run's
Parquet tables."""

from __future__ import annotations

from html.parser import HTMLParser

import pandas as pd

from written import read_whole

__all__ = ["Page", "raw", "table"]


def table(folder, name: str) -> pd.DataFrame:
    """The report's table ``name`` (``folder/report/tables/<name>.csv``)."""
    return pd.read_csv(folder / "report" / "tables" / f"{name}.csv")


def raw(folder, name: str = "hands") -> pd.DataFrame:
    """A run's Parquet table, whole (`written`), with the cell columns as plain strings."""
    frame = read_whole(folder / name)
    for col in ("variant", "lineup"):
        frame[col] = frame[col].astype(str)
    return frame


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls, self.tags, self.h2 = [], [], []
        self._in_h2 = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.urls += [v for k, v in attrs if k in ("src", "href") and v is not None]
        self._in_h2 = tag == "h2"

    def handle_data(self, data):
        if self._in_h2:
            self.h2.append(data)
            self._in_h2 = False
