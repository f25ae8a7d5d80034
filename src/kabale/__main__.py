"""``python -m kabale``: the same as the ``kabale`` command."""

import sys

from ._entry import main

sys.exit(main())
