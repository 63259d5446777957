"""``python -m kbgrules.explain --build``: rewrite the shipped index from the rule data."""

from kbgrules.explain.store import main

raise SystemExit(main())
