"""What the report tests read: the report pages' HTML (every tag, every linked URL — a
self-contained page links no other page: only its own anchors, its CSV tables and embedded
figures — the anchors it holds and the section titles, h2), a report's CSV tables and a run's
Parquet tables."""

from __future__ import annotations

from html.parser import HTMLParser

import pandas as pd

from written import read_whole

__all__ = ["Page", "PRELUDE", "check_links", "raw", "table"]

PRELUDE = ["Summary", "The run"]  # the h2 of every report before its sections


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
        self.urls, self.tags, self.h2, self.ids = [], [], [], set()
        self._in_h2 = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.urls += [v for k, v in attrs if k in ("src", "href") and v is not None]
        self.ids |= {v for k, v in attrs if k == "id"}
        self._in_h2 = tag == "h2"

    def handle_data(self, data):
        if self._in_h2:
            self.h2.append(data)
            self._in_h2 = False


def check_links(index) -> Page:
    """The report page ``index`` parsed, after checking that it links nothing outside its
    folder: every src an embedded PNG, every href an anchor it holds or one of the report's
    own CSV tables (which exists); it has no script and no stylesheet link."""
    page = Page()
    page.feed(index.read_text(encoding="utf-8"))
    assert "script" not in page.tags and "link" not in page.tags
    for url in page.urls:
        if url.startswith("#"):
            assert url[1:] in page.ids, url
        elif url.startswith("tables/"):
            assert url.endswith(".csv") and (index.parent / url).is_file(), url
        else:
            assert url.startswith("data:image/png;base64,"), url[:40]
    return page
