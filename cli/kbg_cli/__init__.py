"""The ``kbg`` command-line interface (typer + rich) over the kbgrules library."""

RULE_TOPICS = ("cards", "tiles", "evolutions", "dominoes", "terrains", "components", "documents", "setup")
