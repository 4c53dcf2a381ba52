"""`python -m zomgen` is the `zomgen` command."""

from zomgen.cli import main

raise SystemExit(main())
