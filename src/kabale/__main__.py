"""``python -m kabale``: the same as the ``kabale`` command."""

import sys

from .cli import main

sys.exit(main())
