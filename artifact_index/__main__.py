"""``python -m artifact_index``: the same as the ``artifact-index`` command."""

import sys

from artifact_index.presentation.command import main

sys.exit(main())
