import sys

from notation.cli.main import main

sys.exit(main())
