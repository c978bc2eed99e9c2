"""`whistlab play`: a person plays one seat in the terminal against whistlab's strategies
(`session`), told what happens at the table (`table`), asked every decision (`person`, `prompt`),
in the words of `text`."""

from .session import play_session

__all__ = ["play_session"]
