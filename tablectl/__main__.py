"""`python -m tablectl`: the same as the `tablectl` command."""

import sys

from tablectl.cli import main

sys.exit(main())
