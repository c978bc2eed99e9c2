"""``python -m whistlab``: the ``whistlab`` command."""

import sys

from .cli import main

sys.exit(main())
