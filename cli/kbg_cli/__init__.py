"""The ``kbg`` command-line interface (typer + rich) over the kbgrules library."""

RULE_TOPICS = ("components", "documents", "setup")
"""The topics of ``kbg rules GAME TOPIC`` that every game has; each game's engine adds its own
(``reference_topics``) and draws its setup table."""
