"""Reports: read the Parquet tables of a results folder (never re-simulate) and summarise them."""

from .report import build_report
from .summary import format_summary, summarize

__all__ = ["build_report", "format_summary", "summarize"]
