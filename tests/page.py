"""The report pages' HTML as the report tests read it: every tag, every linked URL (a
self-contained page links none), and the section titles (h2)."""

from __future__ import annotations

from html.parser import HTMLParser

__all__ = ["Page"]


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
