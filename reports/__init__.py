"""Reports: read the Parquet tables of a results folder (never re-simulate) and summarise them."""

from .summary import format_summary, summarize

__all__ = ["format_summary", "summarize"]
