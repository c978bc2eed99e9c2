"""Reports: read the Parquet tables of a results folder (never re-simulate) and summarise them.

``build_report`` (`reports.report`: matplotlib and every section) and ``format_summary`` /
``summarize`` (`reports.summary`, what ``whistlab run`` prints) are imported on first use, so
that the summary does not pay for the report's imports."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__all__ = ["build_report", "format_summary", "summarize"]

_WHERE = {"build_report": ".report", "format_summary": ".summary", "summarize": ".summary"}

if TYPE_CHECKING:  # pragma: no cover
    from .report import build_report
    from .summary import format_summary, summarize


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
