"""``python -m kbgrules.explain --build``: rewrite the shipped index from the rule data."""

from kbgrules.explain.rank import main

raise SystemExit(main())
