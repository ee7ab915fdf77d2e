import sys

from quizapp.cli.main import main

sys.exit(main())
